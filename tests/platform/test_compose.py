"""docker-compose.yml cannot run here (no Docker), so its structure is checked instead."""

import re
from pathlib import Path

import pytest
import yaml

from rosbi_platform.config import ENVIRONMENT_VARIABLES

REPO_ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ["migrate", "web", "worker", "beat"]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def services(compose) -> dict:
    return compose["services"]


def command_text(service: dict) -> str:
    command = service["command"]
    return command if isinstance(command, str) else " ".join(command)


def env_example_values() -> dict[str, str]:
    values = {}
    for line in (REPO_ROOT / ".env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def test_expected_services_exist(services):
    assert set(services) == {"postgres", "redis", "migrate", "web", "worker", "beat", "proxy"}


def test_app_services_share_the_image_and_read_the_env_file(services):
    for name in APP_SERVICES:
        assert services[name]["env_file"] == ".env", name
        assert services[name]["image"] == "rosbi:latest", name
        assert services[name]["build"] == ".", name


def test_commands(services):
    assert command_text(services["migrate"]) == "python manage.py migrate --noinput"
    web = command_text(services["web"])
    assert web.startswith("uvicorn rosbi_platform.asgi:application")
    assert re.search(r"--workers[= ]\d+", web)
    # A client frame is a move or a chat line; uvicorn's default (16 MiB) is far too much.
    assert "--ws-max-size=65536" in web
    assert "--ws-max-size=65536" in (REPO_ROOT / "Dockerfile").read_text()
    assert command_text(services["worker"]).startswith("celery -A rosbi_platform worker")
    assert command_text(services["beat"]).startswith("celery -A rosbi_platform beat")


def test_dependencies_wait_for_health_and_migrations(services):
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ["web", "worker", "beat"]:
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        assert depends["redis"]["condition"] == "service_healthy", name
    assert services["proxy"]["depends_on"]["web"]["condition"] == "service_healthy"
    assert services["migrate"]["restart"] == "no"


def test_health_checks(services):
    for name in ["postgres", "redis", "web", "worker", "proxy"]:
        assert services[name]["healthcheck"]["test"], name
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert services["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    assert (REPO_ROOT / "deploy" / "healthcheck.py").exists()


def test_web_is_scalable_behind_the_proxy(services):
    web = services["web"]
    assert "ports" not in web and "container_name" not in web
    assert web["expose"] == ["8000"]
    assert any(mount.startswith("./deploy/Caddyfile:") for mount in services["proxy"]["volumes"])
    caddyfile = (REPO_ROOT / "deploy" / "Caddyfile").read_text()
    assert "name web" in caddyfile and "port 8000" in caddyfile


def test_exactly_one_beat(services):
    beats = [name for name, s in services.items() if "command" in s and " beat" in command_text(s)]
    assert beats == ["beat"]
    assert "deploy" not in services["beat"] and "scale" not in services["beat"]


def test_named_volumes(compose, services):
    assert set(compose["volumes"]) == {"pgdata", "redisdata", "caddydata"}
    assert "pgdata:/var/lib/postgresql/data" in services["postgres"]["volumes"]
    assert "redisdata:/data" in services["redis"]["volumes"]


def test_every_setting_variable_is_provided_by_the_env_file():
    values = env_example_values()
    for name in ENVIRONMENT_VARIABLES:
        assert name in values, f".env.example does not provide {name}"
    assert values["DEBUG"] == "false"
    assert (
        values["DATABASE_URL"].startswith("postgres://") and "@postgres:" in values["DATABASE_URL"]
    )
    assert values["REDIS_URL"] == "redis://redis:6379/0"
    for name in ["POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"]:
        assert values[name], name
    assert f":{values['POSTGRES_PASSWORD']}@" in values["DATABASE_URL"]


def test_env_example_placeholder_key_is_refused(tmp_path):
    """Starting production with the example file unchanged must fail, not run insecurely."""
    from django.core.exceptions import ImproperlyConfigured

    from rosbi_platform.config import load_config

    with pytest.raises(ImproperlyConfigured, match="placeholder"):
        load_config(env_example_values(), tmp_path)


def test_dockerfile_builds_one_image_for_all_services():
    dockerfile = (REPO_ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("#") and "FROM python:3.11" in dockerfile
    assert "pip install -e ." in dockerfile
    assert "collectstatic --noinput" in dockerfile
    assert "USER rosbi" in dockerfile
