"""Policies as strategies on the command line.

A policy written for the environments is named ``module.path:attribute``;
importing :mod:`cardtable.envs` registers the resolvers that make players of
such names (see :class:`cardtable.bots.StrategyResolvers`). A command that is
given one imports the environments first, and only then: they load Gymnasium,
PettingZoo and numpy, which no other command waits for.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardtable.bots import is_policy_name
from cardtable.errors import RulesError

__all__ = ["load_policy_support"]


def load_policy_support(names: Iterable[str], what: str = "strategy") -> None:
    """Import the environments when one of ``names`` is a policy, so that
    ``make_player`` and ``make_bot`` resolve it. Without the environments'
    packages, a :class:`RulesError` names the policy (``what`` says whether it
    is a ``strategy`` or a ``bot``) and how to install them."""
    policy = next((name for name in names if is_policy_name(name)), None)
    if policy is None:
        return
    try:
        import cardtable.envs.agents  # noqa: F401  (registers the policy resolvers)
    except ImportError as error:
        raise RulesError(f"{what} {policy!r} is a policy, and policies need the environments: {error}") from None
