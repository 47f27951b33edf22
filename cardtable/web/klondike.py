"""One player's Klondike game at the browser table: the messages it takes,
the view it sends, and how it is kept.

A :class:`KlondikeTable` holds a :class:`~cardtable.klondike.KlondikeGame`
and answers the protocol's messages (:mod:`cardtable.web.protocol`). Every
view it sends is built from the game's player view
(:class:`~cardtable.klondike.KlondikeView`): face-down cards and the stock
are counts, never cards. What it says after a move, and a hint, name only
cards the player sees. A :class:`KlondikeDealer` decides what a new deal is
(the server's ``--seed``, ``--winnable`` and variant).

>>> from cardtable.klondike import Variant
>>> table = KlondikeDealer(Variant.preset("draw1"), seed=7).first()
>>> view = table.view()
>>> view["stock"], view["piles"][6]
(24, {'down': 6, 'up': ['Ac']})
>>> table.apply({"type": "move", "move": "7>F"})
'Ace of clubs from pile 7 to its foundation, turning up the six of spades.'
>>> table.view()["foundation"], table.view()["piles"][6]["up"]
([1, 0, 0, 0], ['6s'])
"""

from __future__ import annotations

import asyncio
import datetime
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any, ClassVar

from cardtable.bots.klondike.hint import every_card_seen, expert_hint
from cardtable.cards import Card
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
from cardtable.klondike.variant import PRESET_TITLES, PRESETS
from cardtable.sim.grade import LEVELS
from cardtable.sim.played import PlayedGame
from cardtable.web.protocol import ProtocolError, unknown_type

__all__ = [
    "LOST_NOTICE",
    "VERDICT_MAX_STATES",
    "DealRequest",
    "KlondikeDealer",
    "KlondikeTable",
    "proven_lost",
    "rules_message",
]

#: The state budget of the check after each move that says when the game can no longer be won (the
#: terminal app's: a millisecond or so for most positions; one it cannot decide in this budget says nothing).
VERDICT_MAX_STATES = 50_000
#: What the player is told when the game is proven lost.
LOST_NOTICE = "This game can no longer be won: undo, or deal anew."
#: The largest deal number a client may ask for.
_MAX_NUMBER = 10**9


def _spoken(card: Card) -> str:
    return card.name()


#: A card in the engine's notation inside one of its reasons, with the article before it if any.
_NOTATION_IN_REASON = re.compile(r"\b(?:the )?([A2-9TJQK][cdhs])\b")


def _in_words(reason: str) -> str:
    """The engine's reason for refusing a move (:meth:`KlondikeGame.why_illegal`),
    its cards named in words as every other message of the table names them.
    The reason names only cards the player sees (the moved card, the card it
    was to cover) or a rank the foundation needs, so the words tell no secret.

    >>> _in_words("Ac cannot go on 8h: a card must be one rank lower than the card it covers")
    'the ace of clubs cannot go on the eight of hearts: a card must be one rank lower than the card it covers'
    >>> _in_words("3c cannot go to its foundation: it needs the 2c next")
    'the three of clubs cannot go to its foundation: it needs the two of clubs next'
    """
    return _NOTATION_IN_REASON.sub(lambda found: f"the {Card.parse(found.group(1)).name()}", reason)


def _place(location: int) -> str:
    if location == WASTE:
        return "the waste"
    if location == FOUNDATION:
        return "its foundation"
    return f"pile {location + 1}"


def _finishing_line(game: KlondikeGame, *, draw: bool) -> list[Move]:
    """The moves that send cards home from ``game`` (played on it), one
    foundation move at a time; with ``draw``, drawing (and turning the waste
    over) for more while no card is face down, until a whole round of the
    stock sends nothing home."""
    line: list[Move] = []
    idle = 0
    while not game.is_won():
        home = next((m for m in game.legal_moves() if m.target == FOUNDATION and m.source != FOUNDATION), None)
        if home is not None:
            move, idle = home, 0
        elif draw and not any(game.face_down) and idle <= len(game.stock) + len(game.waste) + 1:
            turn = next((m for m in (DRAW, RECYCLE) if game.is_legal(m)), None)
            if turn is None:
                break
            move, idle = turn, idle + 1
        else:
            break
        game.play(move)
        line.append(move)
    return line


