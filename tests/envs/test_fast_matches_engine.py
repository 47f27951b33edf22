"""The compiled step of ``cardtable/Klondike-v0`` against the rules engine.

:class:`KlondikeEnv` steps in compiled code (C, on Klondike's one compiled
rules library) over the solver core's array state; ``EngineKlondikeEnv`` is
the same environment played by the engine alone. Random episodes (mostly
masked actions, some illegal or out of range ones) run through both in all
24 rule combinations, with every reward and every way an episode ends, and
every step must agree exactly: observation, mask, reward, termination, truncation and
``info``. Now and then and at the end of each episode the compiled state,
the engine's game, the view and the picture must agree too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from cardtable.envs._reference import EngineKlondikeEnv
from cardtable.envs.klondike import ACTION_COUNT, STOP, KlondikeEnv
from cardtable.errors import IllegalMoveError
from cardtable.klondike import KlondikeGame, Position, Variant
from cardtable.solver._state import decode

ALMOST_WON = "|KC/|KD/|KH/|/|/|/| - - QQQK 1"
DEAD = "6H7C7D7S|8S7H/|8C/|/|/|/|/| - 9CTCJCQCKC8D9DTDJDQDKD8H9HTHJHQHKH9STSJSQSKS 6656 1"

Step = tuple[np.ndarray, float, bool, bool, dict[str, Any]]


def rules(draw: int, passes: int | None, empty: str = "king", back: bool = False, scoring: str = "vegas") -> Variant:
    return Variant.preset("draw1").replace(draw=draw, passes=passes, empty=empty, foundation_return=back,
                                           scoring=scoring)


#: (variant, environment arguments): every rule that changes a move, and every reward and end.
CASES: list[tuple[Variant, dict[str, Any]]] = [
    (rules(1, 1), {"reward": "vegas"}),
    (rules(3, None), {"reward": "foundation", "max_steps": 400}),
    (rules(3, 3, back=True), {"reward": "win", "stall_limit": 40}),
    (rules(1, None, empty="any", back=True), {"reward": "foundation", "truncate_on_repeat": True}),
    (rules(1, 2, empty="any", scoring="standard"), {"reward": "vegas", "allow_stop": True, "stall_limit": 25}),
    (rules(3, 1, empty="any", back=True, scoring="none"), {"reward": "vegas", "stall_limit": None,
                                                           "max_steps": 250}),
    (rules(1, 3, back=True), {"reward": "foundation", "truncate_on_repeat": True, "stall_limit": 60,
                              "dead_search_limit": 50}),
    (rules(3, 2), {"reward": "win", "illegal_action": "raise", "max_steps": 300}),
]


def same_step(fast: Step, slow: Step) -> None:
    observation, reward, terminated, truncated, info = fast
    assert np.array_equal(observation, slow[0])
    assert observation.dtype == slow[0].dtype and observation.shape == slow[0].shape
    assert type(reward) is float and reward == slow[1]
    assert (terminated, truncated) == (slow[2], slow[3]) and type(terminated) is type(truncated) is bool
    assert info.keys() == slow[4].keys()
    assert np.array_equal(info["action_mask"], slow[4]["action_mask"])
    assert info["action_mask"].dtype == np.int8
    assert {k: v for k, v in info.items() if k != "action_mask"} == {
        k: v for k, v in slow[4].items() if k != "action_mask"}


def same_table(fast: KlondikeEnv, slow: EngineKlondikeEnv) -> None:
    # The compiled step's own state, hidden cards included (its pass count stops at 100).
    position = slow.game.position()
    assert decode(fast._b8[0]) == replace(position, pass_number=min(position.pass_number, 100))
    assert np.array_equal(fast.action_masks(), slow.action_masks())
    assert fast.view() == slow.view()
    assert fast.game.position() == slow.game.position()
    assert fast.game.moves == slow.game.moves and fast.game.score == slow.game.score
    assert fast.render() == slow.render()


def play(fast: KlondikeEnv, slow: EngineKlondikeEnv, first: tuple[Step, Step] | None, rng: np.random.Generator,
         wild: float) -> tuple[int, str]:
    """One episode through both; returns its steps and outcome."""
    steps = 0
    info = first[0][1] if first else {}
    while True:
        mask = info["action_mask"]
        legal = np.flatnonzero(mask)
        if mask[STOP] and rng.random() >= 0.02:  # stop now and then, not at once
            legal = legal[:-1]
        if len(legal) and rng.random() >= wild:
            action: int = int(rng.choice(legal))
        else:  # anything at all, illegal or out of range
            action = int(rng.integers(-2, ACTION_COUNT + 2))
        try:
            slow_step = slow.step(action)
        except IllegalMoveError as error:
            with pytest.raises(IllegalMoveError) as caught:
                fast.step(action)
            assert str(caught.value) == str(error)
            if not len(legal):  # nothing is legal in a layout with no move: only an error comes back
                return steps, info["outcome"]
            continue
        fast_step = fast.step(action)
        same_step(fast_step, slow_step)
        steps += 1
        info = fast_step[4]
        if steps % 37 == 0:
            same_table(fast, slow)
        if fast_step[2] or fast_step[3]:
            same_table(fast, slow)
            return steps, info["outcome"]


@pytest.mark.parametrize(("variant", "kwargs"), CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_random_episodes_step_alike(variant: Variant, kwargs: dict[str, Any]) -> None:
    fast = KlondikeEnv(variant, **kwargs)
    slow = EngineKlondikeEnv(variant, **kwargs)
    rng = np.random.default_rng(len(str(kwargs)))
    total = 0
    for episode in range(40):
        pair = (fast.reset(seed=episode), slow.reset(seed=episode))
        assert np.array_equal(pair[0][0], pair[1][0]) and np.array_equal(pair[0][1]["action_mask"],
                                                                           pair[1][1]["action_mask"])
        assert fast.deal_seed == slow.deal_seed
        steps, _ = play(fast, slow, pair, rng, wild=0.05 if episode % 2 else 0.0)
        total += steps
    assert total > 400


#: All 24 rule combinations (draw, passes, empty piles, foundation return).
ALL_RULES = [(v.draw, v.passes, v.empty, v.foundation_return) for v in Variant.every()]


@pytest.mark.parametrize(("draw", "passes", "empty", "back"), ALL_RULES,
                         ids=[f"d{d}-p{p}-{e}-r{int(b)}" for d, p, e, b in ALL_RULES])
def test_every_rule_combination_steps_alike(draw: int, passes: int | None, empty: str, back: bool) -> None:
    number = ALL_RULES.index((draw, passes, empty, back))
    variant = rules(draw, passes, empty, back)
    kwargs: dict[str, Any] = {"reward": ("foundation", "win", "vegas")[number % 3], "max_steps": 250,
                              "truncate_on_repeat": number % 2 == 0}
    fast, slow = KlondikeEnv(variant, **kwargs), EngineKlondikeEnv(variant, **kwargs)
    rng = np.random.default_rng(number)
    total = 0
    for episode in range(4):
        pair = (fast.reset(seed=100 * number + episode), slow.reset(seed=100 * number + episode))
        assert np.array_equal(pair[0][0], pair[1][0])
        total += play(fast, slow, pair, rng, wild=0.05)[0]
    assert total > 20  # steps, over episodes that end at a repeat too


def test_episodes_from_positions_in_play_step_alike() -> None:
    """Starts with cards on the waste and foundations, later passes, and dead or won positions."""
    rng = np.random.default_rng(77)
    starts = [ALMOST_WON, DEAD, DEAD.replace("/|8C/", "/|/").replace(" - 9C", " - 8C9C")]
    outcomes = set()
    for number in range(60):
        variant, kwargs = CASES[number % len(CASES)]
        if number < 3 * len(starts):
            text = starts[number % len(starts)]
        else:  # a position some random moves into a game
            game = KlondikeGame(Position.from_seed(number), variant)
            for _ in range(int(rng.integers(5, 120))):
                moves = game.legal_moves()
                if not moves:
                    break
                game.play(moves[int(rng.integers(len(moves)))])
            text = str(game.position())
        fast = KlondikeEnv(variant, **kwargs)
        slow = EngineKlondikeEnv(variant, **kwargs)
        try:
            expected = slow.reset(options={"deal": text})
        except Exception as error:  # a layout this variant cannot reach (a pass beyond its limit)
            with pytest.raises(type(error), match="pass"):
                fast.reset(options={"deal": text})
            continue
        first = fast.reset(options={"deal": text})
        assert np.array_equal(first[0], expected[0])
        assert first[1].keys() == expected[1].keys()
        assert np.array_equal(first[1]["action_mask"], expected[1]["action_mask"])
        same_table(fast, slow)
        outcomes.add(play(fast, slow, (first, expected), rng, wild=0.1)[1])
    assert {"won", "no legal move", "no progress possible"} <= outcomes


def test_the_move_history_grows_past_its_first_room() -> None:
    variant = rules(1, None)
    fast = KlondikeEnv(variant, max_steps=3000, stall_limit=None)
    slow = EngineKlondikeEnv(variant, max_steps=3000, stall_limit=None)
    fast.reset(options={"deal_seed": 3})
    slow.reset(options={"deal_seed": 3})
    for _ in range(2999):  # round and round the stock
        action = 589 if fast.action_masks()[589] else 590
        same_step(fast.step(action), slow.step(action))
    same_table(fast, slow)
    assert len(fast.game.moves) == 2999
    same_step(fast.step(589), slow.step(589))
    assert fast.game.moves == slow.game.moves


@pytest.mark.parametrize("passes", [None, 3])
@pytest.mark.parametrize("draw", [1, 3])
def test_going_round_the_stock_repeats_only_where_passes_are_unlimited(draw: int, passes: int | None) -> None:
    variant = rules(draw, passes)
    fast = KlondikeEnv(variant, truncate_on_repeat=True, stall_limit=None)
    slow = EngineKlondikeEnv(variant, truncate_on_repeat=True, stall_limit=None)
    fast.reset(options={"deal_seed": 4})
    slow.reset(options={"deal_seed": 4})
    done = False
    while not done:  # draw, turn the waste over, draw again; then whatever is left
        mask = fast.action_masks()
        action = next((a for a in (589, 590) if mask[a]), int(np.flatnonzero(mask)[0]))
        result = fast.step(action)
        same_step(result, slow.step(action))
        done = result[2] or result[3]
    same_table(fast, slow)
    assert (result[4]["outcome"] == "repeated position") == (passes is None)


@pytest.mark.parametrize("number", [0, 1, 7, 2**31 + 3, 2**63 - 1, 2**63 + 11, 2**64 - 1])
def test_every_deal_number_deals_the_engines_deal(number: int) -> None:
    fast, slow = KlondikeEnv("draw3"), EngineKlondikeEnv("draw3")
    first, expected = fast.reset(options={"deal_seed": number}), slow.reset(options={"deal_seed": number})
    assert np.array_equal(first[0], expected[0])
    same_table(fast, slow)
    assert fast.game.start == Position.from_seed(number)


def test_settings_changed_between_episodes_hold_from_the_next_reset() -> None:
    fast, slow = KlondikeEnv("draw1"), EngineKlondikeEnv("draw1")
    for env in (fast, slow):
        env.reset(seed=1)
        env.max_steps, env.reward_kind, env.variant = 4, "vegas", Variant.preset("draw3")
        env.reset(seed=1)
    for _ in range(4):
        result = fast.step(589)
        same_step(result, slow.step(589))
    assert result[3] and result[4]["outcome"] == "max steps" and fast.view().stock_count == 12


def test_the_stop_action_and_the_engine_path_agree_on_the_first_step() -> None:
    variant = Variant.preset("seed-002")
    fast, slow = KlondikeEnv(variant, allow_stop=True, reward="vegas"), EngineKlondikeEnv(
        variant, allow_stop=True, reward="vegas")
    fast.reset(seed=2)
    slow.reset(seed=2)
    same_step(fast.step(STOP), slow.step(STOP))
