"""Bots as environment policies, policies as cardtable strategies, and the command line playing them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import gymnasium as gym
import numpy as np
import pytest

from cardtable.bots.kings_corner import make_bot
from cardtable.bots.klondike import make_player
from cardtable.envs import KLONDIKE_ID
from cardtable.envs.agents import (
    PolicyBot,
    PolicyPlayer,
    evaluate,
    kings_corner_policy,
    klondike_policy,
    load_policy,
)
from cardtable.envs.kings_corner import raw_env
from cardtable.envs.klondike import KlondikeEnv
from cardtable.errors import CardtableError, IllegalMoveError, RulesError
from cardtable.game import play_out
from cardtable.kings_corner import KingsCornerGame
from cardtable.klondike import KlondikeGame, Variant

POLICIES = '''
import numpy as np

def first_legal(observation, action_mask):
    return int(np.flatnonzero(action_mask)[0])

def last_legal(observation, action_mask):
    return int(np.flatnonzero(action_mask)[-1])

class Seeded:
    """A random policy that can be reseeded."""
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)
    def new_game(self, seed):
        self.rng = np.random.default_rng(seed)
    def __call__(self, observation, action_mask):
        return int(self.rng.choice(np.flatnonzero(action_mask)))

def broken(observation, action_mask):
    return int(np.flatnonzero(action_mask == 0)[0])

NOT_A_POLICY = 42
'''


@pytest.fixture
def policy_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "ct_test_policies.py").write_text(POLICIES, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return str(tmp_path)


@pytest.mark.parametrize("strategy", ["priority", "greedy", "turns", "random"])
def test_a_klondike_bot_plays_the_same_game_through_the_environment(strategy: str) -> None:
    variant = Variant.preset("seed-002" if strategy != "turns" else "seed-000")
    env = gym.make(KLONDIKE_ID, variant=variant, allow_stop=True, max_steps=5000, stall_limit=None)
    policy = klondike_policy(make_player(strategy), variant, seed=40)
    for deal in range(40, 46):
        observation, info = env.reset(options={"deal_seed": deal})
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(policy(observation, info["action_mask"]))
            done = terminated or truncated
        bot = make_player(strategy)
        bot.new_game(deal)
        direct = play_out(KlondikeGame.from_seed(deal, variant), [bot])
        assert cast(KlondikeEnv, env.unwrapped).game.moves == direct.moves
        assert info["foundation"] == direct.foundation_count()


def test_a_bot_that_stops_needs_the_stop_action() -> None:
    env = gym.make(KLONDIKE_ID, variant="seed-002")
    policy = klondike_policy(make_player("priority"), "seed-002")
    with pytest.raises(RulesError, match="allow_stop=True"):
        evaluate(env, policy, episodes=3)


def test_evaluate_returns_each_episodes_return() -> None:
    env = gym.make(KLONDIKE_ID, variant="seed-002", reward="vegas", allow_stop=True)
    returns = evaluate(env, klondike_policy(make_player("priority"), "seed-002"), episodes=5, seed=1)
    direct = []
    for episode in range(5):
        _observation, _ = env.reset(seed=1 + episode)
        raw = cast(KlondikeEnv, env.unwrapped)
        game = KlondikeGame(raw.game.start, raw.variant)
        direct.append(float(play_out(game, [make_player("priority")]).score))
    assert returns == direct


def test_a_policy_plays_as_a_klondike_player_and_the_round_trip_changes_nothing() -> None:
    variant = Variant.preset("seed-002")
    round_trip = PolicyPlayer(klondike_policy(make_player("priority"), variant), "priority", allow_stop=True)
    for deal in range(5):
        round_trip.new_game(deal)
        via = play_out(KlondikeGame.from_seed(deal, variant), [round_trip])
        direct = play_out(KlondikeGame.from_seed(deal, variant), [make_player("priority")])
        assert via.moves == direct.moves


def test_a_kings_corner_bot_plays_the_same_hand_through_the_environment() -> None:
    names = ["strategic", "greedy", "random"]
    table = raw_env(num_players=3)
    for deal in range(5):
        table.reset(options={"deal_seed": deal})
        policies = {agent: kings_corner_policy(make_bot(name, seed=deal)) for agent, name in
                    zip(table.possible_agents, names, strict=True)}
        for agent in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            action = None if terminated or truncated else policies[agent](observation["observation"],
                                                                            observation["action_mask"])
            table.step(action)
        direct = play_out(KingsCornerGame.from_seed(3, deal), [make_bot(name, seed=deal) for name in names])
        assert table.game.history == direct.history


def test_a_policy_plays_as_a_kings_corner_bot() -> None:
    for deal in range(5):
        via = play_out(KingsCornerGame.from_seed(2, deal),
                       [PolicyBot(kings_corner_policy(make_bot("strategic"))), make_bot("greedy")])
        direct = play_out(KingsCornerGame.from_seed(2, deal), [make_bot("strategic"), make_bot("greedy")])
        assert via.history == direct.history


# ----- strategies named module.path:attribute -----------------------------------------------------------


def test_the_registries_load_policies_by_name(policy_module: str) -> None:
    player = make_player("ct_test_policies:first_legal")
    assert isinstance(player, PolicyPlayer) and player.name == "ct_test_policies:first_legal"
    game = play_out(KlondikeGame.from_seed(3, Variant.preset("seed-002")), [player])
    assert game.moves and game.moves[0] == KlondikeGame.from_seed(3, Variant.preset("seed-002")).legal_moves()[0]
    seeded = make_player("ct_test_policies:Seeded")
    assert isinstance(seeded, PolicyPlayer) and type(seeded.policy).__name__ == "Seeded"
    bot = make_bot("ct_test_policies:last_legal", seed=3)
    assert isinstance(bot, PolicyBot)
    hand = play_out(KingsCornerGame.from_seed(2, 1), [bot, make_bot("greedy")])
    assert hand.is_over()


_UNREGISTERED = """
import sys
from cardtable.bots.kings_corner import make_bot
from cardtable.bots.klondike import make_player
from cardtable.errors import RulesError
for make in (make_player, make_bot):
    try:
        make("ct_test_policies:first_legal")
    except RulesError as error:
        print(type(error).__name__, error)
