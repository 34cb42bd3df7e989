"""RESULT ::= win⟨⟨PLAYER⟩⟩ | draw | not_done | illegal_move

Both papers define this free type with the same constructors over their own PLAYER;
it is written once here, generic in PLAYER, and each game module instantiates it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final, Generic, TypeVar

P = TypeVar("P")


@dataclass(frozen=True)
class win(Generic[P]):
    """win⟨⟨PLAYER⟩⟩: the game is over and ``player`` has won."""

    player: P

    def __str__(self) -> str:
        return f"win {getattr(self.player, 'name', self.player)}"


class Constant(Enum):
    """The constant constructors of RESULT."""

    draw = "draw"
    not_done = "not_done"
    illegal_move = "illegal_move"

    def __str__(self) -> str:
        return self.value


draw: Final = Constant.draw
not_done: Final = Constant.not_done
illegal_move: Final = Constant.illegal_move
