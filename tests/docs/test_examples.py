"""Every code example of the README and docs/ is run or checked, so the pages cannot
drift from the code.  The convention, by the fence's language:

* ```python (and ```pycon) — doctests, run here (docs/writing-a-player.md's program,
  its one ```python block without ``>>>``, is compared with examples/ by
  tests/docs/test_player_guide.py);
* ```sh — commands: each is checked without being run (servers and tournaments run
  for minutes): ``referee …`` is parsed by the real ``referee`` parser, ``make T
  VAR=…`` names a Makefile target and its variables, ``python -m M`` a module that
  exists, ``pip install '.[extra]'`` extras pyproject.toml declares, ``cc … F.c`` a file
  that exists and ``./P`` a program the block built;
* ```console — run: each ``$ `` line is a real process (``referee …`` and ``python -m …``,
  offline and quick), and the lines after it are its output, stdout then stderr, with
  ``...`` for what varies (timings) and ``(exit status N)`` when it is not 0;
* anything else (```text, ```c, no language) — illustrative, not run."""

from __future__ import annotations

import contextlib
import doctest
import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from impl.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
GUIDE_PROGRAM = ROOT / "docs" / "writing-a-player.md"


def ids(pages: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in pages]


def fenced(page: Path, *languages: str) -> list[str]:
    """The bodies of the page's top-level fenced blocks in these languages."""
    return [body for lang, body in FENCE.findall(page.read_text(encoding="utf-8")) if lang in languages]


def commands(block: str) -> list[list[str]]:
    """A shell block's commands as argument lists: continuations joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", block)
    return [shlex.split(line, comments=True) for line in joined.splitlines() if shlex.split(line, comments=True)]


def makefile() -> tuple[set[str], set[str]]:
    """The Makefile's targets and the variables it sets or reads (``$(NAME)``)."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([\w-]+):", text, re.M))
    variables = set(re.findall(r"^(\w+)\s*[?:]?=", text, re.M)) | set(re.findall(r"\$\((\w+)\)", text))
    return targets, variables


def extras() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return set(project["optional-dependencies"])


def problem(argv: list[str], built: set[str]) -> str | None:
    """Why a documented command would not work as written, or None."""
    program, args = argv[0], argv[1:]
    if program == "referee":
        failed = io.StringIO()
        try:
            with contextlib.redirect_stderr(failed), contextlib.redirect_stdout(io.StringIO()):
                build_parser().parse_args(args)
        except SystemExit:
            return failed.getvalue().strip().splitlines()[-1] if failed.getvalue() else "exits"
        return None
    if program == "make":
        targets, variables = makefile()
        for word in args:
            name, is_assignment, _ = word.partition("=")
            if (name not in variables) if is_assignment else (word not in targets):
                return f"the Makefile has no {'variable' if is_assignment else 'target'} {name}"
        return None
    if program == "python" and args[:1] == ["-m"]:
        return None if importlib.util.find_spec(args[1]) is not None else f"no module {args[1]}"
    if program in ("pip", "pipx") and args[:1] == ["install"]:
        wanted = [a for a in args[1:] if not a.startswith("-")]
        for spec in wanted:
            match = re.fullmatch(r"\.(?:\[([\w,-]+)\])?", spec)
            if match is None:
                return f"installs {spec}, not this checkout"
            unknown = set(filter(None, (match.group(1) or "").split(","))) - extras()
            if unknown:
                return f"pyproject.toml has no extra {sorted(unknown)}"
        return None
    if program == "cc":
        sources = [a for a in args if a.endswith(".c")]
        if "-o" in args:
            built.add("./" + args[args.index("-o") + 1])
        return None if sources and all((ROOT / s).is_file() for s in sources) else "no such C source"
    if program in built:
        return None
    return f"no check for {program}: mark the block ```text if it is illustrative"