import cardtable.envs
print(type(make_player("ct_test_policies:first_legal")).__name__,
      type(make_bot("ct_test_policies:last_legal")).__name__, "cardtable.envs.agents" in sys.modules)
"""


def test_importing_the_environments_registers_the_policies(policy_module: str) -> None:
    # A fresh interpreter: the library alone resolves no policy, and says what is missing.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([policy_module, os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run([sys.executable, "-c", _UNREGISTERED], capture_output=True, text=True, env=env,
                            timeout=120, check=True)
    hint = 'import cardtable.envs (which needs pip install "cardtable[rl]")'
    assert result.stdout.splitlines() == [
        f"RulesError strategy 'ct_test_policies:first_legal' is a policy, and policies need the environments: {hint}",
        f"TableError bot 'ct_test_policies:first_legal' is a policy, and policies need the environments: {hint}",
        "PolicyPlayer PolicyBot True"]


@pytest.mark.parametrize(("name", "message"), [
    ("no_such_module_here:policy", "cannot import module 'no_such_module_here'"),
    ("ct_test_policies:missing", "has no attribute 'missing'"),
    ("ct_test_policies:NOT_A_POLICY", "not a policy"),
    (":policy", "module.path:attribute"),
])
def test_bad_policy_names_are_one_line_errors(policy_module: str, name: str, message: str) -> None:
    with pytest.raises(CardtableError, match=message):
        make_player(name)
    with pytest.raises(CardtableError, match=message):
        make_bot(name)


def test_a_policy_that_picks_an_illegal_action_is_named(policy_module: str) -> None:
    with pytest.raises(IllegalMoveError, match="ct_test_policies:broken"):
        play_out(KlondikeGame.from_seed(1), [make_player("ct_test_policies:broken")])
    seeded: Any = load_policy("ct_test_policies:Seeded", seed=5)
    assert seeded.rng.integers(100) == np.random.default_rng(5).integers(100)


def _cli(policy_dir: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([policy_dir, os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "cardtable", *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def test_the_command_line_plays_policies(policy_module: str, tmp_path: Path) -> None:
    out = _cli(policy_module, "simulate", "--strategy", "ct_test_policies:Seeded", "--variant", "seed-002",
               "--games", "30", "--workers", "1", "--no-store", "--record", "0", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["strategy"] == "ct_test_policies:Seeded" and summary["games"] == 30
    out = _cli(policy_module, "kings-corner", "match", "--players", "ct_test_policies:Seeded,greedy",
               "--games", "20", "--workers", "1", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["games"] == 20
    bad = _cli(policy_module, "simulate", "--strategy", "ct_test_policies:missing", "--games", "3", "--no-store")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines() == [
        "cardtable: error: strategy 'ct_test_policies:missing': module 'ct_test_policies' has no attribute 'missing'"]
    bad = _cli(policy_module, "kings-corner", "match", "--players", "nowhere_module:x,greedy", "--games", "3")
    assert bad.returncode == 2 and "cannot import module 'nowhere_module'" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


class _SpawnedExecutor:
    """Units on one process started afresh (as a Dask worker or macOS starts
    them), which inherits no registry from this one."""

    workers = 1

    def __init__(self, policy_dir: str) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=sys.path.insert,
                                         initargs=(0, policy_dir))

    def map(self, task: Any, units: Any) -> Any:
        return self._pool.map(task, units)

    def close(self) -> None:
        self._pool.shutdown()


def test_policies_play_on_a_process_that_was_not_forked(policy_module: str) -> None:
    from cardtable.sim.match import run_hands
    from cardtable.sim.runner import RunSpec, run_games

    executor = _SpawnedExecutor(policy_module)
    try:
        spec = RunSpec("ct_test_policies:Seeded", Variant.preset("seed-002"), seed=4)
        there = run_games(spec, 6, executor=executor, chunk=3)
        here = run_games(spec, 6, workers=1)
        assert [game.moves for game in there] == [game.moves for game in here] and len(here) == 6
        players = ("ct_test_policies:Seeded", "greedy")
        hands = run_hands(players, 4, 9, 1, executor=executor)
        assert hands == run_hands(players, 4, 9, 1) and len(hands) == 4
    finally:
        executor.close()
