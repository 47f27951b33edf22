"""The browser table's review over the protocol, with a real aiohttp server
and client: progress messages then the result, one review at a time, a stop,
no card named that the player has not seen, and the peek only once the game
is over."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

import cardtable.web.review as review_module
from cardtable.cards import Card
from cardtable.klondike import KlondikeGame, Move, Position, Variant
from cardtable.web.klondike import KlondikeDealer
from cardtable.web.server import TableServer


def serving(tmp_path: Path, test: Callable[[str], Awaitable[None]]) -> None:
    """Run ``test(base_url)`` against a table server (deal 7 of draw 1) on a free loopback port."""
    async def main() -> None:
        server = TableServer(KlondikeDealer(Variant.preset("draw1"), seed=7), store_path=tmp_path / "store.db",
                             url="http://localhost:0", title="cardtable: Klondike")
        runner = web.AppRunner(server.application(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        try:
            await test(f"http://127.0.0.1:{runner.addresses[0][1]}")
        finally:
            await runner.cleanup()

    asyncio.run(main())


async def first_view(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    reply = await ws.receive_json(timeout=10)
    assert reply["type"] == "view"
    return dict(reply["view"])


@pytest.fixture(autouse=True)
def _small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_module, "SAMPLES", 6)
    monkeypatch.setattr(review_module, "MAX_STATES", 1000)


async def replies_until_review(ws: aiohttp.ClientWebSocketResponse) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    progress: list[dict[str, Any]] = []
    while True:
        reply = dict(await ws.receive_json(timeout=60))
        if reply["type"] == "review":
            return progress, reply
        assert reply["type"] == "review-progress", reply
        progress.append(reply)


def test_a_review_sends_progress_then_the_figures_and_names_no_unseen_card(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)
            await ws.send_json({"type": "review"})
            refused = await ws.receive_json(timeout=10)
            assert refused == {"type": "error", "message": "nothing to review yet: play a move first"}
            for _ in range(3):
                await ws.send_json({"type": "draw"})
                assert (await ws.receive_json(timeout=10))["type"] == "view"
            await ws.send_json({"type": "review"})
            await ws.send_json({"type": "review"})
            busy = await ws.receive_json(timeout=10)
            assert busy == {"type": "error", "message": "a review is under way already"}
            progress, done = await replies_until_review(ws)
            assert [(step["done"], step["total"]) for step in progress] == [(1, 4), (2, 4), (3, 4), (4, 4)]
            review = done["review"]
            assert done["stopped"] is False and review["complete"] is True
            assert [move["move"] for move in review["moves"]] == ["D", "D", "D"]
            assert review["samples"] == 6 and review["outcome"] == "unfinished"
            assert all(position["verdict"] is None for position in review["positions"])  # no peek mid-game
            game = KlondikeGame.from_seed(7, Variant.preset("draw1"))
            for _ in range(3):
                game.play(Move.parse("D"))
            hidden = [card for pile, down in zip(game.tableau, game.face_down, strict=True) for card in pile[:down]]
            hidden += list(game.stock)
            text = json.dumps(done, ensure_ascii=False)
            assert not [card for card in hidden if card.symbol() in text]

    serving(tmp_path, test)


def test_a_review_can_be_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_module, "SAMPLES", 64)
    monkeypatch.setattr(review_module, "MAX_STATES", 20_000)

    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/ws") as ws:
            await first_view(ws)
            for _ in range(30):
                await ws.send_json({"type": "draw"})
                assert (await ws.receive_json(timeout=10))["type"] == "view"
            await ws.send_json({"type": "review"})
            first = await ws.receive_json(timeout=60)
            assert first["type"] == "review-progress" and first["done"] == 1
            await ws.send_json({"type": "review-stop"})
            progress, done = await replies_until_review(ws)
            assert done["stopped"] is True and done["review"]["complete"] is False
            assert len(done["review"]["positions"]) == 1 + len(progress) < 31
            await ws.send_json({"type": "view"})  # the table is still served
            assert (await ws.receive_json(timeout=10))["type"] == "view"

    serving(tmp_path, test)


def test_the_peek_comes_only_once_the_game_is_over() -> None:
    two, ace, three = Card.parse("2c"), Card.parse("Ac"), Card.parse("3d")
    rest = [card for card in Card._all if card not in (two, ace, three)]
    stuck = Position(((*rest, two), (), (), (), (), (), ()), (len(rest), 0, 0, 0, 0, 0, 0), (three,), (ace,),
                     (0, 0, 0, 0), 1)  # one pass: drawing the 3d buries the ace of clubs for good
    game = KlondikeGame(stuck, Variant.preset("draw1").replace(passes=1))
    game.play(Move.parse("W>F"))  # the ace home: the game goes on
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    assert review_module.Review(game, send).peek_states is None
    lost = KlondikeGame(stuck, game.variant)
    lost.play(Move.parse("D"))
    assert lost.outcome() is not None
    review = asyncio.run(review_module.Review(lost, send).run())
    assert [message["type"] for message in sent] == ["review-progress", "review-progress", "review"]
    assert review.positions[-1].verdict == "lost" and sent[-1]["review"]["positions"][-1]["verdict"] == "lost"
