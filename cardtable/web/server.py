"""The browser table's server: one asyncio process (aiohttp) for every player.

``GET /`` gives the page (``static/index.html``), ``/static/...`` its CSS and
JavaScript modules, and ``/ws`` the one WebSocket of the protocol
(:mod:`cardtable.web.protocol`). A player is a random id in an HttpOnly,
SameSite=Lax cookie; their game is an engine object held in memory while one
of their pages is open, and saved in the results store's ``web_games`` table
after every change, so a reload, a server restart or a kill -9 finds it at the
same move. Several pages of one player show the same game: each change is
sent to all of them.

Requests whose ``Host`` is not this server's (a DNS-rebinding page) and
WebSockets opened from another site's page (their ``Origin``) get 403.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import logging
import multiprocessing
import os
import signal
import sys
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from cardtable.errors import CardtableError
from cardtable.patience import Description, get, names
from cardtable.runs.executor import die_with_parent
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import daily_stats, play_stats, record_played
from cardtable.web.kings_corner import KingsCornerHouse, KingsCornerRoom
from cardtable.web.klondike import (
    LOST_NOTICE,
    DealRequest,
    KlondikeDealer,
    KlondikeTable,
    proven_lost,
    rules_message,
)
from cardtable.web.patience_room import PatienceRoom
from cardtable.web.protocol import (
    COOKIE,
    MAX_MESSAGE_BYTES,
    MAX_PAGES,
    ProtocolError,
    RateLimit,
    SearchStopped,
    host_check,
    open_socket,
    parse_message,
    player_id,
    send,
    set_cookie,
    text_messages,
)
from cardtable.web.review import AT_ONCE, REVIEW_TYPES, Review

__all__ = ["COOKIE", "MAX_PAGES", "TableServer", "configure_logging"]

#: Seconds after a move before its verdict is searched (moves made meanwhile are judged together).
_VERDICT_DELAY = 0.3
#: The most deals searched for at once (daily, graded or winnable: seconds each), each in a process of its
#: own; more wait their turn.
_SEARCHES = 2
#: What a player's game does not take while a new deal is searched for: it is about to be left.
_AFTER_THE_DEAL = ("move", "draw", "undo", "redo", "restart", "autofinish", "hint", "new")
_log = logging.getLogger("cardtable.web")
_T = TypeVar("_T")


@dataclass
class _Player:
    """A player with pages open: their table and their sockets."""

    table: KlondikeTable
    sockets: set[web.WebSocketResponse] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: True while the solver looks for this player's hint (one search at a time).
    hinting: bool = False
    #: How many times the game has changed (a move, an undo, a new deal...): a hint asked for before
    #: the latest change is for a game that is no longer on the table, and is not sent.
    changes: int = 0
    #: True while the solver judges whether this player's game can still be won; ``rejudge``: the
    #: game changed meanwhile, judge again once done.
    judging: bool = False
    rejudge: bool = False
    #: The review of this player's game under way (one at a time), or None.
    review: Review | None = None
    #: While a new deal is searched for this player, what their pages say ("Finding a hard deal…"), else None.
    dealing: str | None = None


class _Keeper:
    """The results store, owned by one thread of its own, so that the event
    loop never waits on the disk. Saves queued while others are written go
    together in the next transaction (one commit for them all; the latest
    row of each player and game), and :meth:`save` returns once its row is
    committed: a move is answered only when it is kept."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._saves: dict[tuple[str, str], tuple[dict[str, object], list[asyncio.Future[None]]]] = {}
        self._loads: list[tuple[str, str, asyncio.Future[tuple[str, float | None] | None]]] = []
        self._calls: list[tuple[Callable[[ResultsStore], Any], asyncio.Future[Any]]] = []
        self._wake = threading.Condition()
        self._stopping = False
        self._opened: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._run, name="cardtable-web-store", daemon=True)

    async def start(self) -> None:
        """Open the store in its thread (a store that cannot be opened stops the server at once)."""
        self._thread.start()
        await asyncio.wrap_future(self._opened)

    async def stop(self) -> None:
        """Write every save queued, then close the store."""
        with self._wake:
            self._stopping = True
            self._wake.notify()
        await asyncio.to_thread(self._thread.join)

    async def load(self, player: str, game: str) -> tuple[str, float | None] | None:
        """The player's saved game: its text and the time of its first move (None: none kept)."""
        future: asyncio.Future[tuple[str, float | None] | None] = asyncio.get_running_loop().create_future()
        with self._wake:
            self._loads.append((player, game, future))
            self._wake.notify()
        return await future

    async def call(self, work: Callable[[ResultsStore], _T]) -> _T:
        """``work(store)`` done in the store's thread (after the saves queued before it), and its result."""
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        with self._wake:
            self._calls.append((work, future))
            self._wake.notify()
        return await future

    async def save(self, row: dict[str, object]) -> None:
        """Keep ``row`` (a ``web_games`` row); returns once it is committed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        key = (str(row["player"]), str(row["game"]))
        with self._wake:
            _, waiting = self._saves.get(key, (row, []))
            self._saves[key] = (row, [*waiting, future])
            self._wake.notify()
        await future

    def _run(self) -> None:
        try:
            store = ResultsStore(self._path)
        except BaseException as error:
            self._opened.set_exception(error)
            return
        self._opened.set_result(None)
        try:
            # Commits need not wait for the disk: a kill -9 loses none (WAL), only a power cut could.
            store.commit_without_sync()
            while True:
                with self._wake:
                    while not self._saves and not self._loads and not self._calls and not self._stopping:
                        self._wake.wait()
                    if not self._saves and not self._loads and not self._calls:
                        return  # stopping, and nothing is left to write
                    saves, self._saves = self._saves, {}
                    loads, self._loads = self._loads, []
                    calls, self._calls = self._calls, []
                self._write(store, saves)
                for work, done in calls:
                    try:
                        result = work(store)
                    except CardtableError as error:
                        _settle(done, None, error)
                    else:
                        _settle(done, result, None)
                for player, game, future in loads:
                    try:
                        rows = store.select("web_games", ("saved", "started"), where={"player": player, "game": game},
                                            order="player", action="read a browser game")
                    except CardtableError as error:
                        _settle(future, None, error)
                    else:
                        _settle(future, (rows[0][0], rows[0][1]) if rows else None, None)
        finally:
            store.close()

    @staticmethod
    def _write(store: ResultsStore,
               saves: dict[tuple[str, str], tuple[dict[str, object], list[asyncio.Future[None]]]]) -> None:
        failure: CardtableError | None = None
        try:
            store.put_rows("web_games", [row for row, _ in saves.values()], action="keep the browser games")
        except CardtableError as error:
            failure = error
        _settle_all([future for _, futures in saves.values() for future in futures], failure)


def _settle_all(futures: list[asyncio.Future[None]], failure: BaseException | None) -> None:
    """Resolve the event loop's ``futures`` (from the store's thread) in one
    wake-up of the loop, not one for each."""
    if not futures:
        return

    def settle() -> None:
        for future in futures:
            if not future.done():
                if failure is not None:
                    future.set_exception(failure)
                else:
                    future.set_result(None)
    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        futures[0].get_loop().call_soon_threadsafe(settle)


def _settle(future: asyncio.Future[Any], result: object, failure: BaseException | None) -> None:
    """Resolve ``future`` (of the event loop) from the store's thread."""
    def settle() -> None:
        if future.done():
            return
        if failure is not None:
            future.set_exception(failure)
        else:
            future.set_result(result)
    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        future.get_loop().call_soon_threadsafe(settle)