def proven_lost(game: KlondikeGame) -> bool:
    """Whether the player of ``game`` may be told that it can no longer be
    won: every card has been seen where it lies (:func:`every_card_seen`), and
    the solver proves the loss within :data:`VERDICT_MAX_STATES` states. While
    a card is hidden nothing is said, for the verdict would tell where the
    hidden cards lie.

    >>> from cardtable.klondike import Variant
    >>> proven_lost(KlondikeGame.from_seed(7, Variant.preset("draw1")))
    False
    >>> proven_lost(KlondikeGame.from_seed(21, Variant.preset("draw1")))  # lost, but its cards are hidden
    False
    """
    if game.is_won() or not every_card_seen(game):
        return False
    from cardtable.solver import solve

    try:
        return solve(game.position(), game.variant, max_states=VERDICT_MAX_STATES).result == "unwinnable"
    except CardtableError:
        return False


@dataclass(frozen=True)
class KlondikeDealer:
    """What a new deal is: the seed the first deal takes (None: a random
    one), whether deals are proven winnable, and the variant; with
    ``cumulative``, under Vegas scoring each player's balance is carried
    from game to game (as the terminal app's ``--cumulative``)."""

    variant: Variant
    seed: int | None = None
    winnable: bool = False
    cumulative: bool = False

    def first(self) -> KlondikeTable:
        """A new player's first game."""
        return self.first_request().find()

    def first_request(self) -> DealRequest:
        """A new player's first deal, as a request (:attr:`DealRequest.searched` for a dealer of
        proven winnable deals, whose first deal is searched for as any other such deal is)."""
        return DealRequest(self, self.seed, self.variant, winnable=self.winnable)

    def deal(self, number: int | None = None, *, daily: datetime.date | None = None,
             difficulty: str | None = None, variant: Variant | None = None,
             winnable: bool | None = None) -> KlondikeTable:
        """A new game under ``variant`` (None: the dealer's): deal ``number``
        (None: a random one), the ``number``-th proven winnable deal when
        ``winnable`` (None: as the dealer deals); or the daily deal of
        ``daily`` (:mod:`cardtable.solver.daily`); or, given a ``difficulty``,
        the first deal of that grade from ``number`` on
        (:func:`cardtable.sim.grade.deal_of_grade`), which is proven winnable
        whatever ``winnable`` says (a deal is graded only once the solver wins it)."""
        variant = self.variant if variant is None else variant
        winnable = self.winnable if winnable is None else winnable
        number = secrets.randbelow(1_000_000) if number is None else number
        balance = 0 if self.cumulative and variant.scoring.kind == "vegas" else None
        if daily is not None:
            from cardtable.solver.daily import daily_deal

            deal = daily_deal(daily, variant)
            return KlondikeTable(KlondikeGame(deal.position, variant), number=None, winnable=False,
                                 daily=daily.isoformat(), balance=balance)
        if difficulty is not None:
            from cardtable.sim.grade import deal_of_grade

            number, _ = deal_of_grade(number, difficulty, variant)
            return KlondikeTable(KlondikeGame(Position.from_seed(number), variant), number=number,
                                 winnable=False, balance=balance, grade=difficulty)
        if winnable:
            from cardtable.solver import winnable_deal

            start = winnable_deal(number, variant)
        else:
            start = Position.from_seed(number)
        return KlondikeTable(KlondikeGame(start, variant), number=number, winnable=winnable, balance=balance)


_ARTICLES = {"easy": "an", "expert": "an"}


