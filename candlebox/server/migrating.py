"""Bringing the database's schema to the newest revision when a process opens it (Alembic, run from
code: the revisions ship in candlebox/server/migrations, no alembic.ini is needed).

Three cases, decided inside one transaction that holds the schema lock, so processes starting together
(``serve --workers N``, several machines, a command opening the server's SQLite file) take turns and
the later ones find the work done:

- a fresh database (no table): the tables are created as they are now and stamped with the newest
  revision — the same schema the migrations would build (tests/server/test_migrations.py), at a
  fraction of the cost, which matters to the tests that start thousands of apps;
- a database written before migrations existed (tables, no ``alembic_version``): taken as the
  baseline (revision 0001 creates any of its tables still missing) and upgraded;
- a migrated database: upgraded from its revision, or left alone when it is at the newest.
"""

from __future__ import annotations

import functools
import logging

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, MetaData, inspect, text

log = logging.getLogger("candlebox.server")

SCRIPTS = "candlebox.server:migrations"
# PostgreSQL's advisory lock key for schema changes (any fixed number; this one spells "cndl")
SCHEMA_LOCK = 0x636E646C


def config(conn: Connection | None, metadata: MetaData | None = None) -> Config:
    """Alembic's configuration without a file: the packaged revisions, run on ``conn``."""
    cfg = Config()
    cfg.set_main_option("script_location", SCRIPTS)
    cfg.set_main_option("path_separator", "os")
    cfg.attributes["connection"] = conn
    cfg.attributes["metadata"] = metadata
    return cfg


@functools.cache
def scripts() -> ScriptDirectory:
    """The packaged revisions (read once per process)."""
    return ScriptDirectory.from_config(config(None))


def head() -> str:
    """The newest revision."""
    newest = scripts().get_current_head()
    assert newest is not None
    return newest


def lock(conn: Connection) -> None:
    """Hold the schema lock until ``conn``'s transaction ends: PostgreSQL's transaction-scoped
    advisory lock; SQLite's write lock (its driver runs DDL outside any transaction otherwise)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
    elif conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def current(conn: Connection) -> str | None:
    """The database's revision (None: never stamped)."""
    return MigrationContext.configure(conn).get_current_revision()


def bring_to_head(engine: Engine, metadata: MetaData) -> None:
    """Create or upgrade the schema to the newest revision, one process at a time."""
    with engine.connect() as conn:  # the common case, a database already at head: no lock
        if _at_head(conn):
            return
    with engine.begin() as conn:
        lock(conn)
        if _at_head(conn):
            return
        tables = set(inspect(conn).get_table_names())
        if not tables:
            metadata.create_all(conn)
            MigrationContext.configure(conn).stamp(scripts(), "head")
            return
        if "alembic_version" not in tables:
            log.info("a database from before migrations: taken as the baseline and upgraded")
        upgrade(conn, metadata)


def upgrade(conn: Connection, metadata: MetaData | None = None) -> None:
    """Run every revision newer than the database's, in ``conn``'s transaction."""
    before = current(conn)
    command.upgrade(config(conn, metadata), "head")
    log.info("database schema upgraded from revision %s to %s", before or "none", head())


def _at_head(conn: Connection) -> bool:
    if not inspect(conn).has_table("alembic_version"):
        return False
    return current(conn) == head()
