"""The row search (Accordion's: whole piles in a row, each going by its top
card): its verdicts against the generic searches, which keep every card of a
position and prune nothing, and the groups of top cards it prunes by."""

from __future__ import annotations

import dataclasses
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import Card
from cardtable.patience import PatienceGame, get
from cardtable.patience.description import Description
from cardtable.solver.patience import solve_game

ACCORDION = get("accordion")
#: Accordion where a pile may go onto any other (no reach): the row search's other move rule.
ANYWHERE = dataclasses.replace(ACCORDION, name="accordion-anywhere",
                               tableau=dataclasses.replace(ACCORDION.tableau, reach=None))


def _row(description: Description, piles: list[list[Card]]) -> PatienceGame:
    """A position: these piles first, every other tableau pile empty."""
    piles = piles + [[] for _ in range(description.tableau.count - len(piles))]
    return PatienceGame(description, piles, [0] * len(piles))


def _cut(deck: list[Card], cuts: list[int]) -> list[list[Card]]:
    """The deck cut into piles at these places."""
    bounds = [0, *sorted(set(cuts)), len(deck)]
    return [deck[a:b] for a, b in itertools.pairwise(bounds) if b > a]


def _agrees(game: PatienceGame) -> str:
    """The row search's verdict, checked against both generic searches."""
    row = solve_game(game, max_states=400_000)
    assert row.decided
    for search in ("best-first", "depth-first"):
        assert solve_game(game, max_states=400_000, search=search).result == row.result, search
    if row.result == "won":
        assert row.replays(game)
    return row.result


@settings(max_examples=40, deadline=None)
@given(deck=st.permutations(ACCORDION.cards.deck()), cuts=st.lists(st.integers(1, 51), min_size=1, max_size=8),
       anywhere=st.booleans())
def test_the_row_search_agrees_with_the_generic_searches_near_the_end(deck: list[Card], cuts: list[int],
                                                                      anywhere: bool) -> None:
    _agrees(_row(ANYWHERE if anywhere else ACCORDION, _cut(deck, cuts)))


def test_the_row_search_agrees_along_winning_lines() -> None:
    verdicts = set()
    for seed in range(1, 7):
        game = PatienceGame.from_seed(ACCORDION, seed)
        line = solve_game(game, max_states=400_000).moves
        assert line
        for move in line[:-9]:
            game.play(move)
        verdicts.add(_agrees(game))  # won: ten piles left, along the line
        for move in game.legal_moves():  # each other move from there, won or lost
            game.play(move)
            verdicts.add(_agrees(game))
            game.undo()
    assert verdicts == {"won", "unwinnable"}


def test_a_row_whose_top_cards_form_two_groups_is_lost_at_once() -> None:
    deck = ACCORDION.cards.deck()
    # the Ace of hearts on top of one pile, the two of clubs on the other: no
    # rank or suit joins them, so neither ever covers the other
    ace, two = Card.parse("Ah"), Card.parse("2c")
    rest = [card for card in deck if card not in (ace, two)]
    game = _row(ACCORDION, [[*rest[:20], ace], [*rest[20:], two]])
    lost = solve_game(game, max_states=1000)
    assert lost.result == "unwinnable" and lost.states == 0
    assert solve_game(game, max_states=1000, search="best-first").result == "unwinnable"
    # the Ace of clubs on top of the first pile instead: one group, and the one move wins
    clubs = Card.parse("Ac")
    others = [card for card in rest if card != clubs]
    won = _row(ACCORDION, [[*others[:20], clubs], [*others[20:], ace, two]])
    assert solve_game(won, max_states=1000).result == "won"


def test_the_row_search_wins_deals_and_runs_out() -> None:
    for seed in (1, 2, 3):
        game = PatienceGame.from_seed(ACCORDION, seed)
        result = solve_game(game, max_states=400_000)
        assert result.result == "won" and len(result.moves) == 51 and result.replays(game)
    short = solve_game(PatienceGame.from_seed(ACCORDION, 5), max_states=50)
    assert short.result == "unknown" and short.states == 50 and "state budget" in short.reason
    # a first depth-first part asked for by name is the generic hybrid's, which keys every card
    generic = solve_game(PatienceGame.from_seed(ACCORDION, 2), max_states=400_000, first_states=1)
    assert generic.result == "won" and generic.states != solve_game(PatienceGame.from_seed(ACCORDION, 2),
                                                                     max_states=400_000).states
