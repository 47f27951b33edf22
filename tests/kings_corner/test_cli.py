"""``cardtable kings-corner``: match, record, replay; bad input exits 2 with a reason."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.cli import main
from cardtable.kings_corner import HandRecord


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["kings-corner", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_match_text_report(capsys) -> None:
    status, out, _ = run(capsys, "match", "--players", "greedy,random", "--games", "30",
                         "--workers", "1", "--seed", "2")
    assert status == 0
    assert "30 hands, 2 players, seed 2" in out
    assert "1. greedy" in out and "2. random" in out and "95% interval" in out
    assert "matches to 25 points" in out


def test_match_json_is_the_same_for_any_workers(capsys) -> None:
    args = ["match", "--players", "strategic,greedy,random", "--games", "18", "--json",
            "--seed", "9"]
    status, out, _ = run(capsys, *args, "--workers", "1")
    assert status == 0
    one = json.loads(out)
    _, out, _ = run(capsys, *args, "--workers", "2")
    two = json.loads(out)
    one.pop("seconds")
    two.pop("seconds")
    assert one == two
    assert one["games"] == 18 and len(one["entries"]) == 3 and one["interrupted"] is False
    assert sum(e["wins"] for e in one["entries"]) + one["stalemates"] == 18
    for entry in one["entries"]:
        low, high = entry["win_rate_95"]
        assert low <= entry["win_rate"] <= high


@pytest.mark.parametrize(("argv", "message"), [
    (["match", "--players", "greedy,wizard"], "unknown bot 'wizard'"),
    (["match", "--players", "greedy"], "2 to 6 players"),
    (["record", "--players", "greedy,greedy,greedy,greedy,greedy,greedy,greedy"], "2 to 6"),
    (["play", "--level", "genius"], "unknown bot 'genius'"),
    (["play", "--opponents", "6"], "1 to 5 opponents"),
])
def test_bad_options_exit_2(capsys, argv: list[str], message: str) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert err.startswith("cardtable: error: ") and message in err
    assert "Traceback" not in err


def test_record_then_replay(capsys, tmp_path: Path) -> None:
    path = tmp_path / "hand.kc"
    status, _, _ = run(capsys, "record", "--players", "strategic,greedy,random", "--seed", "4",
                       "--hand", "2", "--out", str(path))
    assert status == 0
    record = HandRecord.from_text(path.read_text())
    assert record.tag("Names") is not None and record.replay().is_over()
    assert [p.name for p in tmp_path.iterdir()] == ["hand.kc"]  # no temporary left
    status, out, _ = run(capsys, "replay", str(path), "--board")
    assert status == 0
    turns = re.findall(r"^turn (\d+):", out, re.MULTILINE)
    assert turns[0] == "1"
    won = re.search(r"wins in turn (\d+);", out)
    assert won is not None and won.group(1) == turns[-1]  # the winner wins during the last turn shown
    tail = out[out.rindex("turn " + turns[-1] + ":"):]
    assert tail.count("deck ") == 1  # the final table once, not twice
    status, out, _ = run(capsys, "record", "--seed", "4", "--json")
    assert HandRecord.from_json(out).players == 4
    json_path = tmp_path / "hand.json"
    json_path.write_text(out)
    assert run(capsys, "replay", str(json_path))[0] == 0


def test_replay_of_a_bad_record_names_the_line(capsys, tmp_path: Path) -> None:
    path = tmp_path / "bad.kc"
    path.write_text('[Game "Kings Corner"]\n[Players "2"]\n[Deck "Ah Zq"]\n')
    status, _, err = run(capsys, "replay", str(path))
    assert status == 2
    assert "bad.kc: line 3: Deck: card 2: unknown card 'Zq'" in err
    status, _, err = run(capsys, "replay", str(tmp_path / "missing.kc"))
    assert status == 2 and err == f"cardtable: error: {tmp_path / 'missing.kc'}: no such file\n"


def test_no_subcommand_is_an_error_in_one_line(capsys) -> None:
    status, out, err = run(capsys)
    assert (status, out) == (2, "")
    assert err == ("cardtable: error: choose a kings-corner command: match, play, record, replay "
                   "(see 'cardtable kings-corner --help')\n")


def test_play_driven_by_piped_input(tmp_path: Path) -> None:
    saved = tmp_path / "hand.kc"
    result = subprocess.run(
        [sys.executable, "-m", "cardtable", "kings-corner", "play", "--seed", "5", "--opponents", "2",
         "--level", "greedy", "--delay", "0", "--ascii", "--save", str(saved)],
        input="h\nzz\nd\nq\n", capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "Commands" in result.stdout and "'zz' is not a command" in result.stdout
    assert "You drew" in result.stdout and "You left the table." in result.stdout
    record = HandRecord.from_text(saved.read_text())
    assert record.players == 3 and record.actions
