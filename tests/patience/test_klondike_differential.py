"""The description engine's Klondike held to Klondike's own engine, in all
24 rule combinations (draw 1/3 x one, three or unlimited passes x kings or
any card in a space x foundation return or not).

The reference is :class:`cardtable.klondike.KlondikeGame`: its legal moves
have one documented order (``KlondikeGame.legal_moves``), and
``tests/solver/test_core_differential.py`` holds Klondike's compiled core to
it in the same 24 combinations (the same moves, and the same position after
each). The core lists the same moves in an order of its own (a space before
a pile when both take a card), so the order is held to ``KlondikeGame``'s.
On random play-outs from the same seeds, after every move:

- the legal moves are the same, in the same order (the patience engine's
  ``foundations-first`` move order and ``pile-to-space: false`` make them
  so; the one notation difference, a foundation named by its place or by
  its suit, goes through :mod:`cardtable.klondike.patience`);
- the position is the same (tableau, face-down counts, stock, waste,
  foundations and pass number), and so is the compiled core's set of moves
  in it;
- each play-out ends the same way: won, no move left, or still going after
  the move cap, with the same cards on the foundations.

A play-out picks a random move (half the time among the moves to the
foundations and from the waste, so that play-outs reach deep into the game)
until no move is left or the cap is reached. The default run plays 12
play-outs of at most 120 moves per combination (288) and asks the core at
every position; the slow run (``pytest -m slow``) plays 10,000 of at most 40
moves across the 24 combinations, as issue 51 asks, and asks the core at
every tenth position.
"""

from __future__ import annotations

import pytest

from cardtable.cards import SplitMix64
from cardtable.klondike import KlondikeGame, Variant
from cardtable.klondike.moves import Move as KlondikeMove
from cardtable.klondike.patience import (
    from_klondike_move,
    klondike_description,
    klondike_position,
    to_klondike_move,
    variant_of,
)
from cardtable.patience import Description, DescriptionError, Kind, Move, PatienceGame, Place, get, names
from cardtable.solver import _ccore
from cardtable.solver._state import params, plain_move, state_bytes

VARIANTS = Variant.every()
SLOW_CAP = 40  # the slow run's cap: 10,000 play-outs in under a minute on one core
CAP = 120  # moves per play-out at most: with unlimited passes a random play-out may cycle for ever


def _name(variant: Variant) -> str:
    passes = "inf" if variant.passes is None else variant.passes
    return f"d{variant.draw}-p{passes}-{variant.empty}{'-back' if variant.foundation_return else ''}"


def _progress(move: Move) -> bool:
    return move.target is not None and (move.target.kind is Kind.FOUNDATION or move.source.kind is Kind.WASTE)


def _translated(game: PatienceGame, moves: list[Move], known: dict[int, KlondikeMove]) -> list[KlondikeMove]:
    """``moves`` in Klondike's notation; ``known`` keeps the translation of
    each of the game's moves (one object each, for the whole game) but the
    ones from a foundation, which hang on the foundation's suit."""
    out = []
    for move in moves:
        theirs = known.get(id(move))
        if theirs is None:
            theirs = to_klondike_move(game, move)
            if move.source.kind is not Kind.FOUNDATION:
                known[id(move)] = theirs
        out.append(theirs)
    return out


def _play_outs(variant: Variant, games: int, first_seed: int, core_every: int, cap: int = CAP) -> tuple[int, int]:
    """Play ``games`` random play-outs of at most ``cap`` moves in both
    engines, checking every step; the play-outs won and the moves played."""
    description = klondike_description(variant)
    assert variant_of(description) == variant
    core_params = params(variant)
    won = played = 0
    for seed in range(first_seed, first_seed + games):
        ours, theirs = PatienceGame.from_seed(description, seed), KlondikeGame.from_seed(seed, variant)
        rng = SplitMix64(seed)
        known: dict[int, KlondikeMove] = {}
        for step in range(cap + 1):
            moves = ours.legal_moves()
            expected = theirs.legal_moves()
            assert _translated(ours, moves, known) == expected, (seed, step)
            if step % core_every == 0:
                position = klondike_position(ours)
                assert position == theirs.position(), (seed, step)
                core = [plain_move(code) for code, _ in _ccore.generate(state_bytes(position), core_params, True)]
                assert sorted(map(str, core)) == sorted(map(str, expected)), (seed, step)
            if not moves or step == cap:
                break
            # favour progress half the time, so that play-outs reach deep into the game
            good = [move for move in moves if _progress(move)]
            pick = good[rng.below(len(good))] if good and rng.below(2) else moves[rng.below(len(moves))]
            ours.play(pick)
            theirs.play(expected[moves.index(pick)])
            played += 1
        assert ours.is_won() == theirs.is_won() and ours.returns() == (float(theirs.foundation_count()),)
        assert (not ours.legal_moves()) == (not theirs.legal_moves())
        won += ours.is_won()
    return won, played


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_the_same_moves_in_the_same_order_and_the_same_outcomes(variant: Variant) -> None:
    _, played = _play_outs(variant, games=12, first_seed=VARIANTS.index(variant) * 1000, core_every=1)
    assert played > 12 * 30


