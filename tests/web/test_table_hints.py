"""The Klondike table's hints, through a real server and client: a hint is
looked for away from its page's messages, which are answered meanwhile, and
a hint for a game that has changed since it was asked for (a move, an undo,
a restart, a new deal) is not sent.

The expert's search is held in these tests until the test lets it go
(``held``), so that what happens while it is under way does not depend on
how long a search takes; once let go it searches on a small budget (8
guessed deals of 2,000 states, not the server's 96 of 50,000), since what
these tests check (which hint is sent, and that it is a legal move of the
game it was asked for) does not depend on how deep it looks.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from web.test_protocol import first_view, serving

from cardtable.klondike import KlondikeGame
from cardtable.web import klondike
from cardtable.web.server import TableServer


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The expert's hint search waits for this event before it searches, on a small budget."""
    release = threading.Event()
    search = klondike.expert_hint

    def waiting(game: KlondikeGame) -> Any:
        release.wait(60)
        return search(game, samples=8, max_states=2000)

    monkeypatch.setattr(klondike, "expert_hint", waiting)
    yield release
    release.set()  # a test that failed leaves no search waiting


async def _reply(ws: aiohttp.ClientWebSocketResponse, timeout: float = 10) -> dict[str, Any]:
    return dict(await ws.receive_json(timeout=timeout))


async def _hint_done(server: TableServer) -> None:
    """Wait until the player's hint search has ended (and its answer was sent or dropped)."""
    for _ in range(600):
        if not any(player.hinting for player in server._players.values()):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the hint search did not end")


def test_a_page_is_answered_while_its_hint_is_looked_for(tmp_path: Path, held: threading.Event) -> None:
    box: list[TableServer] = []

    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)
            await ws.send_json({"type": "hint"})
            await ws.send_json({"type": "stats"})
            assert (await _reply(ws))["type"] == "stats"  # not after the hint
            await ws.send_json({"type": "hint"})  # one hint at a time
            assert (await _reply(ws)) == {"type": "error", "message": "a hint is being looked for already"}
            await ws.send_json({"type": "view"})
            view = (await _reply(ws))["view"]
            held.set()
            hint = await _reply(ws, timeout=120)  # the game has not changed: the hint is for it
            assert hint["type"] == "hint" and hint["move"] in view["legal"]

    serving(tmp_path, test, server_box=box)


CHANGES: dict[str, dict[str, Any]] = {
    "move": {"type": "move", "move": "2>4"},
    "draw": {"type": "draw"},
    "undo": {"type": "undo"},
    "restart": {"type": "restart"},
    "new deal": {"type": "new", "deal": 12},
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_hint_for_a_game_changed_since_is_not_sent(tmp_path: Path, held: threading.Event, change: str) -> None:
    box: list[TableServer] = []

    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)
            await ws.send_json({"type": "move", "move": "7>F"})  # something to undo and to restart from
            assert (await _reply(ws))["view"]["moves"] == 1
            await ws.send_json({"type": "hint"})
            await ws.send_json(CHANGES[change])
            changed = await _reply(ws)
            assert changed["type"] == "view", changed
            held.set()
            (server,) = box
            await _hint_done(server)
            await ws.send_json({"type": "view"})  # the next answer is this view: the stale hint was dropped
            assert (await _reply(ws)) == {"type": "view", "view": changed["view"], "said": ""}
            await ws.send_json({"type": "hint"})  # a hint asked for the game as it is now is sent
            hint = await _reply(ws, timeout=120)
            assert hint["type"] == "hint" and hint["move"] in changed["view"]["legal"]

    serving(tmp_path, test, server_box=box)


def test_a_hint_for_a_game_being_left_for_a_searched_deal_is_not_sent(tmp_path: Path, held: threading.Event) -> None:
    box: list[TableServer] = []

    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)
            await ws.send_json({"type": "hint"})
            await ws.send_json({"type": "new", "deal": 3, "winnable": True})
            assert await _reply(ws) == {"type": "dealing", "text": "Finding a proven winnable deal…"}
            held.set()  # the hint is found for the game being left, while the deal is searched for or after
            (server,) = box
            await _hint_done(server)
            dealt = await _reply(ws, timeout=120)
            assert dealt["type"] == "view" and dealt["said"] == "New winnable deal 3."
            await ws.send_json({"type": "view"})
            assert (await _reply(ws)) == {"type": "view", "view": dealt["view"], "said": ""}

    serving(tmp_path, test, server_box=box)
