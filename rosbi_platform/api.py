"""What every app's API (``<app>/api.py``) shares: token authentication, scopes, the one
error shape, pagination and throttles.

Programs authenticate with ``Authorization: Bearer rosbi_...`` (a personal access token, see
``rosbi_platform.accounts.tokens``); the site's own pages use the session (DRF's session
authentication enforces CSRF for unsafe methods). A token carries scopes: ``read`` for every
GET, ``play`` for table and queue actions, ``tournament:write`` for organiser writes; a
session user has every scope.

Every refusal is ``{"detail": "<a sentence for people>", "code": "...", "errors": {field:
[...]}}`` (``errors`` only for invalid input) with a 4xx status; an unexpected failure is a
500 with the same shape and no trace. API views never redirect.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import redis
from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import JSONParser
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle

from rosbi_platform.accounts.models import AccessToken
from rosbi_platform.accounts.tokens import authenticate_token
from rosbi_platform.client_ip import client_ip
from rosbi_platform.redis_clients import shared_client
from rosbi_platform.throttling import RETRY_AFTER_SECONDS, account_rate_limited, address_of

logger = logging.getLogger(__name__)

READ = AccessToken.Scope.READ.value
PLAY = AccessToken.Scope.PLAY.value
TOURNAMENT_WRITE = AccessToken.Scope.TOURNAMENT_WRITE.value


# --------------------------------------------------------------------------- authentication


class BearerTokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer <token>``; an unknown or revoked token is a 401, no header
    leaves the request to the session."""

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, AccessToken] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        keyword, _sep, secret = header.partition(" ")
        if keyword.lower() != self.keyword.lower():
            return None
        # An address that sent too many invalid tokens is refused before the look-up, so
        # tokens cannot be guessed at the API's full rate.
        address = address_of(request._request)
        if account_rate_limited(request._request, "invalid_token", address, count=False):
            raise exceptions.Throttled(wait=RETRY_AFTER_SECONDS)
        token = authenticate_token(secret.strip())
        if token is None:
            account_rate_limited(request._request, "invalid_token", address)
            raise exceptions.AuthenticationFailed(
                _("This token is not valid: it is unknown, mistyped or revoked.")
            )
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return f'{self.keyword} realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "rosbi_platform.api.BearerTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A personal access token (rosbi_...) from your profile page.",
        }


def token_of(request: Request) -> AccessToken | None:
    return request.auth if isinstance(request.auth, AccessToken) else None


def has_scope(request: Request, scope: str) -> bool:
    """Session users hold every scope; a token only those it was given."""
    token = token_of(request)
    return token is None or scope in token.scopes


class TokenScopes(BasePermission):
    """A token needs ``read`` for safe methods, else the view's ``write_scope`` (``play``
    unless the view says otherwise; ``write_scopes`` may name one per action)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            needed = READ
        else:
            needed = getattr(view, "write_scopes", {}).get(
                getattr(view, "action", None), getattr(view, "write_scope", PLAY)
            )
        if has_scope(request, needed):
            return True
        self.message = _("This token lacks the %(scope)s scope.") % {"scope": needed}
        return False


# --------------------------------------------------------------------------- errors


class ErrorSerializer(serializers.Serializer):
    """The one error shape of the API."""

    detail = serializers.CharField(help_text="A sentence for people.")
    code = serializers.CharField(help_text="A stable word for programs.")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Invalid input: the messages per field.",
    )


class Refused(exceptions.APIException):
    """A refused action: a sentence for people, a code for programs, a 4xx status."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "refused"

    def __init__(self, message: str, code: str = "refused", status_code: int = 400) -> None:
        super().__init__(message, code)
        self.status_code = status_code


@contextmanager
def refusals(*kinds: type[Exception], statuses: Mapping[str, int] | None = None) -> Iterator[None]:
    """Turn an action's refusal (``kinds``) into ``Refused``: its ``message`` (else its text),
    its ``code`` when it has one, and the status ``statuses`` gives that code (else 400)."""
    try:
        yield
    except kinds as error:
        code = getattr(error, "code", None) or "refused"
        message = getattr(error, "message", None) or str(error)
        raise Refused(message, code, (statuses or {}).get(code, 400)) from error


def _messages(value: Any) -> list[str]:
    if isinstance(value, list | tuple):
        return [text for item in value for text in _messages(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _messages(item)]
    return [str(value)]


def _field_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """A serializer's nested errors as ``{"field" or "field.sub": [messages]}``."""
    if not isinstance(detail, dict):
        return {prefix or "non_field_errors": _messages(detail)}
    flat: dict[str, list[str]] = {}
    for field, value in detail.items():
        name = f"{prefix}.{field}" if prefix else str(field)
        if isinstance(value, dict):
            flat.update(_field_errors(value, name))
        else:
            flat[name] = _messages(value)
    return flat


STATUS_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    429: "throttled",
}


