"""The solve's checkpoint (impl/apps/solve.py; docs/tablebases.md, "Gothello
solved"): every leaf's answer by its position and window, the nodes and CPU seconds
spent, and the result once there is one; read bounded and checked, written atomically."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from impl.atomic import read_bounded, write_atomic
from impl.engines.gothello_certificate import Position

VERSION: Final = 1
CHECKPOINT_BYTES: Final = 64 << 20
"""The largest checkpoint read (a few hundred bytes a leaf)."""

_KEY: Final = re.compile(r"([0-9a-f]{1,7}):([0-9a-f]{1,7}):([01]):(-?[0-9]{1,2}):(-?[0-9]{1,2})")
"""``Checkpoint.key``'s form (``Checkpoint.parse`` checks the ranges)."""


class Damaged(Exception):
    """A checkpoint that is not one of ours."""


@dataclass
class Checkpoint:
    """The leaves answered so far: ``"mine:theirs:passed:alpha:beta"`` (hex boards)
    → the compiled solver's fail-soft answer; and the nodes and CPU seconds spent."""

    path: Path
    leaves: dict[str, int] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0
    result: dict[str, object] = field(default_factory=dict)

    @staticmethod
    def key(position: Position, alpha: int, beta: int) -> str:
        return f"{position[0]:x}:{position[1]:x}:{position[2]}:{alpha}:{beta}"

    @staticmethod
    def parse(key: str) -> tuple[Position, int, int] | None:
        """``key``'s position and window; None unless it has the form ``key`` writes:
        two disjoint boards of 25 points, a pass flag, a window within ±26."""
        found = _KEY.fullmatch(key)
        if found is None:
            return None
        mine, theirs, alpha, beta = int(found[1], 16), int(found[2], 16), int(found[4]), int(found[5])
        if mine >= 1 << 25 or theirs >= 1 << 25 or mine & theirs or not -26 <= alpha < beta <= 26:
            return None
        return (mine, theirs, int(found[3])), alpha, beta

    @classmethod
    def load(cls, path: Path) -> Checkpoint:
        try:
            data = json.loads(read_bounded(path, CHECKPOINT_BYTES))
        except FileNotFoundError:
            return cls(path)
        except (ValueError, UnicodeDecodeError) as exc:
            raise Damaged(f"{path}: not a solve checkpoint ({exc})") from None
        if not (isinstance(data, dict) and data.get("version") == VERSION and isinstance(data.get("leaves"), dict)):
            raise Damaged(f"{path}: not a solve checkpoint of version {VERSION}")
        answers = data["leaves"]
        if not all(isinstance(k, str) and type(v) is int and -26 <= v <= 26 for k, v in answers.items()):
            raise Damaged(f"{path}: a leaf that is not a margin")
        bad = next((k for k in answers if Checkpoint.parse(k) is None), None)
        if bad is not None:
            raise Damaged(f"{path}: {bad[:40]!r} is not a leaf's position and window")
        nodes, seconds = data.get("nodes", 0), data.get("seconds", 0.0)
        result = data.get("result", {})
        if type(nodes) is not int or not isinstance(seconds, int | float) or not isinstance(result, dict):
            raise Damaged(f"{path}: bad totals")
        return cls(path, dict(answers), nodes, float(seconds), result)

    def save(self) -> None:
        data = {
            "version": VERSION,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "result": self.result,
            "leaves": self.leaves,
        }
        write_atomic(self.path, json.dumps(data, indent=0, sort_keys=True) + "\n")
