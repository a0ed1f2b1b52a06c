"""The Curse of Candelabria in a real browser: a 3-player game against bots from the lobby, played by
clicking on the map (territories, pieces, regions), the hand (deploy or maneuver), the Curse, Tactics
and Upgrade boards, and the War's secret choice of tactic cards; a reload in the middle resumes; a
spectator sees no hand. Screenshots go to /tmp/candlebox-e2e/ (cb-*.png)."""

from __future__ import annotations

import os
import random
import re
import time
from typing import Any

import pytest

from tests.e2e.conftest import (
    Pages,
    api,
    create_game,
    move_and_watch,
    open_options,
    open_seat,
    shot,
    sync_api,
)
from tests.e2e.test_candle_quest import is_over, move_number
from tests.e2e.test_endscreen import frame

CLICKABLE = "#board [data-action], #board [data-choices]"
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
T = 4_000  # a click's timeout: the board is redrawn after every move, a bot's too


def create_from_lobby(
    page: Any,
    max_turns: int,
    variant: str = "standard",
    seats: tuple[str, ...] = ("You", "Bot", "Bot"),
) -> str:
    """The lobby form: Candelabria, the variant, you and fast bots."""
    page.goto("/")
    page.locator("#create-form").get_by_role("button", name=re.compile("Candelabria")).click()
    page.get_by_role("group", name="Variant").get_by_role("button", name=variant).click()
    page.get_by_role("group", name="Players").get_by_role("button", name=str(len(seats))).click()
    for number, kind in enumerate(seats, start=1):
        group = page.get_by_role("group", name=f"Seat {number}", exact=True)
        group.get_by_role("button", name=kind).click()
    page.get_by_role("group", name="Bot speed").get_by_role("button", name="Fast").click()
    page.fill("#your-name", "Ada")
    open_options(page)
    page.fill("#opt-max_turns", str(max_turns))
    page.locator("#opt-max_turns").dispatch_event("change")
    shot(page, "cb-lobby")
    page.click("#create")
    page.wait_for_url(re.compile(r"/g/"))
    page.wait_for_selector("#board > *")
    return str(page.url.rsplit("/", 1)[-1])


def wait_ready(page: Any) -> None:
    """Until the page shows something to click, or the game is over."""
    page.wait_for_function(
        "document.body.dataset.over === 'true' || "
        f"(document.querySelector({CLICKABLE!r}) && !document.querySelector('#board.busy'))",
        timeout=20_000,
    )


def click_target(page: Any, locator: Any) -> None:
    """Click a board element; a territory (its group) is clicked on one of its own cells, its target
    spot (``cb-terr-spot``) where it is."""
    cls = locator.get_attribute("class", timeout=T) or ""
    if "cb-terr" in cls.split():
        locator.locator("rect.cb-cell").first.click(timeout=T)
    else:
        locator.click(timeout=T)


def act_once(page: Any, rng: random.Random, stats: dict[str, int]) -> bool:
    """One decision taken by clicking on the board; False when there was nothing to click (or the
    board changed under the click: a bot's move redraws it)."""
    try:
        return _act_once(page, rng, stats)
    except sync_api.TimeoutError:
        return False


