"""Site-level views: the home page, the rules for players, the health endpoint and the
security contact (``/.well-known/security.txt``)."""

import datetime as dt
import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.views.defaults import bad_request as bad_request_page
from django.views.defaults import page_not_found, server_error

from rosbi_platform.api import body_too_large_message
from rosbi_platform.api_errors import api_error_response, is_api
from rosbi_platform.health import run_checks
from tournaments.selectors import list_upcoming_tournaments

logger = logging.getLogger("rosbi_platform.health")


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"tournaments": list_upcoming_tournaments(limit=3)})


RULES_LANGUAGES = ("en", "de")


def rules(request: HttpRequest) -> HttpResponse:
    """The rules written for players, one hand-written page per language (long prose reads
    better translated as a whole than sentence by sentence)."""
    language = (get_language() or "en").split("-")[0]
    if language not in RULES_LANGUAGES:
        language = "en"
    return render(request, f"rules/rules.{language}.html")


def security_contact() -> str:
    """The address problems go to: security@ the site's public host (``SITE_URL``)."""
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"security@{host}"


@require_GET
def security_txt(request: HttpRequest) -> HttpResponse:
    """RFC 9116: where to report a security problem, so finders need not guess. The
    ``Expires`` date moves with every answer (one year ahead): the file never goes stale."""
    expires = (timezone.now() + dt.timedelta(days=365)).replace(microsecond=0)
    lines = [
        f"Contact: mailto:{security_contact()}",
        f"Expires: {expires.astimezone(dt.UTC).strftime('%Y-%m-%dT%H:%M:%SZ')}",
        "Preferred-Languages: en, de",
        f"Canonical: {settings.SITE_URL.rstrip('/')}/.well-known/security.txt",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")


class _Health:
    """Whether this process has answered /healthz with 200 yet."""

    seen_ok = False


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when database, Redis and a Celery worker all answer; 503 naming the ones that don't.

    A 503 is the probe's answer, not a server error: it is logged here once, at INFO while
    this process has never been healthy (the platform is starting: the worker is not up yet)
    and at WARNING after that, instead of Django's ERROR line for every 5xx response.
    """
    report = run_checks()
    if report["status"] == "ok":
        _Health.seen_ok = True
        return JsonResponse(report, status=200)
    response = JsonResponse(report, status=503)
    response._has_been_logged = True  # type: ignore[attr-defined]  # see django.utils.log
    level = logging.WARNING if _Health.seen_ok else logging.INFO
    logger.log(level, "healthz: degraded, failing: %s", ", ".join(report["failing"]))
    return response


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A path the API does not know answers in the API's error shape; pages get the page."""
    if is_api(request):
        return api_error_response(404)
    return page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's refusals of a request it cannot take (SuspiciousOperation). A body over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413 saying so, not a bare 400."""
    status = 413 if isinstance(exception, RequestDataTooBig) else 400
    if is_api(request):
        return api_error_response(status)
    if status == 413:
        return render(request, "413.html", {"message": body_too_large_message()}, status=413)
    return bad_request_page(request, exception)


def server_failure(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        return api_error_response(500)
    return server_error(request)
