"""Who holds a connection: the process tree (or group) behind a loopback TCP connection.

``referee match`` and ``referee tournament`` launch one program per side, each in
its sandbox, session and process group (impl/apps/games.py, sandbox.py).  As a
connection is made to a game's private server, its client ``address:port`` is
looked up: on Linux the socket with that local address and the server's port as
remote port is found in ``/proc/net/tcp`` (or ``tcp6``), and its inode among the
descriptors (``/proc/<pid>/fd``) of the runner's own process (``REFEREE``, its
observer) and of the processes below each launched program (``owner``; in a PID
namespace nothing a program starts leaves its tree), or of its process group
(``holders``, without a sandbox).  A connection held by none of them is refused.
The /proc reads themselves are impl/server/procs.py's (the web view asks them too).

Without ``/proc``, psutil (the ``seats`` extra) answers the same questions on
every system it supports (macOS, Windows, the BSDs …; ``BACKEND``): each candidate
process's own TCP connections (``Process.net_connections``, which needs no
privilege for one's own processes), its children, its process group
(``os.getpgid``; on Windows, which has none, the launched program's tree).  A
process psutil may not read (another user's: ``AccessDenied``) holds nothing as
far as it can tell, so its connections are refused; the launched programs run as
the runner's user and are always readable.  With neither (``available()`` is
False) the match falls back on the seat's token and the order of launches
(``SeatGuard``, below: it checks every connection and seat of a game as they come).
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from impl.server.procs import PROC as PROC
from impl.server.procs import parent, socket_inode
from impl.server.procs import stat_field as _stat

PSUTIL = "psutil"
BACKEND: str | None = None
"""How sockets are mapped to processes: None, /proc where it is (Linux), else psutil;
``PSUTIL`` forces psutil (the tests use it on Linux)."""


def _psutil() -> Any | None:
    """psutil, if installed and able to list a process's connections here."""
    try:
        import psutil
    except ImportError:
        return None
    return psutil if hasattr(psutil.Process, "net_connections") else None


def _by_psutil(proc: Path) -> bool:
    return BACKEND == PSUTIL or (proc == PROC and not (proc / "net" / "tcp").is_file())


def available(proc: Path = PROC) -> bool:
    """Whether sockets can be mapped to processes here (Linux /proc, or psutil)."""
    if _by_psutil(proc):
        return _psutil() is not None
    return (proc / "net" / "tcp").is_file()


def _tcp_held(pid: int, client: tuple[str, int], server_port: int) -> bool:
    """Whether process ``pid`` holds the client's end of a connection from ``client``
    to ``server_port`` (psutil; False if it is gone or may not be read)."""
    ps = _psutil()
    assert ps is not None, "available() first"
    try:
        conns = ps.Process(pid).net_connections(kind="tcp")
    except (ps.NoSuchProcess, ps.AccessDenied, ps.ZombieProcess, OSError):
        return False
    for conn in conns:
        laddr, raddr = conn.laddr, conn.raddr
        if raddr and laddr and (laddr[0].removeprefix("::ffff:"), laddr[1]) == client and raddr[1] == server_port:
            return True
    return False


def _children(pid: int) -> list[int]:
    ps = _psutil()
    assert ps is not None, "available() first"
    try:
        return [c.pid for c in ps.Process(pid).children(recursive=True)]
    except (ps.NoSuchProcess, ps.AccessDenied, ps.ZombieProcess, OSError):
        return []


def zombie(pid: int, proc: Path = PROC) -> bool:
    """Whether ``pid`` is a zombie or gone (only its parent's wait is left)."""
    if _by_psutil(proc):
        ps = _psutil()
        assert ps is not None, "available() first"
        try:
            return bool(ps.Process(pid).status() == ps.STATUS_ZOMBIE)
        except (ps.NoSuchProcess, ps.AccessDenied, OSError):
            return True
    try:
        return (proc / str(pid) / "stat").read_text().rpartition(")")[2].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def split_address(address: str) -> tuple[str, int] | None:
    """``host:port`` (IPv6 hosts unbracketed, as impl/server/net.py writes them)."""
    host, sep, port = address.rpartition(":")
    return (host, int(port)) if sep and port.isdigit() else None


def process_group(pid: int, proc: Path = PROC) -> int | None:
    """The process group of ``pid`` (field 5 of /proc/<pid>/stat), None if gone
    (with psutil: ``os.getpgid``; None on Windows, which has no groups)."""
    if _by_psutil(proc):
        try:
            return os.getpgid(pid) if hasattr(os, "getpgid") else None
        except OSError:
            return None
    return _stat(pid, 5, proc)


