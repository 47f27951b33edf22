"""The apps in a web browser: a textual-serve server that runs one
``cardtable play`` process for each browser session.

The command line (:mod:`cardtable.cli.play`, ``cardtable serve``) checks the
host, the port and the play options before it builds a :class:`GameServer`.

The server makes the card table's checks (:mod:`cardtable.web.protocol`): a
request whose ``Host`` is not this server's (a DNS-rebinding page) and a
WebSocket opened from another site's page (its ``Origin``) get 403. Each
session is a game process, so at most ``sessions`` run at once: beyond them
the page and its WebSocket get 503 and say so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from typing import Any

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from cardtable.web.protocol import host_check, same_origin, too_deep

__all__ = ["DEFAULT_SESSIONS", "GameServer"]

#: Seconds a stopping server waits for the open sessions' games to quit.
_SHUTDOWN_SECONDS = 5.0
#: Seconds an ended session's game has to quit when asked, then to end on SIGTERM, before SIGKILL.
_QUIT_SECONDS = 2.0
_TERM_SECONDS = 1.0
#: The sessions (game processes) a server runs at once unless told otherwise.
DEFAULT_SESSIONS = 8
#: The largest terminal a page may ask for, in cells (a game's screen is drawn at that size).
_MOST_COLUMNS = 500
_MOST_ROWS = 200
#: The largest message a page sends (bytes): a paste of text at most.
_MOST_MESSAGE_BYTES = 1 << 16
_log = logging.getLogger("cardtable.app")


class GameServer(Server):
    """A textual-serve :class:`~textual_serve.server.Server` for a cardtable game.

    ``command`` is the shell command each browser session runs; ``url`` is
    the address browsers reach the server at (the page's links and its
    websocket use it); with ``loopback`` (it listens on a loopback address)
    a request must name this machine or ``url``'s host in its ``Host``.
    ``sessions`` is the most sessions that run at once. Ctrl-C or SIGTERM
    stops the server and every session. A session's game that does not quit
    when its page goes (busy drawing, say) is ended: no game outlives its
    session, nor the server.
    """

    def __init__(self, command: str, *, host: str, port: int, url: str, title: str, loopback: bool = True,
                 sessions: int = DEFAULT_SESSIONS) -> None:
        if sessions < 1:
            raise ValueError(f"a server runs at least one session, not {sessions}")
        # 'exec': the shell becomes the game, so that the process the session holds is the game itself.
        super().__init__(f"exec {command}", host=host, port=port, title=title, public_url=url.rstrip("/"))
        self.loopback = loopback
        self.sessions = sessions
        #: The tasks serving the open browser sessions (one game process each).
        self._sessions: set[asyncio.Task[object]] = set()

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(host_check(self.public_url, loopback=self.loopback))
        return app

    @property
    def full(self) -> bool:
        """Whether every session this server may run is running."""
        return len(self._sessions) >= self.sessions

    def _full_answer(self) -> web.Response:
        return web.Response(status=503, headers={"Retry-After": "60"},
                            text=f"every session of this server is in use ({self.sessions} at once): "
                                 "try again when one ends\n")

    async def handle_index(self, request: web.Request) -> Any:
        """The page, or 503 when every session is taken (a page would only find its game refused)."""
        if self.full:
            return self._full_answer()
        return await super().handle_index(request)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one browser session (its own game process), kept track of so
        that stopping the server ends it; refused from another site's page,
        and when every session is taken."""
        if not same_origin(request, self.public_url, loopback=self.loopback):
            return web.Response(status=403, text="cross-site WebSocket refused\n")  # type: ignore[return-value]
        if self.full:
            return self._full_answer()  # type: ignore[return-value]
        query = request.rel_url.query
        width = min(max(_number(query.get("width"), 80), 1), _MOST_COLUMNS)
        height = min(max(_number(query.get("height"), 24), 1), _MOST_ROWS)
        task = asyncio.current_task()
        assert task is not None
        self._sessions.add(task)  # counted before the first await: two pages cannot take one place
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=_MOST_MESSAGE_BYTES)
        service: AppService | None = None
        try:
            await websocket.prepare(request)

            async def close() -> None:
                await websocket.close()
            service = AppService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                 close=close, download_manager=self.download_manager, debug=self.debug)
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:  # the server stops
            with contextlib.suppress(Exception):
                await websocket.close()
        except (ConnectionError, OSError) as error:  # the page went, or the game could not start
            _log.warning("a session ended: %s", error)
        finally:
            if service is not None:
                await _end(service)
            self._sessions.discard(task)
        return websocket

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
        """What the page sends, passed to its game; a message that is not one
        of the page's (not JSON, not a list naming what it is, oversized, or
        nested deep) is skipped without a word in the log."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT or len(message.data) > _MOST_MESSAGE_BYTES:
                continue
            envelope = _envelope(message.data)
            if envelope is None:
                continue
            kind, data = envelope
            if kind == "stdin" and isinstance(data, str):
                await app_service.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                width, height = _number(data.get("width"), 80), _number(data.get("height"), 24)
                await app_service.set_terminal_size(min(max(width, 1), _MOST_COLUMNS),
                                                    min(max(height, 1), _MOST_ROWS))
            elif kind == "ping" and isinstance(data, (str, int, float)):
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()

    async def on_shutdown(self, app: web.Application) -> None:
        """End every open session: its page is told, its game process quits."""
        sessions = list(self._sessions)
        for task in sessions:
            task.cancel()
        if sessions:
            await asyncio.wait(sessions, timeout=_SHUTDOWN_SECONDS)

    def initialize_logging(self) -> None:
        """One line per warning or error on stderr (sessions starting and ending are not logged)."""
        logging.basicConfig(level=logging.WARNING, format="cardtable serve: %(message)s", stream=sys.stderr)

    async def on_startup(self, app: web.Application) -> None:
        """Say where to point the browser."""
        print(f"Serving {self.title} on {self.public_url}: open it in a web browser. Ctrl-C stops.",
              file=sys.stderr, flush=True)


async def _end(service: AppService) -> None:
    """End a session's game: asked to quit, it has :data:`_QUIT_SECONDS`;
    then SIGTERM, then SIGKILL; at once SIGKILL when the server stops
    meanwhile. (A game busy when its page went, or whose server stopped,
    would otherwise live on without them.)"""
    process = service._process  # textual-serve keeps the process to itself; it is the game ('exec')
    try:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(service.stop(), _QUIT_SECONDS)
        if process is None or process.returncode is not None:
            return
        for send in (process.terminate, process.kill):
            with contextlib.suppress(ProcessLookupError):
                send()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), _TERM_SECONDS)
            if process.returncode is not None:
                return
    except asyncio.CancelledError:
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        raise


def _number(value: object, default: int) -> int:
    """A whole number the page gave (as text or a number), else ``default``."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 7:
        return int(value)
    return default


def _envelope(text: str) -> tuple[str, object] | None:
    """A page's message, ``[kind, data]``, read from JSON text (None: not one)."""
    if too_deep(text, 2):  # the page's messages nest two deep at most: ["resize", {...}]
        return None
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return None
    return envelope[0], envelope[1] if len(envelope) > 1 else None
