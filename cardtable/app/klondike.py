"""Klondike in the terminal: the table, the keys, the mouse, hints and the autosave.

The app is a thin client of the library: the engine
(:class:`~cardtable.klondike.KlondikeGame`) decides what is legal, the expert
gives hints from the player's view, and the solver its verdict with every card
known only when the player peeks (in worker threads, so the table stays live), and after every
move the game record is written to the autosave. See :data:`HELP` for the keys.

The app holds the state of the table in reactive attributes (the game, the
cards picked up, the cursor, the hint, the message) and its widgets are
bound to them: :class:`~cardtable.app.table.TableView` draws the table,
:class:`~cardtable.app.status.StatusBar` and
:class:`~cardtable.app.status.MessageLine` the two lines under it. The
:class:`~cardtable.app.advisor.Advisor` asks the expert and the solver, the
:class:`~cardtable.app.keeper.Keeper` keeps the clock, the statistics, the
Vegas balance and the autosave, and :mod:`cardtable.app.pickup` turns
places into moves. The looks are in ``klondike.tcss``, the help in
``klondike_help.md``.
"""

from __future__ import annotations

import datetime
import secrets
from importlib import resources
from pathlib import Path
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import var

from cardtable._files import atomic_write_text, describe_error
from cardtable._text import plural
from cardtable.app.advisor import PEEK_LABEL, VERDICT_MAX_STATES, Advisor
from cardtable.app.autosave import GRADE_HEADER
from cardtable.app.keeper import Keeper, leave_saved, saved_notice
from cardtable.app.pickup import Held, describe, held_cards, pick_up, put_down
from cardtable.app.screens import TextScreen, show_page
from cardtable.app.status import MessageLine, StatusBar
from cardtable.app.table import Marks, Spot, TableView, clamp_cursor, step_cursor
from cardtable.bots.klondike.review import REVIEW_SAMPLES, REVIEW_STATES
from cardtable.errors import CardtableError
from cardtable.klondike import (
    DRAW,
    FOUNDATION,
    RECYCLE,
    STOCK,
    WASTE,
    KlondikeGame,
    KlondikeRecord,
    Move,
    Position,
    Variant,
    counts_as_loss,
)
from cardtable.klondike.narrate import describe_move

__all__ = ["DEFAULT_SAVE_NAME", "HELP", "KlondikeApp"]

#: Where ``s`` saves when no ``--save`` file was given (in the current folder).
DEFAULT_SAVE_NAME = "cardtable-game.txt"

#: The keys and the mouse, as the help page shows them (from ``klondike_help.md``).
HELP = resources.files("cardtable.app").joinpath("klondike_help.md").read_text(encoding="utf-8").removesuffix("\n")


