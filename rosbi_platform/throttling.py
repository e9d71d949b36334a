"""Anonymous floods of the expensive pages get ``429 Too Many Requests``.

The pages that cost real database work (the ladder and player pages, tournament pages and
their exports, replays and records, the lobby's table list) are limited per client address
for visitors who are not logged in; a signed-in player is never throttled here (log-ins are
throttled by django-axes). The counters live in the shared cache (Redis), so every web process
counts together; the address is the one ``rosbi_platform.client_ip`` trusts.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage, is_ratelimited

from rosbi_platform.client_ip import client_ip

THROTTLED_PAGES = frozenset(
    {
        "games:tables_json",
        "games:replay",
        "games:record",
        "ratings:ladder",
        "ratings:player",
        "ratings:season",
        "tournaments:list",
        "clubs:detail",
        "clubs:season",
        "players:history",
        "tournaments:detail",
        "tournaments:state",
        "tournaments:bracket",
        "tournaments:print",
    }
)
RETRY_AFTER_SECONDS = 60


def _address(group: str, request: HttpRequest) -> str:
    return client_ip(request) or "unknown"


class AnonymousPageThrottleMiddleware:
    """Counts anonymous GETs of ``THROTTLED_PAGES`` per address (``ANONYMOUS_PAGE_RATE``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        rate = settings.ANONYMOUS_PAGE_RATE
        if not rate or request.method not in ("GET", "HEAD") or request.user.is_authenticated:
            return None
        match = request.resolver_match
        if match is None or match.view_name not in THROTTLED_PAGES:
            return None
        if not is_ratelimited(
            request, group="anonymous-pages", key=_address, rate=rate, increment=True
        ):
            return None
        response = render(request, "429.html", status=429)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


# --------------------------------------------------------------------------- account actions


def account_rate_limited(request: HttpRequest, limit: str, key: str, *, count: bool = True) -> bool:
    """Count one ``limit`` action (a name of ``settings.ACCOUNT_RATE_LIMITS``) for ``key``
    and say whether it went over the rate; a missing or empty rate is no limit.

    The actions that cost others something or help a guesser: API requests with an invalid
    token (per address), password-reset mails (per address and per target e-mail), sign-ups
    (per address) and new access tokens (per user). Counted in the shared cache like the page
    throttle, in fixed windows of the rate's period; ``count=False`` only looks."""
    rate = (getattr(settings, "ACCOUNT_RATE_LIMITS", None) or {}).get(limit)
    if not rate:
        return False
    usage = get_usage(
        request,
        group=f"account:{limit}",
        key=lambda _group, _request: key,
        rate=rate,
        increment=count,
    )
    if usage is None:
        return False
    # Counting: this action went over. Looking: the next one would.
    return usage["count"] > usage["limit"] if count else usage["count"] >= usage["limit"]


def address_of(request: HttpRequest) -> str:
    """The client address the throttles count (``rosbi_platform.client_ip``)."""
    return _address("", request)


def too_many_requests_page(request: HttpRequest) -> HttpResponse:
    response = render(request, "429.html", status=429)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
