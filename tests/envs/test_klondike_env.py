"""The Gymnasium Klondike environment: spaces, masks, observations, rewards and episode ends."""

from __future__ import annotations

import contextlib
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardtable.cards import Suit, shuffled_deck
from cardtable.envs import KLONDIKE_ID
from cardtable.envs.klondike import (
    ACTION_COUNT,
    OBSERVATION_LAYOUT,
    STOP,
    KlondikeEnv,
    action_index,
    action_move,
    action_table,
    encode_view,
)
from cardtable.errors import CardtableError, IllegalMoveError, RulesError
from cardtable.klondike import FOUNDATION, STOCK, WASTE, DealError, KlondikeGame, Move, MoveError, Position, Variant

#: Three kings left to play, each to its foundation: the last three moves of a won game.
ALMOST_WON = "|KC/|KD/|KH/|/|/|/| - - QQQK 1"
#: Seed 002's rules, stock used up, and the only moves carry 7h between 8s and 8c and back.
DEAD = "6H7C7D7S|8S7H/|8C/|/|/|/|/| - 9CTCJCQCKC8D9DTDJDQDKD8H9HTHJHQHKH9STSJSQSKS 6656 1"


def field(observation: np.ndarray, name: str) -> np.ndarray:
    offset, size = OBSERVATION_LAYOUT[name]
    return observation[offset:offset + size]


def engine_mask(game: KlondikeGame) -> np.ndarray:
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    for move in game.legal_moves():
        mask[action_index(move)] = 1
    return mask


# ----- the action table ---------------------------------------------------------------------------


def test_every_move_the_model_can_express_has_one_index() -> None:
    possible = set()
    for source in range(10):
        for target in range(10):
            for count in range(1, 14):
                for suit in (None, *Suit):
                    with contextlib.suppress(MoveError):
                        possible.add(Move(source, target, count, suit))
    table = [action_move(i) for i in range(ACTION_COUNT)]
    assert table[STOP] is None
    assert set(table[:STOP]) == possible
    assert len(possible) == STOP == 591
    assert all(action_index(move) == i for i, move in enumerate(table[:STOP]))


def test_the_documented_index_formulas_hold() -> None:
    table = action_table()
    for i in range(1, 8):
        assert table[i - 1] == f"{i}>F"
        assert table[8 + i - 1] == f"W>{i}"
        others = [j for j in range(1, 8) if j != i]
        for place, j in enumerate(others):
            for k in range(1, 14):
                assert table[15 + 78 * (i - 1) + 13 * place + (k - 1)] == (f"{i}>{j}" if k == 1 else f"{i}>{j}:{k}")
    for s, letter in enumerate("cdhs"):
        for j in range(1, 8):
            assert table[561 + 7 * s + j - 1] == f"F{letter}>{j}"
    assert (table[7], table[589], table[590], table[591]) == ("W>F", "D", "R", "stop")
    assert action_index(Move(STOCK, WASTE)) == 589 and action_index(Move(WASTE, FOUNDATION)) == 7
    with pytest.raises(RulesError, match="out of range"):
        action_move(ACTION_COUNT)


# ----- Gymnasium's own checks ---------------------------------------------------------------------


@pytest.mark.parametrize("kwargs", [{}, {"variant": "draw3", "reward": "vegas", "render_mode": "ansi"},
                                    {"variant": "thoughtful1", "reward": "win", "allow_stop": True}])
