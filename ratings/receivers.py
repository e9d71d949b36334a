"""Signal receivers: thin adapters from other apps' signals to ``ratings.services``."""

from __future__ import annotations

from typing import Any

from games.outcomes import PartieOutcome
from ratings import services


def on_partie_finished(sender: Any, outcome: PartieOutcome, **kwargs: Any) -> None:
    """``games.signals.partie_finished``: store the rating job; the task runs after commit."""
    services.record_finished_partie(outcome)
