"""The bots place cards by the rules module's answers, not by rules of their own.

Kings Corner's placement rules are written once, in
:mod:`cardtable.kings_corner.table` (``can_place``, ``can_move``). The bots'
searches run on compact positions with lookup tables taken from those
functions (:mod:`cardtable.bots.kings_corner._placement`). Here the tables are
checked entry by entry against the rules, and, in random positions of games
of two to four players, the moves the ``strategic`` search tries first are
exactly the engine's legal actions, and each turn the ``expert`` plays out is
the ``greedy`` bot's turn through the engine.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.kings_corner import RandomBot, make_bot
from cardtable.bots.kings_corner._placement import CARDS, EMPTY, MOVE_ROWS, MOVES_ON, PLAY_ROWS, PLAYS_ON
from cardtable.bots.kings_corner.expert import _greedy_turn
from cardtable.bots.kings_corner.strategic import STRATEGIC, _key, _Pile, _Search
from cardtable.cards import Card
from cardtable.kings_corner import DRAW, PASS, KingsCornerGame, KingsCornerView, PilePosition
from cardtable.kings_corner.actions import Action, MovePile, PlayCard
from cardtable.kings_corner.table import can_move, can_place


def test_the_tables_are_the_rules_answers() -> None:
    for position in PilePosition:
        corner = position.is_corner
        for top in (None, *CARDS):
            row = EMPTY if top is None else top.index
            for card in CARDS:
                assert (card in PLAYS_ON[corner][top]) == can_place(card, top, corner=corner)
                assert (card in MOVES_ON[corner][top]) == can_move(card, top, corner=corner)
                assert PLAY_ROWS[position][row][card.index] == can_place(card, top, corner=corner)
                assert MOVE_ROWS[position][row][card.index] == can_move(card, top, corner=corner)


def test_the_rules_say_what_the_game_says() -> None:
    # The one statement of the rule: one rank lower and the other colour on a card; any card on an
    # empty regular pile, a king on an empty corner; a pile moves as its bottom card would be placed,
    # but never onto an empty regular pile.
    nine, eight_red, eight_black, king = Card.parse("9s"), Card.parse("8h"), Card.parse("8c"), Card.parse("Kd")
    assert can_place(eight_red, nine, corner=False) and not can_place(eight_black, nine, corner=True)
    assert can_place(eight_red, None, corner=False) and not can_place(eight_red, None, corner=True)
    assert can_place(king, None, corner=True) and can_move(king, None, corner=True)
    assert not can_move(eight_red, None, corner=False) and can_move(eight_red, nine, corner=True)


def wandered(players: int, seed: int, steps: int) -> KingsCornerGame:
    """A position ``steps`` random actions into a game."""
    game = KingsCornerGame.from_seed(players, seed)
    bot = RandomBot(seed)
    for _ in range(steps):
        if game.is_over():
            break
        game.play(bot.choose(game.view()))
    return game


class _FirstMoves(_Search):
    """The strategic search, noting every move it tries from the position it starts in."""

    def __init__(self, view: KingsCornerView) -> None:
        super().__init__(view, True, STRATEGIC)
        self.first: set[Action] = set()

    def consider(self, value: float, hand: tuple[Card, ...], piles: list[_Pile], path: list[Action]) -> None:
        if len(path) == 1:
            self.first.add(path[0])
        super().consider(value, hand, piles, path)


def compact(game: KingsCornerGame, seat: int) -> tuple[tuple[Card, ...], list[_Pile]]:
    """A seat's hand and the piles as the strategic search holds them."""
    return game.hand(seat), [(pile[0], pile[-1]) if pile else None for pile in game.piles]


positions = st.tuples(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 80))


@settings(max_examples=150, deadline=None)
@given(positions)
def test_the_strategic_search_reaches_every_position_one_legal_action_away(position: tuple[int, int, int]) -> None:
    # It tries only legal actions, and every position one legal action away is among those it
    # scores: reached by that action or by another order of legal ones (a card played on an empty
    # pile and then moved, say), empty piles of a kind and regular piles being alike to it.
    game = wandered(*position)
    if game.is_over():
        return
    view = game.view()
    search = _FirstMoves(view)
    search.run(*compact(game, view.player), [])
    legal = [action for action in game.legal_actions() if action not in (DRAW, PASS)]
    assert search.first <= set(legal)
    for action in legal:
        game.play(action)
        assert _key(*compact(game, view.player)) in search.visited, action
        game.undo()


def test_the_search_sees_moves_to_empty_piles() -> None:
    # The positions above must include empty regular piles and corners, with cards and piles to fill them.
    kinds: set[str] = set()
    for seed in range(60):
        game = wandered(2 + seed % 3, seed, seed % 70)
        for action in game.legal_actions():
            if isinstance(action, (PlayCard, MovePile)) and not game.piles[action.target]:
                kinds.add(f"{type(action).__name__} to {'a corner' if action.target.is_corner else 'a pile'}")
    assert kinds == {"PlayCard to a corner", "PlayCard to a pile", "MovePile to a corner"}


@settings(max_examples=60, deadline=None)
@given(positions)
def test_the_expert_plays_out_each_turn_as_the_greedy_bot_does(position: tuple[int, int, int]) -> None:
    # The expert weighs its plans by playing hands out the greedy way on card indices; from any
    # position to the end of the hand, every turn there must come out as the greedy bot's turn
    # through the engine.
    game = wandered(*position)
    bot = make_bot("greedy")
    while not game.is_over():
        seat = game.turn
        hand = [card.index for card in game.hand(seat)]
        piles = [(pile[0].index, pile[-1].index) if pile else None for pile in game.piles]
        acted = _greedy_turn(hand, piles)
        played = 0
        while not game.is_over() and game.turn == seat:
            action = bot.choose(game.view())
            if action in (DRAW, PASS):
                break
            game.play(action)
            played += 1
        assert acted == (played > 0)
        assert hand == [card.index for card in game.hand(seat)]
        assert piles == [(pile[0].index, pile[-1].index) if pile else None for pile in game.piles]
        if not game.is_over():
            game.play(action)
