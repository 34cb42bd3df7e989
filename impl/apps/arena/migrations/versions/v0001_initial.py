"""The arena's first schema: players, rounds, games, faults, ratings.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=False, unique=True),
        sa.Column("kdf", sa.String(200), nullable=False),
        sa.Column("anchor", sa.String(64), nullable=True),
        sa.Column("pinned", sa.Float, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("validated", sa.Boolean, nullable=False),
        sa.Column("note", sa.Text, nullable=True),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("uid", sa.String(36), nullable=False, unique=True),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), nullable=False),
        sa.Column("first_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("second_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("termination", sa.String(20), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("unrated", sa.Text, nullable=True),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("opening", sa.Text, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("ended", sa.Float, nullable=False),
        sa.Column("pgn", sa.Text, nullable=False),
    )
    op.create_index("games_first", "games", ["first_id"])
    op.create_index("games_second", "games", ["second_id"])
    op.create_table(
        "faults",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("kind", sa.String(20), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("elo", sa.Float, nullable=False),
        sa.Column("margin", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    for table in ("ratings", "faults", "games", "rounds", "players"):
        op.drop_table(table)