def pids(proc: Path = PROC) -> Iterator[int]:
    """The processes' ids."""
    if _by_psutil(proc):
        ps = _psutil()
        assert ps is not None, "available() first"
        yield from ps.pids()
        return
    with suppress(OSError):
        for entry in os.scandir(proc):
            if entry.name.isdigit():
                yield int(entry.name)


def _holds(pid: int, target: str, proc: Path) -> bool:
    try:
        fds = os.listdir(proc / str(pid) / "fd")
    except OSError:
        return False
    for fd in fds:
        with suppress(OSError):
            if os.readlink(proc / str(pid) / "fd" / fd) == target:
                return True
    return False


def holders(client: tuple[str, int], server_port: int, groups: Mapping[int, int], proc: Path = PROC) -> frozenset[int]:
    """The keys of ``groups`` (player → process group) whose processes hold the
    client's end of the connection from ``client`` to ``server_port``; empty if no
    launched program's process holds it."""
    if _by_psutil(proc):
        return _psutil_holders(client, server_port, groups)
    inode = socket_inode(client, server_port, proc)
    if inode is None:
        return frozenset()
    target = f"socket:[{inode}]"
    # Usually the program itself (its group's leader) holds its connection: then no
    # scan of every process.  Sharing one's socket with the other program takes that
    # program's cooperation: not a theft from it.
    for player, group in groups.items():
        if _holds(group, target, proc) and process_group(group, proc) == group:
            return frozenset({player})
    by_group = {group: player for player, group in groups.items()}
    found = set()
    for pid in pids(proc):
        holder = by_group.get(process_group(pid, proc) or -1)
        if holder is not None and holder not in found and _holds(pid, target, proc):
            found.add(holder)
    return frozenset(found)


def _psutil_holders(client: tuple[str, int], server_port: int, groups: Mapping[int, int]) -> frozenset[int]:
    """``holders`` by psutil: the group's leader first, then the group's processes
    (on Windows, which has no groups, the leader's tree)."""
    for player, group in groups.items():
        if _tcp_held(group, client, server_port):
            return frozenset({player})
    found = set()
    if hasattr(os, "getpgid"):
        by_group = {group: player for player, group in groups.items()}
        for pid in pids():
            holder = by_group.get(process_group(pid) or -1)
            if holder is not None and holder not in found and _tcp_held(pid, client, server_port):
                found.add(holder)
    else:
        for player, group in groups.items():
            if any(_tcp_held(pid, client, server_port) for pid in _children(group)):
                found.add(player)
    return frozenset(found)


REFEREE = -1
"""``owner``'s answer for a connection of the runner's own process (its observer)."""


def descendants(roots: Mapping[int, int], proc: Path = PROC) -> dict[int, int]:
    """Every process below one of ``roots`` (player → the pid launched for it), the
    roots included: pid → player.  In a PID namespace an orphan is adopted by the
    namespace's first process, itself below the root, so nothing a sandboxed
    program starts leaves its tree (impl/apps/sandbox.py)."""
    children: dict[int, list[int]] = {}
    for pid in pids(proc):
        ppid = parent(pid, proc)
        if ppid is not None:
            children.setdefault(ppid, []).append(pid)
    found: dict[int, int] = {}
    for player, root in roots.items():
        stack = [root]
        while stack:
            pid = stack.pop()
            if pid not in found:
                found[pid] = player
                stack.extend(children.get(pid, ()))
    return found


def owner(
    client: tuple[str, int], server_port: int, roots: Callable[[], Mapping[int, int]], proc: Path = PROC
) -> int | None:
    """Whose is the client's end of the connection from ``client`` to
    ``server_port``: a key of ``roots()`` (player → launched pid; asked for only
    when this process does not hold it) if a process of that player's tree holds
    it, ``REFEREE`` if this process does, None if nobody
    of the game's does (or the socket is gone).  Held by both players' trees (a
    descriptor passed between them, which takes both programs' cooperation): the
    lower key."""
    if _by_psutil(proc):
        if _tcp_held(os.getpid(), client, server_port):
            return REFEREE
        trees = {player: [root, *_children(root)] for player, root in roots().items()}
        held = sorted(p for p, tree in trees.items() if any(_tcp_held(pid, client, server_port) for pid in tree))
        return held[0] if held else None
    inode = socket_inode(client, server_port, proc)
    if inode is None:
        return None
    target = f"socket:[{inode}]"
    if _holds(os.getpid(), target, proc):
        return REFEREE
    held = sorted({player for pid, player in descendants(roots(), proc).items() if _holds(pid, target, proc)})
    return held[0] if held else None


# ─── The seat guard: every connection and seat of a game checked as it comes ───


@dataclass(frozen=True)
class Theft:
    """A seat (0: the first mover's side) taken by a connection not of the program
    launched for it: ``thieves``, the players (0 A, 1 B) whose programs hold it, is
    empty when no launched program does."""

    side: int
    thieves: frozenset[int]


