"""The arena's schema: the tables the store queries (impl/apps/arena/store.py) are
exactly those its migrations make (Alembic's comparison of the migrated database with
the store's metadata finds nothing), so the two copies — the migration, frozen
history, and the store's description of the head — cannot drift apart."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from impl.apps.arena.store import Store, metadata


def test_the_migrations_make_the_tables_the_store_queries(tmp_path: Path) -> None:
    store = Store.open(str(tmp_path / "a.db"))
    with store.engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), metadata)
    store.close()
    assert differences == []
