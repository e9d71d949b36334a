"""Django settings: every value that differs between machines comes from `config.load_config`."""

import os
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from rosbi_platform.config import load_config
from rosbi_platform.embedded_postgres import database_settings
from rosbi_platform.embedded_redis import ensure_embedded_redis

BASE_DIR = Path(__file__).resolve().parent.parent
CONFIG = load_config(os.environ, BASE_DIR)

DEBUG = CONFIG.debug
SECRET_KEY = CONFIG.secret_key
ALLOWED_HOSTS = CONFIG.allowed_hosts
CSRF_TRUSTED_ORIGINS = CONFIG.csrf_trusted_origins

if CONFIG.embedded_redis_socket is not None:
    # Local development: one embedded server shared by web, worker, beat and tests.
    ensure_embedded_redis(CONFIG.embedded_redis_socket)
REDIS_URL = CONFIG.redis_url
SITE_URL = CONFIG.site_url
"""The public address for absolute links (e-mails are read outside the site)."""

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "rosbi_platform",
    "rosbi_platform.accounts",
    "rosbi_platform.friends",
    "rosbi_platform.notifications",
    "games",
    "tournaments",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Errors under /api/ that no API view wrote (unknown paths, DEBUG's HTML 404) as JSON.
    "rosbi_platform.api_errors.ApiErrorShapeMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): the session passed the second factor (django-otp).
    "django_otp.middleware.OTPMiddleware",
    # Site moderators and club owners without two-factor log-in may only set it up.
    "rosbi_platform.accounts.middleware.TwoFactorRequiredMiddleware",
    "rosbi_platform.accounts.middleware.UserTimezoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "rosbi_platform.throttling.AnonymousPageThrottleMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # Refuses a log-in while the account or the address is locked out, before any password check.
    "axes.backends.AxesStandaloneBackend",
    "rosbi_platform.accounts.backends.ModelBackend",
]

ROOT_URLCONF = "rosbi_platform.urls"
WSGI_APPLICATION = "rosbi_platform.wsgi.application"
ASGI_APPLICATION = "rosbi_platform.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "rosbi_platform.notifications.context_processors.unread_notifications",
            ],
        },
    },
]

DATABASES = {"default": dict(CONFIG.database)}
if CONFIG.embedded_postgres_dir is not None:
    # Local development: one embedded server shared by web, worker, beat and tests.
    DATABASES["default"].update(database_settings(CONFIG.embedded_postgres_dir))
# seed_demo keeps the demo log-ins here for runplatform's start-up box (make run's own data
# only: not with a DATABASE_URL of yours, not in CI).
DEMO_LOGINS_FILE = (
    CONFIG.var_dir / "demo-logins.json" if CONFIG.embedded_postgres_dir is not None else None
)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = CONFIG.var_dir / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# In development whitenoise serves straight from the app/static folders: no collectstatic step.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

EMAIL_BACKEND = CONFIG.email.backend
EMAIL_HOST = CONFIG.email.host
EMAIL_PORT = CONFIG.email.port
EMAIL_HOST_USER = CONFIG.email.user
EMAIL_HOST_PASSWORD = CONFIG.email.password
EMAIL_USE_TLS = CONFIG.email.use_tls
EMAIL_USE_SSL = CONFIG.email.use_ssl
DEFAULT_FROM_EMAIL = CONFIG.default_from_email
SERVER_EMAIL = CONFIG.default_from_email

# Channels: the pub/sub layer measured ~6x the throughput of RedisChannelLayer at a tenth of
# its p99, and RedisChannelLayer failed with "Too many connections" above ~100 group sends.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL]},
    }
}

# Celery (read by rosbi_platform/celery.py through the CELERY_ namespace).
CELERY_BROKER_URL = CONFIG.celery_broker_url
CELERY_RESULT_BACKEND = CONFIG.celery_broker_url
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Ride out a broker outage however long it lasts, and give a task whose worker process died
# (kill -9, out of memory) back to the queue instead of acknowledging it as failed: every
# task is idempotent, so running it again is safe. An unacknowledged task of a worker that
# vanished entirely comes back after the visibility timeout; the sweepers (clocks, bots,
# hand-offs) heal sooner.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = TIME_ZONE

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The token first: a request without credentials is then a 401 with WWW-Authenticate.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rosbi_platform.api.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
        "rosbi_platform.api.TokenScopes",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rosbi_platform.api.BoundedJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "rosbi_platform.api.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_CLASSES": ["rosbi_platform.api.ApiThrottle"],
    "EXCEPTION_HANDLER": "rosbi_platform.api.api_exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
