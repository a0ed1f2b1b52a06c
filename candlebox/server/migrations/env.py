"""Alembic's entry point, run programmatically: candlebox/server/migrating.py hands it an open
connection (inside the transaction holding the schema lock) and the tables to compare with; there is
no alembic.ini and no URL here."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=context.config.attributes.get("metadata"),
    render_as_batch=True,  # SQLite alters a table by copying it: drafts of new revisions do so
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
