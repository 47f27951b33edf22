"""A game record plays under its own rules: rule options given with one are
refused in one line (exit 2) by every command that reads a record, never
silently ignored; without rule options the record's own rules apply."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.klondike import KlondikeGame, KlondikeRecord, Variant


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    game = KlondikeGame.from_seed(11, Variant.preset("vegas3"))
    for _ in range(3):
        game.play(game.legal_moves()[0])
    path = tmp_path / "game.txt"
    path.write_text(str(KlondikeRecord.from_game(game)))
    return path


COMMANDS = [["solve", "--file", "{f}", "--max-states", "1000"], ["hint", "{f}", "--max-states", "1000"],
            ["show", "{f}"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("flags", [["--draw", "1"], ["--variant", "draw3"], ["--passes", "unlimited"],
                                   ["--scoring", "none"], ["--no-foundation-return"], ["--empty", "any"]])
def test_rule_options_with_a_record_are_refused(record_file: Path, command: list[str], flags: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    argv = [part.replace("{f}", str(record_file)) for part in command]
    status, out, err = run(capsys, *argv, *flags)
    assert status == 2 and out == ""
    assert err.strip() == (f"cardtable: error: {flags[0]}: {record_file} is a game record, played under its own "
                           "rules (draw 3, 3 passes, kings in empty piles, no foundation return, Vegas $52 to play, "
                           "$5 a card); leave out the rule options, or give a deal or position")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_without_rule_options_the_record_keeps_its_rules(record_file: Path, command: list[str],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    argv = [part.replace("{f}", str(record_file)) for part in command]
    status, out, err = run(capsys, *argv)
    assert status == 0 and err == "" and out


def test_solve_json_says_the_records_rules(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = run(capsys, "solve", "--file", str(record_file), "--max-states", "1000", "--json")
    assert status == 0 and '"draw": 3' in out and '"passes": 3' in out


def test_rule_options_with_a_deal_file_still_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = tmp_path / "deal.txt"
    deal.write_text(KlondikeGame.from_seed(11).start.deal_string())
    status, out, _err = run(capsys, "solve", "--file", str(deal), "--draw", "3", "--max-states", "1000", "--json")
    assert status == 0 and '"draw": 3' in out
