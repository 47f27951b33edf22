"""The errors of the Kings Corner engine.

Each is a :class:`KingsCornerError` and also the matching kind of
:class:`~cardtable.errors.CardtableError` (see :mod:`cardtable.errors`), so a
caller may catch every error of this game at once, or one kind of error of
either game.
"""

from __future__ import annotations

from cardtable.errors import CardtableError, IllegalMoveError, NotationError, RecordError, RulesError

__all__ = ["ActionNotationError", "DeckError", "IllegalActionError", "KingsCornerError", "RecordError", "TableError"]


class KingsCornerError(CardtableError):
    """Something about a Kings Corner table, action or record is not allowed."""


class IllegalActionError(IllegalMoveError, KingsCornerError):
    """An action breaks the rules; the message says which action and why."""


class ActionNotationError(NotationError, KingsCornerError):
    """An action or pile name could not be read; the message names the text."""


class TableError(RulesError, KingsCornerError):
    """A table that cannot be set up: the number of players, an unknown bot."""


class DeckError(RulesError, KingsCornerError):
    """The deck cannot do what was asked (``not enough cards``, a bad deal)."""
