"""The apps in a web browser: a textual-serve server that runs one
``cardtable play`` process for each browser session.

The command line (:mod:`cardtable.cli.play`, ``cardtable serve``) checks the
host, the port and the play options before it builds a :class:`GameServer`.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from aiohttp import web
from textual_serve.server import Server

__all__ = ["GameServer"]

#: Seconds a stopping server waits for the open sessions' games to quit.
_SHUTDOWN_SECONDS = 5.0


class GameServer(Server):
    """A textual-serve :class:`~textual_serve.server.Server` for a cardtable game.

    ``command`` is the shell command each browser session runs; ``url`` is
    the address browsers reach the server at (the page's links and its
    websocket use it). Ctrl-C or SIGTERM stops the server and every session.
    """

    def __init__(self, command: str, *, host: str, port: int, url: str, title: str) -> None:
        super().__init__(command, host=host, port=port, title=title, public_url=url.rstrip("/"))
        #: The tasks serving the open browser sessions (one game process each).
        self._sessions: set[asyncio.Task[object]] = set()

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one browser session (its own game process), kept track of so
        that stopping the server ends it."""
        task = asyncio.current_task()
        assert task is not None
        self._sessions.add(task)
        try:
            response: web.WebSocketResponse = await super().handle_websocket(request)
            return response
        finally:
            self._sessions.discard(task)

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
