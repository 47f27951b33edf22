"""Any patience game in the terminal: ``cardtable play GAME``.

The app is a thin client of the library. The game's description says
everything: the engine (:class:`~cardtable.patience.PatienceGame`) decides
what is legal and says why a move is not, the layout
(:func:`~cardtable.patience.layout.table_layout`) where each pile lies, the
rules in words (:func:`~cardtable.patience.words.rules_sections`) fill the help,
and the ``expert`` (:func:`cardtable.bots.patience_hint.patience_hint`),
reading only the player's view and the game's history, gives the hints, in a
process of the app's own so the table stays live meanwhile. No game is
named here.

Keys name piles as the move notation does (:mod:`cardtable.patience.moves`):
a pile's key picks up its top card, a second key puts it down there; the
same key again takes one more card of a run; ``A`` sends every card that
can go to the foundations there. With more than ten tableau
piles their numbers are typed (``1`` then ``9`` is pile 19; enter ends a
number that could go on). The mouse clicks a card (and the cards on it),
then a pile; a double click sends a card home; a drag moves cards.

``n`` deals another deal, or the first deal of a difficulty from it on
(:func:`cardtable.sim.grade.game_of_grade`, found in the search's process:
the table takes no move meanwhile). ``V`` reviews the game so far move by
move (:mod:`cardtable.app.patience_review`); ``P`` peeks: the face-down
cards and the stock are shown, hints come from the real deal, and the game
is marked as peeked in its record (the autosave's and the statistics').

After every move the game is kept (:class:`~cardtable.app.patience_books.PatienceBooks`),
so ``cardtable play GAME`` brings it back; a won game, or one left for a new
game, counts in the game's statistics.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import re
import secrets
import signal
import textwrap
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import var
from textual.timer import Timer
from textual.widgets import Static

from cardtable._files import atomic_write_text, describe_error
from cardtable._text import plural
from cardtable.app.keeper import GameClock
from cardtable.app.new_deal import CHECKING, DealChoice, NewDealScreen
from cardtable.app.patience_books import PatienceBooks, game_key, saved_seconds, stats_lines
from cardtable.app.patience_table import PatienceMarks, PatienceTable, PileSpot, hint_marks, pile_key
from cardtable.app.screens import ScrollPage, TextScreen
from cardtable.app.status import MessageLine, clock_text
from cardtable.bots.patience_hint import HINT_SECONDS, PatienceHint, patience_hint
from cardtable.bots.patience_review import REVIEW_SAMPLES, REVIEW_STATES
from cardtable.cards import Card
from cardtable.errors import CardtableError
from cardtable.patience.description import Kind
from cardtable.patience.engine import PatienceGame, PileView
from cardtable.patience.layout import table_layout
from cardtable.patience.moves import ANY_FOUNDATION, DEAL, RECYCLE, Move, MoveError, Place
from cardtable.patience.record import PatienceRecord
from cardtable.patience.words import rules_sections
from cardtable.solver.patience_review import REVIEW_STATES as PEEK_REVIEW_STATES

__all__ = ["PatienceApp", "keys_help", "next_seed"]


def _hint_helper(app: int) -> None:
    """What the hint's process does first: leave Ctrl-C to the app (process
    ``app``), and die with it should it be killed outright."""
    from cardtable.runs.executor import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(app)


def _ready_for_processes() -> None:
    """Start multiprocessing's resource tracker while the app's standard
    error is still the terminal's: a process started later, while the app
    has it captured, would hand the tracker a descriptor that is not one."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()


@cache
def _hint_process() -> ProcessPoolExecutor:
    """The process the app's hints are searched in, made at the first hint: a
    process, for the search holds the interpreter's lock, which the app needs
    to draw and read keys meanwhile. Started afresh, not forked from the app's threads."""
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_hint_helper,
                               initargs=(os.getpid(),))

#: A card's name in the engine's words (``Kc``, ``Th``).
_CARD_NAME = re.compile(r"\b[A2-9TJQK][cdhs]\b")

#: The width of the help's lines: it fits a screen 80 wide in its frame.
HELP_WIDTH = 76

#: Seconds a typed pile number that could go on waits for its next digit.
NUMBER_WAIT = 1.2


@dataclass(frozen=True)
class _Held:
    """Cards picked up: the top ``count`` cards of ``place``; ``grown`` when
    the player chose the count (then it is kept, not fitted to the target)."""

    place: Place
    count: int = 1
    grown: bool = False


