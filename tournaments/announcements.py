"""The organisers' announcements to an event's entrants: posted once (the form's token),
listed on the event page, and sent to each entrant as an in-app notice after commit."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.common import (
    NOTIFY_ANNOUNCEMENT_TASK,
    TournamentError,
    enqueue,
    locked,
    log_action,
    require_manager,
)
from tournaments.models import Announcement, Tournament
from tournaments.notify import push_changed

MAX_LENGTH = 500


def announce_to_entrants(tournament_id: int, text: str, by: Any, *, token: str) -> Announcement:
    """Post ``text`` to the event's entrants. ``token`` identifies this one posting (the form
    carries it), so a form sent twice posts and delivers once; the second call returns the
    first announcement."""
    text = " ".join(text.split())
    if not text:
        raise TournamentError(_("Write the announcement first."))
    if len(text) > MAX_LENGTH:
        raise TournamentError(
            _("An announcement has at most %(count)s characters.") % {"count": MAX_LENGTH}
        )
    if not token or len(token) > 64:
        raise TournamentError(_("The form has expired: please send it again."))

    def work(tournament: Tournament) -> Announcement:
        require_manager(by, tournament)
        if tournament.status == Tournament.Status.CANCELLED:
            raise TournamentError(_("This event was cancelled."))
        existing = Announcement.objects.filter(token=token).first()
        if existing is not None:
            if existing.tournament_id != tournament.pk:
                raise TournamentError(_("The form has expired: please send it again."))
            return existing
        try:
            with transaction.atomic():
                announcement = Announcement.objects.create(
                    tournament=tournament, author=by, text=text, token=token
                )
        except IntegrityError:  # the same token, posted concurrently to another event
            raise TournamentError(_("The form has expired: please send it again.")) from None
        log_action(tournament, by, "announce", announcement=announcement.pk)
        enqueue(NOTIFY_ANNOUNCEMENT_TASK, announcement.pk)
        push_changed(tournament.pk)
        return announcement

    return locked(Tournament, tournament_id, work)
