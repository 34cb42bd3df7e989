"""Awari endgame tables (issue #39): every board of n stones on the pits, the side
to move's perfect-play margin, level by level (docs/tablebases.md).

* ``index``  — boards ranked by the combinatorial number system;
* ``kernel`` — the builder's own rules and level solver, in Python (the fallback);
* ``ckernel`` — the same in C (``kernel.c``), compiled at first use by ctypes;
* ``store``  — the level files: header, checksum, atomic write, mmap read;
* ``build``  — levels from 0 up, resumable, in worker processes;
* ``check``  — the Bellman pass on the proven engine, the spec solve, the kernel check;
* ``bounds`` — under an own-row repetition rule, two tables bracketing the referee's value;
* ``probe``  — lookups, the best move and ``adjudicate``.
"""
