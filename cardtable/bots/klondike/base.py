"""The base every Klondike bot builds on: a :class:`cardtable.game.Agent` of
Klondike's views and moves."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from cardtable.klondike.moves import Move
from cardtable.klondike.view import KlondikeView

__all__ = ["KlondikeBot"]


class KlondikeBot(ABC):
    """A Klondike player: it sees a :class:`KlondikeView` and picks a move
    (so it is a :class:`cardtable.game.Agent`, as every Kings Corner bot is).

    A player may keep memory within a game (what it did last, how many passes
    went by without a card moving); :meth:`new_game` clears it. :meth:`choose`
    returns one of ``view.legal_moves``, or ``None`` to stop: the player sees
    nothing worth doing and the game ends there.
    """

    #: The name used on the command line.
    name: str = ""
    #: One line for ``cardtable strategies``.
    summary: str = ""
    #: The options a strategy string may give after the name
    #: (``"expert samples=64 states=20000"``): option name to the constructor
    #: argument it sets, the type it converts to, and one line of help.
    options: ClassVar[dict[str, tuple[str, type, str]]] = {}
    #: How ``cardtable strategies`` shows an option's default where the
    #: constructor's default (None: "no limit") would not say it.
    option_defaults: ClassVar[dict[str, str]] = {}

    def new_game(self, seed: int = 0) -> None:  # noqa: B027 - optional hook, empty by default
        """Forget the last game; ``seed`` feeds any randomness the player uses."""

    @abstractmethod
    def choose(self, view: KlondikeView) -> Move | None:
        """The next move, or ``None`` to stop."""
