"""``cardtable solve --game``: Klondike's answers and JSON for every patience
game, one deal or a batch, every winning line replayed, bad input in one line."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run, start
from study_helpers import stored_deals

from cardtable.patience import Move, PatienceGame, get
from cardtable.patience.registry import load
from cardtable.solver import patience as patience_solver


def _stop_at_call(monkeypatch: pytest.MonkeyPatch, stop: int) -> Callable[..., patience_solver.PatienceSolveResult]:
    """Make the patience search's ``stop``-th call raise KeyboardInterrupt (Ctrl-C in the middle of a
    batch); the real search is returned."""
    real = patience_solver.solve_game
    calls: list[PatienceGame] = []

    def stopping(game: PatienceGame, **kwargs: object) -> patience_solver.PatienceSolveResult:
        calls.append(game)
        if len(calls) == stop:
            raise KeyboardInterrupt
        return real(game, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(patience_solver, "solve_game", stopping)
    return real


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
    assert all(row["game"] == "freecell" for row in rows)
    assert "3 deals: 2 won, 1 unwinnable, 0 unknown" in err


def test_a_batch_on_two_processes_gives_the_same_rows(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("".join(f"{n}\n" for n in range(1, 9)))
    rows = []
    for workers in ("1", "2"):
        code, out, _ = run(capsys, "solve", "--game", "beleaguered-castle", "--deals", str(deals), "--max-states",
                           "50000", "--workers", workers, "--no-progress", "--no-store")
        assert code == 0
        rows.append([{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in out.splitlines()])
    assert rows[0] == rows[1] and [row["deal"] for row in rows[0]] == [str(n) for n in range(1, 9)]


def test_an_interrupted_batch_is_stored_and_finished_with_resume(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # As Klondike's: every deal solved is kept in the results store; --resume solves only the others, with
    # the run's own game, budget and output.
    deals = tmp_path / "deals.txt"
    deals.write_text("ms:1\nms:2\nms:3\n")
    output, store = tmp_path / "out.jsonl", tmp_path / "results.sqlite"
    real = _stop_at_call(monkeypatch, 3)
    code, _, err = run(capsys, "solve", "--game", "freecell", "--deals", str(deals), "--output", str(output),
                       "--store", str(store), "--max-states", "100000")
    assert code == 130
    assert [json.loads(line)["deal"] for line in output.read_text().splitlines()] == ["ms:1", "ms:2"]
    assert "kept the 2 of 3 deals solved" in err and "cardtable solve --resume 1" in err
    monkeypatch.setattr(patience_solver, "solve_game", real)
    code, _, err = run(capsys, "solve", "--resume", "1", "--store", str(store), "--no-progress")
    assert code == 0
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    assert [(row["deal"], row["result"], row["game"]) for row in rows] == [
        ("ms:1", "won", "freecell"), ("ms:2", "won", "freecell"), ("ms:3", "won", "freecell")]
    assert _replays("freecell", "ms:3", rows[2]["moves"])
    assert "2 deals were stored, 1 solved now" in err
    deals.write_text("ms:1\nms:2\nms:4\n")  # a run is taken up with its own deals only
    code, _, err = run(capsys, "solve", "--resume", "1", "--store", str(store))
    assert code == 2 and "the deals file changed since run 1 started" in err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signalled_batch_process_loses_no_deal_it_solved(tmp_path: Path, signum: int) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("".join(f"{n}\n" for n in range(1, 301)))
    store = tmp_path / "data" / "results.sqlite"
    process = start(tmp_path, "solve", "--game", "golf", "--deals", str(deals), "--max-states", "20000",
                    "--output", "out.jsonl", "--no-progress")
    deadline = time.monotonic() + 60
    while stored_deals(store, "solves") < 5:
        assert process.poll() is None and time.monotonic() < deadline, "the batch never got under way"
        time.sleep(0.02)
    os.killpg(process.pid, signum)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signum and "Traceback" not in err, err
    kept = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert 5 <= len(kept) == stored_deals(store, "solves") < 300
    assert "finish it with 'cardtable solve --resume 1" in err
    process = start(tmp_path, "solve", "--resume", "1", "--no-progress")
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [row["deal"] for row in rows] == [str(n) for n in range(1, 301)] and rows[:len(kept)] == kept
    assert f"{len(kept)} deals were stored, {300 - len(kept)} solved now" in err


@pytest.mark.slow
def test_a_batch_on_a_dask_cluster_gives_the_same_rows(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("".join(f"{n}\n" for n in range(1, 11)))
    rows = []
    for where in (("--workers", "1"), ("--cluster", "local", "--workers", "2")):
        code, out, _ = run(capsys, "solve", "--game", "golf", "--deals", str(deals), "--max-states", "50000",
                           "--no-progress", "--no-store", *where)
        assert code == 0
        rows.append([{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in out.splitlines()])
    assert rows[0] == rows[1] and len(rows[0]) == 10


def test_an_interrupted_batch_keeps_the_lines_solved(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("ms:1\nms:2\nms:3\n")
    output = tmp_path / "out.jsonl"
    _stop_at_call(monkeypatch, 2)
    code, _, err = run(capsys, "solve", "--game", "freecell", "--deals", str(deals), "--output", str(output))
    assert code == 130
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    assert [row["deal"] for row in rows] == ["ms:1"]
    assert "kept the 1 of 3 deals solved" in err


@pytest.mark.parametrize(("args", "message"), [
    (["--seed", "ms:3"], "Klondike has no ms:N deal numbers"),
    (["--game", "freecell", "--seed", "3", "--draw", "3"], "--draw is a Klondike option"),
    (["--game", "freecell", "--seed", "3", "--workers", "2"], "--workers is for batches (--deals FILE)"),
    (["--game", "freecell", "--seed", "3", "--no-store"], "--no-store is for batches (--deals FILE)"),
    (["--game", "freecell", "--resume", "1"], "--game cannot be given with it"),
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


def test_hint_reads_a_patience_record_and_gives_the_faces_hint(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    # `hint RECORD` of any patience game: the expert's move from the player's view, the one the terminal
    # app and the browser table give (the same guesses: the same table always gets the same hint).
    from cardtable.bots.patience_hint import patience_hint
    from cardtable.patience.record import PatienceRecord

    game = PatienceGame.from_seed(get("spider-1-suit"), 3)
    game.play(game.legal_moves()[0])
    record = tmp_path / "game.txt"
    record.write_text(str(PatienceRecord.from_game(game, seed=3)))
    code, out, _ = run(capsys, "hint", str(record), "--json", "--samples", "2", "--max-states", "3000")
    assert code == 0
    data = json.loads(out)
    expected = patience_hint(game, samples=2, max_states=3000)
    assert (data["hint"], data["game"], data["samples"]) == ("expert", "spider-1-suit", 2)
    assert data["move"] == str(expected.move) and data["wins"] == expected.wins
    code, out, _ = run(capsys, "hint", str(record), "--samples", "2", "--max-states", "3000")
    assert code == 0 and out.startswith(f"{expected.move}: ")


def test_hint_peeks_at_a_patience_layout_and_its_move_starts_a_win(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    from cardtable.patience.position import write_position

    layout = tmp_path / "deal.txt"
    layout.write_text(write_position(PatienceGame.from_seed(get("freecell"), "ms:5")) + "\n")
    code, out, _ = run(capsys, "hint", str(layout), "--game", "freecell", "--peek", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["hint"] == "peek" and data["fallback"] is None
    game = PatienceGame.from_seed(get("freecell"), "ms:5")
    game.play(Move.parse(data["move"]))
    assert patience_solver.solve_game(game, max_states=200_000).result == "won"


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "freecell", "--draw", "3"], "--draw is a Klondike option"),
    (["--game", "golf"], "position"),
    (["--game", "freecell", "--peek", "--samples", "2"], "--samples: the peek does not guess"),
])
def test_a_bad_patience_hint_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str],
                                         message: str) -> None:
    from cardtable.patience.position import write_position

    layout = tmp_path / "deal.txt"
    layout.write_text(write_position(PatienceGame.from_seed(get("freecell"), "ms:5")) + "\n")
    code, _, err = run(capsys, "hint", str(layout), *args)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
