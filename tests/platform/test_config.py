"""Settings parsing: defaults, every variable, and production refusals."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from rosbi_platform.config import (
    ENVIRONMENT_VARIABLES,
    load_config,
    parse_email_url,
    redis_url_for_celery,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k8#Zp2!vQ9rT4wX7yB1nM6cF3hJ5dL0sA2gE8uI4oP7tR9eW1qZ"
PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": STRONG_KEY,
    "ALLOWED_HOSTS": "rosbi.example",
    "DATABASE_URL": "postgres://rosbi:secret@db.internal:5432/rosbi",
    "REDIS_URL": "redis://redis.internal:6379/0",
}


def test_local_defaults(tmp_path):
    config = load_config({}, tmp_path)

    assert config.debug is True
    assert config.database["ENGINE"] == "rosbi_platform.postgresql"
    assert config.embedded_postgres_dir == tmp_path / "var" / "postgres"
    assert config.embedded_redis_socket == tmp_path / "var" / "redis" / "redis.sock"
    assert config.redis_url == f"unix://{tmp_path}/var/redis/redis.sock?db=0"
    assert (
        config.celery_broker_url == f"redis+socket://{tmp_path}/var/redis/redis.sock?virtual_host=0"
    )
    assert "localhost" in config.allowed_hosts
    assert config.csrf_trusted_origins == []
    assert config.email.backend == "django.core.mail.backends.console.EmailBackend"


def test_local_secret_key_is_generated_once_and_private(tmp_path):
    first = load_config({}, tmp_path).secret_key
    second = load_config({}, tmp_path).secret_key

    key_file = tmp_path / "var" / "secret_key"
    assert first == second
    assert len(first) >= 50
    assert key_file.read_text().strip() == first
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_every_variable_is_applied(tmp_path):
    env = {
        **PRODUCTION_ENV,
        "ALLOWED_HOSTS": "rosbi.example, www.rosbi.example",
        "CSRF_TRUSTED_ORIGINS": "https://rosbi.example,https://www.rosbi.example",
        "EMAIL_URL": "smtp://mailer:p%40ss@smtp.example:2525/?tls=true",
        "DEFAULT_FROM_EMAIL": "Rosbi <hello@rosbi.example>",
        "SECURE_HSTS_SECONDS": "600",
        "SECURE_SSL_REDIRECT": "no",
        "LOG_LEVEL": "warning",
        "GC_THRESHOLDS": "20000, 30, 40",
    }
    config = load_config(env, tmp_path)

    assert config.debug is False
    assert config.secret_key == STRONG_KEY
    assert config.allowed_hosts == ["rosbi.example", "www.rosbi.example"]
    assert config.csrf_trusted_origins == ["https://rosbi.example", "https://www.rosbi.example"]
    assert config.database["ENGINE"] == "rosbi_platform.postgresql"
    assert config.database["HOST"] == "db.internal"
    assert config.database["NAME"] == "rosbi"
    assert config.database["CONN_MAX_AGE"] == 0
    assert config.database["OPTIONS"]["pool"]["max_size"] == 10
    assert config.embedded_postgres_dir is None
    assert config.redis_url == "redis://redis.internal:6379/0"
    assert config.celery_broker_url == "redis://redis.internal:6379/0"
    assert config.embedded_redis_socket is None
    assert config.email.backend == "django.core.mail.backends.smtp.EmailBackend"
    assert (config.email.host, config.email.port) == ("smtp.example", 2525)
    assert (config.email.user, config.email.password) == ("mailer", "p@ss")
    assert config.email.use_tls is True and config.email.use_ssl is False
    assert config.default_from_email == "Rosbi <hello@rosbi.example>"
    assert config.hsts_seconds == 600
    assert config.ssl_redirect is False
    assert config.log_level == "WARNING"
    assert config.gc_thresholds == (20000, 30, 40)
    assert not (tmp_path / "var" / "secret_key").exists(), "production must not write a key"


def test_database_connections_are_a_bounded_pool(tmp_path):
    env = {
        **PRODUCTION_ENV,
        "DATABASE_URL": "postgres://rosbi:secret@db.internal:5432/rosbi?sslmode=require",
        "DATABASE_POOL_SIZE": "4",
    }
    database = load_config(env, tmp_path).database

    assert database["CONN_MAX_AGE"] == 0, "persistent per-thread connections pile up under ASGI"
    assert database["OPTIONS"]["pool"]["max_size"] == 4
    assert database["OPTIONS"]["sslmode"] == "require", "URL options survive beside the pool"
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_SIZE"):
        load_config({**env, "DATABASE_POOL_SIZE": "0"}, tmp_path)
    # The event loop's own connections for the handshake's reads (rosbi_platform/async_db.py).
    assert database["ASYNC_POOL_SIZE"] == 2
    assert (
        load_config({**env, "DATABASE_ASYNC_POOL_SIZE": "3"}, tmp_path).database["ASYNC_POOL_SIZE"]
        == 3
    )
    with pytest.raises(ImproperlyConfigured, match="DATABASE_ASYNC_POOL_SIZE"):
        load_config({**env, "DATABASE_ASYNC_POOL_SIZE": "0"}, tmp_path)


def test_only_postgresql_is_accepted(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL"):
        load_config({"DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3"}, tmp_path)
    without_url = {key: value for key, value in PRODUCTION_ENV.items() if key != "DATABASE_URL"}
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL is not set"):
        load_config(without_url, tmp_path)


def test_email_parts_without_url(tmp_path):
    env = {
        "EMAIL_HOST": "smtp.example",
        "EMAIL_PORT": "465",
        "EMAIL_HOST_USER": "u",
        "EMAIL_HOST_PASSWORD": "p",
        "EMAIL_USE_TLS": "false",
        "EMAIL_USE_SSL": "true",
    }
    email = load_config(env, tmp_path).email

    assert email.backend == "django.core.mail.backends.smtp.EmailBackend"
    assert (email.host, email.port, email.user, email.password) == ("smtp.example", 465, "u", "p")
    assert (email.use_tls, email.use_ssl) == (False, True)


def test_email_url_schemes():
    assert parse_email_url("smtps://a:b@mail.example").port == 465
    assert parse_email_url("smtps://a:b@mail.example").use_ssl is True
    assert parse_email_url("submission://mail.example").use_tls is True
    assert parse_email_url("submission://mail.example").port == 587
    assert parse_email_url("console://").backend.endswith("console.EmailBackend")
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        parse_email_url("ftp://mail.example")


def test_unix_socket_redis_url_is_translated_for_kombu():
    assert redis_url_for_celery("unix:///run/redis.sock?db=3") == (
        "redis+socket:///run/redis.sock?virtual_host=3"
    )
    assert redis_url_for_celery("rediss://h:6380/1") == "rediss://h:6380/1"


def test_production_refuses_to_start_without_secret_key(tmp_path):
    env = {key: value for key, value in PRODUCTION_ENV.items() if key != "SECRET_KEY"}
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set"):
        load_config(env, tmp_path)


def test_production_refuses_a_weak_secret_key(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="too weak"):
        load_config({**PRODUCTION_ENV, "SECRET_KEY": "short"}, tmp_path)


def test_production_needs_allowed_hosts_and_a_real_redis(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS"):
        load_config({**PRODUCTION_ENV, "ALLOWED_HOSTS": ""}, tmp_path)
    env = {key: value for key, value in PRODUCTION_ENV.items() if key != "REDIS_URL"}
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        load_config(env, tmp_path)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEBUG", "maybe"),
        ("SECURE_HSTS_SECONDS", "a year"),
        ("REDIS_URL", "http://redis:6379"),
        ("CSRF_TRUSTED_ORIGINS", "rosbi.example"),
        ("GC_THRESHOLDS", "15000,20"),
        ("GC_THRESHOLDS", "15000,-1,100"),
        ("GC_THRESHOLDS", "lots"),
    ],
)
def test_malformed_values_are_rejected(tmp_path, name, value):
    with pytest.raises(ImproperlyConfigured, match=name):
        load_config({**PRODUCTION_ENV, name: value}, tmp_path)


def run_manage(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    clean_env = {
        key: value
        for key, value in os.environ.items()
        if key not in ENVIRONMENT_VARIABLES and key != "DJANGO_SETTINGS_MODULE"
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO_ROOT,
        env={**clean_env, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_with_production_values_prints_no_warnings():
    result = run_manage(["check", "--deploy", "--fail-level", "WARNING"], PRODUCTION_ENV)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stderr


def test_manage_refuses_production_start_without_secret_key():
    env = {key: value for key, value in PRODUCTION_ENV.items() if key != "SECRET_KEY"}
    result = run_manage(["check"], env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY is not set" in result.stderr


def test_documented_variables_are_exactly_the_ones_read():
    """README and .env.example list every variable config.py reads (and nothing stale)."""
    source = (REPO_ROOT / "rosbi_platform" / "config.py").read_text()
    env_example = (REPO_ROOT / ".env.example").read_text()
    readme = (REPO_ROOT / "README.md").read_text()
    for name in ENVIRONMENT_VARIABLES:
        assert f'"{name}"' in source
        assert f"{name}=" in env_example, f"{name} missing from .env.example"
        assert f"`{name}`" in readme, f"{name} missing from the README's table"


def test_site_url_defaults_and_validation(tmp_path):
    local = load_config({}, tmp_path)
    assert local.site_url == "http://127.0.0.1:8000"
    production = {
        "DEBUG": "false",
        "SECRET_KEY": "k" * 30 + "abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "rosbi.example,www.rosbi.example",
        "REDIS_URL": "redis://redis:6379/0",
        "DATABASE_URL": "postgres://rosbi@postgres:5432/rosbi",
    }
    assert load_config(production, tmp_path).site_url == "https://rosbi.example"
    given = load_config({**production, "SITE_URL": "https://play.rosbi.example/"}, tmp_path)
    assert given.site_url == "https://play.rosbi.example"
    with pytest.raises(ImproperlyConfigured, match="SITE_URL"):
        load_config({**production, "SITE_URL": "rosbi.example"}, tmp_path)


def test_garbage_collector_thresholds_default_and_off(tmp_path):
    assert load_config({}, tmp_path).gc_thresholds == (15_000, 20, 100)
    assert load_config({"GC_THRESHOLDS": "off"}, tmp_path).gc_thresholds is None


def test_web_workers_apply_the_thresholds_and_freeze_start_up_objects():
    """The ASGI application a uvicorn worker imports tunes that worker's garbage collector."""
    probe = (
        "import gc; import rosbi_platform.asgi; "
        "print(gc.get_threshold(), gc.get_freeze_count() > 10_000)"
    )
    env = {
        **os.environ,
        "GC_THRESHOLDS": "12345,6,7",
        "DJANGO_SETTINGS_MODULE": "rosbi_platform.settings",
    }
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "(12345, 6, 7) True"
