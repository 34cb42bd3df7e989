"""The fast engines' inner steps, under public names, for a search that walks
positions faster than the port's ``apply`` (impl/players/search_awari.py,
search_gothello.py).  The engines' modules keep them private and unchanged (the
Awari apply proof fingerprints impl/engines/awari.py): this module only names them,
so a player imports this and nothing of an engine's module.

Awari positions are the fast engine's packed rows, seen from the player to move:
``(mine, theirs, meta)`` (``Key``), a row's pit j at bit offset ``8j`` (``SHIFTS``),
read through the engine's readers named here (``mover``, ``store``, ``pit``),
never by their bits.  Gothello positions are 25-bit boards of the mover's
stones and the other player's, square ``5 * file + rank - 1`` at that bit."""

from __future__ import annotations

from typing import Final

from . import awari as _awari
from . import gothello as _gothello

# ─── Awari (impl/engines/awari.py) ─────────────────────────────────────────────

Key = _awari.Key
"""A position: (mover's row, opponent's row, meta)."""
AwariState = _awari.AwariState
"""The fast engine's state: (mine, theirs, meta, the positions seen at turns' starts)."""
RulesAwari = _awari.RulesAwari
"""The fast engine under a rule set other than the paper's (its ``play`` sows one pit)."""

SHIFTS: Final = _awari._SHIFTS
"""The bit offset of each pit of a row, pit a (or A) first."""
PLAYING: Final = _awari.PLAYING
"""``play``'s outcome: the game goes on."""
ENDED: Final = _awari.ENDED
"""``play``'s outcome: the game is over (the result is the after-state's scores')."""

play: Final = _awari._play
"""``play(mine, theirs, meta, seen, shift)``: one sowing under the paper's rules from
the mover's non-empty pit at bit offset ``shift``, in a position where the game goes
on; ``seen`` is the positions seen, this one included.  Returns ``(PLAYING | REFUSED
| ENDED, mine', theirs', meta', seen')``, the after-position seen from its mover."""

row_sum: Final = _awari.row_stones
"""The stones on a packed row."""
mover: Final = _awari.mover
"""The side to move of a key: 0 north, 1 south."""
store: Final = _awari.store
"""``store(key, side)``: that side's store."""
pit: Final = _awari.pit
"""``pit(row, shift)``: the stones of a packed row's pit at that bit offset."""
table_board: Final = _awari.table_board
"""A key's board as the endgame tables index it: the mover's six pits, then the opponent's."""

# ─── Gothello (impl/engines/gothello.py) ───────────────────────────────────────

GothelloState = _gothello.GothelloState
"""The fast engine's state: (mover's stones, the other's, the mover's PLAYER value, history)."""

PASS: Final = _gothello.PASS
"""The action code of ``pass``; squares are 0–24."""
FULL: Final = _gothello._FULL
"""Every square of the board."""

dilate: Final = _gothello._dilate
"""The squares of a board and those adjoining them (adjoins, corrected: G1)."""

place: Final = _gothello._place
"""``place(mine, theirs, square)``: the mover's stone on a blank square, or -1 where
the move is refused (GothelloIllegalMoveBlocked); else the other player's stones
after the captures packed with the mover's as ``theirs' | mine' << 25``."""

over: Final = _gothello._over
"""``over(history)``: game_over, the last two accepted actions were passes."""

code: Final = _gothello.code
"""The action code (0–24, or PASS) of a spec MOVE."""