def next_seed(seed: int | str | None) -> int | str:
    """The deal ``n`` deals after ``seed``: the next number of the same kind,
    or a random one.

    >>> next_seed(7), next_seed("ms:11982")
    (8, 'ms:11983')
    """
    if seed is None:
        return secrets.randbelow(1_000_000)
    if isinstance(seed, int):
        return seed + 1
    kind, _, number = seed.partition(":")
    return f"{kind}:{int(number) + 1}" if number.isdigit() else secrets.randbelow(1_000_000)


def _place_words(place: Place) -> str:
    kind = place.kind
    if kind is Kind.TABLEAU:
        return f"pile {place}"
    if kind is Kind.CELL:
        return f"cell {place}"
    if kind is Kind.FOUNDATION:
        return "the foundations" if place.index < 0 else f"foundation {place.index + 1}"
    if kind is Kind.RESERVE:
        return f"the reserve {place}" if place.index else "the reserve"
    return f"the {kind.value}"


def keys_help(game: PatienceGame) -> str:
    """The keys and the mouse for ``game``'s piles, and its rules in words."""
    d = game.description
    count = d.tableau.count
    piles = "1-9, 0" if count == 10 else f"1-{min(count, 9)}" if count <= 9 else f"1-{count} (typed)"
    lines = [*textwrap.wrap(f"{d.title}: {d.summary}", HELP_WIDTH), "", f"  {piles:<14}tableau piles"]
    if d.cells.count:
        lines.append(f"  {'a-' + chr(ord('a') + d.cells.count - 1):<14}free cells")
    if d.foundations.count:
        back = "; F then 1-9 picks one up" if d.foundations.may_return else ""
        lines.append(f"  {'F':<14}the foundations (a card goes to the first that takes it){back}")
    if d.reserve.count:
        lines.append(f"  {'R' if d.reserve.count == 1 else 'R then 1-9':<14}the reserve")
    if d.waste.count:
        lines.append(f"  {'W':<14}the waste")
    if d.hole.count:
        pairs = "; two piles' keys make a pair" if d.hole_pairs is not None else ""
        lines.append(f"  {'H':<14}the hole{pairs}")
    if d.stock.count or d.redeals.count:
        lines.append(f"  {'D or S':<14}deal (or turn the waste over)")
    lines += ["  A pile's key picks up its top card, the same key again one more card",
              "  of its run, then the key of the pile they go to; esc puts them back.",
              "  u, ctrl+z   undo            y, ctrl+y   redo       x   hint",
              *(["  A   auto-finish: every card that can go to the foundations goes"]
                if d.foundations.count else []),
              "  r   restart (y redoes)      n   new game (a deal, or a difficulty)",
              "  V   review the game         P   peek: show the face-down cards (marked)",
              "  s   save the record",
              "  t   statistics              ?   this help          q   quit (kept)",
              "Mouse: click a card (it takes the cards on it), then a pile; double-click",
              "sends a card home; drag cards where they go; click the stock to deal.", ""]
    for heading, text in rules_sections(d):
        lines += textwrap.wrap(f"{heading}: {text}", HELP_WIDTH)
    lines += ["", "Arrows and page keys scroll; any other key closes this."]
    return "\n".join(lines)


class PatienceStatus(Static):
    """The facts of the game in one line, read anew once a second."""

    def __init__(self, app: PatienceApp) -> None:
        super().__init__(id="status", markup=False)
        self._owner = app

    def on_mount(self) -> None:
        self.set_interval(1.0, self.refresh_line)

    def refresh_line(self) -> None:
        self.update(self._owner.status_line())


