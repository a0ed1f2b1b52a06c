"""Rules inside the app: each game's "How to play" page (rendered here from the game's data, with the
rulings that apply to a variant and its options), the data the pages' learn mode reads, and a seat's
legal actions explained (label, what it does, the rule behind it).

- ``GET /rules/{game}?variant=NAME&options=JSON`` — the how-to-play page (HTML)
- ``GET /api/rules/{game}`` — its sections, why each kind of logged move is made, the learn setup
- ``GET /api/games/{id}/learn`` — the caller's legal actions explained (``Authorization: Bearer``)

Markdown is rendered by markdown-it-py with raw HTML off: nothing in the data reaches the page as
markup of its own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from functools import lru_cache
from html import escape
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token

from candlebox.engine import game_ids, game_info
from candlebox.engine.howto import HowTo, configuration, explain_options, how_to_play, slug
from candlebox.server.errors import Rejected
from candlebox.server.routes.common import bearer, seat_account, service

router = APIRouter()
MAX_OPTIONS = 2000  # characters of the options query: a configuration, never more


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False})

    def heading_open(
        renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: Any, env: Any
    ) -> str:
        # every heading gets the anchor the decisions link to (the slug of its words)
        tokens[idx].attrSet("id", slug(tokens[idx + 1].content))
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("heading_open", heading_open)
    return md


MD = _markdown()


@lru_cache(maxsize=16)
def _body(game_id: str) -> str:
    howto = how_to_play(game_id)
    # the data's own first heading is the page's title: drop it here, the page prints its own
    lines = howto.markdown.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return MD.render("\n".join(lines))


def _value(value: Any) -> str:
    if value is None:
        return "default (none set)"
    if isinstance(value, bool):
        return "on" if value else "off"
    return json.dumps(value) if isinstance(value, list | dict) else str(value)


def _rulings_html(howto: HowTo, variant: str, options: dict[str, Any]) -> str:
    out = []
    for ruling, values in howto.rulings_for(variant, options):
        chosen = ""
        if values:
            bits = ", ".join(
                f"<code>{escape(k)}</code> = {escape(_value(v))}" for k, v in values.items()
            )
            chosen = f'<p class="rules-chosen">In this game: {bits}</p>'
        part = f'<span class="rules-part">{escape(ruling.part)}</span>' if ruling.part else ""
        out.append(
            f'<section class="ruling" id="ruling-{escape(ruling.id)}">'
            f"<h3>{escape(ruling.id)} {escape(ruling.title.replace('`', ''))}</h3>{part}"
            f"{chosen}{MD.render(ruling.text)}</section>"
        )
    # A game with no rulings of its own (a plug-in's generated page, say) says so.
    return "\n".join(out) or "<p>No rulings: the rules above are the whole game.</p>"


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · Candlebox</title>"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/static/css/base.css">'
        '<link rel="stylesheet" href="/static/css/rules.css"></head>'
        '<body class="rules-page"><header class="topbar">'
        '<a class="brand" href="/" title="Back to the lobby"><span class="flame-dot"></span>Candlebox</a>'
        f"<h1>{escape(title)}</h1></header>{body}</body></html>"
    )
    return HTMLResponse(html, status_code=status)


def _problem(message: str, status: int) -> HTMLResponse:
    body = f'<main class="rules-main"><p class="problem">{escape(message)}</p><p><a href="/">Back to the lobby</a></p></main>'
    return _page("Rules", body, status)


def _options_of(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    if len(text) > MAX_OPTIONS:
        raise ValueError(f"the options are at most {MAX_OPTIONS} characters")
    try:
        options = json.loads(text)
    except ValueError:
        raise ValueError('options must be a JSON object, e.g. {"bank": 100}') from None
    if not isinstance(options, dict):
        raise ValueError('options must be a JSON object, e.g. {"bank": 100}')
    return options


@router.get("/rules/{game_id}", include_in_schema=False)
async def rules_page(
    game_id: str, variant: str | None = None, options: str | None = None
) -> HTMLResponse:
    if game_id not in game_ids():
        return _problem(f"There is no game {game_id[:40]!r}; games: {', '.join(game_ids())}.", 404)
    info = game_info(game_id)
    howto = how_to_play(game_id)
    try:
        chosen, opts = configuration(game_id, variant, _options_of(options))
    except (ValueError, TypeError) as exc:
        return _problem(f"These rules cannot be shown: {exc}", 400)
    sections = "".join(
        f'<li class="lvl-{2 if s.title in _top(howto) else 3}"><a href="#{escape(s.anchor)}">{escape(s.title)}</a></li>'
        for s in howto.sections.values()
    )
    variants = " · ".join(
        f"<strong>{escape(v.name)}</strong>"
        if v.name == chosen
        else f'<a href="/rules/{escape(game_id)}?variant={escape(v.name)}">{escape(v.name)}</a>'
        for v in info.variants
    )
    body = (
        '<main class="rules-main">'
        f'<nav class="rules-toc" aria-label="Contents"><h2>Contents</h2><ol>{sections}'
        '<li class="lvl-2"><a href="#rulings">Rulings for this game</a></li></ol>'
        f'<p class="rules-learn"><a class="button primary" href="/?learn={escape(game_id)}">Learn to play</a></p></nav>'
        f'<article class="rules-text" id="how-to-play">{_body(game_id)}'
        f'<h2 id="rulings">Rulings for this game</h2>'
        f'<p class="rules-config">Variant: {variants}. Where the rulebook is silent or unclear, '
        "Candlebox decides as follows (the options your game was created with are named).</p>"
        f"{_rulings_html(howto, chosen, opts)}</article></main>"
    )
    return _page(f"How to play {info.title}", body)


def _top(howto: HowTo) -> set[str]:
    return {line[3:].strip() for line in howto.markdown.splitlines() if line.startswith("## ")}


@router.get("/api/rules/{game_id}")
async def api_rules(game_id: str) -> JSONResponse:
    if game_id not in game_ids():
        raise Rejected("no-game-kind", f"there is no game {game_id[:40]!r}", 404)
    howto = how_to_play(game_id)
    return JSONResponse(
        {
            "game": game_id,
            "href": f"/rules/{game_id}",
            "sections": [asdict(s) for s in howto.sections.values()],
            "explain": howto.explain,
            "learn": asdict(howto.learn),
        },
        headers={"Cache-Control": "private, max-age=3600"},
    )


@router.get("/api/games/{game_id}/learn")
async def api_learn(game_id: str, request: Request) -> JSONResponse:
    """The caller's legal actions now, each with its label, what it does and its rule."""
    registry = service(request).registry
    live = await registry.any_game(game_id)
    seat = registry.seat_for_token(live, bearer(request), await seat_account(request))
    options = [asdict(o) for o in explain_options(live.state, seat)]
    return JSONResponse({"move": live.moves, "seat": seat, "options": options})
