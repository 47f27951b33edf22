"""Games chosen by their rules, not their names (Klondike's rules take
Klondike's own path, however they are named), and runs of every patience game
stored by game and rules: listed, shown, resumed, and kept apart from a
user's game of the same name under other rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.patience import get

#: The figures of a simulation that do not depend on the time it took.
FIGURES = ("games", "won", "win_rate", "foundation_mean", "foundation_low", "foundation_high")


def _figures(out: str) -> dict[str, object]:
    data = json.loads(out)
    return {name: data[name] for name in FIGURES}


def _described(tmp_path: Path, file_name: str, **changes: object) -> Path:
    """The shipped ``klondike`` description saved as a user's file, with some changes."""
    data = get("klondike").to_json()
    for path, value in changes.items():
        node = data
        *parents, last = path.split("__")
        for part in parents:
            node = node[part]
        node[last] = value
    file = tmp_path / f"{file_name}.json"
    file.write_text(json.dumps(data))
    return file


def test_a_klondike_file_takes_klondikes_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, text, _ = run(capsys, "games", "klondike", "--json")
    saved = tmp_path / "mine.json"
    saved.write_text(text)
    simulate = ("simulate", "--games", "20", "--record", "0", "--no-store", "--workers", "1")
    for command in (("show", "7", "--ascii"), ("deal", "--seed", "5"), ("deal", "--seed", "5", "--format", "pysol"),
                    (*simulate, "--strategy", "greedy", "--json")):
        plain = run(capsys, *command)
        named = run(capsys, *command, "--game", "klondike")
        filed = run(capsys, *command, "--game", str(saved))
        assert plain[0] == 0 and (command[0] == "simulate" or named == filed == plain), command
    # the Klondike path: its own variant in the summary, the same games as without --game
    plain, named, filed = (json.loads(run(capsys, *simulate, "--json", *game)[1])
                           for game in ((), ("--game", "klondike"), ("--game", str(saved))))
    assert named["variant"] == filed["variant"] == plain["variant"]  # the strategy's own, as without --game
    assert _figures(json.dumps(named)) == _figures(json.dumps(filed)) == _figures(json.dumps(plain))
    # draw 3 by an option, by a file and by Klondike's own flag: the same games
    draw3 = _described(tmp_path, "mine-3", stock__draw=3)
    by_option = run(capsys, *simulate, "--json", "--game", "klondike:draw-3")
    by_file = run(capsys, *simulate, "--json", "--game", str(draw3))
    by_flag = run(capsys, *simulate, "--json", "--variant", "draw3")
    assert json.loads(by_option[1])["variant"]["name"] == "draw3"
    assert _figures(by_option[1]) == _figures(by_file[1]) == _figures(by_flag[1])
    assert run(capsys, "show", "--game", str(draw3), "7") == run(capsys, "show", "--variant", "draw3", "7")


