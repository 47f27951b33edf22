"""Kings Corner at the browser table: shared tables of 2 to 6 seats.

A :class:`SharedTable` is one table a host opened: its seats (people, by
their player id, and bots for the seats nobody took), the match played at it
through a :class:`~cardtable.kings_corner.KingsCornerSession`, and what each
seat may see. It does no I/O: :class:`KingsCornerRoom` (the aiohttp side)
keeps it in the results store after every change, writes each finished
hand's record, keeps each seated person's hand in their statistics
(:func:`~cardtable.sim.played.record_hand` under their player id, as the
terminal app keeps its person's) and sends every page its own view.

What a page receives is built for its player alone (:meth:`SharedTable.view`):
their own hand, the piles, the other seats' hand sizes and penalty totals,
the deck as a count. Another seat's cards and the deck's order never leave
the server; the record of a hand (which lists the deal) is offered only once
the hand is over.

>>> table = SharedTable.open("T" * 10, host="h" * 16, seats=3, level="greedy", target=1, seed=4)
>>> table.sit("h" * 16, "Ann"); table.sit("g" * 16, "Bob")
'Ann took seat 1.'
'Bob took seat 2.'
>>> table.start("h" * 16)
'The match starts: Ann, Bob and Greedy bot 3.'
>>> view = table.view("h" * 16)
>>> len(view["hand"]), [p["cards"] for p in view["players"]], view["deck"]
(7, [7, 7, 7], 27)
>>> "hand" in table.view("x" * 16)  # someone who sits at no seat sees no hand
False
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
import logging
import re
import secrets
import time
import unicodedata
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar

from aiohttp import web

from cardtable._files import atomic_write_text
from cardtable.bots.kings_corner import Bot, make_bot
from cardtable.errors import CardtableError
from cardtable.kings_corner import (
    Action,
    Draw,
    HandRecord,
    KingsCornerSession,
    MovePile,
    Pass,
    PlayCard,
    parse_action,
)
from cardtable.kings_corner.session import BotFactory, derive_seed
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import HandStats, PlayedHand, hand_stats, kings_corner_label, record_hand
from cardtable.web.protocol import (
    ProtocolError,
    RateLimit,
    open_socket,
    parse_message,
    player_id,
    same_origin,
    send,
    set_cookie,
    text_messages,
    unknown_type,
)

__all__ = ["LEVELS", "Keeper", "KingsCornerHouse", "KingsCornerRoom", "Lender", "SharedTable"]

#: The bots a host may choose for the empty seats.
LEVELS = ("random", "greedy", "strategic", "expert")
#: The levels whose bots choose without a search (in microseconds): their
#: turns are played on the event loop, not handed to a thread.
QUICK_LEVELS = ("random", "greedy")
#: The store's ``web_games.game`` of a shared table (its ``player`` is ``table:ID``).
GAME_NAME = "kings-corner"
#: A table's id: what a share link ends with.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{10,32}")
#: The store's ``web_games.game`` of a person's list of the tables they sat
#: at, newest first (its ``player`` is theirs; ``saved`` a JSON list of ids).
MINE_NAME = "kings-corner-tables"
#: The tables a person's list keeps.
MAX_MINE = 20
#: Tables one player, and one client address, may open a minute.
OPEN_PER_MINUTE = 10
#: Tables the whole server opens an hour, whoever asks (each is kept in the store).
OPEN_PER_HOUR = 600
#: Pages one person may have open at one table.
MAX_PAGES = 8
#: Pages of people without a seat (onlookers, and guests before they sit) one
#: table takes, and how many of those may come from one client address. The
#: seated people's own pages never count against these.
MAX_ONLOOKERS = 32
ONLOOKERS_PER_ADDRESS = 8
#: The longest name a player may give.
MAX_NAME = 24
_PILE_WORDS = {"N": "north pile", "E": "east pile", "S": "south pile", "W": "west pile",
               "NE": "north-east corner", "SE": "south-east corner", "SW": "south-west corner",
               "NW": "north-west corner"}
_log = logging.getLogger("cardtable.web")
_T = TypeVar("_T")


def _clean_name(value: object, fallback: str) -> str:
    """A player's name: printable, trimmed, at most :data:`MAX_NAME` characters."""
    if value is None:
        return fallback
    if not isinstance(value, str):
        raise ProtocolError("\"name\" must be a string")
    text = "".join(ch for ch in value.replace(",", " ") if unicodedata.category(ch)[0] not in "CZ" or ch == " ")
    text = " ".join(text.split())[:MAX_NAME].strip()  # names are kept comma-separated in records
    return text or fallback


