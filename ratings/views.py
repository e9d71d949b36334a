"""Ladder pages: thin views over ``ranked_queue`` (writes) and ``selectors`` (reads)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ratings import collusion_selectors, elo, odds, profile_selectors, ranked_queue, selectors
from ratings.models import Season
from ratings.permissions import COLLUSION_REPORT
from rosbi_platform.client_ip import client_ip
from rosbi_platform.friends import selectors as friends_selectors


def _back(request: HttpRequest) -> HttpResponse:
    target = request.POST.get("next") or reverse("ratings:ladder")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}):
        target = reverse("ratings:ladder")
    return redirect(target)


@require_GET
def rating_help(request: HttpRequest) -> HttpResponse:
    """The rating in plain words, with a chart and worked examples (both languages)."""
    scale = odds.pool_scale()
    return render(
        request,
        "ratings/help.html",
        {
            "chart": odds.help_chart(scale=scale),
            "examples": odds.help_examples(scale),
            "cap": int(elo.MAX_CHANGE),
            "provisional_sigma": int(elo.PROVISIONAL_SIGMA),
        },
    )


@require_GET
def ladder(request: HttpRequest) -> HttpResponse:
    """The leaderboard, the players not ranked yet and why, the viewer's neighbourhood, the
    season and the queue widget."""
    board = selectors.ladder_board()
    around = (
        selectors.around_me(request.user, rows=board.rows)
        if request.user.is_authenticated
        else None
    )
    return render(
        request,
        "ratings/ladder.html",
        {
            "rows": board.ranked,
            "provisional": board.provisional,
            "not_ranked": board.not_ranked,
            "around": around,
            "season": selectors.open_season(),
            "past_seasons": selectors.closed_seasons(),
            "min_parties": selectors.min_parties(),
            "active_days": selectors.active_days(),
        },
    )


@login_required
@require_POST
def join_queue(request: HttpRequest) -> HttpResponse:
    try:
        ranked_queue.join_queue(request.user, ip=client_ip(request))
        messages.success(request, _("You are in the ranked queue."))
    except ranked_queue.QueueError as error:
        messages.error(request, str(error))
    return _back(request)


@login_required
@require_POST
def leave_queue(request: HttpRequest) -> HttpResponse:
    if ranked_queue.leave_queue(request.user):
        messages.info(request, _("You left the ranked queue."))
    return _back(request)


@require_GET
def queue_status(request: HttpRequest) -> JsonResponse:
    """Polled by the widget: waiting or not, and the table to go to once matched."""
    status = selectors.queue_status(request.user)
    table_url = reverse("games:table", args=[status.table_id]) if status.table_id else None
    return JsonResponse(
        {
            "waiting": status.waiting,
            "waited_seconds": status.waited_seconds,
            "queue_size": status.queue_size,
            "table_url": table_url,
        }
    )


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username)
    return render(
        request,
        "ratings/player.html",
        {
            "p": profile_selectors.player_profile(user, request.user),
            "relation": friends_selectors.relation_between(request.user, user),
            "other_username": user.get_username(),
        },
    )


@require_GET
def season(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id, closed_at__isnull=False)
    standings = season.standings.select_related("user").order_by("rank", "-mu")
    return render(request, "ratings/season.html", {"season": season, "standings": standings})


@login_required
@permission_required(COLLUSION_REPORT, raise_exception=True)
@require_GET
def collusion(request: HttpRequest) -> HttpResponse:
    """Moderators only (``ratings.view_collusion_report``, not mere staff): suspicious pairs
    and same-IP seats at ranked tables, with the addresses."""
    return render(
        request,
        "ratings/collusion.html",
        {
            "pairs": collusion_selectors.collusion_pairs(),
            "same_ip": collusion_selectors.same_ip_tables(),
        },
    )
