"""Games lost on time stored as what they were (issue 35). The code before this revision stored a
rated seat's time loss as a resignation: status "resigned" and the result
``{"winners", "scores", "resigned": SEAT, "out_of_time": SEAT}``. Today's code stores the status
"lost-on-time" and the result without ``resigned`` (candlebox/server/timeloss.py), and says "ran out
of time" on the end screen, in the saved game and on the profile. The old records carry
``out_of_time``, so they are told apart exactly: a resignation without it stays one. Downgrading
writes them back as the old code wrote them.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import json
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

# the columns this revision reads and writes, as they are at revision 0010 (the storage module's
# table may grow later: a migration never imports it)
games = sa.table(
    "games",
    sa.column("id", sa.String(32)),
    sa.column("status", sa.String(16)),
    sa.column("result", sa.Text()),
)
RESIGNED = "resigned"
LOST_ON_TIME = "lost-on-time"


Change = Callable[[object], "tuple[str, dict[str, object]] | None"]


def _rewrite(status: str, change: Change) -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(games.c.id, games.c.result).where(games.c.status == status))
    for game_id, text in rows.fetchall():
        result = json.loads(text) if text else None
        changed = change(result)
        if changed is None:
            continue
        new_status, new_result = changed
        conn.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(status=new_status, result=json.dumps(new_result))
        )


def _as_time_loss(result: object) -> tuple[str, dict[str, object]] | None:
    """An old time loss (a resignation whose result names the seat out of time) as today's."""
    if not isinstance(result, dict) or not isinstance(result.get("out_of_time"), int):
        return None
    return LOST_ON_TIME, {k: v for k, v in result.items() if k != RESIGNED}


def _as_resignation(result: object) -> tuple[str, dict[str, object]] | None:
    """Today's time loss as the code before this revision stored it."""
    if not isinstance(result, dict) or not isinstance(result.get("out_of_time"), int):
        return None
    return RESIGNED, {**result, RESIGNED: result["out_of_time"]}


def upgrade() -> None:
    _rewrite(RESIGNED, _as_time_loss)


def downgrade() -> None:
    _rewrite(LOST_ON_TIME, _as_resignation)