def _act_once(page: Any, rng: random.Random, stats: dict[str, int]) -> bool:
    before = move_number(page)
    # the War's secret choice: pick up to two tactic cards onto the War Board, then play them
    if page.locator(".cb-cancels").count() and "cancel-shot" not in stats:
        stats["cancel-shot"] = 1
        shot(page, "cb-war-cancel")  # the cards revealed, the cancels offered
    if page.locator(".cb-secret").count():
        # while you choose, nobody's choice is shown: the others are card backs ("chose") or waiting
        rivals = page.locator(".cb-fighter:not(:has(.cb-secret))")
        assert page.locator(".cb-battle .cb-fighter .cb-tactic:not(.mine)").count() == 0
        assert rivals.count() >= 2
        picks = page.locator(".cb-secret .cb-tactic.clickable")
        for _ in range(rng.choice([0, 1, 2])):
            if picks.count():
                picks.nth(rng.randrange(picks.count())).click(timeout=T)
        if "cb-secret" not in stats:
            shot(page, "cb-war-secret")
        stats["cb-secret"] = stats.get("cb-secret", 0) + 1
        play = page.locator(".cb-secret .cb-play")
        while not play.is_enabled(
            timeout=T
        ):  # a pair the rules refuse: take the cards back off the slots
            page.locator(".cb-secret .cb-war-slot").first.click(timeout=T)
            if play.is_enabled(timeout=T):
                break
            page.locator(".cb-secret .cb-war-slot").nth(1).click(timeout=T)
        play.click(timeout=T)
    else:
        groups = [
            ".cb-map [data-action]",
            ".cb-map [data-choices]",
            ".cb-hand [data-choices], .cb-hand [data-action]",
            ".cb-lower [data-action], .cb-right [data-action], .cb-battle [data-action]",
            ".cb-decision .action:not(.decline)",
            ".cb-decision .action.decline",
        ]
        for selector in groups:
            found = page.locator(f"#board :is({selector})")
            if not found.count():
                continue
            if selector.startswith(".cb-map") and "map-shot" not in stats:
                stats["map-shot"] = 1
                shot(page, "cb-map-targets")  # the glowing territories / pieces of a decision
            target = found.nth(rng.randrange(found.count()))
            has_menu = target.get_attribute("data-choices", timeout=T) is not None
            click_target(page, target)
            if has_menu:
                menu = page.locator(".cb-menu [data-action]")
                menu.first.wait_for(timeout=T)
                if "menu-shot" not in stats:
                    stats["menu-shot"] = 1
                    shot(page, "cb-menu")
                options = menu.count()
                menu.nth(rng.randrange(options)).click(timeout=T)
                stats["menu"] = stats.get("menu", 0) + 1
            kind = selector.split(" ")[0].lstrip(".")
            stats[kind] = stats.get(kind, 0) + 1
            break
        else:
            return False
    page.wait_for_function(
        f"Number(document.body.dataset.move) > {before} || document.querySelector('.toast.error')",
        timeout=20_000,
    )
    page.wait_for_function("!document.querySelector('#board.busy')", timeout=20_000)
    return True


def test_play_candelabria_by_clicking_reload_and_watch(pages: Pages) -> None:
    started = time.monotonic()
    page = pages.new()
    game_id = create_from_lobby(page, max_turns=20)
    page.wait_for_selector(".cb-map .cb-terr")
    wait_ready(page)
    # the map: every territory drawn with its icon, the regions numbered, the houses' castles on it
    assert page.locator(".cb-map .cb-terr").count() == 24
    assert page.locator(".cb-map .cb-region").count() == 8
    assert page.locator(".cb-map .cb-piece.castle").count() == 3
    assert page.locator(".cb-house.you .cb-hand .cb-candle-card").count() >= 3
    shot(page, "cb-kindling")
    rng = random.Random(int(os.environ.get("CB_SEED", "6")))
    stats: dict[str, int] = {}
    clicks = 0
    reloaded = False
    # 24 clicks: enough for every kind of click the test asks for and the reload at the 12th; the
    # whole game to its end is the end-screen test's (tests/e2e/test_endscreen.py)
    while not is_over(page) and clicks < 24 and time.monotonic() - started < 90:
        wait_ready(page)
        if is_over(page):
            break
        if act_once(page, rng, stats):
            clicks += 1
        if clicks == 4:
            shot(page, "cb-kindling-mid")
        if clicks == 12 and not reloaded:
            # a reload in the middle of the game comes back to the same place, with the same log
            reloaded = True
            page.wait_for_timeout(300)
            log_lines = page.locator("#log li").count()
            before = move_number(page)
            page.reload()
            page.wait_for_selector(".cb-map .cb-terr")
            page.wait_for_function(f"Number(document.body.dataset.move) >= {before}")
            assert page.locator("#log li").count() >= log_lines
            assert "you are Ada" in page.locator("#subtitle").inner_text()
            # a spectator sees the map and the houses but no hand and nothing to click
            watcher = pages.new()
            watcher.goto(f"/g/{game_id}")
            watcher.wait_for_selector(".cb-map .cb-terr")
            assert watcher.locator(".cb-hand").count() == 0
            assert watcher.locator(".cb-house.you").count() == 0
            assert watcher.locator(CLICKABLE).count() == 0
            assert watcher.locator(".cb-house").count() == 3
            shot(watcher, "cb-spectator")
    assert clicks >= 12, f"only {clicks} clicks: {stats}"
    assert stats.get("cb-map", 0) + stats.get("menu", 0) >= 3, stats  # clicks on the map
    assert stats.get("cb-hand", 0) >= 2, stats  # deploys and maneuvers from the hand
    assert reloaded
    if is_over(page):
        shot(page, "cb-over")
        assert "Game over" in page.locator("#banner").inner_text()
        assert "Game over" in page.locator(".cb-season").inner_text()
    else:
        shot(page, "cb-late")
    # the log is in words, with the players' names
    log = page.locator("#log").inner_text()
    assert "deploys" in log or "maneuvers" in log
    assert "Ada" in log


