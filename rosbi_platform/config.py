"""Turn environment variables into one typed, validated configuration object.

`load_config` is a pure function of a mapping so the tests can feed it dicts; `settings.py`
applies it to `os.environ`. Nothing here touches the network, and the only file it may write
is the generated local secret key (never in production, where a missing key is an error).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}
MIN_SECRET_KEY_LENGTH = 50
EMBEDDED_REDIS_SOCKET_NAME = "redis.sock"
EMBEDDED_POSTGRES_DIR_NAME = "postgres"
DEFAULT_POOL_SIZE = 10
DEFAULT_ASYNC_POOL_SIZE = 2
DEFAULT_ANONYMOUS_PAGE_RATE = "60/m"
POOL_TIMEOUT_SECONDS = 10
# Django's PostgreSQL backend with Rosbi's pool check (rosbi_platform/postgresql/base.py).
DATABASE_ENGINE = "rosbi_platform.postgresql"
# Python's default (700, 10, 10) runs a full collection every few seconds in a web worker with
# thousands of open sockets: each pauses every socket and request of the process for 100-400 ms
# (measured: docs/performance.md, "Garbage collector pauses"). A larger first generation lets
# short-lived request and frame objects die young and makes full collections rare.
DEFAULT_GC_THRESHOLDS = (15_000, 20, 100)

# Every variable the settings read, with a one-line meaning: README, .env.example and the
# compose test are checked against this list so they cannot drift apart.
ENVIRONMENT_VARIABLES: dict[str, str] = {
    "DEBUG": "true for local development (default), false in production",
    "SECRET_KEY": "50+ random characters; required when DEBUG is false",
    "ALLOWED_HOSTS": "comma-separated host names the site answers to",
    "CSRF_TRUSTED_ORIGINS": "comma-separated origins (scheme://host) allowed to POST",
    "DATABASE_URL": "PostgreSQL 15+ URL; default (DEBUG only) the embedded PostgreSQL in var/",
    "DATABASE_POOL_SIZE": "most database connections one process holds (default 10)",
    "DATABASE_ASYNC_POOL_SIZE": "most connections a process's event loop adds for websocket "
    "handshake reads (default 2; a process holds at most the two sizes together)",
    "REDIS_URL": "Redis URL for channels, Celery broker and results; default embedded Redis",
    "EMAIL_URL": "smtp://user:pass@host:587/?tls=true (or smtps://, console://)",
    "EMAIL_HOST": "SMTP host when EMAIL_URL is not used",
    "EMAIL_PORT": "SMTP port (default 587)",
    "EMAIL_HOST_USER": "SMTP user name",
    "EMAIL_HOST_PASSWORD": "SMTP password",
    "EMAIL_USE_TLS": "STARTTLS (default true)",
    "EMAIL_USE_SSL": "implicit TLS (default false)",
    "DEFAULT_FROM_EMAIL": "sender address of the site's e-mails",
    "SECURE_HSTS_SECONDS": "HSTS max-age in production (default one year)",
    "SECURE_SSL_REDIRECT": "redirect http to https in production (default true)",
    "LOG_LEVEL": "root log level (default INFO)",
    "GC_THRESHOLDS": "web workers' garbage collector thresholds (default 15000,20,100; off: Python's)",
    "SITE_URL": "the site's public address for links in e-mails (default https://first host)",
    "TRUSTED_PROXIES": "comma-separated proxy addresses or networks whose X-Forwarded-For is believed",
    "ANONYMOUS_PAGE_RATE": "expensive pages per address for visitors not logged in (default 60/m, off)",
}


@dataclass(frozen=True)
class EmailConfig:
    """How the site sends e-mail: console locally, SMTP in production."""

    backend: str = "django.core.mail.backends.console.EmailBackend"
    host: str = "localhost"
    port: int = 25
    user: str = ""
    password: str = ""
    use_tls: bool = False
    use_ssl: bool = False


@dataclass(frozen=True)
class Config:
    """Everything the settings need, already parsed and checked."""

    base_dir: Path
    var_dir: Path
    debug: bool
    secret_key: str
    allowed_hosts: list[str]
    csrf_trusted_origins: list[str]
    database: dict[str, Any]
    embedded_postgres_dir: Path | None
    redis_url: str
    celery_broker_url: str
    embedded_redis_socket: Path | None
    email: EmailConfig
    default_from_email: str
    hsts_seconds: int
    ssl_redirect: bool
    log_level: str
    site_url: str = "http://127.0.0.1:8000"
    trusted_proxies: tuple[str, ...] = ()
    anonymous_page_rate: str | None = DEFAULT_ANONYMOUS_PAGE_RATE
    gc_thresholds: tuple[int, int, int] | None = DEFAULT_GC_THRESHOLDS


def parse_bool(name: str, raw: str | None, default: bool) -> bool:
    """Read a yes/no variable strictly: a typo must not silently flip production to debug."""
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {raw!r}.")


def parse_list(raw: str | None) -> list[str]:
    """Comma-separated list, blanks dropped."""
    if not raw:
        return []
    return [item.strip() for item in raw.split(",") if item.strip()]


def parse_networks(name: str, raw: str | None) -> tuple[str, ...]:
    """Comma-separated IP addresses or networks (CIDR), checked here so a typo fails at start."""
    import ipaddress

    networks = []
    for item in parse_list(raw):
        try:
            networks.append(str(ipaddress.ip_network(item, strict=False)))
        except ValueError as error:
            raise ImproperlyConfigured(f"{name}: {item!r} is not an address or network.") from error
    return tuple(networks)


def parse_rate(name: str, raw: str | None) -> str | None:
    """A request rate such as ``60/m`` (per s, m, h or d), or ``off`` for none."""
    import re

    if raw is None or not raw.strip():
        return DEFAULT_ANONYMOUS_PAGE_RATE
    text = raw.strip().lower()
    if text in FALSE_WORDS:
        return None
    if not re.fullmatch(r"[1-9][0-9]*/[0-9]*[smhd]", text):
        raise ImproperlyConfigured(f"{name} must look like 60/m (or off), got {raw!r}.")
    return text


def parse_int(name: str, raw: str | None, default: int) -> int:
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}.") from error


def redis_url_for_celery(redis_url: str) -> str:
    """Kombu spells unix sockets `redis+socket://`; redis-py spells them `unix://`."""
    parts = urlsplit(redis_url)
    if parts.scheme != "unix":
        return redis_url
    database = parse_qs(parts.query).get("db", ["0"])[0]
    return f"redis+socket://{parts.path}?virtual_host={database}"


def pooled_connection_options(pool_size: int) -> dict[str, Any]:
    """A bounded psycopg pool per process instead of persistent per-thread connections.

    Under ASGI every request may run on another thread, and ``CONN_MAX_AGE`` keeps one
    connection per thread: a crawl piled them up until PostgreSQL refused everyone. A pool of
    at most ``pool_size`` connections per process bounds the total whatever the traffic; a
    request that finds all of them busy waits up to ``POOL_TIMEOUT_SECONDS``. Each connection
    is checked as it leaves the pool, unless it came back less than a second ago
    (`rosbi_platform.db_pool`), so after a database restart no request gets a dead one.
    """
    from rosbi_platform import db_pool

    return {
        "CONN_MAX_AGE": 0,
        # Off: Django would check every connection leaving the pool (a round trip per database
        # call); DATABASE_ENGINE's pool uses `db_pool.check_unless_recently_used` instead.
        "CONN_HEALTH_CHECKS": False,
        "OPTIONS": {
            "pool": {
                "min_size": 1,
                "max_size": pool_size,
                "timeout": POOL_TIMEOUT_SECONDS,
                "max_idle": 60,
                "reset": db_pool.note_returned,
            }
        },
    }


def parse_email_url(url: str) -> EmailConfig:
    """Parse EMAIL_URL: smtp:// (STARTTLS with ?tls=true), smtps:// (implicit TLS), console://."""
    parts = urlsplit(url)
    if parts.scheme == "console":
        return EmailConfig()
    if parts.scheme not in {"smtp", "smtps", "submission"}:
        raise ImproperlyConfigured(f"EMAIL_URL scheme must be smtp, smtps or console: {url!r}.")
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    use_ssl = parts.scheme == "smtps" or parse_bool("EMAIL_URL ssl", query.get("ssl"), False)
    use_tls = parts.scheme == "submission" or parse_bool("EMAIL_URL tls", query.get("tls"), False)
    default_port = 465 if use_ssl else 587 if use_tls else 25
    return EmailConfig(
        backend="django.core.mail.backends.smtp.EmailBackend",
        host=parts.hostname or "localhost",
        port=parts.port or default_port,
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        use_tls=use_tls and not use_ssl,
        use_ssl=use_ssl,
    )


