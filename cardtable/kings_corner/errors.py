"""The errors of the Kings Corner engine; all are :class:`ValueError` subclasses."""

from __future__ import annotations

__all__ = ["DeckError", "IllegalActionError", "KingsCornerError", "RecordError"]


class KingsCornerError(ValueError):
    """Something about a Kings Corner table, action or record is not allowed."""


class IllegalActionError(KingsCornerError):
    """An action breaks the rules; the message says which action and why."""


class DeckError(KingsCornerError):
    """The deck cannot do what was asked (``not enough cards``, a bad deal)."""


class RecordError(KingsCornerError):
    """A game record could not be read; the message names the line or field."""