class KlondikeApp(App[None]):
    """The Klondike table.

    ``game`` is played (its moves so far can be undone); ``seed`` is the
    deal's seed when known (``n`` deals seed + 1; with ``winnable`` the seed
    counts winnable deals, as ``cardtable deal --winnable`` does);
    ``save_path`` is where ``s`` writes; ``autosave_path`` (None: no
    autosave) keeps the game after every move; ``stats_path`` (None: none
    kept) the statistics of finished games; ``balance_path`` (None: each
    game alone) carries the Vegas balance from game to game; ``notice`` is
    shown first; ``seconds`` is the time the game has already taken (a
    restored game's); ``daily`` the date (``YYYY-MM-DD``) when the game is
    that day's daily deal (kept with its result, for the daily streak). The
    clock stands until a move is played. ``saved`` is the autosave's game
    when a new game was asked for over it: the first move of this one leaves
    it (it counts as ``n`` counts a game left), quitting first keeps it.
    ``grade`` is the difficulty of a graded deal (a restored game's ``Grade``
    header), shown beside the seed and kept in the autosave.
    """

    TITLE = "cardtable: Klondike"
    CSS_PATH = "klondike.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"pile({n - 1})", f"pile {n}", show=False) for n in range(1, 8)),
        Binding("w", "waste", "waste", show=False),
        Binding("f", "foundation", "foundation", show=False),
        Binding("d", "draw", "draw", show=False),
        Binding("a", "auto", "auto-play", show=False),
        Binding("u,ctrl+z", "undo", "undo", show=False),
        Binding("ctrl+y", "redo", "redo", show=False),
        Binding("h", "hint", "hint", show=False),
        Binding("H", "peek", "peek", show=False),
        Binding("R", "review", "review", show=False),
        Binding("n", "new_game", "new game", show=False),
        Binding("s", "save", "save", show=False),
        Binding("question_mark", "help", "help", show=False),
        Binding("t", "stats", "statistics", show=False),
        Binding("q", "quit", "quit", show=False),
        Binding("escape", "drop", "put back", show=False),
        Binding("space,enter", "select", "pick up / put down", show=False),
        Binding("left", "cursor(-1, 0)", show=False),
        Binding("right", "cursor(1, 0)", show=False),
        Binding("up", "cursor(0, -1)", show=False),
        Binding("down", "cursor(0, 1)", show=False),
    ]

    #: The game played. It changes in place: every change ends in :meth:`_settle`, which tells the widgets.
    game: var[KlondikeGame] = var(KlondikeGame)
    #: The deal's number (None: not known), and whether it counts winnable deals.
    seed: var[int | None] = var(None)
    winnable: var[bool] = var(False)
    #: The date of the daily deal this game is (None: not a daily deal).
    daily: var[str | None] = var(None)
    #: The difficulty of a graded deal (None: the deal was not asked for by its grade).
    grade: var[str | None] = var(None)
    #: The cards picked up (None: none), the keyboard cursor and the move a hint lights up.
    held: var[Held | None] = var(None)
    cursor: var[Spot] = var(Spot(0))
    hint_move: var[Move | None] = var(None)
    #: What the player is told.
    message: var[str] = var("")
    #: True once the solver has proven the game lost (it stays lost, whatever is played next).
    proven_lost: var[bool] = var(False)
    #: The Vegas balance carried across games, this game's included (None: not carried).
    balance: var[int | None] = var(None)
    #: What the table highlights (computed from the game, the cards held, the cursor and the hint).
    marks: var[Marks] = var(Marks)

    def __init__(self, game: KlondikeGame, *, seed: int | None = None, winnable: bool = False,
                 save_path: Path | None = None, autosave_path: Path | None = None,
                 stats_path: Path | None = None, ascii_only: bool = False, notice: str | None = None,
                 balance_path: Path | None = None, seconds: float = 0.0,
                 saved: KlondikeRecord | None = None, daily: str | None = None, grade: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.seed = seed
        self.winnable = winnable
        self.daily = daily
        self.grade = grade
        self.cursor = Spot(0, len(game.tableau[0]) - 1)
        #: The autosave's game, when this game was asked for over it: the first move here leaves it.
        self._saved = saved
        self.message = notice or "Press ? for the keys."
        if saved is not None:
            self.message = saved_notice(saved, stats_path=stats_path)
        self.save_path = save_path
        self.ascii_only = ascii_only
        self._keeper = Keeper(stats_path=stats_path, balance_path=balance_path, autosave_path=autosave_path)
        self._keeper.new_game(seconds)
        self._advisor = Advisor(self, lambda: self.game, unicode=not ascii_only, tell=self._tell,
                                show_hint=self._show_hint, show_lost=self._show_lost)
        self.table = TableView(game, ascii_only=ascii_only)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield self.table.data_bind(KlondikeApp.game, KlondikeApp.marks)
            yield StatusBar(self.game, self._keeper.seconds, id="status").data_bind(
                KlondikeApp.game, KlondikeApp.seed, KlondikeApp.winnable, KlondikeApp.balance,
                KlondikeApp.proven_lost, KlondikeApp.daily, KlondikeApp.grade)
            yield MessageLine(id="message").data_bind(text=KlondikeApp.message)

    def on_mount(self) -> None:
        self._advisor.load_solver()
        self._settle(keep=False)  # opening a game changes no file: the autosave waits for a move

    def on_unmount(self) -> None:
        # The clock ran on since the last move: keep its time with the game (nothing to tell any more).
        game = self.game
        if game.moves and not game.is_won():
            self._keeper.autosave(game, self._headers())

    def compute_marks(self) -> Marks:
        """The table's highlights, computed anew whenever the state changes."""
        held = held_cards(self.game, self.held) if self.held is not None else ()
        return Marks.of(self.game, cursor=self.cursor, held=held, hint=self.hint_move)

    # ----- the game ------------------------------------------------------------------------------

    def play(self, move: Move, *, settle: bool = True) -> bool:
        """Play ``move`` when legal (else say why); True when played."""
        reason = self.game.why_illegal(move, unicode=not self.ascii_only)  # the table's card names
        if reason is not None:
            self.message = f"{reason[:1].upper()}{reason[1:]}."
            return False
        words = describe_move(self.game, move, unicode=not self.ascii_only)
        self.game.play(move)
        self.held = None
        self.hint_move = None
        self.message = f"{words[:1].upper()}{words[1:]}."
        if settle:
            self._settle()
        return True

    def _settle(self, *, keep: bool = True) -> None:
        """After a change to the game: finish a game that is sure to be won,
        notice a won or stuck game, keep the autosave (when ``keep``), and
        show the game anew."""
        game = self.game
        if keep and game.moves:
            self._keeper.start_clock()
            if self._saved is not None:  # the autosave is about to hold this game: the saved one is left
                self.message += leave_saved(self._saved, stats_path=self._keeper.stats_path)
                self._saved = None
        if _fly_home(game):
            self.message = "All cards face up: they fly home. " + ("*" if self.ascii_only else "\u2728")
        if game.is_won():
            self.message += self._keeper.finish(game, self.daily)
            self.message = f"{self.message} You won in {plural(len(game.moves), 'move')}! n: new game, R: review."
            if keep:
                self._keeper.clear_autosave()
        else:
            self._keeper.resume()
            outcome = game.outcome()
            if outcome is not None:
                self.message = f"{outcome.value.capitalize()}: {self._ways_on()}."
            if keep and (trouble := self._keeper.autosave(game, self._headers())):
                self.message = trouble
            if outcome is None and not self.proven_lost:  # from the first move on, or at once when it shows
                self._advisor.judge(game.clone())
        self.cursor = clamp_cursor(game, self.cursor)
        self.balance, trouble = self._keeper.balance(game)
        self.message += trouble
        self.mutate_reactive(KlondikeApp.game)

    def _ways_on(self) -> str:
        """What the player of a lost game can do: undo when a move can be taken back, deal anew, and
        review the game when it has moves."""
        ways = "press u to undo, n for a new game" if self.game.can_undo else "press n for a new game"
        return ways + (", R to review" if self.game.moves else "")

    def _headers(self) -> dict[str, str]:
        if self.daily is not None:
            return {"Daily": self.daily}
        if self.seed is None:
            return {}
        return {"Winnable" if self.winnable else "Seed": str(self.seed),
                **({} if self.grade is None else {GRADE_HEADER: self.grade})}

    def new_game(self, variant: Variant | None = None, number: int | None = None,
                 winnable: bool | None = None, *, daily: datetime.date | None = None,
                 difficulty: str | None = None) -> None:
        """Deal a new game: deal ``number`` (default :meth:`next_number`) in
        ``variant`` (default this game's), winnable-only when ``winnable``
        (default: as now); or the daily deal of ``daily``; or, given a
        ``difficulty``, the first deal of that grade from ``number`` on. A game
        left unfinished after a move counts as a loss
        (:func:`~cardtable.klondike.counts_as_loss`), and the message says so."""
        left = self.game
        counted = ""
        if counts_as_loss(left):
            counted = self._keeper.record(left, won=False, daily=self.daily)
            if self._keeper.stats_path is not None and not counted:
                counted = " The game left counts as a loss."
        variant = variant if variant is not None else left.variant
        number = number if number is not None else self.next_number()
        what = ""
        if daily is not None:
            from cardtable.solver.daily import daily_deal

            position = daily_deal(daily, variant).position
            self.seed, self.winnable, self.daily, self.grade = None, False, daily.isoformat(), None
            what = f"the daily deal of {self.daily}"
        elif difficulty is not None:
            from cardtable.sim.grade import deal_of_grade

            self.seed, _ = deal_of_grade(number, difficulty, variant)
            self.winnable, self.daily, self.grade = False, None, difficulty
            position = Position.from_seed(self.seed)
            what = f"seed {self.seed}, graded {difficulty}"
        else:
            self.seed, self.daily, self.grade = number, None, None
            self.winnable = self.winnable if winnable is None else winnable
            if self.winnable:
                from cardtable.solver import winnable_deal

                position = winnable_deal(self.seed, variant)
            else:
                position = Position.from_seed(self.seed)
            what = f"{'winnable deal' if self.winnable else 'seed'} {self.seed}"
        trouble = self._keeper.carry_balance(left)
        self.held = None
        self.hint_move = None
        self.game = KlondikeGame(position, variant)
        self._keeper.new_game()
        self.proven_lost = False
        self.cursor = Spot(0, 0)
        rule = f" {variant.undo_rule}." if variant.undo_rule else ""
        self.message = f"New game: {what}, {variant.title}.{rule}{counted}{trouble}"
        self._settle()

    def next_number(self) -> int:
        """The deal number ``n`` offers: the one after this game's, else a random one."""
        return self.seed + 1 if self.seed is not None else secrets.randbelow(1_000_000)

    # ----- the solver's word -----------------------------------------------------------------------

    def _tell(self, text: str) -> None:
        self.message = text

    def _show_hint(self, move: Move | None, text: str) -> None:
        self.hint_move = move
        self.message = text

    def _show_lost(self) -> None:
        if not self.proven_lost:
            self.proven_lost = True
            ways = "u undoes, n deals anew" if self.game.can_undo else "n deals anew"
            self.message = f"{self.message} The solver has proven this game lost: {ways}."

    # ----- picking up and putting down -----------------------------------------------------------

    def on_table_view_clicked(self, event: TableView.Clicked) -> None:
        self._choose(event.spot, event.clicks)

    def on_table_view_dragged(self, event: TableView.Dragged) -> None:
        """A drag moves the cards pressed on (that card and those on it) to
        where they are released, when that is a move; else nothing moves."""
        self.held = None
        if event.source.place == STOCK:
            self.message = "The stock is not dragged: click it to draw."
            return
        held = pick_up(self.game, event.source)
        if isinstance(held, str):
            self.message = held
            return
        move = put_down(self.game, held, event.target) if event.target is not None else None
        if move is None:
            self.message = "Put back."
        elif isinstance(move, str):
            self.message = move
        else:
            self.play(move)

    def _choose(self, spot: Spot, clicks: int = 1) -> None:
        """A click (or space at the cursor) on ``spot``: pick up there, or
        put down what is held; a double click sends the card home."""
        if clicks >= 2:
            self.held = None
            if spot.place == WASTE or 0 <= spot.place < 7:
                self.play(Move(spot.place, FOUNDATION))
        elif spot.place == STOCK:
            self.held = None
            self.action_draw()
        elif self.held is None:
            self._pick(spot)
        else:
            self._put(spot)

    def _pick(self, spot: Spot) -> None:
        held = pick_up(self.game, spot)
        if isinstance(held, str):
            self.message = held
            return
        self.held = held
        self.hint_move = None
        cards = describe(self.game, held, ascii_only=self.ascii_only)
        self.message = f"Picked up {cards}: now choose where it goes (esc puts it back)."

    def _put(self, spot: Spot) -> None:
        assert self.held is not None
        move = put_down(self.game, self.held, spot)
        if move is None:
            self.held = None
            self.message = "Put back."
        elif isinstance(move, str):
            self.message = move
        elif not self.play(move):
            self.held = None

    # ----- actions -------------------------------------------------------------------------------

    def action_pile(self, pile: int) -> None:
        held, game = self.held, self.game
        if held is None:
            self.cursor = Spot(pile, len(game.tableau[pile]) - 1)
            self._pick(Spot(pile))
        elif held.source == pile:
            if held.count >= len(game.tableau[pile]) - game.face_down[pile]:
                self.message = f"The whole face-up run of pile {pile + 1} is picked up."
                return
            self.held = Held(pile, held.count + 1, grown=True)
            self.message = f"Picked up {describe(game, self.held, ascii_only=self.ascii_only)}."
        else:
            self._put(Spot(pile))

    def action_waste(self) -> None:
        if self.held is None:
            self._pick(Spot(WASTE))
        elif self.held.source == WASTE:
            self.held = None
            self.message = "Put back."
        else:
            self.message = "Cards cannot go onto the waste."

    def action_foundation(self) -> None:
        if self.held is None:
            self.message = "Pick a card first (1-7 or w), then press f."
            return
        self._put(Spot(FOUNDATION, suit=held_cards(self.game, self.held)[-1].suit))

    def action_draw(self) -> None:
        self.held = None
        for move in (DRAW, RECYCLE):
            if self.game.is_legal(move):
                self.play(move)
                return
        self.message = f"Cannot draw: {self.game.why_illegal(DRAW)}."

    def action_auto(self) -> None:
        """Play every card that is safe to send home (Variant.safe_to_foundation)."""
        game, played = self.game, 0
        while True:
            safe = [m for m in game.legal_moves()
                    if m.target == FOUNDATION and m.source != FOUNDATION
                    and game.variant.safe_to_foundation(game.moved_cards(m)[0], game.foundation)]
            if not safe:
                break
            self.play(safe[0], settle=False)
            played += 1
        self.held = None
        self.message = f"Played {played} safe card{'s' if played != 1 else ''} to the foundations."
        self._settle()

    def action_undo(self) -> None:
        reason = self.game.why_no_undo()
        if reason is not None:
            self.message = "Nothing to undo." if not self.game.moves else f"{reason[:1].upper()}{reason[1:]}."
            return
        self.held, self.hint_move = None, None
        move = self.game.undo()
        self.proven_lost = False  # a lost position may be winnable again one move back
        self.message = f"Undid: {describe_move(self.game, move, unicode=not self.ascii_only)}."
        self._settle()

    def action_redo(self) -> None:
        move = self.game.redo_move
        if move is None:
            self.message = "Nothing to redo."
            return
        self.held, self.hint_move = None, None
        words = describe_move(self.game, move, unicode=not self.ascii_only)
        self.game.redo()
        self.message = f"Redid: {words}."
        self._settle()

    def action_new_game(self) -> None:
        from cardtable.app.new_game import NewGame, NewGameScreen

        def chosen(choice: NewGame | None) -> None:
            if choice is not None:
                self.new_game(choice.variant, choice.number, choice.winnable,
                              daily=datetime.date.today() if choice.daily else None, difficulty=choice.difficulty)

        if not self.is_screen_installed("new-game"):
            self.install_screen(NewGameScreen(self.game.variant, self.next_number(), self.winnable), "new-game")
        dialog = self.get_screen("new-game", NewGameScreen)
        dialog.reset(self.game.variant, self.next_number(), self.winnable)
        self.push_screen(dialog, chosen)

    def action_save(self) -> None:
        path = self.save_path if self.save_path is not None else Path.cwd() / DEFAULT_SAVE_NAME
        try:
            atomic_write_text(path, str(KlondikeRecord.from_game(self.game, **self._headers())))
        except (OSError, CardtableError) as error:
            self.message = f"Could not save: {describe_error(error)}; the game is kept here, press s to try again."
            return
        self.message = f"Saved the game record to {path}."

    def action_help(self) -> None:
        show_page(self, "help", HELP)

    def action_stats(self) -> None:
        self.push_screen(TextScreen(self._keeper.stats_text(self.game.variant.label)))

    def action_drop(self) -> None:
        if self.held is not None:
            self.held = None
            self.message = "Put back."

    def action_select(self) -> None:
        self._choose(self.cursor)

    def action_cursor(self, across: int, down: int) -> None:
        """Move the cursor (see :func:`~cardtable.app.table.step_cursor`)."""
        self.cursor = step_cursor(self.game, self.cursor, across, down)

    def action_peek(self) -> None:
        """Turn peeking on or off: the solver's word with every card known."""
        advisor = self._advisor
        advisor.peek = not advisor.peek
        if advisor.peek:
            self.message = f"{PEEK_LABEL[:1].upper()}{PEEK_LABEL[1:]}: on. H: off."
            if not self.game.is_won() and not self.proven_lost:
                advisor.judge(self.game.clone())
        else:
            self.message = "Peek: off. Hints come from what you see. H: peek."

    #: The review's budget (``R``): guesses and search states a position, and the peek's states.
    review_samples = REVIEW_SAMPLES
    review_states = REVIEW_STATES
    review_peek_states = VERDICT_MAX_STATES

    def action_review(self) -> None:
        """Review the game so far, move by move (:mod:`cardtable.app.review`). The peek's
        verdict comes with it only once the game is over, or while the player peeks."""
        from cardtable.app.review import ReviewScreen

        game = self.game
        if not game.moves:
            self.message = "Nothing to review yet: play a move first."
            return
        over = game.is_won() or game.outcome() is not None
        peek = self.review_peek_states if over or self._advisor.peek else None
        self.push_screen(ReviewScreen(KlondikeRecord.from_game(game), samples=self.review_samples,
                                      max_states=self.review_states, peek_states=peek, ascii_only=self.ascii_only))

    def action_hint(self) -> None:
        if self._advisor.thinking:
            self.message = "Still thinking about the last hint..."
        elif self.game.is_won():
            self.message = "The game is won."
        else:
            self.message = "Thinking..."
            self._advisor.hint(self.game.clone())


def _fly_home(game: KlondikeGame) -> bool:
    """With every card face up and the stock and waste empty the game is
    won: play it out, the lowest card each time. True when it did."""
    if game.is_won() or game.stock or game.waste or any(game.face_down):
        return False
    while not game.is_won():
        home = [m for m in game.legal_moves() if m.target == FOUNDATION and m.source != FOUNDATION]
        if not home:
            return False
        game.play(min(home, key=lambda m: game.moved_cards(m)[0].rank))
    return True
