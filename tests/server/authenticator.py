"""A software authenticator for the passkey tests: a real EC P-256 key (``cryptography``), and the
authenticator data, client data and attestation object a browser would send, built byte by byte
as the WebAuthn spec lays them out — so the server's checks (the webauthn library's) run on real
answers, nothing mocked. Its knobs make the answers a wrong site, a copied key or a tamperer sends.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: user present, verified, key attached


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def cbor(value: Any) -> bytes:
    """The CBOR of ints, byte strings, text and maps (all an attestation object holds)."""
    if isinstance(value, bool):
        raise TypeError("no booleans here")
    if isinstance(value, int):
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, bytes):
        return _head(2, len(value)) + value
    if isinstance(value, str):
        data = value.encode()
        return _head(3, len(data)) + data
    if isinstance(value, dict):
        return _head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())
    raise TypeError(type(value))


def _head(major: int, n: int) -> bytes:
    if n < 24:
        return bytes([major << 5 | n])
    for extra, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * size):
            return bytes([major << 5 | extra]) + n.to_bytes(size, "big")
    raise ValueError(n)


@dataclass
class Authenticator:
    """One passkey's authenticator for the site at ``origin`` (relying party ``rp_id``)."""

    origin: str = "http://localhost"
    rp_id: str = "localhost"
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    credential_id: bytes = field(default_factory=lambda: os.urandom(32))
    user_handle: bytes | None = None
    sign_count: int = 0
    counts: bool = True  # False: reports 0 every time, as many platform authenticators do

    def cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor(
            {
                1: 2,  # kty: EC2
                3: -7,  # alg: ES256
                -1: 1,  # crv: P-256
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    def _auth_data(self, flags: int, rp_id: str | None, attested: bytes = b"") -> bytes:
        rp_hash = hashlib.sha256((rp_id or self.rp_id).encode()).digest()
        return rp_hash + bytes([flags]) + self.sign_count.to_bytes(4, "big") + attested

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin}
        return json.dumps({**data, "crossOrigin": False}).encode()

    def create(
        self, options: dict[str, Any], origin: str | None = None, rp_id: str | None = None
    ) -> dict[str, Any]:
        """``navigator.credentials.create``'s answer (``toJSON()``) to the server's options, with
        "none" attestation, as a passkey provider gives."""
        self.user_handle = unb64url(options["user"]["id"])
        attested = (
            bytes(16)  # AAGUID
            + len(self.credential_id).to_bytes(2, "big")
            + self.credential_id
            + self.cose_key()
        )
        auth_data = self._auth_data(UP | UV | AT, rp_id, attested)
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        attestation = cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(
        self,
        options: dict[str, Any],
        origin: str | None = None,
        rp_id: str | None = None,
        key: ec.EllipticCurvePrivateKey | None = None,
    ) -> dict[str, Any]:
        """``navigator.credentials.get``'s answer: the challenge signed with the passkey's key
        (``key``: another key, as a forger would), the counter moved on."""
        if self.counts:
            self.sign_count += 1
        auth_data = self._auth_data(UP | UV, rp_id)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = (key or self.key).sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(self.user_handle) if self.user_handle else None,
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
