"""The end of a Partie for other apps: ``partie_finished`` sent once and only once.

The hand-off is queued after the commit that finishes a Partie; should that task be lost (a
broker outage, a worker killed before it acknowledged), the sweeper hands off every Partie
finished more than ``OVERDUE`` ago and not handed off yet, so a rating or a tournament round
is never left waiting for good.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from games import selectors
from games.models import Partie
from games.signals import partie_finished
from rosbi_platform.locking import retry_on_conflict

OVERDUE = dt.timedelta(seconds=30)
SWEEP_BATCH = 200


def hand_off_partie_result(partie_id: int) -> bool:
    """Send ``partie_finished`` once and only once for a finished Partie.

    The flag flips in a conditional UPDATE, which takes the Partie's row lock; only the caller
    that flipped it sends the signal, inside the same transaction, so the receivers' writes
    (ratings, standings) commit together with the flag or not at all.
    """

    def flip_and_send() -> bool:
        with transaction.atomic():
            flipped = Partie.objects.filter(
                pk=partie_id, handed_off=False, finished_at__isnull=False
            ).update(handed_off=True, handed_off_at=timezone.now())
            if not flipped:
                return False
            outcome = selectors.partie_outcome(partie_id)
            partie_finished.send(sender=Partie, outcome=outcome)
        return True

    return retry_on_conflict(flip_and_send)


def hand_off_overdue_parties(now: dt.datetime | None = None) -> int:
    """Hand off the Parties finished before ``now - OVERDUE`` that are still waiting; returns
    how many this call handed off (another worker may have been quicker for some)."""
    cutoff = (now or timezone.now()) - OVERDUE
    waiting = Partie.objects.filter(handed_off=False, finished_at__lt=cutoff).order_by(
        "finished_at"
    )
    ids = list(waiting.values_list("pk", flat=True)[:SWEEP_BATCH])
    return sum(hand_off_partie_result(partie_id) for partie_id in ids)
