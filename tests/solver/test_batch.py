"""Batches of solves: rows in deal order, the same for any worker count, the summary."""

from __future__ import annotations

from cardtable.klondike import Position, Variant
from cardtable.solver import SolveSummary, solve_batch, summarize_solves

THOUGHTFUL = Variant.preset("thoughtful1")
DEALS = [(str(seed), Position.from_seed(seed)) for seed in range(1, 7)]


def _without_times(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{key: value for key, value in row.items() if key != "seconds"} for row in rows]


def test_rows_come_in_deal_order_and_stream() -> None:
    seen: list[dict[str, object]] = []
    rows = solve_batch(DEALS, THOUGHTFUL, max_states=50_000, on_result=seen.append)
    assert [row["deal"] for row in rows] == [label for label, _ in DEALS]
    assert seen == rows
    for row in rows:
        assert row["result"] in ("won", "unwinnable", "unknown")
        assert {"deal", "result", "moves", "states", "seconds"} <= set(row)


def test_one_and_two_workers_give_the_same_rows() -> None:
    one = solve_batch(DEALS, THOUGHTFUL, max_states=50_000, workers=1)
    two = solve_batch(DEALS, THOUGHTFUL, max_states=50_000, workers=2)
    assert _without_times(one) == _without_times(two)


def test_labels_and_mid_game_positions_are_kept() -> None:
    deals = [("a deal string", Position.from_deal(Position.from_seed(2).deal_string())),
             ("a position", Position.parse(str(Position.from_seed(3))))]
    rows = solve_batch(deals, THOUGHTFUL, max_states=50_000)
    assert [row["deal"] for row in rows] == ["a deal string", "a position"]


def test_summary_text_and_dict() -> None:
    rows = [{"deal": "1", "result": "won", "seconds": 0.5}, {"deal": "2", "result": "won", "seconds": 1.5},
            {"deal": "3", "result": "unwinnable", "seconds": 2.0}, {"deal": "4", "result": "unknown", "seconds": 9.0}]
    summary = summarize_solves(rows)
    assert isinstance(summary, SolveSummary)
    assert summary.text() == "\n".join([
        "4 deals: 2 won, 1 unwinnable, 1 unknown",
        "winnable: 66.67% of decided deals (95% interval 20.77%..93.85%)",
        "bounds over all deals: 50.00%..75.00%",
        "time per deal: median 1.7500 s, mean 3.2500 s",
    ])
    data = summary.to_dict()
    assert (data["won"], data["unwinnable"], data["unknown"], data["deals"]) == (2, 1, 1, 4)
    assert data["winnable_share"] == 2 / 3 and data["median_seconds"] == 1.75


def test_summary_with_nothing_decided_or_no_deals() -> None:
    assert summarize_solves([{"result": "unknown", "seconds": 1.0}]).text() == (
        "1 deals: 0 won, 0 unwinnable, 1 unknown\ntime per deal: median 1.0000 s, mean 1.0000 s")
    empty = summarize_solves([])
    assert empty.text() == "0 deals: 0 won, 0 unwinnable, 0 unknown"
    assert empty.winnable_share is None and empty.mean_seconds is None
