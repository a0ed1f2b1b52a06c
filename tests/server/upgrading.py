"""Helpers of the migration tests (tests/server/test_migrations.py and each migration's own test): a
database taken back to an older schema, its revision, and the check that an upgraded one is exactly
what storage.py defines."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, MetaData

from candlebox.server import migrating
from candlebox.server.storage import make_engine, metadata


def revision(url: str) -> str | None:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return migrating.current(conn)
    finally:
        engine.dispose()


def revision_before(migration: str) -> str:
    """The revision the migration ``migration`` upgrades from."""
    found = migrating.scripts().get_revision(migration).down_revision
    assert isinstance(found, str), f"migration {migration} has no single parent: {found!r}"
    return found


@contextmanager
def schema_at(url: str, target: str) -> Iterator[Connection]:
    """The database at ``url`` taken back to the schema of revision ``target`` (as the code of
    that time left it), under the schema lock; the connection, still in that transaction, for the
    test to look at the old schema or write rows as the old code did."""
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            migrating.lock(conn)
            command.downgrade(migrating.config(conn), target)
            yield conn
    finally:
        engine.dispose()


def differences(url: str, tables: MetaData) -> list[Any]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            return list(compare_metadata(context, tables))
    finally:
        engine.dispose()


def assert_at_head(url: str) -> None:
    """The database is at the newest revision, with exactly the tables storage.py defines."""
    assert revision(url) == migrating.head()
    assert differences(url, metadata) == []
