"""Every patience game's played games reviewed by the patience search: a
record file or the latest game the results store keeps (``cardtable review
--played NAME``), each position's verdict, and the move that threw a win
away called out; a game not over with hidden cards is not reviewed without
--peek."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.patience import PatienceGame, get
from cardtable.patience.record import PatienceRecord
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import PlayedGame, record_played
from cardtable.solver.patience import solve_game
from cardtable.solver.patience_review import review_game


def _thrown_away() -> PatienceRecord:
    """A TriPeaks game that followed the search's winning line, then played a legal move that lost it."""
    for seed in range(10):
        game = PatienceGame.from_seed(get("tripeaks"), seed)
        result = solve_game(game, max_states=100_000)
        if result.result != "won":
            continue
        for move in result.moves:
            for other in game.legal_moves():
                after = game.clone()
                after.play(other)
                if other != move and solve_game(after, max_states=20_000).result == "unwinnable":
                    return PatienceRecord.from_game(after, seed)
            game.play(move)
    raise AssertionError("no TriPeaks game whose win a move threw away")


def test_the_move_that_threw_a_win_away_is_called_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = _thrown_away()
    review = review_game(record)
    last = review.moves[-1]
    assert review.start == "won" and review.thrown_away() == [last] and not review.won
    assert all(move.before == move.after == "won" for move in review.moves[:-1])
    assert last.best is not None and last.best != last.move
    path = tmp_path / "tripeaks.txt"
    path.write_text(str(record))
    code, out, err = run(capsys, "review", str(path), "--peek")
    assert code == 0, err
    assert f"move {last.number}, {last.move}: the game was won from before it, and lost after it" in out
    assert f"The win was thrown away at move {last.number}" in out
    if record.replay().outcome() is None:  # not over, the stock unseen: not without --peek
        code, out, err = run(capsys, "review", str(path))
        assert (code, out) == (2, "") and "the game is not over" in err and err.count("\n") == 1


def test_review_played_weighs_the_latest_game_the_store_keeps(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    store = tmp_path / "results.sqlite"
    code, _, err = run(capsys, "review", "--played", "tripeaks", "--store", str(store))
    assert code == 2 and "no game of TriPeaks played yet" in err
    game = PatienceGame.from_seed(get("tripeaks"), 2)
    line = solve_game(game, max_states=100_000).moves
    with ResultsStore(store) as kept:
        left = game.clone()
        left.play(line[0])
        record_played(kept, PlayedGame.of_patience(left, deal="2", seconds=3.0))
        for move in line:
            game.play(move)
        record_played(kept, PlayedGame.of_patience(game, deal="2", seconds=60.0))
    code, out, err = run(capsys, "review", "--played", "tripeaks", "--store", str(store), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["game"], data["deal"], data["start"], data["won"], len(data["moves"])) == \
        ("tripeaks", "2", "won", True, len(line))
    assert data["summary"] == f"Won in {len(line)} moves." and data["thrown_away"] == []
    assert all(move["before"] == "won" for move in data["moves"])
    code, _, err = run(capsys, "review", "--played", "tripeaks", str(store))
    assert code == 2 and "one of them" in err
