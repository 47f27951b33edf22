"""OpenSpiel's ``solitaire``, played at random: the peer that
``benchmarks/engine.py`` and ``benchmarks/envs.py`` both measure against."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def load_solitaire(cap: int) -> Any | None:
    """OpenSpiel's ``solitaire`` with games cut at ``cap`` moves, or None when
    OpenSpiel is not installed (``pip install -e '.[bench]'``)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel.load_game("solitaire", {"depth_limit": cap})


def random_game(game: Any, below: Callable[[int], int], after_move: Callable[[Any], None] | None = None) -> int:
    """Play one game of ``game`` to its end with uniformly random actions
    (``below(n)`` picks one of ``n``), sampling its chance nodes (the cards
    turned up) the same way; ``after_move(state)`` runs after each player
    move. Returns the player moves, which are what the benchmarks count."""
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[below(len(outcomes))][0])
            continue
        legal = state.legal_actions()
        state.apply_action(legal[below(len(legal))])
        moves += 1
        if after_move is not None:
            after_move(state)
    return moves
