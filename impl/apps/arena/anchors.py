"""The arena's own players (``--anchor NAME=KIND``, docs/arena.md): ``referee player``
connecting again and again, logged in with the run's token for it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from pathlib import Path

from impl.client.client import LOGIN


async def run_anchor(game: str, port: int, name: str, kind: str, token: str) -> None:
    """Anchor ``name`` of ``kind`` (``search:0.2``: a player and its budget) on the
    arena's ``port``, until cancelled; its process ends with it."""
    player, _, budget = kind.partition(":")
    command = [sys.executable, "-m", "impl.cli", "player", player, game, "--host", "127.0.0.1"]
    command += ["--port", str(port), "-q"]
    # The login in the environment, not the arguments: /proc/PID/environ is the owner's alone.
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3]), LOGIN: f"{name}:{token}"}
    if budget:
        command += ["--budget", budget]
    while True:
        proc = await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL, env=env,
        )  # fmt: skip
        try:
            await proc.wait()
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            raise
        await asyncio.sleep(0.2)
