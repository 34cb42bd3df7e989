"""A C source of the package compiled at first use with the machine's C compiler
into a cache folder and loaded with ctypes — the standard library only, so that
``pip install`` works without a compiler: without one, ``compiled`` gives None and
the caller uses its Python fallback (the tablebase kernel, impl/engines/tablebase/
ckernel.py; the Gothello solver, impl/engines/gothello_solve.py)."""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "zreferee" / "tablebase"


def compiled(source: Path, stem: str, includes: Sequence[Path] = ()) -> ctypes.CDLL | None:
    """``source`` built once per text (its and the files it ``#include``s, ``includes``)
    as ``<stem>-<digest>.so`` and loaded; None without a compiler or where it does not build."""
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in (source, *includes))).hexdigest()[:16]
    target = cache_dir() / f"{stem}-{digest}.so"
    if not target.exists():
        compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
        if compiler is None:
            return None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
                built = Path(scratch) / f"{stem}.so"
                subprocess.run(
                    [compiler, "-O2", "-shared", "-fPIC", "-o", str(built), str(source)],
                    check=True,
                    capture_output=True,
                )
                os.replace(built, target)  # atomic: a concurrent build loses nothing
        except (OSError, subprocess.CalledProcessError):
            return None
    return ctypes.CDLL(str(target))


Signatures = Mapping[str, tuple[Sequence[type[Any]], type[Any] | None]]
"""A library's functions: name → (argument types, result type), as ctypes takes them."""


def library(
    source: Path, stem: str, switch: str, signatures: Signatures, includes: Sequence[Path] = ()
) -> ctypes.CDLL | None:
    """``compiled(source, stem, includes)`` with its functions' types set from
    ``signatures``; None without it, or when the environment variable ``switch`` is
    ``python`` (the Python fallback asked for)."""
    if os.environ.get(switch, "c") == "python":
        return None
    lib = compiled(source, stem, includes)
    if lib is None:
        return None
    for name, (argtypes, restype) in signatures.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = list(argtypes), restype
    return lib
