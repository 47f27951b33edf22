"""The Klondike app's review screen: the game so far weighed move by move.

``R`` opens it (the end-of-game message offers it too). A worker thread weighs
each position with :func:`cardtable.bots.klondike.review.review_positions`
while a progress bar fills and the chart of the expert's win chance, from the
player's view, grows one column a position; then the largest drops are
listed in words. Escape stops the weighing (what was weighed stays shown);
Escape again, or any other key once it is done, closes the screen.

The peek, the solver's verdict with every card known, is asked only when the
game is over or the player peeks (``H``): a review in the middle of a game
must not tell where the hidden cards lie.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual import events, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

from cardtable.bots.klondike.review import (
    REVIEW_SAMPLES,
    REVIEW_STATES,
    GameReview,
    PositionReview,
    build_review,
    review_positions,
)
from cardtable.klondike import KlondikeRecord

__all__ = ["BLOCKS", "ChanceReviewScreen", "ReviewScreen", "chance_chart"]

#: The eighths of a block, from empty to full, that draw the chart's columns.
BLOCKS = " ▁▂▃▄▅▆▇█"


def chance_chart(chances: Sequence[float | None], *, width: int = 72, height: int = 6,
                 ascii_only: bool = False) -> str:
    """A column chart of ``chances`` (0 to 1, None: not known, drawn as ``?``
    at the foot), ``height`` lines of text with a 0-100% scale on the left. More
    chances than ``width`` columns are drawn a column per group of neighbours
    (the lowest of each group: a drop is never smoothed away).

    >>> print(chance_chart([0.0, 0.5, 1.0], height=2, ascii_only=True))
    100% |  #
         | ##
      0% +---
    """
    groups: list[float | None] = []
    if chances:
        step = max(1, -(-len(chances) // width))
        for start in range(0, len(chances), step):
            known = [chance for chance in chances[start:start + step] if chance is not None]
            groups.append(min(known) if known else None)
    blocks = " .:#" if ascii_only else BLOCKS
    levels = len(blocks) - 1
    lines = []
    for row in range(height, 0, -1):
        cells = []
        for chance in groups:
            if chance is None:
                cells.append("?" if row == 1 else " ")
                continue
            filled = chance * height * levels - (row - 1) * levels
            cells.append(blocks[max(0, min(levels, round(filled)))])
        label = "100%" if row == height else "    "
        lines.append(f"{label} |{''.join(cells)}")
    lines.append("  0% +" + "-" * len(groups))
    return "\n".join(lines)


class ChanceReviewScreen(ModalScreen[None]):
    """What every game's review screen shares: a title, a progress bar, the
    chart of the expert's chance growing a column a position (each position
    has a ``chance``, None where not known), the words once the weighing is
    over, and its keys (Escape stops the weighing; Escape again, or any key
    once it is over, closes). A game's screen weighs the positions (calling
    :meth:`_add` for each, then :meth:`_finish`) and says what they mean
    (:meth:`_conclusion`)."""

    DEFAULT_CSS = """
    ChanceReviewScreen { align: center middle; }
    ChanceReviewScreen > Vertical { width: 100%; max-width: 100; height: auto; max-height: 100%;
                                    border: round $accent; background: $panel; padding: 0 1; }
    ChanceReviewScreen Static { width: 100%; }
    ChanceReviewScreen ProgressBar { width: 100%; }
    """

    def __init__(self, record: Any, title: str, *, samples: int, max_states: int, peek_states: int | None,
                 ascii_only: bool) -> None:
        super().__init__()
        self.record = record
        self.title_words = title
        self.samples = samples
        self.max_states = max_states
        self.peek_states = peek_states
        self.ascii_only = ascii_only
        #: The positions weighed so far, the start first.
        self.positions: list[Any] = []
        self._over = False

    def compose(self) -> ComposeResult:
        total = len(self.record.moves) + 1
        with Vertical():
            yield Static(f"{self.title_words}: the expert's chance to win, from what you saw ({total} positions)",
                         id="review-title", markup=False)
            yield ProgressBar(total=total, show_eta=False, id="review-progress")
            yield Static(chance_chart([], ascii_only=self.ascii_only), id="review-chart", markup=False)
            yield Static("Weighing...", id="review-drops", markup=False)
            yield Static("Escape: stop", id="review-keys", markup=False)

    def _add(self, position: Any) -> None:
        self.positions.append(position)
        self.query_one("#review-progress", ProgressBar).update(progress=len(self.positions))
        self.query_one("#review-chart", Static).update(
            chance_chart([each.chance for each in self.positions], ascii_only=self.ascii_only))
        self.query_one("#review-drops", Static).update(
            f"Weighing... {len(self.positions)} of {len(self.record.moves) + 1} positions")

    def _finish(self, stopped: bool, *extra: object) -> None:
        """The weighing is over (``stopped`` before its end): the words, or
        that nothing was weighed."""
        if self._over:
            return
        self._over = True
        self.query_one("#review-keys", Static).update("Escape or any key: close")
        if not self.positions:
            self.query_one("#review-drops", Static).update("Stopped before any position was weighed.")
            return
        lines = ["Stopped." if stopped else "Done.", *self._conclusion(*extra)]
        self.query_one("#review-drops", Static).update("\n".join(lines))

    def _conclusion(self, *extra: object) -> list[str]:
        """The lines that say what the positions weighed mean (the game's own)."""
        raise NotImplementedError

    @property
    def done(self) -> bool:
        """Whether the weighing is over (finished or stopped)."""
        return self._over

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if not self.done:
            if event.key == "escape":
                self.workers.cancel_group(self, "review")
                self._finish(True)
            return
        self.workers.cancel_group(self, "review")
        self.dismiss()


class ReviewScreen(ChanceReviewScreen):
    """The review of ``record`` (see the module documentation), weighed with
    ``samples`` guesses of ``max_states`` states a position, and the peek's
    ``verdict`` when given."""

    def __init__(self, record: KlondikeRecord, *, samples: int = REVIEW_SAMPLES, max_states: int = REVIEW_STATES,
                 peek_states: int | None = None, ascii_only: bool = False) -> None:
        super().__init__(record, "Review", samples=samples, max_states=max_states, peek_states=peek_states,
                         ascii_only=ascii_only)
        self.record: KlondikeRecord = record
        self.positions: list[PositionReview] = []
        #: The review once the weighing is done or stopped (None: still weighing, or stopped before
        #: any position was weighed).
        self.review: GameReview | None = None

    def on_mount(self) -> None:
        self._weigh()

    @work(thread=True, exclusive=True, group="review")
    def _weigh(self) -> None:
        worker = get_current_worker()
        verdict = None
        if self.peek_states:
            from cardtable.solver import peek_verdict

            verdict = peek_verdict(self.peek_states)
        for position in review_positions(self.record, samples=self.samples, max_states=self.max_states,
                                         verdict=verdict, unicode=not self.ascii_only):
            if worker.is_cancelled:
                return
            self.app.call_from_thread(self._add, position)
            if worker.is_cancelled:
                return
        self.app.call_from_thread(self._finish, False)

    def _conclusion(self, *extra: object) -> list[str]:
        review = build_review(self.record, self.positions, samples=self.samples, max_states=self.max_states,
                              unicode=not self.ascii_only)
        self.review = review
        lines = []
        drops = review.drops()
        if drops:
            lines.append("The largest drops:")
            lines += [f"  {move.callout()}" for move in drops]
        elif review.moves:
            lines.append("No move that was not the expert's cost much of the chance.")
        lines.append(review.summary())
        last = review.positions[-1]
        if last.verdict is not None:
            lines.append(f"Peek (every card known): the last position weighed is {last.verdict}.")
        return lines
