"""Every patience game's played games in the results store: each game of
the registry (and a user's description) is kept under its game and rules
with its foundation cards out of its own total, its result and its record,
and reads back as it was; its statistics sum up its games after the figures
kept from before the store kept them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.klondike import Variant
from cardtable.patience import PatienceGame, get, load, names
from cardtable.patience.record import PatienceRecord
from cardtable.runs.store import ResultsStore
from cardtable.sim.played import (
    EarlierFigures,
    PlayedGame,
    game_stats,
    keep_earlier_figures,
    play_stats,
    played_games,
    record_played,
)


def _played(name: str, seed: int, moves: int) -> tuple[PatienceGame, PlayedGame]:
    """A game of ``name`` dealt from ``seed``, ``moves`` random legal moves into it, as played."""
    game = PatienceGame.from_seed(get(name), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(rng.choice(legal))
    return game, PlayedGame.of_patience(game, deal=str(seed), seconds=12.3456, finished="2026-11-29 10:00:00")


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(names()), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 40),
       player=st.sampled_from([None, "alice-0123456789ab"]))
def test_every_games_played_game_reads_back_as_it_was_under_its_game_and_rules(
        tmp_path_factory: pytest.TempPathFactory, name: str, seed: int, moves: int, player: str | None) -> None:
    game, played = _played(name, seed, moves)
    description = game.description
    key = played.game_key
    if name == "klondike":  # Klondike's rules: kept as Klondike's faces keep it, in Klondike's statistics
        assert key == ("klondike", Variant.from_options(played.options).game_key[1]) and played.variant == "draw1"
    else:
        assert (played.game, played.rules, played.total) == (description.name, description.rules_key,
                                                             description.cards.total)
    assert played.foundation == game.foundation_cards() <= played.total
    assert played.result == ("won" if game.is_won() else "lost" if game.is_over() else "abandoned")
    assert played.seconds == 12.346 and played.moves == len(game.moves)
    path = tmp_path_factory.mktemp("store") / "results.sqlite"
    with ResultsStore(path) as store:
        record_played(store, played, player=player)
        record_played(store, _played("golf" if name != "golf" else "tripeaks", seed, moves)[1], player=player)
    with ResultsStore(path, create=False) as store:
        assert played_games(store, player=player, game=key[0], rules=key[1]) == [played]
        assert played_games(store, player=player) == ([played] if name == "klondike" else [])  # others are apart
        other = "bob-0123456789abcd" if player is None else None  # one person's games are not another's
        assert played_games(store, player=other, game=key[0]) == []
        stats = game_stats(store, *key, "label", player=player)
    assert (stats.played, stats.won, stats.fewest_moves) == (1, int(played.won), played.moves if played.won else None)
    replayed = PatienceRecord.parse(played.record or "").replay()  # the record, to review it
    assert replayed.key() == game.key() and replayed.moves == game.moves


def test_a_users_description_is_kept_apart_from_the_shipped_game_of_its_name(tmp_path: Path) -> None:
    data = get("freecell").to_json()
    data["cells"]["count"] = 2
    file = tmp_path / "freecell.json"
    file.write_text(json.dumps(data))
    mine = load(str(file))
    assert mine.name == "freecell" and mine.rules_key != get("freecell").rules_key
    path = tmp_path / "results.sqlite"
    with ResultsStore(path) as store:
        for description in (mine, get("freecell"), mine):
            record_played(store, PlayedGame.of_patience(PatienceGame.from_seed(description, 1), deal="1",
                                                        seconds=3.0))
        assert game_stats(store, "freecell", mine.rules_key, "mine").played == 2
        assert game_stats(store, "freecell", get("freecell").rules_key, "shipped").played == 1


def test_a_game_out_of_its_own_total_is_checked_when_built() -> None:
    _, played = _played("golf", 5, 3)
    assert played.total == 52 and played.game == "golf"
    with pytest.raises(ValueError, match="foundation must be a whole number from 0 to 52"):
        PlayedGame(**{**played.__dict__, "foundation": 53})
    with pytest.raises(ValueError, match="result must be one of won, lost, abandoned"):
        PlayedGame(**{**played.__dict__, "result": "won"})  # not won
    with pytest.raises(ValueError, match="needs its rules key"):
        PlayedGame(**{**played.__dict__, "rules": ""})
    with pytest.raises(ValueError, match="52 for Klondike"):
        PlayedGame("draw1", Variant.preset("draw1").options(), "1", False, 1.0, 1, 1, total=104)
    spider = PlayedGame.of_patience(PatienceGame.from_seed(get("spider"), 1), deal="1", seconds=0.0)
    assert (spider.total, spider.result) == (104, "abandoned")


def _model(before: EarlierFigures | None, games: list[tuple[bool, float, int]]) -> tuple[object, ...]:
    """The figures counted one game at a time, after ``before``'s."""
    played = won = streak = best = 0
    fastest: float | None = None
    fewest: int | None = None
    if before is not None:
        played, won, streak, best, fastest, fewest = (before.played, before.won, before.streak, before.best_streak,
                                                      before.fastest, before.fewest)
    for is_won, seconds, moves in games:
        played += 1
        if not is_won:
            streak = 0
            continue
        won += 1
        streak += 1
        best = max(best, streak)
        fastest = seconds if fastest is None else min(fastest, seconds)
        fewest = moves if fewest is None else min(fewest, moves)
    return played, won, streak, best, fastest, fewest


