"""Every patience game at the browser table: the game chooser and each game's
table (the aiohttp side of :mod:`cardtable.web.patience`).

``GET /games`` is the chooser: every game served, with its family and its
one-line description, and a search box; ``GET /play/NAME`` is a game's table
(``?seed=N``, ``?seed=ms:N`` or ``?seed=pysol:N`` opens that deal, and
``?options=a,b`` the game with those of its options); its page speaks to
``/play/NAME/ws`` in the protocol of :mod:`cardtable.web.protocol` with the
game's own move notation. A player (the cookie) keeps one game of each game
and set of options, saved in the results store's ``web_games`` table after
every change, so a reload, another page or a server restart finds it at the
same move. The messages, each a JSON object as in the protocol::

    from the page:   {"type": "move", "move": "3>5:2"}   (D deals, R turns the waste over)
                     {"type": "undo"} {"type": "redo"} {"type": "restart"} {"type": "autofinish"}
                     {"type": "new"} / {"type": "new", "deal": "ms:11982"} / {"type": "new", "daily": true}
                     {"type": "new", "winnable": true}   a deal the solver wins (searched in a process)
                     {"type": "new", "difficulty": "hard"} / {..., "deal": "7"}   the first deal of that grade
                                       (from deal 7 on, else from a random one; searched in a process)
                     {"type": "grading"}   whether the game's deals can be graded
                     {"type": "review"} {"type": "review-stop"}   weigh the game so far move by move / stop
                     {"type": "hint"} {"type": "view"} {"type": "stats"}
    from the server: {"type": "table", "table": {...}}   once: the game, its rules in words and its layout
                     {"type": "view", "view": {...}, "said": "..."}   after every change, to each page
                     {"type": "hint", "move": "3>5" | null, "text": "..."}   to the page that asked: the
                                       expert's move from what the player sees (searched in a process)
                     {"type": "stats", "stats": {...}, "daily": {...} | null}   to the page that asked: the
                                       player's record in this game and its rules, and in its daily deals
                     {"type": "grading", "reason": null | "..."}   to the page that asked: null when the
                                       game's deals can be graded, else why not (sim.grade.why_ungradable)
                     {"type": "review-progress", "done": 3, "total": 41}   after each position weighed
                     {"type": "review", "review": {...}, "stopped": false}   to the page that asked: the
                                       expert's chance after each move from the player's view, the mistakes,
                                       and the search's verdicts every card known once the game is over
                     {"type": "dealing", "text": "Finding..." | null}   a winnable, graded or daily deal is
                                       searched for (null: the search failed); meanwhile the game takes no move
                     {"type": "error", "message": "..."}   nothing changed (an illegal move: the reason)

A game counts in the player's statistics once won, or when left for
another deal after a move: the server keeps it in the results store's
played games (with its record), and the ``stats`` message reads them back,
as ``cardtable stats --game NAME`` does for the terminal's person. The
daily deal and a winnable deal are the solver's
(:mod:`cardtable.solver.patience_deals`: the daily deal is the one
``cardtable deal --game NAME --daily`` gives), searched in one of the
server's processes.

The checks are the server's: the ``Host`` of every request
(:func:`~cardtable.web.protocol.host_check`, the application's middleware),
the ``Origin`` of every socket (:func:`~cardtable.web.protocol.same_origin`)
and the player's cookie (:func:`~cardtable.web.protocol.player_id`).
"""

from __future__ import annotations

import asyncio
import html
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from importlib import resources
from typing import Any, Protocol, TypeVar
from urllib.parse import quote

from aiohttp import web

from cardtable.errors import CardtableError
from cardtable.patience import Description
from cardtable.patience.record import rules_name
from cardtable.runs.store import ResultsStore
from cardtable.sim.grade import LEVELS, game_of_grade, why_ungradable
from cardtable.sim.played import DailyStats, PlayedGame, PlayStats, daily_stats, game_stats, record_played
from cardtable.solver.patience_deals import daily_game, winnable_game
from cardtable.web.kings_corner import Lender
from cardtable.web.patience import PatienceTable, game_key, hint_message, review_message, table_json
from cardtable.web.protocol import (
    MAX_PAGES,
    ProtocolError,
    RateLimit,
    open_socket,
    parse_message,
    player_id,
    send,
    set_cookie,
    text_messages,
)

