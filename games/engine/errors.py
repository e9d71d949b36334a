"""The two ways input can be wrong: a move the rules forbid, or a record that makes no sense."""

from __future__ import annotations

from typing import Any


class IllegalMove(ValueError):
    """A move the rules forbid; the message is written for the player who tried it.

    ``move_index`` is the position of the move in the deal's move list when known (records).
    ``reason`` names the rule that was broken and ``details`` holds its facts (card codes,
    a suit index), so that a user interface can word the refusal in its own language
    without reading the English message. Reasons: ``not_a_move``, ``deal_over``,
    ``cannot_pass`` (a trick contract), ``pass_while_able`` (the layout game: ``cards``),
    ``not_held`` (``card``), ``must_follow`` (``suit``, ``cards``), ``must_extend``
    (``cards``), ``no_row`` (``card``), ``not_finished`` (records); ``illegal`` otherwise.
    """

    def __init__(
        self,
        message: str,
        move_index: int | None = None,
        *,
        reason: str = "illegal",
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.move_index = move_index
        self.reason = reason
        self.details = details or {}


class MalformedRecord(ValueError):
    """A deal or Partie set-up that is not a Rosbiratschka deal at all (wrong pack, bad JSON...)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
