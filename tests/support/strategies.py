"""Hypothesis strategies for the differential tests: spec states of both games, built
to be well formed by construction (random ints are almost never valid boards:
docs/toolchain.md), and every kind of action.

Two families of states per game:
* *reachable*: random playouts from the initial state, mostly legal moves with
  illegal attempts in between, sometimes past the end of the game.  The playouts
  run on the fast engine (the spec would take seconds per state); the lock-step
  machines in tests/engines/test_differential.py check those same rules against the spec step by step.
* *arbitrary* well-formed: Awari, any distribution of the 48 stones over the pits
  and the two stores, either side to move, positions sets holding the current
  position, the successors of the current position (so the next move repeats) and
  other positions; Gothello, any 5×5 board, either side to move, any history
  (passes at its head, finished games), consistent with the board or not.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from impl.engines.awari import ImplAwari
from impl.engines.gothello import ImplGothello
from spec import awari as A
from spec import gothello as G
from spec.z import Fun

# ─── Awari ─────────────────────────────────────────────────────────────────────

awari_actions = st.sampled_from(tuple(A.PIT))
"""Any pit: on either side, empty or not."""


@st.composite
def awari_positions(draw: st.DrawFn) -> A.AwariBoard:
    """Any well-formed AwariBoard: 48 stones over 12 pits and 2 stores."""
    mode = draw(st.integers(0, 2))
    if mode == 0:  # any split, often a finished game (a score of 25 or more)
        on_board = draw(st.one_of(st.integers(0, 48), st.integers(0, 12), st.just(48)))
        north = draw(st.integers(0, 48 - on_board))
    elif mode == 1:  # a game in play: no score above 24
        on_board = draw(st.integers(0, 24).map(lambda n: 48 - n))
        north = draw(st.integers(0, 48 - on_board))
    else:  # both scores close to the winning margin of 25
        north = draw(st.integers(18, 24))
        on_board = 48 - north - draw(st.integers(18, min(24, 48 - north)))
    rows = draw(st.sampled_from((range(12), range(12), range(12), range(6), range(6, 12))))  # a row may be empty
    support = list(rows)
    if draw(st.integers(0, 3)) == 0:  # the stones piled in a few pits
        support = draw(st.lists(st.sampled_from(rows), min_size=1, max_size=3))
    board = [0] * 12
    for pit in draw(st.lists(st.sampled_from(support), min_size=on_board, max_size=on_board)):
        board[pit] += 1
    to_move = draw(st.sampled_from(A.PLAYER))
    return A.AwariBoard(tuple(board), (north, 48 - on_board - north), to_move)


def _successors(s: A.AwariBoard) -> list[A.AwariBoard]:
    """The positions that one sowing from s leads to, the turn passed (by the spec's
    Sow ⨟ Capture): recorded as seen, they make that sowing a repetition."""
    if max(s.score) >= 25:
        return []
    after = []
    for pit in sorted(A.side(s.to_move), key=lambda p: p.value):  # not hash order: PYTHONHASHSEED-free
        if s.board[pit] > 0:
            moved, _, _ = A.Sow_Capture_corrected(s, pit)
            after.append(A.AwariBoard(moved.board, moved.score, A.opponent(s.to_move)))
    return after


@st.composite
def awari_arbitrary(draw: st.DrawFn) -> A.AwariGame:
    """Any well-formed AwariGame."""
    s = draw(awari_positions())
    positions = set(draw(st.lists(awari_positions(), max_size=3)))
    if draw(st.integers(0, 7)) == 0:  # the game is over by repetition
        positions.add(s)
    successors = _successors(s)
    if successors:
        positions.update(draw(st.lists(st.sampled_from(successors), max_size=3)))
    return A.game_of(s, frozenset(positions))


def _awari_playout(draw: st.DrawFn, g: A.AwariGame, max_steps: int) -> A.AwariGame:
    """g after a random playout on the fast engine: mostly legal moves, sometimes
    any pit.  Either a random number of steps, stopping (usually) at the end of the
    game, or to the end of the game and then a few steps back: the moves that end
    games are then exercised too."""
    engine = ImplAwari()
    state = engine.from_spec(g)
    to_the_end = draw(st.booleans())
    steps = max_steps if to_the_end else draw(st.integers(0, max_steps))
    trail = [state]
    for _ in range(steps):
        legal = engine.legal_moves(state)
        if not legal and (to_the_end or draw(st.integers(0, 3)) == 0):
            break
        if legal and draw(st.integers(0, 5)) > 0:
            action = legal[draw(st.integers(0, len(legal) - 1))]
        else:
            action = draw(awari_actions)
        _, state = engine.apply(state, action)
        trail.append(state)
    if to_the_end:
        state = trail[-1 - draw(st.integers(0, min(4, len(trail) - 1)))]
    return engine.to_spec(state)


@st.composite
def awari_reachable(draw: st.DrawFn, max_steps: int = 300) -> A.AwariGame:
    """A state reached from InitAwari by a random playout."""
    return _awari_playout(draw, A.InitAwari(), max_steps)


@st.composite
def awari_played(draw: st.DrawFn, max_steps: int = 30) -> A.AwariGame:
    """A short random playout from an arbitrary state: endgames (grand slams,
    starving rows, repetitions) with positions recorded by play."""
    return _awari_playout(draw, draw(awari_arbitrary()), max_steps)


awari_states = st.one_of(awari_reachable(), awari_arbitrary(), awari_played())

# ─── Gothello ──────────────────────────────────────────────────────────────────

SQUARES = tuple(sorted(G.SQUARES))
gothello_placements = st.sampled_from(SQUARES).map(G.move)
gothello_actions = st.one_of(st.just(G.pass_), gothello_placements)
"""Any action: a placement on any square (blank or not) or a pass."""

_BLACK, _WHITE = G.stone(G.PLAYER.black), G.stone(G.PLAYER.white)
_PALETTES: tuple[tuple[G.SQUAREVAL, ...], ...] = (
    (G.blank, _BLACK, _WHITE),
    (G.blank, G.blank, G.blank, _BLACK, _WHITE),
    (_BLACK, _WHITE),
    (G.blank, _BLACK),
    (G.blank, _WHITE),
    (_BLACK, _WHITE, _WHITE, G.blank),
)
"""Square contents to draw from: sparse, dense, full and one-coloured boards."""


def gothello_game(rows: list[str], to_move: G.PLAYER, history: tuple[G.MOVE, ...] = ()) -> G.GothelloGame:
    """A GothelloGame from its display (rank 5 first, ``b``, ``w``, ``.``)."""
    value: dict[str, G.SQUAREVAL] = {".": G.blank, "b": _BLACK, "w": _WHITE}
    board: G.BOARD = Fun(((f, 5 - r), value[rows[r][f - 1]]) for r in range(5) for f in range(1, 6))
    return G.GothelloGame(board, to_move, history)


@st.composite
def gothello_arbitrary(draw: st.DrawFn) -> G.GothelloGame:
    """Any 5×5 board, either side to move, any history."""
    palette = draw(st.sampled_from(_PALETTES))
    cells = draw(st.lists(st.sampled_from(palette), min_size=25, max_size=25))
    history = draw(st.lists(st.one_of(st.just(G.pass_), gothello_placements), max_size=6))
    board: G.BOARD = Fun(zip(SQUARES, cells, strict=True))
    return G.GothelloGame(board, draw(st.sampled_from(G.PLAYER)), tuple(history))


@st.composite
def gothello_reachable(draw: st.DrawFn, max_steps: int = 80) -> G.GothelloGame:
    """A state reached from InitGothelloGame by a random playout on the fast engine."""
    engine = ImplGothello()
    state: Any = engine.initial()
    for _ in range(draw(st.integers(0, max_steps))):
        legal = engine.legal_moves(state)
        if not legal and draw(st.integers(0, 3)) == 0:
            break
        if legal and draw(st.integers(0, 5)) > 0:
            # pass is the last legal move: make it rarer, or games end at once
            placements = len(legal) - 1
            pick = draw(st.integers(0, placements)) if placements and draw(st.integers(0, 7)) else placements
            action = legal[pick]
        else:
            action = draw(gothello_actions)
        _, state = engine.apply(state, action)
    return engine.to_spec(state)


gothello_states = st.one_of(gothello_reachable(), gothello_arbitrary())

move_texts = st.one_of(
    st.text(max_size=4),
    st.sampled_from([*"abcdefABCDEFgG", "pass", "Pass", "a0", "a6", "f1", "e5", "c3", "A1", " a", "a "]),
)
"""Texts a client may send as a move: well-formed in either game's notation or not."""


def impl_engines(game: str) -> list[Any]:
    """The fast engines under test: the build that ``impl.<game>`` imports and, when
    that is the mypyc build, the pure-Python source beside it (both must equal the spec)."""
    from impl.engines import _build
    from impl.engines.registry import get_engine

    engines = [get_engine(game, "impl")]
    if _build.compiled(game):
        module = _build.load_source(game)
        engines.append(module.ImplAwari() if game == "awari" else module.ImplGothello())
    return engines
