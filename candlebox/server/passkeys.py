"""Passkeys (WebAuthn, issue 34; docs/server.md, "Passkeys"): a second way to sign in, where the
browser offers it.

- A signed-in player registers a passkey in two steps: the server's options (a fresh challenge, the
  relying party, the account's user handle, its passkeys already held so that one authenticator is
  not registered twice), then the browser's answer, verified by the ``webauthn`` library.
- Anyone signs in with one in two steps too: options with a challenge and no account named (the
  passkeys are discoverable: the browser offers those it holds for this site), then the signed
  answer; its credential names the account. A success opens the same session as a password's.
- A challenge is single-use (taken by deleting its row), bound to the flow token handed out with it
  (only its hash kept) and, to register, to the session that asked; it ends after
  ``Settings.passkey_seconds``. An authenticator's signature counter must move forward (a cloned
  key's replayed answer is refused), unless it always reports 0 (many do).
- Refusals to sign in are one answer whatever went wrong (no such passkey, a bad signature, a used
  or old challenge), and each counts against the client address like a wrong password.
- The relying party is the configured public URL's host (``CANDLEBOX_PUBLIC_URL``), else the host
  the request was sent to; browsers offer passkeys only over HTTPS or on ``localhost``, so the
  routes refuse, saying why, anywhere else.

Everything here is synchronous and touches the database: the routes call it in a worker thread.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from candlebox.server import security
from candlebox.server.accounts import Account, Accounts, Session, _account
from candlebox.server.errors import Rejected
from candlebox.server.storage import accounts, passkey_challenges, passkeys

SITE_NAME = "Candlebox"
NAME_MAX = 60  # a passkey's label
REGISTER, SIGN_IN = "register", "sign-in"
# The one answer to every refused passkey sign-in: which part failed would tell a prober too much.
NOT_ACCEPTED = ("passkey", "that passkey was not accepted; try again, or use your password")


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: ``id`` the host name a browser binds them to, ``origin`` the
    scheme, host and port the pages are served from."""

    id: str
    origin: str


@dataclass(frozen=True)
class Ceremony:
    """A challenge taken to check an answer: the challenge, and the user handle offered (to
    register)."""

    challenge: bytes
    user_handle: str | None


@dataclass(frozen=True)
class Passkey:
    """A passkey as its owner sees it (nothing of its key)."""

    id: int
    name: str
    created_at: float
    used_at: float | None


def relying_party(public_url: str, https: bool, host: str | None) -> RelyingParty:
    """The relying party: from the configured public URL, else from the request (``https``: it came
    over HTTPS; ``host``: its Host header); :class:`Rejected` saying why passkeys cannot work here."""
    if public_url:
        parts = urlsplit(public_url)
        scheme, hostname = parts.scheme, parts.hostname or ""
        origin = f"{scheme}://{parts.netloc}"
    else:
        parts = urlsplit(f"//{host or ''}")
        scheme, hostname = ("https" if https else "http"), parts.hostname or ""
        origin = f"{scheme}://{parts.netloc}"
    local = hostname == "localhost" or hostname.endswith(".localhost")
    if scheme != "https" and not local:
        raise Rejected(
            "passkeys-need-https",
            "passkeys work only over HTTPS (or at http://localhost): browsers offer them nowhere else",
            403,
        )
    if not hostname or hostname.replace(".", "").isdigit() or ":" in hostname:
        raise Rejected(
            "passkeys-need-a-name",
            "passkeys need the site reached by a name (such as localhost), not an IP address",
            403,
        )
    return RelyingParty(hostname, origin)


