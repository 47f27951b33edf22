"""The human seat of ``cardtable kings-corner play``: a person plays Kings
Corner against bots in the terminal.

The person is shown only their own view and types short commands (see
:data:`HELP`); a command that cannot be used raises
:class:`~cardtable.errors.UsageError`, shown at the prompt. Bots' actions are
printed as they happen. Hands are played until someone's penalty total
reaches the target; the lowest total wins. The table is a
:class:`~cardtable.kings_corner.session.KingsCornerSession`, so hands are
dealt, seated and the bots seeded as in a bot match and in the terminal app.
Input and output are passed in, so the loop can be driven by a script.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from rich.console import Console
from rich.text import Text

from cardtable._files import atomic_write_text, describe_error
from cardtable._text import plural
from cardtable.bots.kings_corner import make_bot
from cardtable.bots.kings_corner.expert import expert_plan
from cardtable.cards import Card, CardError
from cardtable.errors import CardtableError, UsageError
from cardtable.kings_corner.actions import DRAW, PASS, Action, MovePile, PlayCard
from cardtable.kings_corner.errors import ActionNotationError, TableError
from cardtable.kings_corner.game import KingsCornerGame
from cardtable.kings_corner.record import HandRecord
from cardtable.kings_corner.render import card_text, describe_action, view_text
from cardtable.kings_corner.session import KingsCornerSession
from cardtable.kings_corner.table import PilePosition

__all__ = ["HELP", "Command", "HumanSeat", "hand_saver", "parse_command"]

HELP = """\
Commands (upper or lower case):
  7h N  or  play 7h N   play a card from your hand onto a pile (10h, 7♥ work too)
  7h                    play a card onto the only pile it fits
  W E   or  move W E    move the whole pile W onto pile E
  d  (draw, end, pass)  end your turn (you draw a card while the deck lasts)
  u  (undo)             take back your last action this turn
  b  (board)            show the table again
  m  (moves)            list your legal actions
  hint                  what the expert would do (from your view)
  h  (help, ?)          this help
  q  (quit)             leave the table
Piles: N E S W in a cross; corners NE SE SW NW (only a king starts a corner)."""

_WORDS = {
    "d": "end", "draw": "end", "end": "end", "pass": "end", ".": "end",
    "u": "undo", "undo": "undo", "b": "board", "board": "board",
    "m": "moves", "moves": "moves", "hint": "hint",
    "h": "help", "help": "help", "?": "help", "q": "quit", "quit": "quit", "exit": "quit",
}


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed command: a ``word`` (``play``, ``move``, ``end``, ``undo``...) and,
    for plays and moves, the card and piles."""

    word: str
    card: Card | None = None
    source: PilePosition | None = None
    target: PilePosition | None = None


def _position(text: str) -> PilePosition | None:
    try:
        return PilePosition.parse(text)
    except ActionNotationError:
        return None


def parse_command(text: str) -> Command:
    """Read a command typed at the table; raises
    :class:`~cardtable.errors.UsageError` saying why.

    >>> parse_command("7h N")
    Command(word='play', card=Card.parse('7h'), source=None, target=<PilePosition.N: 0>)
    >>> parse_command("d").word
    'end'
    """
    words = text.split()
    if not words:
        raise UsageError("type a command, or h for help")
    head = words[0].lower()
    if head in ("play", "move", "mv") and len(words) > 1:
        words = words[1:]
    elif head in _WORDS:
        if len(words) > 1:
            raise UsageError(f"{head!r} takes nothing after it")
        return Command(_WORDS[head])
    if len(words) == 2:
        source, target = _position(words[0]), _position(words[1])
        if source is not None and target is not None:
            return Command("move", source=source, target=target)
    if len(words) in (1, 2):
        try:
            card = Card.parse(words[0])
        except CardError:
            raise UsageError(
                f"{text.strip()!r} is not a command: try '7h N', 'W E', 'd' or 'h' for help"
            ) from None
        if len(words) == 1:
            return Command("play", card=card)
        target = _position(words[1])
        if target is None:
            raise UsageError(f"unknown pile {words[1]!r}: use N E S W or NE SE SW NW")
        return Command("play", card=card, target=target)
    raise UsageError(f"{text.strip()!r} is not a command: type h for help")


