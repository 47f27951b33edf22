"""``cardtable/Klondike-v0`` played through the rules engine alone.

Private: :class:`EngineKlondikeEnv` is the reference the compiled step of
:class:`~cardtable.envs.klondike.KlondikeEnv` is held to
(``tests/envs/test_fast_matches_engine.py``). Every step asks the engine for
the legal moves, plays the move there and encodes the view; it is several
times slower and otherwise the same environment.
"""

from __future__ import annotations

from typing import Any, SupportsInt

import numpy as np

from cardtable.envs.klondike import (
    _MOVES,
    _OUTCOME_NO_PROGRESS,
    ACTION_COUNT,
    STOP,
    KlondikeEnv,
    _Encoder,
    _legal_bytes,
)
from cardtable.errors import IllegalMoveError, RulesError
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.position import Position
from cardtable.klondike.view import KlondikeView


class EngineKlondikeEnv(KlondikeEnv):
    """:class:`~cardtable.envs.klondike.KlondikeEnv` with every step played
    by the rules engine (the same arguments, the same behaviour)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._engine_game = KlondikeGame(Position.from_seed(0), self.variant)
        self._engine_view = self._engine_game.view()
        self._legal = _legal_bytes(self._engine_view.legal_moves, self.allow_stop)
        self._encoder = _Encoder()
        self._steps = self._stall = self._best_foundation = self._fewest_down = 0
        self._banked = 0.0
        self._keys: set[tuple[object, ...]] = set()

    @property
    def game(self) -> KlondikeGame:
        return self._engine_game

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super(KlondikeEnv, self).reset(seed=seed)
        start, deal_seed = self._start(options or {})
        if start is None:
            start = Position.from_seed(deal_seed or 0)
        self._engine_game = game = KlondikeGame(start, self.variant)
        self.deal_seed = deal_seed
        self._steps = self._stall = 0
        self._best_foundation = game.foundation_count()
        self._fewest_down = sum(game.face_down)
        self._banked = 0.0
        self._keys = {game.key()} if self.truncate_on_repeat else set()
        self._over = False
        observation, info, terminated, outcome = self._look()
        if terminated:
            info["outcome"] = outcome
        return observation, info

    def step(self, action: SupportsInt) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RulesError("the episode is over: call reset() first")
        game = self._engine_game
        index = int(action)
        self._steps += 1
        before = game.foundation_count()
        stopped = False
        if not 0 <= index < ACTION_COUNT or not self._legal[index]:
            if self.illegal_action == "raise":
                self._steps -= 1
                raise IllegalMoveError(self._why_illegal(index))
        elif index == STOP:
            stopped = True
        else:
            game.play(_MOVES[index])
        after = game.foundation_count()
        if self.reward_kind == "foundation":
            reward = float(after - before)
        elif self.reward_kind == "win":
            reward = 1.0 if after == 52 and before < 52 else 0.0
        else:
            money = float(self.variant.scoring.money(after))
            reward, self._banked = money - self._banked, money
        observation, info, terminated, outcome = self._look()
        truncated = False
        if not terminated and stopped:
            terminated, outcome = True, "stopped"
        if not terminated:
            terminated, truncated, outcome = self._clock()
        if terminated or truncated:
            self._over = True
            info["outcome"] = outcome
            info["foundation"] = after
        return observation, reward, terminated, truncated, info

    def _look(self) -> tuple[np.ndarray, dict[str, Any], bool, str]:
        view = self._engine_view = self._engine_game.view()
        legal = view.legal_moves
        self._legal = flags = _legal_bytes(legal, self.allow_stop)
        info = {"action_mask": np.frombuffer(bytearray(flags), dtype=np.int8)}
        observation = self._encoder.encode(view)
        if sum(view.foundation) == 52:
            return observation, info, True, "won"
        if not legal:
            return observation, info, True, "no legal move"
        return observation, info, False, ""

    def _clock(self) -> tuple[bool, bool, str]:
        view = self._engine_view
        found, down = sum(view.foundation), sum(view.face_down)
        event = ""
        if found > self._best_foundation or down < self._fewest_down:
            self._best_foundation = max(found, self._best_foundation)
            self._fewest_down = min(down, self._fewest_down)
            self._stall = 0
            self._keys.clear()
            if self.truncate_on_repeat:
                self._keys.add(self._engine_game.key())
        else:
            self._stall += 1
            if self.stall_limit is not None and self._stall >= self.stall_limit:
                event = "stalled"
            elif self.truncate_on_repeat:
                key = self._engine_game.key()
                if key in self._keys:
                    event = "repeated position"
                self._keys.add(key)
        if event:
            if self._engine_game.progress_possible(self.dead_search_limit) is False:
                return True, False, _OUTCOME_NO_PROGRESS
            return False, True, event
        if self._steps >= self.max_steps:
            return False, True, "max steps"
        return False, False, ""

    def action_masks(self) -> np.ndarray:
        return np.frombuffer(bytearray(self._legal), dtype=np.int8)

    def view(self) -> KlondikeView:
        return self._engine_view
