"""Klondike in the terminal: the table, the keys, the mouse, hints and the autosave.

The app is a thin client of the library: the engine
(:class:`~cardtable.klondike.KlondikeGame`) decides what is legal, the solver
gives hints (in a worker thread, so the table stays live), and after every
move the game record is written to the autosave. See :data:`HELP` for the keys.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from cardtable._files import atomic_write_text
from cardtable.app import autosave
from cardtable.app.screens import TextScreen, show_page
from cardtable.app.table import Marks, Spot, TableView
from cardtable.cards import Card, Suit
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
)
from cardtable.klondike.moves import location_name
from cardtable.klondike.narrate import describe_move

__all__ = ["HELP", "HINT_MAX_STATES", "HINT_TIMEOUT", "VERDICT_MAX_STATES", "KlondikeApp"]

#: The hint's search budget: small, so an answer comes at once.
HINT_TIMEOUT = 1.0
HINT_MAX_STATES = 300_000
#: The state budget of the check after each move that tells when the game can no longer be won
#: (a millisecond or so for most positions; a position it cannot decide in this budget says nothing).
VERDICT_MAX_STATES = 50_000
#: Set once the solver's compiled code is loaded in this process: the app loads it in a
#: thread as it opens (on a fresh install numba compiles it first), and every search waits
#: for it, so that a hint's second of searching is not spent loading code.
_solver_loaded = threading.Event()
#: Where ``s`` saves when no ``--save`` file was given (in the current folder).
DEFAULT_SAVE_NAME = "cardtable-game.txt"

HELP = """\
Klondike: build the four foundations up by suit, from ace to king.

  1-7          pick up the top card of a pile; the same key again takes one
               more card of its face-up run
  w            pick up the waste card
  1-7 / f      with cards picked up: put them on that pile / the foundation
  arrows       move the cursor; up and down walk a pile's face-up run
  space, enter pick up at the cursor, or put down there; esc puts back
  d            draw from the stock (or turn the waste over)
  a            play every safe card to the foundations
  u, ctrl+z    undo            ctrl+y   redo
  h            hint: the solver looks for a win for about a second
  n            new game: rules, deal number, winnable only (enter: next)
  s            save the game record (--save FILE, else ./cardtable-game.txt)
  t            statistics of your games in each variant
  ?            this help       q        quit
Mouse: click a card or a run, then where it goes; double-click sends a card
home; click the stock to draw. Every move is saved, and 'cardtable play'
brings the game back. The solver says when a game can no longer be won.
Any key closes this."""


@dataclass(frozen=True)
class Held:
    """Cards picked up: ``count`` from ``source`` (a pile, the waste or the
    foundation of ``suit``). ``grown`` says the player chose the run's length."""

    source: int
    count: int = 1
    suit: Suit | None = None
    grown: bool = False