def local_secret_key(var_dir: Path) -> str:
    """Generate the development key once into var/secret_key so sessions survive restarts."""
    key_file = var_dir / "secret_key"
    if key_file.exists():
        return key_file.read_text().strip()
    var_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(64)
    key_file.write_text(key + "\n")
    key_file.chmod(0o600)
    return key


def check_production_secret_key(key: str) -> None:
    if not key:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG=false (production) Rosbi refuses to start "
            "without one: set SECRET_KEY to 50 or more random characters, e.g. "
            "`python -c 'import secrets; print(secrets.token_urlsafe(64))'`."
        )
    if key.startswith(("change-me", "django-insecure-")):
        raise ImproperlyConfigured(
            "SECRET_KEY still holds the placeholder from .env.example: generate a real one."
        )
    if len(key) < MIN_SECRET_KEY_LENGTH or len(set(key)) < 5:
        raise ImproperlyConfigured(
            f"SECRET_KEY is too weak for production: use at least {MIN_SECRET_KEY_LENGTH} "
            "random characters."
        )


def load_config(env: Mapping[str, str], base_dir: Path) -> Config:
    """Build the configuration from an environment mapping; raise ImproperlyConfigured on error."""
    base_dir = Path(base_dir)
    var_dir = base_dir / "var"
    debug = parse_bool("DEBUG", env.get("DEBUG"), default=True)

    secret_key = env.get("SECRET_KEY", "").strip()
    if debug:
        secret_key = secret_key or local_secret_key(var_dir)
    else:
        check_production_secret_key(secret_key)

    allowed_hosts = parse_list(env.get("ALLOWED_HOSTS"))
    if not allowed_hosts:
        if not debug:
            raise ImproperlyConfigured(
                "ALLOWED_HOSTS is empty. With DEBUG=false set it to the site's host names, "
                "e.g. ALLOWED_HOSTS=rosbi.example."
            )
        allowed_hosts = ["localhost", "127.0.0.1", "[::1]", "testserver"]

    csrf_trusted_origins = parse_list(env.get("CSRF_TRUSTED_ORIGINS"))
    for origin in csrf_trusted_origins:
        if "://" not in origin:
            raise ImproperlyConfigured(
                f"CSRF_TRUSTED_ORIGINS entries need a scheme (https://...): {origin!r}."
            )

    database_url = env.get("DATABASE_URL", "").strip()
    pool_size = parse_int("DATABASE_POOL_SIZE", env.get("DATABASE_POOL_SIZE"), DEFAULT_POOL_SIZE)
    if pool_size < 1:
        raise ImproperlyConfigured(f"DATABASE_POOL_SIZE must be at least 1, got {pool_size}.")
    embedded_postgres_dir: Path | None = None
    if database_url:
        database = dict(dj_database_url.parse(database_url))
        if database.get("ENGINE") != "django.db.backends.postgresql":
            raise ImproperlyConfigured(
                f"DATABASE_URL must name a PostgreSQL server (postgres://...): {database_url!r}."
            )
        database["ENGINE"] = DATABASE_ENGINE
    elif debug:
        # Completed by settings.py, which starts the embedded server and knows its socket.
        embedded_postgres_dir = var_dir / EMBEDDED_POSTGRES_DIR_NAME
        database = {"ENGINE": DATABASE_ENGINE}
    else:
        raise ImproperlyConfigured(
            "DATABASE_URL is not set. The embedded PostgreSQL is for local development only; "
            "with DEBUG=false point DATABASE_URL at a PostgreSQL 15+ server, e.g. "
            "postgres://rosbi:password@postgres:5432/rosbi."
        )
    async_pool_size = parse_int(
        "DATABASE_ASYNC_POOL_SIZE", env.get("DATABASE_ASYNC_POOL_SIZE"), DEFAULT_ASYNC_POOL_SIZE
    )
    if async_pool_size < 1:
        raise ImproperlyConfigured(
            f"DATABASE_ASYNC_POOL_SIZE must be at least 1, got {async_pool_size}."
        )
    pooled = pooled_connection_options(pool_size)
    database["OPTIONS"] = {**database.get("OPTIONS", {}), **pooled.pop("OPTIONS")}
    database.update(pooled)
    # Read by rosbi_platform.async_db (Django ignores keys it does not know).
    database["ASYNC_POOL_SIZE"] = async_pool_size

    redis_url = env.get("REDIS_URL", "").strip()
    embedded_socket: Path | None = None
    if not redis_url:
        if not debug:
            raise ImproperlyConfigured(
                "REDIS_URL is not set. The embedded Redis is for local development only; "
                "with DEBUG=false point REDIS_URL at a real server, e.g. redis://redis:6379/0."
            )
        embedded_socket = var_dir / "redis" / EMBEDDED_REDIS_SOCKET_NAME
        redis_url = f"unix://{embedded_socket}?db=0"
    elif urlsplit(redis_url).scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(
            f"REDIS_URL must be redis://, rediss:// or unix://: {redis_url!r}."
        )

    email_url = env.get("EMAIL_URL", "").strip()
    email = parse_email_url(email_url) if email_url else email_from_parts(env)

    site_url = env.get("SITE_URL", "").strip().rstrip("/")
    if not site_url:
        # Links in e-mails need a host: locally the dev server, in production the first host.
        site_url = "http://127.0.0.1:8000" if debug else f"https://{allowed_hosts[0]}"
    elif urlsplit(site_url).scheme not in {"http", "https"} or not urlsplit(site_url).netloc:
        raise ImproperlyConfigured(f"SITE_URL must look like https://rosbi.example: {site_url!r}.")

    return Config(
        base_dir=base_dir,
        var_dir=var_dir,
        debug=debug,
        secret_key=secret_key,
        allowed_hosts=allowed_hosts,
        csrf_trusted_origins=csrf_trusted_origins,
        database=database,
        embedded_postgres_dir=embedded_postgres_dir,
        redis_url=redis_url,
        celery_broker_url=redis_url_for_celery(redis_url),
        embedded_redis_socket=embedded_socket,
        email=email,
        default_from_email=env.get("DEFAULT_FROM_EMAIL", "Rosbi <noreply@localhost>"),
        hsts_seconds=parse_int("SECURE_HSTS_SECONDS", env.get("SECURE_HSTS_SECONDS"), 31_536_000),
        ssl_redirect=parse_bool("SECURE_SSL_REDIRECT", env.get("SECURE_SSL_REDIRECT"), True),
        log_level=env.get("LOG_LEVEL", "INFO").upper(),
        site_url=site_url,
        trusted_proxies=parse_networks("TRUSTED_PROXIES", env.get("TRUSTED_PROXIES")),
        anonymous_page_rate=parse_rate("ANONYMOUS_PAGE_RATE", env.get("ANONYMOUS_PAGE_RATE")),
        gc_thresholds=parse_gc_thresholds(env.get("GC_THRESHOLDS")),
    )


