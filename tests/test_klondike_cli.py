"""The Klondike commands, run as a user would (in-process and as a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.klondike import KlondikeGame, KlondikeRecord, Position, Variant, read_layout


def test_variants_lists_the_seed_presets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants")
    assert code == 0
    for name in ("seed-002", "seed-000", "seed-001", "seed-004", "draw1"):
        assert name in out
    code, out, _ = run(capsys, "variants", "--json")
    assert {v["name"] for v in json.loads(out)} >= {"seed-002", "draw1"}


def test_deal_from_seed_in_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ("deal", "pysol", "solvitaire", "position"):
        code, out, _ = run(capsys, "deal", "--seed", "5", "--format", fmt)
        assert code == 0
        assert read_layout(out) == Position.from_seed(5)


def test_deal_converts_files_between_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pysol = tmp_path / "board.txt"
    run(capsys, "deal", "--seed", "9", "--format", "pysol", "--output", str(pysol))
    code, out, _ = run(capsys, "deal", "--file", str(pysol), "--format", "solvitaire")
    assert code == 0
    solv = tmp_path / "deal.json"
    solv.write_text(out)
    code, out, _ = run(capsys, "deal", "--file", str(solv))
    assert out.strip() == Position.from_seed(9).deal_string()


def test_show_renders_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    deal = Position.from_seed(1).deal_string()
    code, out, _ = run(capsys, "show", deal, "--ascii")
    assert code == 0
    assert "Stock 24" in out and "##" in out and "7d" in out and "\x1b[" not in out
    code, out, _ = run(capsys, "show", deal, "--color", "always")
    assert "\x1b[31m" in out and "♦" in out


def _record_file(tmp_path: Path, extra: str = "") -> Path:
    game = KlondikeGame.from_seed(3, Variant.preset("seed-002"))
    for _ in range(20):
        game.play(game.legal_moves()[0])
    path = tmp_path / "game.txt"
    path.write_text(str(KlondikeRecord.from_game(game)) + extra)
    return path


def test_replay_accepts_a_legal_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(_record_file(tmp_path)), "--quiet")
    assert code == 0 and "all 20 moves legal" in out


def test_replay_reports_the_first_illegal_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay", str(_record_file(tmp_path, " 21. 1>F 22. D\n")))
    assert code == 2
    assert "move 21 (1>F) is illegal" in err and "Traceback" not in err


def test_show_of_a_record_gives_its_last_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", str(_record_file(tmp_path)), "--ascii")
    assert code == 0 and "after 20 moves" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "Ah Kd"], "missing Ac"),
        (["show", "no-such-deal.txt"], "no such file"),
        (["deal", "--file", "/nonexistent/deal.txt"], "no such file"),
        (["deal", "--seed", "-3"], "seed"),
        (["deal", "--seed", "1", "--variant", "nope"], "unknown variant 'nope'"),
        (["deal", "--seed", "1", "--passes", "zero"], "passes must be"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(capsys: pytest.CaptureFixture[str], args: list[str],
                                                message: str) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_bad_deal_file_names_the_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards = Position.from_seed(1).deal_string().split()
    bad = tmp_path / "deal.txt"
    bad.write_text(" ".join([*cards[:10], "Qx", *cards[11:]]))
    code, _, err = run(capsys, "deal", "--file", str(bad))
    assert code == 2 and "card 11: unknown card 'Qx'" in err
    bad.write_text(" ".join([*cards[:51], cards[3]]))
    code, _, err = run(capsys, "show", str(bad))
    assert code == 2 and f"card {cards[3]} appears twice" in err


def test_python_dash_m_entry_point() -> None:
    result = subprocess.run([sys.executable, "-m", "cardtable", "deal", "--seed", "2"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0
    assert result.stdout.strip() == Position.from_seed(2).deal_string()


def test_winnable_deal_is_proven_and_repeatable(capsys: pytest.CaptureFixture[str]) -> None:
    from cardtable.solver import solve

    code, first, _ = run(capsys, "deal", "--winnable", "--seed", "5", "--variant", "seed-002")
    assert code == 0
    _, second, _ = run(capsys, "deal", "--winnable", "--seed", "5", "--variant", "seed-002")
    assert first == second
    result = solve(Position.from_deal(first), Variant.preset("seed-002"), timeout=30)
    assert result.result == "won"
    game = KlondikeGame.from_deal(first, Variant.preset("seed-002"))
    for move in result.moves:
        game.play(move)
    assert game.is_won()
    code, _, err = run(capsys, "deal", "--winnable", "--file", "x.txt")
    assert code == 2 and "--winnable goes with --seed" in err