@st.composite
def _earlier(draw: st.DrawFn) -> EarlierFigures | None:
    if draw(st.booleans()):
        return None
    won = draw(st.integers(0, 30))
    played = won + draw(st.integers(0, 30))
    best = draw(st.integers(min(won, 1), won))
    streak = draw(st.integers(0, best))
    return EarlierFigures(played, won, streak, best, draw(st.floats(1, 999)) if won else None,
                          draw(st.integers(1, 400)) if won else None, "golf-stats.json")


@settings(max_examples=60, deadline=None)
@given(before=_earlier(), games=st.lists(st.tuples(st.booleans(), st.floats(1, 999), st.integers(1, 400)),
                                         max_size=12))
def test_a_games_statistics_count_its_games_after_its_earlier_figures(
        tmp_path_factory: pytest.TempPathFactory, before: EarlierFigures | None,
        games: list[tuple[bool, float, int]]) -> None:
    description = get("golf")
    path = tmp_path_factory.mktemp("store") / "results.sqlite"
    with ResultsStore(path) as store:
        if before is not None:
            assert keep_earlier_figures(store, "golf", description.rules_key, before)
            assert not keep_earlier_figures(store, "golf", description.rules_key, EarlierFigures(0, 0, 0, 0, None,
                                                                                                  None))
        for won, seconds, moves in games:
            record_played(store, PlayedGame("golf", {"applied": []}, "1", won, seconds, moves, 52 if won else 3,
                                            game="golf", rules=description.rules_key))
    with ResultsStore(path, create=False) as store:
        stats = game_stats(store, "golf", description.rules_key, "golf")
        assert game_stats(store, "golf", description.rules_key, "golf", player="alice-0123456789ab").played \
            == 0  # the earlier figures are the terminal's person's only
        assert play_stats(store) == []  # Klondike's figures are apart
    assert (stats.played, stats.won, stats.current_streak, stats.best_streak, stats.best_seconds,
            stats.fewest_moves) == _model(before, games)
    assert stats.win_rate == (stats.won / stats.played if stats.played else 0.0)


def test_earlier_figures_that_no_games_give_are_refused() -> None:
    with pytest.raises(ValueError, match="streak <= best streak <= won <= played"):
        EarlierFigures(3, 4, 0, 0, 1.0, 1)
    with pytest.raises(ValueError, match="exactly when a game was won"):
        EarlierFigures(3, 1, 0, 1, None, None)
