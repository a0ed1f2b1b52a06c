"""The database's schema changes as Alembic migrations (candlebox/server/migrating.py runs them).

``versions/`` holds one revision per change, oldest first: ``0001_baseline`` is the schema the server
built with ``create_all`` before migrations existed, ``0002_accounts`` adds accounts and sessions,
``0003_passkeys`` passkeys, e-mail confirmations and the mail outbox, ``0004_queue`` quick play's
tickets, ``0005_friends`` follows and invitations, ``0006_ratings`` rated tables and ratings. A new
revision: change the tables in candlebox/server/storage.py, then write the migration (``alembic
revision`` with ``script_location = candlebox.server:migrations`` drafts one from the difference);
tests/server/test_migrations.py fails while the two disagree.
"""
