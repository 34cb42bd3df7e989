"""The C kernel (``kernel.c``), compiled at first use (impl/engines/ccompile.py):
without a compiler (or with
``ZREFEREE_TABLEBASE_KERNEL=python``) ``load`` gives None and the builder uses
kernel.py, the same rules at about a hundredth of the speed."""

from __future__ import annotations

import ctypes
import os
from functools import cache
from pathlib import Path

from ..ccompile import compiled

SOURCE = Path(__file__).with_name("kernel.c")


@cache
def load() -> ctypes.CDLL | None:
    """The compiled kernel, built once per source text; None without a compiler."""
    if os.environ.get("ZREFEREE_TABLEBASE_KERNEL", "c") == "python":
        return None
    lib = compiled(SOURCE, "kernel")
    if lib is None:
        return None
    i64, i32 = ctypes.c_int64, ctypes.c_int
    lib.tb_level_size.argtypes = [i32]
    lib.tb_level_size.restype = i64
    lib.tb_options.argtypes = [i32, i32, i32, i64, ctypes.POINTER(i32), ctypes.POINTER(i32), ctypes.POINTER(i64)]
    lib.tb_options.restype = i32
    ptr = ctypes.c_void_p
    lib.tb_edges.argtypes = [i32, i32, i32, ptr, ptr, ptr, ptr, i64, i64]
    lib.tb_edges.restype = i64
    lib.tb_prefix.argtypes = [ptr, i64]
    lib.tb_prefix.restype = i64
    lib.tb_fill.argtypes = [i32, i32, i32, ptr, ptr, i64, i64]
    lib.tb_fill.restype = None
    lib.tb_threshold.argtypes = [i32, i64, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ctypes.POINTER(i32)]
    lib.tb_threshold.restype = i64
    lib.tb_unpack.argtypes = [ptr, ptr, ptr, i64]
    lib.tb_unpack.restype = None
    return lib


def options(lib: ctypes.CDLL, n: int, gs: int, bug: int, r: int) -> tuple[int | None, list[tuple[int, int, int, int]]]:
    """kernel.py's ``options`` for the board of n stones of rank r, from the C kernel."""
    term, value = ctypes.c_int(), ctypes.c_int()
    out = (ctypes.c_int64 * 24)()
    count = lib.tb_options(n, gs, bug, r, ctypes.byref(term), ctypes.byref(value), out)
    if term.value:
        return value.value, []
    return None, [(out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]) for i in range(count)]
