"""The certificate of black's win at 5×5 Gothello (issue #54; docs/tablebases.md,
"Gothello solved"): black's strategy for the first ``plies`` plies — black's move at
every position the game can reach with black to move, every reply of white's tried,
all of them enumerated by the spec's own engine (spec/gothello.py through
impl/engines/spec_engine.py) — down to the positions after black's move at ply
``plies`` (the *leaves*, white to move), each shown lost for white by the compiled
solver (a null window below 0).  ``check`` follows a certificate on the spec's engine
alone: the strategy's moves legal (the spec's referee's verdict), every reply of
white's answered, every leaf lost by the file's word or the game over with black
ahead.  Above the leaves the win then rests on the spec's rules and nothing else; at
the leaves on the compiled solver (tests/engines/test_gothello_solve.py).
impl/apps/certify.py builds certificates; the perfect player's opening book is the
committed one (``COMMITTED``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from impl.atomic import read_bounded, why, write_atomic
from spec import gothello as G
from spec import result as R

from . import gothello_solve as S
from .gothello import ImplGothello
from .kernels import GothelloState
from .spec_engine import SpecGothello

VERSION: Final = 1
CERTIFICATE_BYTES: Final = 16 << 20
"""The largest certificate read (a few tens of bytes a position)."""
DEFAULT_FIRST: Final = "c3"
"""The centre: the independent pass's winning first move, whose symmetry leaves
white five kinds of reply (docs/tablebases.md)."""

_SPEC: Final = SpecGothello()
_IMPL: Final = ImplGothello()

Position = tuple[int, int, int]
"""(the mover's stones, the other's, 1 if the last action was a pass): the solver's."""
COMMITTED: Final = Path(__file__).with_name("gothello-certificate.json")
"""The certificate made here (docs/tablebases.md), shipped with the package."""


def position(state: GothelloState) -> Position:
    """The solver's position of the proven engine's state."""
    return (state[0], state[1], S.passed(state))


