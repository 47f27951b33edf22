"""``--game`` in ``deal``, ``show``, ``replay`` and ``simulate``; patience game
records and position strings round-trip for every shipped game."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import SplitMix64
from cardtable.patience import PatienceGame, get, load, names
from cardtable.patience.position import read_position, write_position
from cardtable.patience.record import PatienceRecord

GAMES = names()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 150))
def test_a_record_of_random_play_reads_back_and_replays_to_the_same_game(name: str, seed: int, moves: int) -> None:
    description = get(name)
    game = PatienceGame.from_seed(description, seed)
    rng = SplitMix64(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[rng.below(len(legal))])
    record = PatienceRecord.from_game(game, seed, Player="random")
    for text in (str(record), record.to_json()):
        again = PatienceRecord.parse(text)
        assert again.description == description and again.moves == game.moves
        assert again.headers == {"Player": "random"}
        assert (json.loads(text)["result"] if text.startswith("{") else "") in ("", str(record).split('"')[7])
        assert again.replay().key() == game.key()
    # the position string of the position reached reads back to it, and a record can start there
    position = write_position(game)
    assert read_position(description, position).key() == game.key()
    mid = PatienceRecord(description, position=position)
    assert PatienceRecord.parse(str(mid)).replay().key() == game.key()


def test_a_users_game_is_carried_in_its_record(tmp_path: Path) -> None:
    data = json.loads(get("freecell").dumps())
    data["name"], data["cells"]["count"] = "freecell-2-cells", 2
    path = tmp_path / "two.json"
    path.write_text(json.dumps(data))
    game = PatienceGame.from_seed(load(str(path)), "ms:5")
    game.play(game.legal_moves()[0])
    text = str(PatienceRecord.from_game(game, "ms:5"))
    assert '[Description "{' in text
    path.unlink()  # the record replays without the file
    assert PatienceRecord.parse(text).replay().key() == game.key()


def test_deal_with_a_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "deal", "--game", "freecell", "--seed", "ms:11982", "--format", "pysol")
    _, board, _ = run(capsys, "games", "freecell", "--deal", "ms:11982", "--format", "pysol")
    assert code == 0 and out == board and out.splitlines()[2] == "AH 3D KD JC 6C JD KC"
    code, out, _ = run(capsys, "deal", "--game", "freecell", "--seed", "ms:11982")
    expected = PatienceGame.from_seed(get("freecell"), "ms:11982")
    assert code == 0 and read_position(get("freecell"), out).key() == expected.key()
    # a position string and a PySol board read back through --file
    (tmp_path / "deal.txt").write_text(out)
    (tmp_path / "board.txt").write_text(board)
    for name in ("deal.txt", "board.txt"):
        code, again, _ = run(capsys, "deal", "--game", "freecell", "--file", str(tmp_path / name))
        assert code == 0 and again == out
    code, out, _ = run(capsys, "deal", "--game", "golf:wrap", "--seed", "pysol:3", "-o", str(tmp_path / "g.txt"))
    assert code == 0 and (tmp_path / "g.txt").read_text().startswith("1:")


def test_klondike_stays_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (("deal", "--seed", "5"), ("deal", "--seed", "5", "--format", "pysol"),
                    ("show", "--ascii", "8s Ks 4s 9h 6c 6d 5d 9s Jh 7h 6h Ts 2c 9c Tc 2d Ac Qs 7s 9d 3s 6s Kc 8c Th "
                     "2s 8d 8h Td Qd 5s Kd 3h 2h 4d Qc 7c 7d Ah 4c 5h As 4h 5c 3d Jd Kh Qh 3c Ad Js Jc")):
        plain = run(capsys, *command)
        assert plain[0] == 0 and run(capsys, *command, "--game", "klondike") == plain


def test_show_draws_any_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "show", "--game", "spider-1-suit", "7", "--ascii")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:2] == ["S", "F1"]
    assert not any(symbol in out for symbol in "♠♥♦♣")
    # Klondike's rules, by name and options, take Klondike's own path
    assert run(capsys, "show", "--game", "klondike:draw-3", "7", "--ascii") == run(capsys, "show", "--variant",
                                                                                  "draw3", "7", "--ascii")
    code, out, _ = run(capsys, "show", "--game", "freecell", "ms:1", "--color", "always")
    assert code == 0 and "♦" in out and "\x1b[31m" in out
    record = tmp_path / "golf.txt"
    code, _, _ = run(capsys, "games", "golf", "--deal", "4", "--play", "greedy", "-o", str(record))
    code, out, _ = run(capsys, "show", str(record))  # a patience record names its game
    assert code == 0 and out.splitlines()[-1].startswith("after ") and "cards home" in out


def test_replay_checks_every_move(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "fc.txt"
    code, _, _ = run(capsys, "games", "freecell", "--deal", "ms:11982", "--play", "greedy", "-o", str(path))
    moves = PatienceRecord.parse(path.read_text()).moves
    code, out, _ = run(capsys, "replay", str(path), "-q")
    game = PatienceGame.from_seed(get("freecell"), "ms:11982")
    for move in moves:
        game.play(move)
    home = game.foundation_cards()
    outcome = game.outcome()
    assert code == 0 and out == (f"fc.txt: all {len(moves)} moves legal; FreeCell, {home} card{'s' * (home != 1)} "
                                 f"home; {outcome.value if outcome else 'game in progress'}\n")
    assert run(capsys, "replay", str(path), "--game", "freecell", "-q")[1] == out
    json_path = tmp_path / "fc.json"
    code, _, _ = run(capsys, "games", "freecell", "--deal", "ms:11982", "--play", "greedy", "-o", str(json_path))
    assert code == 0 and run(capsys, "replay", str(json_path), "-q")[1] == out.replace("fc.txt", "fc.json")
    bad = tmp_path / "bad.txt"
    bad.write_text(path.read_text().replace("3. 7>8", "3. 1>2"))
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2 and err.strip().splitlines() == [
        "cardtable: error: move 3 (1>2) is illegal: Qd does not go on pile 2 now"]
    code, _, err = run(capsys, "replay", str(path), "--game", "golf")
    assert code == 2 and "a record of freecell, not of golf" in err
    code, _, err = run(capsys, "replay", str(path), "--game", "klondike")  # a patience record, not Klondike's
    assert code == 2 and "a record of freecell, not of klondike" in err


def test_simulate_a_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "simulate", "--game", "golf", "--strategy", "random", "--games", "30", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 30 and data["game"] == "golf" and data["strategy"] == "random"
    assert data["foundation_low"] <= data["foundation_mean"] <= data["foundation_high"]
    assert "net_total" not in data
    code, out, _ = run(capsys, "simulate", "--game", "accordion", "--games", "3", "--json")
    data = json.loads(out)
    assert code == 0 and 1 <= data["piles_left_low"] <= data["piles_left_mean"] <= 52 and "foundation_mean" not in data
    output = tmp_path / "games.jsonl"
    code, out, _ = run(capsys, "simulate", "--game", "freecell", "--games", "5", "--seed", "ms:100", "--record",
                       "1", "--output", str(output))
    assert code == 0 and out.startswith("Game 1 (FreeCell, seed ms:100), strategy greedy\n[Game \"FreeCell\"]")
    assert "games played       5\n" in out and "games won          " in out and "foundation cards   " in out
    lines = output.read_text().splitlines()
    assert len(lines) == 5
    for number, line in enumerate(lines):
        game = PatienceRecord.parse(line).replay()
        assert json.loads(line)["seed"] == f"ms:{100 + number}"
        assert str(game.foundation_cards()) == json.loads(line)["headers"]["FoundationCards"]
    # the games are the same from one run to the next
    assert run(capsys, "simulate", "--game", "freecell", "--games", "5", "--seed", "ms:100", "--record", "1")[1] \
        .split("games played")[0] == out.split("games played")[0]


@pytest.mark.parametrize(("args", "message"), [
    (("deal", "--game", "freecel", "--seed", "1"), "unknown game 'freecel'; did you mean freecell?"),
    (("deal", "--game", "spider", "--seed", "ms:3"), "spider has no Microsoft deal numbers (ms:N)"),
    (("deal", "--seed", "ms:3"), "Klondike has no ms:N deal numbers"),
    (("deal", "--game", "freecell", "--seed", "xx:3"), "a seed is a whole number, ms:N or pysol:N"),
    (("deal", "--game", "freecell"), "say which deal of FreeCell"),
    (("deal", "--game", "golf", "--seed", "3", "--draw", "3"), "--draw is a Klondike option"),
    (("show", "--game", "golf", "1:AsKs"), "position string: pile 2 is missing"),
    (("show", "--game", "golf", "nothing"), "no such file"),
    (("simulate", "--game", "golf", "--resume", "3", "--store", "x.sqlite"), "x.sqlite: no results store there"),
    (("simulate", "--game", "golf", "--force"), "--force only goes with --resume RUN"),
    (("simulate", "--game", "golf", "--strategy", "priority"), "Golf is played by random, greedy or expert"),
    (("simulate", "--game", "golf", "--seed", "ms:2"), "golf has no Microsoft deal numbers"),
    (("games", "golf", "-o", "x.txt"), "--output writes a bot's game"),
    (("deal", "--game", "golf", "--winnable"), "--winnable goes with --seed N"),
    (("deal", "--game", "golf", "--file", "x.txt", "--difficulty", "easy"), "not with --daily, --winnable or --file"),
    (("simulate", "--game", "golf", "--deals", "x.txt"), "--deals goes with Klondike only"),
    (("compare", "random", "priority", "--game", "golf"), "Golf is played by random, greedy or expert"),
    (("compare", "random", "greedy", "--game", "golf", "--workers", "2"), "--workers goes with Klondike only"),
    (("compare", "random", "greedy", "--game", "golf", "--draw", "3"), "--draw is a Klondike option"),
    (("compare", "random", "greedy", "--seed", "ms:3"), "Klondike has no ms:N deal numbers"),
])
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_a_klondike_record_with_a_rules_header_stays_klondikes(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    from cardtable.klondike import KlondikeGame, KlondikeRecord, Variant

    game = KlondikeGame.from_seed(3, Variant.preset("draw1"))
    game.play(game.legal_moves()[0])
    record = KlondikeRecord.from_game(game, Rules="house rules")
    for name, text in (("k.txt", str(record)), ("k.json", record.to_json())):
        (tmp_path / name).write_text(text)
        code, out, err = run(capsys, "replay", str(tmp_path / name), "-q")
        assert code == 0 and out.startswith(f"{name}: 1 move legal;"), err


def test_a_seed_and_a_position_must_agree() -> None:
    game = PatienceGame.from_seed(get("golf"), 4)
    text = str(PatienceRecord.from_game(game, 4))
    both = text.replace('[Seed "4"]', f'[Seed "4"]\n[Position "{write_position(game)}"]')
    assert PatienceRecord.parse(both).replay().key() == game.key()
    other = write_position(PatienceGame.from_seed(get("golf"), 5))
    with pytest.raises(ValueError, match="the Seed and Position headers give different starts"):
        PatienceRecord.parse(text.replace('[Seed "4"]', f'[Seed "4"]\n[Position "{other}"]'))


def test_simulate_a_game_stopped_by_sigterm_reports_and_keeps_the_games_that_finished(tmp_path: Path) -> None:
    import re
    import signal
    import time

    from faults.fault_helpers import finish, start

    output = tmp_path / "out" / "games.jsonl"
    output.parent.mkdir()
    process = start(tmp_path, "simulate", "--game", "spider", "--strategy", "random", "--games", "100000",
                    "--record", "3", "--output", str(output))
    deadline = time.monotonic() + 60

    def cpu_seconds() -> float:  # the command's own time: some games have finished by 4 s of it
        fields = Path(f"/proc/{process.pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    while cpu_seconds() < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGTERM)
    stdout, stderr = finish(process)
    assert process.returncode == 143, stderr
    kept = re.fullmatch(r"cardtable: interrupted by SIGTERM: (?:kept the ([\d,]+) of 100,000 games that finished|"
                        r"no game of 100,000 finished); finish it with 'cardtable simulate --resume 1'\n", stderr)
    assert kept is not None, stderr
    played = int((kept.group(1) or "0").replace(",", ""))
    assert "[Game" not in stdout  # stopped: the summary only
    assert played > 0 and f"games played       {played:,}\n" in stdout
    assert len(output.read_text().splitlines()) == played


def test_compare_plays_the_same_deals_with_each_patience_player(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "random", "greedy", "--game", "tripeaks", "--games", "12", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["game"] == "tripeaks" and result["games"] == 12
    first, second = result["strategies"]
    assert [first["strategy"], second["strategy"]] == ["random", "greedy"]
    assert "diff_win_rate" not in first
    assert second["diff_win_rate"] == pytest.approx(second["win_rate"] - first["win_rate"])
    assert second["diff_foundation"] == pytest.approx(second["foundation_mean"] - first["foundation_mean"])
    code, text, _ = run(capsys, "compare", "random", "greedy", "--game", "tripeaks", "--games", "12")
    assert code == 0 and "12 deals of TriPeaks" in text and "paired, game by game, against random" in text
    assert f"{100 * second['win_rate']:.1f}%" in text


def test_simulate_a_game_with_the_expert(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--game", "bakers-game", "--strategy", "expert", "--games", "3",
                       "--no-store", "--json")
    data = json.loads(out)
    assert code == 0 and data["strategy"] == "expert" and data["games"] == 3
    # Baker's Game shows every card: the expert's one search is the solver's, which wins deals 1 and 3
    assert data["won"] >= 2


@pytest.mark.slow
@pytest.mark.parametrize("name", [*names(), *(f"{n}:{option.name}" for n in names() for option in get(n).options)])
def test_compare_plays_every_game_and_option_with_the_three_players(capsys: pytest.CaptureFixture[str],
                                                                      name: str) -> None:
    code, out, err = run(capsys, "compare", "random", "greedy", "expert", "--game", name, "--games", "1", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert [row["strategy"] for row in result["strategies"]] == ["random", "greedy", "expert"]
    assert all(row["games"] == 1 for row in result["strategies"])
