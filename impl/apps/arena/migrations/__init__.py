"""Alembic's migrations of the arena's database (impl/apps/arena/store.py)."""
