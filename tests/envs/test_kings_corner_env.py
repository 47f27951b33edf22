"""The PettingZoo Kings Corner environment: PettingZoo's tests, masks, observations, rewards."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]
from pettingzoo.utils.conversions import aec_to_parallel  # type: ignore[import-untyped]

from cardtable.cards import Card
from cardtable.envs import kings_corner_env
from cardtable.envs.kings_corner import (
    ACTION_COUNT,
    OBSERVATION_LAYOUT,
    KingsCornerEnv,
    action_index,
    action_of,
    action_table,
    decode_observation,
    encode_view,
    env,
    raw_env,
)
from cardtable.errors import RulesError
from cardtable.kings_corner import IllegalActionError, KingsCornerGame, MovePile, PilePosition, PlayCard

#: What PettingZoo's API test says of every environment whose observation is
#: the {"observation", "action_mask"} dictionary its own conventions ask for
#: (it exempts its own board games from these by name).
DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be gymnasium.spaces.box")


def field(observation: np.ndarray, name: str) -> np.ndarray:
    offset, size = OBSERVATION_LAYOUT[name]
    return observation[offset:offset + size]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_pettingzoos_api_test_passes(players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(num_players=players), num_cycles=200)
    notes = {str(w.message) for w in caught}
    assert all(note.startswith(DICT_OBSERVATION_NOTES) for note in notes), notes


@pytest.mark.parametrize("players", [2, 5])
def test_pettingzoos_seed_test_passes(players: int) -> None:
    seed_test(lambda: env(num_players=players), num_cycles=200)


def test_the_parallel_conversion_does_not_apply_to_a_turn_based_game() -> None:
    table = raw_env(num_players=3)
    assert table.metadata["is_parallelizable"] is False
    assert "parallel_api_test" in (sys.modules[KingsCornerEnv.__module__].__doc__ or "")  # and why, there
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(table)


def test_the_action_table_has_stable_documented_indices() -> None:
    table = action_table()
    assert len(table) == ACTION_COUNT == 446
    for card in map(Card.from_index, range(52)):
        for position in PilePosition:
            index = 8 * card.index + position
            assert action_of(index) == PlayCard(card, position) and action_index(PlayCard(card, position)) == index
    assert table[416:423] == ["move N E", "move N S", "move N W", "move N NE", "move N SE", "move N SW", "move N NW"]
    assert action_index(MovePile(PilePosition.W, PilePosition.S)) == 416 + 7 * 3 + 2
    assert table[444:] == ["draw", "pass"]
    with pytest.raises(IllegalActionError, match="corners never move"):
        action_index(MovePile(PilePosition.NE, PilePosition.N))
    with pytest.raises(RulesError, match="out of range"):
        action_of(446)


def _random_masked_hands(episodes: int) -> None:
    """Play ``episodes`` random hands (2 to 6 seats in turn), checking at every step that the mask is exactly
    the engine's legal actions, that every card is somewhere, and that a seat not on turn may do nothing;
    at least 30 actions a hand, and hands both ended and cut short."""
    rng = np.random.default_rng(7)
    tables = {n: raw_env(num_players=n, max_steps=40) for n in range(2, 7)}
    actions = 0
    ends = {"terminated": 0, "truncated": 0}
    for episode in range(episodes):
        table = tables[2 + episode % 5]
        table.reset(seed=episode)
        for agent in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                ends["terminated" if terminated else "truncated"] += 1
                table.step(None)
                continue
            game = table.game
            mask = observation["action_mask"]
            expected = np.zeros(ACTION_COUNT, dtype=np.int8)
            expected[[action_index(a) for a in game.legal_actions()]] = 1
            assert np.array_equal(mask, expected)
            seat = table.possible_agents.index(agent)
            assert seat == game.turn
            obs = observation["observation"]
            seen = (np.count_nonzero(field(obs, "hand")) + np.count_nonzero(field(obs, "piles"))
                    + field(obs, "hand_sizes")[1:].sum() + field(obs, "deck")[0])
            assert seen == 52 == sum(game.hand_sizes) + sum(map(len, game.piles)) + game.deck_count
            other = table.possible_agents[(seat + 1) % table.num_players]
            assert not table.observe(other)["action_mask"].any()
            table.step(int(rng.choice(np.flatnonzero(mask))))
            actions += 1
    assert actions > 30 * episodes
    assert ends["terminated"] > 0 and ends["truncated"] > 0


def test_random_masked_hands_keep_the_mask_exact_and_the_cards_whole() -> None:
    _random_masked_hands(250)  # the first quarter of the slow test's thousand


@pytest.mark.slow
def test_a_thousand_random_masked_hands_keep_the_mask_exact_and_the_cards_whole() -> None:
    _random_masked_hands(1000)


def test_a_seat_sees_only_its_own_hand() -> None:
    deck = list(KingsCornerGame.from_seed(players=3, seed=4).initial_deck)
    other = list(deck)
    other[7], other[8] = other[8], other[7]  # two cards of seat 1's hand
    other[40], other[41] = other[41], other[40]  # two cards deep in the deck
    a, b = KingsCornerGame(3, deck), KingsCornerGame(3, other)
    assert np.array_equal(encode_view(a.view(0)), encode_view(b.view(0)))
    assert np.array_equal(encode_view(a.view(2)), encode_view(b.view(2)))
    assert not np.array_equal(encode_view(a.view(1)), encode_view(b.view(1)))
    view = a.view(2)
    assert decode_observation(encode_view(view)) == view
    obs = encode_view(view)
    assert field(obs, "hand_sizes").tolist() == [7, 7, 7, 0, 0, 0]
    assert (field(obs, "players")[0], field(obs, "seat")[0], field(obs, "deck")[0]) == (3, 2, 27)


def test_the_same_seed_deals_the_same_hand() -> None:
    first, second, third = raw_env(4), raw_env(4), raw_env(4)
    first.reset(seed=9)
    second.reset(seed=9)
    third.reset(seed=10)
    assert first.game.initial_deck == second.game.initial_deck != third.game.initial_deck
    first.reset(options={"deal_seed": 12})
    assert first.game.initial_deck == KingsCornerGame.from_seed(4, 12).initial_deck
    with pytest.raises(RulesError, match="deal_seed"):
        first.reset(options={"deal_seed": "twelve"})


@pytest.mark.parametrize("reward", ["penalty", "win"])
def test_rewards_come_when_the_hand_ends(reward: str) -> None:
    table = raw_env(3, reward=reward)
    table.reset(options={"deal_seed": 21})
    totals = dict.fromkeys(table.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    while not all(table.terminations.values()):
        observation, value, _, _, _ = table.last()
        assert value == 0.0
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        for agent, got in table.rewards.items():
            totals[agent] += got
    outcome = table.game.outcome()
    assert outcome is not None
    if reward == "penalty":
        assert list(totals.values()) == [-float(p) for p in outcome.penalties]
    else:
        assert list(totals.values()) == [1.0 if outcome.winner == s else 0.0 for s in range(3)]
    assert table.infos["player_0"]["penalty"] == outcome.penalties[0]


def test_bad_arguments_and_actions_are_cardtable_errors() -> None:
    with pytest.raises(RulesError, match="2 to 6 players"):
        raw_env(num_players=7)
    with pytest.raises(RulesError, match="unknown reward"):
        raw_env(reward="points")
    table = raw_env(2)
    table.reset(seed=1)
    illegal = int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        table.step(illegal)
    with pytest.raises(IllegalActionError, match="must act"):
        table.step(None)


def test_max_steps_truncates_every_agent_and_render_shows_the_table() -> None:
    table = kings_corner_env(num_players=2, max_steps=3, render_mode="ansi")
    table.reset(seed=3)
    for _ in range(3):
        observation, *_ = table.last()
        table.step(int(np.flatnonzero(observation["action_mask"])[-1]))  # draw: end the turn
    assert all(table.truncations.values()) and not any(table.terminations.values())
    picture = table.render()
    assert "deck" in picture and "player_0" in picture and "draws a card" in picture
    assert raw_env(2).render() is None
