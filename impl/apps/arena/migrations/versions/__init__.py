"""One file per schema version, oldest first (Alembic's ``down_revision`` chain)."""