class PatienceApp(App[None]):
    """A patience game's table.

    ``game`` is played (its moves so far can be undone), dealt from ``seed``
    when known (``n`` deals the next one, :func:`next_seed`); ``books``
    keeps the autosave and the statistics; ``save_path`` is where ``s``
    writes the record (default ``./cardtable-GAME.txt``); ``notice`` is shown
    first; ``seconds`` is the time the game has already taken (a restored
    game's). ``saved`` is the autosave's game when another deal was asked for
    over it: the first move here leaves it (it counts as ``n`` counts a game
    left), quitting first keeps it. ``daily`` is the date of the daily deal
    the game is (``cardtable play NAME --daily``), kept with its result for
    the daily figures. ``peeked`` says the player peeked at this game
    before (a restored game's ``Peeked`` header); ``grade`` is the
    difficulty of a graded deal (a restored game's ``Grade`` header), shown
    beside the deal number and kept in the autosave.
    """

    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-background; }
    #peek { height: auto; max-height: 6; display: none; color: $warning; }
    #message { height: auto; max-height: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u,ctrl+z", "undo", "undo", show=False),
        Binding("y,ctrl+y", "redo", "redo", show=False),
        Binding("x", "hint", "hint", show=False),
        Binding("A", "autofinish", "auto-finish", show=False),
        Binding("r", "restart", "restart", show=False),
        Binding("n", "new_game", "new game", show=False),
        Binding("s", "save", "save", show=False),
        Binding("t", "stats", "statistics", show=False),
        Binding("P", "peek", "peek", show=False),
        Binding("V", "review", "review", show=False),
        Binding("question_mark", "help", "help", show=False),
        Binding("q", "quit", "quit", show=False),
        Binding("escape", "drop", "put back", show=False),
    ]

    #: What the player is told.
    message: var[str] = var("")

    #: The review's budget (``V``): guesses and search states a position, and the peek's states.
    review_samples = REVIEW_SAMPLES
    review_states = REVIEW_STATES
    review_peek_states = PEEK_REVIEW_STATES

    def __init__(self, game: PatienceGame, *, seed: int | str | None, books: PatienceBooks,
                 save_path: Path | None = None, ascii_only: bool = False, notice: str | None = None,
                 seconds: float = 0.0, saved: PatienceRecord | None = None, daily: str | None = None,
                 peeked: bool = False, grade: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.seed = seed
        self.daily = daily
        self.grade = grade
        self.books = books
        self.save_path = save_path
        self.ascii_only = ascii_only
        self.title = f"cardtable: {game.description.title}"
        self.table_layout = table_layout(game.description)
        self.table = PatienceTable(self.table_layout, game.view(), ascii_only=ascii_only)
        self.clock = GameClock(seconds)
        self.held: _Held | None = None
        self.hint_move: Move | None = None
        self._hinting = False  # a hint is being searched for
        _ready_for_processes()
        self._redo: list[Move] = []
        self._typed = ""  # a pile number or a prefix (F, R) typed so far
        self._typed_timer: Timer | None = None
        self._counted = False  # this game is in the statistics
        #: Whether the face-down cards are shown now (``P``), and whether they were in this game.
        self.peeking = False
        self.peeked = peeked
        #: The grade being searched for (the table takes no move meanwhile), and why the game's deals
        #: cannot be graded (None: they can; CHECKING until known).
        self.finding: str | None = None
        self.grading: str | None = CHECKING
        self._grading_asked = False
        self._dialog: NewDealScreen | None = None
        self.message = notice or "Press ? for the keys and the rules."
        self._saved = saved
        if saved is not None:
            counted = ", and it counts as a loss, as n does" if books.store_path is not None and saved.moves else ""
            self.message = (f"Your saved game ({plural(len(saved.moves), 'move')}) waits: a move here leaves it"
                            f"{counted}; q keeps it.")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield self.table
            yield PatienceStatus(self)
            yield Static("", id="peek", markup=False)
            yield MessageLine(id="message").data_bind(text=PatienceApp.message)

    def on_mount(self) -> None:
        self._show()

    def on_unmount(self) -> None:
        # The clock ran on since the last move: keep its time with the game.
        if self.game.moves and not self.game.is_won():
            self._autosave()

    # ----- what is shown ---------------------------------------------------------------------------

    def status_line(self) -> str:
        """The status line as it reads now."""
        game, d = self.game, self.game.description
        view = game.view()
        parts = [d.title, f"Moves {len(game.moves)}", f"Time {clock_text(self.clock.seconds())}"]
        if d.foundations.count or d.hole.count:
            home = sum(len(p) for p in view.piles if p.place.kind in (Kind.FOUNDATION, Kind.HOLE))
            parts.append(f"Home {home}/{d.cards.total}")
        if d.stock.count:
            parts.append(f"Stock {sum(len(p) for p in view.piles if p.place.kind is Kind.STOCK)}")
            if d.stock.passes != 1:
                passes = "" if d.stock.passes is None else f" of {d.stock.passes}"
                parts.append(f"Pass {view.pass_number}{passes}")
        if d.redeals.count:
            parts.append(f"Redeals {d.redeals.count - game.redeals_used} left")
        if self.daily is not None:
            parts.append(f"Daily {self.daily}")
        elif self.seed is not None:
            parts.append(f"Deal {self.seed}" + ("" if self.grade is None else f" ({self.grade})"))
        return "  ".join(parts)

    def _autosave(self) -> str:
        """Keep the game in the autosave, with its clock, daily date, peek and grade; the trouble, else ""."""
        return self.books.save(self.game, self.seed, self.clock.seconds(), daily=self.daily, peeked=self.peeked,
                               grade=self.grade)

    def _show(self) -> None:
        """Draw the game, the marks and the status line anew."""
        view = self.game.view()
        marks = hint_marks(view, self.hint_move)
        if self.held is not None:
            size = len(self._pile(self.held.place))
            held = frozenset(PileSpot(self.held.place, i) for i in range(size - self.held.count, size))
            marks = PatienceMarks(held=held, hinted=marks.hinted, hint_places=marks.hint_places)
        self.table.marks = marks
        self.table.view = view
        for status in self.query(PatienceStatus):
            status.refresh_line()
        for peek in self.query("#peek").results(Static):
            peek.display = self.peeking
            if self.peeking:
                peek.update(self.peek_text())

    def peek_text(self) -> str:
        """What ``P`` shows: each pile's face-down cards (bottom to top) and the stock's (next card first)."""
        game = self.game
        parts = []
        for pile in game.view().piles:
            if not pile.face_down:
                continue
            hidden = game.pile(pile.place)[:pile.face_down]
            if pile.place.kind is Kind.STOCK:
                hidden = hidden[::-1]
            names = " ".join(str(card) if self.ascii_only else card.symbol() for card in hidden)
            where = "stock (next first)" if pile.place.kind is Kind.STOCK else _place_words(pile.place)
            parts.append(f"{where}: {names}")
        shown = "; ".join(parts) if parts else "no card is face down"
        return f"Peek (P hides it): {shown}"

    def _busy(self) -> bool:
        """Whether a graded deal is being found: then the table takes no move, and says so."""
        if self.finding is None:
            return False
        self.message = f"{self.finding} The table takes no move meanwhile."
        return True

    def _pile(self, place: Place) -> PileView:
        return next(pile for pile in self.game.view().piles if pile.place == place)

    def _card_words(self, place: Place, count: int) -> str:
        cards = self._pile(place).cards[-count:]
        names = [str(card) if self.ascii_only else card.symbol() for card in cards]
        return names[0] if len(names) == 1 else f"{names[0]}..{names[-1]} ({len(names)} cards)"

    def _cards_shown(self, text: str) -> str:
        """``text`` (the engine's words) with its cards named as the table shows them: ``Kc`` as ``K♣``."""
        if self.ascii_only:
            return text
        return _CARD_NAME.sub(lambda match: Card.parse(match.group(0)).symbol(), text)

    def _move_words(self, move: Move) -> str:
        """``move`` in words, before it is played."""
        if move.is_deal:
            return "a deal from the stock" if self.game.description.stock.count else "the tableau dealt anew"
        if move.is_recycle:
            return "turned the waste over"
        assert move.target is not None
        source = f"{self._card_words(move.source, move.count)} from {_place_words(move.source)}"
        if move.pair is not None:  # two cards of two piles: each named with its own
            source += f" and {self._card_words(move.pair, 1)} from {_place_words(move.pair)}"
        return f"{source} to {_place_words(move.target)}"

    # ----- moves -------------------------------------------------------------------------------------

    def play(self, move: Move, *, redo: bool = False) -> bool:
        """Play ``move`` when legal (else say why); True when played."""
        reason = self.game.why_illegal(move)
        if reason is not None:
            self.message = f"Cannot play {move}: {self._cards_shown(reason)}."
            return False
        words = self._move_words(move)
        self.game.play(move)
        if not redo:
            self._redo.clear()
        self.held = None
        self.hint_move = None
        self.message = f"{move}: {words}."
        self._after_move()
        return True

    def _after_move(self) -> None:
        game = self.game
        self.clock.start()
        if self._saved is not None and game.moves:  # the autosave is about to hold this game
            self.message += self._leave_saved(self._saved)
            self._saved = None
        if game.is_won():
            if not self.clock.stopped:
                self.clock.stop()
                trouble = ""
                if not self._counted:
                    self._counted = True
                    trouble = self.books.count(game, self.seed, self.clock.seconds(), daily=self.daily,
                                               peeked=self.peeked)
                self.books.clear()
                self.message += trouble
                self._show()
                self._win_screen()
                return
        else:
            self.clock.resume()
            self.message += self._autosave()
            if game.outcome() is not None:
                ways = "u undoes, n deals anew, V reviews" if game.moves else "n deals anew"
                self.message += f" No legal move is left: {ways}."
        self._show()

    def _leave_saved(self, record: PatienceRecord) -> str:
        """The autosave's game is left for this one: a loss once a move was played."""
        left = f" The saved game of {plural(len(record.moves), 'move')} is left for this one"
        if not record.moves or self.books.store_path is None:
            return f"{left}."
        try:
            left_game = record.replay()
        except CardtableError as error:  # restored before: its moves were legal then
            return f"{left}: it could not be counted ({error})."
        trouble = self.books.count(left_game, record.seed, saved_seconds(record.headers),
                                   daily=record.headers.get("Daily"), peeked=record.headers.get("Peeked") == "yes")
        return f"{left}: it counts as a loss.{trouble}"

    def _win_screen(self) -> None:
        game = self.game
        stats, trouble = self.books.stats()
        lines = [f"You won {game.description.title} in {plural(len(game.moves), 'move')} "
                 f"and {clock_text(self.clock.seconds())}!", ""]
        if self.books.store_path is not None and not trouble:
            lines += stats_lines(stats, game.description.title)
        lines += ["", "n: a new game, V: review it, q: quit. Any key closes this."]
        self.push_screen(TextScreen("\n".join(lines)))

    # ----- picking up and putting down -----------------------------------------------------------

    def _choose(self, place: Place, depth: int = -1) -> None:
        """A key (``depth`` -1) or a click on a card of ``place``: pick up,
        or put down what is held."""
        if self._busy():
            return
        self.hint_move = None
        if place.kind is Kind.STOCK:
            self.held = None
            self.action_deal()
        elif self.held is None:
            self._pick(place, depth)
        else:
            self._put(place)
        self._show()

    def _pick(self, place: Place, depth: int) -> None:
        d = self.game.description
        if place.kind is Kind.HOLE:
            self.message = "Nothing comes back from the hole."
            return
        if place.kind is Kind.FOUNDATION and not d.foundations.may_return:
            self.message = f"Cards do not come back from the foundations in {d.title}."
            return
        pile = self._pile(place)
        over = [str(p) for p in self.table_layout.pile(place).covered_by if len(self._pile(p))]
        if over:
            self.message = f"Pile {place} lies under pile {' and '.join(over)}: it plays once they are gone."
            return
        if not pile.cards:
            self.message = f"Nothing to pick up at {pile_key(place, d)}" + (
                ": its cards are face down." if pile.face_down else ": it is empty.")
            return
        if depth >= 0 and depth < pile.face_down:
            self.message = "That card is face down."
            return
        count = 1 if depth < 0 else len(pile) - depth
        self.held = _Held(place, count, grown=count > 1)
        self.message = (f"Picked up {self._card_words(place, count)}: now the key of the pile it goes to "
                        "(esc puts it back).")

    def _put(self, place: Place) -> None:
        held, game = self.held, self.game
        assert held is not None
        if place == held.place:
            self._grow(held)
            return
        legal = game.legal_moves()
        for move in legal:  # two cards that go to the hole together (Pyramid's 13)
            if move.pair is not None and {move.source, move.pair} == {held.place, place}:
                self.play(move)
                return
        target = ANY_FOUNDATION if place.kind is Kind.FOUNDATION else place
        try:
            move = Move(held.place, target, held.count)
        except MoveError as error:
            self.held = None
            self.message = f"Cannot move there: {str(error).split(': ', 1)[1]}."
            return
        if not game.is_legal(move) and not held.grown:
            fits = [m for m in legal if m.source == held.place and m.target == target and m.pair is None]
            if fits:
                move = max(fits, key=lambda m: m.count)
        if not self.play(move):
            self.held = None

    def _grow(self, held: _Held) -> None:
        """The same pile's key again: one more card of its face-up run, when it is a tableau pile."""
        pile = self._pile(held.place)
        if held.place.kind is not Kind.TABLEAU:
            self.held = None
            self.message = "Put back."
        elif held.count >= len(pile.cards):
            self.message = f"Every face-up card of pile {held.place} is picked up."
        else:
            self.held = _Held(held.place, held.count + 1, grown=True)
            self.message = f"Picked up {self._card_words(held.place, held.count + 1)}."

    def send_home(self, place: Place) -> None:
        """A double click: the top card of ``place`` to a foundation, or to the hole."""
        if self._busy():
            return
        self.held = None
        d = self.game.description
        tries = []
        if d.foundations.count:
            tries.append(Move(place, ANY_FOUNDATION))
        if d.hole.count and place.kind is not Kind.HOLE:
            tries.append(Move(place, Place(Kind.HOLE)))
        for move in tries:
            if self.game.is_legal(move):
                self.play(move)
                return
        if tries:
            self.play(tries[0])  # says why not
        self._show()

    # ----- the mouse ---------------------------------------------------------------------------------

    def on_patience_table_clicked(self, event: PatienceTable.Clicked) -> None:
        self._end_number()
        spot = event.spot
        if event.clicks >= 2 and spot.place.kind not in (Kind.STOCK, Kind.FOUNDATION, Kind.HOLE):
            self.send_home(spot.place)
        elif event.clicks < 2:
            self._choose(spot.place, spot.depth if self.held is None else -1)

    def on_patience_table_dragged(self, event: PatienceTable.Dragged) -> None:
        self._end_number()
        if self._busy():
            return
        self.held = None
        if event.source.place.kind is Kind.STOCK:
            self.message = "The stock is not dragged: click it to deal."
        else:
            self._pick(event.source.place, event.source.depth)
            if self.held is not None and event.target is not None:
                self._put(event.target.place)
            elif self.held is not None:
                self.held = None
                self.message = "Put back."
        self._show()

    # ----- keys that name piles --------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        char = event.character or ""
        place = None
        if char.isdigit() or (self._typed and event.key == "enter"):
            event.stop()
            self._digit(char if char.isdigit() else "")
            return
        self._end_number()
        d = self.game.description
        cells = "abcdefghijklmnop"[:d.cells.count]
        if char and char in cells:
            place = Place(Kind.CELL, cells.index(char))
        elif char == "F" and d.foundations.count:
            if self.held is None and d.foundations.may_return:
                self._typed = "F"
                self.message = f"F: which foundation? 1-{d.foundations.count}"
            else:
                place = ANY_FOUNDATION
        elif char == "W" and d.waste.count:
            place = Place(Kind.WASTE)
        elif char == "H" and d.hole.count:
            place = Place(Kind.HOLE)
        elif char == "R" and d.reserve.count:
            if d.reserve.count == 1:
                place = Place(Kind.RESERVE)
            else:
                self._typed = "R"
                self.message = f"R: which reserve pile? 1-{d.reserve.count}"
        elif char in ("D", "S") and (d.stock.count or d.redeals.count):
            place = Place(Kind.STOCK)
        else:
            return
        event.stop()
        if place is not None:
            self._choose(place)

    def _digit(self, digit: str) -> None:
        """A digit (or enter, ``digit`` ""): a pile number, typed whole when the game has more than ten piles."""
        d = self.game.description
        if self._typed in ("F", "R"):
            kind = Kind.FOUNDATION if self._typed == "F" else Kind.RESERVE
            self._typed = ""
            number = int(digit or "0")
            if 1 <= number <= d.count(kind):
                self._choose(Place(kind, number - 1))
            else:
                self.message = f"No such {'foundation' if kind is Kind.FOUNDATION else 'reserve pile'}."
            return
        count = d.tableau.count
        if count <= 10:
            number = 10 if digit == "0" else int(digit or "0")
            self._tableau(number)
            return
        typed = self._typed + digit
        if self._typed_timer is not None:
            self._typed_timer.stop()
            self._typed_timer = None
        if digit and int(typed) * 10 <= count and int(typed) > 0:  # a longer number could follow
            self._typed = typed
            longest = min(count, int(typed) * 10 + 9)
            self.message = f"Pile {typed}: another digit for piles {typed}0 to {longest}, or enter."
            self._typed_timer = self.set_timer(NUMBER_WAIT, self._end_number)
            return
        self._typed = ""
        self._tableau(int(typed or "0"))

    def _end_number(self) -> None:
        """A pile number typed so far stands (its wait is over, or another key came)."""
        if self._typed_timer is not None:
            self._typed_timer.stop()
            self._typed_timer = None
        typed, self._typed = self._typed, ""
        if typed.isdigit():
            self._tableau(int(typed))

    def _tableau(self, number: int) -> None:
        count = self.game.description.tableau.count
        if not 1 <= number <= count:
            self.message = f"No pile {number}: the piles are 1 to {count}."
            return
        self._choose(Place(Kind.TABLEAU, number - 1))

    # ----- actions -----------------------------------------------------------------------------------

    def action_deal(self) -> None:
        self.held = None
        for move in (DEAL, RECYCLE):
            if self.game.is_legal(move):
                self.play(move)
                return
        self.message = f"Cannot deal: {self._cards_shown(self.game.why_illegal(DEAL) or '')}."
        self._show()

    def action_drop(self) -> None:
        self._end_number()
        if self.held is not None:
            self.held = None
            self.message = "Put back."
            self._show()

    def action_undo(self) -> None:
        if self._busy():
            return
        self._end_number()
        if not self.game.moves:
            self.message = "Nothing to undo."
            return
        self.held, self.hint_move = None, None
        move = self.game.undo()
        self._redo.append(move)
        self.message = f"Undid {move}: {self._move_words(move)}."
        self._after_move()

    def action_redo(self) -> None:
        if self._busy():
            return
        self._end_number()
        if not self._redo:
            self.message = "Nothing to redo."
            return
        if self.play(self._redo[-1], redo=True):
            self._redo.pop()
            self.message = f"Redid {self.message}"

    def action_autofinish(self) -> None:
        """Send every card that can go to a foundation there, one move after
        another (:meth:`~cardtable.patience.PatienceGame.home_move`); each
        is undone on its own."""
        self._end_number()
        if self._busy():
            return
        self.held, self.hint_move = None, None
        game = self.game
        if not game.description.foundations.count:
            self.message = f"{game.description.title} has no foundations to finish on."
            self._show()
            return
        played = 0
        while (move := game.home_move()) is not None:
            game.play(move)
            played += move.count
        if not played:
            self.message = "Auto-finish: no card can go to the foundations now."
            self._show()
            return
        self._redo.clear()
        self.message = f"Auto-finish sent {plural(played, 'card')} home."
        self._after_move()

    def action_restart(self) -> None:
        """Back to the deal; every move can be redone."""
        if self._busy():
            return
        self._end_number()
        if not self.game.moves:
            self.message = "The game is at its deal."
            return
        while self.game.moves:
            self._redo.append(self.game.undo())
        self.held, self.hint_move = None, None
        self.message = "Back at the deal: y redoes the moves one by one."
        self._after_move()

    def action_hint(self) -> None:
        """The ``expert``'s move from what the player sees (peeking: from the
        real deal), searched in the hint's process."""
        self._end_number()
        if self._busy():
            return
        self.held = None
        if self.game.is_won():
            self.message = "The game is won."
        elif self._hinting:
            self.message = "Still thinking about the last hint..."
        else:
            self._hinting = True
            self.message = "Thinking..."
            self.run_worker(self._find_hint(self.game.clone(), self.peeking), name="find_hint", group="hint",
                            exclusive=True)
        self._show()

    async def _find_hint(self, game: PatienceGame, peek: bool = False) -> None:
        """Ask the hint's process for ``game``'s hint (a copy, with its history) and show it,
        unless the game moved on meanwhile."""
        try:
            found = await asyncio.get_running_loop().run_in_executor(
                _hint_process(), partial(patience_hint, game, seconds=HINT_SECONDS, peek=peek))
        except BrokenProcessPool:  # the process was killed: the next hint starts another
            _hint_process.cache_clear()
            self.message = "No hint: the search stopped; press x to try again."
            return
        except CardtableError as error:
            self.message = f"No hint: {error}."
            return
        finally:
            self._hinting = False
        if (game.key(), game.moves) != (self.game.key(), self.game.moves):
            self.message = "The game moved on meanwhile: press x again for a hint."
            return
        self._show_hint(found)

    def _show_hint(self, found: PatienceHint) -> None:
        if found.move is None:
            self.message = "No hint: no move is left." if found.fallback is None else \
                f"No hint: {found.describe()}; u undoes, n deals anew."
        else:
            self.hint_move = found.move
            self.message = f"Hint: {found.move}, {found.describe()}."
        self._show()

    def action_new_game(self) -> None:
        """Ask which deal to play next (enter: the next one; a difficulty: the
        first deal of that grade from it on), and deal it."""
        self._end_number()
        if self._busy():
            return
        dialog = NewDealScreen(self.game.description, next_seed(self.seed), self.grading)

        def chosen(choice: DealChoice | None) -> None:
            if choice is None:
                return
            if choice.difficulty is None:
                self.new_game(choice.deal)
            else:
                assert isinstance(choice.deal, int)
                self.find_graded(choice.deal, choice.difficulty)

        self._dialog = dialog
        self.push_screen(dialog, chosen)
        if not self._grading_asked:
            self._grading_asked = True
            self.run_worker(self._check_grading(), name="grading", group="grading")

    async def _check_grading(self) -> None:
        """Ask the search's process whether the game's deals can be graded (once a game), and tell the dialog."""
        from cardtable.sim.grade import why_ungradable

        try:
            self.grading = await asyncio.get_running_loop().run_in_executor(
                _hint_process(), partial(why_ungradable, self.game.description))
        except BrokenProcessPool:
            _hint_process.cache_clear()
            self._grading_asked = False
            self.grading = "the search's process stopped; open this dialog again to check once more"
        except CardtableError as error:
            self.grading = str(error)
        if self._dialog is not None and self._dialog in self.screen_stack:  # the dialog is still open
            self._dialog.set_grading(self.grading)

    def find_graded(self, seed: int, level: str) -> None:
        """Find the first deal of grade ``level`` from ``seed`` on in the search's
        process (the table takes no move meanwhile), then deal it."""
        article = "an" if level[0] in "aeiou" else "a"
        self.finding = f"Finding {article} {level} deal of {self.game.description.title} from deal {seed}..."
        self.held, self.hint_move = None, None
        self.message = self.finding
        self._show()
        self.run_worker(self._find_graded(seed, level), name="graded", group="graded", exclusive=True)

    async def _find_graded(self, seed: int, level: str) -> None:
        from cardtable.sim.grade import game_of_grade

        try:
            found, grade = await asyncio.get_running_loop().run_in_executor(
                _hint_process(), partial(game_of_grade, seed, level, self.game.description))
        except BrokenProcessPool:
            _hint_process.cache_clear()
            self.finding = None
            self.message = "No graded deal: the search stopped; n tries again."
            return
        except CardtableError as error:
            self.finding = None
            self.message = f"No graded deal: {error}."
            return
        self.finding = None
        self.new_game(found, graded=f"graded {grade.level} ({grade.points} difficulty points), proven winnable",
                      grade=grade.level)

    def new_game(self, deal: int | str, *, graded: str | None = None, grade: str | None = None) -> None:
        """Deal ``deal`` (``graded``: its grade in words, ``grade`` its difficulty); a game left after a
        move counts as a loss."""
        game = self.game
        counted = ""
        if game.moves and not game.is_won() and not self._counted:
            trouble = self.books.count(game, self.seed, self.clock.seconds(), daily=self.daily,
                                       peeked=self.peeked)
            counted = trouble or (" The game left counts as a loss." if self.books.store_path is not None else "")
        self.books.clear()
        self.seed, self.daily, self.grade = deal, None, grade
        self.game = PatienceGame.from_seed(game.description, deal)
        self.clock = GameClock()
        self.held, self.hint_move, self._redo, self._counted = None, None, [], False
        self.peeking = self.peeked = False
        grade = "" if graded is None else f", {graded}"
        self.message = f"New game of {game.description.title}: deal {deal}{grade}.{counted}"
        self._show()

    def action_peek(self) -> None:
        """Show the face-down cards and the stock, or hide them again; hints come
        from the real deal meanwhile. The game is marked as peeked from then on."""
        self._end_number()
        self.peeking = not self.peeking
        if self.peeking:
            first = not self.peeked
            self.peeked = True
            if first and self.game.moves and not self.game.is_won():
                self.message = self._autosave()
            self.message = ("Peek: on. The face-down cards are shown and hints read the real deal; this game is "
                            "marked as peeked in its record. P: off.")
        else:
            self.message = "Peek: off. Hints come from what you see (the game stays marked as peeked). P: peek."
        self._show()

    def action_review(self) -> None:
        """Review the game so far, move by move (:mod:`cardtable.app.patience_review`); the
        peek's verdicts come with it only once the game is over, or while the player peeks."""
        from cardtable.app.patience_review import PatienceReviewScreen

        self._end_number()
        game = self.game
        if not game.moves:
            self.message = "Nothing to review yet: play a move first."
            return
        over = game.is_won() or game.outcome() is not None
        peek = self.review_peek_states if over or self.peeking else None
        self.push_screen(PatienceReviewScreen(PatienceRecord.from_game(game, self.seed), self.review_executor(),
                                              samples=self.review_samples, max_states=self.review_states,
                                              peek_states=peek, ascii_only=self.ascii_only))

    def review_executor(self) -> Executor:
        """Where the review weighs its positions: the search's process."""
        return _hint_process()

    def action_save(self) -> None:
        path = self.save_path if self.save_path is not None else Path.cwd() / \
            f"cardtable-{game_key(self.game.description)}.txt"
        try:
            atomic_write_text(path, str(PatienceRecord.from_game(self.game, self.seed)))
        except (OSError, CardtableError) as error:
            self.message = f"Could not save: {describe_error(error)}; the game is kept here, press s to try again."
            return
        self.message = f"Saved the game record to {path}."

    def action_help(self) -> None:
        self.push_screen(ScrollPage(keys_help(self.game)))

    def action_stats(self) -> None:
        title = self.game.description.title
        if self.books.store_path is None:
            text = "No statistics are kept in this session (--no-stats)."
        else:
            stats, trouble = self.books.stats()
            text = "\n".join(stats_lines(stats, title)) + (f"\n{trouble.strip()}" if trouble else "")
            if peeked := self.books.peeked():
                text += f"\n{plural(peeked, 'game')} of them peeked at (P showed the face-down cards)."
            text += f"\n\nKept in the results store {self.books.store_path} ('cardtable stats --game NAME')."
        self.push_screen(TextScreen(text + "\nAny key closes this."))
