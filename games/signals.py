"""Signals other apps connect to; the games app never imports ratings or tournaments."""

from django.dispatch import Signal

partie_finished = Signal()
"""Sent once and only once per finished Partie, inside the transaction that marks it handed off.

Keyword arguments: ``partie`` (``games.models.Partie``), ``table`` (``games.models.Table``,
with ``rated``, ``tournament_round_id`` and ``context``), ``results`` (the ``SeatResult`` rows
in seat order: ``seat``, ``user`` (None for bots), ``bot_level``, ``total``, ``place``).
A receiver that raises rolls the hand-off back, so the task can be retried without doubling.
"""
