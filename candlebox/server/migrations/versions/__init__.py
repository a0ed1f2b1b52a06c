"""The revisions, one file each (Alembic reads them by path; this file only makes them a package)."""