LAUNCH_WAIT = 30.0
"""Seconds a connection's check waits for both programs' launches to be noted (only
a failed launch makes it wait that long; the connection is then nobody's)."""
TOKEN_BYTES = 15
"""The length of a seat's secret (``SeatGuard.tokens``): 120 bits, 30 hex digits, within a name's 31 characters."""
PROGRAM_CONNECTIONS = 8
"""Connections each program (and the runner's observer) may hold at once on its
game's private server: a program that opens more is refused them, and its
opponent, counted apart, is never crowded out (``GameServer.owner_of``)."""


class SeatGuard:
    """Checks every connection to a game's private server as it is made, and each
    seat as it is taken (called on the private server's thread, while the
    connection is open, before the game starts).

    With /proc (``by_proc``): a connection is the program's whose process tree
    holds it (``owner``: in a sandbox, every process the
    program starts, one that called ``setsid`` included, stays in its tree;
    without one, its process group counts too), the runner's if the runner's own
    process holds it (the observer), and is refused if nobody's.  A seat taken
    through the other program's connection is stolen.  Without /proc, by the
    order of launches: a seat taken before the second program is launched is the
    first's.

    The checks run on the private server's loop, synchronously: done in another
    thread they could come after a thief has played, resigned and closed the
    stolen connection.  They read /proc/net/tcp and a few descriptor tables,
    delay only this game's connections, and are charged to no clock (none runs
    before the start)."""

    def __init__(self, first: int, by_proc: bool, isolated: bool = False) -> None:
        self.port = 0
        """The server's, once it listens (a connection made before is nobody's)."""
        self.first, self.by_proc, self.isolated = first, by_proc, isolated
        self.roots: dict[int, int] = {}
        """Player (0 A, 1 B) → the pid launched for it (its process group's leader)."""
        self.owners: dict[str, int] = {}
        """Client ``address:port`` → its connection's owner, noted as it connected."""
        self.refused = 0
        """Connections refused as nobody's."""
        self.thefts: list[Theft] = []
        self.seated = threading.Event()
        self.tokens = (secrets.token_hex(TOKEN_BYTES), secrets.token_hex(TOKEN_BYTES))
        """Player (0 A, 1 B) → its seat's secret, handed to its program alone on an
        inherited descriptor (impl/apps/launch.py); where /proc or psutil tells who
        holds a connection, that decides and the token proves nothing."""
        self._lock = threading.Condition()

    def launched(self, player: int, pid: int) -> None:
        with self._lock:
            self.roots[player] = pid
            self._lock.notify_all()

    def _launches(self, count: int = 2) -> dict[int, int]:
        """The launches, once ``count`` of them are noted: a program can connect (or
        take its seat) before its launcher's thread, starved on a busy machine, has
        noted its pid."""
        with self._lock:
            self._lock.wait_for(lambda: len(self.roots) >= count, timeout=LAUNCH_WAIT)
            return dict(self.roots)

    def owner_of(self, address: str) -> str | None:
        """``GameServer.owner_of``: ``A``, ``B`` or ``referee``, None to refuse."""
        client = split_address(address)
        try:
            found = owner(client, self.port, self._launches) if client is not None else None
            if found is None and client is not None and not self.isolated:
                held = holders(client, self.port, self._launches())
                found = min(held) if held else None
        except (OSError, ValueError):  # /proc not as expected: nobody's
            found = None
        with self._lock:
            if found is None:
                self.refused += 1
            else:
                self.owners[address] = found
        return None if found is None else "referee" if found == REFEREE else "AB"[found]

    def on_seat(self, side: int, address: str, name: str = "") -> None:
        rightful = self.first ^ side
        held = self._held(rightful, address, name)
        if held != {rightful}:
            with self._lock:
                self.thefts.append(Theft(side, held - {rightful}))
        self.seated.set()

    def _held(self, rightful: int, address: str, name: str) -> frozenset[int]:
        """The players whose programs hold the seat taken from ``address`` under ``name``:
        by the program whose process tree holds the connection where that was told
        as it connected (a token read from the other program's memory or /proc is then
        no proof: issue #49), else by the token, else by the order of launches."""
        if self.by_proc:
            with self._lock:
                owner = self.owners.get(address)  # noted as it connected
            if owner is not None and owner != REFEREE:
                return frozenset({owner})
        if name in self.tokens:  # a secret only the player's program was given
            return frozenset({self.tokens.index(name)})
        if self.by_proc:
            return frozenset()
        roots = self._launches(1)  # no program exists before the first launch
        if len(roots) < 2:
            return frozenset(roots)  # the first program's, or without any launch nobody's
        return frozenset({rightful})  # the weaker check cannot tell: trusted
