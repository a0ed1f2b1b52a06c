"""Several processes starting at once on a fresh PostgreSQL database (``serve --workers N`` and its
bot worker) each create the tables: they must not race (issue 17)."""

from __future__ import annotations

import threading

from sqlalchemy import inspect

from candlebox.server.storage import Storage, metadata


def test_processes_starting_at_once_on_a_fresh_database_all_start(postgres_url: str) -> None:
    errors: list[BaseException] = []
    started = threading.Barrier(6)

    def start() -> None:
        try:
            started.wait(10)
            Storage(postgres_url).close()
        except BaseException as exc:  # a race shows as a duplicate type or table
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    storage = Storage(postgres_url)
    try:
        assert set(metadata.tables) <= set(inspect(storage.engine).get_table_names())
    finally:
        storage.close()
