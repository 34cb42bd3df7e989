"""The run's programs' share of its live web view (issue #49 item 4).

``referee match … --web`` and ``referee tournament … --web`` launch the players'
programs below the runner (impl/apps/launch.py, each in its sandbox), and those
connect from 127.0.0.1 like the person running the match, who watches from a
browser on the same machine.  Counted by address (impl/web/admission.py), one
program holding 40 connections took that address's whole share: the person got
503 on every try.  So the web process of such a run (impl/web/child.py, told the
runner's process id) sorts each connection from this machine (a loopback peer, or
one from the view's own address: ``local_pair``) before admitting it:

* the client's end of the connection is found (impl/server/procs.py ``inode_of``:
  the kernel's sock_diag, else /proc/net/tcp) and every process holding it (their
  descriptors, one pass over /proc, ``look``, chasing the processes born meanwhile
  while it is not found) and whether each is below the runner (``below``, else
  ``below_now``);
* held by a process below the runner — a launched program, its sandbox, anything
  it started (in a PID namespace an orphan stays below its sandbox) — the
  connection is a ``PROGRAM``'s: its client is ``PROGRAMS``, one client for all the
  run's programs, with its own connections, requests, rate and record share, and
  all of them together at most 1/SHARE of the view's connections
  (``WebLimits.max_connections``), so that there is always room for viewers;
* held only by other processes, it is ``OTHER``: its client is its address's, as
  for anyone; its client end closed already, a ``PROGRAM``'s (no viewer is refused
  by it: nobody can read its answer);
* ``UNSURE`` — no process found holding it, or one whose ancestry could not be
  read (gone meanwhile) — it is looked for again in the next pass, ROUNDS passes
  in all (CHURN_ROUNDS while processes below the runner are born as a pass reads
  the others: a program handing its sockets from child to child); then it is a
  ``PROGRAM``'s if a process below the runner could not be read (a program that
  made itself undumpable hides its descriptors), else ``OTHER`` (another user's
  browser, whose descriptors this process may not read).

Meanwhile what the connection sends is kept for later, and its client's leaving
closes it (impl/web/gate.py ``Admitted``).  Every connection waiting is sorted by
one pass, in a thread (its cost grows with the processes and descriptors of the
machine); passes take at most 1/(DUTY + 1) of the time, so that new connections
cost the view a bounded share of one core, but for a flood: with as many waiting
as the programs may hold (``ask``'s ``hurry``), passes follow each other at once.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from impl.log import event
from impl.server import procs
from impl.server.procs import PROC, Address

PROGRAMS = "programs"
"""The admission client of every connection the run's programs hold (no address
group is spelled so)."""
SHARE = 4
"""The run's programs together hold at most 1/SHARE of the view's connections."""
ROUNDS = 3
"""Passes over /proc a connection of unsure holder is looked for in."""
CHURN_ROUNDS = 40
"""Passes it is looked for in while processes below the runner are born during each
pass (a program handing its sockets from child to child as each exits: on a loaded
machine it outran three passes, and its connections counted as a viewer's)."""
DUTY = 4.0
"""After a pass, the next starts no sooner than DUTY times its length later."""
CHASES = 64
"""Times a pass lists the processes, looking for those born while it read the
others, while a socket's holder is not found."""
RETRY = 0.25
"""Seconds at least before the pass after one that failed (no descriptor left)."""
CHAIN = 4096
"""Parents read afresh at most, to tell whether one process is below the runner."""


class Sort(Enum):
    PROGRAM = "program"
    """Held by a process below the runner (or no longer held at all)."""
    OTHER = "other"
    """Held by processes none of which is below the runner."""
    UNSURE = "unsure"
    """No holder seen, or one whose ancestry the pass did not see."""


@dataclass(frozen=True)
class Seen:
    """One pass over the processes: what ``whose`` and ``settle`` decide by."""

    holders: Mapping[int, frozenset[int]]
    """Each socket inode asked for → the processes whose descriptors hold it."""
    unreadable: frozenset[int]
    """Processes whose descriptors could not be read."""
    lines: Mapping[int, bool | None]
    """Each of those processes → whether it is below the runner (None: not known)."""
    churning: bool = False
    """Whether processes below the runner were born while the pass read the others."""


def _unmapped(host: str) -> str:
    return host.removeprefix("::ffff:") if host.startswith("::ffff:") and "." in host else host


def local_pair(peer: object, sockname: object) -> tuple[Address, Address] | None:
    """The connection's client and server ends (``getpeername``, ``getsockname``;
    IPv4-mapped IPv6 addresses as IPv4) if its client is on this machine — a
    loopback address, or the view's own address — else None."""
    if not (isinstance(peer, tuple) and len(peer) >= 2 and isinstance(sockname, tuple) and len(sockname) >= 2):
        return None
    client, server = (_unmapped(str(peer[0])), int(peer[1])), (_unmapped(str(sockname[0])), int(sockname[1]))
    try:
        loopback = ipaddress.ip_address(client[0]).is_loopback
    except ValueError:
        return None
    return (client, server) if loopback or client[0] == server[0] else None


def below(pid: int, runner: int, parents: Mapping[int, int]) -> bool | None:
    """Whether ``pid`` descends from ``runner`` (not ``runner`` itself), by the
    pass's parents; None where its line of parents leaves what the pass saw."""
    if pid == runner:
        return False
    for _ in range(len(parents) + 1):
        up = parents.get(pid)
        if up is None:
            return None
        if up == runner:
            return True
        if up == 0:  # above init (pid 1) and the kernel's threads (pid 2)
            return False
        pid = up
    return None  # a loop: the pass read the parents while they changed


def below_now(pid: int, runner: int, proc: Path = PROC) -> bool | None:
    """Whether ``pid`` descends from ``runner`` now: its parents read afresh, one
    by one; where one has gone meanwhile, its child's parent is read again (the
    child was handed to a reaper: in a PID namespace, its init, itself below the
    runner).  None if ``pid`` itself has gone."""
    line = [pid]
    for _ in range(CHAIN):
        if line[-1] == runner:
            return len(line) > 1
        up = procs.parent(line[-1], proc)
        if up is None:
            line.pop()
            if not line:
                return None
        elif up == 0:
            return False
        else:
            line.append(up)
    return None


def whose(inode: int | None, seen: Seen) -> Sort:
    """The sort of a connection whose client end is socket ``inode`` (None: closed)."""
    if inode is None:
        return Sort.PROGRAM
    lines = {seen.lines.get(pid) for pid in seen.holders.get(inode, frozenset())}
    if True in lines:
        return Sort.PROGRAM
    return Sort.OTHER if lines == {False} else Sort.UNSURE


def again(sort: Sort, rounds: int, seen: Seen | None) -> bool:
    """Whether a connection sorted ``sort`` after ``rounds`` passes is looked for in
    another: while UNSURE, ROUNDS passes, and up to CHURN_ROUNDS while the runner's
    processes churn (the holder is then likely one born after the pass listed it)."""
    if sort is not Sort.UNSURE:
        return False
    return rounds < ROUNDS or (seen is not None and seen.churning and rounds < CHURN_ROUNDS)


def settle(sort: Sort, seen: Seen) -> Sort:
    """The sort after the last pass: still UNSURE, a PROGRAM's if a process that
    may be below the runner could not be read, else OTHER."""
    if sort is not Sort.UNSURE:
        return sort
    hidden = any(seen.lines.get(pid) is not False for pid in seen.unreadable)
    return Sort.PROGRAM if hidden else Sort.OTHER


def look(
    pairs: Sequence[tuple[Address, Address]], runner: int, skip: Collection[int], proc: Path = PROC
) -> tuple[list[int | None], Seen]:
    """One pass: the client end's inode of each connection, then every process's
    parent and, but for ``skip``'s (the runner and this process: never a client of
    the view), the processes holding those inodes; while one is not found, those
    born meanwhile, again and again (at most CHASES times: a process that hands
    its socket to a new child and exits is chased); and whether each holder, and
    each process not read, is below ``runner``."""
    inodes = [procs.inode_of(client, server, proc) for client, server in pairs]
    wanted = {inode for inode in inodes if inode is not None}
    parents: dict[int, int] = {}
    holders: dict[int, set[int]] = {}
    unreadable: set[int] = set()
    todo = list(procs.pids(proc))
    visited: set[int] = set()
    born: list[int] = []
    for chase in range(CHASES):
        born += todo if chase else []
        visited.update(todo)
        for pid in todo:
            up = procs.parent(pid, proc)
            if up is None:
                continue  # gone
            parents[pid] = up
            if pid in skip:
                continue
            held = procs.sockets(pid, proc)
            if held is None:
                unreadable.add(pid)
                continue
            for inode in held & wanted:
                holders.setdefault(inode, set()).add(pid)
        if wanted <= holders.keys():
            break
        todo = [pid for pid in procs.pids(proc) if pid not in visited]  # pids wrap: not only higher ones
    lines = {}
    for pid in {*unreadable, *(p for found in holders.values() for p in found)}:
        line = below(pid, runner, parents)  # stale or not, a line once below the runner stays so
        lines[pid] = line if line is not None else below_now(pid, runner, proc)
    frozen = {inode: frozenset(found) for inode, found in holders.items()}
    churning = any(below(pid, runner, parents) for pid in born)
    return inodes, Seen(frozen, frozenset(unreadable), lines, churning)


class Ask:
    """One connection waiting to be sorted."""

    __slots__ = ("client", "gone", "rounds", "server", "then")

    def __init__(self, client: Address, server: Address, then: Callable[[Sort], None]) -> None:
        self.client, self.server, self.then = client, server, then
        self.rounds = 0
        self.gone = False


class Sorter:
    """Sorts the connections from this machine of the run whose runner is ``runner``:
    every connection waiting by one pass, in a thread, passes spaced by DUTY."""

    def __init__(self, runner: int, proc: Path = PROC) -> None:
        self.runner, self.proc = runner, proc
        procs.diag_works()  # asked now, with descriptors to spare
        self._skip = frozenset({runner, os.getpid()})
        self._waiting: list[Ask] = []
        self._pending = 0
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._next = float("-inf")
        self._hurry = 1
        self.passes = 0
        """Passes over /proc made, since the start."""

    @property
    def pending(self) -> int:
        """Connections asked about and not yet sorted (nor gone)."""
        return self._pending

    def ask(self, client: Address, server: Address, then: Callable[[Sort], None], hurry: int) -> Ask:
        """Sort the connection from ``client`` to ``server``; ``then`` is called with
        PROGRAM or OTHER on the loop, unless ``forget`` is called first.  With
        ``hurry`` connections waiting or more, passes follow each other at once (a
        flood of connections waiting holds the view's connections meanwhile)."""
        ask = Ask(client, server, then)
        self._waiting.append(ask)
        self._pending += 1
        self._hurry = hurry
        if self._pending >= hurry and self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self._next = float("-inf")
        self._schedule()
        return ask

    def forget(self, ask: Ask) -> None:
        """The connection is gone: no answer."""
        if not ask.gone:
            ask.gone = True
            self._pending -= 1

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._task is not None:
            self._task.cancel()

    def _schedule(self) -> None:
        if self._timer is None and self._task is None and self._waiting:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_at(max(loop.time(), self._next), self._start)

    def _start(self) -> None:
        self._timer = None
        asks = [ask for ask in self._waiting if not ask.gone]
        self._waiting = []
        self._task = asyncio.create_task(self._pass(asks))

    async def _pass(self, asks: list[Ask]) -> None:
        loop = asyncio.get_running_loop()
        began = loop.time()
        pairs = [(ask.client, ask.server) for ask in asks]
        found: tuple[list[int | None], Seen] | None = None
        try:
            found = await asyncio.to_thread(look, pairs, self.runner, self._skip, self.proc)
        except OSError as exc:  # no descriptor left, say: not known, tried again
            event(logging.WARNING, "web_sort_failed", error=repr(exc))
        finally:
            self.passes += 1
            self._task = None
            pause = 0.0 if self._pending >= self._hurry else DUTY * (loop.time() - began)
            self._next = loop.time() + (pause if found is not None else max(pause, RETRY))
        for n, ask in enumerate(asks):
            if ask.gone:
                continue
            ask.rounds += 1
            sort = Sort.UNSURE if found is None else whose(found[0][n], found[1])
            if again(sort, ask.rounds, None if found is None else found[1]):
                self._waiting.append(ask)
                continue
            # never known: by its address, as without /proc
            sort = Sort.OTHER if found is None else settle(sort, found[1])
            self.forget(ask)
            ask.then(sort)
        self._schedule()
