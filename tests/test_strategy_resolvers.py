"""The strategy resolvers: players of names the library does not define, registered by whoever can make them."""

from __future__ import annotations

import pytest

import cardtable.bots.kings_corner as kings_corner_bots
import cardtable.bots.klondike as klondike_bots
from cardtable.bots import StrategyResolvers, is_policy_name
from cardtable.bots.kings_corner import GreedyBot, make_bot
from cardtable.bots.klondike import GreedyPlayer, PriorityPlayer, make_player
from cardtable.errors import RulesError
from cardtable.kings_corner.errors import TableError


@pytest.fixture
def klondike(monkeypatch: pytest.MonkeyPatch) -> StrategyResolvers[klondike_bots.KlondikeBot]:
    """An empty registry in place of Klondike's, for this test only."""
    resolvers: StrategyResolvers[klondike_bots.KlondikeBot] = StrategyResolvers("klondike")
    monkeypatch.setattr(klondike_bots, "RESOLVERS", resolvers)
    return resolvers


@pytest.fixture
def kings_corner(monkeypatch: pytest.MonkeyPatch) -> StrategyResolvers[kings_corner_bots.Bot]:
    """An empty registry in place of Kings Corner's, for this test only."""
    resolvers: StrategyResolvers[kings_corner_bots.Bot] = StrategyResolvers("kings-corner")
    monkeypatch.setattr(kings_corner_bots, "RESOLVERS", resolvers)
    return resolvers


def test_an_unregistered_policy_says_it_needs_the_environments(
        klondike: StrategyResolvers[klondike_bots.KlondikeBot],
        kings_corner: StrategyResolvers[kings_corner_bots.Bot]) -> None:
    with pytest.raises(RulesError, match=r"^strategy 'pkg.mod:best' is a policy, and policies need the environments"):
        make_player("pkg.mod:best")
    with pytest.raises(TableError, match=r"^bot 'pkg.mod:best' is a policy, and policies need the environments"):
        make_bot("pkg.mod:best")


def test_a_registered_resolver_makes_the_players_it_accepts(
        klondike: StrategyResolvers[klondike_bots.KlondikeBot],
        kings_corner: StrategyResolvers[kings_corner_bots.Bot]) -> None:
    asked: list[tuple[str, int]] = []

    def greedy_bot(name: str, seed: int) -> kings_corner_bots.Bot:
        asked.append((name, seed))
        return GreedyBot(seed)

    klondike.register(is_policy_name, lambda name, seed: GreedyPlayer())
    kings_corner.register(is_policy_name, greedy_bot)
    kings_corner.register(is_policy_name, greedy_bot)  # twice: still one resolver
    assert isinstance(make_player("pkg.mod:best"), GreedyPlayer)
    assert isinstance(make_bot("pkg.mod:best", seed=7), GreedyBot)
    assert asked == [("pkg.mod:best", 7)]
    assert repr(kings_corner) == "StrategyResolvers('kings-corner', 1 resolver)"


def test_a_resolver_never_shadows_the_games_own_players(
        klondike: StrategyResolvers[klondike_bots.KlondikeBot],
        kings_corner: StrategyResolvers[kings_corner_bots.Bot]) -> None:
    klondike.register(lambda name: True, lambda name, seed: GreedyPlayer())
    kings_corner.register(lambda name: True, lambda name, seed: GreedyBot(seed))
    assert isinstance(make_player("priority"), PriorityPlayer)
    assert type(make_bot("strategic")).__name__ == "StrategicBot"
    assert isinstance(make_player("anything else"), GreedyPlayer)  # a name of its own: the resolver's


def test_names_no_resolver_accepts_are_unknown(
        klondike: StrategyResolvers[klondike_bots.KlondikeBot],
        kings_corner: StrategyResolvers[kings_corner_bots.Bot]) -> None:
    klondike.register(is_policy_name, lambda name, seed: GreedyPlayer())
    kings_corner.register(is_policy_name, lambda name, seed: GreedyBot(seed))
    with pytest.raises(RulesError, match="unknown strategy 'grandmaster'"):
        make_player("grandmaster")
    with pytest.raises(TableError, match="unknown bot 'grandmaster'"):
        make_bot("grandmaster")