@dataclass(frozen=True)
class DealRequest:
    """A new deal a player asked for (a ``new`` message, checked by
    :meth:`KlondikeTable.deal_request`): :meth:`find` deals it, which for a
    daily, graded or winnable deal means a search of seconds (:attr:`searched`),
    and :meth:`KlondikeTable.take_deal` makes it the player's game. A request
    and what :meth:`find` returns pickle, so the search may run in another process.

    >>> from cardtable.klondike import Variant
    >>> request = DealRequest(KlondikeDealer(Variant.preset("draw1")), 7, Variant.preset("draw1"), winnable=False)
    >>> request.searched, request.find().view()["deal"]
    (False, 7)
    >>> DealRequest(request.dealer, 7, request.variant, winnable=False, difficulty="easy").finding
    'Finding an easy deal…'
    """

    dealer: KlondikeDealer
    number: int | None
    variant: Variant
    winnable: bool
    daily: datetime.date | None = None
    difficulty: str | None = None

    @property
    def searched(self) -> bool:
        """Whether finding the deal is a search (the solver's, the grader's), not a shuffle."""
        return self.daily is not None or self.difficulty is not None or self.winnable

    @property
    def finding(self) -> str:
        """What the player is told while the deal is looked for."""
        if self.daily is not None:
            return "Finding the daily deal…"
        if self.difficulty is not None:
            return f"Finding {_ARTICLES.get(self.difficulty, 'a')} {self.difficulty} deal…"
        return "Finding a proven winnable deal…" if self.winnable else "Dealing…"

    def find(self) -> KlondikeTable:
        """The table of the deal asked for (:meth:`KlondikeDealer.deal`); a
        :class:`CardtableError` when none is found."""
        return self.dealer.deal(self.number, daily=self.daily, difficulty=self.difficulty, variant=self.variant,
                                winnable=self.winnable)

    def stand_in(self) -> KlondikeTable:
        """A table to show a new player while their first deal is searched for
        (it takes no move meanwhile, and is not kept): the shuffled deal of the
        number asked for, found at once."""
        return self.dealer.deal(self.number, variant=self.variant, winnable=False)


def rules_message() -> dict[str, Any]:
    """The ``rules`` message: the named rule sets a new game may be dealt
    under (``name`` for the ``new`` message's ``rules``, ``title`` for the player)."""
    return {"type": "rules", "rules": [{"name": name, "title": PRESET_TITLES[name]} for name in PRESETS]}


