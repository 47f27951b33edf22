"""The compiled priority bot against the rules engine.

Four kinds of check: the compiled shuffle equals :func:`shuffled_deck`; the
compiled strategy picks the bot's move in random positions of all 24 rule
combinations; the fast path and a reference bot playing through
:class:`KlondikeGame` make the same moves on thousands of deals; and every
fast-path move list replays legally in the engine to the same foundation
count and Vegas score.

The reference is the shared bot, :func:`cardtable.bots.klondike.priority.play_priority_game`;
the small engine-driven bot below is a second, independent reading of the
seed, held to the same moves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.klondike.priority import PriorityPlayer, play_priority_game
from cardtable.cards import Card, shuffled_deck
from cardtable.klondike import DRAW, FOUNDATION, WASTE, KlondikeGame, Move, Position, Variant
from cardtable.sim import fast
from cardtable.solver import _ccore
from cardtable.solver._state import params

SEED_002 = Variant.preset("seed-002")


# ----- references -------------------------------------------------------------------


def local_priority_game(game: KlondikeGame) -> list[Move]:
    """Issue 3's priority strategy, deciding every move through the engine's own rules."""
    played: list[Move] = []

    def play(move: Move) -> None:
        game.play(move)
        played.append(move)

    def refill_waste() -> None:
        if not game.waste and game.stock:
            play(DRAW)

    play(DRAW)
    while True:
        # (a) tableau tops left to right, then the waste top, to a foundation.
        to_foundation = [Move(p, FOUNDATION) for p in range(7) if game.tableau[p]]
        if game.waste:
            to_foundation.append(Move(WASTE, FOUNDATION))
        move = next((m for m in to_foundation if game.is_legal(m)), None)
        if move is not None:
            play(move)
            if move.source == WASTE:
                refill_waste()
            continue
        # (b) waste top onto the leftmost pile that takes it.
        if game.waste:
            move = next((m for m in (Move(WASTE, p) for p in range(7)) if game.is_legal(m)), None)
            if move is not None:
                play(move)
                refill_waste()
                continue
        # (c) whole face-up runs: sources left to right, then targets left to right.
        move = None
        for source in range(7):
            run = len(game.tableau[source]) - game.face_down[source]
            if run == 0:
                continue
            move = next((m for m in (Move(source, t, run) for t in range(7) if t != source)
                         if game.is_legal(m)), None)
            if move is not None:
                break
        if move is not None:
            play(move)
            continue
        # (e) draw, or stop.
        if not game.stock:
            return played
        play(DRAW)


REFERENCE_NAME, REFERENCE = "cardtable.bots.klondike.priority.play_priority_game", play_priority_game


def reference_moves(deal: np.ndarray, reference: Callable[[KlondikeGame], list[Move]] = REFERENCE
                    ) -> tuple[list[str], int]:
    game = KlondikeGame(Position.from_deal_cards([Card.from_index(int(i)) for i in deal]), SEED_002)
    moves = [str(m) for m in reference(game)]
    return moves, game.foundation_count()


# ----- deals --------------------------------------------------------------------------


def _edge_case_deals() -> np.ndarray:
    """Hand-made and selected deals: sorted and reversed decks, stocks of kings
    or aces, plus the extremes of a large seed sample (wins, longest games,
    no foundation card at all, many pile moves)."""
    sorted_deck = np.arange(52, dtype=np.int8)
    aces = [s * 13 for s in range(4)]
    kings = [s * 13 + 12 for s in range(4)]
    face_up = [0, 7, 13, 18, 22, 25, 27]  # where each round's face-up card sits in dealing order
    stock = list(range(28, 52))

    def deal_with(placed: dict[int, int]) -> list[int]:
        rest = iter(c for c in range(52) if c not in placed.values())
        return [placed[i] if i in placed else next(rest) for i in range(52)]

    hand_made = np.array([
        sorted_deck,
        sorted_deck[::-1],
        deal_with(dict(zip(face_up, aces + kings[:3], strict=True))),        # aces face up at once
        deal_with(dict(zip(face_up[:4], kings, strict=True))),               # king runs find empty piles
        deal_with(dict(zip(stock[:4] + stock[-4:], aces + kings, strict=True))),  # aces first, kings last
        deal_with(dict(zip(stock[-4:], aces, strict=True))),                 # aces drawn last
    ], dtype=np.int8)

    rng = np.random.default_rng(20260311)
    random_perms = np.array([rng.permutation(52) for _ in range(300)], dtype=np.int8)

    sample = np.arange(10_000, 60_000, dtype=np.uint64)
    result = fast.priority_batch(sample)
    order = np.argsort(result.moves, kind="stable")
    picked = np.unique(np.concatenate([
        np.flatnonzero(result.won)[:100],
        order[-60:],                                   # the longest games
        np.flatnonzero(result.foundation == 0)[:30],
        np.flatnonzero(result.foundation == 51)[:10],  # one card short of a win, if any
    ]))
    return np.concatenate([hand_made, random_perms, fast.deals_from_seeds(sample[picked])])


SEED_DEALS = 3000


@pytest.fixture(scope="module")
def deals() -> np.ndarray:
    return np.concatenate([fast.deals_from_seeds(np.arange(SEED_DEALS)), _edge_case_deals()])


# ----- the shuffle -----------------------------------------------------------------------


def test_compiled_shuffle_equals_shuffled_deck() -> None:
    rng = np.random.default_rng(7)
    seeds = [*range(2000), 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1,
             *(int(s) for s in rng.integers(0, 2**64, size=500, dtype=np.uint64))]
    compiled = fast.deals_from_seeds(np.array(seeds, dtype=np.uint64))
    for seed, row in zip(seeds, compiled, strict=True):
        assert row.tolist() == [c.index for c in shuffled_deck(seed)], f"seed {seed}"


def test_seed_batch_equals_deal_batch() -> None:
    seeds = np.arange(5000)
    by_seed = fast.priority_batch(seeds)
    by_deal = fast.priority_batch_deals(fast.deals_from_seeds(seeds))
    assert np.array_equal(by_seed.foundation, by_deal.foundation)
    assert np.array_equal(by_seed.moves, by_deal.moves)


def test_seed_batch_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        fast.priority_batch(np.array([3, -1]))
    with pytest.raises(ValueError, match="permutation"):
        fast.priority_batch_deals(np.zeros((1, 52), dtype=np.int8))
    with pytest.raises(ValueError, match="shape"):
        fast.priority_batch_deals(np.zeros((2, 51), dtype=np.int8))
    wraps_to_a_deal = np.arange(52)
    wraps_to_a_deal[0] = 256  # becomes 0 if cast to int8 unchecked
    with pytest.raises(ValueError, match=r"0\.\.51"):
        fast.priority_batch_deals(wraps_to_a_deal)
    good_then_bad = fast.deals_from_seeds([1, 2])
    good_then_bad[1, 5] = good_then_bad[1, 6]
    with pytest.raises(ValueError, match="deal 1 "):
        fast.priority_batch_deals(good_then_bad)


# ----- the differential test ---------------------------------------------------------------


def test_fast_path_matches_reference_move_for_move(deals: np.ndarray) -> None:
    fast_moves = fast.priority_games_moves(deals)
    result = fast.priority_batch_deals(deals)
    mismatches = []
    for number, (deal, moves) in enumerate(zip(deals, fast_moves, strict=True)):
        expected, foundation = reference_moves(deal)
        if moves != expected or result.foundation[number] != foundation or result.moves[number] != len(expected):
            mismatches.append((number, " ".join(map(str, deal.tolist()))))
    assert not mismatches, (f"{len(mismatches)} of {len(deals)} deals differ from {REFERENCE_NAME}; "
                            f"first: deal {mismatches[0][0]}: {mismatches[0][1]}")
    # The sample must exercise what the strategy can do, or the agreement says little.
    every_move = {m for moves in fast_moves for m in moves}
    assert {"D", "W>F", "1>F", "7>F"} <= every_move
    assert any(":" in m for m in every_move), "no multi-card run moved"
    assert result.won.sum() >= 20


def test_local_reference_agrees_too(deals: np.ndarray) -> None:
    """The independent local reading makes the same moves as the shared bot."""
    for deal in deals[:300]:
        assert reference_moves(deal, local_priority_game) == reference_moves(deal)


@settings(max_examples=150, deadline=None)
@given(st.permutations(list(range(52))))
def test_fast_path_matches_reference_on_any_deal(perm: list[int]) -> None:
    deal = np.array(perm, dtype=np.int8)
    expected, foundation = reference_moves(deal)
    assert fast.priority_game_moves(deal) == expected
    assert int(fast.priority_batch_deals(deal).foundation[0]) == foundation


# ----- one move at a time, in every variant ------------------------------------------------

#: All 24 rule combinations (draw, passes, empty piles, foundation return).
EVERY_VARIANT = Variant.every()


def follow_the_bot(game: KlondikeGame, wander: int, follow: int, rng: random.Random) -> list[str]:
    """Play ``wander`` random legal moves, then let the bot play up to
    ``follow`` moves from there, asking the compiled strategy at each one
    for its move too (with the memory it keeps of its own moves); returns
    the kind of each choice compared. Fails on the first difference."""
    for _ in range(wander):
        legal = game.legal_moves()
        if not legal or game.is_won():
            break
        game.play(rng.choice(legal))
    bot, memory, kinds = PriorityPlayer(), 0, []
    bot.new_game()
    for _ in range(follow):
        expected = bot.choose(game.view())
        compiled, memory = fast.priority_choice(game, memory)
        assert compiled == expected, f"{game.variant.describe()}: {game.position} after {len(kinds)} moves"
        kinds.append(_kind(game, expected))
        if expected is None:
            break
        game.play(expected)
    return kinds


def _kind(game: KlondikeGame, move: Move | None) -> str:
    if move is None:
        return "stop"
    if str(move) in ("D", "R", "W>F"):
        return str(move)
    if move.target == FOUNDATION:
        return "i>F"
    if not game.tableau[move.target]:
        card = game.waste[-1] if move.source == WASTE else game.tableau[move.source][-move.count]
        return "king to an empty pile" if card.rank == 13 else "other card to an empty pile"
    return "W>i" if move.source == WASTE else "i>j"


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(EVERY_VARIANT), st.integers(0, 2**32 - 1), st.integers(0, 150), st.integers(1, 80),
       st.randoms(use_true_random=False))
def test_compiled_choice_is_the_bots_in_any_position(variant: Variant, seed: int, wander: int, follow: int,
                                                     rng: random.Random) -> None:
    follow_the_bot(KlondikeGame.from_seed(seed, variant), wander, follow, rng)


CHOICE_GAMES = 30  # starting positions per rule combination


def test_compiled_choice_is_the_bots_in_every_variant() -> None:
    kinds: Counter[str] = Counter()
    for number, variant in enumerate(EVERY_VARIANT):
        rng = random.Random(number)
        for game_number in range(CHOICE_GAMES):
            game = KlondikeGame.from_seed(1000 * number + game_number, variant)
            kinds.update(follow_the_bot(game, rng.randrange(0, 120), 400, rng))
    # Enough positions, and every kind of choice the strategy makes, were compared.
    assert kinds.total() > 20_000, kinds
    assert set(kinds) == {"D", "R", "stop", "W>F", "i>F", "W>i", "i>j", "king to an empty pile",
                          "other card to an empty pile"}, kinds


@pytest.mark.parametrize("variant", [v for v in EVERY_VARIANT if v.passes == 1], ids=lambda v: v.describe())
def test_the_batch_plays_the_variant_it_is_given(variant: Variant) -> None:
    # The kernel's batch takes its rules from the caller (the simulator hands it seed 002's): on
    # other single-pass variants too, its games are the bot's games through the engine.
    deals = fast.deals_from_seeds(np.arange(60))
    foundation = np.empty(len(deals), dtype=np.int8)
    moves = np.empty(len(deals), dtype=np.int16)
    codes = np.zeros((len(deals), _ccore.PRIORITY_MAX_MOVES), dtype=np.int32)
    _ccore.priority(deals, False, params(variant), foundation, moves, codes)
    for number, deal in enumerate(deals):
        game = KlondikeGame(Position.from_deal_cards([Card.from_index(int(i)) for i in deal]), variant)
        expected = play_priority_game(game)
        played = [fast.move_code_to_string(code) for code in codes[number, :moves[number]].tolist()]
        assert played == list(map(str, expected))
        assert foundation[number] == game.foundation_count()


# ----- replay in the engine ------------------------------------------------------------------


def test_fast_moves_replay_legally_in_the_engine(deals: np.ndarray) -> None:
    result = fast.priority_batch_deals(deals)
    for number, (deal, moves) in enumerate(zip(deals, fast.priority_games_moves(deals), strict=True)):
        game = KlondikeGame(Position.from_deal_cards([Card.from_index(int(i)) for i in deal]), SEED_002)
        for move in moves:
            game.play(Move.parse(move))  # raises IllegalMoveError, naming the move, if illegal
        assert game.foundation_count() == result.foundation[number]
        assert game.score == result.net[number] == 5 * game.foundation_count() - 52
        assert game.is_won() == bool(result.won[number])
        assert not game.stock, "the game stopped with cards left in the stock"
