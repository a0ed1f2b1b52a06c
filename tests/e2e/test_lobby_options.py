"""The new-game form says every option of every game and variant in words: no option is shown by its
code name ("warrior push", "tiebreak") and no choice by its raw value ("forced", "shared"). The
form is photographed at phone, laptop and desktop sizes (/tmp/candlebox-e2e/labels-lobby-*.png)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import SIZES, Pages, api, open_options, shot

# Each option row of the form: [its field's id, its label, the texts of its choices].
SHOWN = """() => [...document.querySelectorAll('#create-form .option')].map((row) => [
  row.querySelector('select, input').id,
  row.querySelector('label').textContent.trim(),
  [...row.querySelectorAll('select option')].map((o) => o.textContent.trim()),
])"""


def choose(page: Any, game: dict[str, Any], variant: str) -> None:
    """The game and variant chosen in the form, its options opened."""
    page.locator(f"#create-form button[data-game='{game['id']}']").click()
    if len(game["variants"]) > 1:
        group = page.get_by_role("group", name="Variant")
        group.get_by_role("button", name=variant, exact=True).click()
    open_options(page)


def bare_words(option: dict[str, Any], label: str, values: list[str]) -> list[str]:
    """What the form shows of an option as code: its name for a label, a raw value for a choice."""
    # the form's own fallback for an option without words is its name, underscores as spaces
    fallback = (option["name"], option["name"].replace("_", " "))
    found = [f"label {label!r}"] if label in fallback else []
    said = set(option["choice_labels"])
    return found + [f"choice {v!r}" for v in values if v in option["choices"] and v not in said]


def test_the_new_game_form_says_every_option_in_words(pages: Pages, server: Any) -> None:
    meta = api.get(f"{server.base}/api/meta", timeout=30).json()
    page = pages.new()
    page.goto("/")
    page.wait_for_selector("#create-form .game-choice")
    bare: list[str] = []
    for game in meta["games"]:
        for variant in game["variants"]:
            choose(page, game, variant["name"])
            options = {f"opt-{o['name']}": o for o in variant["options"]}
            rows = page.evaluate(SHOWN)
            assert len(rows) == len([o for o in variant["options"] if o["name"] != "content"])
            for field, label, values in rows:
                where = f"{game['id']} {variant['name']}"
                bare += [f"{where}: {w}" for w in bare_words(options[field], label, values)]
    assert bare == []


@pytest.mark.parametrize("size", list(SIZES))
def test_candelabria_options_fit_each_screen(sized: Any, server: Any, size: str) -> None:
    """The longest labels (Candelabria's rule options) stay inside the screen, to be looked at."""
    meta = api.get(f"{server.base}/api/meta", timeout=30).json()
    game = next(g for g in meta["games"] if g["id"] == "candelabria")
    page = sized(size)
    page.wait_for_selector("#create-form .game-choice")
    choose(page, game, "standard")
    rules = page.locator("#create-form .options details").first
    rules.scroll_into_view_if_needed()
    assert "After each battle" in rules.inner_text()
    width = page.evaluate("document.documentElement.clientWidth")
    wide = page.evaluate(
        "w => [...document.querySelectorAll('#create-form .option > *')]"
        ".filter((el) => el.getBoundingClientRect().right > w).map((el) => el.outerHTML.slice(0, 80))",
        width,
    )
    shot(page, f"labels-lobby-options-{size}")
    assert wide == []


@pytest.mark.parametrize("size", list(SIZES))
def test_a_refused_option_is_named_by_its_label_and_marked(
    sized: Any, server: Any, size: str
) -> None:
    """An option the server refuses ("option 'upgrade_pile' must be at most 4, got 7") is said by the
    form's label, not its code, under Start the game, and its field is marked and focused until it is
    changed: a newcomer found the code name in the refusal and no field to look at."""
    meta = api.get(f"{server.base}/api/meta", timeout=30).json()
    game = next(g for g in meta["games"] if g["id"] == "candelabria")
    page = sized(size)
    page.wait_for_selector("#create-form .game-choice")
    choose(page, game, "standard")
    field = page.locator("#opt-upgrade_pile")
    field.fill("7")
    field.dispatch_event("change")
    page.click("#create")
    refusal = page.locator("#create-form .request-error:not([hidden])")
    refusal.wait_for()
    said = refusal.inner_text()
    assert "Upgrade Tiles per pile" in said and "upgrade_pile" not in said, said
    assert field.get_attribute("aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "opt-upgrade_pile"
    shot(page, f"lobby-option-refused-{size}")
    field.fill("4")
    field.dispatch_event("change")
    assert field.get_attribute("aria-invalid") is None
