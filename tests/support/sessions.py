"""Random sessions driven by the protocol's model, against a real server over sockets.

The requests are proofs/protocol_sessions.py's (which drives the session in process,
without the glue).  Each step the driver replays the game's transcript so far into spec/protocol.py's
``Referee`` (impl/server/transcript.py ``Replay``), asks it each connection's state, the
player to move, the serial and the position, and picks a request for a row of the
transition table — the rows not yet reached first: seat requests good and bad,
moves right and wrong (serial, ellipsis, token, legality, turn), resignations, Awari
draw offers and answers, garbled, oversize and non-ASCII lines, a new connection, a
disconnect, a silence long enough for a flag to fall.  ``serving`` checks the whole
transcript against the model as the server stops (tests/support/netclient.py).
"""

from __future__ import annotations

import asyncio
import random
from contextlib import suppress
from dataclasses import dataclass, field

from impl.config import ConfigMessages
from impl.server.transcript import Replay, Transcript, parse
from proofs.protocol_sessions import ALL_ROWS as ALL_ROWS
from proofs.protocol_sessions import GOTHELLO_ROWS as GOTHELLO_ROWS
from proofs.protocol_sessions import choose
from spec import protocol as M
from tests.support.netclient import TRANSCRIBED, Client, serving


@dataclass
class Report:
    rows: set[str] = field(default_factory=set)
    sessions: int = 0
    lines: int = 0
    codes: set[int] = field(default_factory=set)


def _replay(transcript: Transcript) -> tuple[Replay, str | None]:
    setup, events = parse(transcript.lines)
    replay = Replay(setup)
    problem = None
    for ev in events:
        problem = problem or replay.feed(ev)
    return replay, problem


async def _settle(transcript: Transcript, before: int) -> None:
    """Wait until the server has handled what was just sent (the transcript grew and
    stopped growing)."""
    for _ in range(200):
        await asyncio.sleep(0.002)
        if len(transcript.lines) > before:
            size = len(transcript.lines)
            await asyncio.sleep(0.002)
            if len(transcript.lines) == size:
                return


async def random_session(game: str, seed: int, steps: int = 80, report: Report | None = None) -> Report:
    """One random session of ``game`` on a fresh server; its transcript is checked
    against the model as the server stops."""
    rng = random.Random(seed)
    report = report if report is not None else Report()
    timed = rng.random() < 0.3
    options: dict[str, object] = {"config": rng.choice(list(ConfigMessages))}
    if timed:
        options["time"] = (30.0, 0.6) if rng.random() < 0.5 else (30.0, 30.0)
        if options["time"] == (30.0, 30.0):  # with increments (no draw: the seeds' sessions stay as they were)
            options["increment"] = (2.0, 0.5)
    clients: dict[int, Client] = {}
    drains: list[asyncio.Task[None]] = []

    async def drain(client: Client) -> None:
        with suppress(Exception):
            while await client.reader.readline():
                pass

    async with serving(game, **options) as server:  # type: ignore[arg-type]
        kept = TRANSCRIBED[id(server)]

        async def connect() -> None:
            before = len(kept[-1].lines) if kept else 0
            client = await Client.connect(server.port)
            await _settle(kept[-1], before)
            clients[len(clients) + 1] = client
            drains.append(asyncio.create_task(drain(client)))

        for _ in range(2):
            await connect()
        for _ in range(steps):
            transcript = kept[-1]
            replay, problem = _replay(transcript)
            assert problem is None, problem
            report.rows |= replay.rows
            model = replay.models[0]
            if model.over:
                break
            live = [e for e in model.entities if e.id in clients and not e.closed]
            roll = rng.random()
            if roll < 0.08 and len(clients) < 6:
                await connect()
                continue
            if roll < 0.11 and live and (rng.random() < 0.1 or any(e.state is not M.State.PLAYING for e in live)):
                victim = rng.choice([e for e in live if e.state is not M.State.PLAYING] or live)
                before = len(transcript.lines)
                await clients[victim.id].close()
                await _settle(transcript, before)
                continue
            if roll < 0.12 and timed and model.started:
                await asyncio.sleep(0.8)  # the second player's 0.6 s may run out
                continue
            if not live:
                await connect()
                continue
            ent = rng.choice(live)
            line = choose(rng, model, ent, report.rows)
            before = len(transcript.lines)
            client = clients[ent.id]
            with suppress(ConnectionError):
                await client.send(line)
            await _settle(transcript, before)
        for client in clients.values():
            await client.close()
        await asyncio.sleep(0.01)
    for task in drains:
        task.cancel()
    report.sessions += 1
    for transcript in kept:
        report.lines += len(transcript.lines)
        for text in transcript.lines:
            if '"d": "out"' in text:
                code = text.split('"line": "', 1)[1][:3]
                if code.isdigit():
                    report.codes.add(int(code))
    return report
