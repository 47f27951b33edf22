"""Kings Corner in the terminal: you against bots, with keys and the mouse.

The app is a thin client of the library: the engine
(:class:`~cardtable.kings_corner.KingsCornerGame`) decides what is legal and
explains what is not, the table
(:class:`~cardtable.kings_corner.session.KingsCornerSession`) deals the hands,
seats and seeds the bots and keeps the penalty totals, the bots choose their
actions from their own views, and the ``expert``'s plan from the player's own
view (:func:`~cardtable.bots.kings_corner.expert.expert_plan`, its guesses
seeded by that view) gives hints. The bots'
actions are shown one by one with a Textual timer (``delay`` seconds apart;
space plays the rest at once). Hands go on until someone's penalty total
reaches ``target``, dealt, seated and seeded by the table's one rule, as in the
line seat (:class:`cardtable.cli.kings_corner_seat.HumanSeat`) and in bot
matches. See :data:`HELP`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from functools import partial
from importlib import resources
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid
from textual.timer import Timer
from textual.widgets import Static

from cardtable._files import atomic_write_text, describe_error
from cardtable._text import plural
from cardtable.app.screens import show_page
from cardtable.bots.kings_corner import make_bot
from cardtable.bots.kings_corner.expert import expert_plan
from cardtable.cards import Card
from cardtable.errors import CardtableError
from cardtable.kings_corner.actions import DRAW, PASS, Action, Draw, MovePile, Pass, PlayCard
from cardtable.kings_corner.game import KingsCornerGame
from cardtable.kings_corner.record import HandRecord
from cardtable.kings_corner.render import card_text, describe_action
from cardtable.kings_corner.session import KingsCornerSession
from cardtable.kings_corner.table import CORNERS, PilePosition

__all__ = ["DEFAULT_SAVE", "HELP", "KingsCornerApp"]

#: Where ctrl+s writes the hand when ``--save`` names no file.
DEFAULT_SAVE = "cardtable-hand.txt"

HELP = resources.files("cardtable.app").joinpath("kings_corner_help.md").read_text(encoding="utf-8").removesuffix("\n")

#: A card in the engine's notation, inside a sentence (``7h``, ``Td``, ``10s``).
_CARD_NOTATION = re.compile(r"\b(?:10|[2-9TJQKA])[cdhs]\b")

#: The corners in the order of the ``c 1-4`` keys.
_CORNER_KEYS = CORNERS
#: The cross, row by row (None: the deck in the middle).
_GRID = (
    (PilePosition.NW, PilePosition.N, PilePosition.NE),
    (PilePosition.W, None, PilePosition.E),
    (PilePosition.SW, PilePosition.S, PilePosition.SE),
)
#: Width of one card of the hand on screen ("1:7♥  ").
_CELL = 6


def _show(widget: Static, content: str | Text) -> None:
    """Give ``widget`` this content, only when it is new: an update lays the
    screen out again, and a key changes only a few of the table's parts."""
    if widget.content != content:
        widget.update(content)


def _pile_key(position: PilePosition) -> str:
    if position.is_corner:
        return f"c{_CORNER_KEYS.index(position) + 1}"
    return position.name.lower()


def _card(card: Card, ascii_only: bool, style: str = "") -> Text:
    colour = "red" if card.is_red else ""
    return Text(card_text(card, not ascii_only), style=f"{colour} {style}".strip())


class PileBox(Static):
    """One pile of the cross: its top card, its bottom card and its size."""

    def __init__(self, position: PilePosition, on_choose: Callable[[PilePosition], None]) -> None:
        super().__init__(id=f"pile-{position.name}")
        self.position = position
        self._on_choose = on_choose
        self.border_title = f"{position.name} · key {_pile_key(position)}"

    def show(self, cards: tuple[Card, ...], ascii_only: bool) -> None:
        if not cards:
            _show(self, Text("empty" + (" (a king)" if self.position.is_corner else ""), style="dim"))
            return
        text = Text("top ")
        text.append_text(_card(cards[-1], ascii_only, "bold"))
        if len(cards) > 1:
            text.append("\nfrom ")
            text.append_text(_card(cards[0], ascii_only))
        text.append(f", {len(cards)} card{'s' * (len(cards) != 1)}" if len(cards) > 1 else "\n1 card")
        _show(self, text)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self._on_choose(self.position)


