"""Site-level views: the home page, the rules for players, the health endpoint and the
security contact (``/.well-known/security.txt``)."""

import datetime as dt
import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.views.defaults import page_not_found, server_error

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


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/v1/")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A path the API does not know answers in the API's error shape; pages get the page."""
    if _is_api(request):
        body = {"detail": _("There is nothing here, or you may not see it."), "code": "not_found"}
        return JsonResponse(body, status=404)
    return page_not_found(request, exception)


def server_failure(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        body = {
            "detail": _("Something went wrong on our side. Please try again later."),
            "code": "server_error",
        }
        return JsonResponse(body, status=500)
    return server_error(request)
