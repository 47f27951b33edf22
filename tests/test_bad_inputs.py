"""Bad input never escapes as a traceback, and is never silently accepted:
each case below is refused with a cardtable error that says what is wrong."""

from __future__ import annotations

import json

import pytest
from klondike_helpers import layout

from cardtable.errors import CardtableError, RecordError
from cardtable.kings_corner import HandRecord
from cardtable.klondike import KlondikeRecord, Position, Variant, VariantError, read_layout
from cardtable.klondike.formats import detect_format, from_pysol, to_pysol

DEAL = Position.from_seed(4).deal_string()


@pytest.mark.parametrize(("options", "message"), [
    ({"draw": 3.0}, "draw must be a whole number"),
    ({"draw": True}, "draw must be a whole number"),
    ({"passes": 2.7}, "passes must be a whole number"),
    ({"passes": 1e999}, "passes must be a whole number"),
    ({"passes": True}, "passes must be a whole number"),
    ({"name": "nosuch"}, "unknown variant 'nosuch'"),
])
def test_variant_options_are_read_strictly(options: dict[str, object], message: str) -> None:
    with pytest.raises(VariantError, match=message):
        Variant.from_options(options)
    with pytest.raises(VariantError):
        Variant(draw=3.0)  # type: ignore[arg-type]


def test_variant_options_still_read_what_records_write() -> None:
    for variant in (Variant.preset("vegas3"), Variant.preset("draw1").replace(passes=3, empty="any")):
        assert Variant.from_options(variant.options()).rules_key() == variant.rules_key()
    assert Variant.from_options({"draw": "3", "passes": "unlimited"}).draw == 3


@pytest.mark.parametrize(("text", "message"), [
    (f'[Variant "nosuch"]\n[Deal "{DEAL}"]\n\n1. D\n', "unknown variant 'nosuch'"),
    (f'[Deal "{DEAL}"]\n\n1. D {{ never closed 2. D\n', "comment is never closed"),
    (f'[Deal "{DEAL}"]\n[Position "{Position.from_seed(5)}"]\n\n1. D\n', "different starts"),
    (json.dumps({"variant": {"draw": 3.0}, "deal": DEAL, "moves": []}), "draw must be a whole number"),
    ("[" * 100_000, "a header must read"),
    ("{" * 100_000, "nested too deeply|JSON record"),
])
def test_bad_klondike_records(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        KlondikeRecord.parse(text)


def test_a_matching_position_header_is_accepted() -> None:
    start = Position.from_seed(4)
    record = KlondikeRecord.parse(f'[Deal "{DEAL}"]\n[Position "{start}"]\n\n1. D\n')
    assert record.start == start


def test_deeply_nested_kings_corner_json_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="nested too deeply"):
        HandRecord.from_json("[" * 100_000)


@pytest.mark.parametrize("foundation", ["5", "true", '"Ah"'])
def test_solvitaire_foundation_of_the_wrong_shape(foundation: str) -> None:
    text = '{"tableau piles": [[],[],[],[],[],[],[]], "stock": [], "foundation": ' + foundation + "}"
    with pytest.raises(CardtableError, match="foundation"):
        read_layout(text)


def test_pysol_foundation_of_ten_is_read() -> None:
    position = layout(["Kc"], foundation=(0, 0, 10, 0))
    board = to_pysol(position)
    assert "H-T" in board
    assert from_pysol(board.replace("H-T", "H-10")) == position  # "10" is documented beside "T"


def test_a_truncated_json_record_is_reported_as_a_record() -> None:
    text = json.dumps({"variant": {"name": "draw1"}, "deal": DEAL, "moves": ["D"]})[:-10]
    assert detect_format(text) == "record"
    with pytest.raises(RecordError, match="JSON record"):
        KlondikeRecord.parse(text)


def test_a_pysol_board_without_its_talon_line_says_so() -> None:
    board = to_pysol(Position.from_seed(9)).split("\n", 1)[1]
    with pytest.raises(CardtableError, match="Talon"):
        read_layout(board)