class Passkeys:
    """Accounts' passkeys and the ceremonies under way, in the accounts' database."""

    def __init__(self, store: Accounts) -> None:
        self.accounts = store
        self.engine = store.engine
        self.settings = store.settings

    @property
    def timeout_ms(self) -> int:
        return int(self.settings.passkey_seconds * 1000)

    # ------------------------------------------------------------------ registering
    def registration_options(
        self, session: Session, party: RelyingParty, client: str
    ) -> tuple[str, dict[str, Any]]:
        """A flow token and the options for ``navigator.credentials.create``; one registration at a
        time per session (a new one ends the one before)."""
        account = session.account
        now = time.time()
        with self.engine.begin() as conn:
            held = conn.execute(
                select(passkeys.c.credential_id, passkeys.c.user_handle).where(
                    passkeys.c.account_id == account.id
                )
            ).all()
            if len(held) >= self.settings.max_passkeys:
                raise Rejected(
                    "passkey-limit",
                    f"an account holds at most {self.settings.max_passkeys} passkeys; remove one first",
                    409,
                )
            # one handle for all of an account's passkeys: an authenticator keeps one per account
            handle = held[0].user_handle if held else bytes_to_base64url(secrets.token_bytes(32))
            options = generate_registration_options(
                rp_id=party.id,
                rp_name=SITE_NAME,
                user_id=base64url_to_bytes(handle),
                user_name=account.name,
                user_display_name=account.name,
                timeout=self.timeout_ms,
                authenticator_selection=AuthenticatorSelectionCriteria(
                    resident_key=ResidentKeyRequirement.REQUIRED,
                    user_verification=UserVerificationRequirement.PREFERRED,
                ),
                exclude_credentials=[
                    PublicKeyCredentialDescriptor(id=base64url_to_bytes(row.credential_id))
                    for row in held
                ],
            )
            conn.execute(
                delete(passkey_challenges).where(
                    passkey_challenges.c.session_hash == session.token_hash
                )
            )
            flow = self._begin(conn, REGISTER, options.challenge, client, now, session, handle)
        return flow, json.loads(options_to_json(options))

    def register(
        self,
        session: Session,
        party: RelyingParty,
        flow: str,
        credential: dict[str, Any],
        name: str | None,
    ) -> Passkey:
        """The browser's answer to the options of ``flow``, verified and kept as a passkey."""
        refused = Rejected("passkey-invalid", "the new passkey could not be verified; try again")
        ceremony = self._take(flow, REGISTER, session.token_hash)
        if ceremony is None or ceremony.user_handle is None:
            raise Rejected(
                "passkey-flow", "this passkey request has ended (used, or too old); start again"
            )
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=ceremony.challenge,
                expected_rp_id=party.id,
                expected_origin=party.origin,
            )
        except Exception:  # any part of a hostile answer may fail to parse: one refusal for all
            raise refused from None
        now = time.time()
        try:
            with self.engine.begin() as conn:
                held = conn.execute(
                    select(func.count()).where(passkeys.c.account_id == session.account.id)
                ).scalar_one()
                if held >= self.settings.max_passkeys:
                    raise Rejected(
                        "passkey-limit",
                        f"an account holds at most {self.settings.max_passkeys} passkeys",
                        409,
                    )
                label = security.clean_name(name, f"Passkey {held + 1}")[:NAME_MAX]
                done = conn.execute(
                    insert(passkeys).values(
                        account_id=session.account.id,
                        credential_id=bytes_to_base64url(verified.credential_id),
                        user_handle=ceremony.user_handle,  # what the authenticator keeps
                        public_key=bytes_to_base64url(verified.credential_public_key),
                        sign_count=verified.sign_count,
                        name=label,
                        created_at=now,
                        used_at=None,
                    )
                )
                key = done.inserted_primary_key
                assert key is not None
        except IntegrityError:
            raise Rejected("passkey-known", "this passkey is registered already", 409) from None
        return Passkey(int(key[0]), label, now, None)

    def held(self, account: Account) -> list[Passkey]:
        """The account's passkeys, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(passkeys.c.id, passkeys.c.name, passkeys.c.created_at, passkeys.c.used_at)
                .where(passkeys.c.account_id == account.id)
                .order_by(passkeys.c.id)
            ).all()
        return [Passkey(row.id, row.name, row.created_at, row.used_at) for row in rows]

    def remove(self, account: Account, passkey_id: int) -> None:
        """Remove one of the account's passkeys (404 for any other id: whose it is stays unsaid)."""
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(passkeys).where(
                    passkeys.c.id == passkey_id, passkeys.c.account_id == account.id
                )
            )
        if gone.rowcount == 0:
            raise Rejected("not-found", "you hold no passkey with that id", 404)

    # ------------------------------------------------------------------ signing in
    def sign_in_options(self, party: RelyingParty, client: str) -> tuple[str, dict[str, Any]]:
        """A flow token and the options for ``navigator.credentials.get`` (no account named: the
        browser offers the passkeys it holds for this site)."""
        now = time.time()
        self.accounts.refuse_if_throttled({_address(client): self._address_limit}, now)
        options = generate_authentication_options(
            rp_id=party.id,
            timeout=self.timeout_ms,
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        with self.engine.begin() as conn:
            self._check_open_flows(conn, client, now)
            flow = self._begin(conn, SIGN_IN, options.challenge, client, now, None, None)
        return flow, json.loads(options_to_json(options))

    def sign_in(
        self, party: RelyingParty, flow: str, credential: dict[str, Any], client: str
    ) -> tuple[Account, str]:
        """The account whose passkey signed the challenge of ``flow``, and a new session's token;
        the same 401 for anything wrong, counted against the client address."""
        now = time.time()
        self.accounts.refuse_if_throttled({_address(client): self._address_limit}, now)
        found = self._check_assertion(party, flow, credential)
        if found is None:
            self.accounts.count_failures([_address(client)], now)
            raise Rejected(*NOT_ACCEPTED, 401)
        row, new_count = found
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(passkeys)
                .where(passkeys.c.id == row.id, passkeys.c.sign_count == row.sign_count)
                .values(sign_count=new_count, used_at=now)
            )
            if moved.rowcount == 0:  # the same counter used twice at once: one of them is a copy
                raise Rejected(*NOT_ACCEPTED, 401)
            owner = conn.execute(select(accounts).where(accounts.c.id == row.account_id)).one()
            token = self.accounts.open_session(conn, row.account_id)
        return _account(owner), token

    def _check_assertion(
        self, party: RelyingParty, flow: str, credential: dict[str, Any]
    ) -> tuple[Any, int] | None:
        """The passkey's row and its new signature counter, or None for any refusal."""
        ceremony = self._take(flow, SIGN_IN, None)
        raw_id = credential.get("id")
        if ceremony is None or not isinstance(raw_id, str) or len(raw_id) > 1400:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(passkeys).where(passkeys.c.credential_id == raw_id)).first()
        if row is None or _handle_of(credential, row.user_handle) != row.user_handle:
            return None
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=ceremony.challenge,
                expected_rp_id=party.id,
                expected_origin=party.origin,
                credential_public_key=base64url_to_bytes(row.public_key),
                credential_current_sign_count=row.sign_count,
            )
        except Exception:  # a hostile answer may fail anywhere in parsing: one refusal for all
            return None
        return row, verified.new_sign_count

    # ------------------------------------------------------------------ challenges
    @property
    def _address_limit(self) -> int:
        return self.settings.sign_in_address_failures

    def _begin(
        self,
        conn: Connection,
        purpose: str,
        challenge: bytes,
        client: str,
        now: float,
        session: Session | None,
        handle: str | None,
    ) -> str:
        flow = security.new_token()
        conn.execute(
            insert(passkey_challenges).values(
                flow_hash=security.digest(flow),
                purpose=purpose,
                challenge=bytes_to_base64url(challenge),
                session_hash=None if session is None else session.token_hash,
                user_handle=handle,
                account_id=None if session is None else session.account.id,
                client=client[:128],
                expires_at=now + self.settings.passkey_seconds,
            )
        )
        return flow

    def _check_open_flows(self, conn: Connection, client: str, now: float) -> None:
        """429 when the client address has its share of sign-in ceremonies open already (each is
        a row until it is answered or ends)."""
        limit = self.settings.max_passkey_flows
        mine = (passkey_challenges.c.client == client[:128]) & (
            passkey_challenges.c.expires_at > now
        )
        count, first_end = conn.execute(
            select(func.count(), func.min(passkey_challenges.c.expires_at)).where(mine)
        ).one()
        if limit > 0 and count >= limit:
            raise Rejected(
                "slow-down", "too many passkey sign-ins under way; try again later", 429
            ).retry_in(first_end - now)

    def _take(self, flow: str, purpose: str, session_hash: str | None) -> Ceremony | None:
        """The ceremony of ``flow`` (its row deleted: used once), or None when it is unknown,
        ended, for another purpose or, to register, asked for by another session."""
        if not security.well_formed(flow):
            return None
        with self.engine.begin() as conn:
            row = conn.execute(
                delete(passkey_challenges)
                .where(passkey_challenges.c.flow_hash == security.digest(flow))
                .returning(
                    passkey_challenges.c.purpose,
                    passkey_challenges.c.challenge,
                    passkey_challenges.c.session_hash,
                    passkey_challenges.c.user_handle,
                    passkey_challenges.c.expires_at,
                )
            ).first()
        if row is None or row.expires_at < time.time() or row.purpose != purpose:
            return None
        if row.session_hash != session_hash:
            return None
        return Ceremony(base64url_to_bytes(row.challenge), row.user_handle)


def _address(client: str) -> str:
    """The key a client address's failed sign-ins are counted under (as a password's)."""
    return f"address:{client}"[:128]


def _handle_of(credential: dict[str, Any], fallback: str = "") -> str:
    """The user handle a sign-in answer names (base64url), or ``fallback`` when it names none (an
    authenticator may leave it out when the credential was asked for by id)."""
    response = credential.get("response")
    handle = response.get("userHandle") if isinstance(response, dict) else None
    return handle if isinstance(handle, str) and handle else fallback
