"""The browser table's review of a player's game, over the protocol.

From the browser::

    {"type": "review"}        weigh the game so far, move by move
    {"type": "review-stop"}   stop the review under way (what was weighed comes back)

From the server, to the page that asked::

    {"type": "review-progress", "done": 12, "total": 61}   after each position
    {"type": "review", "review": {...}, "stopped": false}  the result: GameReview.to_dict()

The positions are weighed in a thread, from the player's view
(:mod:`cardtable.bots.klondike.review`): the expert's guesses never read a
hidden card. The peek (the solver's verdict with every card known) comes with
it only once the game is over, since the table has no peek of its own. One
review at a time for a player, and :data:`AT_ONCE` for the whole server (the
others wait their turn); a page that closes stops its review.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from cardtable.bots.klondike.review import REVIEW_SAMPLES, REVIEW_STATES, GameReview, review_game
from cardtable.klondike import KlondikeGame, KlondikeRecord
from cardtable.solver import PEEK_STATES, peek_verdict
from cardtable.web.protocol import ProtocolError

__all__ = ["AT_ONCE", "MAX_STATES", "PEEK_MAX_STATES", "REVIEW_TYPES", "SAMPLES", "Review"]

#: The message types of the review.
REVIEW_TYPES = ("review", "review-stop")
#: The budget of a review: guesses and search states a position, and the peek's states.
SAMPLES = REVIEW_SAMPLES
MAX_STATES = REVIEW_STATES
PEEK_MAX_STATES = PEEK_STATES
#: How many reviews a server weighs at once.
AT_ONCE = 2


class Review:
    """One review of ``game`` (a copy is taken), sending ``review-progress``
    messages and then the ``review`` message through ``send``, and stopped by
    :meth:`stop` or when ``gone()`` says the page went away. The budget
    (``samples``, ``max_states``, ``peek_states``) is this module's
    :data:`SAMPLES`, :data:`MAX_STATES` and :data:`PEEK_MAX_STATES` unless given."""

    def __init__(self, game: KlondikeGame, send: Callable[[dict[str, Any]], Awaitable[None]], *,
                 gone: Callable[[], bool] = lambda: False, samples: int | None = None,
                 max_states: int | None = None, peek_states: int | None = None) -> None:
        if not game.moves:
            raise ProtocolError("nothing to review yet: play a move first")
        self.record = KlondikeRecord.from_game(game)
        over = game.is_won() or game.outcome() is not None
        self.peek_states = (peek_states or PEEK_MAX_STATES) if over else None
        self.samples = samples or SAMPLES
        self.max_states = max_states or MAX_STATES
        self._send = send
        self._gone = gone
        self._stop = threading.Event()

    def stop(self) -> None:
        """Stop weighing after the position under way."""
        self._stop.set()

    async def run(self, slot: asyncio.Semaphore | None = None) -> GameReview:
        """Weigh the game in a thread, telling the page as it goes; the review (stopped or whole).
        With a ``slot``, the weighing waits for it (so that a server weighs few games at once)."""
        if slot is not None:
            async with slot:
                return await self.run()
        loop = asyncio.get_running_loop()
        news: asyncio.Queue[tuple[int, int] | None] = asyncio.Queue()

        def progress(done: int, total: int) -> None:
            loop.call_soon_threadsafe(news.put_nowait, (done, total))

        def weigh() -> GameReview:
            try:
                verdict = None if self.peek_states is None else peek_verdict(self.peek_states)
                return review_game(self.record, samples=self.samples, max_states=self.max_states, verdict=verdict,
                                   progress=progress, stop=lambda: self._stop.is_set() or self._gone())
            finally:
                loop.call_soon_threadsafe(news.put_nowait, None)

        task = asyncio.ensure_future(asyncio.to_thread(weigh))
        while (step := await news.get()) is not None:
            if not self._gone():
                await self._send({"type": "review-progress", "done": step[0], "total": step[1]})
        review = await task
        if not self._gone():
            await self._send({"type": "review", "review": review.to_dict(), "stopped": not review.complete})
        return review