@dataclass
class HumanSeat:
    """A table of one person and ``opponents`` bots of the given ``level``."""

    opponents: int = 3
    level: str = "expert"
    seed: int | None = None
    target: int = 25
    delay: float = 0.6
    unicode: bool = True
    console: Console = field(default_factory=lambda: Console(highlight=False))
    read: Callable[[str], str] = input
    #: Called with each hand's record when it ends; what it returns (a
    #: save that failed, say) is told to the player, who plays on.
    on_hand_end: Callable[[HandRecord], str | None] | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.opponents <= 5:
            raise TableError(f"1 to 5 opponents, not {self.opponents}")
        make_bot(self.level)  # fail early on an unknown level
        if self.seed is None:
            self.seed = time.time_ns() & ((1 << 63) - 1)
        names = ["You"] + [f"Bot {i}" for i in range(1, self.opponents + 1)]
        self._session = KingsCornerSession([None] + [partial(make_bot, self.level)] * self.opponents, self.seed,
                                           target=self.target, names=names)

    @property
    def totals(self) -> list[int]:
        """The penalty totals of the match, "You" first, then Bot 1, Bot 2..."""
        return self._session.score.totals

    # -- output ------------------------------------------------------------------

    def _say(self, text: str, style: str | None = None) -> None:
        rich = Text(text, style=style or "")
        if self.unicode:
            rich.highlight_regex(r"[A2-9TJQK][♥♦]", "bold red")
        self.console.print(rich)

    # -- the session -------------------------------------------------------------

    def run(self) -> int:
        """Play hands until a total reaches the target or the person quits; 0 on exit."""
        self._say(f"Kings Corner: you against {self.opponents} {self.level} bot"
                  f"{'s' * (self.opponents > 1)}; first to {self.target} penalty points"
                  " ends the match. Type h for help.", "bold")
        session = self._session
        hand = 0
        while True:
            finished = self._play_hand(hand)
            if not finished:
                self._say("You left the table.")
                return 0
            if session.score.is_over:
                winners = [session.names[entry] for entry in session.score.leaders]
                self._say(f"Match over: {' and '.join(winners)} "
                          f"{'win' if winners == ['You'] or len(winners) > 1 else 'wins'}"
                          f" with {plural(min(self.totals), 'point')}.", "bold")
                return 0
            if not self._ask("Press Enter for the next hand (q to quit): ", allow_quit=True):
                self._say("You left the table.")
                return 0
            hand += 1

    def _ask(self, prompt: str, allow_quit: bool = False) -> str | None:
        try:
            answer = self.read(prompt)
        except EOFError:
            return None
        if allow_quit and answer.strip().lower() in ("q", "quit", "exit"):
            return None
        return answer if answer.strip() else " "

    def _play_hand(self, hand: int) -> bool:
        session = self._session
        game = session.deal(hand)
        me = session.seat_of(0)
        names = session.seat_names
        self._say(f"\n— Hand {hand + 1} —  {names[0]} to start.", "bold")
        while not game.is_over():
            if session.bot_to_act:
                session.play_bots(on_action=self._bot_acted)
            elif not self._human_turn(game, me):
                self._finish()
                return False
        self._finish()
        return True

    def _bot_acted(self, seat: int, action: Action) -> None:
        self._say("  " + describe_action(action, self._session.seat_names[seat], self.unicode))
        if self.delay:
            time.sleep(self.delay)

    def _finish(self) -> None:
        session = self._session
        game, names, me = session.game, session.seat_names, session.seat_of(0)
        if game.is_over():
            outcome = session.score_hand()
            if outcome.winner is None:
                self._say("Stalemate: the deck is empty and nobody could play.", "bold")
            else:
                self._say(f"{names[outcome.winner]} emptied "
                          f"{'your' if outcome.winner == me else 'their'} hand!", "bold")
            self._say("Penalty points this hand: " + ", ".join(
                f"{names[s]} {outcome.penalties[s]}" for s in range(game.players)))
            self._say("Totals: " + ", ".join(
                f"{session.names[e]} {self.totals[e]}" for e in range(game.players)))
        if self.on_hand_end is not None and (trouble := self.on_hand_end(session.record())):
            self._say(trouble, "bold")

    def _human_turn(self, game: KingsCornerGame, me: int) -> bool:
        start = len(game.history)
        self._say("")
        self._say(view_text(game.view(me), self._session.seat_names, self.unicode))
        while game.turn == me and not game.is_over():
            line = self._ask("your move> ")
            if line is None:
                return False
            try:
                command = parse_command(line)
            except UsageError as error:
                self._say(str(error), "yellow")
                continue
            if command.word == "quit":
                return False
            if command.word == "help":
                self._say(HELP)
            elif command.word == "board":
                self._say(view_text(game.view(me), self._session.seat_names, self.unicode))
            elif command.word == "moves":
                self._say("  ".join(str(a) for a in game.legal_actions()))
            elif command.word == "hint":
                plan = expert_plan(game.view(me))
                self._say("Hint: " + "; ".join(str(a) for a in plan))
            elif command.word == "undo":
                if len(game.history) > start:
                    self._say(f"Took back: {game.undo()}")
                    self._say(view_text(game.view(me), self._session.seat_names, self.unicode))
                else:
                    self._say("Nothing to undo this turn.", "yellow")
            else:
                try:
                    action = self._action(game, command)
                    game.play(action)
                except CardtableError as error:  # not held, no such pile, against the rules
                    self._say(str(error), "yellow")
                    continue
                if action == DRAW:
                    self._say(f"You drew {card_text(game.hand(me)[-1], self.unicode)}.")
                elif action == PASS:
                    self._say("You passed.")
                elif not game.is_over():
                    self._say(view_text(game.view(me), self._session.seat_names, self.unicode))
        return True

    def _action(self, game: KingsCornerGame, command: Command) -> Action:
        if command.word == "end":
            return DRAW if game.deck_count else PASS
        if command.word == "move":
            assert command.source is not None and command.target is not None
            return MovePile(command.source, command.target)
        card = command.card
        assert card is not None
        if command.target is not None:
            return PlayCard(card, command.target)
        if card not in game.hand(game.turn):
            raise UsageError(f"{card_text(card, self.unicode)} is not in your hand")
        targets = sorted({a.target for a in game.legal_actions()
                          if isinstance(a, PlayCard) and a.card == card})
        if not targets:
            raise UsageError(f"{card_text(card, self.unicode)} fits on no pile now")
        empty = [t for t in targets if not game.pile(t)]
        if len(targets) == 1 or (len(targets) == len(empty) and not PilePosition(targets[0]).is_corner):
            return PlayCard(card, targets[0])
        raise UsageError(f"{card_text(card, self.unicode)} fits on {', '.join(t.name for t in targets)}:"
                           f" say which, e.g. '{card} {targets[0].name}'")


def hand_saver(path: str | os.PathLike[str] | None) -> Callable[[HandRecord], str | None]:
    """What keeps each hand's record at ``path`` (None: nothing kept) for
    :attr:`HumanSeat.on_hand_end`: a save that fails (a full disk) is said,
    the match goes on, and the next hand's end saves again (the file keeps
    the last hand whose save succeeded)."""

    def keep(record: HandRecord) -> str | None:
        if path is None:
            return None
        try:
            atomic_write_text(path, record.to_text())
        except (OSError, CardtableError) as error:
            return f"Could not save the hand ({describe_error(error)}); play on, the next hand's end saves again."
        return None

    return keep
