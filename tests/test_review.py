"""The review of a played game: a known blunder shows its drop, the figures
are the same on every run, they never depend on a card the player has not
seen, and ``cardtable review`` prints a table or JSON, refuses bad input in
one line and stops cleanly on Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.klondike.hint import expert_hint, seen_stock
from cardtable.bots.klondike.review import GameReview, PositionReview, build_review, review_game, review_positions
from cardtable.bots.klondike.simple import GreedyPlayer
from cardtable.cards import Card
from cardtable.klondike import KlondikeGame, KlondikeRecord, Move, Position, Variant
from cardtable.solver import peek_verdict

# A small budget keeps these tests quick; what they hold does not depend on it.
SMALL = {"samples": 12, "max_states": 2000}

# Deal 17 of draw1 after 47 moves: the stock of four cards, every tableau card but nine seen. Moving the
# run 7♦..3♥ from pile 5 onto 8♠ (5>2:5) turns up a card but leaves the 8♥ and the 6♦ 5♠ blocked for
# good: the solver, every card known, finds the position winnable before it and lost after it.
BLUNDER_START = ("|KsQdJsTd9s8d7s/3s|JhTc9d8s/|Kh/6h|4d/Jc|7d6c5d4s3h/TsQc|8h/3d6d5sTh4h|7h6s5h "
                 "2s7cQh2h 9c9hKc8cQsJd2dKd 5AAA 1")


# Deal 83574, draw 1: after these moves the hint shuttled 2♠ between 3♥ and 3♦ (tests/test_hint_cycles.py).
SHUTTLE_83574 = "2>3 D 1>F 7>F 7>2 5>3 5>2 5>2 5>3 4>1 5>4 W>4"


def blunder_record() -> KlondikeRecord:
    return KlondikeRecord(Variant.preset("draw1"), Position.parse(BLUNDER_START), [Move.parse("5>2:5")])


def greedy_record(seed: int, variant: str, moves: int, start: Position | None = None) -> KlondikeRecord:
    game = KlondikeGame(start or Position.from_seed(seed), Variant.preset(variant))
    player = GreedyPlayer()
    player.new_game(seed)
    while len(game.moves) < moves and (move := player.choose(game.view())) is not None:
        game.play(move)
    return KlondikeRecord.from_game(game)


def test_a_blunder_that_throws_a_win_away_is_called_out() -> None:
    review = review_game(blunder_record(), verdict=peek_verdict(), **SMALL)
    (move,) = review.moves
    assert (move.before.verdict, move.after.verdict) == ("winnable", "lost")  # a blunder, every card known
    assert not move.is_experts and move.before.expert is not None
    assert move.drop is not None and move.drop >= 0.4
    assert review.drops() == [move]
    text = move.callout()
    assert text.startswith("move 1 (7♦ 6♣ 5♦ 4♠ 3♥ from pile 5 onto 8♠ in pile 2, turning a card up): ")
    assert f"{move.before.chance:.0%} → {move.after.chance:.0%}; the expert would " in text
    assert "the expert would draw 1 card from the stock" in text or "the expert would move " in text


def test_the_figures_are_the_same_on_every_run_and_each_position_is_weighed_once() -> None:
    record = greedy_record(3, "draw3", 12)
    first, second = review_game(record, **SMALL), review_game(record, **SMALL)
    assert first == second and first.to_dict() == second.to_dict()
    assert len(first.positions) == len(record.moves) + 1
    for before, after in zip(first.moves, first.moves[1:], strict=False):
        assert before.after is after.before  # the chance after a move is the chance before the next
    other = review_game(record, samples=SMALL["samples"] + 1, max_states=SMALL["max_states"])
    assert other.positions[0].samples == SMALL["samples"] + 1


def swapped(position: Position, first: tuple[int, int], second: tuple[int, int]) -> Position:
    """``position`` with two cards swapped, each given as (pile, index; pile -1: the stock, from the bottom)."""
    piles = [list(pile) for pile in position.tableau]
    stock = list(position.stock)

    def place(spot: tuple[int, int]) -> list[Any]:
        return stock if spot[0] < 0 else piles[spot[0]]

    a, b = place(first), place(second)
    a[first[1]], b[second[1]] = b[second[1]], a[first[1]]
    return Position(tuple(tuple(pile) for pile in piles), position.face_down, tuple(stock), position.waste,
                    position.foundation, position.pass_number)


def unseen(game: KlondikeGame, spot: tuple[int, int]) -> bool:
    """Whether the card at ``spot`` of the start is still out of the player's sight in ``game``."""
    pile, index = spot
    if pile >= 0:
        return index < game.face_down[pile]
    return len(seen_stock(game)) <= index < len(game.stock)  # not drawn yet, nor its place seen on a pass


