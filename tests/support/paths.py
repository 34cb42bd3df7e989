"""Where the repository and the tests' data are, whichever folder of tests/ asks."""

from __future__ import annotations

from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[2]
DATA: Final = ROOT / "tests" / "data"
GATED_PLAYER: Final = ROOT / "tests" / "support" / "gated_player.py"
"""A player program held at gates the test opens (tests/support/gated_player.py)."""
