"""A tab past the seat's socket cap (issue 33, item 1): the page says why once, keeps quiet while
refused, and joins the game as soon as a slot is free and the tab is looked at again."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

from websockets.sync.client import connect

from tests.e2e.conftest import Pages, create_game, open_seat
from tests.server.live import ServerProcess

TABS = 8  # the server's default max_seat_sockets

# Every toast and every refusal the page shows, recorded as they happen (a toast fades by itself).
RECORD = """
window.__toasts = []; window.__refusals = 0;
new MutationObserver((changes) => {
  for (const change of changes) {
    for (const node of change.addedNodes) {
      if (node.classList && node.classList.contains("toast")) window.__toasts.push(node.textContent);
    }
    if (change.type === "attributes" && change.target.id === "link"
        && change.target.classList.contains("refused")) window.__refusals += 1;
  }
}).observe(document, {childList: true, subtree: true, attributes: true, attributeFilter: ["class"]});
"""


def hold_tab(stack: ExitStack, server: ServerProcess, created: dict[str, Any]) -> Any:
    url = f"{server.base.replace('http', 'ws', 1)}/ws/games/{created['id']}"
    ws = stack.enter_context(connect(url))
    ws.send(json.dumps({"type": "hello", "token": created["token"]}))
    frame = json.loads(ws.recv(timeout=30))
    assert frame["type"] == "snapshot", frame
    return ws


def test_a_tab_past_the_cap_says_why_once_and_joins_when_a_slot_is_free(
    pages: Pages, server: ServerProcess
) -> None:
    created = create_game(server.base, "candle-quest", 2)
    with ExitStack() as stack:
        held = [hold_tab(stack, server, created) for _ in range(TABS)]
        page = pages.new()
        page.add_init_script(RECORD)
        page.goto("/")
        open_seat(page, created, drawn=False)
        page.wait_for_function("window.__refusals === 1")
        assert page.text_content("#link") == "too many tabs open"
        # looked at again while still full: refused again, and not told again
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        page.wait_for_function("window.__refusals === 2")
        toasts = page.evaluate("window.__toasts")
        assert len(toasts) == 1 and "tab" in toasts[0], toasts
        held[0].close()
        # a slot is free: looking at the tab tries at once, not after the slow retry's 30 s
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        page.wait_for_selector("#link.live")
        page.wait_for_selector("#board > *")