@pytest.mark.parametrize(("variant", "seed", "first", "second"), [
    ("draw3", 5, (6, 0), (5, 1)),      # two face-down cards deep in piles 7 and 6
    ("draw1", 8, (6, 2), (-1, 3)),     # a face-down card and a card deep in the stock
])
def test_the_players_view_figures_never_depend_on_an_unseen_card(
        variant: str, seed: int, first: tuple[int, int], second: tuple[int, int]) -> None:
    start = Position.from_seed(seed)
    record = greedy_record(seed, variant, 30, start)
    twin = KlondikeRecord(record.variant, swapped(start, first, second), list(record.moves))
    assert twin.start != record.start
    game = KlondikeGame(record.start, record.variant)
    before = 0  # the moves played while both swapped cards are still out of sight
    while before < len(record.moves) and unseen(game, first) and unseen(game, second):
        game.play(record.moves[before])
        before += 1
    if not (unseen(game, first) and unseen(game, second)):
        before -= 1  # the last of them brought one into sight: the positions after it may rightly differ
    assert before >= 4
    one = review_game(KlondikeRecord(record.variant, record.start, record.moves[:before]), **SMALL)
    two = review_game(KlondikeRecord(twin.variant, twin.start, twin.moves[:before]), **SMALL)
    assert one.positions == two.positions
    assert [move.to_dict() for move in one.moves] == [move.to_dict() for move in two.moves]
    # the peek, which reads every card, is kept apart: the figures above carry no verdict
    assert all(position.verdict is None for position in one.positions)


def test_a_review_can_be_stopped_and_keeps_what_it_weighed() -> None:
    record = greedy_record(3, "draw1", 10)
    seen: list[tuple[int, int]] = []
    review = review_game(record, progress=lambda done, total: seen.append((done, total)),
                         stop=lambda: len(seen) >= 4, **SMALL)
    assert seen == [(1, 11), (2, 11), (3, 11), (4, 11)]
    assert not review.complete and len(review.positions) == 4 and len(review.moves) == 3
    assert "stopped after 3 of them" in review.summary()


def test_a_won_game_ends_at_certainty_and_every_position_is_winnable() -> None:
    game = KlondikeGame(Position.parse(BLUNDER_START), Variant.preset("draw1"))
    line = peek_verdict()(game.position(), game.variant)[1]
    record = KlondikeRecord(game.variant, game.position(), list(line))
    asked: list[Position] = []

    def verdict(position: Position, variant: Variant) -> tuple[str, list[Move]]:
        asked.append(position)
        return "unknown", []

    review = review_game(record, verdict=verdict, **SMALL)
    assert review.outcome == "won" and review.positions[-1].chance == 1.0
    assert {position.verdict for position in review.positions} == {"winnable"} and asked == []


def test_a_record_with_an_illegal_move_is_refused_before_any_work() -> None:
    record = KlondikeRecord(Variant.preset("draw1"), Position.from_seed(1), [Move.parse("1>F")])
    with pytest.raises(Exception, match="move 1"):
        next(review_positions(record, **SMALL))
    with pytest.raises(Exception, match="at least the start"):
        build_review(record, [])


