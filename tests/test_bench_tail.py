"""benchmarks/solver_tail.py: the deals of a benchmark run over three times
lonelybot's time, each run again and its time accounted for (without
lonelybot here: the reasons that need its states are left out, and are
tested on made-up studies)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from cardtable.errors import UsageError

Loader = Callable[[str], ModuleType]


def _row(mode: str, seed: int, result: str, seconds: float, whole: float, own: float) -> dict[str, object]:
    return {"mode": mode, "seed": seed, "result": result, "seconds": seconds, "states": 1,
            "lonelybot": result, "lonelybot_seconds": whole, "lonelybot_own_seconds": own}


def test_the_slow_deals_are_run_again_and_their_time_accounted_for(tmp_path: Path, load_benchmark: Loader,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    tail = load_benchmark("solver_tail")
    run = tmp_path / "run.jsonl"
    rows = [
        # a loss whose relaxed game (draw 1) is won: the relaxed search spends about 20,000 states on that
        _row("draw3", 6014014, "unwinnable", 0.0246, 0.0074, 0.0045),
        # a loss whose relaxed proof (320,244 states) is far larger than the main search's (14,268)
        _row("draw3", 6014612, "unwinnable", 0.0660, 0.0074, 0.0024),
        # not slow on the whole-process clock, slow on lonelybot's own
        _row("draw1", 6014000, "won", 0.0005, 0.0080, 0.0001),
    ]
    run.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    assert tail.main([str(run), "--cap", "400000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 of 3 deals over 3× lonelybot's time (its whole process).")
    lines = {line.split(" |")[0]: line for line in out.splitlines() if line.startswith("| 6014")}
    assert set(lines) == {"| 6014014 draw3", "| 6014612 draw3"}
    assert "lost 14,268" in lines["| 6014612 draw3"] and "lost 320,244" in lines["| 6014612 draw3"]
    assert lines["| 6014612 draw3"].endswith("| relaxed proof larger |")
    assert "lost 26,407" in lines["| 6014014 draw3"] and "won 20,577" in lines["| 6014014 draw3"]
    assert lines["| 6014014 draw3"].endswith("| relaxed game won |")
    assert "| relaxed proof larger | 1 |" in out and "| relaxed game won | 1 |" in out
    assert tail.main([str(run), "--cap", "400000", "--clock", "own"]) == 0
    assert capsys.readouterr().out.startswith("3 of 3 deals over 3× lonelybot's time (its own clock).")


def test_the_reasons_for_the_searches_need_lonelybots_states(load_benchmark: Loader) -> None:
    tail = load_benchmark("solver_tail")
    main = tail.Alone("won", 30_000, 10.0)

    def study(verdict: str, used: int, theirs: int | None, main: object = main) -> object:
        return tail.Study(row=_row("draw1", 1, verdict, 1.0, 0.1, 0.1), verdict=verdict, lonelybot_states=theirs,
                          used=used, milliseconds=1.0, settled="main", parts={"main": used}, main=main,
                          reveal_first=main, relaxed=None)

    assert tail.classify(study("won", 30_000, 200)) == ["line"]  # lonelybot's line of 200 states
    assert tail.classify(study("won", 1_500, 200)) == ["tree"]  # under ten times its states: no line
    assert tail.classify(study("won", 30_000, 25_000)) == ["per state"]
    assert tail.classify(study("unwinnable", 30_000, 200)) == ["tree"]  # a loss is never a line
    assert tail.classify(study("won", 30_000, None)) == []


def test_children_a_state_against_lonelybots_visits(load_benchmark: Loader) -> None:
    tail = load_benchmark("solver_tail")
    # 20,000 states looked up 80,000 times in 10 ms: 4 children a state, 125 ns a child
    main = tail.Alone("lost", 20_000, 10.0, 80_000)

    def study(visits: int | None, theirs: int = 18_000) -> object:
        return tail.Study(row=_row("draw3", 1, "unwinnable", 1.0, 0.1, 0.0036), verdict="unwinnable",
                          lonelybot_states=theirs, lonelybot_visits=visits, used=20_000, milliseconds=1.0,
                          settled="main", parts={"main": 20_000}, main=main, reveal_first=main, relaxed=None)

    many = study(36_000)  # lonelybot: 2 a state, 100 ns a visit on its own clock
    assert tail.children(many) == (4.0, 2.0)
    assert tail.child_nanoseconds(many) == pytest.approx((125.0, 100.0))
    assert tail.classify(many) == ["per state", "children"]
    assert tail.classify(study(54_000)) == ["per state"]  # 3 a state: within 1.5 times
    assert tail.classify(study(None)) == ["per state"]  # an older driver prints no visits
    assert tail.children(study(None)) is None and tail.child_nanoseconds(study(None)) is None
    few = study(54_000)
    for each in (many, few):
        each.reasons = tail.classify(each)  # as main() sets them
    text = tail.report([many, few], "whole", 3.0, 10)
    assert "| 4.00 / 2.00 | per state, children |" in text and "| 4.00 / 3.00 | per state |" in text
    assert "| children | 1 |" in text
    assert "Children a state, the median over the 2 deals with lonelybot's visits: " \
           "cardtable's main search alone 4.00, lonelybot 2.50." in text
    assert "Nanoseconds a child looked at, the median: cardtable's main search alone 125 (here), lonelybot 83" in text


def test_the_main_search_alone_counts_its_children(load_benchmark: Loader) -> None:
    from cardtable.klondike import Position, Variant
    from cardtable.solver._state import state_bytes

    tail = load_benchmark("solver_tail")
    alone = tail.alone(state_bytes(Position.from_seed(6014612)), Variant(draw=3, passes=None,
                                                                         foundation_return=True), 0, 400_000)
    assert alone.verdict == "lost" and alone.states == 14_268
    assert alone.tried > 2 * alone.states  # each state's children, most of them seen before


@pytest.mark.parametrize(("text", "words"), [
    ("xx\n", "line 1: not JSON"),
    ('{"mode": "draw1", "seed": 5}\n', "line 1: no field 'result'"),
    (json.dumps({**_row("draw1", 5, "won", 1, 1, 1), "lonelybot_seconds": "1"}) + "\n",
     "line 1: field 'lonelybot_seconds' is '1'"),
    (json.dumps(_row("draw3-3passes", 5, "won", 1, 1, 1)) + "\n", "mode 'draw3-3passes' is not one lonelybot plays"),
    ("\n", "no deals in it"),
])
def test_a_bad_run_file_is_refused_with_the_line(tmp_path: Path, text: str, words: str, load_benchmark: Loader,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text(text, encoding="utf-8")
    assert load_benchmark("solver_tail").main([str(run)]) == 2
    assert words in capsys.readouterr().err


def test_a_deal_lonelybot_did_not_finish_counts_with_its_whole_time(tmp_path: Path, load_benchmark: Loader) -> None:
    # a run from before the killed run's own time was recorded: no own time where lonelybot was killed
    killed = {**_row("draw3", 6022927, "unwinnable", 0.675, 60.08, 0), "lonelybot": "unknown",
              "lonelybot_own_seconds": None}
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps(_row("draw1", 5, "won", 1, 1, 1)) + "\n" + json.dumps(killed) + "\n", encoding="utf-8")
    rows = load_benchmark("solver_tail").read_run(str(run))
    assert rows[1]["lonelybot_own_seconds"] == 60.08
    # a deal lonelybot decided must have its own time
    run.write_text(json.dumps({**_row("draw1", 5, "won", 1, 1, 1), "lonelybot_own_seconds": None}) + "\n",
                   encoding="utf-8")
    with pytest.raises(UsageError, match="line 1: field 'lonelybot_own_seconds' is None"):
        load_benchmark("solver_tail").read_run(str(run))


@pytest.mark.parametrize(("args", "words"), [
    (["--factor", "0"], "--factor 0: more than 0"),
    (["--cap", "0"], "--cap 0: at least 1"),
    (["--lonelybot", "/no/such/driver"], "--lonelybot /no/such/driver: not an executable program"),
])
def test_bad_options_are_refused_before_any_work(tmp_path: Path, args: list[str], words: str, load_benchmark: Loader,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps(_row("draw1", 5, "won", 1, 1, 1)) + "\n", encoding="utf-8")
    assert load_benchmark("solver_tail").main([str(run), *args]) == 2
    assert words in capsys.readouterr().err
