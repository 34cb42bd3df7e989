"""``referee compliance "CMD {host} {port} {side}" --game G``: a player program against
scripted referees.

Each scenario listens on a free port of 127.0.0.1, starts the program as ``referee
match`` starts one (impl/apps/launch.py: in the sandbox ``--sandbox`` chooses, in its
own cgroup, with match's placeholders ``{game} {host} {port} {side} {rules} {python}
{token}`` filled in and its environment, the seat's token on REFEREE_TOKEN_FD), and
referees it with the protocol's model (spec/protocol.py) as the server: the program's
lines are the model's input, the model's output its lines.  The opponent is a second,
virtual connection of the same model, playing random legal moves — or, as the
scenario says, offering a draw (Awari), resigning or disconnecting.  One scenario
refuses the program's first move with ``291 Illegal move`` and expects another (a
move the rules refuse is no failure: the papers let the player try again).  However
a scenario ends, the program's whole process group and cgroup (or sandbox) end with
it; its output is read until the program itself exits, not until children that kept
it open do.  Every behaviour gets one line, PASS or FAIL with what was expected and
what came; the exit status is 0 if all pass, 1 if not, 2 for a command that cannot
be run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import shlex
import shutil
from pathlib import Path
from typing import Any

from impl.apps import sandbox as sandboxes
from impl.apps.compliance_script import Result, Scenario, Session, grade, scenarios
from impl.apps.launch import Launched, environment, fill, unknown_placeholder
from impl.apps.options import add_sandbox_arguments, sandbox_of
from impl.apps.sandbox import Sandbox
from impl.apps.seats import TOKEN_BYTES
from impl.cli import UsageError, port, seconds, subcommand
from impl.game import PAPER_RULES
from impl.server.net import terminator
from spec import protocol as M

READ_TIMEOUT = 10.0
"""Seconds the program may take for any one line, and to exit after the game."""


def add_command(subparsers: Any) -> None:
    p = subcommand(subparsers, "compliance", run)
    p.add_argument("command", metavar="CMD", help='the player\'s command line, e.g. "python p.py {host} {port} {side}"')
    p.add_argument("--game", choices=["awari", "gothello"], required=True)
    p.add_argument("--seed", type=int, default=1, help="the virtual opponent's moves (default 1)")
    p.add_argument(
        "--port",
        type=port,
        default=0,
        help="listen on this port of 127.0.0.1, one scenario after another, for a program that connects to a "
        "fixed port whatever {port} says (gthd's client libraries: the game's base port plus the server "
        "number, e.g. 29068 for Gothello's server 0); default any free port",
    )
    p.add_argument(
        "--timeout",
        type=seconds,
        default=READ_TIMEOUT,
        metavar="SECS",
        help="for any one line, and to exit (default 10; the seat request: 30 at least, to start)",
    )
    add_sandbox_arguments(p)


TIMEOUT = [READ_TIMEOUT]
STARTUP = 30.0
"""Seconds the program may take to start, connect and send its seat request (at least:
``--timeout`` if longer), so that a slow start on a loaded machine is no failure."""
OUTPUT_LINES = 3
"""The program's last lines of output (stdout and stderr) told with a failure (each
cut at OUTPUT_WIDTH)."""
OUTPUT_WIDTH = 200
MAX_REFUSED = 32
"""Refusals in a row after which a run stops: more than a turn's moves (Gothello's 25
squares and a pass), so a player that tries moves until one is legal is not stopped."""


MAX_LINE = 4096
"""Bytes of a line the harness reads before it takes them as a line anyway."""


async def _line(reader: asyncio.StreamReader, buffer: bytearray, bound: float | None = None) -> str | None:
    """The program's next line, framed as the server frames it (impl/server/net.py):
    a CR or an LF ends a line and empty lines are skipped — gthd's Python client
    ends its lines with CR alone.  None at the end of the stream."""
    deadline = asyncio.get_running_loop().time() + (TIMEOUT[0] if bound is None else bound)
    while True:
        del buffer[: len(buffer) - len(buffer.lstrip(b"\r\n"))]
        cut = terminator(buffer, len(buffer))
        if cut >= 0 or len(buffer) >= MAX_LINE:
            end = cut if cut >= 0 else MAX_LINE
            raw = bytes(buffer[:end])
            del buffer[: end + (cut >= 0)]  # the terminator with the line; an overlong line keeps its next byte
            return raw.decode("ascii", "replace")
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            raise TimeoutError
        chunk = await asyncio.wait_for(reader.read(MAX_LINE), left)
        if not chunk:
            return None
        buffer += chunk


def command_line(command: str, game: str, port: int, side: str, token: str) -> list[str]:
    """The program's command line, the placeholders every command shares filled in
    (launch.fill; a brace of another name is a usage error, ``main``)."""
    values = {"game": game, "host": "127.0.0.1", "port": str(port), "side": side, "rules": PAPER_RULES}
    return fill(shlex.split(command), {**values, "token": token})


async def play(
    command: str, game: str, scenario: Scenario, seed: int, listen: int = 0, box: Sandbox = sandboxes.NONE
) -> tuple[Session, int | None, str]:
    """Run the program in ``box`` against one scripted referee listening on ``listen``
    (0: any free one): the session, the program's exit status (None: it did not
    exit and was ended), and why the run stopped early ('' if it did not)."""
    session = Session(game, scenario, random.Random(seed))
    connected: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = asyncio.Queue()

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await connected.put((reader, writer))

    server = await asyncio.start_server(accept, "127.0.0.1", listen, reuse_address=True)
    port = server.sockets[0].getsockname()[1]
    side, token = M.WORDS[game].sides[scenario.side], secrets.token_hex(TOKEN_BYTES)
    values = {"game": game, "host": "127.0.0.1", "port": str(port), "side": side, "rules": PAPER_RULES}
    env = environment(values)
    try:
        launched = Launched(command_line(command, game, port, side, token), env, None, box, secret=token)
    except BaseException:
        server.close()
        raise
    # The program's own exit, not its output's end (children may hold that open).
    exited = asyncio.ensure_future(asyncio.to_thread(launched.proc.wait))
    stopped = ""
    try:
        stopped = await _referee(session, connected, scenario, exited)
    except TimeoutError:
        stopped = f"no line from the program within {TIMEOUT[0]:g} s"
    except (ConnectionError, OSError) as exc:
        stopped = f"connection failed: {exc}"
    finally:
        if session.writer is not None:
            session.writer.close()
        server.close()
        # Its whole group and cgroup (or sandbox) end here, whatever happened above.
        status = await asyncio.shield(asyncio.to_thread(launched.finish, TIMEOUT[0]))
        await exited
    tail = [line[:OUTPUT_WIDTH] for line in launched.tail if line.strip()][-OUTPUT_LINES:]
    if tail and (stopped or status != 0):
        session.output = " | ".join(tail)
    return session, status, stopped


async def _referee(
    session: Session,
    connected: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]],
    scenario: Scenario,
    exited: asyncio.Task[int],
) -> str:
    start = max(STARTUP, TIMEOUT[0])
    arrival = asyncio.ensure_future(connected.get())
    await asyncio.wait({arrival, exited}, timeout=start, return_when=asyncio.FIRST_COMPLETED)
    if not arrival.done():
        arrival.cancel()
        if exited.done():
            return f"the program exited with status {exited.result()} before it connected"
        return f"the program did not connect within {start:g} s"
    try:
        reader, writer = arrival.result()
        session.writer = writer
        model, me, other = session.model, scenario.side, 1 - scenario.side
        session.model, outs = model.join(1)
        session.out(outs)
        line = await _line(reader, session.pending, start)
    except TimeoutError:
        return f"the program connected but sent no seat request within {start:g} s"
    if line is None:
        return "the program closed before its seat request"
    session.got.append(line)
    session.out(session.feed(1, line, lambda m: (e := m.entity(1)) is not None and e.side in (None, me)))
    ent = session.model.entity(1)
    if ent is None or ent.state is not M.State.SEATED:
        return "not seated"
    session.model, _ = session.model.join(2)
    session.out(session.feed(2, f"0.9.1 player {session.words.sides[other]}"))
    await writer.drain()
    refused_once = False
    plies = in_a_row = 0
    while not session.model.over and plies < scenario.max_plies:
        m = session.model
        opponent_acts = (m.offer is None and m.mover() == other) or m.offer == me
        if m.offer == me:
            outs = session.feed(2, "nodraw")
        elif opponent_acts:
            if scenario.leave_at == session.opponent_plies + 1:
                session.model, outs = m.leave(2)
                session.opponent_plies += 1
            else:
                outs = session.feed(2, session.opponent_line())
            plies += 1
        else:
            line = await _line(reader, session.pending)
            if line is None:
                return "the program closed its connection during the game"
            session.got.append(line)
            if scenario.refuse_first and not refused_once and M.action(session.words, line) is not None:
                refused_once = True
                act = M.action(session.words, line)
                if act is not None and act.request is M.Request.MOVE:
                    text = f"291 Illegal move {act.token}"
                    session.sent.append(text)
                    session.refusals.append((line, text))
                    session.scripted = (line, text)
                    writer.write((text + "\r\n").encode("ascii"))
                    await writer.drain()
                    continue
            outs = session.feed(1, line)
            mine = [o for c, o in outs if c == 1]
            if mine and mine[0][:2] == "29":
                session.refusals.append((line, mine[0]))
                in_a_row += 1
                if in_a_row > MAX_REFUSED:
                    session.out(outs)
                    return f"refused {in_a_row} times in a row"
            else:
                plies, in_a_row = plies + 1, 0
        session.out(outs)
        await writer.drain()
    await writer.drain()
    writer.close()
    return ""


async def check_player(command: str, game: str, seed: int = 1, listen: int = 0, box: Sandbox | None = None) -> Result:
    result = Result()
    box = sandboxes.choose("auto") if box is None else box
    for n, scenario in enumerate(scenarios(game)):
        session, status, stopped = await play(command, game, scenario, seed + n, listen, box)
        grade(game, scenario, session, status, stopped, result, TIMEOUT[0])
    return result


def run(args: argparse.Namespace) -> int:
    """check a player program against scripted referees

    Run the player command (with {host}, {port} and {side} filled in) against referees
    scripted by the protocol's model (spec/protocol.py), as both sides: the seat
    request, move formats, serials, the second player's ellipses, clock messages, a
    draw offer (Awari), an illegal move refused and retried, the opponent resigning
    or disconnecting, the final status and a clean exit. One PASS/FAIL line per
    behaviour; exit status 0 if all pass, 1 if any fails.
    """
    try:
        argv = command_line(args.command, args.game, 0, "x", "x")
    except ValueError as exc:
        raise UsageError(f"referee compliance: bad command {args.command!r}: {exc}") from None
    if wrong := unknown_placeholder(shlex.split(args.command)):
        raise UsageError(f"referee compliance: bad command {args.command!r}: {wrong}")
    if not argv:
        raise UsageError("referee compliance: empty command")
    if why := _cannot_run(argv[0]):
        raise UsageError(f"referee compliance: cannot run {argv[0]}: {why}")
    box = sandbox_of(args, "referee compliance")
    TIMEOUT[0] = args.timeout
    try:
        result = asyncio.run(check_player(args.command, args.game, args.seed, args.port, box))
    except (FileNotFoundError, PermissionError) as exc:
        raise UsageError(f"referee compliance: cannot run {argv[0]}: {exc.strerror}") from None
    except OSError as exc:  # --port taken
        raise UsageError(f"referee compliance: cannot listen on port {args.port}: {exc.strerror}") from None
    for name, ok, detail in result.checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name}" + ("" if ok else f": {detail}"))
    failed = sum(1 for _, ok, _ in result.checks if not ok)
    print(f"{len(result.checks) - failed}/{len(result.checks)} passed")
    return 1 if failed else 0


def _cannot_run(program: str) -> str:
    """Why ``program`` (a path, or a name on PATH) cannot be run, '' if it can: said
    before any sandbox, whose own exec error would come as the program's output."""
    if os.sep not in program:
        return "" if shutil.which(program) else "not found on PATH"
    path = Path(program)
    if not path.exists():
        return os.strerror(2)
    return "" if path.is_file() and os.access(path, os.X_OK) else os.strerror(13)
