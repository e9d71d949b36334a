"""Signal receivers: thin adapters from other apps' signals to the ratings actions."""

from __future__ import annotations

from typing import Any

from games.outcomes import PartieOutcome
from ratings.recording import record_finished_partie


def on_partie_finished(sender: Any, outcome: PartieOutcome, **kwargs: Any) -> None:
    """``games.signals.partie_finished``: store the rating job; the task runs after commit."""
    record_finished_partie(outcome)