def test_the_environment_passes_gymnasiums_checker_without_warnings(kwargs: dict[str, Any]) -> None:
    env = gym.make(KLONDIKE_ID, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


def test_bad_arguments_are_cardtable_errors() -> None:
    with pytest.raises(CardtableError, match="unknown variant 'draw2'"):
        KlondikeEnv("draw2")
    with pytest.raises(RulesError, match="unknown reward 'points'"):
        KlondikeEnv(reward="points")
    with pytest.raises(RulesError, match="max_steps"):
        KlondikeEnv(max_steps=0)
    env = KlondikeEnv(variant=Variant.preset("draw3").replace(empty="any"))
    assert env.variant.empty == "any"
    with pytest.raises(RulesError, match="call reset"):
        env.step(0)


# ----- masks and card conservation over many random episodes --------------------------------------


def _random_masked_episodes(episodes: int) -> None:
    """Play ``episodes`` random episodes over five rule sets, checking at every step that the mask is the
    engine's legal moves and that all 52 cards are seen and kept; at least 20 steps an episode, and every
    way an episode ends met."""
    variants: list[str | Variant] = ["seed-002", "draw1", "draw3", "thoughtful3",
                                     Variant.preset("vegas3").replace(empty="any")]
    envs = [KlondikeEnv(v, max_steps=60, stall_limit=30, truncate_on_repeat=i == 1) for i, v in enumerate(variants)]
    rng = np.random.default_rng(2024)
    steps = 0
    outcomes: set[str] = set()
    for episode in range(episodes):
        env = envs[episode % len(envs)]
        observation, info = env.reset(seed=episode)
        done = False
        while not done:
            game = env.game
            mask = info["action_mask"]
            assert np.array_equal(mask[:STOP], engine_mask(game)[:STOP])
            assert not mask[STOP]
            assert np.array_equal(env.action_masks(), mask)
            visible = (np.count_nonzero(field(observation, "tableau")) + field(observation, "face_down").sum()
                       + field(observation, "stock")[0] + np.count_nonzero(field(observation, "waste"))
                       + field(observation, "foundation").sum())
            assert visible == 52
            assert sum(map(len, game.tableau)) + len(game.stock) + len(game.waste) + game.foundation_count() == 52
            assert env.observation_space.contains(observation)
            action = int(rng.choice(np.flatnonzero(mask)))
            observation, _, terminated, truncated, info = env.step(action)
            steps += 1
            done = terminated or truncated
        outcomes.add(info["outcome"])
    assert steps > 20 * episodes
    assert {"max steps", "stalled", "no legal move"} <= outcomes


def test_random_masked_episodes_keep_the_mask_exact_and_the_cards_whole() -> None:
    _random_masked_episodes(250)  # the first quarter of the slow test's thousand


@pytest.mark.slow
def test_a_thousand_random_masked_episodes_keep_the_mask_exact_and_the_cards_whole() -> None:
    _random_masked_episodes(1000)


# ----- what the player sees -----------------------------------------------------------------------


def test_deals_that_differ_only_in_hidden_cards_look_the_same() -> None:
    cards = shuffled_deck(11)
    hidden = list(cards)
    hidden[1], hidden[2] = hidden[2], hidden[1]  # face down in piles 2 and 3
    hidden[50], hidden[51] = hidden[51], hidden[50]  # the last two stock cards
    shown = list(cards)
    shown[0], shown[1] = shown[1], shown[0]  # pile 1's face-up card changes
    deal, hidden_deal, shown_deal = (" ".join(map(str, c)) for c in (cards, hidden, shown))
    env_a, env_b = KlondikeEnv("draw1"), KlondikeEnv("draw1")
    a, _info = env_a.reset(options={"deal": deal})
    b, _ = env_b.reset(options={"deal": hidden_deal})
    assert np.array_equal(a, b)
    for _ in range(5):  # draws show stock cards 1..5, never the swapped ones
        a, *_ = env_a.step(589)
        b, *_ = env_b.step(589)
        assert np.array_equal(a, b)
    c, _ = KlondikeEnv("draw1").reset(options={"deal": shown_deal})
    assert not np.array_equal(c, env_a.reset(options={"deal": deal})[0])


def test_the_observation_is_the_view_and_holds_no_hidden_card() -> None:
    env = KlondikeEnv("draw3")
    observation, _ = env.reset(seed=3)
    game = env.game
    assert np.array_equal(observation, encode_view(game.view()))
    shown = {int(code) for name in ("tableau", "waste") for code in field(observation, name) if code}
    hidden = {card.index + 1 for pile, down in zip(game.tableau, game.face_down, strict=True) for card in pile[:down]}
    hidden |= {card.index + 1 for card in game.stock}
    assert len(hidden) == 45 and not shown & hidden
    assert field(observation, "face_down").tolist() == list(range(7))
    assert field(observation, "stock")[0] == 24 and field(observation, "passes_left")[0] == -1


# ----- starting deals -----------------------------------------------------------------------------


def test_the_same_seed_deals_the_same_game_and_plays_the_same_episode() -> None:
    def episode(seed: int) -> list[bytes]:
        env = gym.make(KLONDIKE_ID, variant="draw1")
        observation, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = [observation.tobytes()]
        for _ in range(60):
            observation, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            seen.append(observation.tobytes())
            if terminated or truncated:
                break
        return seen

    assert episode(5) == episode(5)
    assert episode(5)[0] != episode(6)[0]


def test_a_deal_or_position_string_starts_the_episode() -> None:
    env = KlondikeEnv("seed-002")
    deal = Position.from_seed(9).deal_string()
    observation, _ = env.reset(options={"deal": deal})
    assert np.array_equal(observation, encode_view(KlondikeGame.from_deal(deal, env.variant).view()))
    observation, _ = env.reset(options={"deal_seed": 9})
    assert np.array_equal(observation, encode_view(KlondikeGame.from_seed(9, env.variant).view()))
    assert env.deal_seed == 9
    observation, info = env.reset(options={"deal": ALMOST_WON})
    assert field(observation, "foundation").tolist() == [12, 12, 12, 13]
    assert np.flatnonzero(info["action_mask"]).tolist() == [0, 1, 2]


@pytest.mark.parametrize(("options", "error", "message"), [
    ({"deal": "As Ks"}, DealError, "2 cards, not 52"),
    ({"deal": "Xx " * 52}, DealError, "unknown card 'Xx'"),
    ({"deal": "|KC/|KD/|KH/|/|/|/| - - QQQK"}, DealError, "4 fields, expected 5"),
    ({"deal": 7}, DealError, "deal string"),
    ({"deal_seed": -1}, RulesError, "deal_seed"),
    ({"seed": 3}, RulesError, "unknown reset option"),
])
def test_bad_start_options_raise_the_cardtable_error(options: dict[str, object], error: type[Exception],
                                                     message: str) -> None:
    with pytest.raises(error, match=message):
        KlondikeEnv().reset(options=options)


# ----- rewards ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("reward", "expected"), [
    ("foundation", [1.0, 1.0, 1.0]),
    ("win", [0.0, 0.0, 1.0]),
    ("vegas", [5 * 50 - 52, 5.0, 5.0]),
])
def test_each_reward_choice_pays_as_documented(reward: str, expected: list[float]) -> None:
    env = KlondikeEnv("seed-002", reward=reward)
    env.reset(options={"deal": ALMOST_WON})
    got = []
    for action in (0, 1, 2):
        _, value, terminated, truncated, info = env.step(action)
        got.append(value)
    assert got == expected
    assert terminated and not truncated and info["outcome"] == "won" and info["foundation"] == 52
    if reward == "vegas":
        assert sum(got) == env.variant.scoring.money(52) == env.game.score


