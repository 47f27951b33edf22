"""Properties of the engine over every shipped description: cards kept,
exact undo, a view without face-down cards, notation that round-trips."""

from __future__ import annotations

import contextlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import SplitMix64
from cardtable.game import GameState, play_out
from cardtable.patience import Kind, Move, PatienceGame, get, names
from cardtable.patience.engine import PatienceView

GAMES = [get(name) for name in names()] + [get("golf").with_options("queens-on-kings", "wrap"),
                                           get("klondike").with_options("draw-3", "foundation-return")]


def _all_cards(game: PatienceGame) -> Counter:
    return Counter(card for pile in game.piles for card in pile)


def _visible(view: PatienceView) -> Counter:
    return Counter(card for pile in view.piles for card in pile.cards)


@settings(max_examples=40, deadline=None)
@given(game_index=st.integers(0, len(GAMES) - 1), seed=st.integers(0, 2**64 - 1),
       choices=st.lists(st.integers(0, 10**6), max_size=60))
def test_cards_kept_undo_exact_view_hidden_notation_round_trips(game_index: int, seed: int,
                                                                choices: list[int]) -> None:
    description = GAMES[game_index]
    game = PatienceGame.from_seed(description, seed)
    deck = Counter(description.cards.deck())
    assert _all_cards(game) == deck
    keys = [game.key()]
    for choice in choices:
        moves = game.legal_moves()
        if not moves:
            break
        for move in moves:
            assert game.parse_action(game.action_to_string(move)) == move
            assert game.why_illegal(move) is None
        move = moves[choice % len(moves)]
        game.play(move)
        keys.append(game.key())
        assert _all_cards(game) == deck
        view = game.view()
        face_up = Counter(card for i, pile in enumerate(game.piles) for card in pile[game.down[i]:])
        assert _visible(view) <= face_up
        for pile, real in zip(view.piles, game.piles, strict=True):
            assert len(pile) == len(real)
            if pile.place.kind is Kind.STOCK:
                assert not pile.cards
        hidden = view.hidden_cards()
        assert Counter(hidden.unseen) + _visible(view) == deck
    clone, end = game.clone(), game.key()
    while game.moves:
        keys.pop()
        game.undo()
        assert game.key() == keys[-1]
    assert clone.key() == end  # the clone kept its own position and history
    while clone.moves:
        clone.undo()
    assert clone.key() == game.key()


def test_a_move_the_rules_forbid_changes_nothing() -> None:
    game = PatienceGame.from_seed(get("freecell"), 3)
    key = game.key()
    illegal = next(Move.parse(f"{i}>{j}") for i in range(1, 9) for j in range(1, 9)
                   if i != j and Move.parse(f"{i}>{j}") not in game.legal_moves())
    with pytest.raises(Exception, match="illegal move"):
        game.play(illegal)
    assert game.key() == key
    with pytest.raises(Exception, match="nothing to undo"):
        game.undo()


@pytest.mark.parametrize("name", names())
def test_random_play_outs_end_within_a_bound_and_speak_the_game_interface(name: str) -> None:
    class RandomAgent:
        name = "random"

        def __init__(self) -> None:
            self.rng = SplitMix64(0)

        def new_game(self, seed: int = 0) -> None:
            self.rng = SplitMix64(seed)

        def choose(self, view: PatienceView) -> Move | None:
            moves = view.legal_actions()
            return moves[self.rng.below(len(moves))] if moves else None

    for seed in range(3):
        game = PatienceGame.from_seed(get(name), seed)
        assert isinstance(game, GameState)
        agent = RandomAgent()
        agent.new_game(seed)
        play_out(game, [agent], max_actions=400)
        assert len(game.moves) <= 400
        assert game.is_over() == (game.current_player() is None)
        if get(name).win.value != "one-pile":
            assert game.returns() == (float(game.foundation_cards()),)


@settings(max_examples=30, deadline=None)
@given(game_index=st.integers(0, len(GAMES) - 1), seed=st.integers(0, 2**64 - 1),
       choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=25))
def test_the_rules_checker_agrees_with_the_move_generator(game_index: int, seed: int, choices: list[int]) -> None:
    """Every move between two piles (one card, or the counts listed) is legal
    by :meth:`why_illegal` exactly when :meth:`legal_moves` lists it, and a
    move played unlisted leads where the listed one does."""
    from cardtable.patience.moves import ANY_FOUNDATION, MoveError

    game = PatienceGame.from_seed(GAMES[game_index], seed)
    places = [place for kind in Kind for place in game.places(kind)]
    for choice in choices:
        legal = game.legal_moves()
        counts = {move.count for move in legal} | {1}
        candidates = set(legal)
        for source in places:
            for target in [*places, ANY_FOUNDATION]:
                for count in counts:
                    with contextlib.suppress(MoveError):
                        candidates.add(Move(source, target, count))
        fresh = game.clone()  # no legal moves asked yet: why_illegal checks the rules themselves
        for move in candidates:
            if move.is_deal or move.is_recycle or (move.target is not None and move.target.kind is Kind.STOCK):
                continue
            assert (fresh.why_illegal(move) is None) == (move in legal), move
        if not legal:
            break
        move = legal[choice % len(legal)]
        fresh.play(move)  # the piles the rules check found, against the listed move's
        game.play(move)
        assert fresh.key() == game.key() and fresh.down == game.down


@pytest.mark.parametrize("name", ["golf", "black-hole", "tripeaks", "pyramid", "accordion"])
def test_games_without_a_way_back_always_end(name: str) -> None:
    """In these games every move sends a card on for good (to the hole, or
    the stock to the waste, or a pile onto another), so a random play-out
    ends within as many moves as the game has cards, counting each pass
    through the stock."""
    description = get(name)
    bound = description.cards.total * (description.stock.passes or 1)
    for seed in range(30):
        game = PatienceGame.from_seed(description, seed)
        rng = SplitMix64(seed)
        while not game.is_over():
            moves = game.legal_moves()
            game.play(moves[rng.below(len(moves))])
            assert len(game.moves) <= bound
        assert game.outcome() is not None


@settings(max_examples=30, deadline=None)
@given(game_index=st.integers(0, len(GAMES) - 1), seed=st.integers(0, 2**64 - 1),
       choices=st.lists(st.integers(0, 10**6), max_size=40))
def test_auto_finish_ends_with_no_card_left_that_could_go_home(game_index: int, seed: int,
                                                               choices: list[int]) -> None:
    game = PatienceGame.from_seed(GAMES[game_index], seed)
    for choice in choices:
        if not (moves := game.legal_moves()):
            break
        game.play(moves[choice % len(moves)])
    home = game.foundation_cards()
    while (move := game.home_move()) is not None:
        assert move in game.legal_moves() and move.target is not None and move.target.kind is Kind.FOUNDATION
        game.play(move)
        assert game.foundation_cards() > home
        home = game.foundation_cards()
    assert not any(m.target is not None and m.target.kind is Kind.FOUNDATION and m.source.kind is not Kind.FOUNDATION
                   for m in game.legal_moves())
