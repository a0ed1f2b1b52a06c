"""``candlebox moderation``: the operator's tools for the table chat (docs/server.md, "Table chat"):
list the reported messages, hide one, ban (or unban) an account or a client address from chat."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from candlebox import server
from candlebox.cli.errors import USAGE

moderation_app = typer.Typer(
    help="The table chat's reports, hidden messages and bans on a server's database "
    '(docs/server.md, "Table chat").'
)

Db = Annotated[
    str | None,
    typer.Option(
        help="The server's database: a SQLite file or URL, or postgresql://user@host/name.",
        show_default="CANDLEBOX_DB, else candlebox.sqlite3 in your data directory",
    ),
]
Kind = Annotated[
    str,
    typer.Argument(metavar="KIND", help="account (by its name) or client (an address)."),
]
Who = Annotated[str, typer.Argument(metavar="WHO", help="The account's name or the address.")]


def _console(stderr: bool = False) -> Console:
    return Console(highlight=False, soft_wrap=True, stderr=stderr)


def _fail(message: str) -> typer.Exit:
    _console(stderr=True).print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(USAGE)


def _moderation() -> Any:
    """The server's moderation module, once the server extra is known to be installed (deferred:
    the CLI starts without the optional server extra)."""
    missing = server.missing_packages()
    if missing:
        raise _fail(f"{', '.join(missing)} not installed: pip install -e '.[server]'")
    from candlebox.server import moderation

    return moderation


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(at))


@moderation_app.command("reports")
def list_reports(
    db: Db = None,
    hidden: Annotated[
        bool, typer.Option("--hidden", help="List the messages already hidden too.")
    ] = False,
) -> None:
    """The reported messages, the most reported first: MESSAGE, game, who wrote it, the text."""
    moderation = _moderation()
    found = moderation.reports(db, include_hidden=hidden)
    console = _console()
    if not found:
        console.print("no reported messages")
        return
    for item in found:
        channel = "spectators" if item.seat is None else f"seat {item.seat}"
        who = f"account {item.account}" if item.account else "guest"
        state = " [hidden]" if item.hidden else ""
        console.print(
            f"{item.message}{escape(state)}  game {escape(item.game_id)} ({channel})  "
            f"{escape(item.name)} ({escape(who)}, client {escape(item.client)})  "
            f"{_when(item.at)} UTC  reported {item.reports}×"
        )
        console.print(f"    {escape(item.text)}")
        for reason in item.reasons:
            console.print(f"    reason: {escape(reason)}")


@moderation_app.command("hide")
def hide_message(
    message: Annotated[int, typer.Argument(metavar="MESSAGE", help="The message's number.")],
    db: Db = None,
    show: Annotated[bool, typer.Option("--show", help="Show a hidden message again.")] = False,
) -> None:
    """Hide a message from every reader of the game's chat (its replay included)."""
    moderation = _moderation()
    try:
        game_id = moderation.hide(db, message, hidden=not show)
    except LookupError as exc:
        raise _fail(str(exc)) from None
    done = "shown again" if show else "hidden"
    _console().print(f"message {message} of game {escape(game_id)} {done}")


@moderation_app.command("ban")
def ban(
    kind: Kind,
    who: Who,
    db: Db = None,
    reason: Annotated[str | None, typer.Option(help="Why (kept with the ban).")] = None,
) -> None:
    """Ban an account or a client address from chat: its messages are refused."""
    moderation = _moderation()
    try:
        new = moderation.ban(db, kind, who, reason)
    except LookupError as exc:
        raise _fail(str(exc)) from None
    _console().print(f"{kind} {escape(who)} {'banned from chat' if new else 'was banned already'}")


@moderation_app.command("unban")
def unban(kind: Kind, who: Who, db: Db = None) -> None:
    """Lift a ban from chat."""
    moderation = _moderation()
    try:
        lifted = moderation.unban(db, kind, who)
    except LookupError as exc:
        raise _fail(str(exc)) from None
    _console().print(f"{kind} {escape(who)} {'may chat again' if lifted else 'was not banned'}")


@moderation_app.command("bans")
def list_bans(db: Db = None) -> None:
    """Every ban from chat, oldest first."""
    moderation = _moderation()
    found = moderation.bans(db)
    console = _console()
    if not found:
        console.print("nobody is banned from chat")
        return
    for item in found:
        why = f"  ({escape(item.reason)})" if item.reason else ""
        console.print(f"{item.kind} {escape(item.value)}  since {_when(item.at)} UTC{why}")
