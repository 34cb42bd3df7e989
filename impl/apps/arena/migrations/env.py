"""Alembic's environment: the connection comes from ``Store.migrate`` (no ini file,
no URL of its own); SQLite's ALTERs run in batch mode."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
