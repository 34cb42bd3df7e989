"""Every file or folder a Markdown page names exists: a path in backquotes or a link
target, relative to the repository or to the page (README's stale
``impl/server/PROTOCOL.md`` was found this way)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.support import paths

ROOT = paths.ROOT
TOPS = "spec|impl|tests|proofs|docs|examples|\\.ci"
PATH = re.compile(
    rf"(?<![\w./-])(?:\.\./)?(?:{TOPS})/[\w./-]*?(?:\.(?:py|md|json|jsonl|txt|c|png|html|js|css|toml)|/)(?![\w])"
)
"""A path into the repository that names a file by its extension, or a folder by its
trailing slash: dotted names (``impl/engines/notation.render_awari``) are symbols, not paths."""


def pages() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return [ROOT / name for name in listed.stdout.split()]


def missing(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    named = {m.group(0) for m in PATH.finditer(text)}
    return sorted(p for p in named if not (ROOT / p).exists() and not (page.parent / p).exists())


def test_every_path_a_page_names_exists() -> None:
    assert pages()
    gone = {str(page.relative_to(ROOT)): missing(page) for page in pages()}
    assert {page: paths for page, paths in gone.items() if paths} == {}