def parse_gc_thresholds(raw: str | None) -> tuple[int, int, int] | None:
    """Three positive integers for `gc.set_threshold`, or None (`off`) for Python's defaults."""
    if raw is None or not raw.strip():
        return DEFAULT_GC_THRESHOLDS
    text = raw.strip().lower()
    if text in FALSE_WORDS:
        return None
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 3 or not all(part.isdigit() and int(part) > 0 for part in parts):
        raise ImproperlyConfigured(
            f"GC_THRESHOLDS must be three positive whole numbers such as 15000,20,100 "
            f"(or off): {raw!r}."
        )
    first, second, third = (int(part) for part in parts)
    return first, second, third


def email_from_parts(env: Mapping[str, str]) -> EmailConfig:
    """Fallback to Django-style EMAIL_HOST/EMAIL_PORT/... variables when EMAIL_URL is absent."""
    host = env.get("EMAIL_HOST", "").strip()
    if not host:
        return EmailConfig()
    return EmailConfig(
        backend="django.core.mail.backends.smtp.EmailBackend",
        host=host,
        port=parse_int("EMAIL_PORT", env.get("EMAIL_PORT"), 587),
        user=env.get("EMAIL_HOST_USER", ""),
        password=env.get("EMAIL_HOST_PASSWORD", ""),
        use_tls=parse_bool("EMAIL_USE_TLS", env.get("EMAIL_USE_TLS"), True),
        use_ssl=parse_bool("EMAIL_USE_SSL", env.get("EMAIL_USE_SSL"), False),
    )
