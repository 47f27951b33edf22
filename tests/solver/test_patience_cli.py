"""``cardtable solve --game``: Klondike's answers and JSON for every patience
game, one deal or a batch, every winning line replayed, bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.patience import Move, PatienceGame, get
from cardtable.patience.registry import load
from cardtable.solver import patience as patience_solver


def _replays(game: str, seed: str, moves: list[str]) -> bool:
    played = PatienceGame.from_seed(load(game), seed)
    for text in moves:
        played.play(Move.parse(text))
    return played.is_won()


@pytest.mark.parametrize(("game", "seed"), [("freecell", "ms:1"), ("golf:wrap", "pysol:5"), ("bakers-game", "7"),
                                            ("tripeaks", "2"), ("eight-off", "pysol:3")])
def test_solve_game_prints_a_winning_line_as_json(capsys: pytest.CaptureFixture[str], game: str, seed: str) -> None:
    code, out, _ = run(capsys, "solve", "--game", game, "--seed", seed, "--max-states", "200000", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"result", "moves", "states", "seconds", "game"}
    assert data["result"] == "won" and data["states"] > 0
    assert _replays(game, seed, data["moves"])


def test_solve_game_proves_11982_unwinnable_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--game", "freecell", "--seed", "ms:11982", "--max-states", "2000000")
    assert code == 0
    assert out.startswith("unwinnable: ") and "states" in out


def test_a_budget_that_runs_out_says_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--game", "spider", "--seed", "1", "--max-states", "100", "--json")
    assert code == 0
    assert json.loads(out)["result"] == "unknown"
    assert json.loads(out)["reason"] == "state budget of 100 states reached"


def test_a_position_string_and_a_file_are_solved(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from cardtable.patience.position import write_position

    position = write_position(PatienceGame.from_seed(get("bakers-game"), 7))
    code, out, _ = run(capsys, "solve", "--game", "bakers-game", "--deal", position, "--json")
    assert code == 0 and json.loads(out)["result"] == "won"
    path = tmp_path / "deal.txt"
    path.write_text(position + "\n")
    code, again, _ = run(capsys, "solve", "--game", "bakers-game", "--file", str(path), "--json")
    assert code == 0 and json.loads(again)["moves"] == json.loads(out)["moves"]


def test_batch_prints_one_json_line_a_deal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("ms:1\n# a comment\n\nms:11982\n5\n")
    code, out, err = run(capsys, "solve", "--game", "freecell", "--deals", str(deals), "--max-states", "2000000")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(row["deal"], row["result"]) for row in rows] == [("ms:1", "won"), ("ms:11982", "unwinnable"),
                                                               ("5", "won")]
    assert _replays("freecell", "5", rows[2]["moves"])
    assert "3 deals solved: 2 won, 1 unwinnable, 0 unknown" in err


def test_an_interrupted_batch_keeps_the_lines_solved(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("ms:1\nms:2\nms:3\n")
    output = tmp_path / "out.jsonl"
    real = patience_solver.solve_game
    calls = []

    def stopping(game: PatienceGame, **kwargs: object) -> patience_solver.PatienceSolveResult:
        calls.append(game)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(game, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(patience_solver, "solve_game", stopping)
    code, _, err = run(capsys, "solve", "--game", "freecell", "--deals", str(deals), "--output", str(output))
    assert code == 130
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    assert [row["deal"] for row in rows] == ["ms:1"]
    assert "kept the 1 of 3 deals solved" in err


@pytest.mark.parametrize(("args", "message"), [
    (["--seed", "ms:3"], "Klondike has no ms:N deal numbers"),
    (["--game", "freecell", "--seed", "3", "--draw", "3"], "--draw is a Klondike option"),
    (["--game", "freecell", "--seed", "3", "--workers", "2"], "--workers goes with Klondike only"),
    (["--game", "golf", "--seed", "ms:3"], "golf has no Microsoft deal numbers"),
    (["--game", "freecel", "--seed", "3"], "unknown game 'freecel'"),
    (["--game", "freecell", "--deal", "nonsense"], "--deal: "),
    (["--game", "freecell", "--seed", "3", "--output", "x.jsonl"], "--output is for batches"),
])
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, _, err = run(capsys, "solve", *args)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_bad_line_of_a_batch_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("ms:1\n\nbad\n")
    code, out, err = run(capsys, "solve", "--game", "freecell", "--deals", str(deals))
    assert code == 2 and out == ""
    assert f"{deals}, line 3: " in err
