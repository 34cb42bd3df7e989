"""Awari, fast: the rules of spec/awari.py's corrected ``referee`` on packed rows.

A position (θAwariBoard: board, score, to_move) is seen from the player to move, as
three small ints, its *key* ``(mine, theirs, meta)``:

    mine, theirs   the mover's row and the opponent's, byte j = the row's pit j
                   (north: a–f, south: A–F; sowing runs up a row, then on to the
                   other row's pit 0)
    meta           score north | score south << 8 | to_move << 16

No pit exceeds 48, so adding packed rows adds pit by pit, and every value fits a
machine word (mypyc keeps them unboxed).  A state is ``(mine, theirs, meta,
positions)``, positions being the keys of the spec's ``positions`` set.

* Sowing ``n`` stones from pit ``j`` clears ``j`` and adds precomputed packed deltas
  to both rows; the same table (``_SOW``) gives the last pit sown when it is on the
  opponent's row.
* Capture walks clockwise (down the opponent's row) from the last pit while pits
  hold 2 or 3 (Capture, corrected: A1).
* Repetition is set membership of keys (NoMove's ``θAwariBoard ∈ positions``).

Everything observable is the spec's: ``to_spec`` rebuilds the exact AwariGame, and
tests/engines/test_differential.py checks each step against ``spec.awari.referee``.  No
contracts here: this is the hot path.
"""

from __future__ import annotations

from typing import Final

from impl.game import Side
from spec import awari as A
from spec import awari_rules as AR
from spec import result as R

from . import notation
from .port import Cells, MoveDescription, Result, gained, not_legal

Key = tuple[int, int, int]
"""A position: (mover's row, opponent's row, meta)."""

AwariState = tuple[int, int, int, frozenset[Key]]
"""(mine, theirs, meta, positions)."""

_BYTE_SUM: Final = 0x010101010101
"""``row * _BYTE_SUM >> 40 & 255`` sums a row's six bytes (no carries: sums ≤ 48)."""
_TO_MOVE: Final = 1 << 16
"""meta's to_move bit."""

_PLAYERS: Final = (A.PLAYER.north, A.PLAYER.south)
_PITS: Final = tuple(A.PIT)
_WIN: Final[tuple[Result[A.PLAYER], Result[A.PLAYER]]] = (R.win(A.PLAYER.north), R.win(A.PLAYER.south))
_DRAW: Final[Result[A.PLAYER]] = R.draw
_NOT_DONE: Final[Result[A.PLAYER]] = R.not_done
_ILLEGAL: Final[Result[A.PLAYER]] = R.illegal_move

# The outcome of a sowing, as ``_play`` reports it.
PLAYING: Final = 0
"""not_done: the game goes on."""
REFUSED: Final = 1
"""illegal_move: the state does not change."""
ENDED: Final = 2
"""The game is over; the result is ``winner`` of the after-state's scores."""


