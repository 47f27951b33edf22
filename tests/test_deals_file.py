"""Deals files and starting layouts: one reader for ``simulate --deals`` and
``solve --deals`` (seeds, deal strings and position strings, errors naming
the line), and :func:`load_start` for every layout format and game records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.klondike import (
    DealError,
    KlondikeGame,
    KlondikeRecord,
    Position,
    ReplayError,
    Variant,
    load_start,
    read_deals,
    write_layout,
)


def _mid_game() -> KlondikeGame:
    game = KlondikeGame.from_seed(6, Variant.preset("draw1"))
    for _ in range(5):
        game.play(game.legal_moves()[0])
    return game


def test_read_deals_takes_seeds_deal_strings_and_position_strings() -> None:
    middle = _mid_game().position()
    text = "\n".join([
        "# a comment, then a blank line",
        "",
        "  17  ",
        Position.from_seed(3).deal_string(),
        str(middle),
        "0",
    ])
    deals = read_deals(text)
    assert deals[0][0] == "17"
    assert [position for _, position in deals] == [
        Position.from_seed(17), Position.from_seed(3), middle, Position.from_seed(0)]
    assert deals[1][0] == Position.from_seed(3).deal_string()


@pytest.mark.parametrize(("line", "message"), [
    ("Ah Kd", "deal string: 2 cards"),
    ("-3", "a seed is a whole number >= 0, not -3"),
    ("Talon: 9D TC", "expected a seed number, a deal string or a position string"),
    ("|7c/Jc|2d/2hQh x y", "position string"),
])
def test_a_bad_line_is_named_with_its_source(line: str, message: str) -> None:
    text = "# header\n2\n" + line + "\n5\n"
    with pytest.raises(DealError) as caught:
        read_deals(text, source="deals.txt")
    assert str(caught.value).startswith("deals.txt, line 3: ") and message in str(caught.value)
    with pytest.raises(DealError, match=r"^deals file, line 3: "):
        read_deals(text)


def test_a_file_without_deals_is_an_error() -> None:
    with pytest.raises(DealError, match=r"^my\.txt: no deals"):
        read_deals("# only comments\n\n", source="my.txt")


@pytest.mark.parametrize("fmt", ["deal", "position", "pysol", "solvitaire"])
def test_load_start_reads_every_layout_format(fmt: str) -> None:
    position = Position.from_seed(11)
    assert load_start(write_layout(position, fmt)) == (position, None)


def test_load_start_reads_a_record_and_gives_its_last_position() -> None:
    game = _mid_game()
    record = KlondikeRecord.from_game(game)
    for text in (str(record), record.to_json()):
        position, found = load_start(text)
        assert position == game.position()
        assert found is not None and found.moves == game.moves and found.variant == game.variant
    assert load_start(write_layout(game.position(), "position")) == (game.position(), None)


def test_load_start_of_a_record_with_an_illegal_move_names_it() -> None:
    text = str(KlondikeRecord.from_game(_mid_game())) + " 6. 1>F\n"
    with pytest.raises(ReplayError, match="move 6"):
        load_start(text)


# ----- the two commands read deals files the same way ----------------------------------------------


@pytest.fixture
def deals_file(tmp_path: Path) -> Path:
    path = tmp_path / "deals.txt"
    path.write_text("# a seed, a deal string, a position string\n2\n"
                    + Position.from_seed(3).deal_string() + "\n" + str(_mid_game().position()) + "\n")
    return path


def test_solve_takes_seeds_deal_strings_and_positions(deals_file: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "solve", "--deals", str(deals_file), "--variant", "thoughtful1",
                       "--max-states", "20000", "--output", str(out))
    assert code == 0, err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row["deal"] for row in rows] == deals_file.read_text().splitlines()[1:]
    assert "3 deals:" in err


def test_simulate_takes_seeds_deal_strings_and_positions(deals_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "--strategy", "greedy", "--deals", str(deals_file),
                         "--no-store", "--workers", "1", "--record", "0", "--json")
    assert code == 0, err
    assert json.loads(out)["games"] == 3


@pytest.mark.parametrize("command", [
    ["solve", "--variant", "thoughtful1"],
    ["simulate", "--no-store", "--workers", "1"],
    ["compare", "priority", "greedy", "--workers", "1"],
])
def test_both_commands_name_the_bad_line(command: list[str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("2\n\nAh Kd\n")
    code, _, err = run(capsys, *command, "--deals", str(bad))
    assert code == 2
    assert err.startswith(f"cardtable: error: {bad}, line 3: deal string") and "Traceback" not in err
