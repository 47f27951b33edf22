"""Environment throughput: steps per second of random masked play in
``cardtable/Klondike-v0`` (one environment, ``make_vec`` sync and async) and
in Kings Corner's AEC environment, with OpenSpiel's ``solitaire`` in the same
run for the ratio.

Run: ``python benchmarks/envs.py [--seconds 3] [--rounds 3] [--variant draw3] [--engine] [--json]``

or, for ``cardtable/Patience-v0`` in every game of the registry (each
beside ``Klondike-v0``, in the same rounds):
``python benchmarks/envs.py --patience [--games freecell,golf] [--seconds 1] [--rounds 3]``
(OpenSpiel comes with ``pip install -e '.[bench]'``; without it only
cardtable's figures are printed).

Every figure is the median of ``--rounds`` timed runs of ``--seconds`` each;
the measurements take turns, so a busy machine slows them all alike. A step
is one player action; an agent picks uniformly among the legal actions
(``info["action_mask"]`` for cardtable, ``legal_actions()`` for OpenSpiel),
and episodes start again from fresh deals. Episodes last at most ``--cap``
steps (150: OpenSpiel's default depth limit). OpenSpiel is measured three
ways, each counting only player actions (its chance nodes, which turn up
face-down cards, are sampled and not counted):

- ``openspiel state``: ``legal_actions()`` and ``apply_action()`` on the C++
  state, nothing else: no observation at all;
- ``openspiel state + observation``: the same, plus what an environment step
  hands a learner: ``observation_tensor()`` as a numpy array and
  ``legal_actions_mask()``;
- ``openspiel rl_environment``: OpenSpiel's own RL environment
  (``open_spiel.python.rl_environment.Environment("solitaire")``).

``--engine`` also measures ``Klondike-v0`` played by the rules engine alone
(the reference path the compiled step is tested against), the same
environment as it stepped before its step was compiled.

OpenSpiel's solitaire is draw 3 with the whole stock fanned out (every third
card playable, no draw moves), so ``--variant draw3`` is the nearest
cardtable rule set.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import _report
import gymnasium as gym
import numpy as np
from _openspiel import load_solitaire, random_game

import cardtable.envs  # registers cardtable/Klondike-v0
from cardtable.envs.kings_corner import raw_env

Measure = Callable[[float], float]


#: ``Klondike-v0`` stepped by the rules engine alone, made the way ``gym.make`` makes the real one.
ENGINE_SPEC = gym.envs.registration.EnvSpec(id="KlondikeEngineOnly-v0",
                                            entry_point="cardtable.envs._reference:EngineKlondikeEnv")


def klondike_single(variant: str, cap: int, engine: bool = False) -> Measure:
    env = gym.make(ENGINE_SPEC if engine else cardtable.envs.KLONDIKE_ID, variant=variant, max_steps=cap)
    rng = np.random.default_rng(1)

    def run(seconds: float) -> float:
        _, info = env.reset(seed=int(rng.integers(2**31)))
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(legal[rng.integers(len(legal))])
            steps += 1
            if terminated or truncated:
                _, info = env.reset()
        return steps / (time.perf_counter() - start)

    return run


def patience_single(game: str, cap: int) -> Measure:
    """``cardtable/Patience-v0`` playing ``game``: random masked play, episodes of at most ``cap`` steps."""
    env = gym.make(cardtable.envs.PATIENCE_ID, game=game, max_steps=cap)
    rng = np.random.default_rng(7)

    def run(seconds: float) -> float:
        _, info = env.reset(seed=int(rng.integers(2**31)))
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            legal = np.flatnonzero(info["action_mask"])
            if not len(legal):  # a deal with no move at all: the next one
                _, info = env.reset()
                continue
            _, _, terminated, truncated, info = env.step(legal[rng.integers(len(legal))])
            steps += 1
            if terminated or truncated:
                _, info = env.reset()
        return steps / (time.perf_counter() - start)

    return run


def patience_main(args: argparse.Namespace) -> None:
    """``--patience``: steps a second of Patience-v0 in every game, Klondike-v0 in the same rounds."""
    from cardtable.patience import names

    games = names() if args.games is None else tuple(args.games.split(","))
    measures: dict[str, Measure] = {"Klondike-v0 (klondike)": klondike_single("draw1", args.cap)}
    measures.update({game: patience_single(game, args.cap) for game in games})
    for run in measures.values():
        run(0.1)
    samples: dict[str, list[float]] = {label: [] for label in measures}
    for _ in range(args.rounds):
        for label, run in measures.items():
            samples[label].append(run(args.seconds))
    rates = {label: statistics.median(values) for label, values in samples.items()}
    spaces = {game: gym.make(cardtable.envs.PATIENCE_ID, game=game) for game in games}
    if args.json:
        print(json.dumps({"cap": args.cap, "seconds": args.seconds, "rounds": args.rounds,
                          "steps_per_second": {label: round(rate) for label, rate in rates.items()}}, indent=1))
        return
    rows = [[label, "", "", f"{rate:,.0f}"] if label not in spaces else
            [label, spaces[label].action_space.n, spaces[label].observation_space.shape[0], f"{rate:,.0f}"]
            for label, rate in rates.items()]
    text = (f"Random masked play, at most {args.cap} steps an episode; the median of {args.rounds} runs of "
            f"{args.seconds:g} s, the games taking turns in each round.\n\n"
            + _report.table(["game", "actions", "observation", "steps/s"], rows))
    print(text)
    if args.markdown:
        _report.write_markdown(args.markdown, "## Patience-v0", text, note=args.markdown_note)


def klondike_vector(variant: str, cap: int, count: int, mode: str) -> tuple[Measure, Callable[[], None]]:
    envs = gym.make_vec(cardtable.envs.KLONDIKE_ID, num_envs=count, vectorization_mode=mode,
                        variant=variant, max_steps=cap)
    rng = np.random.default_rng(2)
    _, infos = envs.reset(seed=3)
    state = {"infos": infos}

    def run(seconds: float) -> float:
        steps = 0
        start = time.perf_counter()
        infos = state["infos"]
        while time.perf_counter() - start < seconds:
            masks = infos["action_mask"]
            # An environment that has just ended resets on this step and ignores its action.
            actions = np.zeros(count, dtype=np.int64)
            for i, mask in enumerate(masks):
                legal = np.flatnonzero(mask)
                if len(legal):
                    actions[i] = legal[rng.integers(len(legal))]
            _, _, _, _, infos = envs.step(actions)
            steps += count
        state["infos"] = infos
        return steps / (time.perf_counter() - start)

    return run, envs.close


def kings_corner(players: int) -> Measure:
    table = raw_env(num_players=players)
    rng = np.random.default_rng(4)

    def run(seconds: float) -> float:
        table.reset(seed=int(rng.integers(2**31)))
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            agent = table.agent_selection
            if table.terminations[agent] or table.truncations[agent]:
                table.reset()
                continue
            mask = table.observe(agent)["action_mask"]
            legal = np.flatnonzero(mask)
            table.step(legal[rng.integers(len(legal))])
            steps += 1
        return steps / (time.perf_counter() - start)

    return run


def openspiel_state(cap: int, observe: bool) -> Measure:
    game = load_solitaire(cap)
    if game is None:
        raise ImportError("OpenSpiel is not installed")
    rng = np.random.default_rng(5)

    def look(state: Any) -> None:
        np.asarray(state.observation_tensor(0), dtype=np.float32)
        np.asarray(state.legal_actions_mask(0), dtype=np.int8)

    def run(seconds: float) -> float:
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            steps += random_game(game, lambda n: int(rng.integers(n)), look if observe else None)
        return steps / (time.perf_counter() - start)

    return run


def openspiel_rl_environment(cap: int) -> Measure:
    from open_spiel.python import rl_environment  # type: ignore[import-untyped]

    env = rl_environment.Environment("solitaire", depth_limit=cap)
    rng = np.random.default_rng(6)

    def run(seconds: float) -> float:
        steps = 0
        step = env.reset()
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            if step.last():
                step = env.reset()
                continue
            legal = step.observations["legal_actions"][0]
            step = env.step([legal[rng.integers(len(legal))]])
            steps += 1
        return steps / (time.perf_counter() - start)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each timed run (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="timed runs per figure; the median is kept")
    parser.add_argument("--variant", default="draw3", help="cardtable rule set (default draw3)")
    parser.add_argument("--cap", type=int, default=150, help="steps per episode at most (default 150)")
    parser.add_argument("--sync-envs", type=int, default=4, help="environments in the sync vector (default 4)")
    parser.add_argument("--engine", action="store_true", help="also measure Klondike-v0 played by the engine alone")
    parser.add_argument("--patience", action="store_true",
                        help="measure Patience-v0 in every game of the registry instead (beside Klondike-v0)")
    parser.add_argument("--games", help="with --patience: comma-separated game names (default: every game)")
    parser.add_argument("--json", action="store_true")
    _report.add_option(parser)
    args = parser.parse_args()
    if args.patience:
        patience_main(args)
        return

    measures: dict[str, Measure] = {
        "cardtable Klondike-v0": klondike_single(args.variant, args.cap),
    }
    if args.engine:
        measures["cardtable Klondike-v0, engine alone"] = klondike_single(args.variant, args.cap, engine=True)
    closers = []
    for label, count, mode in ((f"cardtable make_vec sync x{args.sync_envs}", args.sync_envs, "sync"),
                               ("cardtable make_vec async x2", 2, "async")):
        run, close = klondike_vector(args.variant, args.cap, count, mode)
        measures[label] = run
        closers.append(close)
    measures["cardtable Kings Corner AEC (4 players)"] = kings_corner(4)
    try:
        measures["openspiel state"] = openspiel_state(args.cap, observe=False)
        measures["openspiel state + observation"] = openspiel_state(args.cap, observe=True)
        measures["openspiel rl_environment"] = openspiel_rl_environment(args.cap)
    except ImportError:
        pass
    for run in measures.values():  # warm up: first calls, caches, worker start-up
        run(0.2)
    samples: dict[str, list[float]] = {label: [] for label in measures}
    for _ in range(args.rounds):
        for label, run in measures.items():
            samples[label].append(run(args.seconds))
    for close in closers:
        close()

    rates = {label: statistics.median(values) for label, values in samples.items()}
    single = rates["cardtable Klondike-v0"]
    ratios = {label: single / rate for label, rate in rates.items() if label.startswith("openspiel")}
    result: dict[str, Any] = {
        "variant": args.variant, "cap": args.cap, "seconds": args.seconds, "rounds": args.rounds,
        "steps_per_second": {label: round(rate) for label, rate in rates.items()},
        "single_env_ratio_to": {label: round(ratio, 2) for label, ratio in ratios.items()},
    }
    if args.markdown:
        rows = [[label, f"{rate:,.0f}", f"{ratios[label]:.2f}x" if label in ratios else ""]
                for label, rate in rates.items()]
        intro = (f"Random masked play, {args.variant}, at most {args.cap} steps an episode; the median of "
                 f"{args.rounds} runs of {args.seconds:g} s." + ("" if ratios else " OpenSpiel was not installed."))
        _report.write_markdown(args.markdown, "## Environments",
                               intro + "\n\n" + _report.table(["environment", "steps/s", "Klondike-v0 / this"], rows),
                               note=args.markdown_note)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"random masked play, {args.variant} (cap {args.cap} steps), median of {args.rounds} x {args.seconds:g} s")
    for label, rate in rates.items():
        print(f"  {label:<40} {rate:>10,.0f} steps/s")
    for label, ratio in ratios.items():
        print(f"  Klondike-v0 / {label:<29} {ratio:>10.2f}x")


if __name__ == "__main__":
    main()
