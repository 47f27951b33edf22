"""The table session: one rule seats and seeds every hand, bots play their turns,
penalty points add up to a match."""

from __future__ import annotations

from functools import partial

import pytest

from cardtable.bots.kings_corner import make_bot
from cardtable.game import Agent
from cardtable.kings_corner import KingsCornerGame, KingsCornerSession, MatchScore, TableError
from cardtable.kings_corner.actions import Action
from cardtable.kings_corner.game import KingsCornerView
from cardtable.kings_corner.session import BotFactory, derive_seed
from cardtable.sim.match import play_hand, record_of


def recording(name: str, seeds: list[tuple[str, int]]) -> BotFactory:
    """A greedy bot's factory that notes the seed each hand's bot is made with."""
    def make(seed: int) -> Agent[KingsCornerView, Action]:
        seeds.append((name, seed))
        return make_bot("greedy", seed)
    return make


def test_one_rule_deals_seats_and_seeds_each_hand() -> None:
    seeds: list[tuple[str, int]] = []
    session = KingsCornerSession([recording(n, seeds) for n in "abc"], seed=7, names=["a", "b", "c"])
    for hand in range(4):
        seeds.clear()
        game = session.deal(hand)
        assert game.initial_deck == KingsCornerGame.from_seed(3, derive_seed(7, hand)).initial_deck
        assert [session.seat_of(entry) for entry in range(3)] == [(entry + hand) % 3 for entry in range(3)]
        assert session.seating == tuple((seat - hand) % 3 for seat in range(3))
        assert session.seat_names == tuple("abc"[entry] for entry in session.seating)
        assert sorted(seeds) == [(name, derive_seed(7, hand, entry + 1)) for entry, name in enumerate("abc")]


def test_bots_play_until_a_person_is_to_act() -> None:
    session = KingsCornerSession([partial(make_bot, "greedy"), None, partial(make_bot, "strategic")], seed=3,
                                 hand=1)
    person = session.seat_of(1)
    assert person == 2 and session.agents[person] is None and session.bot_to_act
    seen: list[int] = []
    taken = session.play_bots(on_action=lambda seat, action: seen.append(seat))
    assert taken == len(seen) == len(session.game.history) > 0
    assert person not in seen and (session.game.is_over() or session.game.turn == person)
    assert not session.bot_to_act
    assert session.play_bots() == 0


def test_a_hand_scores_by_entry_once_it_is_over() -> None:
    session = KingsCornerSession([partial(make_bot, "greedy")] * 3, seed=1, target=10, hand=1)
    with pytest.raises(TableError, match="not over"):
        session.score_hand()
    session.play_bots()
    outcome = session.score_hand()
    assert session.score.totals == [outcome.penalties[session.seat_of(entry)] for entry in range(3)]
    assert list(session.by_entry(outcome.penalties)) == session.score.totals
    with pytest.raises(TableError, match="already scored"):
        session.score_hand()
    session.deal()
    assert session.hand == 2 and not session.game.history


def test_the_match_runner_plays_the_sessions_hands() -> None:
    players = ["greedy", "random", "strategic"]
    for index in range(3):
        result, game = play_hand(players, index, 9)
        session = KingsCornerSession([partial(make_bot, n) for n in players], 9, names=players, hand=index)
        session.play_bots()
        assert session.game.history == game.history and result.seating == session.seating
        record = record_of(players, index, 9)
        assert record.tag("Names") == ",".join(session.seat_names) and record.tag("Seed") == "9"
        assert record.tag("Hand") == str(index) and record.actions == game.history


def test_a_match_ends_at_the_target_and_the_lowest_total_wins() -> None:
    score = MatchScore(3, target=12)
    score.add([5, 0, 3])
    assert not score.is_over and score.leaders == (1,)
    score.add([0, 5, 9])
    assert score.is_over and score.totals == [5, 5, 12] and score.leaders == (0, 1)
    with pytest.raises(ValueError):
        score.add([1, 2])


@pytest.mark.parametrize(("seats", "names", "message"), [
    (1, None, "seats 2 to 6"),
    (7, None, "seats 2 to 6"),
    (3, ["a", "b"], "2 names for 3 seats"),
])
def test_a_table_that_cannot_be_is_refused(seats: int, names: list[str] | None, message: str) -> None:
    with pytest.raises(TableError, match=message):
        KingsCornerSession([None] * seats, names=names)
