"""Deleting an account: the person is anonymised, everyone else's history stays as it was.

The user row itself stays (its id is what every SeatResult, rating change, standing and
tournament result of the others' tables points at), so no other player's result, rating or
history changes; only what names or reaches the person goes: user name, e-mail, password,
profile, tokens, sessions, memberships, friends and blocks, notifications, open seats, pending
entries (each app's part is its registered eraser, ``rosbi_platform.accounts.personal_data``).
Refused while the person plays at a table (they finish or leave it first) and for the last
owner of a club (they hand it over first). Deleting twice changes nothing. Every deletion is
logged: a line on the ``rosbi.audit`` logger and an entry in the admin's history of the user.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rosbi_platform.accounts.models import (
    AccessToken,
    ClubMembership,
    ClubRequest,
    Decision,
    MembershipRequest,
    Profile,
    User,
)
from rosbi_platform.accounts.personal_data import deletion_refusals, erase_personal_data

audit = logging.getLogger("rosbi.audit")

DELETED_NAME = "Deleted player"
"""The display name every deleted account shows (stored in English, like user names)."""


class AccountDeletionRefused(Exception):
    """The account cannot be deleted now; the message says why and what to do."""


def last_owner_refusal(user: Any) -> str | None:
    """The last owner of a club must hand it over before leaving the site."""
    owned = ClubMembership.objects.filter(user=user, role=ClubMembership.Role.OWNER)
    orphaned = [
        membership.club.name
        for membership in owned.select_related("club").order_by("club__name")
        if not ClubMembership.objects.filter(
            club_id=membership.club_id, role=ClubMembership.Role.OWNER
        )
        .exclude(user=user)
        .exists()
    ]
    if not orphaned:
        return None
    return _(
        "You are the last owner of %(clubs)s: make another member owner first "
        "(the club's members page), then delete your account."
    ) % {"clubs": ", ".join(orphaned)}


def erase_account_data(user: Any) -> None:
    """Accounts' own part: tokens revoked, memberships and pending requests gone."""
    now = timezone.now()
    AccessToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=now)
    ClubMembership.objects.filter(user=user).delete()
    MembershipRequest.objects.filter(user=user, status=Decision.PENDING).delete()
    ClubRequest.objects.filter(requested_by=user, status=Decision.PENDING).delete()


def delete_account(user: Any) -> bool:
    """Anonymise ``user`` for good; True when this call did it, False when it was done before.

    Raises ``AccountDeletionRefused`` (nothing changed) while the person sits at a table in
    play or is the last owner of a club."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.deleted_at is not None:
            return False
        refusals = deletion_refusals(locked)
        if refusals:
            raise AccountDeletionRefused(" ".join(refusals))
        erase_personal_data(locked)
        locked.username = f"deleted-{secrets.token_hex(6)}"
        locked.email = ""
        locked.first_name = ""
        locked.last_name = ""
        # No password and inactive: every session (Django checks both on each request) and
        # every token (``authenticate_token`` refuses inactive users) stops working at once.
        locked.set_unusable_password()
        locked.is_active = False
        locked.is_staff = False
        locked.is_superuser = False
        locked.deleted_at = timezone.now()
        locked.save()
        locked.groups.clear()
        locked.user_permissions.clear()
        Profile.objects.update_or_create(
            user=locked,
            defaults={
                "display_name": DELETED_NAME,
                "card_look": Profile.CardLook.GERMAN,
                "language": Profile.Language.ENGLISH,
                "time_zone": "Europe/Berlin",
            },
        )
        LogEntry.objects.log_actions(
            user_id=locked.pk,
            queryset=[locked],
            action_flag=CHANGE,
            change_message="Account deleted by its owner (anonymised).",
            single_object=True,
        )
        audit.info("account %s deleted by its owner", locked.pk)
    user.username, user.is_active, user.deleted_at = (
        locked.username,
        locked.is_active,
        locked.deleted_at,
    )
    return True
