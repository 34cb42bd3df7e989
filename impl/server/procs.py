"""Which process holds the client end of a TCP connection on this machine: Linux's
``/proc`` and its ``sock_diag`` netlink (issue #49).

The match's seat guard (impl/apps/seats.py) and the live web view's sorting of the
run's programs (impl/web/programs.py) ask the same two questions: which socket is
the client's end (its inode: ``inode_of``, by ``sock_diag`` — one exact lookup,
whatever the number of sockets on the machine — or, where that cannot be asked, a
read of ``/proc/net/tcp``, ``socket_inode``), and which processes hold it (their
descriptors, ``sockets``; their parents, ``parent``).  Linux only: elsewhere
``available`` is False and the callers say what they do instead.

And a child's lifetime (``die_with_parent``), for every process the referee starts
that must not outlive it: a sandboxed player (impl/apps/sandbox.py), the web view
and its values process (impl/web/child.py, values.py).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import signal
import socket
import struct
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

PROC = Path("/proc")

Address = tuple[str, int]
"""A host (IPv4, or IPv6 unbracketed) and a port."""


def available(proc: Path = PROC) -> bool:
    """Whether sockets and descriptors can be read here (Linux's /proc)."""
    return (proc / "net" / "tcp").is_file() and (proc / "self" / "fd").is_dir()


def _host_of(hexaddr: str) -> str:
    """An address of /proc/net/tcp{,6}: 32-bit words in the kernel's byte order."""
    raw = bytes.fromhex(hexaddr)
    words = b"".join(
        raw[i : i + 4][::-1] if sys.byteorder == "little" else raw[i : i + 4] for i in range(0, len(raw), 4)
    )
    if len(words) == 4:
        return socket.inet_ntop(socket.AF_INET, words)
    mapped = socket.inet_ntop(socket.AF_INET6, words)
    return mapped.removeprefix("::ffff:") if mapped.startswith("::ffff:") and "." in mapped else mapped


def socket_inode(client: Address, server_port: int, proc: Path = PROC) -> int | None:
    """The inode of the client's end of a connection to ``server_port``: the socket
    whose local address is ``client`` (None: no such socket, e.g. closed)."""
    host, port = client
    for table in ("tcp", "tcp6"):
        try:
            lines = (proc / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) < 10:
                continue
            local, remote, inode = fields[1], fields[2], int(fields[9])
            lhost, lport = local.rsplit(":", 1)
            ports = (int(lport, 16), int(remote.rsplit(":", 1)[1], 16))
            if ports == (port, server_port) and inode and _host_of(lhost) == host:
                return inode
    return None


# ─── sock_diag (linux/inet_diag.h) ─────────────────────────────────────────────

_NETLINK_SOCK_DIAG = 4
_SOCK_DIAG_BY_FAMILY = 20
_NLM_F_REQUEST = 1
_NLMSG_ERROR = 2
_NLMSG = struct.Struct("=IHHII")
"""nlmsghdr: length, type, flags, sequence, port id."""
_REQUEST = struct.Struct("=BBBBI")
"""inet_diag_req_v2 before its socket id: family, protocol, extensions, pad, states."""
_SOCKID = struct.Struct("!HH16s16s")
"""inet_diag_sockid: source and destination ports and addresses (network order),
then the interface and the cookie (host order, ``_SOCKID_TAIL``)."""
_SOCKID_TAIL = struct.Struct("=III")
_NO_COOKIE = 0xFFFFFFFF
_INODE_AT = _NLMSG.size + 4 + _SOCKID.size + _SOCKID_TAIL.size + 16
"""inet_diag_msg: family, state, timer, retransmits, the socket id, then expires,
read and write queues, uid and inode (4 bytes each): the inode's offset."""


def _packed(host: str) -> tuple[int, bytes]:
    """The address family and the 16 bytes sock_diag takes (IPv4 padded)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return family, socket.inet_pton(family, host).ljust(16, b"\0")


def diag_inode(client: Address, server: Address) -> int | None:
    """The inode of the socket whose local end is ``client`` and remote end
    ``server``, asked of the kernel by ``sock_diag`` (one exact lookup); None if there
    is none, or it has no descriptor left (closed, in TIME_WAIT).  OSError where the
    kernel cannot be asked (no netlink, no inet_diag)."""
    family, source = _packed(client[0])
    _, destination = _packed(server[0])
    sockid = _SOCKID.pack(client[1], server[1], source, destination) + _SOCKID_TAIL.pack(0, _NO_COOKIE, _NO_COOKIE)
    body = _REQUEST.pack(family, socket.IPPROTO_TCP, 0, 0, 0xFFFFFFFF) + sockid
    message = _NLMSG.pack(_NLMSG.size + len(body), _SOCK_DIAG_BY_FAMILY, _NLM_F_REQUEST, 1, 0) + body
    with socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, _NETLINK_SOCK_DIAG) as link:
        link.settimeout(1.0)
        link.sendto(message, (0, 0))
        answer = link.recv(8192)
    if len(answer) < _NLMSG.size + 4:
        raise OSError(errno.EPROTO, "short sock_diag answer")
    kind = _NLMSG.unpack_from(answer)[1]
    if kind == _NLMSG_ERROR:
        (code,) = struct.unpack_from("=i", answer, _NLMSG.size)
        if code == -errno.ENOENT:
            return None
        raise OSError(-code, os.strerror(-code))
    if len(answer) < _INODE_AT + 4:
        raise OSError(errno.EPROTO, "short sock_diag answer")
    (inode,) = struct.unpack_from("=I", answer, _INODE_AT)
    return inode or None


@cache
def _diag_works() -> bool:
    try:
        with socket.create_server(("127.0.0.1", 0)) as server, socket.create_connection(server.getsockname()) as mine:
            return diag_inode(mine.getsockname(), server.getsockname()) == os.fstat(mine.fileno()).st_ino
    except OSError:
        return False


def diag_works() -> bool:
    """Whether ``diag_inode`` finds a socket this process has just made: where
    inet_diag is missing every lookup would say "none", so it is tried, once
    (before a process may run short of descriptors)."""
    return _diag_works()


def inode_of(client: Address, server: Address, proc: Path = PROC) -> int | None:
    """The inode of the client's end of the connection from ``client`` to ``server``
    (None: its client has closed it): by sock_diag where the kernel answers it,
    else from /proc/net/tcp (whose read grows with the sockets of the machine).
    OSError where neither can be asked (no descriptor left): not found is not
    the same as not known."""
    if proc == PROC and _diag_works():
        return diag_inode(client, server)
    with (proc / "net" / "tcp").open():  # readable now, or OSError
        pass
    return socket_inode(client, server[1], proc)


# ─── processes ─────────────────────────────────────────────────────────────────


def stat_field(pid: int, field: int, proc: Path = PROC) -> int | None:
    """Field ``field`` (1-based, a number after the command name) of /proc/<pid>/stat,
    None if the process is gone."""
    try:
        stat = (proc / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces and ')'.
    rest = stat.rpartition(")")[2].split()
    return int(rest[field - 3]) if len(rest) > field - 3 else None


def parent(pid: int, proc: Path = PROC) -> int | None:
    """The parent of ``pid`` (field 4 of /proc/<pid>/stat), None if gone."""
    return stat_field(pid, 4, proc)


def pids(proc: Path = PROC) -> Iterator[int]:
    """The processes' ids, lowest first."""
    try:
        names = [entry.name for entry in os.scandir(proc)]
    except OSError:
        return
    yield from sorted(int(name) for name in names if name.isdigit())


def sockets(pid: int, proc: Path = PROC) -> frozenset[int] | None:
    """The inodes of the sockets ``pid``'s descriptors hold (empty if it is gone);
    None if they may not be read (another user's process, or one that made itself
    undumpable)."""
    fds = proc / str(pid) / "fd"
    try:
        names = os.listdir(fds)
    except PermissionError:
        return None
    except OSError:
        return frozenset()
    held = set()
    for name in names:
        try:
            target = os.readlink(fds / name)
        except PermissionError:
            return None
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            held.add(int(target[8:-1]))
    return frozenset(held)


PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal a process gets when the thread that forked it ends."""


@cache
def libc() -> ctypes.CDLL | None:
    """The C library on Linux (loaded once: a child between fork and exec must not
    load it), None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    return ctypes.CDLL(name, use_errno=True) if name else None


def die_with_parent(parent: int, status: int) -> None:
    """This process gets SIGKILL when the thread that started it ends (Linux:
    PR_SET_PDEATHSIG, even for a parent killed by SIGKILL); if ``parent`` has gone
    already, it exits now with ``status``.  Safe between fork and exec once
    ``libc()`` has been loaded in the parent."""
    loaded = libc()
    if loaded is not None:
        loaded.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(status)
