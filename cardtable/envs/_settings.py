"""The settings every environment checks the same way when it is made: its
reward, what an illegal action does, its render mode and its whole-number
limits, each refused in one line naming the setting."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from cardtable.errors import RulesError

__all__ = ["IllegalAction", "check_settings", "whole"]

#: What an illegal action does: nothing (the step counts), or raise :class:`~cardtable.errors.IllegalMoveError`.
IllegalAction = Literal["ignore", "raise"]


def whole(value: object, what: str, low: int) -> int:
    """``value`` when it is a whole number of at least ``low``; else a
    :class:`~cardtable.errors.RulesError` naming the setting ``what``.

    >>> whole(5, "max_steps", 1)
    5
    """
    if type(value) is not int or value < low:
        raise RulesError(f"{what} must be a whole number >= {low}, not {value!r}")
    return value


def check_settings(reward: str, rewards: Sequence[str], render_mode: str | None, render_modes: Sequence[str],
                   illegal_action: str = "ignore") -> None:
    """Refuse a ``reward`` not in ``rewards``, an ``illegal_action`` other than
    ``"ignore"`` and ``"raise"``, and a ``render_mode`` not in ``render_modes``."""
    if reward not in rewards:
        raise RulesError(f"unknown reward {reward!r}; choose from {', '.join(rewards)}")
    if illegal_action not in ("ignore", "raise"):
        raise RulesError(f"illegal_action must be 'ignore' or 'raise', not {illegal_action!r}")
    if render_mode is not None and render_mode not in render_modes:
        raise RulesError(f"unknown render mode {render_mode!r}; this environment renders "
                         f"{', '.join(repr(mode) for mode in render_modes)}")
