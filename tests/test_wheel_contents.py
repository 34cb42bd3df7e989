"""What the wheel holds, read from pyproject's package discovery without building it
(tests/wheel_check.py builds, installs and plays the wheel in ``make verify``, and
also refuses a wheel that holds a benchmark)."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def packaged() -> list[str]:
    """The packages setuptools puts in the wheel, by pyproject's ``packages.find``."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    find = config["tool"]["setuptools"]["packages"]["find"]
    find_packages = importlib.import_module("setuptools").find_namespace_packages  # untyped: no stubs in the venv
    found = find_packages(str(ROOT), include=find["include"], exclude=find.get("exclude", ()))
    return sorted(str(p) for p in found)


def test_the_benchmarks_are_not_in_the_wheel() -> None:
    """bench/ (``make bench``) is a tool of the checkout: neither it nor a module of a
    benchmark's name inside spec/ or impl/ is packaged."""
    packages = packaged()
    assert "impl.server" in packages and "spec" in packages
    assert [p for p in packages if p.split(".")[0] not in ("spec", "impl")] == []
    benches = [
        path.relative_to(ROOT).as_posix()
        for top in ("spec", "impl")
        for path in (ROOT / top).rglob("*.py")
        if path.stem in ("bench", "flood")
    ]
    assert benches == []
    assert (ROOT / "bench" / "engines.py").is_file()
