"""`make run` friction: quiet 503s of /healthz while the platform starts, and `make reset`."""

from __future__ import annotations

import logging
import os
import subprocess
from pathlib import Path

import pytest

from rosbi_platform import views
from tests.platform.test_healthz import broker_url_on_unused_database

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def django_request_records(caplog):
    """caplog, also hearing ``django.request`` (the "django" logger does not propagate to the
    root logger, where caplog listens): that is where Django logs every 5xx as an ERROR."""
    django_request = logging.getLogger("django.request")
    django_request.addHandler(caplog.handler)
    try:
        yield caplog
    finally:
        django_request.removeHandler(caplog.handler)


@pytest.mark.django_db
def test_the_expected_503s_of_healthz_are_no_error_lines(
    client, redis_url, settings, django_request_records, monkeypatch
):
    """While no worker answers yet (the platform is starting) /healthz answers 503, logged at
    INFO; after the process was healthy once, a 503 is a WARNING. Never Django's ERROR line."""
    caplog = django_request_records
    settings.CELERY_BROKER_URL = broker_url_on_unused_database(settings.CELERY_BROKER_URL)
    monkeypatch.setattr(views._Health, "seen_ok", False)
    with caplog.at_level(logging.INFO):
        assert client.get("/healthz").status_code == 503
        assert client.get("/no-such-page-for-sure/").status_code == 404  # Django is heard
    assert {r.levelno for r in caplog.records if r.name == "django.request"} == {logging.WARNING}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    starting = [r for r in caplog.records if r.name == "rosbi_platform.health"]
    assert [r.levelno for r in starting] == [logging.INFO]
    assert "celery" in starting[0].getMessage()

    caplog.clear()
    monkeypatch.setattr(views._Health, "seen_ok", True)
    with caplog.at_level(logging.INFO):
        assert client.get("/healthz").status_code == 503
    assert [(r.name, r.levelno) for r in caplog.records if r.levelno >= logging.WARNING] == [
        ("rosbi_platform.health", logging.WARNING)
    ]


def make_reset(
    var: Path, answer: str | None = None, yes: bool = False
) -> subprocess.CompletedProcess:
    command = ["make", "--no-print-directory", "-s", "reset", f"VAR={var}"]
    if yes:
        command.append("YES=1")
    return subprocess.run(
        command, cwd=REPO_ROOT, input=answer, capture_output=True, text=True, timeout=30
    )


def local_data(var: Path) -> list[str]:
    for folder in ("postgres", "redis", "staticfiles"):
        (var / folder).mkdir(parents=True, exist_ok=True)
        (var / folder / "data").write_text("x")
    (var / "demo-logins.json").write_text("{}")
    (var / "secret_key").write_text("k")
    return sorted(p.name for p in var.iterdir())


def test_make_reset_asks_then_deletes_the_local_data(tmp_path):
    var = tmp_path / "var"
    local_data(var)
    kept = make_reset(var, answer="n\n")
    assert kept.returncode != 0 and "Nothing deleted" in kept.stdout
    assert (var / "postgres" / "data").exists()

    done = make_reset(var, answer="y\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.name for p in var.iterdir()) == ["staticfiles"]

    local_data(var)
    assert make_reset(var, yes=True).returncode == 0
    assert not (var / "postgres").exists() and not (var / "demo-logins.json").exists()

    # A server still running on that data: refused, nothing deleted.
    local_data(var)
    (var / "postgres" / "postmaster.pid").write_text(f"{os.getpid()}\n")
    running = make_reset(var, yes=True)
    assert running.returncode != 0 and "stop make run first" in running.stdout
    assert (var / "postgres" / "data").exists()
