"""The pure parts of the players benchmark's lonelybot peer (benchmarks/players.py,
benchmarks/_peers.py): the player driver's command line, the parsing of what it
prints, and the paired report. The driver need not be built: its outputs are
recorded samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _benchmarks import load_benchmark

from cardtable.klondike import Position

peers = load_benchmark("_peers")
players = load_benchmark("players")

#: What the driver printed for cardtable's deal 3 (lost) and for a won game.
LOST = "Lost\nFoundation 17\nMoves 70\nRun in 26310.353416 ms\nCPU 6.13 s\n"
WON = "Won\nFoundation 52\nMoves 131\nRun in 4030.2 ms\nCPU 3.5 s\n"


def test_player_command() -> None:
    exact = peers.lonelybot_seed(Position.from_seed(3))
    assert peers.lonelybot_play_command("lonelybot-play", Position.from_seed(3), 3, 12) == [
        "lonelybot-play", "hop", "exact", str(exact), "3", "12"]


@pytest.mark.parametrize(("text", "expected"), [
    (LOST, (False, 17, 6.13)),
    (WON, (True, 52, 3.5)),
    ("Won\nFoundation 52\nMoves 90\nRun in 1.0 ms\nCPU unknown\n", (True, 52, None)),
    ("", (None, None, None)),
    ("Crashed\n", (None, None, None)),
    ("Lost\nFoundation x\nCPU many s\n", (False, None, None)),
])
def test_parse_player(text: str, expected: tuple[object, object, object]) -> None:
    assert peers.parse_lonelybot_play(text) == expected


def test_solver_driver_states_line_is_ignored() -> None:
    # lonelybot-solve prints the states it expanded after its verdict.
    assert peers.parse_lonelybot("Run in 0.198 ms\nSolvable in 96 moves\nStates 295\n") == (
        "won", pytest.approx(0.000198))


def _deal(seed: int, expert: bool, peer: bool | None, cpu: float = 2.0) -> object:
    run = peers.PlayerRun(peer, 52 if peer else 10, cpu, cpu * 3, peer is None, 0)
    return players.PairedDeal(seed, expert, 52 if expert else 12, 4.0, run)


def test_paired_report(capsys: pytest.CaptureFixture[str]) -> None:
    played = [_deal(1, True, False), _deal(2, True, True), _deal(3, False, False), _deal(4, True, False),
              _deal(5, False, True, cpu=4.0), _deal(6, False, None)]
    players.report_versus_lonelybot(played, "expert")
    out = capsys.readouterr().out
    assert "deals 1 to 6\n" in out
    assert "no verdict on 1 deal(s)" in out and ": 6\n" in out
    assert "| expert | 5 | 60.00% |" in out
    assert "| lonelybot's player | 5 | 40.00% |" in out
    # five deals: +1, 0, 0, +1, -1 -> mean +0.2
    assert "on the same 5 deals: +20.00%" in out
    assert "Won by the expert only: 2; by lonelybot's player only: 1; by both: 1." in out
    assert "| 2.40 (" in out  # lonelybot's mean CPU: (2 * 4 + 4) / 5


def test_replay_joins_records_of_one_deal_across_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    both = tmp_path / "both.jsonl"
    both.write_text(
        '{"seed": 7, "expert": {"won": true, "foundation": 52, "cpu": 3.0}, '
        '"lonelybot": {"won": false, "foundation": 20, "cpu": 3.5, "seconds": 40.0, "killed": false, "status": 0}}\n'
        '{"seed": 9, "expert": {"won": false, "foundation": 8, "cpu": 1.0}, '
        '"lonelybot": {"won": null, "foundation": null, "cpu": null, "seconds": 900.0, "killed": true, "status": -9}}\n'
        '{"seed": 10, "expert": {"won": false, "foundation": 8, "cpu": 1.0}}\n',
        encoding="utf-8")
    other = tmp_path / "other.jsonl"
    other.write_text('{"seed": 7, "lonelybot": {"won": true, "foundation": 52, "cpu": 2.5}}\n\n', encoding="utf-8")
    played = players.replay_paired([str(both), str(other)])
    assert [d.seed for d in played] == [7, 9]  # 10 has no lonelybot record
    assert played[0].expert_won and played[0].lonelybot.won is True and played[0].lonelybot.cpu_seconds == 2.5
    assert played[1].lonelybot.won is None and played[1].lonelybot.killed
    assert players.main(["--skip-klondike", "--skip-kings-corner", "--paired-replay", str(both)]) == 0
    out = capsys.readouterr().out
    assert "deals 7 to 9 (2 of them)" in out and "no verdict on 1 deal(s)" in out


def test_one_side_alone_writes_its_records_for_the_replay_to_join(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # The expert's side of two deals, played for real with a small expert; the
    # other side's records (here written by hand) are joined by the replay.
    mine = tmp_path / "expert.jsonl"
    assert players.main(["--skip-klondike", "--skip-kings-corner", "--expert", "expert samples=4 states=2000",
                         "--paired-side", "expert", "--paired-deals", "2", "--paired-seed", "41",
                         "--paired-jsonl", str(mine)]) == 0
    records = [json.loads(line) for line in mine.read_text(encoding="utf-8").splitlines()]
    assert [record["seed"] for record in records] == [41, 42]
    assert all(set(record) == {"seed", "expert"} for record in records)
    assert "expert's games written to" in capsys.readouterr().out
    theirs = tmp_path / "lonelybot.jsonl"
    theirs.write_text("".join(json.dumps({"seed": seed, "lonelybot": {"won": True, "foundation": 52, "cpu": 2.0}})
                              + "\n" for seed in (41, 42)), encoding="utf-8")
    played = players.replay_paired([str(mine), str(theirs)])
    assert [deal.seed for deal in played] == [41, 42]
    assert [deal.expert_won for deal in played] == [record["expert"]["won"] for record in records]


def test_replay_refuses_a_malformed_record_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seed": 7, "expert": {"won": true}}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="line 1"):
        players.replay_paired([str(bad)])
    assert players.main(["--skip-klondike", "--skip-kings-corner", "--paired-replay", str(bad)]) == 2
    assert players.main(["--skip-klondike", "--skip-kings-corner", "--paired-replay", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "bad.jsonl, line 1" in err


@pytest.mark.parametrize(("args", "word"), [
    (["--lonelybot-player", "/no/such/lonelybot-play"], "--lonelybot-player"),
    (["--lonelybot-player", "/bin/sh", "--paired-deals", "0"], "--paired-deals"),
    (["--lonelybot-player", "/bin/sh", "--paired-budget", "-1"], "--paired-budget"),
    (["--paired-side", "expert"], "--paired-jsonl"),
    (["--paired-side", "lonelybot", "--paired-jsonl", "x.jsonl"], "--lonelybot-player"),
])
def test_bad_arguments_are_one_line(args: list[str], word: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert players.main(["--skip-klondike", "--skip-kings-corner", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and word in err
