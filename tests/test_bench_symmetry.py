"""benchmarks/solver_symmetry.py: the namings of the suits that keep the
colours apart give the same game, and the report counts runs against
themselves and against lonelybot as it says. lonelybot need not be built:
its part of the report is tested on made-up runs."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
from _benchmarks import load_benchmark

from cardtable.cards import Card, Suit
from cardtable.klondike import KlondikeGame, Position, Variant
from cardtable.solver import solve

symmetry = load_benchmark("solver_symmetry")


def test_the_eight_namings_keep_the_colours_apart() -> None:
    namings = symmetry.namings()
    assert len(namings) == len(set(namings)) == 8
    assert namings[0] == tuple(Suit)
    for naming in namings:
        assert sorted(naming) == list(Suit)
        # two suits of one colour stay of one colour: building in alternating colours is unchanged
        assert naming[Suit.CLUBS].colour == naming[Suit.SPADES].colour
        assert naming[Suit.DIAMONDS].colour == naming[Suit.HEARTS].colour


def test_a_naming_that_mixes_the_colours_is_refused() -> None:
    with pytest.raises(ValueError, match="cdsh is not a naming that keeps the colours apart"):
        symmetry.renamed(Position.from_seed(1), (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS))


@pytest.mark.parametrize("draw", [1, 3])
def test_a_renamed_deal_is_the_same_game(draw: int) -> None:
    """A win of the deal, its foundation cards' suits renamed, wins the renamed deal move for move."""
    variant = Variant.preset(f"thoughtful{draw}")
    position = Position.from_seed(6026001)
    result = solve(position, variant)
    assert result.result == "won"
    for naming in symmetry.namings()[1:]:
        other = symmetry.renamed(position, naming)
        assert other != position
        game = KlondikeGame(other, variant)
        for move in result.moves:
            game.play(dataclasses.replace(move, suit=None if move.suit is None else naming[move.suit]))
        assert game.is_won()


def test_foundations_are_renamed_with_their_suits() -> None:
    ace = Card(1, Suit.CLUBS)
    seed = next(seed for seed in range(100) if ace in Position.from_seed(seed).stock)
    dealt = Position.from_seed(seed)
    position = dataclasses.replace(dealt, stock=tuple(c for c in dealt.stock if c != ace), foundation=(1, 0, 0, 0))
    swap = symmetry.namings()[-1]  # shdc: clubs and spades swapped, diamonds and hearts
    assert symmetry.name(swap) == "shdc"
    other = symmetry.renamed(position, swap)
    assert other.foundation == (0, 0, 0, 1)
    assert Card(1, Suit.SPADES) not in other.stock and ace in other.stock + other.waste + tuple(
        c for pile in other.tableau for c in pile)
    assert symmetry.renamed(other, swap) == position


def test_parse_states() -> None:
    peers = load_benchmark("_peers")
    assert peers.parse_lonelybot_states("Run in 1.5 ms\nImpossible\nStates 26318\n") == 26318
    assert peers.parse_lonelybot_states("Run in 1.5 ms\nImpossible\n") is None
    assert peers.parse_lonelybot_states("States many\n") is None


def _runs(*times: float, verdict: str = "won") -> list[object]:
    return [symmetry.Run(verdict, t, t / 2, 100) for t in times]


def test_the_report_counts_runs_against_themselves_and_against_lonelybot() -> None:
    names = ["cdhs", "chds", "dcsh"]
    # cardtable: deal 1 even on every naming; deal 2 four times slower renamed once
    cardtable = [_runs(0.010, 0.011, 0.009), _runs(0.010, 0.040, 0.010)]
    # lonelybot (whole process; its own clock half of it): deal 1 a line found at once as dealt only
    lonelybot = [_runs(0.002, 0.020, 0.030), _runs(0.010, 0.010, 0.012)]
    assert symmetry.against_itself(lonelybot, 3.0, "own") == (1, 1, 2, pytest.approx(5.6), pytest.approx(13.5))
    assert symmetry.against_itself(cardtable, 3.0, "own")[:3] == (1, 1, 1)
    text = symmetry.report("draw3", [1, 2], names, cardtable, lonelybot, 3.0)
    assert "verdicts that differ between namings or solvers: 0 deals; runs undecided: 0" in text
    assert "| lonelybot (own clock) | 1 | 1 | 2 of 4 |" in text
    assert "| cardtable (in this process) | 1 | 1 | 1 of 4 |" in text
    against, itself = text.split("lonelybot's search on each renamed deal")
    # as dealt, cardtable's 10 ms is over 3x lonelybot's 2 ms whole process (and its 1 ms own clock)
    assert "| cdhs | 1 | 1 | 0 |" in against
    # renamed chds: cardtable's 40 ms on deal 2 against lonelybot's 10 ms whole process and 5 ms own clock
    assert "| chds | 1 | 1 | 1 |" in against
    # lonelybot's own search (its own clock) on chds judged against lonelybot as dealt: deal 1's 10 ms
    # against 2 ms (its whole process) and 1 ms (its own clock), under 10 ms; its mean 7.5 ms
    assert "| chds | 1 | 1 | 0 | 7.5 |" in itself
    # and on dcsh: deal 1's 15 ms, over 10 ms too
    assert "| dcsh | 1 | 1 | 1 | 10.5 |" in itself


