"""The common ending of every proof step: print each problem, then OK or FAILED, and
return the exit status that make checks."""

from __future__ import annotations

from collections.abc import Sequence


def verdict(problems: Sequence[str], label: str = "FAILED:", footer: str = "") -> int:
    """Print the problems (each under label), an optional footer line, and the
    verdict; 0 when there are none, 1 otherwise."""
    for p in problems:
        print(label, p)
    if footer:
        print(footer)
    print("OK" if not problems else f"FAILED: {len(problems)} problem(s)")
    return 1 if problems else 0