def test_the_command_prints_a_table_with_the_drop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "blunder.pgn"
    path.write_text(str(blunder_record()))
    code, out, err = run(capsys, "review", str(path), "--samples", "12", "--max-states", "2000", "--peek")
    assert code == 0, err
    assert "the expert would" in out and "The largest drops:" in out
    assert "move 1 (7♦ 6♣ 5♦ 4♠ 3♥ from pile 5 onto 8♠ in pile 2" in out
    assert "winnable" not in out.splitlines()[1] and "lost" in out.splitlines()[1]  # the peek after the move
    assert "peek: the solver's verdict with every card known" in out
    code, ascii_out, _ = run(capsys, "review", str(path), "--samples", "12", "--max-states", "2000", "--ascii",
                             "--verdict-states", "0")
    assert code == 0 and "7d 6c 5d 4s 3h" in ascii_out and "peek" not in ascii_out


def test_the_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "blunder.json"
    path.write_text(blunder_record().to_json())
    code, out, err = run(capsys, "review", str(path), "--samples", "12", "--max-states", "2000", "--json",
                         "--peek")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"variant", "outcome", "complete", "samples", "max_states", "verdict_states",
                         "positions", "moves", "drops"}
    assert data["complete"] is True and data["samples"] == 12 and len(data["positions"]) == 2
    (move,) = data["moves"]
    assert set(move) == {"number", "move", "words", "before", "after", "drop", "wins", "samples", "expert",
                         "expert_words", "is_experts", "verdict_before", "verdict_after"}
    assert move["move"] == "5>2:5" and move["verdict_before"] == "winnable" and move["verdict_after"] == "lost"
    assert move["before"] == move["wins"] / move["samples"]
    assert data["drops"] == [{"number": 1, "text": data["drops"][0]["text"]}]
    assert data["drops"][0]["text"].startswith("move 1 (")


