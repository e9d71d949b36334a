"""The two ways input can be wrong: a move the rules forbid, or a record that makes no sense."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules forbid; the message is written for the player who tried it.

    ``move_index`` is the position of the move in the deal's move list when known (records).
    """

    def __init__(self, message: str, move_index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.move_index = move_index


class MalformedRecord(ValueError):
    """A deal or Partie set-up that is not a Rosbiratschka deal at all (wrong pack, bad JSON...)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