TRANSFORMS: Final[tuple[Callable[[int, int], tuple[int, int]], ...]] = (
    lambda f, r: (f, r), lambda f, r: (4 - f, r), lambda f, r: (f, 4 - r), lambda f, r: (4 - f, 4 - r),
    lambda f, r: (r, f), lambda f, r: (4 - r, f), lambda f, r: (r, 4 - f), lambda f, r: (4 - r, 4 - f),
)  # fmt: skip
SYMMETRIES: Final = tuple(tuple(f * 5 + r for f, r in (t(i // 5, i % 5) for i in range(25))) for t in TRANSFORMS)
"""The board's eight symmetries as square maps, here in Python (not the solver's own)."""


def canonical(position: Position) -> Position:
    """The least of a position's eight images: the rules read only adjacency, so images
    have one value (the split searches one child of each set of images)."""

    def image(board: int, to: tuple[int, ...]) -> int:
        return sum(1 << to[i] for i in range(25) if board >> i & 1)

    mine, theirs, passed = position
    return min((image(mine, t), image(theirs, t), passed) for t in SYMMETRIES)


class Damaged(Exception):
    """A file that is not a certificate of ours."""


class Uncertified(Exception):
    """A position of black's with no move the certificate (or a solve) shows winning."""


def key(position: Position) -> str:
    """A position's key: its least image (hex boards, the pass flag)."""
    mine, theirs, passed = canonical(position)
    return f"{mine:x}:{theirs:x}:{passed}"


def position_of(state: G.GothelloGame) -> Position:
    """The solver's position (the mover's stones, the other's, the pass flag) of a spec state."""
    return position(_IMPL.from_spec(state))


@dataclass
class Certificate:
    """``book``: the moves so far (space-separated names, black to move) → black's move;
    ``lost``: leaf keys → the solver's fail-soft answer for white in the window
    (−1, 0) (≤ −1: white loses); nodes and CPU seconds of the solver spent."""

    path: Path
    first: str = DEFAULT_FIRST
    plies: int = 5
    opening: str = ""
    """The moves from the start to the root (black to move there): none by default."""
    book: dict[str, str] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0

    @classmethod
    def load(cls, path: Path, first: str = DEFAULT_FIRST, plies: int = 5, opening: str = "") -> Certificate:
        """The file at ``path``, or a new certificate if there is none."""
        try:
            data = json.loads(read_bounded(path, CERTIFICATE_BYTES))
        except FileNotFoundError:
            return cls(path, first, plies, opening)
        except OSError as exc:  # not a regular file, too large, unreadable
            raise Damaged(why(exc)) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise Damaged(f"{path}: not a Gothello certificate ({exc})") from None
        if not (isinstance(data, dict) and data.get("version") == VERSION):
            raise Damaged(f"{path}: not a Gothello certificate of version {VERSION}")
        book, lost = data.get("book"), data.get("lost")
        if not (isinstance(book, dict) and all(isinstance(k, str) and v in S.NAMES for k, v in book.items())):
            raise Damaged(f"{path}: a book entry that is not a move")
        if not (isinstance(lost, dict) and all(isinstance(k, str) and type(v) is int for k, v in lost.items())):
            raise Damaged(f"{path}: a leaf that is not a margin")
        first_, plies_, opening_ = data.get("first"), data.get("plies"), data.get("opening", "")
        if first_ not in S.NAMES or type(plies_) is not int or not 1 <= plies_ <= 25 or plies_ % 2 == 0:
            raise Damaged(f"{path}: its first move or its plies are not a certificate's")
        if not isinstance(opening_, str) or not all(n in S.NAMES for n in opening_.split()):
            raise Damaged(f"{path}: its opening is not a line of moves")
        nodes, seconds = data.get("nodes"), data.get("seconds")
        if type(nodes) is not int or not isinstance(seconds, int | float):
            raise Damaged(f"{path}: bad totals")
        return cls(path, first_, plies_, opening_, dict(book), dict(lost), nodes, float(seconds))

    def save(self) -> None:
        data = {
            "version": VERSION,
            "first": self.first,
            "plies": self.plies,
            "opening": self.opening,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "book": self.book,
            "lost": self.lost,
        }
        write_atomic(self.path, json.dumps(data, indent=0, sort_keys=True) + "\n")


def _black_ahead(state: G.GothelloGame) -> bool:
    black, white = _SPEC.counts(state)
    return black > white


@dataclass(frozen=True)
class Checked:
    """What ``check`` followed: black's positions, white's replies, the leaves."""

    black: int
    white: int
    leaves: int
    over: int
    """Games ended with black ahead inside the plies (white's pass answered by black's)."""


def root(cert: Certificate) -> tuple[G.GothelloGame, tuple[str, ...]]:
    """The certificate's root on the spec's engine (its opening played from the start)
    and the opening's moves; Uncertified if the opening is not a game's, or leaves white to move."""
    state, played = _SPEC.initial(), tuple(cert.opening.split())
    for name in played:
        move = _SPEC.parse_move(name)
        result, state = (R.illegal_move, state) if move is None or _SPEC.is_over(state) else _SPEC.apply(state, move)
        if result == R.illegal_move:
            raise Uncertified(f"the opening's {name} is not legal")
    if _SPEC.is_over(state) or _SPEC.to_move(state) != G.PLAYER.black:
        raise Uncertified("the opening does not leave black to move")
    return state, played


def check(cert: Certificate) -> Checked:
    """Follow the certificate on the spec's engine alone (module docstring); Uncertified
    names the first position where it does not hold."""
    counts = [0, 0, 0, 0]
    start, opening = root(cert)

    def black(state: G.GothelloGame, played: tuple[str, ...]) -> None:
        counts[0] += 1
        line = " ".join(played)
        name = cert.first if played == opening else cert.book.get(line)
        if name is None:
            raise Uncertified(f"after {line or 'the start'}: black has no move in the certificate")
        move = _SPEC.parse_move(name)
        result, after = (R.illegal_move, state) if move is None else _SPEC.apply(state, move)
        if result == R.illegal_move:  # the spec's referee: its GothelloRef's verdict
            raise Uncertified(f"after {line or 'the start'}: black's {name} is not legal")
        if _SPEC.is_over(after):
            if not _black_ahead(after):
                raise Uncertified(f"after {line} {name}: the game ends without black ahead")
            counts[3] += 1
        elif len(played) - len(opening) + 1 == cert.plies:
            value = cert.lost.get(key(position_of(after)))
            if value is None or value > -1:
                raise Uncertified(f"after {line} {name}: a leaf the certificate does not show lost for white")
            counts[2] += 1
        else:
            white(after, (*played, name))

    def white(state: G.GothelloGame, played: tuple[str, ...]) -> None:
        for reply in _SPEC.legal_moves(state):
            counts[1] += 1
            _, after = _SPEC.apply(state, reply)
            name = _SPEC.format_move(reply)
            if _SPEC.is_over(after):
                if not _black_ahead(after):
                    raise Uncertified(f"after {' '.join((*played, name))}: the game ends without black ahead")
                counts[3] += 1
                continue
            black(after, (*played, name))

    black(start, opening)
    return Checked(*counts)
