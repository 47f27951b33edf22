"""Bad input never escapes as a traceback, and is never silently accepted:
each case below is refused with a cardtable error that says what is wrong."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import ModuleType

import pytest
from klondike_helpers import layout

from cardtable.errors import CardtableError, RecordError
from cardtable.kings_corner import HandRecord, KingsCornerGame
from cardtable.klondike import (
    DealError,
    KlondikeRecord,
    Move,
    MoveError,
    Position,
    Variant,
    VariantError,
    read_deals,
    read_layout,
)
from cardtable.klondike.formats import detect_format, from_pysol, moves_from_klondike_solver, to_pysol
from cardtable.klondike.variant import parse_passes
from cardtable.sim.compare import compare_strategies, comparison_table

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


# ----- pass numbers a game cannot reach ----------------------------------------------------------------

_MID = Position.parse(str(Position.from_seed(4)).rsplit(" ", 1)[0] + " 3")


@pytest.mark.parametrize(("pass_text", "message"), [
    ("-1", "pass: a whole number"), ("0", "pass number must be at least 1"), ("2.5", "pass: a whole number"),
    ("²", "pass: a whole number"), ("9" * 40, "pass: a whole number"),
])
def test_impossible_pass_numbers_in_a_record_are_refused(pass_text: str, message: str) -> None:
    position = str(Position.from_seed(4)).rsplit(" ", 1)[0] + " " + pass_text
    with pytest.raises(RecordError, match=message):
        KlondikeRecord.parse(f'[Variant "draw1"]\n[Position "{position}"]\n\n1. D\n')
    with pytest.raises(RecordError, match=message):
        KlondikeRecord.parse(json.dumps({"variant": {"name": "draw1"}, "position": position, "moves": []}))


def test_a_pass_beyond_the_variants_passes_is_refused() -> None:
    with pytest.raises(RecordError, match=r"start: the position is in pass 3, but the variant allows 1 pass$"):
        KlondikeRecord.parse(f'[Variant "seed-002"]\n[Position "{_MID}"]\n\n1. D\n')
    with pytest.raises(RecordError, match="allows 1 pass"):
        KlondikeRecord.parse(json.dumps({"variant": {"name": "vegas1"}, "position": str(_MID)}))
    with pytest.raises(RecordError, match="allows 1 pass"):
        KlondikeRecord(Variant.preset("seed-002"), _MID)
    assert KlondikeRecord.parse(f'[Variant "seed-000"]\n[Position "{_MID}"]\n').start == _MID  # 3 of 3 is fine


# ----- records: one start, one game, text headers ----------------------------------------------------------


def test_json_deal_and_position_that_disagree_are_refused() -> None:
    data = {"variant": {"name": "draw1"}, "deal": DEAL, "position": str(Position.from_seed(5))}
    with pytest.raises(RecordError, match="'deal' and 'position' give different starts"):
        KlondikeRecord.parse(json.dumps(data))
    data["position"] = str(Position.from_seed(4))
    assert KlondikeRecord.parse(json.dumps(data)).start == Position.from_seed(4)


@pytest.mark.parametrize(("data", "message"), [
    ({"deal": 5}, "field 'deal': expected a string, not a number"),
    ({"deal": DEAL, "moves": ["D", 3]}, "move 2: expected a move string, not a number"),
    ({"deal": DEAL, "moves": "D R"}, "field 'moves': expected a list"),
    ({"deal": DEAL, "headers": {"Seed": 4}}, "header 'Seed': expected a string, not a number"),
    ({"deal": DEAL, "headers": {"My Tag": "x"}}, "header name 'My Tag' cannot be written"),
    ({"deal": DEAL, "headers": {"Deal": "x"}}, "header Deal is written by the record itself"),
    ({"deal": DEAL, "variant": "draw1"}, "field 'variant': expected an object"),
    ({"deal": DEAL, "variant": {"draw": True}}, "draw must be a whole number"),
    ({"deal": DEAL, "move": ["D"]}, "unknown field 'move'"),
    ({"variant": {}}, "no 'deal' or 'position' field"),
])
def test_json_records_of_the_wrong_shape_name_the_field(data: dict[str, object], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        KlondikeRecord.from_json(json.dumps(data))


@pytest.mark.parametrize("raw", ["1" * 5000, "1e999", "-1e999", "NaN"])
def test_json_numbers_python_cannot_hold_are_refused(raw: str) -> None:
    text = f'{{"deal": "{DEAL}", "moves": [], "variant": {{"draw": {raw}}}}}'
    with pytest.raises(RecordError):
        KlondikeRecord.parse(text)
    hand = f'{{"players": {raw}, "deck": "Ah", "actions": []}}'
    with pytest.raises(RecordError):
        HandRecord.from_json(hand)
    board = f'{{"tableau piles": [[],[],[],[],[],[],[]], "stock": [{raw}]}}'
    with pytest.raises(CardtableError):
        read_layout(board)


def test_a_record_of_another_game_is_refused_by_both() -> None:
    with pytest.raises(RecordError, match="line 1: this is a record of 'Kings Corner', not of Klondike"):
        KlondikeRecord.parse(f'[Game "Kings Corner"]\n[Deal "{DEAL}"]\n')
    hand = HandRecord.from_game(KingsCornerGame.from_seed(2, 3)).to_text().replace("Kings Corner", "Klondike")
    with pytest.raises(RecordError, match="line 1: this is a record of 'Klondike'"):
        HandRecord.from_text(hand)


@pytest.mark.parametrize("line", ['[My Tag "x"]', '[0 "x"]', '[Tag "unclosed]', '[Tag "a"b"]', "[Tag x]"])
def test_header_lines_no_record_writes_are_refused_in_both_games(line: str) -> None:
    with pytest.raises(RecordError, match="line 2"):
        KlondikeRecord.parse(f'[Deal "{DEAL}"]\n{line}\n\n1. D\n')
    hand = HandRecord.from_game(KingsCornerGame.from_seed(2, 3)).to_text().splitlines()
    with pytest.raises(RecordError, match="line 2: bad tag"):
        HandRecord.from_text("\n".join([hand[0], line, *hand[1:]]))


def test_a_header_given_twice_is_refused_in_both_games() -> None:
    with pytest.raises(RecordError, match="line 2: header Deal given twice"):
        KlondikeRecord.parse(f'[Deal "{DEAL}"]\n[Deal "{DEAL}"]\n')
    hand = HandRecord.from_game(KingsCornerGame.from_seed(2, 3)).to_text().splitlines()
    with pytest.raises(RecordError, match="line 2: tag Game given twice"):
        HandRecord.from_text("\n".join([hand[0], *hand]))


# ----- layouts, deals files and solver move lists -------------------------------------------------------------


@pytest.mark.parametrize(("line", "message"), [
    ("Foundations: H-1 C-0 D-0 S-0", None),
    ("Foundations: H-2 H-3", "the hearts foundation is given twice"),
    ("Foundations: garbage", "foundation 'garbage' must read suit-rank"),
    ("Foundations: H-²", "foundation 'H-²' must read"),
])
def test_pysol_foundation_lines_are_read_strictly(line: str, message: str | None) -> None:
    board = to_pysol(Position.from_seed(9)).split("\n")
    text = "\n".join([board[0], line, *board[1:]])
    if message is None:
        position = from_pysol(text.replace("H-1", "H-0"))
        assert position == Position.from_seed(9)
        with pytest.raises(CardtableError, match="Ah appears twice"):  # H-1 is the ace, already in play
            from_pysol(text)
    else:
        with pytest.raises(CardtableError, match=f"line 2: {message}"):
            from_pysol(text)


def test_a_pysol_board_with_two_talon_lines_is_refused() -> None:
    board = to_pysol(Position.from_seed(9))
    with pytest.raises(CardtableError, match="line 2: a second Talon line"):
        from_pysol(board.split("\n")[0] + "\n" + board)


def test_solvitaire_with_two_foundations_of_one_suit_is_refused() -> None:
    text = json.dumps({"tableau piles": [[]] * 7, "stock": [], "foundation": [["AC"], ["AC", "2C"]]})
    with pytest.raises(CardtableError, match=r"foundation pile 2, card 1: .* is already on the clubs foundation"):
        read_layout(text)


@pytest.mark.parametrize(("line", "message"), [
    ("²", "write a seed in the digits 0-9"), ("٣", "write a seed in the digits 0-9"),
    (str(2**64), "a seed is a whole number >= 0 and at most 2\\*\\*64 - 1"), ("-4", "a seed is a whole number >= 0"),
    ("9" * 60, "a seed is .* at most 2\\*\\*64 - 1, not 9{29}…$"),
])
def test_deals_file_seeds_that_are_not_seeds(line: str, message: str) -> None:
    with pytest.raises(DealError, match=f"deals.txt, line 2: {message}"):
        read_deals(f"1\n{line}\n", source="deals.txt")


@pytest.mark.parametrize(("text", "message"), [
    ("DR", "DR takes a count"), ("DR99999999999", "DR takes a count"), ("DR²", "DR takes a count"),
    ("ZZ", "unknown Klondike-Solver move 'ZZ'"), ("W1-٣", "unknown Klondike-Solver move"),
])
def test_klondike_solver_move_lists_are_refused_as_moves(text: str, message: str) -> None:
    with pytest.raises(MoveError, match=message):
        moves_from_klondike_solver(text)


@pytest.mark.parametrize("text", ["2>6:٣", "2>6:0", "2>6:14", "١>F"])
def test_move_counts_are_ascii_and_possible(text: str) -> None:
    with pytest.raises(MoveError, match="cannot read move"):
        Move.parse(text)


def test_messages_quote_long_input_short() -> None:
    for reader in (Move.parse, Position.parse, KlondikeRecord.parse, read_deals, Variant.preset):
        with pytest.raises(CardtableError) as caught:
            reader("Z" * 10_000)
        assert len(str(caught.value)) < 300 and "Z" * 100 not in str(caught.value)


# ----- the comparison table ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "shown", "hidden"), [
    ("seed-002", "net/game", "points/game"), ("standard1", "points/game", "net/game"), ("draw1", None, "/game"),
])
def test_the_comparison_table_shows_the_worth_the_scoring_keeps(variant: str, shown: str | None,
                                                                hidden: str) -> None:
    rules = Variant.preset(variant)
    rows = compare_strategies(["greedy", "random"], rules, 6, workers=1)
    table = comparison_table(rows, rules)
    header, rule, *lines = table.splitlines()
    assert len(lines) == 2 and set(rule) == {"-"} and len(rule) == len(header)
    assert hidden not in header
    assert ("$" in table) == (rules.scoring.kind == "vegas")
    if shown is not None:
        assert shown in header
    if rules.scoring.kind == "vegas":
        assert all("$" in line for line in lines)
    elif rules.scoring.kind == "standard":
        assert all(f"{row['score_mean']:.1f}" in line for row, line in zip(rows, lines, strict=True))


@pytest.mark.parametrize(("options", "message"), [
    ({"name": "seed-002", "draw": 3}, "variant seed-002 has draw 1, not 3; name it custom"),
    ({"name": "draw1", "scoring": "vegas"}, "variant draw1 has scoring none, not 'vegas'"),
    ({"name": "vegas3", "passes": "unlimited"}, "variant vegas3 has passes 3, not 'unlimited'"),
])
def test_options_that_contradict_a_preset_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(VariantError, match=message):
        Variant.from_options(options)
    assert Variant.from_options({**options, "name": "custom"}).name == "custom"
    text = "".join(f'[{header} "{value}"]\n' for header, value in
                   (("Variant", options["name"]), ("Deal", DEAL)))
    assert KlondikeRecord.parse(text).variant == Variant.preset(str(options["name"]))


def test_a_game_or_a_solve_cannot_start_in_a_pass_the_variant_never_reaches() -> None:
    from cardtable.errors import RulesError
    from cardtable.klondike import KlondikeGame
    from cardtable.solver import solve

    with pytest.raises(RulesError, match="the position is in pass 3, but the variant allows 1 pass"):
        KlondikeGame(_MID, Variant.preset("vegas1"))
    with pytest.raises(RulesError, match="allows 1 pass"):
        solve(_MID, Variant.preset("seed-002"), max_states=1000)
    assert KlondikeGame(_MID, Variant.preset("vegas3")).passes_left == 0


@pytest.mark.parametrize("text", ["\x1c1", "\x1f3\x85", " 3 "])
def test_whole_numbers_after_separators_python_strips(text: str) -> None:
    # str.strip() takes these separators away but int() alone does not accept them.
    assert parse_passes(text) == int(text.strip())
    assert Variant.from_options({"draw": text.replace("1", "3")}).draw == 3


def test_the_bad_inputs_benchmark_counts_a_usage_block_as_unclear(
        load_benchmark: Callable[[str], ModuleType]) -> None:
    bench = load_benchmark("bad_inputs")
    case = bench.Case("deal --seed x", ["deal", "--seed", "x"], "seed")
    one_line = "cardtable deal: error: argument --seed: seed must be a whole number (see 'cardtable deal --help')\n"
    assert bench.judge(case, 2, one_line) == "clean"
    assert bench.judge(case, 2, "usage: cardtable deal [-h] [--seed SEED]\n" + one_line) == "unclear"
    assert bench.judge(case, 70, "cardtable: internal error: OSError: [Errno 5] Input/output error\n") == "traceback"
