"""The mail accounts send (docs/server.md, "E-mail"): a link confirming the address given at sign-up,
and a password reset link for "forgot password". Each token is random, kept only as its hash, used
once, and written into its mail in the same transaction (candlebox/server/mail.py sends it).

"Forgot password" answers the same whatever was asked for (candlebox/server/routes/email.py), so
the work here happens after the answer: it finds the accounts named by a name or by an address
they confirmed (a reset goes to no address its owner has not shown to be theirs), and sends each
a reset link, at most ``Settings.forgot_limit`` per account in ``Settings.sign_in_window``.

Synchronous: the routes call it in a worker thread.
"""

from __future__ import annotations

import time

from sqlalchemy import delete, func, insert, select, update

from candlebox.server import security
from candlebox.server.accounts import Account, Accounts, _account, name_key
from candlebox.server.errors import Rejected
from candlebox.server.mail import Outbox, link
from candlebox.server.storage import accounts, email_verifications, password_resets

MOST_ACCOUNTS = 5  # accounts one "forgot password" by address may send links to

VERIFY_SUBJECT = "Confirm your e-mail address for Candlebox"
VERIFY_BODY = """Hello {name},

please confirm that this is your e-mail address by opening this link:

{link}

The link works once, for {hours:g} hours. If you did not sign up at Candlebox, ignore this mail.
"""
RESET_SUBJECT = "Set a new Candlebox password"
RESET_BODY = """Hello {name},

someone (we hope you) asked to set a new password for your Candlebox account. Open this link to
choose one:

{link}

The link works once, for {hours:g} hours; every browser signed in to the account is signed out.
If you did not ask, ignore this mail: your password stays as it is.
"""


class AccountMail:
    def __init__(self, store: Accounts, outbox: Outbox) -> None:
        self.accounts = store
        self.outbox = outbox
        self.engine = store.engine
        self.settings = store.settings

    # ------------------------------------------------------------------ verification
    def send_verification(self, account: Account) -> None:
        """A link confirming the account's address, mailed to it."""
        if account.email is None:
            return
        token = security.new_token()
        hours = self.settings.verify_hours
        with self.engine.begin() as conn:
            conn.execute(
                insert(email_verifications).values(
                    token_hash=security.digest(token),
                    account_id=account.id,
                    email=account.email,
                    expires_at=time.time() + hours * 3600,
                )
            )
            url = link(self.settings, f"/verify?token={token}")
            body = VERIFY_BODY.format(name=account.name, link=url, hours=hours)
            self.outbox.add(conn, account.email, VERIFY_SUBJECT, body, account.id)

    def verify(self, token: str) -> Account:
        """Use a verification link (once): the account's address is confirmed, if it is still the
        address the link was sent to."""
        refused = Rejected("verify-token", "this link is not valid (used, or too old)")
        if not security.well_formed(token):
            raise refused
        now = time.time()
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(email_verifications)
                .where(email_verifications.c.token_hash == security.digest(token))
                .returning(
                    email_verifications.c.account_id,
                    email_verifications.c.email,
                    email_verifications.c.expires_at,
                )
            ).first()
            if gone is None or gone.expires_at < now:
                raise refused
            conn.execute(
                update(accounts)
                .where(accounts.c.id == gone.account_id, accounts.c.email == gone.email)
                .values(email_verified_at=now)
            )
            row = conn.execute(select(accounts).where(accounts.c.id == gone.account_id)).one()
        found = _account(row)
        if not found.email_verified:
            raise refused  # the address changed since the link was sent
        return found

    # ------------------------------------------------------------------ forgotten passwords
    def forgot(self, name: str | None, email: str | None) -> int:
        """Mail a reset link to the account named ``name``, or to each account (a few at most)
        that confirmed the address ``email``; how many were sent (never told to the client)."""
        with self.engine.connect() as conn:
            if name is not None:
                found = accounts.c.name_key == name_key(name)[:100]
            else:
                found = func.lower(accounts.c.email) == (email or "").strip().lower()
            rows = conn.execute(
                select(accounts)
                .where(
                    found, accounts.c.email.is_not(None), accounts.c.email_verified_at.is_not(None)
                )
                .order_by(accounts.c.id)
                .limit(MOST_ACCOUNTS)
            ).all()
        sent = 0
        now = time.time()
        for row in rows:
            account = _account(row)
            counted = f"forgot:{name_key(account.name)}"[:128]
            try:
                self.accounts.refuse_if_throttled({counted: self.settings.forgot_limit}, now)
            except Rejected:
                continue  # enough links went to this account for now
            self.accounts.count_failures([counted], now)
            self._send_reset(account)
            sent += 1
        return sent

    def _send_reset(self, account: Account) -> None:
        assert account.email is not None
        token = security.new_token()
        hours = self.settings.reset_hours
        with self.engine.begin() as conn:
            conn.execute(
                insert(password_resets).values(
                    token_hash=security.digest(token),
                    account_id=account.id,
                    expires_at=time.time() + hours * 3600,
                )
            )
            # the token after '#', as the operator's link: a browser never sends it to a server
            url = link(self.settings, f"/reset#{token}")
            body = RESET_BODY.format(name=account.name, link=url, hours=hours)
            self.outbox.add(conn, account.email, RESET_SUBJECT, body, account.id)
