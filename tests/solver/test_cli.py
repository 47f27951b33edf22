"""The ``solve`` and ``hint`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable.cli import main
from cardtable.klondike import KlondikeGame, KlondikeRecord, Move, Position, Variant


def _json_out(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    return json.loads(capsys.readouterr().out)


def test_solve_seed_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--seed", "2", "--variant", "thoughtful1", "--json"]) == 0
    data = _json_out(capsys)
    assert data["result"] == "won"
    assert isinstance(data["states"], int) and isinstance(data["seconds"], float)
    game = KlondikeGame.from_seed(2, Variant.preset("thoughtful1"))
    for move in data["moves"]:  # type: ignore[union-attr]
        game.play(Move.parse(move))
    assert game.is_won()


def test_solve_unwinnable_deal_string(capsys: pytest.CaptureFixture[str]) -> None:
    deal = Position.from_seed(2).deal_string()
    assert main(["solve", "--deal", deal, "--draw", "3", "--json"]) == 0
    data = _json_out(capsys)
    assert data["result"] == "unwinnable" and data["moves"] == []


def test_solve_record_file_solves_from_its_last_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    variant = Variant.preset("thoughtful1")
    game = KlondikeGame.from_seed(2, variant)
    for move in game.legal_moves()[:1]:
        game.play(move)
    path = tmp_path / "game.txt"
    path.write_text(str(KlondikeRecord.from_game(game)))
    assert main(["solve", "--file", str(path), "--json"]) == 0
    data = _json_out(capsys)
    assert data["result"] == "won"
    for move in data["moves"]:  # type: ignore[union-attr]
        game.play(Move.parse(move))
    assert game.is_won()
    assert main(["hint", str(path), "--peek", "--json"]) == 0
    hint = _json_out(capsys)
    assert hint["hint"] == "peek" and hint["winning"] is True
    assert hint["move"] == data["moves"][0]  # type: ignore[index]


def test_batch_writes_json_lines_and_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("# two seeds and a deal string\n2\n3\n" + Position.from_seed(4).deal_string() + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["solve", "--deals", str(deals), "--output", str(out), "--variant", "thoughtful3",
                 "--timeout", "20"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["deal"] for r in rows][:2] == ["2", "3"]
    assert rows[0]["result"] == "unwinnable" and rows[1]["result"] == "won"
    err = capsys.readouterr().err
    assert "3 deals:" in err and "winnable:" in err and "median" in err


@pytest.mark.parametrize("argv", [
    ["solve", "--deal", "Ah Ah"],
    ["solve", "--file", "/no/such/file"],
    ["solve", "--seed", "1", "--variant", "nonsense"],
])
def test_bad_input_is_one_line_and_status_two(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardtable: error:") and "Traceback" not in err


def test_bad_numbers_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", "--seed", "1", "--timeout", "-3"])
    assert exit_info.value.code == 2
    assert "positive" in capsys.readouterr().err
