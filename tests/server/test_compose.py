"""compose.yaml (docs/deploy.md) without Docker: it parses, and everything it names exists — the
image's files, the commands and their options (parsed by the real CLI), the settings in its
environment, the ports nginx and the health checks use, nginx's configuration and its fixed address."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Any

import pytest
import typer

from candlebox.cli.app import app
from candlebox.server import Settings
from candlebox.server.routes import ROUTERS

yaml = pytest.importorskip("yaml", reason="PyYAML reads compose.yaml here")
ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
DOCKERFILE = ROOT / "deploy" / "Dockerfile"


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())  # `<<` merges included
    return loaded


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, rest) of each line of the Dockerfile."""
    lines = []
    for line in DOCKERFILE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            lines.append((word.upper(), rest.strip()))
    return lines


def image_command() -> list[str]:
    found = [rest for word, rest in dockerfile() if word == "CMD"]
    assert len(found) == 1
    command: list[str] = yaml.safe_load(found[0])  # the exec form is a JSON (so YAML) list
    return command


def parse_cli(command: list[str]) -> Any:
    """The command parsed by the real ``candlebox`` CLI (an unknown option or command fails):
    its click context."""
    assert command[0] == "candlebox", command
    group: Any = typer.main.get_command(app)
    name, *args = command[1:]
    sub = group.get_command(group.context_class(group), name)
    assert sub is not None, f"candlebox has no command {name!r}"
    return sub.make_context(name, list(args))


def candlebox_services(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in spec["services"].items() if "build" in s}


def test_compose_parses_and_names_what_exists() -> None:
    spec = compose()
    services = spec["services"]
    assert {"db", "web1", "web2", "bots", "nginx"} <= set(services)
    ours = candlebox_services(spec)
    assert set(ours) == {"web1", "web2", "bots"}
    for name, service in ours.items():
        build = service["build"]
        assert (ROOT / build["context"] / build["dockerfile"]).resolve() == DOCKERFILE, name
        for dependency in service.get("depends_on", {}):
            assert dependency in services, (name, dependency)
        # every CANDLEBOX_ variable is a setting, with a value it accepts
        environment = {k: str(v) for k, v in service["environment"].items()}
        names = {"CANDLEBOX_" + f.upper() for f in Settings.__dataclass_fields__}
        assert set(environment) <= names, set(environment) - names
        settings = Settings.from_env(environment)
        assert settings.bots == "workers" and settings.db.startswith("postgresql")
        assert settings.db.split("@", 1)[1].startswith("db/"), "the database is the db service"
        # the command: the service's own, else the image's; the real CLI parses it
        command = service.get("command") or image_command()
        context = parse_cli(command)
        assert context.info_name == ("bots-worker" if name == "bots" else "serve")
    for word, rest in dockerfile():  # what the image copies is in the repository
        if word == "COPY":
            *sources, _ = rest.split()
            for source in sources:
                assert (ROOT / source).exists(), source


def test_ports_health_checks_and_nginx_agree() -> None:
    spec = compose()
    services = spec["services"]
    serve = parse_cli(image_command())
    port, host = serve.params["port"], serve.params["host"]
    assert host == "0.0.0.0"  # reachable from nginx's container
    assert f"EXPOSE {port}" in DOCKERFILE.read_text()
    paths = {getattr(route, "path", None) for router in ROUTERS for route in router.routes}
    for name in ("web1", "web2"):
        probe = " ".join(services[name]["healthcheck"]["test"])
        url = re.search(r"http://127\.0\.0\.1:(\d+)(/\w+)", probe)
        assert url is not None, probe
        assert int(url.group(1)) == port and url.group(2) in paths, probe
    nginx = services["nginx"]
    mounted = {
        volume.split(":")[0]: volume.split(":")[1] for volume in nginx["volumes"]
    }  # "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro"
    conf_file = next(ROOT / source for source in mounted if source.endswith("nginx.conf"))
    conf = conf_file.read_text()
    upstream = re.findall(r"server\s+(\w+):(\d+)", conf)
    assert sorted(upstream) == [("web1", str(port)), ("web2", str(port))]
    listen = re.search(r"listen\s+(\d+);", conf)
    assert listen is not None
    published = [p.rsplit(":", 1)[1] for p in nginx["ports"]]
    assert listen.group(1) in published
    # nginx's fixed address is the one the web processes trust, inside the network's subnet
    address = nginx["networks"]["default"]["ipv4_address"]
    subnet = spec["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(address) in ipaddress.ip_network(subnet)
    for service in candlebox_services(spec).values():
        trusted = Settings.from_env({k: str(v) for k, v in service["environment"].items()})
        assert trusted.trusted_proxies == (address,)
