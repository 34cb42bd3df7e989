"""The gthd client libraries against our Gothello server, unchanged.

Each legacy player below re-implements the *reading rules* of one library of the
gthd ecosystem (repository ovidiu-mura/gothello-gthd and its companions: the C
library gthclient.c rev 2.7, the Java GthClient rev 2.1, the Python 3
gthclient.py announcing 0.9.1): what it sends, which line it reads next, which
codes it accepts there and how it scans their arguments.  Whole games between
them must run to the result the server announced, under the server's default
settings (config messages to observers only), with and without time controls.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import ClassVar

import pytest

from impl.engines.registry import get_engine
from impl.server.server import GameServer
from tests.support import netclient
from tests.support.netclient import Client, fastest_kind, on_server, run, serving

engine_kind = netclient.engine_kind  # autouse fixture: each test runs with every engine kind


class LegacyError(AssertionError):
    """The library would have reported an error here."""


class Legacy:
    """One player library: ``flavour`` is ``c``, ``java`` or ``python``."""

    VERSION: ClassVar[dict[str, str]] = {"c": "0.9", "java": "0.9", "python": "0.9.1"}
    END: ClassVar[dict[str, str]] = {
        "c": "\r",
        "java": "\r",
        "python": "\r\r",
    }  # Python prints "\r\n" through a newline="\r" file

    def __init__(self, flavour: str, side: str, client: Client) -> None:
        self.flavour, self.who, self.client = flavour, side, client
        self.serial = 1 if flavour == "python" else 0
        self.winner: str | None = None
        self.my_time: int | None = None
        self.opp_time: int | None = None

    async def get_msg(self) -> tuple[int, str]:
        line = await self.client.line()
        if self.flavour == "python":  # split(), 3 digits first; blank lines skipped
            words = line.split()
            if not words:
                return await self.get_msg()
            if len(words[0]) != 3 or not words[0].isdigit():
                raise LegacyError(f"invalid message code in {line!r}")
            return int(words[0]), " ".join(words[1:])
        # C fgets into 1024 bytes / Java readLine: at least 4 characters, "DDD " first
        if len(line) + 2 >= 1023 or len(line) < 4 or not line[:3].isdigit() or line[3] != " ":
            raise LegacyError(f"bad response code in {line!r}")
        return int(line[:3]), line[4:]

    async def send(self, text: str) -> None:
        await self.client.send(text, self.END[self.flavour])

    async def start(self) -> None:
        code, _ = await self.get_msg()
        if code != 0:
            raise LegacyError("illegal greeting")
        await self.send(f"{self.VERSION[self.flavour]} player {self.who}")
        code, text = await self.get_msg()
        if code not in (100, 101):
            raise LegacyError(f"side failure {code}")
        if code == 101:
            if self.flavour == "python":  # reads them, then fails on an undefined name (its bug)
                raise LegacyError("python library cannot take 101")
            white, black = (int(n) for n in re.findall(r"\d+", text)[:2])
            self.my_time, self.opp_time = (white, black) if self.who == "white" else (black, white)
            if self.flavour == "java":
                self.my_time = white  # its own bug for black; harmless here
        code, _ = await self.get_msg()
        if (code != 351 and self.who == "white") or (code != 352 and self.who == "black"):
            raise LegacyError(f"side failure {code}: the role must follow 100/101 directly")

    async def make_move(self, pos: str) -> bool:
        """True while the game goes on."""
        if self.who == "black" and self.flavour != "python":
            self.serial += 1
        ellipses = " ..." if self.who == "white" else ""
        await self.send(f"{self.serial}{ellipses} {pos}")
        code, text = await self.get_msg()
        if code in (201, 202, 203):
            if code == 203 and self.flavour == "python":
                raise LegacyError("python library treats 203 as a disconnect")
            self.winner = {201: self.who, 202: _other(self.who), 203: "draw"}[code]
            return False
        if code not in (200, 207):
            raise LegacyError(f"bad result code {code}")
        if code == 207:
            self.my_time = int(re.findall(r"\d+", text)[0])
        code, _ = await self.get_msg()
        if self.flavour != "java" and not 311 <= code <= 318:  # Java's test is always true
            raise LegacyError(f"bad status code {code}")
        return True

    async def get_move(self) -> tuple[bool, str]:
        if self.who == "white" and self.flavour != "python":
            self.serial += 1
        code, text = await self.get_msg()
        if self.flavour == "python":
            return self._python_move(code, text)
        if not (311 <= code <= 326 or code in (361, 362)):
            raise LegacyError(f"bad status code {code}")
        own = {"white": (312, 314, 316, 318, 323, 324, 326), "black": (311, 313, 315, 317, 321, 322, 325)}
        if code in own[self.who]:
            raise LegacyError(f"status code {code} from wrong side")
        pos = ""
        if 311 <= code <= 318 or 321 <= code <= 326:
            pos = self._scan(code, text)
        ends = {321: "black", 361: "black", 322: "white", 362: "white", 323: "white", 324: "black"}
        if code in ends or code in (325, 326):
            self.winner = ends.get(code, "draw")
            return False, pos
        return True, pos

    def _scan(self, code: int, text: str) -> str:
        """C's sscanf patterns (Java tokenizes the same fields)."""
        patterns = {
            311: r"(\d+) (\S{1,2})",
            321: r"(\d+) (\S{1,2})",
            322: r"(\d+) (\S{1,2})",
            325: r"(\d+) (\S{1,2})",
            313: r"(\d+) (\S{1,2}) (\d+)",
            315: r"(\d+) pass",
            317: r"(\d+) pass (\d+)",
            312: r"(\d+) \.\.\. (\S{1,2})",
            323: r"(\d+) \.\.\. (\S{1,2})",
            324: r"(\d+) \.\.\. (\S{1,2})",
            326: r"(\d+) \.\.\. (\S{1,2})",
            314: r"(\d+) \.\.\. (\S{1,2}) (\d+)",
            316: r"(\d+) \.\.\. pass",
            318: r"(\d+) \.\.\. pass (\d+)",
        }
        match = re.match(patterns[code], text)
        if match is None or int(match.group(1)) != self.serial:
            raise LegacyError(f"got move serial in {text!r}, expected {self.serial}")
        if code in (313, 314, 317, 318):
            self.opp_time = int(match.groups()[-1])
        if code in (315, 316, 317, 318) or match.group(2) == "pa":
            return "pass"
        return match.group(2)

    def _python_move(self, code: int, text: str) -> tuple[bool, str]:
        words = text.split()
        if code in (311, 321, 322, 325, 315, 313, 317):
            side, self.serial, pos = "black", int(words[0]), words[1]
        elif code in (312, 323, 324, 326, 316, 314, 318):
            side, self.serial, pos = "white", int(words[0]), words[2]
        else:
            raise LegacyError(f"unknown move status code {code}")
        if side == self.who:
            raise LegacyError("move received from wrong side")
        if code in (325, 326):
            raise LegacyError("python library treats 325/326 as an early termination")
        if self.who == "black":
            self.serial += 1
        ends = {321: "black", 322: "white", 323: "white", 324: "black"}
        if code in ends:
            self.winner = ends[code]
            return False, pos
        return True, pos


