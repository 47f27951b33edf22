"""The JSON protocol between the page and the server, and its limits.

One WebSocket at ``/ws`` carries text frames, each one JSON object with a
``type``. The browser proposes; the server, whose engine is authoritative,
answers.

From the browser (Klondike)::

    {"type": "move", "move": "3>5"}   a move in the engine's notation (see cardtable.klondike.moves)
    {"type": "draw"}                  draw from the stock, or turn the waste over when the stock is empty
    {"type": "undo"} / {"type": "redo"}
    {"type": "new"}                   a new random deal, under the rules of the game now
    {"type": "new", "deal": 5}        deal 5; optional: "rules": "vegas1" (a named rule set, from the
                                      "rules" message), "winnable": true (the fifth proven winnable
                                      deal; absent: as the game now), "difficulty": "hard" (the first
                                      deal of that grade from 5 on), or "daily": true (the day's deal)
    {"type": "restart"}               this deal from its start
    {"type": "hint"}                  the expert's move from what the player sees
    {"type": "stats"}                 the player's statistics
    {"type": "rules"}                 the named rule sets a new game may take
    {"type": "autofinish"}            send every card it can to the foundations
    {"type": "view"}                  the view again
    {"type": "review"} / {"type": "review-stop"}   the game weighed move by move (cardtable.web.review)

From the server::

    {"type": "view", "view": {...}, "said": "what happened"}   the player's view after a change
    {"type": "hint", "move": "3>5" | null, "text": "..."}     to the page that asked, only if the game has
                                                               not changed since (a move, undo, new deal...)
    {"type": "stats", "variant": "draw1", "stats": [{"variant": ..., "played": ..., "won": ...,
        "win_rate": ..., "current_streak": ..., "best_streak": ..., "best_seconds": ...,
        "fewest_moves": ...}, ...], "daily": [{"variant": ..., "days": ..., "days_won": ...,
        "current_streak": ..., "best_streak": ...}, ...]}   the player's record per variant, this one's first
    {"type": "rules", "rules": [{"name": "vegas1", "title": "Vegas (draw 1, one pass)"}, ...]}
    {"type": "notice", "text": "..."}                          after a move: the game can no longer be won
    {"type": "dealing", "text": "Finding a hard deal…" | null}  a new deal is searched for (null: the search
                                                               failed; else its view follows); meanwhile the
                                                               game takes no move, hint or new deal
    {"type": "error", "message": "..."}                        nothing changed
    {"type": "review-progress", ...} then {"type": "review", ...}   to the page that asked for a review

The view holds only what the player sees: each tableau pile as the number
of its face-down cards and its face-up cards, the stock as a count, the
waste, the foundations as the top rank of each suit, the time of the first
move (``started``, seconds since the epoch) and, once won, the game's time
(``seconds``). A game counts in the player's statistics once: a win when it
is won, a loss when a new game is dealt after a move of it. A message larger than
:data:`MAX_MESSAGE_BYTES`, not JSON, not an object or of an unknown type is
answered with an error and changes nothing (one over four times that size
closes the socket), as is one nested deeper than :data:`MAX_DEPTH` (every
message is a flat object); a client sending more than :data:`RATE` messages a
second is answered with errors, then closed; one hint is searched at a time,
and the page's other messages are answered meanwhile. A new player's first
deal on a server of proven winnable deals is searched for as any such deal is:
their first view is a stand-in, followed at once by ``dealing``.
A page that goes away while its answer is being made is not written to: an
answer for a closed socket is dropped without a word (:func:`send`).

The checks every page and socket of the server passes are here too: a
request's ``Host`` must be this server's (:func:`known_host`, against DNS
rebinding), a WebSocket must come from this server's own page
(:func:`same_origin`), and a player is a random id in an HttpOnly,
SameSite=Lax cookie (:func:`player_id`, :func:`set_cookie`).
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from aiohttp.typedefs import Handler, Middleware

from cardtable._text import clip
from cardtable.errors import CardtableError

__all__ = [
    "BURST",
    "COOKIE",
    "MAX_DEPTH",
    "MAX_MESSAGE_BYTES",
    "MAX_PAGES",
    "RATE",
    "ProtocolError",
    "RateLimit",
    "SearchStopped",
    "host_check",
    "known_host",
    "open_socket",
    "parse_message",
    "player_id",
    "same_origin",
    "send",
    "set_cookie",
    "too_deep",
    "unknown_type",
]

#: The largest message a client may send (bytes); a larger one is refused unread.
MAX_MESSAGE_BYTES = 4096
#: The deepest nesting of objects and lists a message may have: every message
#: is one flat object (a depth of 1); one level more is allowed for what may come.
MAX_DEPTH = 2
#: The most pages one player may have open at once (on one game).
MAX_PAGES = 8
#: The cookie that names a player.
COOKIE = "cardtable_player"
_PLAYER = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: The names of this machine's loopback address, as a ``Host`` may give them.
_LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}
#: Messages a second a client may send, sustained, and the burst allowed above it.
RATE = 50.0
BURST = 100.0
#: Messages refused for the rate after which the client is closed.
_REFUSALS_BEFORE_CLOSE = 50


class ProtocolError(CardtableError):
    """A message the server cannot take: its text says why (sent back to the client)."""


class SearchStopped(CardtableError):
    """A search for a deal that stopped before it ended: its process ended abruptly (the server stops, or
    the process was killed)."""


def parse_message(text: str) -> dict[str, Any]:
    """The JSON object of one client message, with a string ``type``.

    >>> parse_message('{"type": "draw"}')
    {'type': 'draw'}
    >>> parse_message('[1, 2]')
    Traceback (most recent call last):
    ...
    cardtable.web.protocol.ProtocolError: a message must be a JSON object, not a list
    """
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large ({len(text.encode())} bytes; at most {MAX_MESSAGE_BYTES})")
    if too_deep(text):
        raise ProtocolError(f"message nested too deep (at most {MAX_DEPTH} levels of objects and lists)")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ProtocolError(f"malformed JSON: {error}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a message must be a JSON object, not a {type(message).__name__}")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("a message needs a \"type\" string")
    return message


def too_deep(text: str, most: int = MAX_DEPTH) -> bool:
    """Whether JSON ``text`` nests objects and lists more than ``most`` deep
    (brackets inside strings do not count), read without parsing it: a
    message nested thousands deep is refused before a parser recurses into it.

    >>> too_deep('{"type": "draw"}'), too_deep('[[{"a": "[[["}]]'), too_deep('[{"a": 1}, {"b": 2}]')
    (False, True, False)
    """
    if text.count("[") + text.count("{") <= most:
        return False  # too few brackets to go deeper (every message of a page): nothing to read
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > most:
                return True
        elif char in "]}":
            depth -= 1
    return False


def unknown_type(kind: str, known: tuple[str, ...]) -> ProtocolError:
    """The error for a message type the game does not know."""
    return ProtocolError(f"unknown message type {clip(kind)} (expected one of {', '.join(known)})")


async def send(ws: web.WebSocketResponse, message: dict[str, Any]) -> bool:
    """Send ``message`` to a page; False, quietly, when the page has gone
    (closed, or its connection dropped while the answer was being made)."""
    if ws.closed:
        return False
    try:
        await ws.send_json(message)
    except (ConnectionError, RuntimeError):  # the transport closed under the send
        return False
    return True


def known_host(netloc: str, *, url: str, loopback: bool) -> bool:
    """Whether a request's ``Host`` (``netloc``) names this server: the host
    of ``url`` (the address browsers use), or, when it listens on a loopback
    address (``loopback``), a loopback name. Any other ``Host`` is a page of
    another site that had its name rebound to this machine (DNS rebinding).
    A server listening beyond loopback answers any ``Host``.

    >>> known_host("localhost:8000", url="http://localhost:8000", loopback=True)
    True
    >>> known_host("evil.example", url="http://localhost:8000", loopback=True)
    False
    """
    host = (urlsplit(f"//{netloc}").hostname or "").lower()
    if host == (urlsplit(url).hostname or "").lower():
        return True
    return not loopback or host in _LOOPBACK_NAMES


def host_check(url: str, *, loopback: bool) -> Middleware:
    """An aiohttp middleware that answers 403, and calls no handler, for a
    request whose ``Host`` is not :func:`known_host` for ``url`` and ``loopback``:
    every page this project serves checks its Host this one way."""

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not known_host(request.host, url=url, loopback=loopback):
            return web.Response(status=403, text=f"unknown host {request.host[:60]!r}\n")
        return await handler(request)

    return check


def same_origin(request: web.Request, url: str, *, loopback: bool = False) -> bool:
    """Whether a request comes from this server's own page (its ``Origin`` is
    the request's host, or ``url``, the address browsers use; with
    ``loopback``, also this machine by another loopback name at the same
    port, as a page at 127.0.0.1 whose socket goes to ``localhost``), or from
    no page at all (no ``Origin``: browsers always send one with a WebSocket)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    if parts.netloc.lower() == request.host.lower() or (
            f"{parts.scheme}://{parts.netloc}".lower() == url.rstrip("/").lower()):
        return True
    if not loopback:
        return False
    try:
        port, own = parts.port, urlsplit(f"//{request.host}").port
    except ValueError:
        return False
    return (parts.hostname or "").lower() in _LOOPBACK_NAMES and port is not None and port == own


