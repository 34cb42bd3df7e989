"""A PostgreSQL server of our own for the arena's tests and benchmark (tests/arena/
test_postgres.py, bench/arena.py ``--postgresql``): Debian's ``postgresql`` binaries
(``make verify`` installs them where apt-get can), a throw-away cluster in a
temporary folder, listening on a Unix socket only, run as an unprivileged user
(PostgreSQL refuses root: as root, ``nobody``).  Where none can be started,
``NoPostgres`` says why in one line (the tests skip with it)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


class NoPostgres(Exception):
    """No PostgreSQL server could be started here: why, in one line."""


def _binaries() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Postgres:
    """A running cluster: its URL for SQLAlchemy, and ``stop``/``start`` to take it
    away and bring it back."""

    bin: Path
    data: Path
    sock: Path
    port: int
    user: str | None

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://arena@/postgres?host={self.sock}&port={self.port}"

    def _run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        kwargs = {} if self.user is None else {"user": self.user, "group": pwd.getpwnam(self.user).pw_gid}
        done: subprocess.CompletedProcess[str] = subprocess.run(  # type: ignore[call-overload]
            argv, capture_output=True, text=True, timeout=120, check=False, **kwargs
        )
        return done

    def start(self) -> None:
        options = f"-k {self.sock} -p {self.port} -c listen_addresses='' -c fsync=off -c max_connections=40"
        done = self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-l",
                         str(self.data.parent / "log"), "start")  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"pg_ctl start: {done.stderr.strip() or done.stdout.strip()}")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")


@contextmanager
def postgres() -> Iterator[Postgres]:
    """A fresh cluster for the duration (``NoPostgres`` if none can start)."""
    binaries = _binaries()
    if binaries is None:
        raise NoPostgres("no PostgreSQL server here (Debian's postgresql: make verify installs it as root)")
    user = "nobody" if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    try:
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(root, entry.pw_uid, entry.pw_gid)
        server = Postgres(binaries, root / "data", root, _free_port(), user)
        done = server._run(str(binaries / "initdb"), "-D", str(server.data), "-U", "arena", "--auth=trust",
                           "-E", "UTF8", "--no-sync")  # fmt: skip
        if done.returncode:
            raise NoPostgres(f"PostgreSQL's initdb failed: {(done.stderr or done.stdout).strip().splitlines()[-1]}")
        try:
            server.start()
        except RuntimeError as exc:
            raise NoPostgres(f"PostgreSQL did not start: {exc}") from None
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
