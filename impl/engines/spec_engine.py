"""The executable spec behind the engine interface: thin adapters over the spec's
``referee``, so that the spec itself can referee a real game (``--engine spec``)
and be compared with the fast engines through one interface."""

from __future__ import annotations

from impl.game import Side
from spec import awari as A
from spec import awari_rules as AR
from spec import gothello as G
from spec import result as R
from spec.z import Fun, override

from . import notation
from .port import Cells, MoveDescription, Result, gained, not_legal


class SpecAwari:
    """Awari by the spec: states are spec AwariGame values; the rule set's referee
    (spec/awari_rules.py; the paper's own AwariRef for the default)."""

    game = "awari"
    kind = "spec"
    players = (A.PLAYER.south, A.PLAYER.north)

    def __init__(self, rules: AR.AwariRules = AR.PAPER) -> None:
        self.rules = rules

    def initial(self) -> A.AwariGame:
        return A.InitAwari()

    def to_move(self, state: A.AwariGame) -> A.PLAYER:
        return state.to_move

    def apply(self, state: A.AwariGame, action: A.PIT) -> tuple[Result[A.PLAYER], A.AwariGame]:
        return AR.referee(self.rules, state, action)

    def legal_moves(self, state: A.AwariGame) -> tuple[A.PIT, ...]:
        return AR.legal_moves(self.rules, state)

    def why_illegal(self, state: A.AwariGame, action: A.PIT) -> str | None:
        if self.is_over(state):
            return "the game is over"
        if action in self.legal_moves(state):
            return None
        return notation.awari_illegal(action, state.to_move, state.board[action])

    def is_over(self, state: A.AwariGame) -> bool:
        return AR.game_over(self.rules, state)

    def counts(self, state: A.AwariGame) -> tuple[int, int]:
        return state.score[A.PLAYER.south], state.score[A.PLAYER.north]

    def parse_move(self, text: str) -> A.PIT | None:
        return notation.parse_pit(text)

    def format_move(self, action: A.PIT) -> str:
        return notation.format_pit(action)

    def render(self, state: A.AwariGame) -> list[str]:
        return notation.render_awari(state.board, state.score, state.to_move)

    def cells(self, state: A.AwariGame) -> Cells:
        return tuple((p.name, state.board[p]) for p in A.PIT)

    def describe(self, state: A.AwariGame, action: A.PIT) -> MoveDescription:
        """Sow ⨟ Capture under the rule set (spec/awari_rules.py ``CAPTURES``):
        Capture's ``captures``, and what they held after the sowing."""
        result, after = self.apply(state, action)
        if self.is_over(state) or result == R.illegal_move:
            raise not_legal(self, action)
        sown, to_capture = A.Sow(A.θAwariBoard(state), action)
        captures = AR.CAPTURES[self.rules.grand_slam](sown, to_capture)[1]
        mover = Side(self.players.index(state.to_move))
        won = gained(self, state, after, mover)
        stones = state.board[action]
        text = notation.awari_movetext(action, stones, won)
        taken = sum(sown.board[p] for p in captures)
        return MoveDescription(mover, action.name, text, stones, tuple(p.name for p in sorted(captures)), taken, won)

    def to_spec(self, state: A.AwariGame) -> A.AwariGame:
        return state

    def from_spec(self, game: A.AwariGame) -> A.AwariGame:
        return game


class SpecGothello:
    """Gothello by the spec: states are spec GothelloGame values."""

    game = "gothello"
    kind = "spec"
    players = (G.PLAYER.black, G.PLAYER.white)

    def initial(self) -> G.GothelloGame:
        return G.InitGothelloGame()

    def to_move(self, state: G.GothelloGame) -> G.PLAYER:
        return state.to_move

    def apply(self, state: G.GothelloGame, action: G.MOVE) -> tuple[Result[G.PLAYER], G.GothelloGame]:
        return G.referee(state, action)

    def legal_moves(self, state: G.GothelloGame) -> tuple[G.MOVE, ...]:
        return G.legal_moves(state)

    def why_illegal(self, state: G.GothelloGame, action: G.MOVE) -> str | None:
        if G.game_over(state):
            return "the game is over"
        if action in G.legal_moves(state):
            return None
        assert isinstance(action, G.move)  # pass is legal while the game goes on
        return notation.gothello_illegal(action, state.board[action.square] != G.blank)

    def is_over(self, state: G.GothelloGame) -> bool:
        return G.game_over(state)

    def counts(self, state: G.GothelloGame) -> tuple[int, int]:
        return G.stones(state.board, G.PLAYER.black), G.stones(state.board, G.PLAYER.white)

    def parse_move(self, text: str) -> G.MOVE | None:
        return notation.parse_gothello(text)

    def format_move(self, action: G.MOVE) -> str:
        return notation.format_gothello(action)

    def render(self, state: G.GothelloGame) -> list[str]:
        return notation.render_gothello({s: notation.GOTHELLO_CELL[v] for (s, v) in state.board})

    def cells(self, state: G.GothelloGame) -> Cells:
        return tuple(
            (notation.square_name((f, r)), _COLOUR[state.board[(f, r)]]) for f in range(1, 6) for r in range(1, 6)
        )

    def describe(self, state: G.GothelloGame, action: G.MOVE) -> MoveDescription:
        """GothelloMove_corrected's ``captures s`` in cboard (captures_corrected)."""
        result, after = self.apply(state, action)
        if self.is_over(state) or result == R.illegal_move:
            raise not_legal(self, action)
        mover, text = Side(self.players.index(state.to_move)), notation.format_gothello(action)
        squares: list[tuple[int, int]] = []
        if isinstance(action, G.move):
            s = action.square
            cboard = Fun(override(state.board, frozenset({(s, G.stone(state.to_move))})))
            squares = sorted(t for t, _ in G.captures_corrected(cboard, state.to_move, s))
        captured = tuple(notation.square_name(t) for t in squares)
        return MoveDescription(mover, text, text, 0, captured, len(captured), gained(self, state, after, mover))

    def to_spec(self, state: G.GothelloGame) -> G.GothelloGame:
        return state

    def from_spec(self, game: G.GothelloGame) -> G.GothelloGame:
        return game


_COLOUR = {G.blank: "", G.stone(G.PLAYER.black): "black", G.stone(G.PLAYER.white): "white"}
