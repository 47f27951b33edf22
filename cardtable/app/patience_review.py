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

from textual.widgets import Static

from cardtable.app.review import ChanceReviewScreen
from cardtable.bots.patience_review import REVIEW_SAMPLES, REVIEW_STATES, PlayReview, PositionChance, weigh_position
from cardtable.errors import CardtableError
from cardtable.patience.record import PatienceRecord

__all__ = ["PatienceReviewScreen"]


class PatienceReviewScreen(ChanceReviewScreen):
    """The review of ``record`` (see the module documentation), each position
    weighed in ``executor`` with ``samples`` guesses of ``max_states`` states,
    and the peek's verdicts (``peek_states`` a position) when given."""

    def __init__(self, record: PatienceRecord, executor: Executor, *, samples: int = REVIEW_SAMPLES,
                 max_states: int = REVIEW_STATES, peek_states: int | None = None, ascii_only: bool = False) -> None:
        super().__init__(record, f"Review of {record.description.title}", samples=samples, max_states=max_states,
                         peek_states=peek_states, ascii_only=ascii_only)
        self.record: PatienceRecord = record
        self.executor = executor
        self.positions: list[PositionChance] = []
        #: The review once the weighing is done or stopped.
        self.review: PlayReview | None = None

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

    def _conclusion(self, *extra: object) -> list[str]:
        peek = extra[0] if extra else None
        review = PlayReview.of(self.record, self.positions, samples=self.samples, max_states=self.max_states)
        self.review = review
        lines = []
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
        return lines
