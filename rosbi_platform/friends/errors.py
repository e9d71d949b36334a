"""The one refusal type of the friends app."""


class RelationError(Exception):
    """A refused follow or block, with a sentence for the person who asked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