def player_id(request: web.Request) -> tuple[str, bool]:
    """The request's player id (its :data:`COOKIE`), and whether it is new (to be set in the cookie)."""
    given = request.cookies.get(COOKIE, "")
    if _PLAYER.fullmatch(given):
        return given, False
    return secrets.token_urlsafe(18), True


def set_cookie(response: web.StreamResponse, player: str) -> None:
    """Name ``player`` in the response's cookie (HttpOnly, SameSite=Lax, for about a year)."""
    response.set_cookie(COOKIE, player, max_age=400 * 24 * 3600, httponly=True, samesite="Lax", path="/")


async def open_socket(request: web.Request, url: str) -> tuple[web.WebSocketResponse, str] | web.Response:
    """A table's WebSocket opened for its player: ``(socket, player id)``,
    the cookie set on the handshake for a new player; frames up to four
    times :data:`MAX_MESSAGE_BYTES` are read (a larger one closes the
    socket). A page of another site gets a 403 response instead."""
    if not same_origin(request, url):
        return web.Response(status=403, text="cross-site WebSocket refused\n")
    player, new = player_id(request)
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES * 4, heartbeat=30.0)
    if new:
        set_cookie(ws, player)
    await ws.prepare(request)
    return ws, player


class RateLimit:
    """A token bucket: :data:`RATE` messages a second, bursts up to :data:`BURST`.

    :meth:`allow` says whether one more message may be served now;
    :attr:`exhausted` turns true once :data:`_REFUSALS_BEFORE_CLOSE` messages
    were refused, when the client is to be closed.
    """

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._last = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        self.refused += 1
        return False

    @property
    def exhausted(self) -> bool:
        return self.refused >= _REFUSALS_BEFORE_CLOSE


async def text_messages(ws: web.WebSocketResponse, limit: RateLimit) -> AsyncIterator[str]:
    """The text messages a page sends on ``ws``, as the protocol takes them:
    a binary frame is answered with an error and skipped, and a page that
    sends faster than ``limit`` allows is told to slow down, then closed."""
    async for frame in ws:
        if frame.type != WSMsgType.TEXT:
            if frame.type == WSMsgType.BINARY:
                await send(ws, {"type": "error", "message": "binary messages are not spoken here"})
            continue
        if not limit.allow():
            if limit.exhausted:
                await ws.close(code=1008, message=b"too many messages")
                return
            await send(ws, {"type": "error", "message": "too many messages: slow down"})
            continue
        yield frame.data
