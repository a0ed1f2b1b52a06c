"""The app's routes, one router per concern: pages, the lobby (meta, lists, creating games), a
game's public facts and frames, seats, moves, and the websocket. Each route reads its input through
``candlebox.server.bodies`` and hands typed values to the service."""

from __future__ import annotations

from fastapi import APIRouter

from candlebox.server.routes import (
    accounts,
    chat,
    clocks,
    coach,
    email,
    friends,
    games,
    leaving,
    lobby,
    moves,
    notices,
    ops,
    pages,
    passkeys,
    players,
    quickplay,
    rematch,
    rules,
    seats,
    takebacks,
    websocket,
)

ROUTERS: tuple[APIRouter, ...] = (
    pages.router,
    lobby.router,
    games.router,
    seats.router,
    moves.router,
    leaving.router,
    websocket.router,
    rules.router,
    rematch.router,
    ops.router,  # /healthz, /metrics (issue 17)
    coach.router,
    accounts.router,  # /api/accounts, /api/session, /api/me (issue 34)
    passkeys.router,  # /api/passkeys (issue 34)
    email.router,  # /api/accounts/verify, /api/accounts/forgot (issue 34)
    quickplay.router,  # /api/queue (issue 34)
    friends.router,  # /api/me/follows, /api/me/invites, seats' invitations by name (issue 34)
    players.router,  # /api/players, /api/leaderboard (issue 34)
    players.pages,  # /u/NAME, /leaderboard/GAME
    clocks.router,  # /api/games/{id}/seats/{seat}/timeout (issue 35)
    takebacks.router,  # /api/games/{id}/undo, .../undo/accept, .../undo/refuse (issue 35)
    notices.router,  # /api/me/notices, /api/me/push, /sw.js, /unsubscribe (issue 35)
    chat.router,  # /api/games/{id}/chat, /api/me/mutes (issue 35)
)
