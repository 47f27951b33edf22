"""The errors a user can cause, for every game and every front end.

Every one is a :class:`CardtableError`, itself a :class:`ValueError`, and its
message says what was wrong and where (which card, which line, which field).
The command line turns a :class:`CardtableError` into one line and exit
status 2; any other exception is a bug and is reported as one.

The hierarchy::

    CardtableError
     +-- NotationError        text that cannot be read as a card, move, action or layout
     |    +-- CardError           (cardtable.cards)
     |    +-- MoveError           a Klondike move (cardtable.klondike)
     |    +-- DealError           a Klondike deal, position or layout file
     +-- RulesError           rules or a table that cannot be set up
     |    +-- VariantError        a Klondike variant option or preset name
     +-- IllegalMoveError     a move or action the rules forbid here (both games)
     +-- RecordError          a game record that cannot be read (both games)
     |    +-- ReplayError         a recorded move that is illegal where it stands
     +-- SolverError          a question the solver cannot take (a bad budget, say)
     +-- StoreError           the results store cannot be opened or written
     +-- UsageError           command-line input that cannot be used

Kings Corner's own errors (:mod:`cardtable.kings_corner.errors`) are also
:class:`~cardtable.kings_corner.errors.KingsCornerError`\\ s, so a caller can
catch every error of that game at once.

>>> from cardtable.cards import Card
>>> try:
...     Card.parse("Xx")
... except CardtableError as error:
...     print(type(error).__name__)
CardError
"""

from __future__ import annotations

__all__ = [
    "CardtableError",
    "IllegalMoveError",
    "NotationError",
    "RecordError",
    "ReplayError",
    "RulesError",
    "SolverError",
    "StoreError",
    "UsageError",
]


class CardtableError(ValueError):
    """The root of every error a user can cause; the message says what and where."""


class NotationError(CardtableError):
    """Text that cannot be read as a card, a move, an action or a layout."""


class RulesError(CardtableError):
    """Rules or a table that cannot be set up (an unknown variant, too many players)."""


class IllegalMoveError(CardtableError):
    """A move or action the rules forbid in the current position; the message
    names the move and the rule."""


class RecordError(CardtableError):
    """A game record could not be read; the message names the line or field."""


class ReplayError(RecordError):
    """A recorded move or action is illegal where it stands; ``number`` counts
    from 1 and ``reason`` names the rule."""

    def __init__(self, number: int, move: object, reason: str) -> None:
        self.number = number
        self.move = move
        self.reason = reason
        super().__init__(f"move {number} ({move}) is illegal: {reason}")


class SolverError(CardtableError):
    """The solver was asked something it cannot do (a bad budget, say)."""


class StoreError(CardtableError):
    """The results store cannot be opened, read or written; the message names the file."""


class UsageError(CardtableError):
    """Command-line input that cannot be used; the message says which and why."""