def test_two_player_candelabria_starts_with_the_house_choice(pages: Pages) -> None:
    """Two players: the small side of the map, a house chosen by clicking its name, then play on by
    clicking (the curses move through 'haunt' in this mode)."""
    started = time.monotonic()
    page = pages.new()
    create_from_lobby(page, max_turns=12, variant="two-player", seats=("You", "Bot"))
    page.wait_for_selector(".cb-map .cb-terr")
    wait_ready(page)
    assert page.locator(".cb-map .cb-terr").count() == 24
    choices = page.locator("#board .cb-decision .action", has_text=re.compile("^Play "))
    choices.first.wait_for(timeout=20_000)
    shot(page, "cb-2p-house-choice")
    # nothing is dealt until both have chosen: no pieces on the map, no tactics, no upgrade tops
    assert page.locator(".cb-map .cb-piece").count() == 0
    assert "dealt once both players have chosen" in page.locator("#board .cb-decision").inner_text()
    # the engine's label: "Play the Cinis Clan"
    chosen = choices.first.inner_text().removeprefix("Play ").removeprefix("the ").strip()
    before = move_number(page)
    choices.first.click(timeout=T)
    page.wait_for_function(f"Number(document.body.dataset.move) > {before}", timeout=20_000)
    wait_ready(page)
    assert chosen in page.locator(".cb-house.you").first.inner_text(), chosen
    assert page.locator(".cb-map .cb-piece.castle").count() == 2
    rng = random.Random(int(os.environ.get("CB_SEED", "3")))
    stats: dict[str, int] = {}
    clicks = 0
    while not is_over(page) and clicks < 20 and time.monotonic() - started < 60:
        wait_ready(page)
        if is_over(page):
            break
        if act_once(page, rng, stats):
            clicks += 1
    assert clicks >= 10, f"only {clicks} clicks: {stats}"
    shot(page, "cb-2p-late")
    log = page.locator("#log").inner_text()
    assert "Ada" in log
    assert f"Ada (you) chooses {chosen}." in log, "the house choice is logged in words"


PAN = """(max) => {
  const box = document.querySelector('.cb-map-box');
  const targets = [...box.querySelectorAll('.clickable[data-action], .clickable[data-choices]')];
  const f = box.getBoundingClientRect();
  const rects = () => targets.map((el) => el.getBoundingClientRect());
  const inView = (r) => r.right > f.left && r.left < f.right;
  const whole = (r) => r.left >= f.left && r.right <= f.right;
  const left = box.scrollLeft;
  const now = rects();
  const swipe = Math.min(max, box.scrollWidth - box.clientWidth);
  box.scrollLeft = swipe;
  const there = rects();
  box.scrollLeft = left;
  const span = there.length
    ? Math.max(...there.map((r) => r.right)) - Math.min(...there.map((r) => r.left)) : 0;
  return {
    left, swipe, targets: targets.length,
    allThere: there.every(whole), anyThere: there.some(inView), fits: span <= box.clientWidth,
    allNow: now.every(whole), firstNow: now.length > 0 && inView(now[0]),
  };
}"""


