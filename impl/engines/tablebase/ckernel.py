"""The C kernel (``kernel.c``), compiled at first use (impl/engines/ccompile.py):
without a compiler (or with
``ZREFEREE_TABLEBASE_KERNEL=python``) ``load`` gives None and the builder uses
kernel.py, the same rules at about a hundredth of the speed."""

from __future__ import annotations

import ctypes
from functools import cache
from pathlib import Path
from typing import Final

from ..ccompile import Signatures, library
from . import kernel
from .index import unrank

SOURCE = Path(__file__).with_name("kernel.c")
_i64, _i32, _ptr = ctypes.c_int64, ctypes.c_int, ctypes.c_void_p
SIGNATURES: Final[Signatures] = {
    "tb_level_size": ([_i32], _i64),
    "tb_options": ([_i32, _i32, _i32, _i64, ctypes.POINTER(_i32), ctypes.POINTER(_i32), ctypes.POINTER(_i64)], _i32),
    "tb_edges": ([_i32, _i32, _i32, _ptr, _ptr, _ptr, _ptr, _i64, _i64], _i64),
    "tb_prefix": ([_ptr, _i64], _i64),
    "tb_fill": ([_i32, _i32, _i32, _ptr, _ptr, _i64, _i64], None),
    "tb_threshold": ([_i32, _i64, _ptr, _ptr, _ptr, _ptr, _ptr, _ptr, _ptr, _ptr, ctypes.POINTER(_i32)], _i64),
    "tb_unpack": ([_ptr, _ptr, _ptr, _i64], None),
    "tb_double": ([_i64, _ptr, _ptr, _ptr, _ptr], None),
}
"""kernel.c's functions, as ctypes calls them."""


@cache
def load() -> ctypes.CDLL | None:
    """The compiled kernel, built once per source text; None without a compiler."""
    return library(SOURCE, "kernel", "ZREFEREE_TABLEBASE_KERNEL", SIGNATURES)


def options(lib: ctypes.CDLL, n: int, gs: int, bug: int, r: int) -> tuple[int | None, list[tuple[int, int, int, int]]]:
    """kernel.py's ``options`` for the board of n stones of rank r, from the C kernel."""
    term, value = ctypes.c_int(), ctypes.c_int()
    out = (ctypes.c_int64 * 24)()
    count = lib.tb_options(n, gs, bug, r, ctypes.byref(term), ctypes.byref(value), out)
    if term.value:
        return value.value, []
    return None, [(out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]) for i in range(count)]


def board_options(n: int, r: int, gs: int, bug: int, use_c: bool = True) -> tuple[int | None, list[kernel.Option]]:
    """kernel.py's ``options`` for the board of n stones of rank r: from the C kernel
    where it is built (and ``use_c``), else from kernel.py itself."""
    lib = load() if use_c else None
    if lib is not None:
        return options(lib, n, gs, bug, r)
    return kernel.options(unrank(r, n), gs, bug)


REACH_SOURCE = Path(__file__).with_name("reach.c")
REACH_SIGNATURES: Final[Signatures] = {
    "tb_level_size": ([_i32], _i64),
    "tb_reach": ([_i32, _i32, _i32, _i64, _ptr, _i32, _i64, _ptr, _ptr], _i32),
}


@cache
def load_reach() -> ctypes.CDLL | None:
    """reach.c (kernel.c included), built once per text of both; None without a compiler."""
    return library(REACH_SOURCE, "reach", "ZREFEREE_TABLEBASE_KERNEL", REACH_SIGNATURES, (SOURCE,))


def reaches(lib: ctypes.CDLL, n: int, gs: int, bug: int, start: int, targets: set[int], limit: int) -> bool:
    """probe.may_repeat's search in the kernel: the board of n stones of rank ``start``
    reaches a rank of ``targets`` by moves that capture nothing (or more than ``limit``
    boards are seen first)."""
    ordered = sorted(targets)
    wanted = (ctypes.c_int64 * max(len(ordered), 1))(*ordered)
    seen = (ctypes.c_uint8 * ((lib.tb_level_size(n) + 7) // 8))()
    queue = (ctypes.c_int64 * (limit + 8))()
    return bool(lib.tb_reach(n, gs, bug, start, wanted, len(ordered), limit, seen, queue))