class HandView(Static):
    """Your hand, sorted by rank then suit, each card in a cell of :data:`_CELL` columns."""

    def __init__(self, on_choose: Callable[[int], None]) -> None:
        super().__init__(id="hand")
        self._on_choose = on_choose
        self.border_title = "Your hand"

    def per_row(self) -> int:
        width = self.content_size.width or self.app.size.width - 2  # before the first layout
        return max(1, width // _CELL)

    def show(self, cards: list[Card], ascii_only: bool, *, cursor: int | None,
             chosen: Card | None, hinted: Card | None) -> None:
        text = Text()
        per_row = self.per_row()
        for index, card in enumerate(cards):
            if index and index % per_row == 0:
                text.append("\n")
            label = f"{index + 1}:" if index < 9 else "  "
            style = "reverse" if card == chosen else "bold green" if card == hinted else ""
            if index == cursor:
                style += " underline"
            cell = Text(label, style="dim")
            cell.append_text(_card(card, ascii_only, style))
            text.append_text(cell)
            text.append(" " * (_CELL - cell.cell_len))
        _show(self, text if cards else Text("(empty)", style="dim"))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        offset = event.get_content_offset(self)
        if offset is None:
            return
        self._on_choose(offset.y * self.per_row() + offset.x // _CELL)


class KingsCornerApp(App[None]):
    """You and ``opponents`` bots of ``level`` at a Kings Corner table, hand after
    hand until a penalty total reaches ``target``. The table is a
    :class:`~cardtable.kings_corner.session.KingsCornerSession` with you as its
    first entry: you move first in hand 0, then the first player rotates."""

    TITLE = "cardtable: Kings Corner"
    CSS_PATH = "kings_corner.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"digit({n})", show=False) for n in range(1, 10)),
        *(Binding(p.name.lower(), f"pile('{p.name}')", show=False) for p in (
            PilePosition.N, PilePosition.E, PilePosition.S, PilePosition.W)),
        Binding("c", "corner", "corner", show=False),
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("space,enter", "select", "choose / skip / next hand", show=False),
        Binding("escape", "drop", "put back", show=False),
        Binding("d", "end_turn", "end the turn", show=False),
        Binding("u", "undo", "undo", show=False),
        Binding("h", "hint", "hint", show=False),
        Binding("m", "new_match", "new match", show=False),
        Binding("ctrl+s", "save", "save", show=False),
        Binding("question_mark", "help", "help", show=False),
        Binding("q", "quit", "quit", show=False),
    ]

    def __init__(self, *, opponents: int = 3, level: str = "expert", seed: int | None = None,
                 target: int = 25, delay: float = 0.6, ascii_only: bool = False,
                 save_path: Path | None = None, stats_path: Path | None = None) -> None:
        super().__init__()
        #: The results store that keeps your hands' statistics (None: none kept).
        self.stats_path = stats_path
        self._hand_started = time.monotonic()
        #: Where ctrl+s writes the hand; given, every finished hand is written there as well.
        self.save_path = save_path
        make_bot(level)  # an unknown level fails here, before anything is shown
        self.opponents = opponents
        self.level = level
        self.seed = seed if seed is not None else time.time_ns() & ((1 << 63) - 1)
        self.target = target
        self.delay = delay
        self.ascii_only = ascii_only
        self.players = opponents + 1
        #: The table: the hands, the seats and the match's penalty totals.
        self.session = self._sit_down()
        #: "you", "bots", "hand-over" or "match-over".
        self.phase = "you"
        self.chosen: Card | PilePosition | None = None
        self.cursor = 0
        self.hint: list[Action] = []
        self.message = ""
        self.recent: list[str] = []
        self._turn_start = 0
        self._corner_pending = False
        self._timer: Timer | None = None
        self.piles = {p: PileBox(p, self.choose_pile) for row in _GRID for p in row if p is not None}
        self.hand_view = HandView(self.choose_card)

    def _sit_down(self) -> KingsCornerSession:
        """A new match at the table, dealt from ``self.seed``."""
        return KingsCornerSession(
            [None] + [partial(make_bot, self.level)] * self.opponents, self.seed, target=self.target,
            names=["You"] + [f"Bot {i}" for i in range(1, self.players)])

    # ----- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="head", markup=False)
        yield Static(id="players", markup=False)
        yield Static(id="totals", markup=False)
        with Grid(id="cross"):
            for row in _GRID:
                for position in row:
                    yield Static(id="deck", markup=False) if position is None else self.piles[position]
        yield self.hand_view
        yield Static(id="log", markup=False)
        yield Static(id="message", markup=False)

    def on_mount(self) -> None:
        self._deal(0)

    def on_resize(self) -> None:
        self._refresh()

    @property
    def game(self) -> KingsCornerGame:
        """The hand in play."""
        return self.session.game

    @property
    def hand_number(self) -> int:
        """The hand in play, counted from 0."""
        return self.session.hand

    @property
    def me(self) -> int:
        """Your seat this hand."""
        return self.session.seat_of(0)

    @property
    def names(self) -> list[str]:
        """Who sits in each seat this hand."""
        return list(self.session.seat_names)

    @property
    def entry_names(self) -> list[str]:
        """"You", then Bot 1, Bot 2..."""
        return list(self.session.names)

    @property
    def totals(self) -> list[int]:
        """Penalty totals of the match, "You" first, then Bot 1, Bot 2..."""
        return self.session.score.totals

    @property
    def hand_cards(self) -> list[Card]:
        """Your hand as shown: sorted by rank, then suit."""
        return sorted(self.game.hand(self.me), key=lambda card: (card.rank, card.suit))

    def _text(self, card: Card) -> str:
        return card_text(card, not self.ascii_only)

    def _refresh(self) -> None:
        game = self.game
        _show(self.query_one("#head", Static),
              f"Kings Corner · hand {self.hand_number + 1} · the match ends at {plural(self.target, 'point')} · "
              f"seed {self.seed} · ? help")
        moving = game.turn if not game.is_over() else None
        arrow = ">" if self.ascii_only else "▶"
        _show(self.query_one("#players", Static), "Cards in hand: " + " ".join(
            f"{arrow if seat == moving else ' '}{self.names[seat]} {game.hand_sizes[seat]}"
            for seat in range(self.players)))
        _show(self.query_one("#totals", Static),
              "Penalty totals: " + "  ".join(f"{n} {t}" for n, t in zip(self.entry_names, self.totals, strict=True)))
        _show(self.query_one("#deck", Static), f"deck\n{game.deck_count} card{'s' * (game.deck_count != 1)}")
        hinted_piles: set[PilePosition] = set()
        hinted_card: Card | None = None
        if self.hint:
            first = self.hint[0]
            if isinstance(first, PlayCard):
                hinted_card, hinted_piles = first.card, {first.target}
            elif isinstance(first, MovePile):
                hinted_piles = {first.source, first.target}
        for position, box in self.piles.items():
            box.show(game.pile(position), self.ascii_only)
            box.set_class(self.chosen == position, "chosen")
            box.set_class(position in hinted_piles, "hinted")
        cards = self.hand_cards
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        self.hand_view.show(cards, self.ascii_only, cursor=self.cursor if self.phase == "you" else None,
                            chosen=self.chosen if isinstance(self.chosen, Card) else None, hinted=hinted_card)
        _show(self.query_one("#log", Static), self._recent_line(self.size.width or 80))
        _show(self.query_one("#message", Static), self.message)

    def _recent_line(self, width: int) -> str:
        """The latest actions that fit on one line, the newest last."""
        line = ""
        for entry in reversed(self.recent):
            longer = f"{entry} · {line}" if line else entry
            if len(longer) > width:
                return line
            line = longer
        return line

    def _say(self, message: str) -> None:
        self.message = message
        self._refresh()

    # ----- hands and turns -----------------------------------------------------------------------

    def _deal(self, hand: int) -> None:
        self._hand_started = time.monotonic()
        self.session.deal(hand)  # who moves first rotates hand by hand
        self.recent = []
        self.chosen, self.hint, self.cursor = None, [], 0
        self._next_turn(f"Hand {hand + 1}: {self.names[0]} to start. ")

    def _next_turn(self, lead: str = "") -> None:
        """Hand the table to whoever moves now: you, the bots, or the end of the hand."""
        if self.game.is_over():
            self._finish_hand()
        elif not self.session.bot_to_act:
            self.phase = "you"
            self._turn_start = len(self.game.history)
            self.chosen, self.hint = None, []
            self._say(lead + "Your turn: choose a card (1-9) or a pile; d ends the turn.")
        else:
            self.phase = "bots"
            self._say(lead + "The bots are playing (space: the rest at once).")
            if self.delay > 0:
                self._timer = self.set_timer(self.delay, self._bot_step)
            else:
                self._play_bots()

    def _bot_acted(self, seat: int, action: Action) -> None:
        self.recent.append(describe_action(action, self.names[seat], not self.ascii_only))

    def _bot_step(self) -> None:
        self._timer = None
        if self.phase != "bots":
            return
        self.session.play_bots(max_actions=1, on_action=self._bot_acted)
        if not self.session.bot_to_act:
            self._next_turn()
        else:
            self._refresh()
            self._timer = self.set_timer(self.delay, self._bot_step)

    def _play_bots(self) -> None:
        """Play the bots' actions until it is your turn or the hand is over."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.session.play_bots(on_action=self._bot_acted)
        self._next_turn()

    def _record(self) -> HandRecord:
        """The hand so far, named and seeded as the line seat keeps it."""
        return self.session.record()

    def _write(self, path: Path) -> str | None:
        """Write the hand's record to ``path``; the reason when that failed."""
        try:
            atomic_write_text(path, self._record().to_text())
        except (OSError, CardtableError) as error:
            return describe_error(error)
        return None

    def action_save(self) -> None:
        path = self.save_path or Path(DEFAULT_SAVE)
        failure = self._write(path)
        note = f"Could not save the hand: {failure}" if failure else \
            f"Saved hand {self.hand_number + 1} ({len(self.game.history)} actions) to {path}."
        # What the message said before (without an earlier save's note) stays below the note.
        before = [line for line in self.message.splitlines() if not line.startswith(("Saved hand", "Could not save"))]
        self._say("\n".join([note, *before]))

    def _finish_hand(self) -> None:
        outcome = self.session.score_hand()
        if self.save_path is not None:
            failure = self._write(self.save_path)
            if failure is not None:
                self.recent.append(f"Could not save the hand: {failure}")
        if outcome.winner is None:
            ended = "Stalemate: the deck is empty and nobody could play."
        else:
            ended = f"{self.names[outcome.winner]} emptied {'your' if outcome.winner == self.me else 'their'} hand!"
        points = ", ".join(f"{self.names[s]} {outcome.penalties[s]}" for s in range(self.players))
        self.chosen, self.hint = None, []
        over = self.session.score.is_over
        trouble = self._record_hand(outcome.winner == self.me, outcome.penalties[self.me],
                                    self.totals[0] == min(self.totals) if over else None)
        if trouble:
            self.recent.append(trouble)
        if over:
            self.phase = "match-over"
            low = min(self.totals)
            winners = [self.entry_names[entry] for entry in self.session.score.leaders]
            verb = "win" if winners == ["You"] or len(winners) > 1 else "wins"
            self._say(f"{ended} Points: {points}.\nMatch over: {' and '.join(winners)} {verb} "
                      f"with {plural(low, 'point')}. m: new match; q quits.")
        else:
            self.phase = "hand-over"
            self._say(f"{ended} Points: {points}.\nSpace or enter deals the next hand; q quits.")

    def _record_hand(self, won: bool, penalty: int, match_won: bool | None) -> str:
        """Keep the hand in your statistics; what went wrong, if anything."""
        if self.stats_path is None:
            return ""
        from cardtable.runs.store import ResultsStore
        from cardtable.sim.played import PlayedHand, kings_corner_label, record_hand

        hand = PlayedHand(kings_corner_label(self.opponents, self.level, self.target), str(self.seed),
                          self.hand_number + 1, won, penalty, round(time.monotonic() - self._hand_started, 3),
                          match_won)
        try:
            with ResultsStore(self.stats_path) as store:
                record_hand(store, hand)
        except (OSError, CardtableError) as error:
            return f"Could not keep the statistics: {error}"
        return ""

    # ----- your choices --------------------------------------------------------------------------

    def _your_turn(self) -> bool:
        if self.phase == "you":
            return True
        if self.phase == "bots":
            self._say("The bots are playing: space plays the rest of their turn at once.")
        elif self.phase == "hand-over":
            self._say("The hand is over: space deals the next hand, q quits.")
        # After the match its result stays on screen (it says m starts a new match; space, mashed
        # to hurry the bots, must not throw it away).
        return False

    def choose_card(self, index: int) -> None:
        """Choose the card at ``index`` (0-based, as shown) of your hand; again puts it back."""
        self._corner_pending = False
        if not self._your_turn():
            return
        cards = self.hand_cards
        if not 0 <= index < len(cards):
            self._say(f"You hold {len(cards)} card{'s' * (len(cards) != 1)}: there is no card {index + 1}.")
            return
        card = cards[index]
        self.cursor = index
        if self.chosen == card:
            self.chosen = None
            self._say(f"{self._text(card)} put back.")
            return
        self.chosen = card
        self._say(f"{self._text(card)} chosen: now a pile (n e s w, c1-c4 for the corners, or click).")

    def choose_pile(self, position: PilePosition) -> None:
        """Choose a pile: the target of the chosen card or pile, or the pile to move."""
        self._corner_pending = False
        if not self._your_turn():
            return
        chosen = self.chosen
        if isinstance(chosen, Card):
            self._act(PlayCard(chosen, position))
        elif isinstance(chosen, PilePosition):
            if chosen == position:
                self.chosen = None
                self._say(f"Pile {position.name} put back.")
            else:
                self._act(MovePile(chosen, position))
        elif position.is_corner:
            self._say("A corner never moves: choose a card first, or a pile to move onto it.")
        elif not self.game.pile(position):
            self._say(f"Pile {position.name} is empty: choose a card to play there.")
        else:
            self.chosen = position
            self._say(f"Pile {position.name} chosen: now the pile to move it onto.")

    def _table_words(self, text: str) -> str:
        """``text`` (the engine's words, its cards in notation) with each card named
        as the table shows it: by its suit symbol, unless the table is plain ASCII."""
        if self.ascii_only:
            return text
        return _CARD_NOTATION.sub(lambda found: card_text(Card.parse(found.group()), True), text)

    def _act(self, action: Action) -> None:
        try:
            self.game.play(action)
        except CardtableError as error:  # the engine says why; nothing has changed
            reason = self._table_words(str(error).split(": ", 1)[-1])
            self.chosen = None
            self._say(f"Not allowed: {reason}. Choose again.")
            return
        self.chosen, self.hint = None, []
        self.recent.append(f"You played {self._describe(action)}")
        if self.game.is_over() or self.game.turn != self.me:
            self._next_turn()
        else:
            self._say(f"{self._describe(action)}. Go on, or d to end the turn.")

    def _describe(self, action: Action) -> str:
        if isinstance(action, PlayCard):
            return f"{self._text(action.card)} on {action.target.name}"
        if isinstance(action, MovePile):
            return f"pile {action.source.name} onto {action.target.name}"
        return str(action)

    # ----- keys ----------------------------------------------------------------------------------

    def action_digit(self, number: int) -> None:
        if self._corner_pending and number <= len(_CORNER_KEYS):
            self.choose_pile(_CORNER_KEYS[number - 1])
        else:
            self.choose_card(number - 1)

    def action_pile(self, name: str) -> None:
        self.choose_pile(PilePosition[name])

    def action_corner(self) -> None:
        if not self._your_turn():
            return
        self._corner_pending = True
        self._say("Which corner? 1 NE, 2 SE, 3 SW, 4 NW.")

    def action_cursor(self, step: int) -> None:
        self._corner_pending = False
        if self.phase == "you" and self.hand_cards:
            self.cursor = (self.cursor + step) % len(self.hand_cards)
            self._refresh()

    def action_select(self) -> None:
        self._corner_pending = False
        if self.phase == "bots":
            self._play_bots()
        elif self.phase == "hand-over":
            self._deal(self.hand_number + 1)
        elif self.phase == "you":
            self.choose_card(self.cursor)

    def action_drop(self) -> None:
        self._corner_pending = False
        if self.chosen is not None:
            self.chosen = None
            self._say("Put back.")

    def action_end_turn(self) -> None:
        self._corner_pending = False
        if not self._your_turn():
            return
        action = DRAW if self.game.deck_count else PASS
        self.chosen, self.hint = None, []
        self.game.play(action)
        if isinstance(action, Draw):
            drawn = self.game.hand(self.me)[-1]
            self.recent.append(f"You drew {self._text(drawn)}")
        else:
            self.recent.append("You passed")
        self._next_turn()

    def action_undo(self) -> None:
        self._corner_pending = False
        if not self._your_turn():
            return
        if len(self.game.history) <= self._turn_start:
            self._say("Nothing to undo this turn.")
            return
        action = self.game.undo()
        self.chosen, self.hint = None, []
        self._say(f"Took back {self._describe(action)}.")

    def action_hint(self) -> None:
        self._corner_pending = False
        if not self._your_turn():
            return
        plan = expert_plan(self.game.view(self.me))
        steps: list[Action] = [a for a in plan if not isinstance(a, (Draw, Pass))]
        self.hint = steps
        if not steps:
            self._say("Hint: nothing worth playing; d ends the turn.")
            return
        self._say("Hint: " + ", then ".join(self._describe(a) for a in steps) + ", then d.")

    def action_new_match(self) -> None:
        """After a match: a new one at the same table, the next seed's deals.
        During a match ``m`` does nothing but say so (a match is not thrown away by one key)."""
        self._corner_pending = False
        if self.phase != "match-over":
            self._say("m starts a new match once this one is over; q quits.")
            return
        self.seed = (self.seed + 1) & ((1 << 63) - 1)
        self.session = self._sit_down()
        self._deal(0)
        self.message = f"New match (seed {self.seed}). {self.message}"
        self._refresh()

    def action_help(self) -> None:
        show_page(self, "help", HELP)
