"""Any patience game at the browser table: one player's game, the messages it
takes, the view it sends and how it is kept.

A :class:`PatienceTable` holds a :class:`~cardtable.patience.PatienceGame`
of any description and answers the page's messages (the protocol of
:mod:`cardtable.web.protocol`, with the game's own move notation,
:mod:`cardtable.patience.moves`). Every view it sends is built from the
game's player view (:meth:`PatienceGame.view`): face-down cards and the stock
are counts, never cards; what it says after a move, and a hint, name only
cards the player sees. The table's layout (where each pile lies, how it
fans) is the description's, through :func:`cardtable.patience.layout.table_layout`;
the page has no code for any one game.

>>> from cardtable.patience import get
>>> table = PatienceTable.deal(get("golf"), "3")
>>> [pile["place"] for pile in table.view()["piles"]][-2:]
['S', 'H']
>>> table.apply({"type": "move", "move": "2>H"})
Traceback (most recent call last):
...
cardtable.web.protocol.ProtocolError: the three of spades does not go to the hole now
>>> table.apply({"type": "move", "move": "D"})
'Dealt from the stock.'
"""

from __future__ import annotations

import datetime
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, ClassVar

from cardtable.bots.patience_hint import HINT_SAMPLES, HINT_SECONDS, HINT_STATES, patience_hint
from cardtable.bots.patience_review import REVIEW_SAMPLES, REVIEW_STATES, PlayReview, PositionChance, weigh_position
from cardtable.cards import RANK_NAMES, Card
from cardtable.errors import CardtableError
from cardtable.patience import Description, Kind, Move, PatienceGame
from cardtable.patience.description import Fill
from cardtable.patience.engine import PatienceView
from cardtable.patience.layout import table_layout
from cardtable.patience.record import PatienceRecord, rules_name
from cardtable.patience.words import place_words, rules_sections
from cardtable.sim.grade import LEVELS
from cardtable.sim.played import PlayedGame
from cardtable.web.protocol import ProtocolError, unknown_type

__all__ = ["PEEK_STATES", "REVIEW_SAMPLES", "REVIEW_STATES", "PatienceTable", "game_key", "hint_message",
           "review_message", "table_json"]

#: The longest move text a page may send (the longest real one, ``13+R12>H``, has 8 characters).
_MAX_MOVE = 16
#: The longest deal text a page may send (``pysol:`` and twenty digits).
_MAX_DEAL = 32
#: The most moves the table keeps to redo.
_MAX_REDO = 10_000
_CARD_IN_REASON = re.compile(r"\b(?:the )?([A2-9TJQK][cdhs])\b")
#: The peek's budget (the search's verdict of each position, every card known), once the game is over.
PEEK_STATES = 20_000


def game_key(description: Description) -> str:
    """The key of a player's saved game of ``description`` in the results
    store's ``web_games`` table: one saved game per game and its options."""
    return f"patience:{rules_name(description)}"


def _in_words(reason: str) -> str:
    """The engine's reason, its cards named in words (the engine names only
    cards the player sees: the moved card and the card it was to cover)."""
    return _CARD_IN_REASON.sub(lambda match: f"the {Card.parse(match.group(1)).name()}", reason)


def hint_message(game: PatienceGame, *, samples: int = HINT_SAMPLES, max_states: int = HINT_STATES,
                 seconds: float | None = HINT_SECONDS) -> dict[str, Any]:
    """The ``hint`` message for ``game``: the ``expert``'s move from what the
    player sees (:func:`~cardtable.bots.patience_hint.patience_hint`, with the
    game's history, so it never sends cards back where they were), in words
    that name only cards the player sees. A function of the game alone, so a
    server process may run it.

    >>> from cardtable.patience import get
    >>> hint_message(PatienceGame.from_seed(get("golf"), 3), samples=2, max_states=500)["type"]
    'hint'
    """
    try:
        found = patience_hint(game, samples=samples, max_states=max_states, seconds=seconds)
    except CardtableError as error:
        return {"type": "hint", "move": None, "text": f"No hint: {error}."}
    if found.move is None:
        text = "No move is left: start again or deal anew." if found.fallback is None else \
            f"No hint: {found.describe()}. Undo, start again or deal anew."
        return {"type": "hint", "move": None, "text": text}
    return {"type": "hint", "move": str(found.move), "text": f"Hint: {found.describe()}."}


