"""The live web view of a referee process (``referee serve … --web PORT``): a page
listing every server and its game, a page per game drawn live, finished games
replayed from the record directory, and the same data as JSON.

Layers, each its own module:

* ``feed``  — the typed game feed: server descriptions and events (started, move
  made with the board after it, clocks changed, over).  The only interface
  between the referee and the web view.
* ``tap``   — the adapter from the referee to the feed: a ``ServerConfig.session_hooks``
  entry listening to each Session's events, which carry all it shows (it reads
  nothing of the session).  The one module that knows impl/server.
* ``views`` — board data from an engine's state (``Engine.cells``, ``counts``):
  pits and stores, squares and stones, the last move and its captures (``Engine.describe``).
* ``hub``   — the feed's consumer: games live and finished, and the viewers,
  each with a bounded queue (a viewer that falls behind is dropped).
* ``streams`` — the viewers' server-sent events, written by the hub, never read.
* ``archive`` — record files read back and replayed through an engine.
* ``library`` — the record directory as served: record pages and JSON, in one queue.
* ``values`` — a record's moves valued by an endgame table, in a process of its own.
* ``admission`` — what one client may take: connections, requests, rate, record share.
* ``gate``  — connections before any request: the view's cap and each client's (503).
* ``programs`` — in a match's or tournament's view, which connections are its programs' (one client).
* ``pages`` and ``answers`` — the pages rendered once, readable 404s, 429/503 with Retry-After.
* ``app``   — the aiohttp application.
* ``tourney``, ``arena`` — the tournament's and the class arena's views on the same application.
* ``link``  — the referee's side of the web process: a bounded, never-blocking feed.
* ``child`` — the web process: the application, fed by the link, niced, ending with the referee.
"""