def api_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response:
    """Every error of an API view in the one shape; nothing unexpected leaks a trace."""
    headers: dict[str, str] = {}
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(_("There is nothing here, or you may not see it."))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
    if isinstance(exc, exceptions.Throttled):
        wait = int(exc.wait or 1)
        headers["Retry-After"] = str(wait)
        body: dict[str, Any] = {
            "detail": _("Too many requests: try again in %(seconds)d seconds.") % {"seconds": wait},
            "code": "throttled",
        }
        return Response(body, status=429, headers=headers)
    if isinstance(exc, exceptions.ValidationError):
        errors = _field_errors(exc.detail)
        first = next(iter(errors.values()))[0] if errors else ""
        body = {
            "detail": _("Some of what you sent is not valid: %(problem)s") % {"problem": first},
            "code": "invalid",
            "errors": errors,
        }
        return Response(body, status=400)
    if isinstance(exc, exceptions.APIException):
        if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
            request = context.get("request")
            authenticators = getattr(request, "authenticators", None)
            if authenticators:
                headers["WWW-Authenticate"] = authenticators[0].authenticate_header(request)
            exc.status_code = 401 if headers else 403
        detail = exc.detail
        message = " ".join(_messages(detail)) if not isinstance(detail, str) else str(detail)
        code = getattr(exc, "default_code", None)
        if isinstance(exc, Refused):
            code = detail.code if hasattr(detail, "code") else "refused"
        elif isinstance(exc, exceptions.NotAuthenticated):
            message = _("Log in, or send a token: Authorization: Bearer rosbi_...")
        body = {"detail": message, "code": code or STATUS_CODES.get(exc.status_code, "error")}
        return Response(body, status=exc.status_code, headers=headers)
    if isinstance(exc, ValueError | DataError) and "NUL" in str(exc):
        # PostgreSQL text cannot hold a NUL character: bad input, not our failure.
        body = {"detail": _("Text must not contain NUL characters."), "code": "bad_request"}
        return Response(body, status=400)
    logger.exception("API failure in %s", context.get("view").__class__.__name__)
    body = {
        "detail": _("Something went wrong on our side. Please try again later."),
        "code": "server_error",
    }
    return Response(body, status=500)


class PayloadTooLarge(exceptions.APIException):
    """A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: refused before it is parsed."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self) -> None:
        super().__init__(body_too_large_message(), self.default_code)


def body_too_large_message() -> str:
    """The sentence for a refused oversized body (pages and API say the same)."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
    return _("What you sent is too large: at most %(size)s kB are accepted.") % {
        "size": limit // 1024
    }


# --------------------------------------------------------------------------- parsing


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with two limits that its own lacks: a body over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413 before it is read in full (DRF reads the stream,
    not ``request.body``, so Django's limit never applied), and JSON nested too deeply for
    Python's decoder (100,000 ``[``: a RecursionError, so a 500) is a 400."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context=None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and stream is not None:
            request = (parser_context or {}).get("request")
            declared = request.META.get("CONTENT_LENGTH") if request is not None else None
            if declared and str(declared).isdigit() and int(declared) > limit:
                raise PayloadTooLarge()
            body = stream.read(limit + 1)
            if len(body) > limit:
                raise PayloadTooLarge()
            stream = io.BytesIO(body)
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise exceptions.ParseError(
                _("The JSON you sent is nested too deeply to be read.")
            ) from error


# --------------------------------------------------------------------------- pagination


class Pagination(PageNumberPagination):
    """``?page=N&page_size=M`` (50 by default, at most 200): ``count``, ``next``,
    ``previous``, ``results``."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    invalid_page_message = gettext_lazy("There is no such page.")


# --------------------------------------------------------------------------- throttles


class ApiThrottle(SimpleRateThrottle):
    """Per token, per signed-in user, or per client address for anonymous callers; the
    rates are ``settings.API_THROTTLE_RATES`` (``anon``, ``user``, ``token``). A missing rate
    is no limit (tests turn the throttle off this way).

    Counted in fixed windows of the rate's duration by one Redis round trip (``INCR`` and
    ``EXPIRE`` in a pipeline) shared by every web process. DRF's own ``SimpleRateThrottle``
    keeps a list of every request's time in the cache, so each request read and wrote up to
    600 pickled floats; a fixed window may let a client send up to twice its rate across a
    window's edge, which is harmless for a read limit. When Redis does not answer, requests
    are let through (the API stays up; Redis's outage is reported by /healthz)."""

    def allow_request(self, request: Request, view: Any) -> bool:
        token = token_of(request)
        if token is not None:
            self.scope, ident = "token", token.secret_hash[:24]
        elif request.user and request.user.is_authenticated:
            self.scope, ident = "user", str(request.user.pk)
        else:
            self.scope, ident = "anon", client_ip(request) or "unknown"
        self.rate = (getattr(settings, "API_THROTTLE_RATES", None) or {}).get(self.scope)
        if not self.rate:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_ends = (window + 1) * self.duration
        key = f"rosbi:api-throttle:{self.scope}:{ident}:{window}"
        try:
            pipe = shared_client().pipeline(transaction=False)
            pipe.incr(key)
            pipe.expire(key, self.duration + 1)
            count, _ = pipe.execute()
        except redis.RedisError:
            logger.warning("API throttle: Redis did not answer; request let through")
            return True
        return count <= self.num_requests or self.throttle_failure()

    def wait(self) -> float:
        """Seconds until the current window ends (the ``Retry-After`` header)."""
        return max(1.0, self.window_ends - self.timer())

    def get_rate(self) -> str | None:
        return None

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return None


# --------------------------------------------------------------------------- renderers


class JsonLinesRenderer(BaseRenderer):
    """A list as JSON Lines (one JSON object a line), what ``python -m games.engine score``
    reads; an error object is one line."""

    media_type = "application/x-ndjson"
    format = "jsonl"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context=None):
        rows = data if isinstance(data, list) else [data]
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode()


class CsvRenderer(BaseRenderer):
    """Text already written as CSV (``tournaments.exports``); an error object as one line."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context=None):
        if isinstance(data, str):
            return data.encode()
        return (json.dumps(data, ensure_ascii=False) + "\n").encode()


def paginated(serializer_class: type[serializers.Serializer]) -> serializers.Serializer:
    """The schema of a page of ``serializer_class`` rows, for actions that paginate (the
    ``list`` actions are described as pages without it)."""
    name = serializer_class.__name__.removesuffix("Serializer")
    page = type(
        f"{name}PageSerializer",
        (serializers.Serializer,),
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializer_class(many=True),
        },
    )
    return page()
