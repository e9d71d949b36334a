"""Signals other apps connect to; the games app never imports ratings or tournaments."""

from django.dispatch import Signal

partie_finished = Signal()
"""Sent once and only once per finished Partie, inside the transaction that marks it handed off.

Keyword argument: ``outcome``, a ``games.outcomes.PartieOutcome`` (plain values: seats with
their players, totals, places, who left and when, rated, rating pool, tournament round).
A receiver that raises rolls the hand-off back, so the task can be retried without doubling.
"""
