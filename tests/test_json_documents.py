"""The JSON readers (both games' records, Solvitaire deals) refuse a bad document each in its own words,
and read one that starts with a byte order mark."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardtable.errors import CardtableError, RecordError
from cardtable.kings_corner import KingsCornerGame
from cardtable.kings_corner.record import HandRecord
from cardtable.klondike import KlondikeGame, KlondikeRecord, Position
from cardtable.klondike.formats import from_solvitaire, to_solvitaire
from cardtable.klondike.position import DealError

SYNTAX, NESTED, LONG_NUMBER, NOT_AN_OBJECT, UNKNOWN_FIELDS = (
    '{\n "a": }', "[" * 100_000, '{"n": 1' + "0" * 5000 + "}", "[1]", '{"zz": 1, "yy": 2}')
TOO_LONG = "'Exceeds the limit (4300 digits) for integer string conversion: value has 5001 digits; use sys.set_…"

READERS: dict[str, tuple[Callable[[str], object], type[CardtableError], dict[str, str]]] = {
    "kings corner record": (HandRecord.from_json, RecordError, {
        SYNTAX: "not JSON: Expecting value: line 2 column 7 (char 8)",
        NESTED: "JSON record: nested too deeply to be a record",
        LONG_NUMBER: f"JSON record: {TOO_LONG}",
        NOT_AN_OBJECT: "a JSON record is an object with players, deck and actions",
        UNKNOWN_FIELDS: "unknown field 'yy': a JSON record holds game, players, deck, actions, tags and result",
    }),
    "klondike record": (KlondikeRecord.from_json, RecordError, {
        SYNTAX: "JSON record, line 2: Expecting value",
        NESTED: "JSON record: nested too deeply to be a record",
        LONG_NUMBER: f"JSON record: {TOO_LONG}",
        NOT_AN_OBJECT: "JSON record: expected an object",
        UNKNOWN_FIELDS: "JSON record: unknown field 'yy'; the fields are headers, variant, deal, position and moves",
    }),
    "solvitaire deal": (from_solvitaire, DealError, {
        SYNTAX: "Solvitaire JSON, line 2: Expecting value",
        NESTED: "Solvitaire JSON: nested too deeply to be a deal",
        LONG_NUMBER: f"Solvitaire JSON: {TOO_LONG}",
        NOT_AN_OBJECT: "Solvitaire JSON: expected an object with a 'tableau piles' field",
        UNKNOWN_FIELDS: "Solvitaire JSON: expected an object with a 'tableau piles' field",
    }),
}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("document", [SYNTAX, NESTED, LONG_NUMBER, NOT_AN_OBJECT, UNKNOWN_FIELDS],
                         ids=["syntax", "nested", "long number", "not an object", "unknown fields"])
def test_a_bad_document_is_one_error_in_the_readers_words(reader: str, document: str) -> None:
    read, error, messages = READERS[reader]
    with pytest.raises(error) as raised:
        read(document)
    assert type(raised.value) is error
    assert str(raised.value) == messages[document]
    with pytest.raises(error, match="^" + messages[document][:20]):
        read("\ufeff" + document)  # the mark changes nothing, not even the line of a syntax error


def test_a_byte_order_mark_is_skipped() -> None:
    klondike = KlondikeRecord.from_game(KlondikeGame.from_seed(4))
    assert KlondikeRecord.from_json("\ufeff" + klondike.to_json()) == klondike
    hand = HandRecord.from_game(KingsCornerGame.from_seed(2, 7))
    assert HandRecord.from_json("\ufeff" + hand.to_json()) == hand
    position = Position.from_seed(4)
    assert from_solvitaire("\ufeff" + to_solvitaire(position)) == position
