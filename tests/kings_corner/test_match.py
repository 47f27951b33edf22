"""Matches: seats rotate, seeds make results repeatable for any number of workers."""

from __future__ import annotations

import pytest

from cardtable.kings_corner import KingsCornerError
from cardtable.kings_corner.session import derive_seed
from cardtable.runs.executor import LocalExecutor
from cardtable.sim.match import (
    HandResult,
    play_hand,
    run_hands,
    summarize_hands,
    wilson_interval,
)


def test_seats_rotate_hand_by_hand() -> None:
    seatings = [play_hand(["greedy", "random", "greedy"], g, 5)[0].seating for g in range(4)]
    assert seatings == [(0, 1, 2), (2, 0, 1), (1, 2, 0), (0, 1, 2)]
    # every entry moves first once per rotation
    assert sorted(s[0] for s in seatings[:3]) == [0, 1, 2]


def test_hand_results_map_seats_to_entries() -> None:
    result, game = play_hand(["greedy", "random", "strategic"], 4, 9)
    outcome = game.outcome()
    assert outcome is not None
    for seat, entry in enumerate(result.seating):
        assert result.penalties[entry] == outcome.penalties[seat]
    if outcome.winner is not None:
        assert result.winner == result.seating[outcome.winner]
    assert result.turns == outcome.turns


def test_same_seed_same_result_whatever_the_workers() -> None:
    players = ["strategic", "greedy", "random"]
    one = run_hands(players, 24, seed=3, workers=1)
    two = run_hands(players, 24, seed=3, workers=2)
    assert one == two
    assert [r.index for r in one] == list(range(24))
    assert run_hands(players, 24, seed=4, workers=1) != one


def test_progress_counts_every_hand_and_an_executor_may_be_given() -> None:
    players = ["greedy", "random"]
    done: list[int] = []
    results = run_hands(players, 30, seed=2, workers=2, progress=done.append, executor=LocalExecutor(2))
    assert sum(done) == 30 and len(done) > 1
    assert results == run_hands(players, 30, seed=2, workers=1)
    assert run_hands(players, 0, seed=2) == []


def test_derive_seed_is_stable_and_spreads() -> None:
    assert derive_seed(0, 1) == derive_seed(0, 1)
    seeds = {derive_seed(7, g) for g in range(1000)} | {derive_seed(7, g, 1) for g in range(1000)}
    assert len(seeds) == 2000
    assert all(0 <= s < 2**64 for s in seeds)


def test_wilson_interval() -> None:
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    low, high = wilson_interval(350, 1000)
    assert low < 0.35 < high and high - low < 0.06


def hand(index: int, winner: int | None, penalties: tuple[int, ...]) -> HandResult:
    return HandResult(index, (0, 1, 2), winner, penalties, 10)


def test_summary_counts_hands_and_matches() -> None:
    results = [
        hand(0, 0, (0, 10, 12)),
        hand(1, 1, (5, 0, 14)),  # entry 2 reaches 26: match 1 goes to entry 1 (10 vs 5+... )
        hand(2, None, (3, 3, 3)),
        hand(3, 2, (30, 1, 0)),  # match 2 over: entry 2 lowest with 3
        hand(4, 0, (0, 2, 2)),   # unfinished third match
    ]
    report = summarize_hands(["greedy", "random", "strategic"], results, target=25)
    assert report.games == 5 and report.stalemates == 1 and report.matches == 2
    wins = [entry.wins for entry in report.entries]
    assert wins == [2, 1, 1]
    assert report.entries[0].win_rate == pytest.approx(0.4)
    assert report.entries[1].mean_penalty == pytest.approx(16 / 5)
    # match 1 totals (5, 10, 26): entry 0 wins; match 2 totals (33, 4, 3): entry 2 wins
    assert [entry.matches_won for entry in report.entries] == [1.0, 0.0, 1.0]
    assert report.entries[0].mean_turns_to_win == 10
    data = report.to_dict()
    assert data["entries"][2]["match_win_rate"] == 0.5


def test_tied_match_is_shared() -> None:
    results = [hand(0, 2, (30, 30, 0)), hand(1, 1, (20, 0, 20))]
    report = summarize_hands(["a", "b", "c"], results, target=25)
    assert report.matches == 1
    assert [e.matches_won for e in report.entries] == [0.0, 0.0, 1.0]
    results = [hand(0, None, (30, 0, 0))]
    report = summarize_hands(["a", "b", "c"], results, target=25)
    assert [e.matches_won for e in report.entries] == [0.0, 0.5, 0.5]


@pytest.mark.parametrize(("players", "message"), [
    (["greedy"], "2 to 6 players"),
    (["greedy"] * 7, "2 to 6 players"),
    (["greedy", "smart"], "unknown bot 'smart'"),
])
def test_bad_player_lists(players: list[str], message: str) -> None:
    with pytest.raises(KingsCornerError, match=message):
        run_hands(players, 2)


@pytest.mark.slow
def test_many_hands_conserve_and_end() -> None:
    results = run_hands(["strategic", "greedy", "greedy", "random"], 200, seed=11, workers=2)
    assert len(results) == 200
    for result in results:
        if result.winner is not None:
            assert result.penalties[result.winner] == 0
        assert result.turns < 400
