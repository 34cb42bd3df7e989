"""The top of the Gothello solve's proof, checked apart from its search (issue #54;
docs/tablebases.md, "What stands behind it"): from the start, the winning first move
by the proven engine, every reply the opponent has, each answered by a move to a
position the checkpoint's leaves show the opponent loses."""

from __future__ import annotations

from typing import Protocol

from impl.apps import solve_checkpoint
from impl.engines import gothello_solve as S
from impl.engines.gothello import ImplGothello
from impl.engines.gothello_certificate import Position, Uncertified, canonical
from impl.engines.gothello_certificate import position as _position
from impl.engines.kernels import GothelloState


class Checkpoint(Protocol):
    """What is read of the solve's checkpoint (impl/apps/solve.py): its leaves' answers
    by ``"mine:theirs:passed:alpha:beta"``."""

    leaves: dict[str, int]


def loses(checkpoint: Checkpoint) -> set[Position]:
    """The leaf positions the checkpoint shows lost for their mover, canonical: a
    fail-soft answer of at most −1 below its window's top (exact, or an upper bound)."""
    lost = set()
    for key, value in checkpoint.leaves.items():
        parsed = solve_checkpoint.Checkpoint.parse(key)
        assert parsed is not None, key  # Checkpoint.load refuses a malformed key
        position, _, beta = parsed
        if value <= -1 and value < beta:
            lost.add(canonical(position))
    return lost


def certify_top(checkpoint: Checkpoint, first: int) -> list[tuple[str, str]]:
    """The top of the proof, checked apart from the search: from the start, ``first``
    by the proven engine (impl/engines/gothello.py, not the solver's placement), then
    every reply that engine allows the opponent, each answered by a move of the first
    player that ends the game with more stones (the papers' GothelloGameOver: two
    passes) or reaches a position (the opponent to move, three plies down: the default
    split's leaves) the checkpoint shows the opponent loses, itself or an image of it
    under the board's symmetries (``canonical``).  The (reply, answer)
    pairs; Uncertified names the first reply with no such answer."""
    engine, lost = ImplGothello(), loses(checkpoint)
    opening = engine.parse_move(S.NAMES[first])
    assert opening is not None
    _, after_first = engine.apply(engine.initial(), opening)

    def wins(state: GothelloState) -> bool:
        if engine.is_over(state):
            black, white = engine.counts(state)
            return black > white
        return canonical(_position(state)) in lost

    pairs = []
    for reply in engine.legal_moves(after_first):
        _, after_reply = engine.apply(after_first, reply)
        answer = next((m for m in engine.legal_moves(after_reply) if wins(engine.apply(after_reply, m)[1])), None)
        if answer is None:
            raise Uncertified(f"no answer to {engine.format_move(reply)} is a leaf the opponent loses")
        pairs.append((engine.format_move(reply), engine.format_move(answer)))
    return pairs