def _other(side: str) -> str:
    return "white" if side == "black" else "black"


async def legacy_game(flavours: tuple[str, str], seed: int, time: tuple[float, float] | None = None) -> list[str]:
    """Black with the first library, white with the second, random legal moves
    chosen locally; returns what each library concluded, then the server's 32x."""
    engine = get_engine("gothello", fastest_kind())
    rng = random.Random(seed)
    async with serving("gothello", time=time) as server:
        black = Legacy(flavours[0], "black", await Client.connect(server.port))
        white = Legacy(flavours[1], "white", await Client.connect(server.port))
        await asyncio.gather(black.start(), white.start())
        state = engine.initial()
        mover, waiter = black, white
        while True:
            move = rng.choice(engine.legal_moves(state))
            _, state = engine.apply(state, move)
            token = engine.format_move(move)
            going = await mover.make_move(token)
            got_going, seen = await waiter.get_move()
            assert seen == token and got_going == going
            if not going:
                break
            mover, waiter = waiter, mover
        return [black.winner or "", white.winner or "", mover.client.seen[-1], waiter.client.seen[-1]]


PAIRS = [("c", "c"), ("java", "c"), ("c", "python"), ("python", "java"), ("python", "python")]


@pytest.mark.parametrize("flavours", PAIRS, ids=["-".join(p) for p in PAIRS])
def test_legacy_libraries_play_whole_games(flavours: tuple[str, str]) -> None:
    """Greeting, seat, role, every move and the end exchange as the libraries read
    them; both sides conclude the same winner.  (Seeds avoid drawn games, which
    the Python library reports as errors whatever the server.)"""

    async def scenario() -> None:
        for seed in range(3):
            black, white, _, _ = await legacy_game(flavours, seed)
            assert black == white and black in ("black", "white")

    run(scenario)


@pytest.mark.parametrize("flavours", [("c", "java"), ("java", "c")], ids=["c-java", "java-c"])
def test_legacy_libraries_with_time_controls(flavours: tuple[str, str]) -> None:
    """101, 207 and 313–318 as the C and Java libraries scan them."""

    async def scenario() -> None:
        black, white, _, _ = await legacy_game(flavours, 7, time=(600.0, 600.0))
        assert black == white

    run(scenario)


@on_server("gothello", time=(60.0, 60.0))
async def test_python_library_cannot_take_101_nor_draws(server: GameServer) -> None:
    """Documented limits of the Python library (its bugs, not the server's): it
    fails on 101, and reports 203 and 325/326 as errors."""
    player = Legacy("python", "black", await Client.connect(server.port))
    with pytest.raises(LegacyError, match="101"):
        await player.start()
