"""Passkeys in Chromium (static/passkeys.html, js/passkeys.js): a CDP virtual authenticator (the
DevTools protocol's WebAuthn domain, a real CTAP2 authenticator inside the browser) registers a
passkey for a signed-in player, who signs out and signs in again with it, keyboard only, with no
serious axe violation, at each size (``-m browser_games``: tests/e2e/conftest.py's DEFAULT_RUN);
and the verification page."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest

from tests.e2e.conftest import api, shot, watch
from tests.e2e.test_layout import SIZES

axe_module = pytest.importorskip(
    "axe_playwright_python.sync_playwright",
    reason="axe-playwright-python is not installed: pip install -e '.[e2e]'",
)

PASSWORD = "correct horse battery"


def serious(page: Any) -> list[str]:
    results = axe_module.Axe().run(page)
    return [
        f"{v['id']} ({v['impact']})"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def local_page(browser: Any, server: Any, size: str, errors: list[str]) -> tuple[Any, Any]:
    """A page of the site at http://localhost:PORT (where browsers offer passkeys over HTTP),
    with a virtual authenticator that holds discoverable credentials and verifies its user."""
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        base_url=f"http://localhost:{server.port}",
        bypass_csp=True,  # axe's script
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    watch(page, errors)
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return context, page


# every size in CI's second step (tests/e2e/conftest.py's DEFAULT_RUN)
SIZE_RUNS = [
    size if size == "phone" else pytest.param(size, marks=pytest.mark.browser_games)
    for size in SIZES
]


@pytest.mark.parametrize("size", SIZE_RUNS)
def test_register_a_passkey_then_sign_in_with_it(browser: Any, server: Any, size: str) -> None:
    errors: list[str] = []
    context, page = local_page(browser, server, size, errors)
    try:
        name = f"Key{secrets.token_hex(4)}"
        page.goto("/passkeys")
        page.wait_for_selector("#passkey-sign-in:not([hidden])")  # a guest: sign in offered
        # sign up through the API from this browser (the sign-up page is another module's)
        made = page.request.post(
            "/api/accounts",
            data={"name": name, "password": PASSWORD},
            headers={"Origin": f"http://localhost:{server.port}"},
        )
        assert made.status == 201, made.text()
        page.reload()
        page.wait_for_selector("#passkey-mine:not([hidden])")
        assert page.locator("#passkey-who").inner_text() == f"Signed in as {name}."
        assert serious(page) == []
        # keyboard only: the name field, then the button
        page.locator("#passkey-name").focus()
        page.keyboard.type("This browser")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_selector("#passkey-list li[data-passkey]")
        assert "This browser" in page.locator("#passkey-list").inner_text()
        assert page.locator("#passkey-status").inner_text() == "Added the passkey This browser."
        shot(page, f"passkeys-mine-{size}")

        signed_out = page.request.delete(
            "/api/session", headers={"Origin": f"http://localhost:{server.port}"}
        )
        assert signed_out.status == 200
        page.reload()
        page.wait_for_selector("#passkey-sign-in:not([hidden])")
        assert serious(page) == []
        shot(page, f"passkeys-sign-in-{size}")
        page.locator("#passkey-sign-in-button").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#passkey-mine:not([hidden])")
        assert page.locator("#passkey-status").inner_text() == f"Signed in as {name}."
        me = page.request.get("/api/me")
        assert me.status == 200 and me.json()["name"] == name
        assert "last used" in page.locator("#passkey-list").inner_text()
        overflow = page.evaluate("() => document.documentElement.scrollWidth > innerWidth")
        assert not overflow, "the page is wider than the screen"
    finally:
        context.close()
    assert not errors, errors


def test_the_verification_page_says_a_bad_link_is_not_valid(browser: Any, server: Any) -> None:
    errors: list[str] = []
    context, page = local_page(browser, server, "phone", errors)
    try:
        page.goto("/verify?token=" + "x" * 43)
        page.wait_for_selector("#verify-button")
        assert page.evaluate("location.search") == ""  # the token left the address bar
        assert serious(page) == []
        page.locator("#verify-button").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#verify-status.bad")
        assert "not valid" in page.locator("#verify-status").inner_text()
        shot(page, "verify-phone")
    finally:
        context.close()
    assert not errors, errors


def test_sign_in_options_over_plain_http_elsewhere_say_why(server: Any) -> None:
    """Not localhost, not HTTPS (the server's address is 127.0.0.1): the API says passkeys need
    HTTPS, and never shows its internals."""
    answer = api.post(f"{server.base}/api/passkeys/sign-in/options", json={})
    assert answer.status_code == 403
    assert answer.json()["error"] == "passkeys-need-https"


def test_a_confirmation_link_confirms_the_address_in_the_browser(browser: Any, server: Any) -> None:
    """The page a confirmation mail links to, with a link as the mail carries (the e2e server sends
    no mail: the link's row is written into its database as the mail's would be)."""
    from sqlalchemy import select

    from candlebox.server import security
    from candlebox.server.storage import Storage, accounts, email_verifications

    name = f"Mail{secrets.token_hex(4)}"
    made = api.post(
        f"{server.base}/api/accounts",
        json={"name": name, "password": PASSWORD, "email": f"{name}@example.org"},
    )
    assert made.status_code == 201, made.text
    token = security.new_token()
    storage = Storage(server.db)
    try:
        with storage.engine.begin() as conn:
            account = conn.execute(select(accounts.c.id).where(accounts.c.name == name)).one()
            conn.execute(
                email_verifications.insert().values(
                    token_hash=security.digest(token),
                    account_id=account.id,
                    email=f"{name}@example.org",
                    expires_at=time.time() + 3600,
                )
            )
        errors: list[str] = []
        context, page = local_page(browser, server, "laptop", errors)
        try:
            page.goto(f"/verify?token={token}")
            page.locator("#verify-button").focus()
            page.keyboard.press("Enter")
            page.wait_for_selector("#verify-status:not(.bad):not(:empty)")
            said = page.locator("#verify-status").inner_text()
            assert said == f"Thank you, {name}: {name}@example.org is confirmed."
            assert page.locator("#verify-button").is_hidden()
            shot(page, "verify-done-laptop")
        finally:
            context.close()
        assert not errors, errors
        with storage.engine.connect() as conn:
            confirmed = conn.execute(
                select(accounts.c.email_verified_at).where(accounts.c.name == name)
            ).scalar_one()
        assert confirmed is not None
    finally:
        storage.close()