async def review_message(search: Callable[[Callable[[], Any]], Awaitable[Any]], game: PatienceGame, deal: str, *,
                         progress: Callable[[int, int], Awaitable[None]], stopped: Callable[[], bool],
                         samples: int = REVIEW_SAMPLES, max_states: int = REVIEW_STATES,
                         peek_states: int = PEEK_STATES) -> dict[str, Any]:
    """The ``review`` message of ``game`` (dealt from ``deal``): each position
    weighed from the player's view (:func:`~cardtable.bots.patience_review.weigh_position`)
    through ``search`` (a server process each), ``progress(done, total)``
    awaited after each, stopped once ``stopped()`` says so; with the search's
    verdicts every card known (:func:`~cardtable.solver.patience_review.review_game`)
    only when the game is over. Its ``review`` is what the page's review dialog
    draws: the positions' chances, the moves, the mistakes (``drops``) in words,
    how the game ended, a ``note`` (the summary, with the positions the expert
    could not estimate within its budget) and the ``peek`` (None while the game goes on)."""
    record = PatienceRecord.from_game(game, deal)
    total = len(record.moves) + 1
    replay = record.start()
    positions: list[PositionChance] = []
    for index in range(total):
        if index:
            replay.play(record.moves[index - 1])
        positions.append(await search(partial(weigh_position, replay.clone(), index=index, samples=samples,
                                              max_states=max_states)))
        await progress(len(positions), total)
        if stopped():
            break
    review = PlayReview.of(record, positions, samples=samples, max_states=max_states)
    outcome = game.outcome()
    peek = None
    if outcome is not None and review.complete:
        from cardtable.solver.patience_review import review_game

        verdicts = await search(partial(review_game, record, max_states=peek_states))
        peek = " ".join([verdicts.summary(), *(move.callout() + "." for move in verdicts.thrown_away()[:3])])
    ended = "unfinished" if outcome is None else "won" if outcome.is_win else "lost: no legal move is left"
    return {"type": "review", "stopped": not review.complete, "review": {
        **review.to_dict(), "outcome": ended, "note": review.summary(), "peek": peek,
        "drops_title": "Your mistakes (moves not the expert's that cost the most of the chance):",
        "drops": [{"number": move.number, "text": move.callout()} for move in review.mistakes()]}}


def table_json(description: Description) -> dict[str, Any]:
    """The game as the page needs it once: its name, title, family, options,
    rules in sentences (:func:`~cardtable.patience.words.rules_sections`) and
    layout (:func:`~cardtable.patience.layout.table_layout`: each pile's
    place in move notation, kind, box in card units and fan, in drawing
    order)."""
    layout = table_layout(description)
    f = description.foundations
    return {
        "name": description.name,
        "rules": rules_name(description),
        "title": description.title,
        "family": description.family,
        "summary": description.summary,
        "help": [{"heading": heading, "text": text} for heading, text in rules_sections(description)],
        "options": [{"name": option.name, "summary": option.summary} for option in description.options],
        "applied": list(description.applied),
        "deals": list(description.deals),
        "pairs": description.hole_pairs,
        # what an empty foundation shows: the rank it starts with (none when the first card or a whole run decides)
        "foundationMark": "" if f.base is None or f.complete_runs else RANK_NAMES[f.base],
        # an empty tableau pile that takes nothing is not drawn (Pyramid's and Golf's spent piles)
        "spaceTakes": description.tableau.empty is not Fill.NONE,
        "layout": {"width": layout.width, "height": layout.height,
                   "piles": [{"place": str(pile.place), "kind": pile.place.kind.value, "x": pile.x, "y": pile.y,
                              "width": pile.width, "height": pile.height, "fan": pile.fan.value}
                             for pile in layout.piles]},
    }


