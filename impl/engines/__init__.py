"""The rules engines: one port (``port``), a registry (``registry``), the fast engines,
the spec and checked adapters, the papers' notation, perft, and the search's
kernels (``kernels``)."""
