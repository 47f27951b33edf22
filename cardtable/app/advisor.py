"""Hints and verdicts in the Klondike app, from the player's view unless the
player asks to peek.

A hint (``h``) is the ``expert``'s move from what the player sees
(:func:`cardtable.bots.klondike.hint.expert_hint`), with the share of its
guesses it wins from here; it never names or uses a card the player has not
seen. After each move the app says when the game can no longer be won, but only
when that follows from what the player sees: every card has been seen (none
face down, the stock's order known), and the solver proves the loss. Peeking
(``H``) is the solver's word with every card known, and shown as such: the
hint becomes the next move of a winning line, and the verdict comes after
every move.

Every search runs in a worker thread of the app, on a copy of the game, so
the table stays live; the answer comes back in the app's thread and is
dropped when the game has moved on meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from textual.app import App

from cardtable._text import plural
from cardtable.errors import CardtableError
from cardtable.klondike import KlondikeGame, Move, Position, Variant
from cardtable.klondike.narrate import describe_move

__all__ = ["EXPERT_SECONDS", "HINT_MAX_STATES", "HINT_TIMEOUT", "PEEK_LABEL", "VERDICT_MAX_STATES", "Advisor"]

#: What peeking is, as the app says it.
PEEK_LABEL = "peek: the solver's verdict with every card known"
#: The expert hint's cap in seconds: its budget is counted in guesses and states (about a
#: second), and only a much slower machine meets this cap, and then falls back to a quick move.
EXPERT_SECONDS: float | None = 10.0
#: The peek hint's search budget: small, so an answer comes at once.
HINT_TIMEOUT = 1.0
HINT_MAX_STATES = 300_000
#: The state budget of the check after each move that tells when the game can no longer be won
#: (a millisecond or so for most positions; a position it cannot decide in this budget says nothing).
VERDICT_MAX_STATES = 50_000
#: Set once the solver's compiled code is loaded in this process: the app loads it in a
#: thread as it opens (the C core and the first searches' memory), and every search waits
#: for it, so that a hint's second of searching is not spent loading code.
_solver_loaded = threading.Event()


def _load_solver() -> None:
    """Load the solver's compiled code (its depth-first and best-first
    kernels) with a small search, once a process."""
    if _solver_loaded.is_set():
        return
    from cardtable.solver import solve

    try:
        # Seed 1 needs more than the 50,000 states after which best-first probes join.
        solve(Position.from_seed(1), Variant.preset("draw3"), max_states=60_000)
    finally:
        _solver_loaded.set()



class Advisor:
    """Hints and verdicts for the game ``current()`` returns, in ``app``'s
    worker threads. ``tell(text)`` puts what to say in the message line;
    ``show_hint(move, text)`` shows a hint (``move`` None: no legal move is
    left); ``show_lost()`` says that the game is proven lost. Each is called
    in the app's thread, and only while the position is the one asked about
    (else the hint says so, and a verdict says nothing). ``peek`` (off at
    first) lets the solver's full-information word through (see the module
    documentation)."""

    def __init__(self, app: App[Any], current: Callable[[], KlondikeGame], *, unicode: bool,
                 tell: Callable[[str], None], show_hint: Callable[[Move | None, str], None],
                 show_lost: Callable[[], None]) -> None:
        self._app = app
        self._current = current
        self._unicode = unicode
        self._tell = tell
        self._show_hint = show_hint
        self._show_lost = show_lost
        #: True from a hint's request until its answer.
        self.thinking = False
        #: Whether the player peeks: hints and verdicts from the solver with every card known.
        self.peek = False

    def load_solver(self) -> None:
        """Load the solver's compiled code in a thread, once a process."""
        self._app.run_worker(_load_solver, name="load_solver", group="load-solver", thread=True)

    # ----- can the game still be won? ----------------------------------------------------------------

    def judge(self, game: KlondikeGame) -> None:
        """Ask whether ``game`` (a copy, kept by the search) can still be won,
        when the answer follows from what the player sees or the player peeks;
        the answer is heard only when it is proven lost."""
        self._app.run_worker(partial(self._judge, game, self.peek), name="judge", group="verdict",
                             exclusive=True, thread=True)

    def _judge(self, game: KlondikeGame, peek: bool) -> None:
        from cardtable.bots.klondike.hint import every_card_seen
        from cardtable.solver import solve

        if not peek and not every_card_seen(game):
            return  # the player cannot know yet, and the app does not say
        _solver_loaded.wait()
        try:
            result = solve(game.position(), game.variant, max_states=VERDICT_MAX_STATES).result
        except CardtableError:
            return
        self._app.call_from_thread(self._judged, game.key(), result)

    def _judged(self, key: tuple[object, ...], result: str) -> None:
        if key == self._current().key() and result == "unwinnable":
            self._show_lost()

    # ----- hints -------------------------------------------------------------------------------------

    def hint(self, game: KlondikeGame) -> None:
        """Look for the next move of ``game`` (a copy, kept by the search): the
        expert's from the player's view, or, peeking, the first move of a winning
        line the solver finds in :data:`HINT_TIMEOUT` seconds and
        :data:`HINT_MAX_STATES` states, else the heuristic's best guess."""
        self.thinking = True
        find = self._peek_hint if self.peek else self._expert_hint
        self._app.run_worker(partial(find, game), name="find_hint", group="hint", exclusive=True, thread=True)

    def _wait_for_solver(self) -> None:
        if not _solver_loaded.is_set():
            self._app.call_from_thread(self._tell, "Thinking... (loading the solver: the first time takes longer)")
            _solver_loaded.wait()

    def _expert_hint(self, game: KlondikeGame) -> None:
        from cardtable.bots.klondike.hint import expert_hint

        self._wait_for_solver()
        try:
            found = expert_hint(game, seconds=EXPERT_SECONDS, unicode=self._unicode)
        except CardtableError as error:
            self._app.call_from_thread(self._failed, str(error))
            return
        if found.move is None:  # no legal move is left, or none makes progress
            text = f"{found.describe().capitalize()}."
        elif found.advice.fallback == "out of time":
            text = f"Hint: {found.words} (a quick guess: the expert ran out of time)."
        else:
            why = f" ({found.advice.fallback}: the quick greedy move)" if found.advice.fallback else ""
            text = f"Hint: {found.words}{why}. The expert {found.odds()}."
        self._app.call_from_thread(self._hinted, game.key(), found.move, text)

    def _peek_hint(self, game: KlondikeGame) -> None:
        from cardtable.solver import hint

        self._wait_for_solver()
        try:
            found = hint(game, timeout=HINT_TIMEOUT, max_states=HINT_MAX_STATES)
        except CardtableError as error:
            self._app.call_from_thread(self._failed, str(error))
            return
        result = found.search.result
        said = "" if found.move is None else describe_move(game, found.move, unicode=self._unicode)
        if found.move is None:
            text = "No legal move is left."
        elif found.winning:
            text = f"Peek hint: {said}. This position can be won ({plural(len(found.solution), 'move')})."
        elif result == "unwinnable":
            ways = "u undoes, n deals anew" if game.can_undo else "n deals anew"
            text = f"Peek hint: {said} (best guess). This position cannot be won: {ways}."
        else:
            text = f"Peek hint: {said} (best guess: the solver found no answer in time; not yet known)."
        self._app.call_from_thread(self._hinted, game.key(), found.move, text)

    def _hinted(self, key: tuple[object, ...], move: Move | None, text: str) -> None:
        self.thinking = False
        if key != self._current().key():  # the game moved on while the solver thought
            self._tell("The position changed: press h again for a hint.")
        else:
            self._show_hint(move, text)

    def _failed(self, reason: str) -> None:
        self.thinking = False
        self._tell(f"No hint: {reason}")
