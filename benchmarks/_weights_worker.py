"""The worker of ``estimate_weights.py``: one game's deals solved under one
build of the patience core, loaded in place of the installed one.

    python benchmarks/_weights_worker.py MODULE.so GAME FIRST LAST MAX_STATES

prints one JSON object: each deal's verdict, the states in all and the CPU
seconds. It imports nothing of cardtable's solver before it has loaded the
build (the solver binds the core it finds when it is first imported)."""

from __future__ import annotations

import importlib.util
import json
import sys
import time


def solve_deals(module: str, game: str, first: int, last: int, max_states: int) -> dict[str, object]:
    """Solve deals ``first`` to ``last`` of ``game`` with the core at
    ``module`` loaded in place of the installed one (this process only)."""
    if "cardtable.solver._pcore" in sys.modules:
        # the solver would keep the installed core it has already bound
        raise RuntimeError("the installed core was imported before the build's: nothing to compare")
    spec = importlib.util.spec_from_file_location("cardtable.solver._pcore", module)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"{module}: not a module")
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    sys.modules["cardtable.solver._pcore"] = core
    from cardtable.patience import PatienceGame
    from cardtable.patience.registry import load
    from cardtable.solver.patience import solve_game

    description = load(game)
    verdicts: dict[str, str] = {}
    states = 0
    began = time.process_time()
    for deal in range(first, last + 1):
        result = solve_game(PatienceGame.from_seed(description, deal), max_states=max_states, core="patience")
        verdicts[str(deal)] = result.result
        states += result.states
    return {"verdicts": verdicts, "states": states, "cpu": round(time.process_time() - began, 2)}


if __name__ == "__main__":
    path, name, low, high, budget = sys.argv[1:6]
    print(json.dumps(solve_deals(path, name, int(low), int(high), int(budget))))
