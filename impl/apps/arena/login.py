"""Who a seat request on an arena port is (docs/arena.md, "Logging in").

The papers' seat request carries an optional quoted name, and that is where an
arena login goes, so that any client able to send a name logs in unchanged:
``0.9 player ? "alice:secret"``, the name before the first colon, the password
after it.  On an arena the name field may hold up to ``FIELD_MAX`` characters
(the papers' 31 is the name alone).  A request without a password is a guest's:
gthd's client libraries send no name, a program may send a name of its own
(``first-player``); a guest plays unrated games, shown as ``guest`` or
``guest-NAME``, if the arena takes guests at all.  Pure, apart from the clock
passed in; and how a password is kept (``hash_password``: scrypt, a fresh salt)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Collection
from dataclasses import dataclass, replace

from impl.protocol import LOGIN_MAX

FIELD_MAX = LOGIN_MAX
"""Characters of ``name:password`` after unescaping (impl/protocol.py ``LOGIN_MAX``)."""
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,23}")
"""A player's name: 1–24 letters, digits, ``_ . -``, not starting with a sign."""
PASSWORD_MAX = 64
ANCHOR_PREFIX = "anchor-"
"""The arena's own players' names begin so; nobody else's may (nobody can take the
name of an anchor the arena will run later)."""
GUEST = "guest"
"""How a guest's games show it (``guest``, ``guest-NAME``): no player may take such a
name, or its rated games would read as a guest's and a guest's as its own."""


@dataclass(frozen=True)
class Credentials:
    name: str
    password: str


@dataclass(frozen=True)
class Guest:
    """No password sent: a guest, ``name`` the name it sent (if any)."""

    name: str = ""

    @property
    def shown(self) -> str:
        """As its games show it (at most the papers' 31 characters)."""
        return f"{GUEST}-{self.name}"[:31] if self.name else GUEST


@dataclass(frozen=True)
class BadLogin:
    """A name field the arena refuses, and why (the text of its 199)."""

    why: str


def credentials(field: str, anchors: Collection[str] = ()) -> Credentials | Guest | BadLogin:
    """The seat request's name field, unescaped, read as a login; ``anchors``: the
    names of the arena's own players (which log in with the arena's token)."""
    if not field:
        return Guest()
    name, colon, password = field.partition(":")
    if not colon:
        return Guest(field)
    if not NAME.fullmatch(name):
        return BadLogin("Bad name: 1-24 letters, digits, '_', '.', '-', a letter or digit first")
    if name.lower().startswith(ANCHOR_PREFIX) and name not in anchors:
        return BadLogin(f"Names beginning {ANCHOR_PREFIX} are the arena's own players")
    if name.lower() == GUEST or name.lower().startswith(f"{GUEST}-"):
        return BadLogin(f"Names {GUEST} and {GUEST}-... are how guests are shown")
    if not password or len(password) > PASSWORD_MAX:
        return BadLogin(f"Bad password: 1-{PASSWORD_MAX} characters")
    return Credentials(name, password)


@dataclass(frozen=True)
class Failures:
    """Failed logins of one key (a name, or an address group) in a window: at most
    ``limit`` failures a ``window`` seconds, then refused until the window passes."""

    limit: int
    window: float
    times: tuple[float, ...] = ()

    def recent(self, now: float) -> Failures:
        return replace(self, times=tuple(t for t in self.times if now - t < self.window))

    def blocked(self, now: float) -> bool:
        return len(self.recent(now).times) >= self.limit

    def failed(self, now: float) -> Failures:
        return replace(self, times=(*self.recent(now).times, now)[-self.limit :])


class Throttle:
    """Failed logins per name and per address group (``Failures``); the only state
    the arena keeps of them, in memory."""

    def __init__(self, limit: int = 5, window: float = 60.0) -> None:
        self.limit, self.window = limit, window
        self._by: dict[str, Failures] = {}

    def blocked(self, keys: tuple[str, ...], now: float) -> bool:
        return any(key in self._by and self._by[key].blocked(now) for key in keys)

    def failed(self, keys: tuple[str, ...], now: float) -> None:
        for key in keys:
            self._by[key] = self._by.get(key, Failures(self.limit, self.window)).failed(now)
        if len(self._by) > 10_000:  # a flood of names: forget those quiet for a window
            self._by = {k: f for k, f in self._by.items() if f.recent(now).times}


# ─── Passwords ─────────────────────────────────────────────────────────────────

SCRYPT = (2**14, 8, 1)
"""scrypt's n, r, p: about 16 MiB and a few tens of milliseconds a login."""


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt$hash`` (base64), the salt fresh unless given."""
    n, r, p = SCRYPT
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, dklen=32)
    b64 = base64.b64encode
    return f"scrypt${n}${r}${p}${b64(salt).decode()}${b64(digest).decode()}"


def password_matches(password: str, kdf: str) -> bool:
    """Whether ``password`` hashes to ``kdf`` (constant-time comparison); False for
    a ``kdf`` in no known form."""
    try:
        name, n, r, p, salt, digest = kdf.split("$")
        if name != "scrypt":
            return False
        got = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p), dklen=32)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, base64.b64decode(digest))


class Remembered:
    """Logins scrypt has checked, kept as HMACs under this process's secret: the
    program's next connection is checked in microseconds, not in scrypt's tens of
    milliseconds (a class's programs log in once a game).  At most ``limit``, the
    oldest forgotten first."""

    def __init__(self, limit: int = 10_000) -> None:
        self._secret = secrets.token_bytes(32)
        self._seen: dict[str, bytes] = {}
        self._limit = limit

    def _mac(self, login: Credentials) -> bytes:
        return hmac.digest(self._secret, login.password.encode(), "sha256")

    def add(self, login: Credentials) -> None:
        if len(self._seen) >= self._limit:
            self._seen.pop(next(iter(self._seen)))
        self._seen[login.name] = self._mac(login)

    def __contains__(self, login: Credentials) -> bool:
        kept = self._seen.get(login.name)
        return kept is not None and hmac.compare_digest(kept, self._mac(login))