def test_a_won_game_ends_even_where_kings_could_come_back() -> None:
    env = KlondikeEnv("thoughtful1", reward="win")
    env.reset(options={"deal": ALMOST_WON})
    results = [env.step(action) for action in (0, 1, 2)]
    assert [r[1] for r in results] == [0.0, 0.0, 1.0]
    assert results[-1][2] and results[-1][4]["outcome"] == "won"
    assert env.game.legal_moves()  # the rules would let a king come back


def test_a_card_back_from_a_foundation_costs_one() -> None:
    env = KlondikeEnv("thoughtful1")
    _, info = env.reset(options={"deal": "|KH/|/|/|/|/|/| - - KKQK 1"})
    back = action_index(Move.parse("Fs>2"))
    assert info["action_mask"][back]
    _, value, terminated, _, _ = env.step(back)
    assert value == -1.0 and not terminated


# ----- episode ends -------------------------------------------------------------------------------


def test_a_game_that_only_cycles_the_stock_is_truncated_when_it_stalls() -> None:
    env = KlondikeEnv("draw1", stall_limit=30)
    env.reset(options={"deal_seed": 4})
    for step in range(1, 31):
        _, _, terminated, truncated, info = env.step(589 if env.action_masks()[589] else 590)
        assert not terminated
        if step < 30:
            assert not truncated
    assert truncated and info["outcome"] == "stalled"


