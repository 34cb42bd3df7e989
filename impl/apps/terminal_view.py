"""What the terminal client (impl/apps/terminal.py) shows a person, and its check
of a typed move before anything is sent: pure functions of the seated client."""

from __future__ import annotations

import math

from impl.client import Client, Result
from impl.engines.notation import FILES
from impl.engines.port import MoveDescription
from impl.game import Side

HELP = {
    "awari": "a pit letter sows it: south's pits are A-F, north's a-f (case matters)",
    "gothello": "a square places a stone: a1-e5 (file letter, rank digit), or pass",
}
COMMANDS = (
    "other commands: moves (the legal moves), board, time, resign, help, quit (resigns);"
    " Awari only: draw? (offer a draw), draw / nodraw (answer an offer)"
)


# ─── what is shown ─────────────────────────────────────────────────────────────


def board_lines(client: Client) -> list[str]:
    """The position: Awari as render_awari draws it; Gothello with coordinates."""
    if client.game == "awari":
        return client.render()
    files = "    " + " ".join(FILES)
    rows = [f" {5 - i}  {' '.join(row)}  {5 - i}" for i, row in enumerate(client.render())]
    return [files, *rows, files]


def clock(seconds: float) -> str:
    """m:ss, rounded up: a clock shows 0:00 only once it has run out."""
    whole = math.ceil(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def clock_line(client: Client) -> str:
    if not client.timed:
        return "no time controls"
    left = [client.time_left(side) or 0.0 for side in (0, 1)]
    return f"clocks: {client.sides[0]} {clock(left[0])}, {client.sides[1]} {clock(left[1])}"


def turn_line(client: Client) -> str:
    """Whose turn it is, from the person's point of view."""
    if client.result is not None:
        return ""
    if client.must_answer_draw:
        return f"{client.sides[(client.side or Side.FIRST).other]} offers a draw: type draw to accept, nodraw to refuse"
    if client.offer is not None:
        return f"your draw offer awaits {client.sides[client.offer.other]}'s answer"
    mover = client.to_move
    if mover is None:
        return "waiting for the game to start"
    if mover == client.side:
        return f"your move ({client.sides[mover]}, move {client.serial})"
    return f"{client.sides[mover]} to move; waiting"


def result_line(client: Client, result: Result) -> str:
    counts = client.counts()
    what = "stores" if client.game == "awari" else "stones"
    line = f"game over: {result.describe(client.sides)} ({what} {counts[0]}-{counts[1]})"
    if client.side is not None and not result.termination.aborted:
        line += ": you " + ("draw" if result.winner is None else "win" if result.winner == client.side else "lose")
    return line


def capture_note(game: str, move: MoveDescription) -> str:
    """What a move captured, for the line that reports it ("" if nothing)."""
    if not move.captured:
        return ""
    where = " ".join(move.captured)
    return f" (captures {move.taken} from {where})" if game == "awari" else f" (turns {where})"


# ─── checking a move before it is sent ─────────────────────────────────────────


def why_illegal(client: Client, token: str) -> str | None:
    """None if ``token`` is a legal move for us now, else the reason in words."""
    action = client.engine.parse_move(token)
    if action is None:
        return f"{token!r} is not a move: {HELP[client.game]}"
    return client.engine.why_illegal(client.state, action)