# Requests per client: anonymous per address, signed-in users and tokens each on their own.
API_THROTTLE_RATES = {"anon": "60/min", "user": "600/min", "token": "600/min"}
# "Download my data" reads every app: per person, page and API together ("off": no limit).
PERSONAL_DATA_EXPORT_RATE = "5/h"
SPECTACULAR_SETTINGS = {
    "TITLE": "Rosbi API",
    "DESCRIPTION": (
        "Tables, tournaments and ratings of the Rosbiratschka platform. Programs send a "
        "personal access token (profile page) as `Authorization: Bearer rosbi_...`; every "
        "error is `{detail, code, errors?}`. See docs/api.md and docs/protocol.md."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc from the site's own static files (drf-spectacular-sidecar): the
    # content security policy allows scripts from 'self' only, and club rooms may be offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "ENUM_NAME_OVERRIDES": {
        "TableStatusEnum": "games.models.Table.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "RoundTableStatusEnum": "tournaments.models.RoundTable.Status",
        "ScopeEnum": "rosbi_platform.accounts.models.AccessToken.Scope",
        "ClubRoleEnum": "rosbi_platform.accounts.models.ClubMembership.Role",
        "WindowEnum": "tournaments.models.Tournament.Window",
        "LayoutEnum": "games.serializers.LAYOUT_CHOICES",
    },
}

# Django's database sessions, the one row read by a prepared statement (rosbi_platform/sessions.py).
SESSION_ENGINE = "rosbi_platform.sessions"

# Production hardening: `manage.py check --deploy` must print no warnings with DEBUG=false.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = CONFIG.ssl_redirect
    # Health probes from the container network come in over plain http.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = CONFIG.hsts_seconds
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    USE_X_FORWARDED_HOST = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content security policy: scripts and styles only from this site, no inline scripts, no
# eval; websockets to this host ('self' covers ws:/wss: of the same host in CSP 3). Inline
# style attributes stay allowed: the table and replay position cards with them.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Log-in throttling (django-axes): five wrong passwords for one user name from one address
# lock that name at that address (never the owner logging in from elsewhere), and twenty from
# one address over any names lock the address, for 15 minutes; a right password resets the
# count (rosbi_platform/accounts/lockout.py). The client address is read as
# rosbi_platform.client_ip reads it (X-Forwarded-For only from trusted proxies).
TRUSTED_PROXIES = CONFIG.trusted_proxies
LOGIN_FAILURE_LIMITS = {"pair": 5, "address": 20}
AXES_HANDLER = "rosbi_platform.accounts.lockout.LockoutHandler"
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMITS["pair"]
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_USERNAME_CALLABLE = "rosbi_platform.accounts.lockout.login_username"
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "rosbi_platform.client_ip.client_ip"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

# Two-factor log-in (django-otp, docs/accounts.md): authenticator apps show this issuer name;
# wrong codes back off exponentially per device (1, 2, 4, ... seconds), and a pending log-in
# is dropped after TWO_FACTOR_MAX_TRIES wrong codes (the password is asked again).
OTP_TOTP_ISSUER = "Rosbi"
# The admin lists devices but never shows their secrets or QR codes.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True
TWO_FACTOR_MAX_TRIES = 5
TWO_FACTOR_RECOVERY_CODES = 10
# E-mail verification links stay valid this long; a new one can be asked for once a minute.
EMAIL_VERIFICATION_MAX_AGE = 3 * 24 * 3600
EMAIL_VERIFICATION_RESEND_SECONDS = 60

# A cache every process shares (Redis): the anonymous page throttle counts across processes.
CACHES = {
    "default": {
        "BACKEND": "rosbi_platform.redis_clients.ReusingRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "rosbi",
    }
}
RATELIMIT_USE_CACHE = "default"
# Account actions limited by django-ratelimit (rosbi_platform.throttling.account_rate_limited),
# "count/period" with period s, m, h or d; over the rate: HTTP 429. The per-e-mail reset
# limit answers as if the mail went out, so it tells nobody whether an address is known.
ACCOUNT_RATE_LIMITS = {
    "invalid_token": "20/m",  # API requests with an unknown or revoked token, per address
    "password_reset_address": "10/h",  # password-reset requests, per address
    "password_reset_email": "3/h",  # password-reset mails, per target e-mail
    "signup": "10/h",  # sign-up attempts, per address
    "token_create": "10/h",  # new personal access tokens, per user
}
ANONYMOUS_PAGE_RATE = CONFIG.anonymous_page_rate
GC_THRESHOLDS = CONFIG.gc_thresholds

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": CONFIG.log_level},
    # Django adds its own console handler; keep one line per record.
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # The embedded server's wrapper narrates every start at INFO.
        "embedded_postgres": {"level": "WARNING"},
    },
}
