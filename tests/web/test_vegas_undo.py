"""The browser table keeps the Vegas custom (a draw cannot be undone, nor any
move before it, and the deal cannot start again after one) and names its rules
by the player's name, spoken by a real aiohttp server and a real client."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from cardtable.klondike import Variant
from cardtable.web.klondike import KlondikeDealer
from cardtable.web.server import TableServer


def test_vegas_draws_cannot_be_undone_at_the_browser_table(tmp_path: Path) -> None:
    async def main() -> None:
        dealer = KlondikeDealer(Variant.preset("vegas1"), seed=7)
        server = TableServer(dealer, store_path=tmp_path / "store.db", url="http://localhost:0",
                             title="cardtable: Klondike")
        runner = web.AppRunner(server.application(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        try:
            async with aiohttp.ClientSession() as session, \
                    session.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
                first = await ws.receive_json(timeout=10)
                assert first["view"]["title"] == "Vegas (draw 1, one pass)" and first["view"]["variant"] == "vegas1"

                async def ask(message: dict[str, object]) -> dict[str, Any]:
                    await ws.send_json(message)
                    return dict(await ws.receive_json(timeout=30))

                assert (await ask({"type": "move", "move": "7>F"}))["view"]["canUndo"]
                drawn = await ask({"type": "draw"})
                assert drawn["view"]["moves"] == 2 and not drawn["view"]["canUndo"]
                for kind, words in (("undo", "Vegas: draws cannot be undone"),
                                    ("restart", "Vegas: draws cannot be undone, so this deal cannot start again")):
                    refused = await ask({"type": kind})
                    assert refused["type"] == "error" and refused["message"] == words, refused
                assert (await ask({"type": "view"}))["view"]["moves"] == 2  # nothing changed
        finally:
            await runner.cleanup()

    asyncio.run(main())