def test_the_map_stays_where_the_player_swiped_it(pages: Pages) -> None:
    """On a phone the map pans inside its frame, and every move redraws the board: the map keeps the
    player's swipe (it jumped back to the left edge after each move) unless a decision's choices on
    the map are out of view there: then it shows them all where the frame holds them, else keeps the
    swipe if some are in view, else brings the first into view (panTo in candelabria.js)."""
    context = pages.browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=pages.base, bypass_csp=True
    )
    pages.contexts.append(context)
    page = context.new_page()
    created = create_game(pages.base, "candelabria", 3, "standard", {"max_turns": 40}, "heuristic")
    page.goto("/")
    open_seat(page, created)
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        now = frame(pages.base, created["id"], created["token"])
        if now["over"] or checked >= 3:
            break
        if not now["legal"]:  # a bot's turn: the next state, whatever it takes a loaded machine
            page.wait_for_function(
                f"Number(document.body.dataset.move) > {now['move']}", timeout=30_000
            )
            continue
        page.wait_for_function(f"Number(document.body.dataset.move) >= {now['move']}")
        widest = page.evaluate(
            "(() => { const b = document.querySelector('.cb-map-box');"
            " return b ? b.scrollWidth - b.clientWidth : 0; })()"
        )
        fitted = page.locator(".cb-map-box .can-move").count() > 0
        # a map holding the decision's targets is fitted to show them all (fitPhoneMap), and may fit
        # the frame: the swipe is looked at on the next decision that pans
        assert widest > 50 or fitted, "the map is wider than a phone's screen"
        page.evaluate("(w) => (document.querySelector('.cb-map-box').scrollLeft = w)", widest)
        api.post(
            f"{pages.base}/api/games/{created['id']}/moves",
            json={"action": rng.choice(now["legal"]), "expect": now["move"]},
            headers={"Authorization": f"Bearer {created['token']}"},
            timeout=30,
        )
        page.wait_for_function(f"Number(document.body.dataset.move) > {now['move']}")
        page.wait_for_function("!document.querySelector('#board.busy')")
        page.wait_for_function("!document.querySelector('.sliding')")  # measured where it rests
        seen = page.evaluate(PAN, widest)
        if widest <= 50:
            continue
        # the decision's choices on the map as the frame shows them (panTo)
        if seen["allThere"]:  # all in view where the player left it: kept there
            assert abs(seen["left"] - seen["swipe"]) <= 1, seen
        elif seen["fits"]:  # some out of view there, and the frame holds them all: all shown
            assert seen["allNow"], seen
        elif seen["anyThere"]:  # too many to show at once, some in view there: kept there
            assert abs(seen["left"] - seen["swipe"]) <= 1, seen
        else:  # none in view there: the first is brought into view
            assert seen["firstNow"], seen
        checked += 1
    assert checked >= 1


def test_a_house_s_supplies_are_named_in_whole_words(pages: Pages) -> None:
    """Issue 36: "land fl.", "candle fl." and "held" under a house were read as nothing."""
    created = create_game(pages.base, "candelabria", 3, "standard", {"max_turns": 40}, "heuristic")
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.locator(".cb-house .cb-res").first.wait_for()
    said = set(page.locator(".cb-house .cb-res i").all_inner_texts())
    assert {"land flames", "candle flames", "territories"} <= said, said
    assert not any("." in word or word == "held" for word in said), said
    shot(page, "candelabria-house-words")


@pytest.mark.parametrize("size", ["phone", "laptop", "large"])
def test_a_tactic_card_or_supply_to_click_is_a_finger_s_target(
    sized: Any, server: Any, size: str
) -> None:
    """A one-line tile on the Tactics board, offered to take, was 22 px tall on a phone, and a rival's
    gold or wax offered to steal 23 (both found by the keyboard test's target check): every tile
    there and every house's gold and wax, made clickable as a take or a steal offers them, is 24 px
    or more."""
    created = create_game(server.base, "candelabria", 3, "standard", {"max_turns": 40}, "heuristic")
    page = sized(size)
    open_seat(page, created)
    page.locator(".cb-tboard .cb-tactic").first.wait_for()
    heights = page.evaluate(
        """() => Object.fromEntries(
             ['.cb-tboard .cb-tactic', '.cb-house .cb-res.gold', '.cb-house .cb-res.wax'].map((sel) =>
               [sel, [...document.querySelectorAll(sel)].map((el) => {
                 const was = el.classList.contains('clickable');
                 el.classList.add('clickable');
                 const height = el.getBoundingClientRect().height;
                 if (!was) el.classList.remove('clickable');
                 return height;
               })]))"""
    )
    assert all(heights.values()), heights
    assert all(min(each) >= 24 for each in heights.values()), heights
    page.evaluate(
        """() => { const tiles = document.querySelectorAll('.cb-tboard .cb-tactic');
             tiles[tiles.length - 1].classList.add('clickable');
             document.querySelector('.cb-rivals .cb-res.gold')?.classList.add('clickable');
             document.querySelector('.cb-tboard').scrollIntoView({block: 'center'}); }"""
    )
    shot(page, f"cb-tactic-take-{size}")
    page.locator(".cb-rivals .cb-res.gold").first.scroll_into_view_if_needed()
    shot(page, f"cb-steal-{size}")


# The hand's cards that make a deploy or a maneuver at one click (no menu), and those whose menu holds
# one choice.
HAND_USES = """() => ({
  atOnce: [...document.querySelectorAll('.cb-hand [data-action]')]
    .map((el) => el.dataset.action).filter((a) => /^(deploy|maneuver) /.test(a)),
  single: [...document.querySelectorAll('.cb-hand [data-choices]')]
    .filter((el) => !el.dataset.choices.includes('|')).length,
  banner: document.querySelector('#banner').innerText,
})"""