@pytest.mark.slow
def test_ten_thousand_play_outs_across_the_24_combinations() -> None:
    won = played = 0
    for index, variant in enumerate(VARIANTS):
        games = 10_000 // len(VARIANTS) + (index < 10_000 % len(VARIANTS))
        w, p = _play_outs(variant, games, first_seed=1_000_000 + index * 10_000, core_every=10, cap=SLOW_CAP)
        won, played = won + w, played + p
    assert played > 10_000 * 20


def test_every_combination_is_a_description_and_back() -> None:
    descriptions = {klondike_description(variant) for variant in VARIANTS}
    assert len(descriptions) == 24
    assert all(variant_of(klondike_description(variant)) == variant for variant in VARIANTS)
    assert klondike_description(Variant(passes=2)).stock.passes == 2
    assert variant_of(get("klondike")) == Variant()


def test_another_game_is_not_klondike() -> None:
    data = get("klondike").to_json()
    data["tableau"]["count"] = 8
    data["deal"][0]["cards"], data["deal"][0]["face-down"] = list(range(1, 9)), list(range(8))
    data.pop("pysol-deal", None)  # PySolFC's deal of seven columns
    assert variant_of(Description.from_json(data)) is None
    assert [name for name in names() if variant_of(get(name)) is not None] == ["klondike"]


def test_moves_translate_both_ways() -> None:
    game = PatienceGame.from_seed(get("klondike").with_options("foundation-return"), 3)
    for text in ("D", "R", "W>F", "W>4", "2>F", "2>6", "2>6:3"):
        move = Move.parse(text)
        assert str(to_klondike_move(game, move)) == text
        assert from_klondike_move(game, to_klondike_move(game, move)) == move
    # a foundation named by place in one notation and by suit in the other
    while not game.pile(Place(Kind.FOUNDATION, 0)):
        game.play(next(m for m in game.legal_moves() if m.target is not None and m.target.kind is Kind.FOUNDATION)
                  if any(m.target is not None and m.target.kind is Kind.FOUNDATION for m in game.legal_moves())
                  else game.legal_moves()[-1])
    ace = game.pile(Place(Kind.FOUNDATION, 0))[-1]
    back = Move(Place(Kind.FOUNDATION, 0), Place(Kind.TABLEAU, 1))
    assert str(to_klondike_move(game, back)) == f"F{ace.suit.letter}>2"
    assert from_klondike_move(game, to_klondike_move(game, back)) == back


def test_a_whole_pile_goes_to_a_space_only_where_the_description_lets_it() -> None:
    description = get("klondike").with_options("any-in-space")
    cards = PatienceGame.from_seed(description, 1)
    piles = [list(cards.pile(place)) for place in (*cards.places(Kind.TABLEAU), *cards.places(Kind.FOUNDATION),
                                                    *cards.places(Kind.STOCK), *cards.places(Kind.WASTE))]
    down = [cards.face_down(place) for place in (*cards.places(Kind.TABLEAU), *cards.places(Kind.FOUNDATION),
                                                 *cards.places(Kind.STOCK), *cards.places(Kind.WASTE))]
    piles[8].extend(piles[1])  # pile 2's cards go under the stock: pile 2 is a space, pile 1 one face-up card
    piles[1], down[1] = [], 0
    game = PatienceGame(description, piles, down)
    whole = Move.parse("1>2")
    assert whole not in game.legal_moves()
    assert game.why_illegal(whole) == "moving all of pile 1 to an empty pile changes nothing"
    data = description.to_json()
    data["tableau"]["pile-to-space"] = True
    free = PatienceGame(Description.from_json(data), piles, down)
    assert whole in free.legal_moves() and free.why_illegal(whole) is None


def test_the_move_order_is_a_field_of_the_description() -> None:
    data = get("klondike").to_json()
    assert data["move-order"] == "foundations-first" and data["tableau"]["pile-to-space"] is False
    assert get("freecell").to_json()["move-order"] == "by-source" and get("freecell").tableau.pile_to_space
    data["move-order"] = "random"
    with pytest.raises(DescriptionError) as caught:
        Description.from_json(data)
    assert str(caught.value) == "move-order: 'random' is not one of by-source, foundations-first"
