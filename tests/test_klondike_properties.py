"""Property tests: random legal play from random deals in every variant."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.cards import Card
from cardtable.klondike import (
    STOCK,
    DealError,
    KlondikeGame,
    KlondikeRecord,
    Move,
    Position,
    Scoring,
    Variant,
    read_layout,
    write_layout,
)
from cardtable.klondike.formats import moves_from_klondike_solver

# Every combination of the rule options, each with one of the scorings.
VARIANTS = [replace(variant, scoring=Scoring(kind=("none", "standard", "vegas")[i % 3]))
            for i, variant in enumerate(Variant.every())]

seeds = st.integers(min_value=0, max_value=2**64 - 1)
variants = st.sampled_from(VARIANTS)
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=150)


def _all_cards(game: KlondikeGame) -> Counter[Card]:
    found = [Card(r, s) for s, top in enumerate(game.foundation) for r in range(1, top + 1)]
    return Counter([c for p in game.tableau for c in p] + game.stock + game.waste + found)


def _check_invariants(game: KlondikeGame) -> None:
    counts = _all_cards(game)
    assert sum(counts.values()) == 52 and len(counts) == 52
    game.position()  # the layout is legal: Position validates piles, runs, foundations
    for pile, down in zip(game.tableau, game.face_down, strict=True):
        assert not pile or down < len(pile)  # a pile's top is always face up
    if game.variant.passes is not None:
        assert game.pass_number <= game.variant.passes


@given(seed=seeds, variant=variants, picks=choices)
def test_random_play_conserves_cards_and_stays_legal(seed: int, variant: Variant, picks: list[int]) -> None:
    game = KlondikeGame.from_seed(seed, variant)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        move = moves[pick % len(moves)]
        assert game.why_illegal(move) is None
        game.play(move)
        _check_invariants(game)


@given(seed=seeds, variant=variants, picks=choices)
def test_undo_restores_the_exact_state(seed: int, variant: Variant, picks: list[int]) -> None:
    game = KlondikeGame.from_seed(seed, variant)
    history = [(game.position(), game.score)]
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
        history.append((game.position(), game.score))
    played = game.moves
    while game.can_undo:
        history.pop()
        game.undo()
        assert (game.position(), game.score) == history[-1]
    kept = game.moves  # all of them taken back, or (Vegas) up to the last draw, which stays
    if variant.undo_rule is None or not any(move.source == STOCK for move in played):
        assert kept == []
    else:
        assert kept and kept[-1].source == STOCK and STOCK not in {m.source for m in played[len(kept):]}
    for _move in played[len(kept):]:
        game.redo()
    assert game.moves == played


@given(seed=seeds, variant=variants, picks=choices)
def test_every_notation_round_trips(seed: int, variant: Variant, picks: list[int]) -> None:
    game = KlondikeGame.from_seed(seed, variant)
    deal = game.start.deal_string()
    assert Position.from_deal(deal) == game.start
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        move = moves[pick % len(moves)]
        assert Move.parse(str(move)) == move
        game.play(move)
    position = game.position()
    assert Position.parse(str(position)) == position
    assert read_layout(write_layout(position, "position")) == position
    for fmt in ("pysol", "solvitaire"):
        try:
            text = write_layout(position, fmt)
        except DealError as refusal:  # a format that cannot hold the position says so
            assert "pass number" in str(refusal) or "all face up" in str(refusal)
            assert position.pass_number != 1 or not any(position.face_down)
            continue
        assert read_layout(text) == position, fmt
    record = KlondikeRecord.from_game(game)
    assert KlondikeRecord.parse(str(record)) == record
    assert KlondikeRecord.parse(record.to_json()) == record
    assert KlondikeRecord.parse(str(record)).replay().position() == position


@given(seed=seeds, picks=choices)
def test_legal_moves_are_exactly_the_moves_play_accepts(seed: int, picks: list[int]) -> None:
    variant = Variant.preset("seed-001").replace(empty="any")
    game = KlondikeGame.from_seed(seed, variant)
    candidates = [Move.parse(t) for t in ["D", "R", "W>F", "2>F", "Fh>3", "Fs>1"]] + [
        Move(i, j, k) for i in range(7) for j in range(7) if i != j for k in range(1, 4)] + [
        Move.parse(f"W>{j}") for j in range(1, 8)]
    for pick in picks[:40]:
        legal = set(game.legal_moves())
        for move in candidates:
            assert (move in legal) == game.is_legal(move), move
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])


RECORDED = sorted((Path(__file__).parent / "data" / "recorded").glob("*.txt"))


@pytest.mark.parametrize("path", RECORDED, ids=[p.stem for p in RECORDED])
def test_recorded_games_replay_to_a_win(path: Path) -> None:
    """Klondike-Solver's winning games (recorded with its own move list in the
    Source header) replay move for move to a win in the engine."""
    record = KlondikeRecord.parse(path.read_text())
    assert [str(m) for m in record.moves] == moves_from_klondike_solver(record.headers["Source"])
    game = record.replay()
    assert game.is_won() and record.headers["Result"] == "won"


def test_there_are_recorded_games() -> None:
    assert len(RECORDED) >= 8