class PatienceTable:
    """One player's game of patience at the browser table (see the module documentation).

    ``deal`` is the deal's text as :meth:`PatienceGame.from_seed` reads it
    (a whole number, ``ms:N``, ``pysol:N``), ``daily`` the date of a daily
    deal, ``started`` the time of the first move (seconds since the epoch)
    and ``won_after`` the seconds the won game took; ``counted`` says the
    game is in the player's statistics already (won once). A game counts
    once it is won, or when it is left for another deal after a move
    (:meth:`take_finished` hands it to the server, which keeps it in the
    results store: :meth:`PlayedGame.of_patience
    <cardtable.sim.played.PlayedGame.of_patience>`).
    """

    #: The message types a patience table takes (``hint`` is the server's: :func:`hint_message` in its process).
    TYPES: ClassVar[tuple[str, ...]] = ("move", "undo", "redo", "new", "restart", "hint", "autofinish", "view")

    def __init__(self, game: PatienceGame, *, deal: str, daily: str | None = None, started: float | None = None,
                 won_after: float | None = None, redo: list[Move] | None = None, winnable: bool = False,
                 counted: bool = False, grade: str | None = None) -> None:
        self.game = game
        self.deal_text = deal
        self.daily = daily
        #: The deal was proven winnable before it was dealt (:func:`find_winnable`).
        self.winnable = winnable
        #: The deal's grade when it was dealt for one (:func:`cardtable.sim.grade.game_of_grade`), else None.
        self.grade = grade
        self.started = started
        self.won_after = won_after
        self.counted = counted
        self._redo: list[Move] = list(redo or [])
        self._finished: list[PlayedGame] = []

    @classmethod
    def deal(cls, description: Description, deal: str | None = None, *, daily: datetime.date | None = None,
             winnable: bool = False, grade: str | None = None) -> PatienceTable:
        """A new table: deal ``deal`` (a random one when None), or the day's
        deal (:func:`~cardtable.solver.patience_deals.daily_game`, the deal
        ``cardtable deal --game NAME --daily`` gives; found here unless
        ``deal`` gives it); ``winnable`` says the deal was proven winnable, ``grade`` its grade."""
        if daily is not None and deal is None:
            from cardtable.solver.patience_deals import daily_game

            deal = str(daily_game(daily, description).seed)
        elif deal is None:
            deal = str(secrets.randbelow(1 << 32))
        try:
            game = PatienceGame.from_seed(description, deal)
        except CardtableError as error:
            raise ProtocolError(str(error)) from None
        return cls(game, deal=deal, daily=None if daily is None else daily.isoformat(), winnable=winnable,
                   grade=grade)

    @property
    def description(self) -> Description:
        return self.game.description

    # ----- keeping ---------------------------------------------------------------------------------

    def saved(self) -> str:
        """The game's record (with the deal, the daily date, the clock and the
        moves to redo as headers), which :meth:`restore` reads back."""
        headers = {}
        if self.daily is not None:
            headers["Daily"] = self.daily
        if self.won_after is not None:
            headers["Time"] = f"{self.won_after:.3f}"
        if self.winnable:
            headers["Winnable"] = "yes"
        if self.grade is not None:
            headers["Grade"] = self.grade
        if self.counted:
            headers["Counted"] = "yes"
        if self._redo:
            headers["Redo"] = " ".join(str(move) for move in reversed(self._redo))
        return str(PatienceRecord.from_game(self.game, self.deal_text, **headers))

    @classmethod
    def restore(cls, text: str, started: float | None, description: Description) -> PatienceTable:
        """The table :meth:`saved` wrote, played under ``description`` (a
        :class:`CardtableError` for a record that is not a game of it)."""
        record = PatienceRecord.parse(text)
        if record.description != description or record.seed is None:
            raise ProtocolError(f"the saved game is not a game of {description.title}")
        game = record.replay()
        kept = record.headers.get("Time")
        won_after = float(kept) if kept is not None and re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,3})?", kept) else None
        redo = [Move.parse(text) for text in record.headers.get("Redo", "").split()][::-1]
        return cls(game, deal=record.seed, daily=record.headers.get("Daily"), started=started,
                   won_after=won_after if game.is_won() else None, redo=redo,
                   winnable=record.headers.get("Winnable") == "yes", counted=record.headers.get("Counted") == "yes",
                   grade=grade if (grade := record.headers.get("Grade")) in LEVELS else None)

    # ----- the view --------------------------------------------------------------------------------

    def seconds(self) -> float:
        """The time the game has taken: from its first move until it was won, else until now."""
        if self.won_after is not None:
            return self.won_after
        return 0.0 if self.started is None else max(0.0, time.time() - self.started)

    def view(self) -> dict[str, Any]:
        """What the player sees, as JSON values: each pile's place, face-down
        count and face-up cards (the stock as a count), the legal moves, the
        deal and the clock."""
        game = self.game
        seen: PatienceView = game.view()
        stock = self.description.stock
        return {
            "game": rules_name(self.description),
            "piles": [{"place": str(pile.place), "down": pile.face_down, "up": [str(card) for card in pile.cards]}
                      for pile in seen.piles],
            "legal": [str(move) for move in seen.legal_moves],
            "moves": seen.moves_played,
            "canUndo": bool(game.moves),
            "canRedo": bool(self._redo),
            "canFinish": self.game.home_move() is not None,
            "pass": seen.pass_number,
            "passes": stock.passes if stock.count and stock.to.value == "waste" else None,
            "passesLeft": seen.passes_left,
            "won": game.is_won(),
            "over": game.is_over(),
            "deal": self.deal_text,
            "daily": self.daily,
            "winnable": self.winnable,
            "grade": self.grade,
            "started": self.started,
            "seconds": self.won_after,
        }

    # ----- messages --------------------------------------------------------------------------------

    def apply(self, message: dict[str, Any]) -> str:
        """Play ``message`` (any type but ``hint``) on the game; what happened,
        in words. A :class:`ProtocolError` names a message that changes nothing
        (an illegal move with the engine's reason, nothing to undo...)."""
        kind = message["type"]
        game = self.game
        if kind == "view":
            return ""
        if kind == "move":
            text = message.get("move")
            if not isinstance(text, str) or len(text) > _MAX_MOVE:
                raise ProtocolError("a move message needs a \"move\" in the game's notation, e.g. \"3>5\"")
            try:
                move = Move.parse(text)
            except CardtableError as error:
                raise ProtocolError(str(error)) from None
            said = self._play(move)
            if self._redo and self._redo[-1] == move:
                self._redo.pop()
            else:
                self._redo.clear()
            return said
        if kind == "undo":
            if not game.moves:
                raise ProtocolError("nothing to undo")
            move = game.undo()
            if len(self._redo) < _MAX_REDO:
                self._redo.append(move)
            self.won_after = None
            return f"Undone: {move}."
        if kind == "redo":
            if not self._redo:
                raise ProtocolError("nothing to redo")
            move = self._redo.pop()
            return "Redone: " + self._play(move)
        if kind == "restart":
            self.game = PatienceGame(game.description, *game.start, shuffle_seed=game.shuffle_seed)
            self.started = self.won_after = None
            self._redo.clear()
            return "The deal starts again."
        if kind == "new":
            return self._new(message)
        if kind == "autofinish":
            return self._autofinish()
        raise unknown_type(kind, self.TYPES)

    def _new(self, message: dict[str, Any]) -> str:
        deal, daily = message.get("deal"), message.get("daily", False)
        if type(daily) is not bool:
            raise ProtocolError("\"daily\" must be true or false")
        if deal is not None and (not isinstance(deal, str) or len(deal) > _MAX_DEAL):
            raise ProtocolError("\"deal\" must be a deal's text: a whole number, ms:N or pysol:N")
        if daily and deal is not None:
            raise ProtocolError("the daily deal has its own number: give \"deal\" or \"daily\", not both")
        return self.take(PatienceTable.deal(self.description, deal, daily=datetime.date.today() if daily else None))

    def take_finished(self) -> list[PlayedGame]:
        """The games finished since the last call, to be kept in the player's statistics."""
        finished, self._finished = self._finished, []
        return finished

    def _count(self) -> None:
        """Count the game in the statistics, once, when a move of it was played."""
        if self.counted or not self.game.moves:
            return
        self.counted = True
        self._finished.append(PlayedGame.of_patience(self.game, deal=self.deal_text, seconds=self.seconds(),
                                                     daily=self.daily))

    def take(self, fresh: PatienceTable) -> str:
        """Make ``fresh``'s deal the game on the table (the game left counts,
        after a move); what happened, in words."""
        self._count()
        self.counted = False
        self.game, self.deal_text, self.daily, self.winnable = fresh.game, fresh.deal_text, fresh.daily, fresh.winnable
        self.grade = fresh.grade
        self.started = self.won_after = None
        self._redo.clear()
        if self.daily is not None:
            return f"The daily deal of {self.daily}."
        if self.grade is not None:
            return f"Deal {self.deal_text}, graded {self.grade}: proven winnable."
        return f"Deal {self.deal_text}" + (": proven winnable." if self.winnable else ".")

    def _play(self, move: Move) -> str:
        game = self.game
        reason = game.why_illegal(move)
        if reason is not None:
            raise ProtocolError(_in_words(reason))
        said = self._describe(move)
        game.play(move)
        if self.started is None:
            self.started = time.time()
        if game.is_won():
            self.won_after = round(self.seconds(), 3)
            self._count()
            said += " You won!"
        elif not game.legal_moves():
            said += " No move is left."
        return said

    def _describe(self, move: Move) -> str:
        """``move`` in words before it is played, naming only face-up cards."""
        game = self.game
        if move.is_deal:
            return "Redealt the tableau." if not self.description.stock.count else "Dealt from the stock."
        if move.is_recycle:
            return "Turned the waste over."
        assert move.target is not None
        cards = game.pile(move.source)[-move.count:]
        head = cards[0].name().capitalize() + (f" and {len(cards) - 1} more" if len(cards) > 1 else "")
        source = place_words(move.source)
        if move.pair is not None:  # two cards of two piles: each named with its own
            source += f" and the {game.pile(move.pair)[-1].name()} from {place_words(move.pair)}"
        target = move.target
        if target.kind is Kind.TABLEAU:
            top = game.pile(target)
            onto = (f"onto the {top[-1].name()} in pile {target.index + 1}" if top
                    else f"to the empty pile {target.index + 1}")
            return f"{head} from {source} {onto}."
        if target.kind is Kind.FOUNDATION:
            return f"{head} from {source} to a foundation."
        return f"{head} from {source} to {place_words(target)}."

    def _autofinish(self) -> str:
        """Send every card that can go to the foundations there, one after another."""
        played = 0
        while (move := self.game.home_move()) is not None:
            self._play(move)
            played += 1
        if not played:
            raise ProtocolError("no card can go to the foundations now")
        self._redo.clear()
        return f"Auto-finish sent {played} card{'s' if played != 1 else ''} home." + \
            (" You won!" if self.game.is_won() else "")
