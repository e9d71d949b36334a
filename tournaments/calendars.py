"""A player's secret calendar feed URL: issue the token once, revoke it (a new one replaces it,
so an address shared by mistake stops working)."""

from __future__ import annotations

from typing import Any

from tournaments.models import CalendarToken, new_calendar_token


def issue_calendar_token(user: Any) -> CalendarToken:
    """The user's token, created on first use; the same one every time after."""
    token, _created = CalendarToken.objects.get_or_create(user=user)
    return token


def revoke_calendar_token(user: Any) -> CalendarToken:
    """Replace the user's token: the old feed URL answers 404 from now on."""
    token, created = CalendarToken.objects.get_or_create(user=user)
    if not created:
        token.token = new_calendar_token()
        token.save(update_fields=["token", "created"])
    return token