class TableServer:
    """Serves the patience games' tables (``/games``, ``/play/NAME``), the
    Klondike table (``/klondike``) and Kings Corner's shared tables (``/kc``)
    to browsers.

    ``dealer`` says what a new Klondike player is dealt, ``kings`` what a new
    Kings Corner table is, ``games`` which patience games are served (by
    name; every game of the registry unless given) and ``home`` what ``/``
    shows: ``"games"`` the game chooser, ``"klondike"`` or ``"kings-corner"``
    those tables, or a patience game's name its table; ``store_path`` is the results
    store that keeps every player's game; ``url`` is the address browsers
    use (its host is accepted in ``Host`` and ``Origin`` as well as this
    machine's loopback names when ``loopback``).
    """

    def __init__(self, dealer: KlondikeDealer, *, store_path: Path, url: str, title: str,
                 loopback: bool = True, kings: KingsCornerHouse | None = None, home: str = "klondike",
                 games: dict[str, Description] | None = None) -> None:
        self.dealer = dealer
        self.store_path = store_path
        self.url = url.rstrip("/")
        self.title = title
        self._loopback = loopback
        self._players: dict[str, _Player] = {}
        # What the server lends each game's room (the Klondike tables here, the Kings Corner
        # house): every open socket, closed at shutdown; the store's thread, while serving; and
        # its address (the checks themselves are cardtable.web.protocol's).
        self.sockets: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()
        self.keeper: _Keeper | None = None
        #: One verdict search at a time for the whole server (a verdict is advice; moves come first).
        self._verdict_slot = asyncio.Semaphore(1)
        self._review_slots = asyncio.Semaphore(AT_ONCE)
        self._tasks: set[asyncio.Task[None]] = set()
        #: The processes that search for new deals (made at the first search).
        self._searches: concurrent.futures.ProcessPoolExecutor | None = None
        self._page = resources.files("cardtable.web").joinpath("static", "index.html").read_text()
        #: The shared Kings Corner tables (``/kc``); ``home`` is the game ``/`` shows.
        self.kings = KingsCornerRoom(self, kings or KingsCornerHouse())
        #: The patience games' chooser and tables (``/games``, ``/play/NAME``).
        self.patience = PatienceRoom(self, games if games is not None else {name: get(name) for name in names()})
        self.home = home

    # ----- the application -------------------------------------------------------------------------

    def application(self) -> web.Application:
        """The aiohttp application (the store opens with it and closes after it)."""
        app = web.Application(middlewares=[host_check(self.url, loopback=self._loopback)],
                              client_max_size=MAX_MESSAGE_BYTES)
        static = Path(str(resources.files("cardtable.web").joinpath("static")))
        app.router.add_get("/", self._index)
        app.router.add_get("/ws", self._websocket)
        app.router.add_static("/static/", static)
        app.router.add_get("/klondike", self._klondike)
        self.kings.routes(app)
        self.patience.routes(app)
        app.on_startup.append(self._open)
        app.on_shutdown.append(self._close_sockets)
        app.on_cleanup.append(self._close_store)
        return app

    def serve(self, host: str, port: int, *, announce: Callable[[str], None] | None = None) -> None:
        """Serve until Ctrl-C or SIGTERM: then every socket is closed (every game is already saved)."""
        app = self.application()
        if announce is not None:
            async def say(_app: web.Application) -> None:
                announce(f"Serving {self.title} on {self.url}: open it in a web browser. Ctrl-C stops.")
            app.on_startup.append(say)
        web.run_app(app, host=host, port=port, print=None, access_log=None, handle_signals=True,
                    shutdown_timeout=5.0)

    async def _open(self, _app: web.Application) -> None:
        self.keeper = _Keeper(self.store_path)
        await self.keeper.start()
        # The cyclic garbage collector stops the event loop, so every player,
        # for as long as a pass takes. What is loaded by now (the modules, the
        # engine's tables, the pages) lives as long as the server: frozen, it
        # is not scanned again. The passes come after 10,000 new objects
        # rather than 700: with 500 tables open, full passes of 20 to 90 ms
        # every few seconds were what most of the slowest answers waited for
        # (benchmarks/web.py; nearly all garbage is freed by reference counts).
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 20, 10)

    async def _close_sockets(self, _app: web.Application) -> None:
        self._stop_searches()
        await self.kings.close()
        for ws in list(self.sockets):
            await ws.close(code=1001, message=b"the server is stopping")

    async def _close_store(self, _app: web.Application) -> None:
        if self.keeper is not None:
            await self.keeper.stop()  # every save queued is written first
            self.keeper = None

    # ----- checks ----------------------------------------------------------------------------------

    # ----- the page --------------------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.Response:
        if self.home == "kings-corner":
            return self.kings.page(request)
        if self.home == "klondike":
            return await self._klondike(request)
        if self.home == "games":
            return self.patience.chooser(request)
        raise web.HTTPFound(f"/play/{self.home}")

    async def _klondike(self, request: web.Request) -> web.Response:
        response = web.Response(text=self._page.replace("{{title}}", "cardtable: Klondike"), content_type="text/html",
                                headers={"Cache-Control": "no-store"})
        player, new = player_id(request)
        if new:
            set_cookie(response, player)
        return response

    # ----- games -----------------------------------------------------------------------------------

    async def _load(self, player: str) -> tuple[KlondikeTable, DealRequest | None]:
        """The player's saved game, else a new one; and, when the new one is
        still to be searched for (a server of proven winnable deals), the
        request for it, with a stand-in table (:meth:`DealRequest.stand_in`)."""
        assert self.keeper is not None
        found = await self.keeper.load(player, KlondikeTable.game_name)
        if found is not None:
            try:
                return KlondikeTable.restore(*found), None
            except CardtableError as error:
                _log.warning("player %s: their saved game cannot be read (%s); a new one is dealt",
                             player[:8], error)
        first = self.dealer.first_request()
        if first.searched:  # found as every searched deal is (_deal_away), and kept once found
            return first.stand_in(), first
        table = first.find()
        try:  # kept before any move: a reload deals it again
            await self.keeper.save(self._row(player, table))
        except CardtableError as error:
            _log.warning("%s", error)
        return table, None

    @staticmethod
    def _row(player: str, table: KlondikeTable) -> dict[str, object]:
        return {"player": player, "game": table.game_name, "saved": table.saved(), "started": table.started,
                "updated": datetime.now(UTC).isoformat(timespec="seconds")}

    # ----- the socket ------------------------------------------------------------------------------

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        opened = await open_socket(request, self.url)
        if isinstance(opened, web.Response):
            return opened
        ws, who = opened
        self.sockets.add(ws)
        player = self._players.get(who)
        search: DealRequest | None = None  # a new player's first deal, to be searched for
        if player is None:
            table, first = await self._load(who)
            player = self._players.get(who)  # another page of theirs may have loaded it meanwhile
            if player is None:
                player = self._players[who] = _Player(table)
                if first is not None:  # found as any searched deal is (_deal_away), once the page is told
                    player.dealing, search = first.finding, first
        elif len(player.sockets) >= MAX_PAGES:
            await send(ws, {"type": "error", "message": f"too many pages open (at most {MAX_PAGES})"})
            await ws.close(code=1008, message=b"too many pages")
            self.sockets.discard(ws)
            return ws
        player.sockets.add(ws)
        limit = RateLimit()
        try:
            await send(ws, {"type": "view", "view": player.table.view(), "said": ""})
            if player.dealing is not None:
                await send(ws, {"type": "dealing", "text": player.dealing})
            if search is not None:
                self._start_deal(who, player, ws, search)
            async for text in text_messages(ws, limit):
                await self._answer(who, player, ws, text)
        finally:
            player.sockets.discard(ws)
            self.sockets.discard(ws)
            if not player.sockets and self._players.get(who) is player and player.dealing is None:
                del self._players[who]  # kept in the store; loaded again on the next visit
        return ws

    async def _answer(self, player_id: str, player: _Player, ws: web.WebSocketResponse, text: str) -> None:
        try:
            message = parse_message(text)
            if player.dealing is not None and message["type"] in _AFTER_THE_DEAL:
                raise ProtocolError("a new deal is being found: this game takes no more moves")
            if message["type"] in REVIEW_TYPES:
                self._review(player, ws, message["type"])
                return
            if message["type"] == "hint":
                if player.hinting:
                    raise ProtocolError("a hint is being looked for already")
                self._hint(player, ws)
                return
            if message["type"] == "stats":
                await send(ws, await self._stats(player_id, player.table))
                return
            if message["type"] == "rules":
                await send(ws, rules_message())
                return
            if message["type"] == "new" and (request := player.table.deal_request(message, self.dealer)).searched:
                await self._deal_away(player_id, player, ws, request)
                return
        except ProtocolError as error:
            await send(ws, {"type": "error", "message": str(error)})
            return
        except CardtableError as error:  # the store, reading the statistics
            _log.warning("%s", error)
            await send(ws, {"type": "error", "message": f"not saved: {error}"})
            return
        await self._change(player_id, player, ws, message["type"], lambda: player.table.apply(message, self.dealer))

    async def _change(self, player_id: str, player: _Player, ws: web.WebSocketResponse, kind: str,
                      change: Callable[[], str]) -> None:
        """Make ``change`` to the player's table (a message of type ``kind``; it returns what happened, in
        words), keep the table, and send the view to the player's pages (to ``ws`` alone for a ``view``)."""
        try:
            async with player.lock:
                said = change()
                if kind != "view":
                    player.changes += 1
                row = self._row(player_id, player.table) if kind != "view" else None
                finished = player.table.take_finished()
            assert self.keeper is not None
            if finished:
                def count(store: ResultsStore) -> None:
                    for game in finished:
                        record_played(store, game, player=player_id)
                await self.keeper.call(count)
            if row is not None:
                await self.keeper.save(row)
        except ProtocolError as error:
            await send(ws, {"type": "error", "message": str(error)})
            return
        except CardtableError as error:  # the store: the move stands in memory, the player is told
            _log.warning("%s", error)
            await send(ws, {"type": "error", "message": f"not saved: {error}"})
            return
        reply = {"type": "view", "view": player.table.view(), "said": said}
        targets = [ws] if kind == "view" else list(player.sockets)
        for socket in targets:
            await send(socket, reply)
        if kind != "view" and player.table.game.moves:
            self._judge_soon(player)

    async def _deal_away(self, player_id: str, player: _Player, ws: web.WebSocketResponse,
                         request: DealRequest) -> None:
        """Find the deal ``request`` asks for in a process of the server's own
        (:meth:`_search_pool`), so that every table, this player's pages too,
        is answered meanwhile; until it is dealt their pages say so, and the
        game it replaces takes no move (:data:`_AFTER_THE_DEAL`)."""
        player.dealing = request.finding
        player.changes += 1  # the game on the table is being left: a hint for it is not sent
        for socket in list(player.sockets):  # told before any other answer
            await send(socket, {"type": "dealing", "text": request.finding})
        self._start_deal(player_id, player, ws, request)

    def _start_deal(self, player_id: str, player: _Player, ws: web.WebSocketResponse, request: DealRequest) -> None:
        """Start the search of :meth:`_deal_away` (``player.dealing`` set and the pages told already)."""
        task = asyncio.get_running_loop().create_task(self._deal(player_id, player, ws, request))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def search(self, work: Callable[..., _T], *args: object) -> _T:
        """``work(*args)`` in one of the server's processes that search for deals (:meth:`_search_pool`),
        every table answered meanwhile; a process that ended under it raises :class:`SearchStopped`."""
        pool = self._search_pool()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, work, *args)
        except concurrent.futures.process.BrokenProcessPool:  # the server stops, or a process was killed
            if self._searches is pool:
                _log.warning("a process searching for a deal ended abruptly; the searches start anew")
                self._stop_searches()
            raise SearchStopped("the search for a deal stopped: deal again") from None

    async def _deal(self, player_id: str, player: _Player, ws: web.WebSocketResponse, request: DealRequest) -> None:
        try:
            try:
                fresh = await self.search(request.find)
            except SearchStopped as error:
                failure = str(error)
            except CardtableError as error:  # none found (no deal of that grade among the seeds tried, say)
                failure = f"no deal found: {error}"
            else:
                await self._change(player_id, player, ws, "new", lambda: player.table.take_deal(request, fresh))
                return
        finally:
            player.dealing = None
            if not player.sockets and self._players.get(player_id) is player:
                del self._players[player_id]  # kept in the store; loaded again on the next visit
        for socket in list(player.sockets):
            await send(socket, {"type": "dealing", "text": None})
            await send(socket, {"type": "error", "message": failure})

    def _search_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        """The processes that search for deals, :data:`_SEARCHES` of them, made
        at the first search: processes, not threads, for a search is Python
        that would hold the interpreter's lock the event loop needs. Started
        afresh (not forked from a server with threads); Ctrl-C is the server's,
        and a server killed outright takes them with it (:func:`_searcher`)."""
        if self._searches is None:
            self._searches = concurrent.futures.ProcessPoolExecutor(
                _SEARCHES, mp_context=multiprocessing.get_context("spawn"), initializer=_searcher,
                initargs=(os.getpid(),))
        return self._searches

    def _stop_searches(self) -> None:
        """End the searches under way (their pages are closing) and their processes."""
        pool, self._searches = self._searches, None
        if pool is None:
            return
        workers = list((getattr(pool, "_processes", None) or {}).values())  # no public way before Python 3.14
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()

    async def _stats(self, player_id: str, table: KlondikeTable) -> dict[str, Any]:
        """The ``stats`` message: the player's record in each variant they
        finished a game of (the terminal app's figures, by the same call),
        this game's variant first."""
        assert self.keeper is not None
        today = date.today()
        every, dailies = await self.keeper.call(
            lambda store: (play_stats(store, player=player_id), daily_stats(store, today, player=player_id)))
        current = table.game.variant.label
        every.sort(key=lambda stats: (stats.variant != current, stats.variant))
        dailies.sort(key=lambda stats: (stats.variant != current, stats.variant))
        return {"type": "stats", "variant": current, "stats": [stats.to_dict() for stats in every],
                "daily": [stats.to_dict() for stats in dailies]}

    def _hint(self, player: _Player, ws: web.WebSocketResponse) -> None:
        """Look for a hint for the page ``ws`` away from its messages, which
        are answered meanwhile; the hint is sent only if the game has not
        changed since it was asked for (a move, an undo, a new deal...)."""
        player.hinting = True
        asked = player.changes

        async def run() -> None:
            try:
                answer = await player.table.hint()
                if player.changes == asked:
                    await send(ws, answer)  # the page may have gone meanwhile
            finally:
                player.hinting = False

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _review(self, player: _Player, ws: web.WebSocketResponse, kind: str) -> None:
        """Start a review of the player's game for this page (:mod:`cardtable.web.review`), or stop it."""
        if kind == "review-stop":
            if player.review is not None:
                player.review.stop()
            return
        if player.review is not None:
            raise ProtocolError("a review is under way already")
        review = player.review = Review(player.table.game.clone(), ws.send_json, gone=lambda: ws.closed)

        async def run() -> None:
            try:
                await review.run(self._review_slots)
            except (ConnectionError, RuntimeError):
                pass  # the page went away while the answer was sent
            finally:
                player.review = None

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _judge_soon(self, player: _Player) -> None:
        """Ask the solver, in a thread, whether the player's game can still be
        won; tell their pages when it cannot (and the game has not moved on)."""
        if player.judging:
            player.rejudge = True
            return
        player.judging = True
        task = asyncio.get_running_loop().create_task(self._judge(player))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _judge(self, player: _Player) -> None:
        try:
            while True:
                await asyncio.sleep(_VERDICT_DELAY)  # a player moving fast is judged once they pause
                player.rejudge = False
                game = player.table.game.clone()
                async with self._verdict_slot:
                    lost = await asyncio.to_thread(proven_lost, game)
                if player.rejudge:
                    continue
                if lost and player.table.game.key() == game.key():
                    for socket in list(player.sockets):
                        await send(socket, {"type": "notice", "text": LOST_NOTICE})
                return
        finally:
            player.judging = False


def _searcher(server: int) -> None:
    """What each process searching for deals does first: leave Ctrl-C to the
    server (process ``server``), which stops the searches itself, and die
    with the server should it be killed outright (``kill -9``, the OOM
    killer) rather than finish a search nobody waits for."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(server)


def configure_logging() -> None:
    """One line per warning on stderr."""
    logging.basicConfig(level=logging.WARNING, format="cardtable serve: %(message)s", stream=sys.stderr)
