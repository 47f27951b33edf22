"""``cardtable/Patience-v0``: every game of the registry as a Gymnasium environment."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.envs import PATIENCE_ID
from cardtable.envs.patience import FACE_DOWN, ActionTable, ObservationLayout, PatienceEnv, encode_view
from cardtable.errors import CardtableError, IllegalMoveError, RulesError
from cardtable.patience import Kind, PatienceGame, get, names
from cardtable.patience.position import write_position

GAMES = names()


@pytest.mark.parametrize("name", GAMES)
def test_every_game_passes_gymnasiums_checker_without_warnings(name: str) -> None:
    env = gym.make(PATIENCE_ID, game=name, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("name", GAMES)
def test_a_random_masked_episode_follows_the_engine(name: str) -> None:
    env = PatienceEnv(name, max_steps=300)
    observation, info = env.reset(seed=5)
    referee = env.game.clone()  # the engine played alone, beside the environment
    rng = np.random.default_rng(5)
    total = 0.0
    start = referee.returns()[0]
    while True:
        mask = info["action_mask"]
        legal = referee.legal_moves()
        assert mask.dtype == np.int8 and int(mask.sum()) == len(legal)
        assert {env.actions.index(move) for move in legal} == set(np.flatnonzero(mask).tolist())
        assert observation.tolist() == encode_view(referee.view(), env.layout,
                                                   redeals_left=referee.description.redeals.count
                                                   - referee.redeals_used).tolist()
        assert env.observation_space.contains(observation)
        action = int(rng.choice(np.flatnonzero(mask)))
        move = env.actions.move(action, referee)
        assert env.actions.index(move) == action
        referee.play(move)
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward
        assert env.game.key() == referee.key()
        if terminated or truncated:
            break
    won = referee.is_won()
    assert total == pytest.approx(referee.returns()[0] - start + (10.0 if won else 0.0))
    assert terminated == (won or not referee.legal_moves())
    assert info["outcome"] == ("won" if won else "no legal move" if terminated else info["outcome"])
    assert info["outcome"] in ("won", "no legal move", "max steps", "stalled")


def _with_face_down_cards_exchanged(game: PatienceGame) -> PatienceGame:
    """The same position but two face-down cards (of different ranks or suits) change places."""
    piles = [list(p) for p in game.piles]
    hidden = [(i, j) for i, count in enumerate(game.down) for j in range(count)]
    first = hidden[0]
    other = next(spot for spot in hidden[1:] if piles[spot[0]][spot[1]] != piles[first[0]][first[1]])
    (i, j), (k, m) = first, other
    piles[i][j], piles[k][m] = piles[k][m], piles[i][j]
    other = PatienceGame(game.description, piles, game.down, shuffle_seed=game.shuffle_seed)
    other.pass_number, other.redeals_used = game.pass_number, game.redeals_used
    return other


HIDDEN = [name for name in GAMES if sum(PatienceGame.from_seed(get(name), 1).down) > 1]


def test_the_games_with_hidden_cards_are_many() -> None:
    assert {"klondike", "spider", "yukon", "tripeaks", "golf", "canfield", "scorpion"} <= set(HIDDEN)


@pytest.mark.parametrize("name", HIDDEN)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 40))
def test_an_observation_never_tells_a_face_down_card(name: str, seed: int, moves: int) -> None:
    game = PatienceGame.from_seed(get(name), seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or sum(game.down) < 2:
            break
        game.play(legal[int(rng.integers(len(legal)))])
    if sum(game.down) < 2:
        return
    other = _with_face_down_cards_exchanged(game)
    assert other.key() != game.key()
    first, second = PatienceEnv(name), PatienceEnv(name)
    seen, info = first.reset(options={"deal": write_position(game)})
    also, other_info = second.reset(options={"deal": write_position(other)})
    assert second.game.key() == other.key() and first.game.key() != second.game.key()
    assert seen.tolist() == also.tolist()
    assert info["action_mask"].tolist() == other_info["action_mask"].tolist()


def test_face_down_cards_are_a_code_of_their_own() -> None:
    env = PatienceEnv("klondike")
    observation, _ = env.reset(seed=3)
    offset, size = env.layout.fields["tableau"]
    slots = env.layout.tableau_slots
    piles = observation[offset:offset + size].reshape(7, slots)
    for i, pile in enumerate(piles):
        assert pile[:i].tolist() == [FACE_DOWN] * i  # pile i+1 deals i cards face down
        assert 1 <= pile[i] <= 52 and not pile[i + 1:].any()


def test_the_action_space_is_built_from_the_description() -> None:
    # FreeCell: 8 columns, 4 cells, supermoves of up to 13 cards
    freecell = ActionTable(get("freecell"))
    per_column = 1 + 7 * 13 + 4  # home, onto each other column by count, into each cell
    per_cell = 1 + 8  # home, onto each column
    assert freecell.size == 8 * per_column + 4 * per_cell
    golf = ActionTable(get("golf"))  # each column to the hole, and the deal
    assert [golf.notation(i) for i in range(golf.size)] == [*(f"{i}>H" for i in range(1, 8)), "D"]
    accordion = ActionTable(get("accordion"))  # a whole pile, only leftwards
    assert accordion.size == 52 * 51 // 2 and accordion.notation(0) == "2>1:*"
    pyramid = ActionTable(get("pyramid"))
    assert "1+W>H" in {pyramid.notation(i) for i in range(pyramid.size)}
    klondike = ActionTable(get("klondike"))
    assert {klondike.notation(i) for i in range(klondike.size)} >= {"W>F", "7>1:13", "D", "R"}


def test_the_observation_fits_the_largest_piles_and_no_more() -> None:
    assert ObservationLayout.of(get("golf")).tableau_slots == 5
    assert ObservationLayout.of(get("tripeaks")).tableau_slots == 1
    assert ObservationLayout.of(get("spider")).tableau_slots == 104
    canfield = ObservationLayout.of(get("canfield"))
    assert canfield.reserve_slots == 13 and canfield.waste_slots == 34
    assert "pass_number" not in ObservationLayout.of(get("freecell")).fields
    assert "redeals_left" in ObservationLayout.of(get("la-belle-lucie")).fields


def test_rewards_pay_cards_home_and_the_win() -> None:
    piles = ["".join(f"{rank}{suit}" for rank in "A23456789TJQ") for suit in "cdhs"]
    almost = (f"1:Kc 2:Kd 3:Kh 4:Ks 5: 6: 7: 8: a: b: c: d: F1:{piles[0]} F2:{piles[1]} F3:{piles[2]} "
              f"F4:{piles[3]}")
    env = PatienceEnv("freecell", win_bonus=5)
    env.reset(options={"deal": almost})
    rewards = []
    terminated = False
    info: dict[str, object] = {}
    while not terminated:
        _, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        rewards.append(reward)
        assert not truncated
    assert rewards == [1.0, 1.0, 1.0, 6.0] and info["outcome"] == "won" and info["returns"] == 52.0
    win_only = PatienceEnv("freecell", reward="win")
    win_only.reset(options={"deal": almost})
    assert [win_only.step(int(np.flatnonzero(win_only.action_masks())[0]))[1] for _ in range(4)] == [0, 0, 0, 1]


def test_an_episode_is_truncated_by_max_steps_and_by_a_stall() -> None:
    env = PatienceEnv("klondike", max_steps=3, stall_limit=None)
    _, info = env.reset(seed=1)
    for _ in range(3):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert truncated and not terminated and info["outcome"] == "max steps"
    with pytest.raises(RulesError, match="the episode is over"):
        env.step(0)
    # FreeCell hides nothing: moves between columns are no progress
    stalled = PatienceEnv("freecell", stall_limit=4)
    _, info = stalled.reset(options={"deal_seed": "ms:1"})
    outcome = None
    for _ in range(10):
        moves = [m for m in stalled.game.legal_moves() if m.target is not None
                 and m.target.kind is not Kind.FOUNDATION]
        _, _, terminated, truncated, info = stalled.step(stalled.actions.index(moves[0]))
        if truncated or terminated:
            outcome = info["outcome"]
            break
    assert outcome == "stalled"


def test_deals_are_reproducible_and_numbered_deals_are_the_games() -> None:
    env = PatienceEnv("spider-2-suits")
    first, _ = env.reset(seed=11)
    again, _ = env.reset(seed=11)
    assert first.tolist() == again.tolist()
    env.reset(options={"deal_seed": 7})
    assert env.game.key() == PatienceGame.from_seed(get("spider-2-suits"), 7).key()
    freecell = PatienceEnv("freecell")
    freecell.reset(options={"deal_seed": "ms:11982"})
    assert freecell.game.key() == PatienceGame.from_seed(get("freecell"), "ms:11982").key()


def test_illegal_actions_are_ignored_or_refused() -> None:
    env = PatienceEnv("golf")
    observation, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, _, _ = env.step(illegal)
    assert again[:-1].tolist() == observation[:-1].tolist() and reward == 0.0 and not terminated
    strict = PatienceEnv("golf", illegal_action="raise")
    _, info = strict.reset(seed=2)
    with pytest.raises(IllegalMoveError, match=r"illegal move \d>H \(action \d\)"):
        strict.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    with pytest.raises(IllegalMoveError, match=r"action 99 is out of range: Golf's actions are 0\.\.7"):
        strict.step(99)


def test_render_draws_the_players_view() -> None:
    env = gym.make(PATIENCE_ID, game="golf", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str) and "##" in text and text.splitlines()[0].split() == list("1234567")


def test_bad_arguments_are_one_clear_error() -> None:
    with pytest.raises(CardtableError, match="unknown game 'freecel'; did you mean freecell"):
        PatienceEnv("freecel")
    with pytest.raises(RulesError, match="unknown reward 'vegas'"):
        PatienceEnv("golf", reward="vegas")
    with pytest.raises(RulesError, match="unknown reset option"):
        PatienceEnv("golf").reset(options={"seed": 3})
    with pytest.raises(CardtableError, match="position string"):
        PatienceEnv("golf").reset(options={"deal": "1:AsKs"})
    with pytest.raises(RulesError, match="max_steps must be a whole number"):
        PatienceEnv("golf", max_steps=0)
