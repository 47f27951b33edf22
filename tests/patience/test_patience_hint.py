"""The patience hint from the player's view (cardtable.bots.patience_hint):
legal in every game, blind to what the player cannot see, and never leading
back to a position the game has been in."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.bots.patience import GreedyPlayer
from cardtable.bots.patience_hindsight import guess_deal
from cardtable.bots.patience_hint import NO_GUESS_WON, NO_PROGRESS, PatienceHint, patience_hint, seen_position
from cardtable.cards import SplitMix64
from cardtable.errors import RulesError
from cardtable.patience import Move, PatienceGame, get
from cardtable.patience.registry import names

# A small budget: these tests check what a hint is, not how good it is.
SMALL: dict[str, Any] = {"samples": 2, "max_states": 500}

#: The games with cards the player cannot see (face down, or in the stock).
HIDDEN = [name for name in names() if any(pile.face_down for pile in PatienceGame.from_seed(get(name), 1).view().piles)]


@pytest.mark.parametrize("name", names())
def test_the_hint_is_legal_in_every_game(name: str) -> None:
    game = PatienceGame.from_seed(get(name), 5)
    player = GreedyPlayer(1)
    for _ in range(6):  # the deal, then a few positions further on
        found = patience_hint(game, **SMALL)
        assert found.move is not None and found.move in game.legal_moves()
        assert found.words and "None" not in found.describe()
        move = player.choose(game.view())
        if move is None:
            break
        game.play(move)


def test_hidden_games_are_many() -> None:
    assert {"klondike", "spider", "golf", "yukon", "canfield"} <= set(HIDDEN)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(HIDDEN), seed=st.integers(0, 10_000), other=st.integers(0, 2**32),
       steps=st.integers(0, 12))
def test_the_hint_never_peeks(name: str, seed: int, other: int, steps: int) -> None:
    """Two deals that look the same to the player, with the same moves played,
    get the same hint, whatever lies face down."""
    game = PatienceGame.from_seed(get(name), seed)
    twin = guess_deal(game.view(), SplitMix64(other))  # the hidden cards dealt anew
    assert seen_position(twin.view()) == seen_position(game.view())
    player = GreedyPlayer(seed)
    for _ in range(steps):
        move = player.choose(game.view())
        if move is None:
            break
        game.play(move)
        twin.play(move)
        if seen_position(twin.view()) != seen_position(game.view()):  # a card came into view: they differ now
            game.undo()
            twin.undo()
            break
    assert patience_hint(game, **SMALL) == patience_hint(twin, **SMALL)


def _follow_hints(name: str, seed: int, moves: int) -> None:
    """Play the hints from deal ``seed`` of ``name`` for up to ``moves`` moves: no position comes twice."""
    game = PatienceGame.from_seed(get(name), seed)
    met = {seen_position(game.view())}
    for _ in range(moves):
        if game.is_won():
            break
        found = patience_hint(game, **SMALL)
        if found.move is None:
            assert found.fallback in (None, NO_PROGRESS)
            break
        game.play(found.move)
        position = seen_position(game.view())
        assert position not in met, f"{name} deal {seed}: {found.move} leads back after {len(game.moves)} moves"
        met.add(position)


@pytest.mark.parametrize(("name", "seed"), [("klondike", 3), ("golf", 1), ("la-belle-lucie", 2)])
def test_following_hints_never_meets_a_position_twice(name: str, seed: int) -> None:
    _follow_hints(name, seed, 100)  # Klondike's third pass through the stock comes after about 90 moves


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seed"), [("klondike", 5), ("canfield", 2), ("spiderette", 4), ("yukon", 1),
                                            ("freecell", 7), ("forty-thieves", 1), ("pyramid", 3)])
def test_following_hints_to_the_end_never_meets_a_position_twice(name: str, seed: int) -> None:
    _follow_hints(name, seed, 400)


def _back_and_forth(game: PatienceGame) -> tuple[Move, list[Move]] | None:
    """A move of ``game`` and the moves that undo it, when some do."""
    before = seen_position(game.view())
    for move in game.legal_moves():
        game.play(move)
        back = []
        for other in game.legal_moves():
            game.play(other)
            if seen_position(game.view()) == before:
                back.append(other)
            game.undo()
        game.undo()
        if back:
            return move, back
    return None


def test_the_hint_does_not_send_cards_back() -> None:
    """Spider's cards go onto any card a rank higher: a card moved to another
    pile may go straight back. The hint does not send it back."""
    game = PatienceGame.from_seed(get("spider"), 1)
    player = GreedyPlayer(1)
    while (found := _back_and_forth(game)) is None:
        move = player.choose(game.view())
        assert move is not None
        game.play(move)
    move, back = found
    game.play(move)
    assert patience_hint(game, **SMALL).move not in back


def test_no_move_makes_progress_when_every_move_leads_back() -> None:
    """Accordion's last card moved onto the one before: with one move left,
    which the game made already from the same position, the hint gives none."""
    game = PatienceGame.from_seed(get("black-hole"), 1)
    found = patience_hint(game, **SMALL)
    assert found.move is not None  # the deal: something makes progress
    assert PatienceHint(None, "", 0, 0, NO_PROGRESS).describe().startswith("no move makes progress")


def test_the_same_view_gets_the_same_hint() -> None:
    game = PatienceGame.from_seed(get("klondike"), 8)
    assert patience_hint(game, **SMALL) == patience_hint(game.clone(), **SMALL)


def test_a_peek_reads_the_real_deal() -> None:
    game = PatienceGame.from_seed(get("klondike"), 2)
    found = patience_hint(game, samples=4, max_states=50_000, peek=True)
    assert found.peek and found.move in game.legal_moves()
    assert "peek" in found.describe()


def test_a_game_with_nothing_hidden_is_solved_outright() -> None:
    found = patience_hint(PatienceGame.from_seed(get("freecell"), 1), samples=2, max_states=5000)
    assert found.every_card_seen and found.fallback is None
    assert "winning line" in found.describe()


def test_the_greedy_move_is_said_to_be_one() -> None:
    found = PatienceHint(None, "", 0, 0)
    assert found.describe() == "no legal move is left"
    greedy = patience_hint(PatienceGame.from_seed(get("spider"), 2), samples=1, max_states=10)
    assert greedy.fallback == NO_GUESS_WON and "greedy" in greedy.describe()


def test_a_budget_below_one_is_refused() -> None:
    with pytest.raises(RulesError, match="samples"):
        patience_hint(PatienceGame.from_seed(get("golf"), 1), samples=0)
