"""Every environment refuses a bad setting the same way: one RulesError naming it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cardtable.envs.kings_corner import raw_env
from cardtable.envs.klondike import KlondikeEnv
from cardtable.envs.patience import PatienceEnv
from cardtable.errors import RulesError

MAKERS: dict[str, Callable[..., Any]] = {"klondike": KlondikeEnv, "patience": lambda **kw: PatienceEnv("golf", **kw),
                                         "kings-corner": lambda **kw: raw_env(2, **kw)}


@pytest.mark.parametrize("maker", MAKERS.values(), ids=MAKERS.keys())
def test_a_bad_reward_or_render_mode_is_one_rules_error(maker: Callable[..., Any]) -> None:
    with pytest.raises(RulesError, match=r"^unknown reward 'points'; choose from \w"):
        maker(reward="points")
    with pytest.raises(RulesError, match=r"^unknown render mode 'human'; this environment renders 'ansi'$"):
        maker(render_mode="human")


@pytest.mark.parametrize("maker", [KlondikeEnv, MAKERS["patience"]], ids=["klondike", "patience"])
def test_a_bad_illegal_action_or_limit_is_one_rules_error(maker: Callable[..., Any]) -> None:
    with pytest.raises(RulesError, match=r"^illegal_action must be 'ignore' or 'raise', not 'skip'$"):
        maker(illegal_action="skip")
    for value in (0, 2.5, True):
        with pytest.raises(RulesError, match=rf"^stall_limit must be a whole number >= 1, not {value!r}$"):
            maker(stall_limit=value)
