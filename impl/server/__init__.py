"""The referee server of both papers' section 2: see docs/protocol.md.

Layers, outermost first (``referee serve`` is impl/apps/serve.py; every setting,
with its default, is impl/config.py's ``Config``): ``server``
(listening sockets, one game at a time per server number, the timer and the record
files: the adapter around the session), ``net`` (line framing, fair reading and
bounded output), ``session`` (one game, sans I/O: the play composed with its
connections' states, inputs in, outputs carried out on peers and listeners; its
parts ``connections`` (the states and their table), ``play`` and ``core`` (the
game, through the Engine interface, its outputs as values), ``states`` (the
vocabulary); its ``events`` are the place to listen to a game), ``transcript`` (the
wire's lines, checked against the protocol's model, after the fact or live),
``clock`` and ``records``.  The lines themselves are impl/protocol.py's, shared with the client.
"""

from impl.config import ConfigMessages, Limits

from .server import GameServer, ServerConfig, default_port, serve
from .session import Settings

__all__ = ["ConfigMessages", "GameServer", "Limits", "ServerConfig", "Settings", "default_port", "serve"]