def _sow_table() -> tuple[tuple[int, int, int], ...]:
    """Sow's table, indexed by ``8j << 3 | n`` (the pit's bit offset and its stones):
    the packed stones that sowing n from the mover's pit j adds to the mover's row
    and to the opponent's (trace 1 .. n, the origin skipped: next_skip), and the
    opponent's pit sown last, or -1 when the last pit sown is the mover's own."""
    table = [(0, 0, -1)] * (6 << 6)
    for j in range(6):
        q = j  # 0–5 the mover's row, 6–11 the opponent's
        added = [0, 0]
        for n in range(1, 49):
            q = (q + 1) % 12
            if q == j:
                q = (q + 1) % 12
            added[q // 6] += 1 << (8 * (q % 6))
            table[j << 6 | n] = (added[0], added[1], q - 6 if q >= 6 else -1)
    return tuple(table)


_SOW: Final = _sow_table()
_SHIFTS: Final = (0, 8, 16, 24, 32, 40)
"""The bit offset of each pit of a row."""


# ─── Keys ──────────────────────────────────────────────────────────────────────


def _row(board: A.BOARD, player: int) -> int:
    """side player ◁ board, packed."""
    row = 0
    for j in range(6):
        row |= board[6 * player + j] << (8 * j)
    return row


def pack(position: A.AwariBoard) -> Key:
    """The key of a position."""
    me = int(position.to_move)
    meta = position.score[0] | position.score[1] << 8 | me << 16
    return _row(position.board, me), _row(position.board, me ^ 1), meta


def unpack(key: Key) -> A.AwariBoard:
    """The position of a key, as the spec's AwariBoard."""
    mine, theirs, meta = key
    me = meta >> 16
    rows = (mine, theirs) if me == 0 else (theirs, mine)
    return A.AwariBoard(
        board=tuple(rows[p // 6] >> (8 * (p % 6)) & 255 for p in range(12)),
        score=(meta & 255, meta >> 8 & 255),
        to_move=_PLAYERS[me],
    )


def _row_sum(row: int) -> int:
    """Σ of a packed row."""
    return (row * _BYTE_SUM) >> 40 & 255


# ─── Readers: a state's parts by name ──────────────────────────────────────────
#
# The packed layout is this module's alone: every room outside it (the tables'
# probe and check, the adjudicator, the search player) reads a state through these
# (python-chess's syzygy.py probes through the board's API, never its bits);
# tests/engines/test_awari_readers.py reads the tree for shifts and masks elsewhere.

Pits = tuple[int, ...]
"""A row's six pits (pit 0 first), or a table board's twelve (the mover's row first)."""


def mover(key: Key | AwariState) -> int:
    """The side to move: 0 north, 1 south."""
    return key[2] >> 16


def player_to_move(key: Key | AwariState) -> A.PLAYER:
    """The side to move as the spec's PLAYER."""
    return _PLAYERS[key[2] >> 16]


def stores(key: Key | AwariState) -> tuple[int, int]:
    """(north's store, south's)."""
    meta = key[2]
    return meta & 255, meta >> 8 & 255


def store(key: Key | AwariState, side: int) -> int:
    """``side``'s store (0 north, 1 south)."""
    return key[2] >> (side << 3) & 255


def mover_stores(key: Key | AwariState) -> tuple[int, int]:
    """(the mover's store, the opponent's)."""
    north, south = stores(key)
    return (north, south) if key[2] >> 16 == 0 else (south, north)


def pit(row: int, offset: int) -> int:
    """The stones of a packed row's pit at bit ``offset`` (``SHIFTS``)."""
    return row >> offset & 255


def row_stones(row: int) -> int:
    """The stones of a packed row."""
    return (row * _BYTE_SUM) >> 40 & 255


def row_pits(row: int) -> Pits:
    """A packed row's six pits, pit 0 first."""
    return tuple(row >> (8 * j) & 255 for j in range(6))


def pack_row(pits: Pits) -> int:
    """Six pits as a packed row."""
    row = 0
    for j in range(6):
        row |= pits[j] << (8 * j)
    return row


def table_board(key: Key | AwariState) -> Pits:
    """The board as the tables index it: the mover's row, then the opponent's."""
    return row_pits(key[0]) + row_pits(key[1])


def bare(key: Key | AwariState) -> AwariState:
    """The same rows and mover, stores 0/0 and no history: the tables' game."""
    return key[0], key[1], key[2] & _TO_MOVE, frozenset()


def table_state(board: Pits) -> AwariState:
    """A table board (``table_board``) as north to move in the tables' game."""
    return pack_row(board[:6]), pack_row(board[6:]), 0, frozenset()


def same_stores(a: Key | AwariState, b: Key | AwariState) -> bool:
    """Both keys' stores are equal (whoever is to move)."""
    return a[2] & 0xFFFF == b[2] & 0xFFFF


def slam_kind(rules: AR.AwariRules) -> int:
    """The grand-slam rule as the engines and the tables' kernels number it (``GS_A`` … ``GS_E``)."""
    return "abcde".index(rules.grand_slam.value)


def _winner(meta: int) -> Result[A.PLAYER]:
    """winner score (spec.awari.winner), from meta."""
    north, south = meta & 255, meta >> 8 & 255
    if north > south:
        return _WIN[0]
    if south > north:
        return _WIN[1]
    return _DRAW


def _claimed(mine: int, theirs: int, meta: int) -> int:
    """ClaimStones with board' = PIT × {0}: each player scores their own row.  The
    meta after."""
    me = meta >> 16
    return meta + (_row_sum(mine) << (8 * me)) + (_row_sum(theirs) << (8 - 8 * me))


# ─── Sowing and capturing ──────────────────────────────────────────────────────


def _capture(theirs: int, last: int) -> tuple[int, int]:
    """Capture, corrected (A1), from a vulnerable last pit of the opponent's row:
    take it and each pit clockwise (down the row) holding 2 or 3.  The opponent's
    row after, and the stones gained."""
    gained = 0
    q = last
    while q >= 0:
        c = theirs >> (q << 3) & 255
        if c != 2 and c != 3:
            break
        gained += c
        theirs -= c << (q << 3)
        q -= 1
    return theirs, gained


def _feeds(mine: int, theirs: int, sh: int) -> bool:
    """feeds: the mover's non-empty pit at bit offset sh, sown and captured, leaves
    the opponent some stones."""
    n = mine >> sh & 255
    _, added, last = _SOW[sh << 3 | n]
    after = theirs + added
    if last >= 0:
        c = after >> (last << 3) & 255
        if c == 2 or c == 3:
            after = _capture(after, last)[0]
    return after != 0


def _cannot_feed(mine: int, theirs: int) -> bool:
    """CannotFeed's guard past NoMove's: the opponent's row is empty and no move of
    the mover puts a stone in it."""
    if theirs:
        return False
    return not any(mine >> sh & 255 and _feeds(mine, theirs, sh) for sh in _SHIFTS)


def _ended(mine: int, theirs: int, meta: int, positions: frozenset[Key]) -> int:
    """Status (WinMargin ∨ NoMove ∨ CannotFeed) of a state: -1 while the game goes on,
    else the after-meta (positions' = positions ∪ {key}; the board after is the
    same under WinMargin, empty under NoMove and CannotFeed)."""
    if meta & 255 >= 25 or meta >> 8 & 255 >= 25:
        return meta  # WinMargin: ΞAwariBoard
    if not mine or (mine, theirs, meta) in positions or _cannot_feed(mine, theirs):
        return _claimed(mine, theirs, meta)  # NoMove or CannotFeed
    return -1


def _play(
    mine: int, theirs: int, meta: int, seen: frozenset[Key], sh: int
) -> tuple[int, int, int, int, frozenset[Key]]:
    """One sowing from the mover's non-empty pit at bit offset sh (8j for pit j of
    the row), in a state where the game goes
    on (``_ended`` is -1); ``seen`` is positions ∪ {key} (AwariMove's positions').
    Returns (PLAYING | REFUSED | ENDED, mine', theirs', meta', positions'), the
    after-state seen from its own player to move:

    * REFUSED when the opponent's row is empty and stays so (IllegalMove);
    * ENDED by GrandSlam when the sowing empties a non-empty opposing row;
    * otherwise NormalMove, then the start-of-turn conditions on the new position
      (Status), which may end the game.
    """
    n = mine >> sh & 255
    add_mine, add_theirs, last = _SOW[sh << 3 | n]
    mine_ = mine - (n << sh) + add_mine
    theirs_ = theirs + add_theirs
    meta_ = meta ^ _TO_MOVE
    if last >= 0:
        c = theirs_ >> (last << 3) & 255
        if c == 2 or c == 3:
            theirs_, gained = _capture(theirs_, last)
            shift = (meta >> 16) << 3  # the mover's score field
            meta_ += gained << shift
            if theirs_ and meta_ >> shift & 255 >= 25:  # Status: WinMargin
                return ENDED, theirs_, mine_, meta_, seen | {(theirs_, mine_, meta_)}
    if not theirs_:
        if not theirs:
            return REFUSED, mine, theirs, meta, seen  # a failure to feed
        # GrandSlam ⨟ ForfeitStones: the mover's row goes to the opponent; the turn passes.
        return ENDED, 0, 0, meta_ + (_row_sum(mine_) << (8 - ((meta >> 16) << 3))), seen
    # Status on the new position; its mover's row (theirs_) is non-empty: NoMove only by repetition.
    key = (theirs_, mine_, meta_)
    if key in seen or (not mine_ and _cannot_feed(theirs_, mine_)):
        return ENDED, 0, 0, _claimed(theirs_, mine_, meta_), seen | {key}
    return PLAYING, theirs_, mine_, meta_, seen


# ─── The engine ────────────────────────────────────────────────────────────────

INITIAL: Final[AwariState] = (0x040404040404, 0x040404040404, 1 << 16, frozenset())
"""InitAwari: four stones in every pit, no score, south to move, no positions."""


class _AwariPort:
    """What both Awari engines share: the packed state's start, notation and
    abstraction (``to_spec``); each engine supplies the rules (``apply``,
    ``legal_moves``, ``is_over``)."""

    game = "awari"
    kind = "impl"
    players = (A.PLAYER.south, A.PLAYER.north)

    def initial(self) -> AwariState:
        return INITIAL

    def to_move(self, state: AwariState) -> A.PLAYER:
        return _PLAYERS[state[2] >> 16]

    def apply(self, state: AwariState, action: A.PIT) -> tuple[Result[A.PLAYER], AwariState]:
        raise NotImplementedError

    def legal_moves(self, state: AwariState) -> tuple[A.PIT, ...]:
        raise NotImplementedError

    def is_over(self, state: AwariState) -> bool:
        raise NotImplementedError

    def why_illegal(self, state: AwariState, action: A.PIT) -> str | None:
        if self.is_over(state):
            return "the game is over"
        if action in self.legal_moves(state):
            return None
        s = unpack(state[:3])
        return notation.awari_illegal(action, s.to_move, s.board[action])

    def counts(self, state: AwariState) -> tuple[int, int]:
        score = unpack(state[:3]).score
        return score[A.PLAYER.south], score[A.PLAYER.north]

    def parse_move(self, text: str) -> A.PIT | None:
        return notation.parse_pit(text)

    def format_move(self, action: A.PIT) -> str:
        return notation.format_pit(action)

    def render(self, state: AwariState) -> list[str]:
        s = unpack(state[:3])
        return notation.render_awari(s.board, s.score, s.to_move)

    def cells(self, state: AwariState) -> Cells:
        board = unpack(state[:3]).board
        return tuple((p.name, board[p]) for p in _PITS)

    def _slam_rule(self) -> int:
        """The grand-slam rule's index, for ``describe``: the paper's captures as (a)."""
        return GS_A

    def describe(self, state: AwariState, action: A.PIT) -> MoveDescription:
        """Sow ⨟ Capture (under the rule set) on the packed rows: the pits the capture
        empties are those of the opponent's row it changes."""
        result, after = self.apply(state, action)
        if self.is_over(state) or result == _ILLEGAL:
            raise not_legal(self, action)
        mine, theirs, meta, _ = state
        me = meta >> 16
        sh = (int(action) - 6 * me) << 3
        sown = mine >> sh & 255
        _, add_theirs, last = _SOW[sh << 3 | sown]
        reached = theirs + add_theirs
        left, taken = reached, 0
        if last >= 0 and (reached >> (last << 3) & 255) in (2, 3):
            left, taken = _capture_r(reached, last, self._slam_rule())
        captured = tuple(_PITS[6 * (me ^ 1) + j].name for j in range(6) if (reached ^ left) >> (j << 3) & 255)
        mover = Side(self.players.index(_PLAYERS[me]))
        won = gained(self, state, after, mover)
        text = notation.awari_movetext(action, sown, won)
        return MoveDescription(mover, action.name, text, sown, captured, taken, won)

    def to_spec(self, state: AwariState) -> A.AwariGame:
        return A.game_of(unpack(state[:3]), frozenset(unpack(k) for k in state[3]))

    def from_spec(self, game: A.AwariGame) -> AwariState:
        mine, theirs, meta = pack(A.θAwariBoard(game))
        return mine, theirs, meta, frozenset(pack(p) for p in game.positions)


class ImplAwari(_AwariPort):
    """Awari by the fast rules of the paper: states are (mine, theirs, meta, positions)."""

    def apply(self, state: AwariState, action: A.PIT) -> tuple[Result[A.PLAYER], AwariState]:
        mine, theirs, meta, positions = state
        seen = positions | {(mine, theirs, meta)}
        ended = _ended(mine, theirs, meta, positions)
        if ended >= 0:
            board_kept = ended == meta  # WinMargin keeps the board; NoMove and CannotFeed empty it
            return _winner(ended), (mine, theirs, ended, seen) if board_kept else (0, 0, ended, seen)
        me = meta >> 16
        j = int(action) - 6 * me
        if not 0 <= j < 6 or not mine >> (j << 3) & 255:
            return _ILLEGAL, state
        outcome, mine_, theirs_, meta_, seen_ = _play(mine, theirs, meta, seen, j << 3)
        if outcome == REFUSED:
            return _ILLEGAL, state
        return (_winner(meta_) if outcome == ENDED else _NOT_DONE), (mine_, theirs_, meta_, seen_)

    def legal_moves(self, state: AwariState) -> tuple[A.PIT, ...]:
        mine, theirs, meta, positions = state
        if _ended(mine, theirs, meta, positions) >= 0:
            return ()
        me = meta >> 16
        return tuple(
            _PITS[6 * me + j] for j in range(6) if mine >> (j << 3) & 255 and (theirs or _feeds(mine, theirs, j << 3))
        )

    def is_over(self, state: AwariState) -> bool:
        return _ended(*state) >= 0


# ─── perft (impl/engines/perft.py defines it) ──────────────────────────────────────────


def perft(state: AwariState, depth: int) -> int:
    """perft over the fast internals: a node's moves are its non-empty pits that
    ``_play`` accepts, and every move to a leaf is played in full."""
    mine, theirs, meta, positions = state
    if depth == 0:
        return 1
    if _ended(mine, theirs, meta, positions) >= 0:
        return 0
    return _perft(mine, theirs, meta, positions, depth)


def _perft(mine: int, theirs: int, meta: int, positions: frozenset[Key], depth: int) -> int:
    """perft of a state where the game goes on, depth ≥ 1."""
    seen = positions | {(mine, theirs, meta)}  # every child's positions' (AwariMove), shared
    total = 0
    if depth == 1:  # the leaves: each move made in full, its after-state unused
        for sh in _SHIFTS:
            if mine >> sh & 255 and _play(mine, theirs, meta, seen, sh)[0] != REFUSED:
                total += 1
        return total
    for sh in _SHIFTS:
        if not mine >> sh & 255:
            continue
        outcome, mine_, theirs_, meta_, seen_ = _play(mine, theirs, meta, seen, sh)
        if outcome == PLAYING:
            total += _perft(mine_, theirs_, meta_, seen_, depth - 1)
    return total


# ─── Other rule sets (spec/awari_rules.py) ─────────────────────────────────────
#
# The paper's rules above stay as they were (``ImplAwari``, the default, at its
# speed); ``RulesAwari`` plays any rule set, the paper's included, on the same
# packed keys.  The three dimensions are small ints so that the hot path compares
# ints: the grand-slam rule's letter index, and the two end-of-game rules.

GS_A, GS_B, GS_C, GS_D, GS_E = range(5)
REP_OWN_ROW, REP_UNCOUNTED, REP_DRAW = range(3)
STUCK_OPPONENT_TAKES, STUCK_PLAYER_LOSES = range(2)

Ending = tuple[Result[A.PLAYER], int, int, int]
"""An ended game: (result, mine', theirs', meta')."""


def _capture_r(theirs: int, last: int, gs: int) -> tuple[int, int]:
    """Capture under grand-slam rule ``gs``, from a vulnerable last pit: the harvest,
    or, when it would empty the opponent's row under (b)–(d), what the rule allows
    (CaptureSlamSown, CaptureSlamSpareLast, CaptureSlamFirstOnly)."""
    after, gained = _capture(theirs, last)
    if after or gs in (GS_A, GS_E):
        return after, gained
    if gs == GS_B:
        return theirs, 0
    sh = last << 3
    kept = theirs >> sh & 255
    if gs == GS_C:  # every pit but the last sown: only it is left
        return kept << sh, gained - kept
    return theirs - (kept << sh), kept  # GS_D: only the last pit sown


def _sown_r(mine: int, theirs: int, sh: int, gs: int) -> tuple[int, int, int]:
    """Sow ⨟ Capture_rules from the mover's pit at bit offset sh: (mine', theirs', gained)."""
    n = mine >> sh & 255
    add_mine, add_theirs, last = _SOW[sh << 3 | n]
    mine_ = mine - (n << sh) + add_mine
    theirs_ = theirs + add_theirs
    if last >= 0:
        c = theirs_ >> (last << 3) & 255
        if c == 2 or c == 3:
            theirs_, gained = _capture_r(theirs_, last, gs)
            return mine_, theirs_, gained
    return mine_, theirs_, 0


def _feeds_r(mine: int, theirs: int, sh: int, gs: int) -> bool:
    """feeds: the mover's non-empty pit at sh leaves the opponent a stone under gs."""
    return _sown_r(mine, theirs, sh, gs)[1] != 0


def _any_feeds_r(mine: int, theirs: int, gs: int) -> bool:
    """∃ m : side to_move • feeds m"""
    return any(mine >> sh & 255 and _feeds_r(mine, theirs, sh, gs) for sh in _SHIFTS)


def _ended_r(mine: int, theirs: int, meta: int, repeated: bool, gs: int, rep: int, stuck: int) -> Ending | None:
    """Ended (WinMargin ∨ CannotMove ∨ Repetition ∨ StarvedOut) of a position, or None
    while the game goes on; ``repeated``: the position is in positions."""
    if meta & 255 >= 25 or meta >> 8 & 255 >= 25:
        return _winner(meta), mine, theirs, meta
    me = meta >> 16
    if not mine:  # CannotMove
        if stuck == STUCK_OPPONENT_TAKES:
            claimed = _claimed(mine, theirs, meta)
            return _winner(claimed), 0, 0, claimed
        return _WIN[me ^ 1], mine, theirs, meta
    if repeated:  # Repetition
        if rep == REP_OWN_ROW:
            claimed = _claimed(mine, theirs, meta)
            return _winner(claimed), 0, 0, claimed
        return (_winner(meta) if rep == REP_UNCOUNTED else _DRAW), mine, theirs, meta
    if not theirs and not _any_feeds_r(mine, theirs, gs):  # StarvedOut
        if stuck == STUCK_OPPONENT_TAKES:
            claimed = _claimed(mine, theirs, meta)
            return _winner(claimed), 0, 0, claimed
        return _WIN[me], mine, theirs, meta
    return None


def _legal_r(mine: int, theirs: int, sh: int, gs: int) -> bool:
    """The mover's non-empty pit at sh may be sown, the game being on (IllegalMoveUnder's negation)."""
    if _feeds_r(mine, theirs, sh, gs):
        return True
    # It leaves the opponent nothing: a failure to feed if they had nothing; a grand
    # slam otherwise, legal but under (a) while another sowing feeds.
    return theirs != 0 and (gs != GS_A or not _any_feeds_r(mine, theirs, gs))


class RulesAwari(_AwariPort):
    """Awari under any rule set (spec/awari_rules.py): states as ImplAwari's."""

    def __init__(self, rules: AR.AwariRules) -> None:
        self.rules = rules
        self.gs = slam_kind(rules)
        self.rep = tuple(AR.RepetitionRule).index(rules.repetition)
        self.stuck = tuple(AR.CannotMoveRule).index(rules.cannot_move)

    def _slam_rule(self) -> int:
        return self.gs

    def _ended(self, state: AwariState) -> Ending | None:
        mine, theirs, meta, positions = state
        return _ended_r(mine, theirs, meta, (mine, theirs, meta) in positions, self.gs, self.rep, self.stuck)

    def play(self, state: AwariState, sh: int) -> tuple[int, Result[A.PLAYER], AwariState]:
        """One sowing from the mover's non-empty pit at bit offset sh, the game being
        on: (PLAYING | REFUSED | ENDED, result, the state after)."""
        mine, theirs, meta, positions = state
        seen = positions | {(mine, theirs, meta)}
        outcome, result, mine_, theirs_, meta_, seen_ = _play_r(
            mine, theirs, meta, seen, sh, self.gs, self.rep, self.stuck
        )
        if outcome == REFUSED:
            return REFUSED, result, state
        return outcome, result, (mine_, theirs_, meta_, seen_)

    def apply(self, state: AwariState, action: A.PIT) -> tuple[Result[A.PLAYER], AwariState]:
        mine, theirs, meta, positions = state
        ended = self._ended(state)
        if ended is not None:
            result, m, t, e = ended
            return result, (m, t, e, positions | {(mine, theirs, meta)})
        j = int(action) - 6 * (meta >> 16)
        if not 0 <= j < 6 or not mine >> (j << 3) & 255:
            return _ILLEGAL, state
        _, result, after = self.play(state, j << 3)
        return result, after

    def legal_moves(self, state: AwariState) -> tuple[A.PIT, ...]:
        if self._ended(state) is not None:
            return ()
        mine, theirs, meta, _ = state
        me = meta >> 16
        return tuple(
            _PITS[6 * me + j] for j in range(6) if mine >> (j << 3) & 255 and _legal_r(mine, theirs, j << 3, self.gs)
        )

    def is_over(self, state: AwariState) -> bool:
        return self._ended(state) is not None

    def perft(self, state: AwariState, depth: int) -> int:
        """perft over the fast internals, as ``perft`` for the paper's rules."""
        if depth == 0:
            return 1
        if self._ended(state) is not None:
            return 0
        mine, theirs, meta, positions = state
        return _perft_r(mine, theirs, meta, positions, depth, self.gs, self.rep, self.stuck)


def _play_r(
    mine: int, theirs: int, meta: int, seen: frozenset[Key], sh: int, gs: int, rep: int, stuck: int
) -> tuple[int, Result[A.PLAYER], int, int, int, frozenset[Key]]:
    """``_play`` under any rule set: one sowing from the mover's non-empty pit at sh,
    the game being on, ``seen`` = positions ∪ {key}.  (PLAYING | REFUSED | ENDED,
    result, mine', theirs', meta', positions'), the after-state seen from its mover."""
    n = mine >> sh & 255  # _sown_r, inlined: this is the hot path
    add_mine, add_theirs, last = _SOW[sh << 3 | n]
    mine_ = mine - (n << sh) + add_mine
    theirs_ = theirs + add_theirs
    gained = 0
    if last >= 0:
        c = theirs_ >> (last << 3) & 255
        if c == 2 or c == 3:
            theirs_, gained = _capture_r(theirs_, last, gs)
    me = meta >> 16
    if not theirs_:  # it leaves the opponent nothing
        if not theirs or (gs == GS_A and _any_feeds_r(mine, theirs, gs)):
            return REFUSED, _ILLEGAL, mine, theirs, meta, seen  # a failure to feed; (a): a slam not forced
        if gs == GS_E:  # GrandSlamForfeit: the mover's row to the opponent
            meta_ = (meta ^ _TO_MOVE) + (gained << (me << 3)) + (_row_sum(mine_) << (8 - (me << 3)))
            return ENDED, _winner(meta_), 0, 0, meta_, seen
    meta_ = (meta ^ _TO_MOVE) + (gained << (me << 3))
    key = (theirs_, mine_, meta_)
    if theirs_ and mine_ and key not in seen and (not gained or meta_ >> (me << 3) & 255 < 25):
        return PLAYING, _NOT_DONE, theirs_, mine_, meta_, seen  # Ended's conditions all fail: both rows hold stones
    ended = _ended_r(theirs_, mine_, meta_, key in seen, gs, rep, stuck)
    if ended is None:
        return PLAYING, _NOT_DONE, theirs_, mine_, meta_, seen
    result, m, t, e = ended
    return ENDED, result, m, t, e, seen | {key}


def _perft_r(
    mine: int, theirs: int, meta: int, positions: frozenset[Key], depth: int, gs: int, rep: int, stuck: int
) -> int:
    """perft of a state where the game goes on, depth ≥ 1, under any rule set."""
    seen = positions | {(mine, theirs, meta)}  # every child's positions', shared
    total = 0
    for sh in _SHIFTS:
        if not mine >> sh & 255:
            continue
        outcome, _, mine_, theirs_, meta_, seen_ = _play_r(mine, theirs, meta, seen, sh, gs, rep, stuck)
        if outcome == REFUSED:
            continue
        if depth == 1:
            total += 1
        elif outcome == PLAYING:
            total += _perft_r(mine_, theirs_, meta_, seen_, depth - 1, gs, rep, stuck)
    return total


def engine_for(rules: AR.AwariRules) -> ImplAwari | RulesAwari:
    """The fast engine for a rule set: ImplAwari for the paper's, RulesAwari otherwise."""
    return ImplAwari() if rules == AR.PAPER else RulesAwari(rules)
