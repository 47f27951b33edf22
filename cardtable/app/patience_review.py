"""The patience app's review screen: the game so far weighed move by move.

``V`` opens it (the end-of-game message offers it too). Each position is
weighed by :func:`cardtable.bots.patience_review.weigh_position` in the
app's search process (the search holds the interpreter's lock: the table
stays live meanwhile), from the player's view, while a progress bar fills and
the chart of the expert's chance grows one column a position; then the
player's mistakes are listed in words, and the positions the expert could not
estimate within its budget are counted. Escape stops the weighing (what was
weighed stays shown); escape again, or any other key once it is done,
closes the screen.

The peek (:func:`cardtable.solver.patience_review.review_game`, every card
known: the moves that threw a win away) comes only when the game is over or
the player peeks (``P``): a review in the middle of a game must not tell
where the hidden cards lie.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from functools import partial

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import ProgressBar, Static

from cardtable.app.review import chance_chart
from cardtable.bots.patience_review import REVIEW_SAMPLES, REVIEW_STATES, PlayReview, PositionChance, weigh_position
from cardtable.errors import CardtableError
from cardtable.patience.record import PatienceRecord

__all__ = ["PatienceReviewScreen"]


class PatienceReviewScreen(ModalScreen[None]):
    """The review of ``record`` (see the module documentation), each position
    weighed in ``executor`` with ``samples`` guesses of ``max_states`` states,
    and the peek's verdicts (``peek_states`` a position) when given."""

    DEFAULT_CSS = """
    PatienceReviewScreen { align: center middle; }
    PatienceReviewScreen > Vertical { width: 100%; max-width: 100; height: auto; max-height: 100%;
                                      border: round $accent; background: $panel; padding: 0 1; }
    PatienceReviewScreen Static { width: 100%; }
    PatienceReviewScreen ProgressBar { width: 100%; }
    """

    def __init__(self, record: PatienceRecord, executor: Executor, *, samples: int = REVIEW_SAMPLES,
                 max_states: int = REVIEW_STATES, peek_states: int | None = None, ascii_only: bool = False) -> None:
        super().__init__()
        self.record = record
        self.executor = executor
        self.samples = samples
        self.max_states = max_states
        self.peek_states = peek_states
        self.ascii_only = ascii_only
        #: The positions weighed so far, the deal first.
        self.positions: list[PositionChance] = []
        #: The review once the weighing is done or stopped.
        self.review: PlayReview | None = None
        self._over = False

    def compose(self) -> ComposeResult:
        total = len(self.record.moves) + 1
        with Vertical():
            yield Static(f"Review of {self.record.description.title}: the expert's chance to win, from what you saw "
                         f"({total} positions)", id="review-title", markup=False)
            yield ProgressBar(total=total, show_eta=False, id="review-progress")
            yield Static(chance_chart([], ascii_only=self.ascii_only), id="review-chart", markup=False)
            yield Static("Weighing...", id="review-drops", markup=False)
            yield Static("Escape: stop", id="review-keys", markup=False)

    def on_mount(self) -> None:
        self.run_worker(self._weigh(), name="review", group="review", exclusive=True)

    async def _weigh(self) -> None:
        loop = asyncio.get_running_loop()
        game = self.record.start()
        total = len(self.record.moves) + 1
        try:
            for index in range(total):
                if index:
                    game.play(self.record.moves[index - 1])
                position = await loop.run_in_executor(self.executor, partial(
                    weigh_position, game.clone(), index=index, samples=self.samples, max_states=self.max_states))
                self._add(position)
            peek = None
            if self.peek_states:
                from cardtable.solver.patience_review import review_game

                self.query_one("#review-drops", Static).update("Peeking: every card known...")
                peek = await loop.run_in_executor(self.executor, partial(review_game, self.record,
                                                                         max_states=self.peek_states))
        except CardtableError as error:  # the search's process stopped
            self.query_one("#review-drops", Static).update(f"The review stopped: {error}.")
            self._finish(True)
            return
        except BrokenProcessPool:  # the process was killed
            self.query_one("#review-drops", Static).update("The review stopped: its search process was stopped.")
            self._finish(True)
            return
        self._finish(False, peek)

    def _add(self, position: PositionChance) -> None:
        self.positions.append(position)
        self.query_one("#review-progress", ProgressBar).update(progress=len(self.positions))
        self.query_one("#review-chart", Static).update(
            chance_chart([each.chance for each in self.positions], ascii_only=self.ascii_only))
        self.query_one("#review-drops", Static).update(
            f"Weighing... {len(self.positions)} of {len(self.record.moves) + 1} positions")

    def _finish(self, stopped: bool, peek: object = None) -> None:
        if self._over:
            return
        self._over = True
        self.query_one("#review-keys", Static).update("Escape or any key: close")
        if not self.positions:
            self.query_one("#review-drops", Static).update("Stopped before any position was weighed.")
            return
        review = PlayReview.of(self.record, self.positions, samples=self.samples, max_states=self.max_states)
        self.review = review
        lines = ["Stopped." if stopped else "Done."]
        mistakes = review.mistakes()
        if mistakes:
            lines.append("Your mistakes (moves not the expert's that cost the most of the chance):")
            lines += [f"  {move.callout()}" for move in mistakes]
        elif review.moves:
            lines.append("No move that was not the expert's cost much of the chance.")
        lines.append(review.summary())
        if peek is not None:
            from cardtable.solver.patience_review import PatienceReview

            assert isinstance(peek, PatienceReview)
            lines.append(f"Peek (every card known): {peek.summary()}")
            lines += [f"  {move.callout()}" for move in peek.thrown_away()[:3]]
        self.query_one("#review-drops", Static).update("\n".join(lines))

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
