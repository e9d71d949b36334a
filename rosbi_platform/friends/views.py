"""Follow, unfollow, block and unblock (plain forms on a player's page) and the friends page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from rosbi_platform.friends import blocks, follows, selectors
from rosbi_platform.friends.errors import RelationError


def _name(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return (profile.display_name if profile is not None else "") or user.get_username()


def _change(
    request: HttpRequest, username: str, run: Callable[[Any, Any], Any], done: str
) -> HttpResponse:
    other = get_object_or_404(get_user_model(), username=username)
    try:
        run(request.user, other)
    except RelationError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done % {"name": _name(other)})
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("friends:list")
    return redirect(target)


@login_required
@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    return _change(request, username, follows.follow_user, _("You follow %(name)s now."))


@login_required
@require_POST
def unfollow(request: HttpRequest, username: str) -> HttpResponse:
    return _change(request, username, follows.unfollow_user, _("You no longer follow %(name)s."))


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    return _change(
        request,
        username,
        blocks.block_user,
        _("You blocked %(name)s: they cannot join your tables or chat to you."),
    )


@login_required
@require_POST
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    return _change(request, username, blocks.unblock_user, _("You unblocked %(name)s."))


@login_required
@require_GET
def friends_page(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "friends/friends.html",
        {
            "following": selectors.followed_users(request.user),
            "blocked": selectors.blocked_users(request.user),
        },
    )