def test_klondike_with_eight_columns_is_another_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    eight = _described(tmp_path, "eight", name="klondike-8", tableau__count=8)
    data = json.loads(eight.read_text())
    data["deal"][0]["cards"], data["deal"][0]["face-down"] = list(range(1, 9)), list(range(8))
    eight.write_text(json.dumps(data))
    code, out, err = run(capsys, "simulate", "--game", str(eight), "--games", "4", "--no-store", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["game"] == "klondike-8" and summary["games"] == 4, err  # the engine's summary
    code, out, _ = run(capsys, "show", "--game", str(eight), "3", "--ascii")
    assert code == 0 and out.splitlines()[0].split() == ["S", "W", "F1", "F2", "F3", "F4"]  # the engine's layout
    assert out.splitlines()[3].split() == [str(column) for column in range(1, 9)]  # eight columns


@pytest.mark.parametrize(("args", "message"), [
    (("simulate", "--game", "klondike:draw-3", "--draw", "1"),
     "--draw: --game 'klondike:draw-3' gives Klondike's rules already (draw 3, unlimited passes, kings in empty "
     "piles, no foundation return); leave out --draw"),
    (("deal", "--game", "klondike:one-pass", "--variant", "draw3", "--seed", "3"),
     "--variant: --game 'klondike:one-pass' gives Klondike's rules already"),
])
def test_rules_given_twice_are_one_line(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                        message: str) -> None:
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1 and message in err, err


def _interrupt_at(monkeypatch: pytest.MonkeyPatch, game: int) -> None:
    """Ctrl-C as game ``game`` (from 0) of the next simulation is played."""
    import cardtable.game

    play_out, calls = cardtable.game.play_out, []

    def stopping(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == game + 1:
            raise KeyboardInterrupt
        return play_out(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cardtable.game, "play_out", stopping)


def test_a_stopped_run_of_a_patience_game_is_stored_and_finished(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    store = str(tmp_path / "s.sqlite")
    whole = tmp_path / "whole.jsonl"
    code, out, _ = run(capsys, "simulate", "--game", "golf:wrap", "--games", "30", "--record", "2", "--output",
                       str(whole), "--store", store, "--json")
    unbroken = json.loads(out)
    assert code == 0 and unbroken["run"] == 1
    broken = tmp_path / "broken.jsonl"
    _interrupt_at(monkeypatch, 12)
    code, out, err = run(capsys, "simulate", "--game", "golf:wrap", "--games", "30", "--record", "2", "--output",
                         str(broken), "--store", store, "--json")
    assert code == 130 and err == ("cardtable: interrupted: kept the 12 of 30 games that finished; finish it with "
                                   f"'cardtable simulate --resume 2 --store {store}'\n")
    monkeypatch.undo()
    assert len(broken.read_text().splitlines()) == 12
    code, out, _ = run(capsys, "runs", "--store", store, "--json")
    assert [(r["id"], r["game"], r["status"], r["games_played"]) for r in json.loads(out)] == [
        (2, "golf", "interrupted", 12), (1, "golf", "finished", 30)]
    assert json.loads(out)[0]["rules"] == get("golf").with_options("wrap").rules_key
    code, out, err = run(capsys, "simulate", "--resume", "2", "--store", store)
    assert code == 0, err
    assert "resumed run 2: 12 games were stored, 18 played now\n" in out and out.startswith("Game 1 (Golf, seed 1)")
    assert broken.read_text() == whole.read_text()  # every game's record, the stored ones too
    code, out, _ = run(capsys, "runs", "show", "2", "--store", store)
    assert code == 0 and out.splitlines()[:3] == [
        "run 2: simulate greedy on Golf (golf:wrap)", out.splitlines()[1], "deals: seeds from 1"]
    assert f"won {unbroken['won']:,} of 30" in out and "foundation cards " in out
    code, out, _ = run(capsys, "runs", "show", "2", "--store", store, "--json")
    assert _figures(json.dumps(json.loads(out)["summary"])) == _figures(json.dumps(unbroken))


def test_a_users_game_of_a_registry_name_is_kept_apart(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    store = str(tmp_path / "s.sqlite")
    data = get("freecell").to_json()
    data["cells"]["count"] = 2
    two = tmp_path / "freecell.json"
    two.write_text(json.dumps(data))  # named freecell too
    for game in ("freecell", str(two)):
        code, _, err = run(capsys, "simulate", "--game", game, "--games", "3", "--seed", "ms:5", "--record", "0",
                           "--store", store, "--json")
        assert code == 0, err
    run(capsys, "simulate", "--game", "golf", "--games", "3", "--record", "0", "--store", store)
    run(capsys, "simulate", "--games", "3", "--record", "0", "--store", store, "--workers", "1")

    def listed(*game: str) -> list[int]:
        code, out, err = run(capsys, "runs", "--store", store, "--json", *game)
        assert code == 0, err
        return [entry["id"] for entry in json.loads(out)]

    assert listed() == [4, 3, 2, 1]
    assert listed("--game", "freecell") == [1] and listed("--game", str(two)) == [2]
    assert listed("--game", "golf") == [3] and listed("--game", "golf:wrap") == []
    assert listed("--game", "klondike") == [4] and listed("--game", "klondike:draw-3") == []
    code, out, _ = run(capsys, "runs", "--store", store, "--game", "spider")
    assert (code, out) == (0, "no runs of spider yet\n")
    # a resume names the run's game, or none
    code, out, err = run(capsys, "simulate", "--resume", "2", "--game", "freecell", "--store", store)
    rules = (get("freecell").rules_key, json.loads(run(capsys, "runs", "--store", store, "--json")[1])[2]["rules"])
    assert rules[0] != rules[1]
    assert (code, out) == (2, "") and err == (
        f"cardtable: error: --game 'freecell': run 2 is a run of freecell (rules {rules[1]}), not of freecell "
        f"(rules {rules[0]}); leave out --game to finish it\n")
    code, _, err = run(capsys, "simulate", "--resume", "4", "--game", "golf", "--store", store)
    assert code == 2 and err == ("cardtable: error: --game 'golf': run 4 is a run of klondike, not of golf; leave "
                                 "out --game to finish it\n")
    code, out, err = run(capsys, "simulate", "--resume", "2", "--game", str(two), "--store", store, "--json")
    assert code == 0 and json.loads(out)["games"] == 3, err  # its own game: taken up (nothing left to play)


def test_a_resume_of_another_kind_of_run_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from cardtable.runs.store import ResultsStore

    store = tmp_path / "s.sqlite"
    with ResultsStore(store) as opened:
        opened.start_run(kind="kings-corner", game="kings-corner", rules="{}", strategy="greedy,random",
                         variant={"name": "kings-corner"}, seed=1, deals_file=None, games=2, params={})
    for args in (("--game", "golf"), ()):
        code, out, err = run(capsys, "simulate", "--resume", "1", *args, "--store", str(store))
        assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1, err
    assert "run 1 is a run of kings-corner, not of golf" in run(capsys, "simulate", "--resume", "1", "--game", "golf",
                                                                 "--store", str(store))[2]
    assert "run 1 is a kings-corner run, not a simulate run" in err


def test_stats_of_one_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import shutil

    store = tmp_path / "results.sqlite"
    shutil.copyfile(Path(__file__).resolve().parent.parent / "data" / "store_v6" / "results.sqlite", store)
    code, out, _ = run(capsys, "stats", "--game", "klondike:draw-3", "--store", str(store), "--json")
    assert code == 0 and [row["variant"] for row in json.loads(out)] == ["draw3"]
    everything = run(capsys, "stats", "--store", str(store), "--json")
    assert run(capsys, "stats", "--game", "klondike", "--store", str(store), "--json") == everything
    assert run(capsys, "stats", "--game", "kings-corner", "--store", str(store)) == run(
        capsys, "stats", "kings-corner", "--store", str(store))
    (tmp_path / "golf-stats.json").write_text(json.dumps({"played": 3, "won": 1, "streak": 0, "best_streak": 1,
                                                          "fastest": 95.0, "fewest": 40}))
    code, out, _ = run(capsys, "stats", "--game", "golf", "--store", str(store))
    assert code == 0 and out.splitlines()[0] == "Golf: 3 played, 1 won (33%)"
    code, out, err = run(capsys, "stats", "--game", "golf", "--draw", "3", "--store", str(store))
    assert (code, out) == (2, "") and "--draw is a Klondike option" in err


@pytest.mark.parametrize(("game", "expected"), [("klondike:draw-3", "draw3"), ("klondike:one-pass", "custom"),
                                                ("golf", None)])
def test_play_chooses_klondikes_app_by_the_rules(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                                 game: str, expected: str | None) -> None:
    from cardtable.cli import _options
    from cardtable.cli import play as play_command

    chosen: list[object] = []

    def klondike(args: object) -> None:
        chosen.append(_options.variant_from_args(args))  # type: ignore[arg-type]
        raise SystemExit(7)  # Klondike's app would open here

    def patience(args: object) -> int:
        chosen.append("patience")
        return 0

    monkeypatch.setattr(play_command, "_check_klondike", klondike)
    monkeypatch.setattr(play_command, "_cmd_patience", patience)
    code, _, err = run(capsys, "play", game, "--no-autosave", "--no-stats")
    if expected is None:
        assert (code, chosen) == (0, ["patience"])
    else:
        (variant,) = chosen
        assert code == 7 and variant.label.startswith(expected), err  # type: ignore[attr-defined]
        assert (variant.draw, variant.passes) == ((3, None) if "draw" in game else (1, 1))  # type: ignore[attr-defined]
