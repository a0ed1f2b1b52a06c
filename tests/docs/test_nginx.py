"""The nginx examples agree with each other and with the server (issue 33, item 6): docs/server.md's
example forwarded no client address on its websocket and page locations and left ``/metrics``
open, while docs/deploy.md's (and deploy/nginx.conf, which compose.yaml runs) did both right. The
server counts its limits per client address (requests, games, websockets), so a proxy that does not
name the client makes every player one client; these checks keep the examples from drifting."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from candlebox.server.config import Settings

ROOT = Path(__file__).resolve().parents[2]
FORWARDED = "proxy_set_header X-Forwarded-For $remote_addr;"
LOCATION = re.compile(r"location\s+(?P<match>=\s*)?(?P<path>\S+)\s*\{(?P<body>[^{}]*)\}")
BLOCK = re.compile(r"^```nginx\n(?P<text>.*?)^```", re.MULTILINE | re.DOTALL)


def nginx_blocks(path: Path) -> list[str]:
    return [found.group("text") for found in BLOCK.finditer(path.read_text())]


def configurations() -> dict[str, str]:
    found = {"deploy/nginx.conf": (ROOT / "deploy" / "nginx.conf").read_text()}
    for name in ("docs/server.md", "docs/deploy.md"):
        blocks = nginx_blocks(ROOT / name)
        assert len(blocks) == 1, f"{name} has {len(blocks)} nginx blocks"
        found[name] = blocks[0]
    return found


def locations(text: str) -> dict[str, str]:
    """Each location's path (``=/metrics`` for an exact match) and its directives, one a line."""
    return {
        ("=" if m.group("match") else "") + m.group("path"): " ".join(m.group("body").split())
        for m in LOCATION.finditer(text)
    }


@pytest.mark.parametrize("name", ["docs/server.md", "docs/deploy.md", "deploy/nginx.conf"])
def test_every_proxied_location_names_the_client_as_the_server_expects(name: str) -> None:
    places = locations(configurations()[name])
    proxied = {path: body for path, body in places.items() if "proxy_pass" in body}
    assert {"/", "/ws/"} <= set(proxied), f"{name}: {sorted(places)}"
    for path, body in proxied.items():
        # $remote_addr, not $proxy_add_x_forwarded_for: the client's own header is replaced, never
        # extended (the server takes the right-most untrusted address either way)
        assert FORWARDED in body, f"{name}, location {path}: no {FORWARDED}"
        assert "proxy_set_header Host $host;" in body, f"{name}, location {path}"


@pytest.mark.parametrize("name", ["docs/server.md", "docs/deploy.md", "deploy/nginx.conf"])
def test_metrics_is_not_served_through_the_proxy(name: str) -> None:
    places = locations(configurations()[name])
    assert places.get("=/metrics") == "return 404;", f"{name}: /metrics is reachable"


def test_the_examples_limits_are_the_servers() -> None:
    settings = Settings(db="sqlite://")
    for name, text in configurations().items():
        text = " ".join(text.split())
        assert f"client_max_body_size {settings.max_body // 1024}k;" in text, name
        assert f"client_header_timeout {settings.header_timeout:g}s;" in text, name
