"""The referee server of both papers' section 2: see docs/protocol.md.

Layers, outermost first (``referee serve`` is impl/apps/serve.py; every setting,
with its default, is impl/config.py's ``Config``): ``server``
(listening sockets, one game at a time per server number, the timer and the record
files: the adapter around the session), ``net`` (line framing, fair reading and
bounded output), ``session`` (the glue that carries out the machine's outputs on
peers and listeners), ``machine`` (one game's state machine, sans I/O: inputs in,
outputs out as values; its parts ``states``, ``core``, ``play``, through the Engine
interface; its ``events`` are the place to listen to a game), ``transcript`` (the
wire's lines, checked against the protocol's model, after the fact or live),
``clock`` and ``records``.  The lines themselves are impl/protocol.py's, shared with the client.
"""

from impl.config import ConfigMessages, Limits

from .server import GameServer, ServerConfig, default_port, serve
from .session import Settings

__all__ = ["ConfigMessages", "GameServer", "Limits", "ServerConfig", "Settings", "default_port", "serve"]