__all__ = ["Host", "PatienceRoom"]

_log = logging.getLogger("cardtable.web")


#: What a game does not take while a winnable deal is searched for: it is about to be left.
_AFTER_THE_DEAL = ("move", "undo", "redo", "restart", "autofinish", "new", "hint")
_T = TypeVar("_T")


class Host(Lender, Protocol):
    """What the server lends its patience room: besides what every room gets
    (:class:`~cardtable.web.kings_corner.Lender`), its processes that search
    for deals."""

    async def search(self, work: Callable[..., _T], *args: object) -> _T:
        """``work(*args)`` in a process of the server's (the event loop free meanwhile)."""


@dataclass
class _Seat:
    """A player's game of one game with pages open: the table, its sockets,
    and whether a winnable deal is being searched for it."""

    table: PatienceTable
    sockets: set[web.WebSocketResponse] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    dealing: bool = False
    #: True while the expert looks for a hint for this game (one at a time).
    hinting: bool = False
    #: Set to stop the review under way (None: none is).
    review_stop: asyncio.Event | None = None


class PatienceRoom:
    """The chooser and the tables of the patience games ``games`` (by name) of
    a :class:`~cardtable.web.server.TableServer` (see the module documentation)."""

    def __init__(self, server: Host, games: dict[str, Description]) -> None:
        self.server = server
        self.games = games
        self._seats: dict[tuple[str, str], _Seat] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: The daily deals found today, by the game's rules and the day.
        self._dailies: dict[tuple[str, str], str] = {}
        #: Why each game's deals cannot be graded (None: they can), by its rules, once asked.
        self._grading: dict[str, str | None] = {}
        static = resources.files("cardtable.web").joinpath("static")
        self._page = static.joinpath("patience.html").read_text()
        self._chooser = static.joinpath("chooser.html").read_text()

    def routes(self, app: web.Application) -> None:
        """Add the room's routes to ``app``."""
        app.router.add_get("/games", self._chooser_page)
        app.router.add_get("/play/{name}", self._table_page)
        app.router.add_get("/play/{name}/ws", self._websocket)

    # ----- pages -----------------------------------------------------------------------------------

    def chooser(self, request: web.Request) -> web.Response:
        """The game chooser: a list of every game served, with a search box."""
        rows = []
        for name, d in sorted(self.games.items(), key=lambda item: (item[1].family, item[1].title)):
            listed = "".join(
                f'<li><a href="/play/{quote(name)}?options={quote(option.name)}">'
                f"{html.escape(option.summary)}</a></li>" for option in d.options)
            label = html.escape(f"{d.title} variants")
            options = f'<ul class="options" aria-label="{label}">{listed}</ul>' if listed else ""
            rows.append(
                f'<li class="game" data-search="{html.escape(" ".join((name, d.title, d.family, d.summary)).lower())}">'
                f'<a class="title" href="/play/{quote(name)}">{html.escape(d.title)}</a>'
                f' <span class="family">{html.escape(d.family)}</span>'
                f'<p class="summary">{html.escape(d.summary)}</p>'
                f"{options}</li>")
        text = self._chooser.replace("{{count}}", str(len(rows))).replace("{{games}}", "\n".join(rows))
        return self._html(request, text)

    async def _chooser_page(self, request: web.Request) -> web.Response:
        return self.chooser(request)

    def table_page(self, request: web.Request, name: str) -> web.Response:
        """The table of the game called ``name`` (404 for a game not served)."""
        description = self.games.get(name)
        if description is None:
            raise web.HTTPNotFound(text=f"no game called {name[:40]!r} here: /games lists them\n")
        text = self._page.replace("{{title}}", html.escape(f"cardtable: {description.title}"))
        return self._html(request, text)

    async def _table_page(self, request: web.Request) -> web.Response:
        return self.table_page(request, request.match_info["name"])

    @staticmethod
    def _html(request: web.Request, text: str) -> web.Response:
        response = web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})
        player, new = player_id(request)
        if new:
            set_cookie(response, player)
        return response

    # ----- games -----------------------------------------------------------------------------------

    def _description(self, request: web.Request) -> Description:
        """The game a socket's address names, with the options its query gives."""
        description = self.games.get(request.match_info["name"])
        if description is None:
            raise ProtocolError(f"no game called {request.match_info['name'][:40]!r} here")
        wanted = [name for name in request.query.get("options", "").split(",") if name]
        if len(wanted) > len(description.options):
            raise ProtocolError("more options than the game has")
        try:
            return description.with_options(*wanted) if wanted else description
        except CardtableError as error:
            raise ProtocolError(str(error)) from None

    async def _load(self, player: str, description: Description) -> PatienceTable:
        """The player's saved game of ``description``, else a new deal."""
        keeper = self.server.keeper
        assert keeper is not None
        found = await keeper.load(player, game_key(description))
        if found is not None:
            try:
                return PatienceTable.restore(found[0], found[1], description)
            except CardtableError as error:
                _log.warning("player %s: their saved %s game cannot be read (%s); a new one is dealt",
                             player[:8], rules_name(description), error)
        return PatienceTable.deal(description)

    @staticmethod
    def _row(player: str, table: PatienceTable) -> dict[str, object]:
        return {"player": player, "game": game_key(table.description), "saved": table.saved(),
                "started": table.started, "updated": datetime.now(UTC).isoformat(timespec="seconds")}

    # ----- the socket ------------------------------------------------------------------------------

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        server = self.server
        opened = await open_socket(request, server.url)
        if isinstance(opened, web.Response):
            return opened
        ws, who = opened
        try:
            description = self._description(request)
        except ProtocolError as error:
            await send(ws, {"type": "error", "message": str(error)})
            await ws.close(code=1008, message=b"no such game")
            return ws
        key = (who, game_key(description))
        seat = self._seats.get(key)
        if seat is None:
            table = await self._load(who, description)
            seat = self._seats.setdefault(key, _Seat(table))
        if len(seat.sockets) >= MAX_PAGES:
            await send(ws, {"type": "error", "message": f"too many pages open (at most {MAX_PAGES})"})
            await ws.close(code=1008, message=b"too many pages")
            return ws
        server.sockets.add(ws)
        seat.sockets.add(ws)
        try:
            variants = [{"name": name, "title": other.title} for name, other in sorted(self.games.items())
                        if other.family == description.family and name != description.name]
            await send(ws, {"type": "table", "table": {**table_json(description), "variants": variants}})
            await send(ws, {"type": "view", "view": seat.table.view(), "said": ""})
            async for text in text_messages(ws, RateLimit()):
                await self._answer(who, seat, ws, text)
        finally:
            seat.sockets.discard(ws)
            server.sockets.discard(ws)
            if not seat.sockets and self._seats.get(key) is seat:
                del self._seats[key]  # kept in the store; loaded again on the next visit
        return ws

    async def _answer(self, player: str, seat: _Seat, ws: web.WebSocketResponse, text: str) -> None:
        try:
            message = parse_message(text)
            if seat.dealing and message["type"] in _AFTER_THE_DEAL:
                raise ProtocolError("a winnable deal is being found: this game takes no more moves")
            if message["type"] == "hint":
                self._hint(seat, ws)
                return
            if message["type"] == "stats":
                await send(ws, await self._stats(player, seat.table.description))
                return
            if message["type"] in ("review", "review-stop"):
                self._review(seat, ws, message["type"])
                return
            if message["type"] == "grading":
                await send(ws, {"type": "grading", "reason": await self._ungradable(seat.table.description)})
                return
            if message["type"] == "new" and self._searched(message):
                await self._deal_searched(player, seat, daily=bool(message.get("daily")),
                                          graded=self._graded(message))
                return
            async with seat.lock:
                said = seat.table.apply(message)
                row = self._row(player, seat.table) if message["type"] != "view" else None
                finished = seat.table.take_finished()
            await self._keep(player, finished, row)
        except ProtocolError as error:
            await send(ws, {"type": "error", "message": str(error)})
            return
        except CardtableError as error:  # the store: the move stands in memory, the player is told
            _log.warning("%s", error)
            await send(ws, {"type": "error", "message": f"not saved: {error}"})
            return
        reply: dict[str, Any] = {"type": "view", "view": seat.table.view(), "said": said}
        for socket in [ws] if row is None else list(seat.sockets):
            await send(socket, reply)

    def _hint(self, seat: _Seat, ws: web.WebSocketResponse) -> None:
        """Look for a hint in one of the server's processes (the ``expert``
        searches for up to a second), every table answered meanwhile; the page
        that asked gets it, unless the game changed meanwhile (then it is told so)."""
        if seat.hinting:
            raise ProtocolError("a hint is being looked for already")
        seat.hinting = True
        game = seat.table.game.clone()

        async def find() -> None:
            try:
                reply = await self.server.search(hint_message, game)
            except CardtableError as error:  # the search's process stopped
                reply = {"type": "hint", "move": None, "text": f"No hint: {error}."}
            finally:
                seat.hinting = False
            now = seat.table.game
            if (now.key(), now.moves) != (game.key(), game.moves):
                reply = {"type": "hint", "move": None, "text": "The game moved on meanwhile: ask again for a hint."}
            await send(ws, reply)

        task = asyncio.get_running_loop().create_task(find())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _review(self, seat: _Seat, ws: web.WebSocketResponse, kind: str) -> None:
        """Review the game so far for the page that asked (:func:`~cardtable.web.patience.review_message`,
        each position in one of the server's processes), or stop the review under way."""
        if kind == "review-stop":
            if seat.review_stop is not None:
                seat.review_stop.set()
            return
        if seat.review_stop is not None:
            raise ProtocolError("a review is under way already")
        game = seat.table.game
        if not game.moves:
            raise ProtocolError("nothing to review yet: play a move first")
        stop = seat.review_stop = asyncio.Event()

        async def progress(done: int, total: int) -> None:
            if not ws.closed:
                await send(ws, {"type": "review-progress", "done": done, "total": total})

        async def weigh() -> None:
            try:
                reply = await review_message(self.server.search, game.clone(), seat.table.deal_text,
                                             progress=progress, stopped=lambda: stop.is_set() or ws.closed)
            except CardtableError as error:  # the search's process stopped
                reply = {"type": "error", "message": f"the review stopped: {error}"}
            finally:
                seat.review_stop = None
            if not ws.closed:
                await send(ws, reply)

        task = asyncio.get_running_loop().create_task(weigh())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _keep(self, player: str, finished: list[PlayedGame], row: dict[str, object] | None) -> None:
        """Keep the games ``player`` finished in the statistics, then their table's ``row``."""
        keeper = self.server.keeper
        assert keeper is not None
        if finished:
            def count(store: ResultsStore) -> None:
                for game in finished:
                    record_played(store, game, player=player)
            await keeper.call(count)
        if row is not None:
            await keeper.save(row)

    async def _stats(self, player: str, description: Description) -> dict[str, Any]:
        """The ``stats`` message: the player's record in the game under its rules, and in its daily deals."""
        from cardtable.klondike.patience import game_key as store_key

        keeper = self.server.keeper
        assert keeper is not None
        game, rules = store_key(description)
        today = datetime.now().date()

        def figures(store: ResultsStore) -> tuple[PlayStats, list[DailyStats]]:
            return (game_stats(store, game, rules, description.title, player=player),
                    daily_stats(store, today, player=player, game=game, rules=rules))

        stats, dailies = await keeper.call(figures)
        return {"type": "stats", "stats": stats.to_dict(),
                "daily": None if not dailies else {**dailies[0].to_dict(), "variant": description.title}}

    async def _ungradable(self, description: Description) -> str | None:
        """Why ``description``'s deals cannot be graded (None: they can), probed once in a server process."""
        key = description.rules_key
        if key not in self._grading:
            self._grading[key] = await self.server.search(why_ungradable, description)
        return self._grading[key]

    @staticmethod
    def _graded(message: dict[str, Any]) -> tuple[str, int] | None:
        """The grade a ``new`` message asks for and the seed to look from (None: no grade asked for)."""
        level = message.get("difficulty")
        if level is None:
            return None
        deal = message.get("deal")
        if deal is None:
            return level, secrets.randbelow(1 << 32)
        if not isinstance(deal, str) or not deal.isdigit() or len(deal) > 20:
            raise ProtocolError("a graded deal is looked for from a whole number: \"deal\" must be one, or absent")
        return level, int(deal)

    @staticmethod
    def _searched(message: dict[str, Any]) -> bool:
        """Whether a ``new`` message asks for a deal the solver searches for:
        a proven winnable deal or the daily deal (a :class:`ProtocolError` for a bad one)."""
        winnable, daily = message.get("winnable", False), message.get("daily", False)
        for name, value in (("winnable", winnable), ("daily", daily)):
            if type(value) is not bool:
                raise ProtocolError(f"\"{name}\" must be true or false")
        level = message.get("difficulty")
        if level is not None:
            if level not in LEVELS:
                raise ProtocolError(f"\"difficulty\" must be one of {', '.join(LEVELS)}")
            if winnable or daily:
                raise ProtocolError("a graded deal is proven winnable already: give \"difficulty\" without "
                                    "\"winnable\" or \"daily\"")
            return True
        if winnable and (message.get("deal") is not None or daily):
            raise ProtocolError("a winnable deal is searched for: give \"winnable\" without \"deal\" or \"daily\"")
        if daily and message.get("deal") is not None:
            raise ProtocolError("the daily deal has its own number: give \"deal\" or \"daily\", not both")
        return bool(winnable or daily)

    async def _find(self, description: Description, daily: date | None, graded: tuple[str, int] | None = None) -> str:
        """The daily deal of ``daily`` (each day's found once), else the first
        deal of the ``graded`` level from its seed on, else a proven winnable
        deal: searched in one of the server's processes."""
        if graded is not None:
            reason = await self._ungradable(description)
            if reason is not None:
                raise ProtocolError(f"no graded deals of {description.title}: {reason}")
            seed, _ = await self.server.search(game_of_grade, graded[1], graded[0], description)
            return str(seed)
        if daily is None:
            proven = await self.server.search(winnable_game, secrets.randbelow(1 << 32), description)
            return str(proven.seed)
        key = (description.rules_key, daily.isoformat())
        if key not in self._dailies:
            found = await self.server.search(daily_game, daily, description)
            self._dailies = {known: seed for known, seed in self._dailies.items() if known[1] == key[1]}
            self._dailies[key] = str(found.seed)
        return self._dailies[key]

    async def _deal_searched(self, player: str, seat: _Seat, *, daily: bool,
                             graded: tuple[str, int] | None = None) -> None:
        """Search for a proven winnable deal, or the daily deal, in one of
        the server's processes (:mod:`cardtable.solver.patience_deals`),
        every table answered meanwhile; until it is dealt the player's pages
        say so and the game takes no move."""
        seat.dealing = True
        description = seat.table.description
        what = 'the daily deal' if daily else 'a winnable deal'
        if graded is not None:
            what = f"{'an' if graded[0][0] in 'aeiou' else 'a'} {graded[0]} deal"
        finding = f"Finding {what} of {description.title}\u2026"
        for socket in list(seat.sockets):
            await send(socket, {"type": "dealing", "text": finding})

        async def deal() -> None:
            day = datetime.now().date() if daily else None
            try:
                seed = await self._find(description, day, graded)
                async with seat.lock:
                    fresh = PatienceTable.deal(description, seed, daily=day, winnable=not daily,
                                               grade=None if graded is None else graded[0])
                    said = seat.table.take(fresh)
                    row = self._row(player, seat.table)
                    finished = seat.table.take_finished()
                await self._keep(player, finished, row)
            except CardtableError as error:  # none found, the search stopped, the store
                seat.dealing = False
                for socket in list(seat.sockets):
                    await send(socket, {"type": "dealing", "text": None})
                    await send(socket, {"type": "error", "message": str(error)})
                return
            seat.dealing = False
            for socket in list(seat.sockets):
                await send(socket, {"type": "view", "view": seat.table.view(), "said": said})

        task = asyncio.get_running_loop().create_task(deal())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
