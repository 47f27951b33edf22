"""Players for every game: bots that see only what a seat at the table sees.

- :mod:`cardtable.bots.klondike`: Klondike's strategies (``priority``,
  ``turns``, ``greedy``, ``random``, ``expert``) and :func:`make_player`;
- :mod:`cardtable.bots.kings_corner`: Kings Corner's bots (``random``,
  ``greedy``, ``strategic``, ``expert``) and :func:`make_bot`.

Each game's players are imported from its own package, so a Kings Corner
match never loads the Klondike solver that Klondike's expert needs. Both
experts guess what their seat cannot see the same way: the view says which
cards are hidden and where (``hidden_cards()``), and
:class:`cardtable.game.HiddenCards` deals them from the bot's seeded generator.

Players the library does not define itself, such as a policy written for the
environments (named ``module.path:attribute``), come from a game's
:class:`StrategyResolvers`: whoever knows how to make them registers a
resolver there (importing :mod:`cardtable.envs` registers the policies), and
``make_player`` / ``make_bot`` ask the registry for any name that is not one
of their own. The library never imports what registers into it.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Resolver", "StrategyResolvers", "is_policy_name"]

P = TypeVar("P")

#: A resolver as registered: the predicate on a name, and the maker of a player from the name and a seed.
Resolver = tuple[Callable[[str], bool], Callable[[str, int], P]]

#: How to install what policies need, for the errors that say so.
_RL_HINT = 'pip install "cardtable[rl]"'


def is_policy_name(name: str) -> bool:
    """Whether a strategy name names a policy written for the environments:
    ``module.path:attribute``.

    >>> is_policy_name("mypkg.policies:best"), is_policy_name("expert samples=8")
    (True, False)
    """
    return ":" in name


def _policies_need_the_environments(what: str, name: str) -> str:
    """The error for a policy name when nothing resolves policies in this process."""
    return (f"{what} {name!r} is a policy, and policies need the environments: import cardtable.envs "
            f"(which needs {_RL_HINT})")


class StrategyResolvers(Generic[P]):
    """The resolvers of one game's players by name: each is a predicate on
    the name and a function making the player from the name and a seed.

    A registry lives for the process; a name is resolved by the first
    resolver, in the order they were registered, whose predicate accepts it.

    >>> shouting = StrategyResolvers[str]("example")
    >>> shouting.resolve("loud:hello") is None
    True
    >>> shouting.register(lambda name: name.startswith("loud:"), lambda name, seed: f"{name.upper()} {seed}")
    >>> shouting.resolve("loud:hello", seed=3)
    'LOUD:HELLO 3'
    >>> shouting
    StrategyResolvers('example', 1 resolver)
    """

    def __init__(self, game: str) -> None:
        self.game = game
        self._resolvers: list[Resolver[P]] = []

    def __repr__(self) -> str:
        count = len(self._resolvers)
        return f"StrategyResolvers({self.game!r}, {count} resolver{'' if count == 1 else 's'})"

    def register(self, accepts: Callable[[str], bool], resolver: Callable[[str, int], P]) -> None:
        """Resolve the names ``accepts(name)`` holds for with ``resolver(name,
        seed)``. Registering the same pair again changes nothing (a module
        imported twice registers once)."""
        if (accepts, resolver) not in self._resolvers:
            self._resolvers.append((accepts, resolver))

    def resolve(self, name: str, seed: int = 0) -> P | None:
        """The player the first accepting resolver makes, or None when no
        resolver accepts ``name``."""
        for accepts, resolver in self._resolvers:
            if accepts(name):
                return resolver(name, seed)
        return None

    def portable(self) -> tuple[Resolver[P], ...]:
        """The registered resolvers that can travel to another process with
        its work (those that pickle: functions defined at a module's top
        level). Another process starts with an empty registry unless it was
        forked: a Dask worker or a spawned process gets the resolvers with
        each unit and :meth:`adopt` registers them there (unpickling a
        function imports its module, which may register it itself)."""
        travelling: list[Resolver[P]] = []
        for pair in self._resolvers:
            try:
                pickle.dumps(pair)
            except (pickle.PicklingError, AttributeError, TypeError):
                continue
            travelling.append(pair)
        return tuple(travelling)

    def adopt(self, resolvers: tuple[Resolver[P], ...]) -> None:
        """Register ``resolvers`` (from :meth:`portable`) that this process
        does not have yet.

        >>> here = StrategyResolvers[str]("example")
        >>> here.register(is_policy_name, lambda name, seed: name)
        >>> here.portable()  # a lambda cannot travel
        ()
        >>> import operator
        >>> here.register(is_policy_name, operator.mul)  # a top-level function travels
        >>> there = StrategyResolvers[str]("example")
        >>> there.adopt(here.portable())
        >>> there.resolve("echo:", seed=2)
        'echo:echo:'
        """
        for accepts, resolver in resolvers:
            self.register(accepts, resolver)