def test_max_steps_truncates_and_a_repeated_position_truncates_when_asked() -> None:
    env = KlondikeEnv("draw1", max_steps=3)
    env.reset(seed=1)
    results = [env.step(589)[2:4] for _ in range(3)]
    assert results == [(False, False), (False, False), (False, True)]
    env = KlondikeEnv("draw1", truncate_on_repeat=True)
    env.reset(options={"deal_seed": 4})
    done, steps = False, 0
    while not done:  # draw through the stock and turn it over: the deal comes round again
        _, _, terminated, truncated, info = env.step(589 if env.action_masks()[589] else 590)
        done, steps = terminated or truncated, steps + 1
    assert truncated and info["outcome"] == "repeated position" and steps == 25


def test_a_dead_position_is_terminated_and_no_legal_move_is_terminated() -> None:
    game = KlondikeGame(Position.parse(DEAD), Variant.preset("seed-002"))
    assert game.progress_possible() is False and len(game.legal_moves()) == 1
    env = KlondikeEnv("seed-002", stall_limit=4)
    _, info = env.reset(options={"deal": DEAD})
    for _ in range(4):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert terminated and not truncated and info["outcome"] == "no progress possible"
    # The same table with 8c in the waste: 7h has nowhere to go, and nothing else moves.
    env = KlondikeEnv("seed-002")
    _, info = env.reset(options={"deal": DEAD.replace("/|8C/", "/|/").replace(" - 9C", " - 8C9C")})
    assert not info["action_mask"].any() and info["outcome"] == "no legal move"
    _, _, terminated, truncated, info = env.step(0)
    assert terminated and not truncated and info["outcome"] == "no legal move"


def test_illegal_actions_are_ignored_or_raise() -> None:
    env = KlondikeEnv("seed-002")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game.position()
    _observation, value, terminated, truncated, _ = env.step(illegal)
    assert env.game.position() == before and value == 0.0 and not terminated and not truncated
    strict = KlondikeEnv("seed-002", illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalMoveError, match="illegal move"):
        strict.step(illegal)
    with pytest.raises(IllegalMoveError, match="allow_stop=True"):
        strict.step(STOP)


def test_the_stop_action_ends_the_game_when_allowed() -> None:
    env = KlondikeEnv("seed-002", allow_stop=True, reward="vegas")
    _, info = env.reset(seed=2)
    assert info["action_mask"][STOP]
    _, value, terminated, truncated, info = env.step(STOP)
    assert terminated and not truncated and info["outcome"] == "stopped" and value == -52.0


def test_ansi_rendering_is_the_engines_picture_with_hidden_cards_masked() -> None:
    env = gym.make(KLONDIKE_ID, variant="seed-002", render_mode="ansi")
    env.reset(options={"deal_seed": 1})
    picture = env.render()
    assert isinstance(picture, str)
    assert picture.startswith("Stock 24") and "##" in picture and "pass 1/1" in picture
    assert KlondikeEnv().render() is None


# ----- vectorised ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "count"), [("sync", 3), ("async", 2)])
def test_the_vectorised_environment_steps_with_masks(mode: str, count: int) -> None:
    envs = gym.make_vec(KLONDIKE_ID, num_envs=count, vectorization_mode=mode, variant="draw3")
    observations, infos = envs.reset(seed=10)
    assert observations.shape == (count, 130) and infos["action_mask"].shape == (count, ACTION_COUNT)
    single, _ = KlondikeEnv("draw3").reset(seed=10)
    assert np.array_equal(observations[0], single)
    rng = np.random.default_rng(3)
    for _ in range(50):
        masks = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        observations, rewards, _terminated, _truncated, infos = envs.step(actions)
        assert observations.shape == (count, 130) and rewards.shape == (count,)
    envs.close()