def test_a_verdict_that_differs_between_namings_is_listed() -> None:
    cardtable = [_runs(0.01, 0.01)]
    lonelybot = [[symmetry.Run("won", 0.01, 0.005, 10), symmetry.Run("unwinnable", 0.01, 0.005, 10)]]
    text = symmetry.report("draw1", [7], ["cdhs", "chds"], cardtable, lonelybot, 3.0)
    assert "verdicts that differ between namings or solvers: 1 deals" in text
    assert "  7: cdhs: won/won, chds: won/unwinnable" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--namings", "1"], "--namings 1: 2 to 8"),
    (["--namings", "9"], "--namings 9: 2 to 8"),
    (["--deals", "0"], "--deals 0: at least 1"),
    (["--factor", "0"], "--factor 0: more than 0"),
    (["--timeout", "-1"], "--timeout -1: more than 0 seconds"),
])
def test_bad_options_exit_2(args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "lonelybot-solve"
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    os.chmod(program, 0o755)
    assert symmetry.main(["--lonelybot", str(program), *args]) == 2
    assert message in capsys.readouterr().err


def test_a_lonelybot_that_is_not_a_program_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert symmetry.main(["--lonelybot", str(tmp_path / "none")]) == 2
    assert "not an executable program" in capsys.readouterr().err


def _line(mode: str, seed: int, naming: str, seconds: float, whole: float, own: float) -> str:
    return json.dumps({"mode": mode, "seed": seed, "naming": naming, "result": "won", "seconds": seconds,
                       "states": 10, "lonelybot": "won", "lonelybot_seconds": whole, "lonelybot_own_seconds": own,
                       "lonelybot_states": 20})


def test_a_run_is_reported_again_from_its_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text("\n".join([
        _line("draw3", 5, "chds", 0.010, 0.003, 0.002),  # in any order
        _line("draw3", 5, "cdhs", 0.010, 0.003, 0.002),
        _line("draw3", 4, "cdhs", 0.002, 0.002, 0.001),
        _line("draw3", 4, "chds", 0.002, 0.020, 0.019),
    ]) + "\n", encoding="utf-8")
    out_md = tmp_path / "out.md"
    assert symmetry.main(["--from", str(run), "--markdown", str(out_md)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("draw3: 2 deals (seeds 4 to 5), 2 namings (cdhs, chds; the first as dealt)")
    assert "| lonelybot (own clock) | 1 | 1 | 1 of 2 |" in out  # seed 4: 19 ms renamed against 1 ms as dealt
    assert "| cdhs | 1 | 1 | 0 |" in out  # seed 5: 10 ms against 3 ms (whole) and 2 ms (own)
    assert "| chds | 1 | 1 | 0 |" in out  # lonelybot's search on seed 4 renamed: 19 ms against 2 ms as dealt
    assert "## The same deals with their suits renamed" in out_md.read_text(encoding="utf-8")


@pytest.mark.parametrize(("lines", "message"), [
    (["{"], "line 1: not JSON"),
    (["[1]"], "line 1: not a JSON object"),
    ([_line("draw3", 1, "cdhs", 1, 1, 1).replace('"naming": "cdhs", ', "")], "line 1: no field 'naming'"),
    ([_line("draw3", 1, "xyzw", 1, 1, 1)], "line 1: naming 'xyzw' is not one of cdhs"),
    ([_line("draw5", 1, "cdhs", 1, 1, 1)], "line 1: mode 'draw5' is not one lonelybot plays"),
    ([_line("draw1", 1, "cdhs", 1, 1, 1), _line("draw1", 1, "chds", 1, 1, 1), _line("draw1", 2, "cdhs", 1, 1, 1)],
     "draw1 seed 2 has no run under chds"),
    ([_line("draw1", 1, "chds", 1, 1, 1)], "mode draw1 has no runs of the deals as dealt (cdhs)"),
    ([], "no runs in it"),
])
def test_a_bad_run_file_exits_2(lines: list[str], message: str, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    assert symmetry.main(["--from", str(run)]) == 2
    assert message in capsys.readouterr().err


def test_playing_needs_lonelybot(capsys: pytest.CaptureFixture[str]) -> None:
    assert symmetry.main([]) == 2
    assert "--lonelybot PATH is needed to play the deals" in capsys.readouterr().err
