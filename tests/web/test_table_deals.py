"""The Klondike table's deals, through a real server and client: a new
visitor's first deal is kept before any move."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from web.test_protocol import first_view, serving

from cardtable.runs.store import ResultsStore


def test_a_new_visitor_who_reloads_before_any_move_gets_the_same_deal(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.get(f"{base}/") as page:  # the page names the new player in its cookie
                assert page.status == 200
            async with session.ws_connect(f"{base}/ws") as ws:
                first = await first_view(ws)
            for _ in range(3):  # reloads, no move between them
                async with session.ws_connect(f"{base}/ws") as ws:
                    again = await first_view(ws)
                assert (again["deal"], again["piles"]) == (first["deal"], first["piles"])
        with ResultsStore(tmp_path / "store.db", create=False) as store:
            rows = store.select("web_games", ("saved",), order="player", action="read")
        assert len(rows) == 1 and f'[Seed "{first["deal"]}"]' in rows[0][0]

    serving(tmp_path, test, seed=None)
