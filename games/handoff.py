"""The end of a Partie for other apps: ``partie_finished`` sent once and only once."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import selectors
from games.models import Partie
from games.signals import partie_finished
from rosbi_platform.locking import retry_on_conflict


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