class KlondikeTable:
    """A player's Klondike game, speaking the protocol. ``number`` is the
    deal's seed (or its winnable number), ``started`` the time of the first
    move (seconds since the epoch; None before it).

    A game counts in the player's statistics once, as the terminal app
    counts it: a win when it is won (its clock stops then), a loss when a
    new game is dealt after a move of it. :meth:`take_finished` hands the
    server what is to be counted."""

    game_name: ClassVar[str] = "klondike"
    #: The message types this table answers.
    TYPES: ClassVar[tuple[str, ...]] = ("move", "draw", "undo", "redo", "new", "restart", "hint", "autofinish",
                                        "stats", "rules", "view")

    def __init__(self, game: KlondikeGame, *, number: int | None, winnable: bool,
                 started: float | None = None, counted: bool = False, won_after: float | None = None,
                 balance: int | None = None, daily: str | None = None, grade: str | None = None) -> None:
        self.game = game
        self.number = number
        self.winnable = winnable
        self.started = started
        #: This game is in the statistics already (won once, its clock stopped at ``won_after`` seconds).
        self.counted = counted
        self.won_after = won_after
        #: The Vegas balance carried from earlier games, this one's included once it is counted
        #: (None: each game alone).
        self.balance = balance
        self._finished: list[PlayedGame] = []
        self.daily = daily  # the date of the daily deal the game is (None: not one)
        #: The deal's grade when it was dealt for one (a graded deal is proven winnable), else None.
        self.grade = grade

    @property
    def proven_winnable(self) -> bool:
        """Whether the deal is proven winnable: asked for as such, graded (the
        grader grades a deal only once the solver has won it) or the daily deal
        (:func:`cardtable.solver.daily.daily_deal` deals only a deal it proved)."""
        return self.winnable or self.grade is not None or self.daily is not None

    def take_finished(self) -> list[PlayedGame]:
        """The games finished since the last call, to be kept in the player's statistics."""
        finished, self._finished = self._finished, []
        return finished

    def seconds(self) -> float:
        """The time the game has taken: from its first move until it was won, else until now."""
        if self.won_after is not None and self.game.is_won():
            return self.won_after
        return 0.0 if self.started is None else max(0.0, time.time() - self.started)

    def _count(self, *, won: bool) -> None:
        """Count the game in the statistics, once, when a move of it was played."""
        if self.counted or not self.game.moves:
            return
        self.counted = True
        if self.balance is not None:
            self.balance += self.game.score
        self._finished.append(PlayedGame.of_game(self.game, won=won, seconds=self.seconds(), daily=self.daily))

    # ----- keeping ---------------------------------------------------------------------------------

    def record(self) -> KlondikeRecord:
        """The game's record (its moves played), with the deal's number as a header."""
        headers = {} if self.number is None else {"Winnable" if self.winnable else "Seed": str(self.number)}
        if self.daily is not None:
            headers["Daily"] = self.daily
        if self.grade is not None:
            headers["Grade"] = self.grade
        if self.counted:
            headers["Counted"] = "yes" if self.won_after is None else f"{self.won_after:.3f}"
        if self.balance is not None:
            headers["Balance"] = str(self.balance)
        return KlondikeRecord.from_game(self.game, **headers)

    def saved(self) -> str:
        """The text :meth:`restore` reads back: the record."""
        return str(self.record())

    @classmethod
    def restore(cls, text: str, started: float | None) -> KlondikeTable:
        """The table :meth:`saved` wrote (a :class:`CardtableError` for a bad record)."""
        record = KlondikeRecord.parse(text)
        winnable = "Winnable" in record.headers
        header = record.headers.get("Winnable" if winnable else "Seed", "")
        counted = record.headers.get("Counted")
        try:
            won_after = None if counted in (None, "yes") else max(0.0, float(counted))
        except ValueError:
            won_after = None
        kept = record.headers.get("Balance")
        balance = int(kept) if kept is not None and re.fullmatch(r"-?[0-9]{1,9}", kept) else None
        return cls(record.replay(), number=int(header) if header.isdigit() else None, winnable=winnable,
                   started=started, counted=counted is not None, won_after=won_after, balance=balance,
                   daily=record.headers.get("Daily"),
                   grade=grade if (grade := record.headers.get("Grade")) in LEVELS else None)

    # ----- the view --------------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """What the player sees, as JSON values (no face-down card, no stock order)."""
        game = self.game
        seen = game.view()
        scoring = game.variant.scoring.kind
        return {
            "game": self.game_name,
            "piles": [{"down": down, "up": [str(card) for card in up]}
                      for down, up in zip(seen.face_down, seen.face_up, strict=True)],
            "stock": seen.stock_count,
            "waste": [str(card) for card in seen.waste],
            "foundation": list(seen.foundation),
            "legal": [str(move) for move in seen.legal_moves],
            "moves": seen.moves_played,
            "canUndo": game.can_undo,
            "undoRule": game.variant.undo_rule,
            "canRedo": game.can_redo,
            "passesLeft": game.passes_left,
            "pass": seen.pass_number,
            "passes": game.variant.passes,  # the passes the rules allow (None: unlimited)
            "draw": game.variant.draw,
            "scoring": scoring,
            "score": game.score if scoring != "none" else None,
            "balance": None if self.balance is None else self.balance + (0 if self.counted else game.score),
            "won": game.is_won(),
            "variant": game.variant.label,
            "title": game.variant.title,
            "deal": self.number,
            "winnable": self.proven_winnable,
            "grade": self.grade,
            "daily": self.daily,
            "started": self.started,
            "seconds": self.won_after if game.is_won() else None,
        }

    # ----- messages --------------------------------------------------------------------------------

    def apply(self, message: dict[str, Any], dealer: KlondikeDealer | None = None) -> str:
        """Play ``message`` (any type but ``hint``) on the game; what happened,
        in words. A :class:`ProtocolError` names a message that changes nothing
        (an illegal move, nothing to undo...)."""
        kind = message["type"]
        game = self.game
        if kind == "view":
            return ""
        if kind == "move":
            text = message.get("move")
            if not isinstance(text, str) or len(text) > 16:
                raise ProtocolError("a move message needs a \"move\" in the engine's notation, e.g. \"3>5\"")
            try:
                move = Move.parse(text)
            except CardtableError as error:
                raise ProtocolError(str(error)) from None
            return self._play(move)
        if kind == "draw":
            for move in (DRAW, RECYCLE):
                if game.is_legal(move):
                    return self._play(move)
            raise ProtocolError(f"cannot draw: {game.why_illegal(DRAW)}")
        if kind == "undo":
            if not game.moves:
                raise ProtocolError("nothing to undo")
            if (kept := game.why_no_undo()) is not None:  # Vegas keeps its draws
                raise ProtocolError(kept)
            return "Undone: " + self._describe(game.undo()).lower()
        if kind == "redo":
            again = game.redo_move
            if again is None:
                raise ProtocolError("nothing to redo")
            said = self._describe(again)
            game.redo()
            return "Redone: " + said.lower()
        if kind == "restart":  # the same deal played on: counted (or not) as one game with it
            if game.variant.undo_rule is not None and any(move.source == STOCK for move in game.moves):
                raise ProtocolError(f"{game.variant.undo_rule}, so this deal cannot start again")
            self.game = KlondikeGame(game.start, game.variant)
            self.started = None
            self.won_after = None
            return "The deal starts again."
        if kind == "new":
            request = self.deal_request(message, dealer)
            return self.take_deal(request, request.find())
        if kind == "autofinish":
            return self._autofinish()
        raise unknown_type(kind, self.TYPES)

    def deal_request(self, message: dict[str, Any], dealer: KlondikeDealer | None) -> DealRequest:
        """The deal a ``new`` message asks ``dealer`` for (a :class:`ProtocolError` for a bad one)."""
        if dealer is None:
            raise ProtocolError("no new deal here")
        number = message.get("deal")
        if number is not None and (type(number) is not int or not 0 <= number <= _MAX_NUMBER):
            raise ProtocolError(f"\"deal\" must be a whole number from 0 to {_MAX_NUMBER}")
        daily, difficulty = message.get("daily", False), message.get("difficulty")
        if type(daily) is not bool:
            raise ProtocolError("\"daily\" must be true or false")
        if difficulty is not None:
            if not isinstance(difficulty, str) or difficulty not in LEVELS:
                raise ProtocolError(f"\"difficulty\" must be one of {', '.join(LEVELS)}")
            if daily:
                raise ProtocolError("the daily deal has no difficulty to choose")
        rules, winnable = message.get("rules"), message.get("winnable", self.winnable)
        if rules is not None and (not isinstance(rules, str) or rules not in PRESETS):
            raise ProtocolError(f"\"rules\" must be the name of a rule set: {', '.join(PRESETS)}")
        if type(winnable) is not bool:
            raise ProtocolError("\"winnable\" must be true or false")
        return DealRequest(dealer, number, self.game.variant if rules is None else PRESETS[rules],
                           winnable=winnable and not daily and difficulty is None,
                           daily=datetime.date.today() if daily else None, difficulty=difficulty)

    def take_deal(self, request: DealRequest, fresh: KlondikeTable) -> str:
        """Make ``fresh`` (``request`` found) the player's game, counting the
        game left as a loss when a move of it was played; what happened, in words."""
        game = self.game
        if counts_as_loss(game):
            self._count(won=False)  # left after a move: a loss
        self.game, self.number, self.winnable, self.started = fresh.game, fresh.number, fresh.winnable, None
        self.daily, self.grade = fresh.daily, fresh.grade
        if fresh.balance is None:
            self.balance = None  # no Vegas balance to carry under these rules
        elif self.balance is None:
            self.balance = fresh.balance  # a Vegas balance starts
        self.counted, self.won_after = False, None
        under = f" ({self.game.variant.title})" if self.game.variant != game.variant else ""
        if self.daily is not None:
            return f"The daily deal of {self.daily}{under}: proven winnable."
        if self.grade is not None:  # the grader graded it only once the solver had won it
            return f"New deal {self.number}{under}, graded {self.grade}: proven winnable."
        kind = "winnable deal" if self.winnable else "deal"
        return f"New {kind} {self.number}{under}."

    def _play(self, move: Move) -> str:
        game = self.game
        reason = game.why_illegal(move)
        if reason is not None:
            raise ProtocolError(_in_words(reason))
        said = self._describe(move)
        source = move.source
        hidden_before = game.face_down[source] if 0 <= source < 7 else 0
        game.play(move)
        if 0 <= source < 7 and game.face_down[source] < hidden_before:  # now face up: the player sees it
            said = f"{said[:-1]}, turning up the {_spoken(game.tableau[source][-1])}."
        if self.started is None:
            self.started = time.time()
        if move == DRAW:
            drawn = game.waste[len(game.waste) - min(game.variant.draw, len(game.waste)):]
            said = "Drew " + ", ".join(_spoken(card) for card in drawn) + "."
        if game.is_won():
            said += " You won!"
            if not self.counted:
                self.won_after = round(self.seconds(), 3)  # as kept in the statistics (PlayedGame.of_game)
                self._count(won=True)
        return said

    def _describe(self, move: Move) -> str:
        """``move`` in words before it is played, naming only face-up cards."""
        game = self.game
        if move == RECYCLE:
            return "Turned the waste over."
        if move.source == STOCK:
            return "Drew from the stock."
        cards = game.moved_cards(move)
        head = _spoken(cards[0]).capitalize() + (f" and {len(cards) - 1} more" if len(cards) > 1 else "")
        if move.target == FOUNDATION:
            return f"{head} from {_place(move.source)} to its foundation."
        top = game.top(move.target)
        onto = f"onto the {_spoken(top)} in pile {move.target + 1}" if top is not None \
            else f"to the empty pile {move.target + 1}"
        return f"{head} from {_place(move.source)} {onto}."

    def _autofinish(self) -> str:
        """Send every card that can go to the foundations there; when no card
        is face down and drawing through the stock wins the game, draw too."""
        game = self.game
        trial = game.clone()
        line = _finishing_line(trial, draw=True)
        if not trial.is_won():  # drawing does not finish it: only the cards that can go home now
            line = _finishing_line(game.clone(), draw=False)
        if not line:
            raise ProtocolError("no card can go to the foundations now")
        for move in line:
            self._play(move)
        played = sum(1 for move in line if move.target == FOUNDATION)
        return f"Auto-finish sent {played} card{'s' if played != 1 else ''} home." + \
            (" You won!" if game.is_won() else "")

    async def hint(self) -> dict[str, Any]:
        """The ``expert``'s move from what the player sees (its guesses of the
        hidden cards are seeded by the visible table, so the same table gets the
        same hint), searched in a thread on a copy of the game, as a ``hint``
        message naming only cards the player has seen."""
        game = self.game.clone()
        try:
            found = await asyncio.to_thread(expert_hint, game)
        except CardtableError as error:
            return {"type": "hint", "move": None, "text": f"No hint: {error}"}
        if found.move is None:
            return {"type": "hint", "move": None, "text": f"{found.describe().capitalize()}."}
        return {"type": "hint", "move": str(found.move), "text": f"Hint: {found.describe()}."}