def sessions(block: str) -> list[tuple[list[str], str]]:
    """A console block's commands, each with the output shown after it."""
    found: list[tuple[list[str], str]] = []
    for line in block.splitlines(keepends=True):
        if line.startswith("$ "):
            found.append((shlex.split(line[2:]), ""))
        elif found:
            found[-1] = (found[-1][0], found[-1][1] + line)
    return found


def run(argv: list[str]) -> str:
    """What a console line prints, run as a real process in the repository (``referee``
    through ``python -m impl.cli``, so the checkout's code runs, not an installed copy)."""
    assert argv[0] in ("referee", "python"), f"a console example runs referee or python, not {argv[0]}"
    command = [sys.executable, "-m", "impl.cli", *argv[1:]] if argv[0] == "referee" else [sys.executable, *argv[1:]]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    return done.stdout + done.stderr + (f"(exit status {done.returncode})\n" if done.returncode else "")


def shows(expected: str, actual: str) -> bool:
    return doctest.OutputChecker().check_output(expected, actual, doctest.ELLIPSIS)


CONSOLE = [p for p in PAGES if fenced(p, "console")]


@pytest.mark.parametrize("page", CONSOLE, ids=ids(CONSOLE))
def test_console_examples_print_what_the_page_shows(page: Path) -> None:
    for block in fenced(page, "console"):
        for argv, expected in sessions(block):
            actual = run(argv)
            assert shows(expected, actual), f"$ {shlex.join(argv)}\nshown:\n{expected}\nprinted:\n{actual}"


def test_a_console_example_that_drifted_fails() -> None:
    (argv, expected), *_ = sessions("$ python -c 'import sys; print(7); sys.exit(3)'\n8\n")
    assert argv == ["python", "-c", "import sys; print(7); sys.exit(3)"]
    printed = run(argv)
    assert not shows(expected, printed)
    assert shows("7\n(exit status 3)\n", printed) and not shows("7\n", printed)
    assert CONSOLE


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_python_examples_run_as_doctests(page: Path) -> None:
    blocks = fenced(page, "python", "pycon")
    tested = [b for b in blocks if ">>>" in b]
    assert len(tested) == len(blocks) - (page == GUIDE_PROGRAM), "a ```python block without >>> is not run"
    failed, tried = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert failed == 0
    assert tried >= len(tested)


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_shell_examples_name_what_exists(page: Path) -> None:
    wrong: list[str] = []
    for block in fenced(page, "sh"):
        built: set[str] = set()
        for argv in commands(block):
            why = problem(argv, built)
            if why is not None:
                wrong.append(f"{shlex.join(argv)}: {why}")
    assert wrong == []


def test_the_checks_refuse_what_does_not_exist() -> None:
    """The checker itself: each kind of stale command is caught."""
    stale = [
        ["referee", "serve", "gothello", "--no-such-flag"],
        ["referee", "no-such-command"],
        ["make", "no-such-target"],
        ["make", "serve", "NO_SUCH_VARIABLE=1"],
        ["python", "-m", "impl.no_such_module"],
        ["pip", "install", ".[no-such-extra]"],
        ["cc", "-o", "x", "examples/no_such.c"],
        ["./not_built"],
        ["curl", "http://localhost:29080/"],
    ]
    assert [argv for argv in stale if problem(argv, set()) is None] == []
    assert problem(["referee", "serve", "all", "--forever", "--web", "8080"], set()) is None


def test_the_readme_is_short_and_links_every_page() -> None:
    """README.md stays a newcomer's read (issue #30: at most 250 lines) and links every
    page of docs/, so nothing moved there is lost."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    unlinked = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if f"(docs/{p.name})" not in readme]
    assert unlinked == []


def test_docs_holds_no_generated_bulk() -> None:
    """docs/ holds pages and the screenshots they show; generated output lives beside
    its tool (the mutation record: tests/mutation/results/)."""
    kinds = {p.suffix for p in (ROOT / "docs").iterdir()}
    assert kinds <= {".md", ".png"}
