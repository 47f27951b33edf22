"""The two lines under the Klondike table: the status bar (moves, time,
score or balance, passes, the deal, the solver's verdict) and the message
line (what just happened, or what to do next)."""

from __future__ import annotations

from collections.abc import Callable

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from cardtable.klondike import KlondikeGame

__all__ = ["MessageLine", "StatusBar", "clock_text", "dollars"]


class StatusBar(Widget):
    """The facts of the game in one line; ``clock()`` gives the seconds the
    game has taken, read whenever the line is drawn (and once a second)."""

    #: The game shown; it changes in place, so every assignment redraws.
    game: reactive[KlondikeGame] = reactive(KlondikeGame, always_update=True)
    #: The deal's number (None: not known) and whether it counts winnable deals.
    seed: reactive[int | None] = reactive(None)
    winnable: reactive[bool] = reactive(False)
    #: The date of the daily deal the game is (None: not one).
    daily: reactive[str | None] = reactive(None)
    #: The difficulty of a graded deal (None: not one).
    grade: reactive[str | None] = reactive(None)
    #: Under Vegas scoring, the balance carried from game to game, this game's
    #: included (None: each game alone).
    balance: reactive[int | None] = reactive(None)
    #: True once the solver has proven the game lost.
    proven_lost: reactive[bool] = reactive(False)

    def __init__(self, game: KlondikeGame, clock: Callable[[], float], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(StatusBar.game, game)
        self._clock = clock

    def on_mount(self) -> None:
        self.set_interval(1.0, self.refresh)

    def render(self) -> Content:
        return Content(self.line())

    def line(self) -> str:
        """The status line as it reads now."""
        game = self.game
        parts = [f"Moves {len(game.moves)}", f"Time {clock_text(self._clock())}"]
        scoring = game.variant.scoring.kind
        if scoring == "vegas" and self.balance is not None:
            parts.append(f"Balance {dollars(self.balance)} (game {dollars(game.score)})")
        elif scoring == "vegas":
            parts.append(f"Balance {dollars(game.score)}")
        elif scoring == "standard":
            parts.append(f"Score {game.score}")
        passes = game.variant.passes  # the pass under way counts: "Pass 1 of 3" until the first turn-over
        parts.append("Passes unlimited" if passes is None else f"Pass {game.pass_number} of {passes}")
        parts.append(f"Draw {game.variant.draw}")
        if self.daily is not None:
            parts.append(f"Daily {self.daily}")
        elif self.seed is not None:
            parts.append(f"{'Winnable #' if self.winnable else 'Seed '}{self.seed}"
                         + ("" if self.grade is None else f" ({self.grade})"))
        if self.proven_lost and not game.is_won():
            parts.append("Cannot be won")
        return "  ".join(parts)


class MessageLine(Static):
    """What the player is told: what a key did, or why it did nothing."""

    text: reactive[str] = reactive("")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)

    def watch_text(self, text: str) -> None:
        self.update(text)


def dollars(amount: int) -> str:
    """``$12`` or ``-$52``.

    >>> dollars(-52), dollars(0)
    ('-$52', '$0')
    """
    return f"-${-amount}" if amount < 0 else f"${amount}"


def clock_text(seconds: float) -> str:
    """``M:SS``, or ``H:MM:SS`` from an hour on.

    >>> clock_text(75.9), clock_text(3725)
    ('1:15', '1:02:05')
    """
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
