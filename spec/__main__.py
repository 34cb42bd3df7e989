"""``python -m spec``: the specification's modules, each with what it holds.

spec/ imports nothing of impl/ (tests/test_import_layers.py): the animator, an
application of the spec, is ``referee spec awari|gothello`` (impl/apps/animate.py)."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path

ANIMATOR = "referee spec awari|gothello"


def summary(doc: str | None) -> str:
    """The first sentence of a docstring, its lines joined."""
    paragraph = " ".join((doc or "").strip().split("\n\n")[0].split())
    head, dot, _ = paragraph.partition(". ")
    return head + "." if dot else paragraph


def main(argv: Sequence[str]) -> int:
    if argv:
        print(f"python -m spec: takes no arguments; the animator is `{ANIMATOR}`", file=sys.stderr)
        return 2
    names = sorted(m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if m.name != "__main__")
    width = max(map(len, names))
    for name in names:
        print(f"spec/{name + '.py':<{width + 3}}  {summary(importlib.import_module(f'spec.{name}').__doc__)}")
    print(f"Animate it: {ANIMATOR} (docs/rules.md).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
