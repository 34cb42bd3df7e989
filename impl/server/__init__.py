"""The referee server of both papers' section 2: see docs/protocol.md.

Layers, outermost first: ``cli`` (the ``referee serve`` subcommand), ``server``
(listening sockets, one game at a time per server number), ``net`` (line framing
and bounded output), ``session`` (one game's state machine, through the Engine
interface), ``protocol`` (the wire vocabulary), ``clock`` and ``records``.
"""

from .server import GameServer, ServerConfig, default_port, serve
from .session import ConfigMessages, Limits, Settings

__all__ = ["ConfigMessages", "GameServer", "Limits", "ServerConfig", "Settings", "default_port", "serve"]
