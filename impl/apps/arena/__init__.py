"""``referee arena {awari,gothello}``: a class arena, CGOS for Awari and Gothello
(docs/arena.md).  By role: ``login`` (who a seat request is), ``pairing`` (a
round's games), ``store`` (the database: SQLAlchemy Core, Alembic's migrations),
``server`` (the listening arena, its rounds, its games), ``command`` (the command
line).  ``add_command`` for impl/cli.py."""

from __future__ import annotations

from impl.apps.arena.command import add_command, run

__all__ = ["add_command", "run"]
