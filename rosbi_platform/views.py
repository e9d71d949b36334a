"""Site-level views: the home page and the health endpoint."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from rosbi_platform.health import run_checks
from tournaments.selectors import list_upcoming_tournaments


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"tournaments": list_upcoming_tournaments(limit=3)})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when database, Redis and a Celery worker all answer; 503 naming the ones that don't."""
    report = run_checks()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
