"""Action notation and game records round-trip; bad records get clear errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.bots.kings_corner import make_bot
from cardtable.cards import Card, new_deck
from cardtable.kings_corner import (
    DRAW,
    PASS,
    ActionNotationError,
    HandRecord,
    KingsCornerGame,
    MovePile,
    PilePosition,
    PlayCard,
    RecordError,
    parse_action,
)

actions = st.one_of(
    st.builds(PlayCard, st.sampled_from(new_deck()), st.sampled_from(list(PilePosition))),
    st.builds(MovePile, st.sampled_from(list(PilePosition)), st.sampled_from(list(PilePosition))),
    st.just(DRAW),
    st.just(PASS),
)


@given(actions)
def test_action_notation_round_trips(action) -> None:
    text = str(action)
    assert parse_action(text) == action
    assert parse_action(text.upper()) == action
    assert parse_action("  " + text.lower() + " ") == action


def test_action_notation_accepts_other_card_spellings() -> None:
    assert parse_action("play 10h sw") == PlayCard(Card.parse("Th"), PilePosition.SW)
    assert parse_action("play 7♥ n") == PlayCard(Card.parse("7h"), PilePosition.N)


@pytest.mark.parametrize(("text", "message"), [
    ("play 1x N", "bad action 'play 1x N'.*unknown card"),
    ("play 7h Q", "unknown pile 'Q'"),
    ("move N", "unknown action"),
    ("jump", "unknown action 'jump'"),
    ("", "unknown action"),
    ("draw 2", "unknown action"),
])
def test_bad_action_notation(text: str, message: str) -> None:
    with pytest.raises(ActionNotationError, match=message):
        parse_action(text)


def bot_game(players: int, seed: int, moves: int | None = None) -> KingsCornerGame:
    game = KingsCornerGame.from_seed(players, seed)
    bots = [make_bot(name, seed) for name in ("strategic", "greedy", "random") * 2]
    count = 0
    while not game.is_over() and (moves is None or count < moves):
        game.play(bots[game.turn].choose(game.view()))
        count += 1
    return game


@given(st.integers(2, 6), st.integers(0, 2**32), st.one_of(st.none(), st.integers(0, 40)))
def test_record_text_and_json_round_trip(players: int, seed: int, moves: int | None) -> None:
    game = bot_game(players, seed, moves)
    record = HandRecord.from_game(game, [("Names", "a,b"), ("Event", 'say "hi"')])
    text = record.to_text()
    again = HandRecord.from_text(text)
    assert again == record
    assert again.to_text() == text
    assert HandRecord.from_json(record.to_json()) == record
    replayed = record.replay()
    assert replayed.piles == game.piles and replayed.outcome() == game.outcome()
    assert [replayed.hand(s) for s in range(players)] == [game.hand(s) for s in range(players)]


def test_record_text_layout() -> None:
    game = KingsCornerGame.from_seed(3, 1)
    game.play(DRAW)
    game.play(DRAW)
    text = HandRecord.from_game(game, [("Seed", "1")]).to_text()
    lines = text.splitlines()
    assert lines[:2] == ['[Game "Kings Corner"]', '[Players "3"]']
    assert lines[2] == '[Seed "1"]'
    assert lines[3].startswith('[Deck "') and len(lines[3].split()) == 53
    assert lines[4] == '[Result "*"]'
    assert lines[5:] == ["", "1 P1: draw", "2 P2: draw"]


def good_text() -> str:
    return HandRecord.from_game(bot_game(3, 4)).to_text()


def replace_line(text: str, start: str, new: str) -> str:
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(start))
    lines[index] = new
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("edit", "message"), [
    (lambda t: t.replace('[Players "3"]', '[Players "three"]'), "line 2: Players must be"),
    (lambda t: t.replace('[Players "3"]\n', ""), "missing tag"),
    (lambda t: t.replace('[Deck "', '[Deck "Zz '), "line 3: Deck: card 1: unknown card 'Zz'"),
    (lambda t: t.replace('[Deck "', '[Deck "Ah '), "line 3: bad deal: card Ah appears twice"),
    (lambda t: replace_line(t, "1 P1:", "1 P1: play Kh Q"), r"line 6, action 1: bad action"),
    (lambda t: replace_line(t, "1 P1:", "1 P2: draw"), "line 6: expected turn 1 by P1"),
    (lambda t: replace_line(t, "1 P1:", "1 P1: draw; draw"), "line 6, action 2: 'draw' comes "),
    (lambda t: replace_line(t, "1 P1:", "hello"), "line 6: expected a tag or a turn"),
    (lambda t: replace_line(t, "[Result", '[Result "P9"]'), "line 4: Result says 'P9'"),
    (lambda t: replace_line(t, "[Game", "[Game Kings]"), "line 1: bad tag"),
])
def test_bad_records_name_the_line(edit, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        HandRecord.from_text(edit(good_text()))


def test_illegal_action_in_record_names_line_and_reason() -> None:
    game = KingsCornerGame.from_seed(2, 9)
    record = HandRecord.from_game(game).to_text() + "1 P1: move NE N\n"
    with pytest.raises(RecordError, match=r"line 6, action 1: illegal action 'move NE N'"
                       r".*Can't move a corner pile"):
        HandRecord.from_text(record)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d.pop("players"), "field 'players'"),
    (lambda d: d.update(deck=5), "field 'deck'"),
    (lambda d: d.update(deck="Ah Xx"), "field 'deck': card 2"),
    (lambda d: d.update(actions=["draw", 3]), "field 'actions', item 2"),
    (lambda d: d.update(actions=["fly"]), "field 'actions', item 1: unknown action"),
    (lambda d: d.update(actions=["pass"]), "action 1: illegal action 'pass'"),
    (lambda d: d.update(result="P1"), "field 'result'"),
    (lambda d: d.update(tags=[1]), "field 'tags'"),
])
def test_bad_json_records_name_the_field(edit, message: str) -> None:
    data = json.loads(HandRecord.from_game(KingsCornerGame.from_seed(2, 2)).to_json())
    edit(data)
    with pytest.raises(RecordError, match=message):
        HandRecord.from_json(json.dumps(data))


def test_json_that_is_not_a_record() -> None:
    with pytest.raises(RecordError, match="not JSON"):
        HandRecord.from_json("{nope")
    with pytest.raises(RecordError, match="object"):
        HandRecord.from_json("[1, 2]")


@pytest.mark.parametrize(("players", "message"), [("9", "line 2: Kings Corner is for 2 to 6 players, not 9"),
                                                  ("²", "line 2: Players must be a number of players"),
                                                  ("1" * 50, "line 2: Players must be a number of players")])
def test_an_impossible_number_of_players_names_the_players_line(players: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        HandRecord.from_text(good_text().replace('[Players "3"]', f'[Players "{players}"]'))


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d.update(action=["draw"]), "unknown field 'action'"),
    (lambda d: d.update(game="Klondike"), "field 'game': this is a record of 'Klondike'"),
    (lambda d: d.update(tags={"My Tag": "x"}), "header name 'My Tag' cannot be written as a tag"),
    (lambda d: d.update(tags={"Deck": "x"}), "header Deck is written by the record itself"),
])
def test_json_records_are_read_strictly(edit, message: str) -> None:
    data = json.loads(HandRecord.from_game(KingsCornerGame.from_seed(2, 2)).to_json())
    edit(data)
    with pytest.raises(RecordError, match=message):
        HandRecord.from_json(json.dumps(data))


def test_tag_values_with_quotes_brackets_and_line_breaks_round_trip() -> None:
    tags = (("Event", 'the "big" one]'), ("Note", "two\nlines\r\tand \\ a \u2028 break"))
    record = HandRecord.from_game(bot_game(2, 5, moves=4), tags)
    text = record.to_text()
    assert '[Event "the \\"big\\" one]"]' in text and "\\n" in text and "\u2028" not in text
    assert HandRecord.from_text(text).tags == tags
    assert HandRecord.from_json(record.to_json()).tags == tags
