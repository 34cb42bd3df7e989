"""The optional mypyc build of the fast engines, and which build is running.

    python -m impl.engines._build                  compile impl/engines/awari.py and impl/engines/gothello.py in place
    python -m impl.engines._build --if-requested   the same only when IMPL_MYPYC=1 is in the environment
    python -m impl.engines._build --clean          remove the compiled modules: back to pure Python
    python -m impl.engines._build --status         which build each engine runs, and whether it is current

Python imports an extension module in preference to a source file of the same
name, so after a build ``impl.engines.awari`` and ``impl.engines.gothello`` are the compiled
modules and without one they are the pure-Python sources: the same code either
way (mypyc compiles the sources as they are), the sources always the fallback.
A compiled module does not know when its source changes, so the build records the
sources' hashes beside them and ``stale()`` reports a build that no longer matches
(tests/engines/test_engine_interface.py fails on one).  ``load_source`` loads a source
module under another name, so that tests can run the pure-Python engines beside
the compiled ones.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
ENGINES = ("awari", "gothello")
STAMP = HERE.parent.parent / "build" / "mypyc-stamp.json"
"""The sources' hashes at the last build (build/ is not in git)."""


def _digest(game: str) -> str:
    return hashlib.sha256((HERE / f"{game}.py").read_bytes()).hexdigest()


def compiled(game: str) -> bool:
    """``impl.engines.<game>`` as imported is a compiled (mypyc) module."""
    module = importlib.import_module(f"impl.engines.{game}")
    return not str(module.__file__).endswith(".py")


def build_of(game: str, kind: str = "impl") -> str:
    """What runs behind an engine: ``mypyc`` or ``python`` for impl, and for the spec
    whether its contracts are checked."""
    if kind == "spec":
        from spec.contracts import ENABLED

        return "contracts on" if ENABLED else "contracts off"
    return "mypyc" if compiled(game) else "python"


def stale() -> list[str]:
    """The compiled engines whose source changed since they were built."""
    built = json.loads(STAMP.read_text()) if STAMP.exists() else {}
    return [g for g in ENGINES if _extensions(g) and built.get(g) != _digest(g)]


def load_source(game: str) -> ModuleType:
    """The pure-Python engine module, loaded from its source as ``impl._source_<game>``
    whether or not a compiled one is installed."""
    name = f"impl.engines._source_{game}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, HERE / f"{game}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _extensions(game: str) -> list[Path]:
    return sorted(HERE.glob(f"{game}.*.so")) + sorted(HERE.glob(f"{game}__mypyc.*.so"))


def clean() -> None:
    for game in ENGINES:
        for path in _extensions(game):
            path.unlink()
    STAMP.unlink(missing_ok=True)


def build() -> None:
    """Compile both engines with mypyc, each as its own extension (``separate``), in a
    scratch directory, and copy the extensions beside the sources."""
    from mypyc.build import mypycify

    setup = importlib.import_module("setuptools").setup  # untyped: no stubs in the venv

    root = HERE.parent.parent
    clean()
    with tempfile.TemporaryDirectory() as scratch:
        cwd = Path.cwd()
        os.chdir(root)  # mypyc names modules by their paths: impl/engines/awari.py is impl.engines.awari
        try:
            setup(
                name="zreferee-engines",
                packages=[],
                ext_modules=mypycify([f"impl/engines/{g}.py" for g in ENGINES], opt_level="3", separate=True),
                script_args=["build_ext", "--build-lib", scratch, "--build-temp", str(Path(scratch) / "tmp")],
            )
        finally:
            os.chdir(cwd)
        for path in Path(scratch).rglob("*.so"):
            shutil.copy2(path, HERE / path.name)
    STAMP.parent.mkdir(exist_ok=True)
    STAMP.write_text(json.dumps({g: _digest(g) for g in ENGINES}, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m impl.engines._build", description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--if-requested", action="store_true", help="build only when IMPL_MYPYC=1")
    group.add_argument("--clean", action="store_true")
    group.add_argument("--status", action="store_true")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
    elif args.status:
        pass
    elif not args.if_requested or os.environ.get("IMPL_MYPYC") == "1":
        build()
    for game in ENGINES:
        state = "compiled (mypyc)" if _extensions(game) else "pure Python"
        print(f"impl.engines.{game}: {state}{' — STALE: rebuild' if game in stale() else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