def test_the_peek_comes_by_itself_only_once_the_game_is_over(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    unfinished = tmp_path / "unfinished.pgn"
    unfinished.write_text(str(blunder_record()))
    code, out, err = run(capsys, "review", str(unfinished), "--samples", "6", "--max-states", "1000")
    assert code == 0, err
    assert "winnable" not in out and "peek after" not in out and "no peek: the game is not over" in out
    code, out, _ = run(capsys, "review", str(unfinished), "--samples", "6", "--max-states", "1000", "--json")
    data = json.loads(out)
    assert data["verdict_states"] == 0 and all(position["verdict"] is None for position in data["positions"])
    two, ace, three = Card.parse("2c"), Card.parse("Ac"), Card.parse("3d")
    rest = [card for card in Card._all if card not in (two, ace, three)]
    stuck = Position(((*rest, two), (), (), (), (), (), ()), (len(rest), 0, 0, 0, 0, 0, 0), (three,), (ace,),
                     (0, 0, 0, 0), 1)  # one pass: drawing the 3d buries the ace of clubs for good
    lost = tmp_path / "lost.pgn"
    lost.write_text(str(KlondikeRecord(Variant.preset("draw1").replace(passes=1), stuck, [Move.parse("D")])))
    code, out, err = run(capsys, "review", str(lost), "--samples", "6", "--max-states", "1000", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["outcome"].startswith("lost") and data["moves"][0]["verdict_after"] == "lost"


def test_workers_weigh_the_same_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.pgn"
    path.write_text(str(greedy_record(3, "draw3", 10)))
    outputs = []
    for workers in ("1", "2"):
        code, out, err = run(capsys, "review", str(path), "--samples", "12", "--max-states", "2000", "--json",
                             "--workers", workers)
        assert code == 0, err
        outputs.append(json.loads(out))
    assert outputs[0] == outputs[1] and len(outputs[0]["positions"]) == 11


@pytest.mark.parametrize(("args", "message"), [
    (["missing.pgn"], "missing.pgn: no such file"),
    (["bad.pgn"], "line 1: a header must read"),
    (["illegal.pgn"], "move 1 (1>F)"),
    (["empty.json"], "JSON record"),
    (["good.pgn", "--samples", "0"], "--samples must be at least 1"),
    (["good.pgn", "--max-states", "x"], "--max-states must be a whole number"),
    (["good.pgn", "--verdict-states", "-1"], "--verdict-states must be at least 0"),
    (["good.pgn", "--workers", "0"], "--workers must be at least 1"),
    (["good.pgn", "--peek", "--verdict-states", "0"], "--peek asks for the solver's verdict"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                          message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.pgn").write_text("[Game \"Klondike\"\n")
    (tmp_path / "illegal.pgn").write_text(str(KlondikeRecord(Variant.preset("draw1"), Position.from_seed(1),
                                                              [Move.parse("1>F")])))
    (tmp_path / "empty.json").write_text("{}")
    (tmp_path / "good.pgn").write_text(str(blunder_record()))
    code, out, err = run(capsys, "review", *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 or err.startswith("usage:"), err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_prints_what_was_weighed_and_exits_130(tmp_path: Path, workers: str) -> None:
    path = tmp_path / "game.pgn"
    path.write_text(str(greedy_record(1, "draw3", 60)))
    env = {**os.environ}
    env.pop("CARDTABLE_DEBUG", None)
    command = ["review", str(path), "--samples", "60", "--max-states", "20000", "--verdict-states", "0",
               "--workers", workers]
    process = subprocess.Popen([sys.executable, "-m", "cardtable", *command], cwd=tmp_path, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while "_ccore" not in Path(f"/proc/{process.pid}/maps").read_text():  # the solver is loaded
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    time.sleep(1)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.startswith("cardtable: interrupted: "), err
    deadline = time.monotonic() + 10
    while subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True).stdout:
        assert time.monotonic() < deadline, "a worker process outlived the command"
        time.sleep(0.05)
    positions = len(KlondikeRecord.parse(path.read_text()).moves) + 1
    if "no position weighed" not in err:  # the usual case: some were weighed before the signal came
        assert "stopped after" in out and f"of {positions} positions" in err


def test_the_commands_defaults_are_the_librarys() -> None:
    from cardtable.bots.klondike.review import REVIEW_SAMPLES, REVIEW_STATES
    from cardtable.cli import review as command
    from cardtable.solver import PEEK_STATES

    assert (command.SAMPLES, command.MAX_STATES, command.VERDICT_STATES) == (REVIEW_SAMPLES, REVIEW_STATES,
                                                                              PEEK_STATES)


def test_the_review_type_is_plain_data() -> None:
    review = review_game(blunder_record(), **SMALL)
    assert isinstance(review, GameReview)
    json.dumps(review.to_dict())


def hint_record(seed: int, variant: str, moves: int, **budget: int) -> KlondikeRecord:
    """The game the hint's own advice plays from deal ``seed``, cut at ``moves`` moves."""
    game = KlondikeGame.from_seed(seed, Variant.preset(variant))
    while game.move_count < moves and not game.is_won() and (move := expert_hint(game, **budget).move) is not None:
        game.play(move)
    return KlondikeRecord.from_game(game)


def agree(record: KlondikeRecord, positions: Sequence[PositionReview], **budget: int) -> int:
    """Assert that each position of the review says what the hint says on the game as it
    stood there (the moves before it included); the number of positions compared."""
    compared = 0
    for position in positions:
        game = record.replay(position.index)
        if game.is_won():
            continue
        found = expert_hint(game, **budget)
        assert (position.expert, position.expert_words, position.fallback) == \
            (found.move, found.words, found.advice.fallback), f"position {position.index}"
        assert (position.wins, position.samples) == (found.advice.wins, found.advice.samples)
        if found.move is not None:
            assert position.chance == found.advice.chance
        compared += 1
    return compared


def test_the_review_judges_each_position_as_the_hint_does() -> None:
    # Positions of games played by the greedy player and by the hint itself, both draws; the hint's
    # rule against going back reads the moves before a position, so the review must weigh each
    # position with its past.
    budget = {"samples": 4, "max_states": 400}
    records = [greedy_record(3, "draw1", 30), greedy_record(8, "draw3", 30),
               hint_record(83574, "draw1", 40, **budget), hint_record(271828, "draw3", 40, **budget),
               KlondikeRecord(Variant.preset("draw1"), Position.from_seed(83574),
                              [Move.parse(text) for text in SHUTTLE_83574.split()])]
    compared = sum(agree(record, list(review_positions(record, **budget)), **budget) for record in records)
    assert compared >= 150


def test_the_review_weighs_with_the_hints_own_budget() -> None:
    from cardtable.bots.klondike.hint import HINT_SAMPLES, HINT_STATES
    from cardtable.bots.klondike.review import REVIEW_SAMPLES, REVIEW_STATES, weigh_position

    assert (REVIEW_SAMPLES, REVIEW_STATES) == (HINT_SAMPLES, HINT_STATES)
    # With nothing given, a position of the review is what the hint said there: deal 83574 after the
    # moves where the hint shuttled 2♠, and one move on.
    record = KlondikeRecord(Variant.preset("draw1"), Position.from_seed(83574),
                            [Move.parse(text) for text in (SHUTTLE_83574 + " 3>4").split()])
    for index in (12, 13):
        position = weigh_position(record, index)
        found = expert_hint(record.replay(index))
        assert (position.expert, position.chance, position.samples) == \
            (found.move, found.advice.chance, HINT_SAMPLES)
    assert position.expert != Move.parse("4>3")  # not back where the last move came from


def test_a_position_where_no_move_makes_progress_has_no_chance_and_no_drop() -> None:
    from test_hint_cycles import stuck_position

    record = KlondikeRecord(Variant.preset("draw1"), stuck_position(),
                            [Move.parse(text) for text in ["D", "D", "R", "D"]])
    review = review_game(record, samples=1, max_states=30)
    last = review.positions[-1]
    assert (last.expert, last.chance, last.fallback) == (None, None, "no move makes progress")
    assert review.moves[-1].drop is None and review.drops() == []


@settings(max_examples=60, deadline=None)
@given(marks=st.lists(st.tuples(st.one_of(st.none(), st.sampled_from([0.0, 0.125, 0.25, 0.5, 0.875, 1.0])),
                                st.booleans()), min_size=1, max_size=6),
       played=st.integers(0, 5))
def test_klondikes_and_every_patience_games_reviews_read_their_positions_one_way(
        marks: list[tuple[float | None, bool]], played: int) -> None:
    """The two reviews share how a game's weighed positions become its moves (cardtable.bots.review): the
    same chances and expert's moves give the same drops, the same calls of the expert's move, the same
    costly moves and the same completeness, whatever was weighed (a review stopped early weighed fewer)."""
    from cardtable.bots.patience_review import PlayReview, PositionChance
    from cardtable.bots.review import MoveChances
    from cardtable.patience import PatienceGame, get
    from cardtable.patience.record import PatienceRecord

    klondike = greedy_record(3, "draw1", played)
    patience = PatienceGame.from_seed(get("freecell"), 3)
    for _ in range(len(klondike.moves)):
        patience.play(patience.legal_moves()[0])
    patience_record = PatienceRecord.from_game(patience, 3)
    weighed = marks[:len(klondike.moves) + 1]

    def expert(moves: Sequence[Any], index: int, experts: bool) -> Any:
        return moves[index] if experts and index < len(moves) else None

    ours = GameReview(klondike, tuple(PositionReview(i, chance, 0, 8, expert(klondike.moves, i, mark), "")
                                      for i, (chance, mark) in enumerate(weighed)),
                      tuple("" for _ in klondike.moves), 8, 100, "unfinished")
    theirs = PlayReview(patience_record, tuple(PositionChance(i, chance, 0, 0, 8, expert(patience.moves, i, mark), "")
                                               for i, (chance, mark) in enumerate(weighed)),
                        tuple("" for _ in patience.moves), 8, 100)
    expected = [(number, None if before is None or after is None else before - after, experts)
                for number, ((before, experts), (after, _)) in enumerate(pairwise(weighed), 1)]
    for review in (ours, theirs):
        assert all(isinstance(move, MoveChances) for move in review.moves)
        assert [(move.number, move.drop, move.is_experts) for move in review.moves] == expected
        assert review.complete == (len(weighed) == len(klondike.moves) + 1)
    costly = [number for number, drop, experts in expected if not experts and drop is not None and drop >= 0.25]
    assert [move.number for move in theirs.mistakes(0.25)] == costly
    assert sorted(move.number for move in ours.drops(count=10, threshold=0.25)) == costly