def test_a_card_with_one_use_opens_its_menu_as_the_banner_says(pages: Pages, server: Any) -> None:
    """Issue 36: the banner says a card in the hand opens a menu, but a card with one legal use (a
    2-wax card with 1 wax: discard to maneuver) was discarded at the first tap."""
    from tests.e2e.test_learn import learn_game, open_learning

    page = pages.new()
    open_learning(page, learn_game(server.base, "candelabria"))
    page.wait_for_selector(".cb-map .cb-terr")
    rng = random.Random(5)
    stats: dict[str, int] = {}
    singles = 0
    for _ in range(30):
        wait_ready(page)
        if is_over(page):
            break
        uses = page.evaluate(HAND_USES)
        assert not uses["atOnce"], uses
        if uses["single"]:
            singles += 1
            assert "menu opens" in uses["banner"], uses
            if singles == 1:
                card = page.locator(".cb-hand [data-choices]:not([data-choices*='|'])").first
                card.click(timeout=T)
                page.locator(".cb-menu [data-action]").first.wait_for(timeout=T)
                assert page.locator(".cb-menu [data-action]").count() == 1
                shot(page, "cb-one-use-menu")
                page.keyboard.press("Escape")
        act_once(page, rng, stats)
    assert singles, f"no card with one use came up: {stats}"


def test_a_house_s_candles_are_named_with_their_roles(pages: Pages, server: Any) -> None:
    """Issue 36: "candles E: … W: …" under a house: the roles' letters were read as nothing."""
    created = create_game(server.base, "candelabria", 3, "standard", {"max_turns": 40}, "heuristic")
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.wait_for_selector(".cb-map .cb-terr")
    rng = random.Random(3)
    stats: dict[str, int] = {}
    deployed = page.locator(".cb-house-lines > div", has_text=re.compile(r"^\s*candles "))
    while not deployed.count() and sum(stats.values()) < 12:
        wait_ready(page)
        act_once(page, rng, stats)
    lines = deployed.all_inner_texts()
    assert lines, stats
    for line in lines:
        assert not re.search(r"\b[EPW]:", line), line
        assert re.search(r"\((Explorer|Pilgrim|Warrior)\)", line), line
    shot(page, "candelabria-house-candles")


def fit_a_phone_map(page: Any, base: str) -> bool:
    """Random moves of new games (three at most) until a decision's targets on the map shrink a
    phone's map (fitPhoneMap); whether one came. Which decisions come depends on the bots too: a
    12-turn game in CI's run once ended without one."""
    pick = random.Random(5)
    for _ in range(3):
        created = create_game(base, "candelabria", 3, variant="standard", options={"max_turns": 40})
        headers = {"Authorization": f"Bearer {created['token']}"}
        url = f"{base}/api/games/{created['id']}"
        open_seat(page, created)
        for _ in range(400):
            state = api.get(f"{url}/state", headers=headers, timeout=30).json()
            if state["over"]:
                break
            page.wait_for_function(
                "m => Number(document.body.dataset.move) >= m && !document.querySelector('#board.busy')",
                arg=state["move"],
            )
            page.evaluate(FRAMES)
            if page.evaluate("document.querySelector('#board .cb-map').style.width !== ''"):
                return True
            if state["legal"]:
                move_and_watch(page, url, headers, state, pick.choice(state["legal"]))
    return False


def test_a_phone_fitted_map_takes_its_full_size_when_the_screen_widens(
    browser: Any, server: Any
) -> None:
    """A phone's map shrunk to show a decision's targets (fitPhoneMap) gets its whole size back when
    the screen widens (a phone turned, a window made wider): it kept the phone's width at 1280 px,
    a third of its frame, the rest empty."""
    from tests.e2e.conftest import sized_context

    context = sized_context(browser, server.base, "phone")
    page = context.new_page()
    try:
        page.goto("/")
        if not fit_a_phone_map(page, server.base):
            raise AssertionError("no decision fitted the phone's map in three games")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_function("innerWidth === 1280")  # the resize seen, then its frames drawn
        page.evaluate(FRAMES)
        kept = page.evaluate("document.querySelector('#board .cb-map').style.width")
        assert kept == "", f"the map kept the phone's width {kept} at 1280 px"
        widened = page.evaluate(
            "document.querySelector('#board .cb-map').getBoundingClientRect().width"
        )
        page.reload()
        page.wait_for_selector("#board .cb-map")
        page.evaluate(FRAMES)
        fresh = page.evaluate(
            "document.querySelector('#board .cb-map').getBoundingClientRect().width"
        )
    finally:
        context.close()
    assert abs(widened - fresh) <= 2, f"{widened} px wide after widening, {fresh} px when drawn so"