def describe(action: Action, who: str) -> str:
    """An action in words, naming only cards every seat sees.

    >>> describe(parse_action("play 7h N"), "Ann")
    'Ann plays the seven of hearts on the north pile.'
    >>> describe(parse_action("draw"), "Bot 2")
    'Bot 2 ends the turn and draws a card.'
    """
    if isinstance(action, PlayCard):
        return f"{who} plays the {action.card.name()} on the {_PILE_WORDS[action.target.name]}."
    if isinstance(action, MovePile):
        return f"{who} moves the {_PILE_WORDS[action.source.name]} onto the {_PILE_WORDS[action.target.name]}."
    if isinstance(action, Draw):
        return f"{who} ends the turn and draws a card."
    if isinstance(action, Pass):
        return f"{who} ends the turn (the deck is empty)."
    return f"{who}: {action}."  # pragma: no cover - every action is one of the above


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass
class _Entry:
    """A seat taken at the table, in the order taken: a person (their player id) or a bot (None)."""

    player: str | None
    name: str


@dataclass
class SharedTable:
    """One Kings Corner table for ``seats`` players (see the module documentation).

    ``phase`` is ``lobby`` (people take seats; the host starts the match),
    ``playing``, ``hand-over`` (the hand's result is shown; anyone seated
    deals the next) or ``match-over`` (anyone seated starts a new match).
    """

    id: str
    host: str
    seats: int
    level: str
    target: int
    seed: int
    entries: list[_Entry] = field(default_factory=list)
    phase: str = "lobby"
    match: int = 0
    #: The hands (from 1) of the current match whose records were written.
    records: list[int] = field(default_factory=list)
    #: Players with a page open at this table (kept by the room, never saved).
    present: set[str] = field(default_factory=set)
    #: Entries whose person has been away longer than the seat timeout: a bot plays for them.
    away: set[int] = field(default_factory=set)
    session: KingsCornerSession | None = None
    #: When the hand being played was dealt (seconds since the epoch: it survives a restart).
    started: float = 0.0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    _stand_ins: dict[tuple[int, int], Bot] = field(default_factory=dict, repr=False)
    #: The finished hands not yet kept in the people's statistics: (player id, hand).
    _hands: list[tuple[str, PlayedHand]] = field(default_factory=list, repr=False)

    @classmethod
    def open(cls, table_id: str, *, host: str, seats: int, level: str, target: int, seed: int) -> SharedTable:
        """A new table in the lobby (a :class:`ProtocolError` names a bad setting)."""
        if type(seats) is not int or not 2 <= seats <= 6:
            raise ProtocolError("a table has 2 to 6 seats")
        if level not in LEVELS:
            raise ProtocolError(f"unknown bot {level[:20]!r}: choose from {', '.join(LEVELS)}")
        if type(target) is not int or not 1 <= target <= 1000:
            raise ProtocolError("the match target is a whole number of points from 1 to 1000")
        return cls(table_id, host, seats, level, target, seed)

    # ----- who sits where --------------------------------------------------------------------------

    def entry_of(self, player: str) -> int | None:
        """The entry ``player`` took (None: they sit at no seat)."""
        return next((e for e, entry in enumerate(self.entries) if entry.player == player), None)

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` sits in this hand (None: no seat, or no hand yet)."""
        entry = self.entry_of(player)
        if entry is None or self.session is None:
            return None
        return self.session.seat_of(entry)

    @property
    def people(self) -> list[str]:
        """The player ids of the people seated."""
        return [entry.player for entry in self.entries if entry.player is not None]

    def sit(self, player: str, name: object = None) -> str:
        """``player`` takes the next free seat (in the lobby)."""
        if self.entry_of(player) is not None:
            raise ProtocolError("you have a seat at this table already")
        if self.phase != "lobby":
            raise ProtocolError("the match has started: every seat is taken")
        if len(self.entries) >= self.seats:
            raise ProtocolError("every seat at this table is taken")
        taken = {entry.name for entry in self.entries}
        name_text = _clean_name(name, f"Player {len(self.entries) + 1}")
        if name_text in taken:
            name_text = f"{name_text[:MAX_NAME - 3]} ({len(self.entries) + 1})"
        self.entries.append(_Entry(player, name_text))
        return f"{name_text} took seat {len(self.entries)}."

    def start(self, player: str) -> str:
        """The host starts the match: bots take the free seats."""
        if player != self.host:
            raise ProtocolError("only the host starts the match")
        if self.phase != "lobby":
            raise ProtocolError("the match has started already")
        if self.entry_of(player) is None:
            raise ProtocolError("take a seat before you start the match")
        while len(self.entries) < self.seats:
            self.entries.append(_Entry(None, f"{self.level.capitalize()} bot {len(self.entries) + 1}"))
        self.phase = "playing"
        self._new_session(hand=0)
        return f"The match starts: {_and([entry.name for entry in self.entries])}."

    def _factories(self) -> list[BotFactory | None]:
        bot: BotFactory = partial(make_bot, self.level)
        return [None if entry.player is not None else bot for entry in self.entries]

    def _match_seed(self) -> int:
        return self.seed if self.match == 0 else derive_seed(self.seed, 1 << 20, self.match)

    def _new_session(self, *, hand: int) -> KingsCornerSession:
        self.session = KingsCornerSession(self._factories(), self._match_seed(), target=self.target,
                                          names=[entry.name for entry in self.entries], hand=hand)
        self._stand_ins.clear()
        self.started = time.time()
        return self.session

    # ----- play ------------------------------------------------------------------------------------

    def act(self, player: str, text: object) -> tuple[list[dict[str, Any]], HandRecord | None]:
        """``player`` plays ``text`` (an action in the engine's notation); the
        steps played (theirs, then the bots' up to the next person's turn) and
        the record of the hand when it ended."""
        steps = self.play(player, text)
        more, record = self.advance()
        return steps + more, record

    def play(self, player: str, text: object) -> list[dict[str, Any]]:
        """``player`` plays ``text`` (an action in the engine's notation),
        checked by the engine; the step played (the bots play on only with
        :meth:`advance`)."""
        if not isinstance(text, str) or len(text) > 32:
            raise ProtocolError("an action message needs an \"action\" such as \"play 7h N\", \"move W E\" or "
                                "\"draw\"")
        session = self.session
        if self.phase != "playing" or session is None:
            raise ProtocolError("no hand is being played" if self.phase != "lobby" else "the match has not started")
        seat = self.seat_of(player)
        if seat is None:
            raise ProtocolError("you have no seat at this table")
        game = session.game
        if game.turn != seat:
            raise ProtocolError(f"it is not your turn: {session.seat_names[game.turn]} is to play")
        try:
            action = parse_action(text)
            game.play(action)
        except CardtableError as error:
            raise ProtocolError(str(error)) from None
        self.away.discard(session.seating[seat])
        return [self._step(seat, action)]

    def bots_will_search(self) -> bool:
        """Whether :meth:`advance` would let a bot (or a stand-in) search for
        a play: a bot of a searching level is to play."""
        session = self.session
        if self.level in QUICK_LEVELS or self.phase != "playing" or session is None \
                or not any(p in self.present for p in self.people):
            return False
        game = session.game
        if game.is_over():
            return False
        return session.agents[game.turn] is not None or session.seating[game.turn] in self.away

    def advance(self) -> tuple[list[dict[str, Any]], HandRecord | None]:
        """Let the bots (and the stand-ins of people away) play until a person
        present is to act; nothing moves while nobody has a page open. The
        steps played and the hand's record when it ended."""
        session = self.session
        steps: list[dict[str, Any]] = []
        if self.phase != "playing" or session is None:
            return steps, None
        game = session.game
        while any(p in self.present for p in self.people) and not game.is_over():
            seat = game.turn
            agent = session.agents[seat]
            if agent is None:
                entry = session.seating[seat]
                if entry not in self.away:
                    break
                key = (session.hand, entry)
                if key not in self._stand_ins:
                    self._stand_ins[key] = make_bot(self.level, derive_seed(session.seed, session.hand, entry + 1))
                agent = self._stand_ins[key]
            action = agent.choose(game.view(seat))
            if action is None:  # a bot that stops: it ends its turn
                action = next(a for a in game.legal_actions() if isinstance(a, (Draw, Pass)))
            game.play(action)
            steps.append(self._step(seat, action))
        return steps, (self._finish() if game.is_over() else None)

    @property
    def label(self) -> str:
        """The name the people's hands at this table are kept under
        (:func:`~cardtable.sim.played.kings_corner_label`: who the others are, the target)."""
        return kings_corner_label(self.seats - 1, self.level, self.target, people=max(0, len(self.people) - 1))

    def take_hands(self) -> list[tuple[str, PlayedHand]]:
        """The hands finished since the last call, one for each person seated
        (their player id and their hand), to keep in their statistics."""
        hands, self._hands = self._hands, []
        return hands

    def _finish(self) -> HandRecord:
        session = self.session
        assert session is not None
        outcome = session.score_hand()
        over = session.score.is_over
        self.phase = "match-over" if over else "hand-over"
        seconds = round(max(0.0, time.time() - self.started), 3)
        label = self.label
        for entry, person in enumerate(self.entries):
            if person.player is not None:
                seat = session.seat_of(entry)
                self._hands.append((person.player, PlayedHand(
                    label, str(session.seed), session.hand + 1, outcome.winner == seat, outcome.penalties[seat],
                    seconds, entry in session.score.leaders if over else None)))
        self.records.append(session.hand + 1)
        return session.record(("Table", self.id), ("Hand", str(session.hand + 1)))

    def next_hand(self, player: str) -> str:
        """Anyone seated deals the next hand once one is over."""
        if self.entry_of(player) is None:
            raise ProtocolError("you have no seat at this table")
        if self.phase != "hand-over" or self.session is None:
            raise ProtocolError("the hand is not over")
        self.session.deal()
        self._stand_ins.clear()
        self.started = time.time()
        self.phase = "playing"
        return f"Hand {self.session.hand + 1} is dealt."

    def new_match(self, player: str) -> str:
        """Anyone seated starts a new match once one is over (the same seats, a new deal)."""
        if self.entry_of(player) is None:
            raise ProtocolError("you have no seat at this table")
        if self.phase != "match-over":
            raise ProtocolError("the match is not over")
        self.match += 1
        self.records = []
        self.phase = "playing"
        self._new_session(hand=0)
        return "A new match starts."

    def _step(self, seat: int, action: Action) -> dict[str, Any]:
        """What every seat sees of an action: who, what, and the table after it."""
        session = self.session
        assert session is not None
        game = session.game
        return {"seat": seat, "action": str(action), "said": describe(action, session.seat_names[seat]),
                "piles": [[str(card) for card in pile] for pile in game.piles],
                "cards": list(game.hand_sizes), "deck": game.deck_count, "turn": game.turn}

    # ----- the view --------------------------------------------------------------------------------

    def view(self, player: str) -> dict[str, Any]:
        """What ``player`` sees: only their own hand, the rest as counts."""
        entry = self.entry_of(player)
        view: dict[str, Any] = {
            "game": GAME_NAME, "table": self.id, "phase": self.phase, "seats": self.seats, "level": self.level,
            "target": self.target, "isHost": player == self.host, "records": list(self.records),
            "match": self.match + 1,
        }
        session = self.session
        if session is None:  # the lobby: the seats in the order taken
            view["players"] = [{"name": e.name, "kind": "person", "you": e.player == player,
                                "host": e.player == self.host, "present": e.player in self.present}
                               for e in self.entries]
            view["you"] = entry
            view["canSit"] = entry is None and len(self.entries) < self.seats
            return view
        game = session.game
        seat = None if entry is None else session.seat_of(entry)
        totals = session.score.totals
        view["players"] = [
            {"name": self.entries[e].name, "kind": "bot" if self.entries[e].player is None else "person",
             "you": e == entry, "host": self.entries[e].player == self.host,
             "present": self.entries[e].player in self.present, "away": e in self.away,
             "cards": game.hand_sizes[s], "total": totals[e]}
            for s, e in enumerate(session.seating)]
        view.update({
            "you": seat, "handNumber": session.hand + 1, "played": len(game.history), "turn": game.turn,
            "deck": game.deck_count,
            "piles": [[str(card) for card in pile] for pile in game.piles],
            "yourTurn": self.phase == "playing" and seat is not None and game.turn == seat,
        })
        if seat is not None:
            view["hand"] = [str(card) for card in game.hand(seat)]
            view["legal"] = [str(a) for a in game.legal_actions()] if view["yourTurn"] else []
        outcome = game.outcome()
        if outcome is not None:
            view["outcome"] = {"winner": outcome.winner, "penalties": list(outcome.penalties)}
        if self.phase == "match-over":
            view["winners"] = [self.entries[e].name for e in session.score.leaders]
        return view

    # ----- keeping ---------------------------------------------------------------------------------

    def saved(self) -> str:
        """The table as JSON text, for :meth:`restore` (it holds the deal: it stays on the server)."""
        session = self.session
        return json.dumps({
            "version": 1, "id": self.id, "host": self.host, "seats": self.seats, "level": self.level,
            "target": self.target, "seed": self.seed, "phase": self.phase, "match": self.match,
            "records": self.records, "entries": [[e.player, e.name] for e in self.entries], "started": self.started,
            "hand": None if session is None else session.hand,
            "totals": None if session is None else session.score.totals,
            "actions": None if session is None else [str(a) for a in session.game.history],
        })

    @classmethod
    def restore(cls, text: str) -> SharedTable:
        """The table :meth:`saved` wrote (a :class:`CardtableError` when it cannot be read)."""
        try:
            data = json.loads(text)
            table = cls.open(data["id"], host=data["host"], seats=data["seats"], level=data["level"],
                             target=data["target"], seed=data["seed"])
            table.phase, table.match, table.records = data["phase"], data["match"], list(data["records"])
            table.entries = [_Entry(player, name) for player, name in data["entries"]]
            if data["hand"] is not None:
                session = table._new_session(hand=data["hand"])
                session.score.totals = list(data["totals"])
                for action in data["actions"]:
                    session.game.play(parse_action(action))
                table.started = float(data.get("started", table.started))  # tables saved before it: now
        except (ValueError, KeyError, TypeError) as error:
            raise CardtableError(f"a saved table cannot be read: {error}") from None
        return table


@dataclass(frozen=True)
class KingsCornerHouse:
    """What a new table is: its seats, bot, match target and first seed (the
    server's play options), how long a person may be away before a bot plays
    their seat, the pace of the bots' plays on the page, and where the
    records of finished hands go."""

    seats: int = 4
    level: str = "expert"
    target: int = 25
    seed: int | None = None
    seat_timeout: float = 60.0
    delay: float = 0.6
    #: None: :func:`records_folder` of the server's store.
    records: Path | None = None


class Keeper(Protocol):
    """The results store as a server keeps it for its rooms, off the event
    loop (:class:`cardtable.web.server.TableServer`'s)."""

    async def load(self, player: str, game: str) -> tuple[str, float | None] | None:
        """The ``web_games`` row of ``player`` and ``game``: its text and start (None: none kept)."""

    async def save(self, row: dict[str, object]) -> None:
        """Keep ``row`` (a ``web_games`` row); returns once it is committed."""

    async def call(self, work: Callable[[ResultsStore], _T]) -> _T:
        """``work(store)`` done where the store lives, and its result."""


class Lender(Protocol):
    """What the server lends its Kings Corner room: the address browsers use,
    every open socket (closed at shutdown), where its store is and, while it
    serves, the store itself. The web server passes itself; the room knows
    nothing else of it."""

    url: str
    store_path: Path
    sockets: weakref.WeakSet[web.WebSocketResponse]

    @property
    def keeper(self) -> Keeper | None:
        """The store, while serving."""


class KingsCornerRoom:
    """The shared Kings Corner tables of a :class:`~cardtable.web.server.TableServer`:
    the lobby (``/kc``), each table's page (``/kc/ID``) and socket
    (``/kc/ws?table=ID``), and the records of its finished hands
    (``/kc/ID/match-M/hand-N.txt``)."""

    def __init__(self, server: Lender, house: KingsCornerHouse) -> None:
        self.server = server
        self.house = house
        self._tables: dict[str, SharedTable] = {}
        self.sockets: dict[str, dict[web.WebSocketResponse, str]] = {}
        self._loading: dict[str, asyncio.Future[SharedTable | None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._first_seed_used = False
        self._timers: set[tuple[str, str]] = set()
        #: When each player and each client address (``address A``) opened their tables this last minute.
        self._opened: dict[str, list[float]] = {}
        #: When the server opened each of its tables this last hour.
        self._opened_all: collections.deque[float] = collections.deque()
        #: The client address of each open socket.
        self._addresses: dict[web.WebSocketResponse, str] = {}
        self._mine_lock = asyncio.Lock()
        self._records = house.records if house.records is not None else records_folder(server.store_path)
        self._page = resources.files("cardtable.web").joinpath("static", "kings.html").read_text()

    def routes(self, app: web.Application) -> None:
        """Add the room's routes to ``app``."""
        app.router.add_get("/kc", self._lobby)
        app.router.add_post("/kc/new", self._open_table)
        app.router.add_get("/kc/mine", self._mine)
        app.router.add_get("/kc/ws", self._websocket)
        app.router.add_get("/kc/{table}/match-{match:[0-9]{1,6}}/hand-{hand:[0-9]{1,4}}.txt", self._record)
        app.router.add_get("/kc/{table}", self._table_page)

    # ----- pages -----------------------------------------------------------------------------------

    def page(self, request: web.Request) -> web.Response:
        """The Kings Corner page (lobby or table: its script reads the address)."""
        house = self.house
        text = (self._page.replace("{{title}}", "cardtable: Kings Corner")
                .replace("{{seats}}", str(house.seats)).replace("{{level}}", house.level)
                .replace("{{delay}}", str(int(house.delay * 1000))).replace("{{target}}", str(house.target)))
        response = web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})
        player, new = player_id(request)
        if new:
            set_cookie(response, player)
        return response

    async def _lobby(self, request: web.Request) -> web.Response:
        return self.page(request)

    async def _table_page(self, request: web.Request) -> web.Response:
        if not TABLE_ID.fullmatch(request.match_info["table"]):
            raise web.HTTPNotFound(text="no such table\n")
        return self.page(request)

    async def _open_table(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request, self.server.url) or "Origin" not in request.headers:
            return web.Response(status=403, text="a table is opened from this server's page\n")
        player, new = player_id(request)
        refused = self._opening_refused(player, client_address(request.remote))
        if refused is not None:
            return refused
        form = await request.post()
        try:
            seats = int(str(form.get("seats", self.house.seats)))
            target = int(str(form.get("target", self.house.target)))
        except ValueError:
            return web.Response(status=400, text="seats and target are whole numbers\n")
        level = str(form.get("level", self.house.level))
        seed = self.house.seed if self.house.seed is not None and not self._first_seed_used \
            else secrets.randbelow(1 << 32)
        try:
            table = SharedTable.open(secrets.token_urlsafe(9), host=player, seats=seats, level=level,
                                     target=target, seed=seed)
            table.sit(player, form.get("name"))
        except ProtocolError as error:
            return web.Response(status=400, text=f"{error}\n")
        self._first_seed_used = True
        try:  # kept in the store only: loaded when a page of it opens
            await self._save(table)
            await self._remember(player, table.id)
        except CardtableError as error:
            return web.Response(status=503, text=f"the table cannot be kept: {error}\n")
        moved = web.HTTPSeeOther(f"/kc/{table.id}")
        if new:
            set_cookie(moved, player)
        raise moved

    def _opening_refused(self, player: str, address: str) -> web.Response | None:
        """A 429 answer when ``player``, their client ``address`` or the whole
        server has opened as many tables as it may lately (a cookie costs
        nothing to drop: the address and the server's own count hold a flood
        of cookieless requests); else None, and the opening is counted."""
        now = time.monotonic()
        while self._opened_all and now - self._opened_all[0] >= 3600.0:
            self._opened_all.popleft()
        if len(self._opened_all) >= OPEN_PER_HOUR:
            wait = 3600.0 - (now - self._opened_all[0])
            return web.Response(status=429, headers={"Retry-After": str(int(wait) + 1)},
                                text=f"this server opens at most {OPEN_PER_HOUR} tables an hour: "
                                     f"try again in {int(wait) // 60 + 1} minutes\n")
        keys = (player, f"address {address}")
        recents = [[at for at in self._opened.get(key, []) if now - at < 60.0] for key in keys]
        for key, recent in zip(keys, recents, strict=True):
            if len(recent) >= OPEN_PER_MINUTE:
                whom = "from one address" if key.startswith("address ") else "for one player"
                return web.Response(status=429, headers={"Retry-After": str(int(60.0 - (now - recent[0])) + 1)},
                                    text=f"at most {OPEN_PER_MINUTE} tables a minute {whom}: try again soon\n")
        for key, recent in zip(keys, recents, strict=True):
            self._opened.pop(key, None)  # re-inserted last: the oldest openers come first
            self._opened[key] = [*recent, now]
        self._opened_all.append(now)
        if len(self._opened) > 10_000:  # forget the openers of long ago
            for old in list(self._opened)[:5_000]:
                del self._opened[old]
        return None

    async def _mine(self, request: web.Request) -> web.Response:
        """``GET /kc/mine``: the tables the visitor opened or sat at, newest
        first, each as its id, phase, seats, players' names, match and hand,
        and whether it is their turn (JSON; none for a new visitor)."""
        player, new = player_id(request)
        tables: list[dict[str, Any]] = []
        if not new:
            for table_id in await self._mine_ids(player):
                table = await self._peek(table_id)
                if table is None or table.entry_of(player) is None:
                    continue
                view = table.view(player)
                tables.append({"id": table.id, "phase": table.phase, "seats": table.seats,
                               "players": [p["name"] for p in view["players"]], "match": table.match + 1,
                               "hand": view.get("handNumber"), "yourTurn": bool(view.get("yourTurn")),
                               "host": table.host == player})
        return web.json_response({"tables": tables}, headers={"Cache-Control": "no-store"})

    async def _mine_ids(self, player: str) -> list[str]:
        """The ids of ``player``'s tables, newest first (a list that cannot be read: none)."""
        keeper = self.server.keeper
        assert keeper is not None
        found = await keeper.load(player, MINE_NAME)
        if found is None:
            return []
        try:
            ids = json.loads(found[0])
        except ValueError:
            return []
        return [i for i in ids if isinstance(i, str) and TABLE_ID.fullmatch(i)] if isinstance(ids, list) else []

    async def _remember(self, player: str, table_id: str) -> None:
        """Put ``table_id`` first in ``player``'s list of their tables (at most :data:`MAX_MINE`)."""
        async with self._mine_lock:  # one read-and-write at a time: two pages cannot lose a table
            ids = await self._mine_ids(player)
            if ids[:1] == [table_id]:
                return
            kept = [table_id, *(i for i in ids if i != table_id)][:MAX_MINE]
            keeper = self.server.keeper
            assert keeper is not None
            await keeper.save({"player": player, "game": MINE_NAME, "saved": json.dumps(kept), "started": None,
                               "updated": datetime.now(UTC).isoformat(timespec="seconds")})

    async def _peek(self, table_id: str) -> SharedTable | None:
        """The table in memory, else read from the store without keeping it in memory."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        return await self._read(table_id)

    async def _read(self, table_id: str) -> SharedTable | None:
        """The table as the store keeps it (None: no such table, or one that cannot be read, logged)."""
        keeper = self.server.keeper
        assert keeper is not None
        found = await keeper.load(f"table:{table_id}", GAME_NAME)
        if found is None:
            return None
        try:
            return SharedTable.restore(found[0])
        except CardtableError as error:
            _log.warning("table %s: %s", table_id, error)
            return None

    async def _record(self, request: web.Request) -> web.StreamResponse:
        table_id, hand = request.match_info["table"], int(request.match_info["hand"])
        match = int(request.match_info["match"])
        if not TABLE_ID.fullmatch(table_id):
            raise web.HTTPNotFound(text="no such table\n")
        path = self.record_path(table_id, match, hand)
        if not path.is_file():
            raise web.HTTPNotFound(text="no record of that hand (a hand's record is kept once it is over)\n")
        text = await asyncio.to_thread(path.read_text, encoding="utf-8")
        return web.Response(text=text, content_type="text/plain", headers={
            "Content-Disposition": f'attachment; filename="{path.name}"'})

    def record_path(self, table_id: str, match: int, hand: int) -> Path:
        """Where the record of hand ``hand`` of match ``match`` (both from 1) is written."""
        return self._records / f"{table_id}-match-{match}-hand-{hand}.txt"

    # ----- tables ----------------------------------------------------------------------------------

    async def _table(self, table_id: str) -> SharedTable | None:
        """The table in memory, else from the store (None: there is no such table)."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[SharedTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._read(table_id)
            if table is not None:
                self._tables[table_id] = table
            future.set_result(table)
            return table
        except BaseException as error:
            future.set_exception(error)
            raise
        finally:
            del self._loading[table_id]

    async def _save(self, table: SharedTable) -> None:
        keeper = self.server.keeper
        assert keeper is not None
        await keeper.save({"player": f"table:{table.id}", "game": GAME_NAME, "saved": table.saved(),
                           "started": None, "updated": datetime.now(UTC).isoformat(timespec="seconds")})

    async def _write_record(self, table: SharedTable, record: HandRecord) -> None:
        hand = table.records[-1]
        path = self.record_path(table.id, table.match + 1, hand)

        def write() -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, record.to_text())
        try:
            await asyncio.to_thread(write)
        except (OSError, CardtableError) as error:
            _log.warning("table %s: the record of hand %d cannot be written: %s", table.id, hand, error)

    async def _changed(self, table: SharedTable, steps: list[dict[str, Any]], said: str,
                       record: HandRecord | None) -> None:
        """Keep the table, write a finished hand's record, keep the people's
        hands in their statistics, and send every page its view."""
        if record is not None:
            await self._write_record(table, record)
        hands = table.take_hands()
        if hands:
            await self._keep_hands(table, hands)
        await self._save(table)
        await self._send_all(table, steps, said)

    async def _keep_hands(self, table: SharedTable, hands: list[tuple[str, PlayedHand]]) -> None:
        """Keep each person's finished hand in their statistics (a store that
        fails is logged: the table plays on)."""
        keeper = self.server.keeper
        assert keeper is not None

        def keep(store: ResultsStore) -> None:
            for player, hand in hands:
                record_hand(store, hand, player=player)
        try:
            await keeper.call(keep)
        except CardtableError as error:
            _log.warning("table %s: the hands cannot be kept in the statistics: %s", table.id, error)

    async def _stats(self, table: SharedTable, player: str) -> dict[str, Any]:
        """The ``stats`` message: ``player``'s record at each kind of Kings
        Corner table they played at (the terminal app's figures, by the same
        call, :func:`~cardtable.sim.played.hand_stats`), this table's kind first."""
        keeper = self.server.keeper
        assert keeper is not None
        every: list[HandStats] = await keeper.call(lambda store: hand_stats(store, player=player))
        current = table.label
        every.sort(key=lambda stats: (stats.label != current, stats.label))
        return {"type": "stats", "label": current, "stats": [stats.to_dict() for stats in every if stats.hands]}

    async def _send_all(self, table: SharedTable, steps: list[dict[str, Any]], said: str) -> None:
        for socket, player in list(self.sockets.get(table.id, {}).items()):
            if not socket.closed:
                await send(socket, {"type": "table", "view": table.view(player), "steps": steps, "said": said})

    async def _advance(self, table: SharedTable) -> tuple[list[dict[str, Any]], HandRecord | None]:
        """The bots' plays, searched in a thread (the event loop serves everyone
        meanwhile); with no bot to search, at once (a thread's hand-offs would
        only make a person's answer wait)."""
        if not table.bots_will_search():
            return table.advance()
        return await asyncio.to_thread(table.advance)

    # ----- the socket ------------------------------------------------------------------------------

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        server = self.server
        opened = await open_socket(request, server.url)
        if isinstance(opened, web.Response):
            return opened
        ws, player = opened
        table_id = request.query.get("table", "")
        table = await self._table(table_id) if TABLE_ID.fullmatch(table_id) else None
        if table is None:
            await send(ws, {"type": "error", "message": "no such table: open a new one at /kc"})
            await ws.close(code=1008, message=b"no such table")
            return ws
        sockets = self.sockets.setdefault(table.id, {})
        address = client_address(request.remote)
        refusal = self._page_refused(table, sockets, player, address)
        if refusal is not None:
            await send(ws, {"type": "error", "message": refusal})
            await ws.close(code=1008, message=b"too many pages")
            return ws
        server.sockets.add(ws)
        sockets[ws] = player
        self._addresses[ws] = address
        limit = RateLimit()
        try:
            async with table.lock:
                table.present.add(player)
                entry = table.entry_of(player)
                back = entry is not None and entry in table.away
                table.away.discard(entry if entry is not None else -1)
                steps, record = await self._advance(table)
                if steps or record is not None:
                    await self._changed(table, steps, "", record)
                else:
                    await self._send_all(table, [], "You are back at your seat." if back else "")
            self._watch_absent(table)
            async for text in text_messages(ws, limit):
                await self._answer(table, player, ws, text)
        finally:
            sockets.pop(ws, None)
            self._addresses.pop(ws, None)
            server.sockets.discard(ws)
            if player not in sockets.values():
                table.present.discard(player)
                if table.entry_of(player) is not None:
                    self._watch_absent(table)
                    async with table.lock:
                        await self._send_all(table, [], "")
            if not sockets and self._tables.get(table.id) is table:
                del self.sockets[table.id]
                del self._tables[table.id]  # kept in the store; loaded again on the next visit
        return ws

    def _page_refused(self, table: SharedTable, sockets: dict[web.WebSocketResponse, str], player: str,
                      address: str) -> str | None:
        """Why one more page of ``player`` (from ``address``) cannot open at
        ``table``, or None. A seat belongs to its person: their pages come in
        whatever else is open (up to :data:`MAX_PAGES` of their own); the
        pages of people without a seat are capped apart (:data:`MAX_ONLOOKERS`,
        :data:`ONLOOKERS_PER_ADDRESS`) and can neither fill the table nor push
        a seated person out."""
        if sum(1 for p in sockets.values() if p == player) >= MAX_PAGES:
            return f"too many pages open at this table (at most {MAX_PAGES} of yours)"
        if table.entry_of(player) is not None:
            return None
        onlookers = [ws for ws, p in sockets.items() if table.entry_of(p) is None]
        if len(onlookers) >= MAX_ONLOOKERS:
            return f"this table has as many onlookers as it takes ({MAX_ONLOOKERS}): try again later"
        if sum(1 for ws in onlookers if self._addresses.get(ws) == address) >= ONLOOKERS_PER_ADDRESS:
            return f"too many pages without a seat open at this table from your address " \
                   f"(at most {ONLOOKERS_PER_ADDRESS})"
        return None

    TYPES = ("view", "sit", "start", "action", "next", "newmatch", "stats")

    async def _answer(self, table: SharedTable, player: str, ws: web.WebSocketResponse, text: str) -> None:
        try:
            message = parse_message(text)
            kind = message["type"]
            if kind == "view":
                async with table.lock:  # the bots may be playing in a thread
                    view = table.view(player)
                await send(ws, {"type": "table", "view": view, "steps": [], "said": ""})
                return
            if kind == "stats":
                await send(ws, await self._stats(table, player))
                return
            if kind not in self.TYPES:
                raise unknown_type(kind, self.TYPES)
            async with table.lock:
                steps: list[dict[str, Any]] = []
                record: HandRecord | None = None
                said = ""
                if kind == "sit":
                    said = table.sit(player, message.get("name"))
                    await self._remember(player, table.id)
                elif kind == "start":
                    said = table.start(player)
                    steps, record = await self._advance(table)
                elif kind == "action":
                    steps = table.play(player, message.get("action"))
                    more, record = await self._advance(table)
                    steps += more
                elif kind == "next":
                    said = table.next_hand(player)
                    steps, record = await self._advance(table)
                else:
                    said = table.new_match(player)
                    steps, record = await self._advance(table)
                await self._changed(table, steps, said, record)
            self._watch_absent(table)  # a person who left in the lobby: their seat's timeout starts now
        except ProtocolError as error:
            await send(ws, {"type": "error", "message": str(error)})
        except CardtableError as error:  # the store: the change stands in memory, the players are told
            _log.warning("%s", error)
            await send(ws, {"type": "error", "message": f"not saved: {error}"})

    def _watch_absent(self, table: SharedTable) -> None:
        """Start the seat timeout of each person seated at ``table`` who has no page open."""
        for player in table.people:
            key = (table.id, player)
            if player in table.present or key in self._timers or table.entry_of(player) in table.away:
                continue
            self._timers.add(key)
            task = asyncio.get_running_loop().create_task(self._away_after_timeout(table, player))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _away_after_timeout(self, table: SharedTable, player: str) -> None:
        """After the seat timeout, a bot plays for ``player`` if they have not come back."""
        try:
            await asyncio.sleep(self.house.seat_timeout)
        finally:
            self._timers.discard((table.id, player))
        current = self._tables.get(table.id)
        if current is not table:  # nobody was at the table meanwhile (nothing moves then); it may be back
            if current is not None:
                self._watch_absent(current)
            return
        if player in table.present:
            return
        async with table.lock:
            entry = table.entry_of(player)
            if entry is None or player in table.present:
                return
            if table.phase == "lobby":  # nothing to play yet: the timeout starts again with the match
                return
            table.away.add(entry)
            steps, record = await self._advance(table)
            name = table.entries[entry].name
            try:
                await self._changed(table, steps, f"{name} is away: a bot plays for them until they return.",
                                    record)
            except CardtableError as error:
                _log.warning("%s", error)

    async def close(self) -> None:
        """Stop the timers (every table is saved already)."""
        for task in list(self._tasks):
            task.cancel()


def client_address(remote: str | None) -> str:
    """The client a request's address counts for: an IPv4 address, or the
    /64 network of an IPv6 one (what one subscriber is given, and could
    otherwise walk through to open table after table).

    >>> client_address("192.0.2.7"), client_address("2001:db8:1:2:aa::5"), client_address("::ffff:192.0.2.7")
    ('192.0.2.7', '2001:db8:1:2::/64', '192.0.2.7')
    """
    try:
        address = ipaddress.ip_address(remote or "")
    except ValueError:
        return remote or ""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


def records_folder(store_path: Path) -> Path:
    """Where the records of shared tables' hands go: beside the results store."""
    return store_path.parent / "kings-corner" / "tables"
