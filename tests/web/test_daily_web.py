"""Daily and graded deals at the browser table: the protocol's ``new``
message with ``daily`` or ``difficulty``, and the new-game dialog's Daily deal
button and difficulty in Debian's Chromium against ``cardtable serve``."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium, free_port, screenshots, start_server, stop_servers, wait_for

from cardtable.klondike import KlondikeRecord, Position, Variant
from cardtable.runs.store import ResultsStore
from cardtable.solver import winnable_deal
from cardtable.solver.daily import daily_deal
from cardtable.web.klondike import KlondikeDealer, KlondikeTable
from cardtable.web.protocol import ProtocolError

DRAW3 = Variant.preset("seed-001")


def test_the_new_message_deals_the_daily_deal_and_keeps_its_date() -> None:
    dealer = KlondikeDealer(DRAW3, seed=7)
    table = dealer.first()
    today = datetime.date.today()
    said = table.apply({"type": "new", "daily": True}, dealer)
    assert said == f"The daily deal of {today.isoformat()}: proven winnable."
    assert table.game.start == daily_deal(today, DRAW3).position
    assert table.view()["daily"] == today.isoformat() and table.view()["deal"] is None
    assert table.view()["winnable"]  # daily_deal deals only a deal the solver has won
    again = KlondikeTable.restore(table.saved(), None)  # the saved game keeps its day
    assert again.daily == today.isoformat() and again.game.start == table.game.start
    assert again.view()["winnable"]
    table.apply({"type": "new", "deal": 9}, dealer)
    assert table.daily is None and table.view()["deal"] == 9


def test_the_new_message_deals_a_deal_of_the_difficulty_asked() -> None:
    dealer = KlondikeDealer(DRAW3, seed=7)
    table = dealer.first()
    said = table.apply({"type": "new", "deal": 3, "difficulty": "expert"}, dealer)
    # Deal 3 of seed-001 is medium, deal 4 expert (tests/test_grades.py).
    assert said == "New deal 4, graded expert: proven winnable." and table.game.start == Position.from_seed(4)
    assert table.view()["winnable"] and table.view()["grade"] == "expert"


def test_a_cumulative_vegas_balance_starts_and_stops_with_the_rules_chosen() -> None:
    dealer = KlondikeDealer(Variant.preset("draw1"), seed=7, cumulative=True)
    table = dealer.first()
    assert table.view()["balance"] is None  # no Vegas scoring: nothing to carry
    table.apply({"type": "new", "deal": 1, "rules": "vegas1"}, dealer)
    assert table.view()["balance"] == -52 and table.view()["scoring"] == "vegas"
    table.apply({"type": "draw"}, dealer)
    table.apply({"type": "new", "deal": 2}, dealer)  # the same rules: the first game's -52 is carried
    assert table.view()["balance"] == -104
    table.apply({"type": "new", "deal": 3, "rules": "draw1"}, dealer)
    assert table.view()["balance"] is None


@pytest.mark.parametrize(("message", "expected"), [
    ({"type": "new", "difficulty": "impossible"}, "\"difficulty\" must be one of easy, medium, hard, expert"),
    ({"type": "new", "difficulty": 3}, "\"difficulty\" must be one of"),
    ({"type": "new", "daily": "yes"}, "\"daily\" must be true or false"),
    ({"type": "new", "daily": True, "difficulty": "easy"}, "the daily deal has no difficulty to choose"),
])
def test_bad_new_messages_are_refused(message: dict[str, Any], expected: str) -> None:
    dealer = KlondikeDealer(DRAW3, seed=7)
    table = dealer.first()
    with pytest.raises(ProtocolError, match=expected):
        table.apply(message, dealer)
    assert table.game.start == Position.from_seed(7)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    port = free_port()
    data = tmp_path / "data"
    process = start_server(port, data, "klondike", "--seed", "7", "--variant", "seed-001")
    yield f"http://127.0.0.1:{port}/", data
    stop_servers([process])


def _kept(data: Path) -> KlondikeRecord | None:
    path = data / "results.sqlite"
    if not path.exists():
        return None
    with ResultsStore(path, create=False) as store:
        rows = store.select("web_games", ("saved",), order="player", action="read")
    return KlondikeRecord.parse(rows[0][0]) if rows else None


def test_the_dialog_deals_the_daily_deal_and_a_graded_one(served: tuple[str, Path], tmp_path: Path) -> None:
    url, data = served
    today = datetime.date.today().isoformat()
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(url)
        page.get_by_role("button", name="New game").first.click()
        dialog = page.locator("dialog#deal")
        dialog.get_by_role("button", name="Daily deal").wait_for()
        page.screenshot(path=str(screenshots(tmp_path) / "web-new-game-daily.png"))
        dialog.get_by_role("button", name="Daily deal").click()
        wait_for(lambda: f"The daily deal of {today}: proven winnable." in page.locator("#message").inner_text(),
                 "the daily deal to be dealt")
        record = wait_for(lambda: (kept := _kept(data)) is not None and kept.headers.get("Daily") == today and kept,
                          "the daily deal to be kept")
        assert record.start == daily_deal(datetime.date.today(), DRAW3).position
        assert page.locator("#st-daily").inner_text() == f"Daily {today}"
        page.screenshot(path=str(screenshots(tmp_path) / "web-daily.png"))
        page.keyboard.press("d")  # a move: the daily game counts once it is left for another
        wait_for(lambda: "Moves 1" in page.locator("#status").inner_text(), "the draw")

        page.get_by_role("button", name="New game").first.click()
        dialog.locator('input[name="number"]').fill("3")
        winnable = dialog.get_by_label("Only proven winnable deals")
        # The daily deal is proven winnable, so the dialog offers such a deal again, as after a graded deal.
        assert winnable.is_checked() and dialog.locator("#graded-note").is_hidden()
        winnable.uncheck()
        dialog.locator('select[name="difficulty"]').select_option("expert")
        # A graded deal is proven winnable: the box says so and cannot be cleared.
        assert winnable.is_checked() and winnable.is_disabled() and dialog.locator("#graded-note").is_visible()
        dialog.get_by_role("button", name="Deal", exact=True).click()
        # While the deal is looked for, the page says so (the live message line and over the table), and the
        # game it replaces takes no move.
        wait_for(lambda: page.locator("#message").inner_text() == "Finding an expert deal…", "the search to be said")
        assert page.locator("#table").get_attribute("aria-busy") == "true"
        assert page.locator("#table").get_attribute("data-finding") == "Finding an expert deal…"
        page.screenshot(path=str(screenshots(tmp_path) / "web-finding-a-deal.png"))
        page.keyboard.press("u")
        page.keyboard.press("d")
        assert page.locator("#message").inner_text() == "Finding an expert deal…"
        wait_for(lambda: "New deal 4, graded expert: proven winnable." in page.locator("#message").inner_text(),
                 "the expert deal to be dealt", timeout=120)
        assert page.locator("#table").get_attribute("aria-busy") == "false"
        assert page.locator("#table").get_attribute("data-finding") is None
        record = wait_for(lambda: (kept := _kept(data)) is not None and kept.headers.get("Seed") == "4" and kept,
                          "the graded deal to be kept")
        assert record.start == Position.from_seed(4) and not record.moves  # the keys pressed meanwhile did nothing
        assert page.locator("#st-daily").inner_text() == ""

        # Other rules, and only proven winnable deals, chosen in the dialog as in the terminal app's.
        page.get_by_role("button", name="New game").first.click()
        rules = dialog.get_by_label("Rules")
        assert rules.locator("option").first.inner_text() == f"As now: {DRAW3.title}"
        vegas = Variant.preset("vegas1")
        wait_for(lambda: rules.locator("option").count() > 1, "the named rule sets in the dialog")
        rules.select_option(label=vegas.title)
        dialog.get_by_label("Only proven winnable deals").check()
        dialog.locator('input[name="number"]').fill("2")
        dialog.get_by_role("button", name="Deal", exact=True).click()
        wait_for(lambda: f"New winnable deal 2 ({vegas.title})." in page.locator("#message").inner_text(),
                 "the winnable Vegas deal to be dealt", timeout=60)
        record = wait_for(lambda: (kept := _kept(data)) is not None and kept.headers.get("Winnable") == "2" and kept,
                          "the winnable deal to be kept")
        assert record.start == winnable_deal(2, vegas) and record.variant == vegas
        page.get_by_role("button", name="New game").first.click()  # the dialog offers the rules now in play
        assert rules.locator("option").first.inner_text() == f"As now: {vegas.title}"
        assert dialog.get_by_label("Only proven winnable deals").is_checked()
        dialog.get_by_role("button", name="Cancel").click()

        # The daily game left after a move counts for today: Statistics shows the day and the streak.
        page.get_by_role("button", name="Statistics").click()
        daily_rows = page.locator("#daily-rows tr")
        wait_for(lambda: daily_rows.count() == 1, "the daily deals in the statistics")
        cells = daily_rows.first.locator("th, td").all_inner_texts()
        assert cells == [DRAW3.label, "1", "0", "0", "0"], cells
