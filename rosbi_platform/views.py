"""Site-level views: the home page, the rules for players and the health endpoint."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from rosbi_platform.health import run_checks
from tournaments.selectors import list_upcoming_tournaments


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


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when database, Redis and a Celery worker all answer; 503 naming the ones that don't."""
    report = run_checks()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