class KlondikeApp(App[None]):
    """The Klondike table.

    ``game`` is played (its moves so far can be undone); ``seed`` is the
    deal's seed when known (``n`` deals seed + 1; with ``winnable`` the seed
    counts winnable deals, as ``cardtable deal --winnable`` does);
    ``save_path`` is where ``s`` writes; ``autosave_path`` (None: no
    autosave) keeps the game after every move; ``notice`` is shown first.
    """

    TITLE = "cardtable: Klondike"
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-background; }
    #message { height: auto; max-height: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"pile({n - 1})", f"pile {n}", show=False) for n in range(1, 8)),
        Binding("w", "waste", "waste", show=False),
        Binding("f", "foundation", "foundation", show=False),
        Binding("d", "draw", "draw", show=False),
        Binding("a", "auto", "auto-play", show=False),
        Binding("u,ctrl+z", "undo", "undo", show=False),
        Binding("ctrl+y", "redo", "redo", show=False),
        Binding("h", "hint", "hint", show=False),
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

    def __init__(self, game: KlondikeGame, *, seed: int | None = None, winnable: bool = False,
                 save_path: Path | None = None, autosave_path: Path | None = None,
                 stats_path: Path | None = None, ascii_only: bool = False, notice: str | None = None,
                 balance_path: Path | None = None) -> None:
        super().__init__()
        #: Under Vegas scoring, the file that carries the balance from game to game (None: each game alone).
        self.balance_path = balance_path
        self._carried = False
        self._balances: dict[str, int] | None = None  # read when first shown
        #: The solver's word on the position now: "unwinnable" once proven lost, else None.
        self._verdict: str | None = None
        #: The results store that keeps the statistics of finished games (None: none kept).
        self.stats_path = stats_path
        self._recorded = False
        self.game = game
        self.seed = seed
        self.winnable = winnable
        self.save_path = save_path
        self.autosave_path = autosave_path
        self.ascii_only = ascii_only
        self.held: Held | None = None
        self.cursor = Spot(0, len(game.tableau[0]) - 1)
        self.message = notice or "Press ? for the keys."
        self.hint_move: Move | None = None
        self._started = time.monotonic()
        self._finished_after: float | None = None
        self._hinting = False
        self.table = TableView(game, self.on_spot, ascii_only=ascii_only)

    # ----- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical():
            yield self.table
            yield Static(id="status", markup=False)
            yield Static(id="message", markup=False)

    def on_mount(self) -> None:
        self.set_interval(1.0, self._show_status)
        self._load_solver()
        self._settle(keep=False)  # opening a game changes no file: the autosave waits for a move

    @work(thread=True, group="load-solver")
    def _load_solver(self) -> None:
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

    def _show_status(self) -> None:
        game = self.game
        end = self._finished_after if self._finished_after is not None else time.monotonic() - self._started
        parts = [f"Moves {len(game.moves)}", f"Time {_clock(end)}"]
        scoring = game.variant.scoring.kind
        if scoring == "vegas" and self.balance_path is not None:
            carried = 0 if self._carried else game.score
            parts.append(f"Balance {_dollars(self._balance() + carried)} (game {_dollars(game.score)})")
        elif scoring == "vegas":
            parts.append(f"Balance {_dollars(game.score)}")
        elif scoring == "standard":
            parts.append(f"Score {game.score}")
        left = game.passes_left
        parts.append("Passes unlimited" if left is None else f"Passes left {left}")
        parts.append(f"Draw {game.variant.draw}")
        if self.seed is not None:
            parts.append(f"{'Winnable #' if self.winnable else 'Seed '}{self.seed}")
        if self._verdict == "unwinnable" and not game.is_won():
            parts.append("Cannot be won")
        self.query_one("#status", Static).update("  ".join(parts))

    def _refresh(self) -> None:
        """Redraw the table, status and message from the game and the marks."""
        game = self.game
        marks = Marks(cursor=self.cursor)
        if self.held is not None:
            marks.held = set(self._held_cards(self.held))
        if self.hint_move is not None and game.is_legal(self.hint_move):
            move = self.hint_move
            if move.is_draw or move.is_recycle:
                marks.hint_places.add(Spot(STOCK))
            else:
                marks.hinted = set(game.moved_cards(move))
                marks.hint_places.add(self._target_spot(move))
        self.table.game = game
        self.table.marks = marks
        self.table.refresh()
        self._show_status()
        self.query_one("#message", Static).update(self.message)

    def _target_spot(self, move: Move) -> Spot:
        if move.target == FOUNDATION:
            card = self.game.moved_cards(move)[0]
            return Spot(FOUNDATION, suit=card.suit)
        pile = self.game.tableau[move.target]
        return Spot(move.target, len(pile) - 1)

    def _held_cards(self, held: Held) -> list[Card]:
        game = self.game
        if held.source == WASTE:
            return game.waste[-1:]
        if held.source == FOUNDATION:
            assert held.suit is not None
            return [Card(game.foundation[held.suit], held.suit)]
        return game.tableau[held.source][-held.count:]

    # ----- the game ------------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        if self.seed is None:
            return {}
        return {"Winnable" if self.winnable else "Seed": str(self.seed)}

    def play(self, move: Move, *, settle: bool = True) -> bool:
        """Play ``move`` when legal (else say why); True when played."""
        reason = self.game.why_illegal(move)
        if reason is not None:
            self.message = f"{move}: {reason}"
            self._refresh()
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
        """After a change: finish a game that is sure to be won, notice a won
        or stuck game, keep the autosave (when ``keep``), redraw."""
        game = self._finish_if_open()
        if game.is_won():
            if self._finished_after is None:
                self._finished_after = time.monotonic() - self._started
                self._record_played(won=True)
                self.message += self._carry_balance()
            self.message = f"{self.message} You won in {len(game.moves)} moves! n: new game."
            if keep and self.autosave_path is not None:
                autosave.clear(self.autosave_path)
        else:
            self._finished_after = None
            outcome = game.outcome()
            if outcome is not None:
                self.message = f"{outcome.value.capitalize()}: press u to undo or n for a new game."
            if keep:
                self._autosave()
            if outcome is None:
                self._judge_soon()
        self._clamp_cursor()
        self._refresh()

    # ----- the solver's word: can the game still be won? --------------------------------------

    def _judge_soon(self) -> None:
        """Ask the solver, in a thread, whether the position can still be won
        (once it is proven lost it stays lost, whatever is played next)."""
        if self._verdict == "unwinnable" or not self.game.moves:
            return
        self._judge(self.game.clone())

    @work(thread=True, exclusive=True, group="verdict")
    def _judge(self, game: KlondikeGame) -> None:
        from cardtable.solver import solve

        _solver_loaded.wait()
        try:
            result = solve(game.position(), game.variant, max_states=VERDICT_MAX_STATES).result
        except CardtableError:
            return
        self.call_from_thread(self._show_verdict, game.key(), result)

    def _show_verdict(self, key: tuple[object, ...], result: str) -> None:
        if key != self.game.key() or result != "unwinnable" or self._verdict == "unwinnable":
            return  # the game moved on, or nothing to say
        self._verdict = result
        self.message = f"{self.message} The solver has proven this game lost: u undoes, n deals anew."
        self._refresh()

    # ----- the Vegas balance across games ------------------------------------------------------

    def _balance(self) -> int:
        """The balance carried from earlier games of this variant (0 with none)."""
        if self.balance_path is None:
            return 0
        if self._balances is None:
            try:
                self._balances = autosave.read_balances(self.balance_path)
            except (OSError, CardtableError) as error:
                self._balances = {}
                self.message = f"{self.message} Could not read the balance: {error}"
        return self._balances.get(self.game.variant.label, 0)

    def _carry_balance(self) -> str:
        """Add this game's Vegas result to the carried balance, once, when it
        counts: it was won, or left for a new game after a move. Returns what
        to tell the player when that failed (else "")."""
        game = self.game
        if self.balance_path is None or self._carried or not game.moves or game.variant.scoring.kind != "vegas":
            return ""
        self._carried = True
        label = game.variant.label
        try:
            balances = autosave.read_balances(self.balance_path)
            balances[label] = balances.get(label, 0) + game.score
            autosave.write_balances(self.balance_path, balances)
            self._balances = balances
        except (OSError, CardtableError) as error:
            return f" Could not keep the balance: {error}"
        return ""

    def _finish_if_open(self) -> KlondikeGame:
        """With every card face up and the stock and waste empty the game is
        won: play it out, the lowest card each time."""
        game = self.game
        if game.is_won() or game.stock or game.waste or any(game.face_down):
            return game
        while not game.is_won():
            home = [m for m in game.legal_moves() if m.target == FOUNDATION and m.source != FOUNDATION]
            if not home:
                return game
            game.play(min(home, key=lambda m: game.moved_cards(m)[0].rank))
        self.message = "All cards face up: they fly home. " + ("*" if self.ascii_only else "\u2728")
        return game

    def _record_played(self, *, won: bool) -> None:
        """Count this game in the statistics of its variant, once: a win when
        it is won, a loss when it is left for a new game after a move."""
        game = self.game
        if self._recorded or self.stats_path is None or not game.moves:
            return
        self._recorded = True
        from cardtable.runs.store import ResultsStore
        from cardtable.sim.played import PlayedGame, record_played

        seconds = self._finished_after if self._finished_after is not None else time.monotonic() - self._started
        start = game.start.deal_string() if game.start.is_deal else str(game.start)
        try:
            with ResultsStore(self.stats_path) as store:
                record_played(store, PlayedGame.of(game.variant, start=start, won=won, seconds=round(seconds, 3),
                                                   moves=len(game.moves), foundation=game.foundation_count()))
        except (OSError, CardtableError) as error:
            self.message = f"{self.message} Could not keep the statistics: {error}"

    def _autosave(self) -> None:
        if self.autosave_path is None:
            return
        try:
            autosave.save(self.autosave_path, self.game, self._headers())
        except (OSError, CardtableError) as error:
            self.message = f"Could not autosave: {error}"

    def _clamp_cursor(self) -> None:
        spot = self.cursor
        if 0 <= spot.place < 7:
            cards, down = self.game.tableau[spot.place], self.game.face_down[spot.place]
            if not down <= spot.depth < len(cards):
                self.cursor = Spot(spot.place, len(cards) - 1)

    def next_number(self) -> int:
        """The deal number ``n`` offers: the one after this game's, else a random one."""
        return self.seed + 1 if self.seed is not None else secrets.randbelow(1_000_000)

    def new_game(self, variant: Variant | None = None, number: int | None = None,
                 winnable: bool | None = None) -> None:
        """Deal a new game: deal ``number`` (default :meth:`next_number`) in
        ``variant`` (default this game's), winnable-only when ``winnable``
        (default: as now). A game left unfinished after a move counts as a loss."""
        if not self.game.is_won():
            self._record_played(won=False)
        variant = variant if variant is not None else self.game.variant
        self.seed = number if number is not None else self.next_number()
        self.winnable = self.winnable if winnable is None else winnable
        if self.winnable:
            from cardtable.solver import winnable_deal

            position = winnable_deal(self.seed, variant)
        else:
            position = Position.from_seed(self.seed)
        trouble = self._carry_balance()
        self._carried = False
        self.game = KlondikeGame(position, variant)
        self.held = None
        self.hint_move = None
        self._started = time.monotonic()
        self._finished_after = None
        self._recorded = False
        self._verdict = None
        self.cursor = Spot(0, 0)
        self.message = (f"New game: {'winnable deal' if self.winnable else 'seed'} {self.seed}, "
                        f"{variant.label}.{trouble}")
        self._settle()

    # ----- picking up and putting down -----------------------------------------------------------

    def on_spot(self, spot: Spot, clicks: int = 1) -> None:
        """A click (or space at the cursor) on ``spot``."""
        if clicks >= 2:  # a double click sends the card home
            self.held = None
            if spot.place == WASTE or 0 <= spot.place < 7:
                self.play(Move(spot.place, FOUNDATION))
            return
        if spot.place == STOCK:
            self.held = None
            self.action_draw()
        elif self.held is None:
            self._pick(spot)
        else:
            self._put(spot)

    def _pick(self, spot: Spot) -> None:
        game = self.game
        if spot.place == WASTE:
            if not game.waste:
                return self._say("The waste is empty: press d to draw.")
            self.held = Held(WASTE)
        elif spot.place == FOUNDATION:
            assert spot.suit is not None
            if not game.foundation[spot.suit]:
                return self._say("That foundation is empty.")
            if not game.variant.foundation_return:
                return self._say("Cards may not come back from the foundations in this variant.")
            self.held = Held(FOUNDATION, suit=spot.suit)
        else:
            cards, down = game.tableau[spot.place], game.face_down[spot.place]
            depth = len(cards) - 1 if spot.depth < 0 else spot.depth
            if not cards or depth < down:
                return self._say("Nothing to pick up there.")
            count = len(cards) - depth
            self.held = Held(spot.place, count, grown=count > 1)
        self.hint_move = None
        self.message = f"Picked up {self._describe(self.held)}: now choose where it goes (esc puts it back)."
        self._refresh()

    def _put(self, spot: Spot) -> None:
        held = self.held
        assert held is not None
        if spot.place == held.source and (held.source != FOUNDATION or spot.suit == held.suit):
            self.held = None
            return self._say("Put back.")
        if spot.place == WASTE:
            return self._say("Cards cannot go onto the waste.")
        target = FOUNDATION if spot.place == FOUNDATION else spot.place
        if target == FOUNDATION and held.count > 1:
            return self._say("Only one card at a time goes to a foundation.")
        if held.source == FOUNDATION and target == FOUNDATION:
            self.held = None
            return self._say("Put back.")
        move = Move(held.source, target, held.count, held.suit)
        if not self.game.is_legal(move) and not held.grown:
            fits = [m for m in self.game.legal_moves()
                    if m.source == move.source and m.target == target and m.suit == move.suit]
            if len(fits) == 1:
                move = fits[0]
        if not self.play(move):
            self.held = None
            self._refresh()

    def _describe(self, held: Held) -> str:
        cards = self._held_cards(held)
        names = " ".join(str(c) if self.ascii_only else c.symbol() for c in cards)
        if held.source == WASTE:
            return f"{names} from the waste"
        return f"{names} from pile {location_name(held.source)}" if held.source != FOUNDATION else names

    def _say(self, message: str) -> None:
        self.message = message
        self._refresh()

    # ----- actions -------------------------------------------------------------------------------

    def action_pile(self, pile: int) -> None:
        held, game = self.held, self.game
        if held is None:
            self.cursor = Spot(pile, len(game.tableau[pile]) - 1)
            self._pick(Spot(pile))
        elif held.source == pile:
            run = len(game.tableau[pile]) - game.face_down[pile]
            if held.count >= run:
                return self._say(f"The whole face-up run of pile {pile + 1} is picked up.")
            self.held = Held(pile, held.count + 1, grown=True)
            self.message = f"Picked up {self._describe(self.held)}."
            self._refresh()
        else:
            self._put(Spot(pile))

    def action_waste(self) -> None:
        if self.held is None:
            self._pick(Spot(WASTE))
        elif self.held.source == WASTE:
            self.held = None
            self._say("Put back.")
        else:
            self._say("Cards cannot go onto the waste.")

    def action_foundation(self) -> None:
        if self.held is None:
            return self._say("Pick a card first (1-7 or w), then press f.")
        self._put(Spot(FOUNDATION, suit=self._held_cards(self.held)[-1].suit))

    def action_draw(self) -> None:
        self.held = None
        for move in (DRAW, RECYCLE):
            if self.game.is_legal(move):
                self.play(move)
                return
        self._say(f"Cannot draw: {self.game.why_illegal(DRAW)}.")

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
        if not self.game.can_undo:
            return self._say("Nothing to undo.")
        move = self.game.undo()
        self.held, self.hint_move = None, None
        self._verdict = None  # a lost position may be winnable again one move back
        self.message = f"Undid: {describe_move(self.game, move, unicode=not self.ascii_only)}."
        self._settle()

    def action_redo(self) -> None:
        if not self.game.can_redo:
            return self._say("Nothing to redo.")
        move = self.game.redo_move
        assert move is not None
        words = describe_move(self.game, move, unicode=not self.ascii_only)
        self.game.redo()
        self.held, self.hint_move = None, None
        self.message = f"Redid: {words}."
        self._settle()

    def action_new_game(self) -> None:
        from cardtable.app.new_game import NewGame, NewGameScreen

        def chosen(choice: NewGame | None) -> None:
            if choice is not None:
                self.new_game(choice.variant, choice.number, choice.winnable)

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
            return self._say(f"Could not save: {error}")
        self._say(f"Saved the game record to {path}.")

    def action_help(self) -> None:
        show_page(self, "help", HELP)

    def action_stats(self) -> None:
        self.push_screen(TextScreen(self.stats_text()))

    def stats_text(self) -> str:
        """The statistics page: this variant's figures first, then every other
        variant played (from the results store; nothing is written)."""
        from cardtable.runs.store import ResultsStore
        from cardtable.sim.played import play_stats

        if self.stats_path is None:
            return "No statistics are kept in this session (--no-stats).\nAny key closes this."
        if not self.stats_path.exists():
            return "No games finished yet: a won game, or one left for a new game, counts.\nAny key closes this."
        current = self.game.variant.label
        try:
            with ResultsStore(self.stats_path, create=False) as store:
                every = play_stats(store)
        except (OSError, CardtableError) as error:
            return f"The statistics cannot be read: {error}\nAny key closes this."
        every.sort(key=lambda s: (s.variant != current, s.variant))
        lines = [f"{'Your games':<12} {'played':>6} {'won':>5} {'rate':>6} {'streak':>6} {'best':>5} "
                 f"{'fastest':>8} {'fewest':>6}", ""]
        for stats in every:
            best_time = "-" if stats.best_seconds is None else _clock(stats.best_seconds)
            fewest = "-" if stats.fewest_moves is None else str(stats.fewest_moves)
            lines.append(f"{stats.variant[:12]:<12} {stats.played:>6} {stats.won:>5} {stats.win_rate:>6.0%} "
                         f"{stats.current_streak:>6} {stats.best_streak:>5} {best_time:>8} {fewest:>6}")
        if not every:
            lines.append("No games finished yet.")
        elif every[0].variant != current:
            lines.insert(2, f"{current[:60]}: no games finished yet")
        lines += ["", "streak: wins in a row now; best: the longest; fastest and fewest: over wins.",
                  "'cardtable stats' gives each variant's whole name. Any key closes this."]
        return "\n".join(lines)

    def action_drop(self) -> None:
        if self.held is not None:
            self.held = None
            self._say("Put back.")

    def action_select(self) -> None:
        self.on_spot(self.cursor)

    def action_cursor(self, across: int, down: int) -> None:
        """Move the cursor: the top row is stock, waste and the four
        foundations; below are the piles, where up and down walk the face-up
        run (up from a pile's first face-up card goes to the top row)."""
        game, spot = self.game, self.cursor
        top_row = [Spot(STOCK), Spot(WASTE), *(Spot(FOUNDATION, suit=s) for s in Suit)]
        if spot.place in (STOCK, WASTE, FOUNDATION):
            column = top_row.index(spot) if spot in top_row else 0
            pile = column if column < 2 else column + 1
            if across:
                self.cursor = top_row[(column + across) % len(top_row)]
            elif down > 0:
                self.cursor = Spot(pile, len(game.tableau[pile]) - 1)
        else:
            pile = spot.place
            cards, down_count = game.tableau[pile], game.face_down[pile]
            if across:
                pile = (pile + across) % 7
                self.cursor = Spot(pile, len(game.tableau[pile]) - 1)
            elif down < 0:
                if spot.depth > down_count:
                    self.cursor = Spot(pile, spot.depth - 1)
                else:
                    self.cursor = top_row[pile if pile < 2 else min(pile - 1, 5)]
            elif spot.depth < len(cards) - 1:
                self.cursor = Spot(pile, spot.depth + 1)
        self._refresh()

    # ----- hints ---------------------------------------------------------------------------------

    def action_hint(self) -> None:
        if self._hinting:
            return self._say("Still thinking about the last hint...")
        if self.game.is_won():
            return self._say("The game is won.")
        self._hinting = True
        self._say("Thinking...")
        self._find_hint(self.game.clone())

    @work(thread=True, exclusive=True, group="hint")
    def _find_hint(self, game: KlondikeGame) -> None:
        from cardtable.solver import hint

        if not _solver_loaded.is_set():
            self.call_from_thread(self._say, "Thinking... (loading the solver: the first time takes longer)")
            _solver_loaded.wait()
        try:
            found = hint(game, timeout=HINT_TIMEOUT, max_states=HINT_MAX_STATES)
        except CardtableError as error:
            self.call_from_thread(self._hint_failed, str(error))
            return
        result = found.search.result
        said = "" if found.move is None else describe_move(game, found.move, unicode=not self.ascii_only)
        if found.move is None:
            text = "No legal move is left."
        elif found.winning:
            text = f"Hint: {said}. This position can be won ({len(found.solution)} moves)."
        elif result == "unwinnable":
            text = f"Hint: {said} (best guess). This position cannot be won: u undoes, n deals anew."
        else:
            text = f"Hint: {said} (best guess: the solver found no answer in time; not yet known)."
        self.call_from_thread(self._show_hint, game.key(), found.move, text)

    def _show_hint(self, key: tuple[object, ...], move: Move | None, text: str) -> None:
        self._hinting = False
        if key != self.game.key():  # the game moved on while the solver thought
            return self._say("The position changed: press h again for a hint.")
        self.hint_move = move
        self._say(text)

    def _hint_failed(self, reason: str) -> None:
        self._hinting = False
        self._say(f"No hint: {reason}")


def _dollars(amount: int) -> str:
    """``$12`` or ``-$52``.

    >>> _dollars(-52), _dollars(0)
    ('-$52', '$0')
    """
    return f"-${-amount}" if amount < 0 else f"${amount}"


def _clock(seconds: float) -> str:
    """``M:SS``, or ``H:MM:SS`` from an hour on."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
