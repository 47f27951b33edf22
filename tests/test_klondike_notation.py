"""Move notation, deal and position strings, PySol and Solvitaire formats, records."""

from __future__ import annotations

import dataclasses
import json

import pytest
from klondike_helpers import game, layout, new_game

from cardtable.cards import Suit, shuffled_deck
from cardtable.klondike import (
    DRAW,
    FOUNDATION,
    RECYCLE,
    WASTE,
    DealError,
    KlondikeRecord,
    Move,
    MoveError,
    Position,
    RecordError,
    ReplayError,
    Variant,
    read_layout,
    write_layout,
)
from cardtable.klondike.formats import detect_format, from_pysol, from_solvitaire, moves_from_klondike_solver, to_pysol

# ----- moves ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["D", "R", "W>F", "W>4", "2>F", "Fh>3", "2>6", "2>6:3", "7>1:12"])
def test_move_notation_round_trips(text: str) -> None:
    assert str(Move.parse(text)) == text


@pytest.mark.parametrize(("loose", "canonical"), [("wf", "W>F"), ("w4", "W>4"), ("26:3", "2>6:3"), ("fS1", "Fs>1"),
                                                  ("draw", "D"), (" 3 > f ", "3>F"), ("F♥>2", "Fh>2")])
def test_move_notation_reads_loosely(loose: str, canonical: str) -> None:
    assert str(Move.parse(loose)) == canonical


def test_move_values() -> None:
    assert Move.parse("D") == DRAW and Move.parse("R") == RECYCLE
    assert Move.parse("W>F") == Move(WASTE, FOUNDATION)
    assert Move.parse("Fh>3") == Move(FOUNDATION, 2, 1, Suit.HEARTS)


@pytest.mark.parametrize("bad", ["", "X", "8>1", "1>1", "W>F:2", "F>3", "Wh>3", "1>9", "F>F", "1>2:0"])
def test_bad_moves_say_why(bad: str) -> None:
    with pytest.raises(MoveError, match="move"):
        Move.parse(bad)


# ----- deal string -------------------------------------------------------------------------------


def test_deal_string_round_trips() -> None:
    position = Position.from_seed(11)
    text = position.deal_string()
    assert text == " ".join(str(c) for c in shuffled_deck(11))
    assert Position.from_deal(text) == position
    assert len(text.split()) == 52 and all(len(t) == 2 for t in text.split())


def test_deal_string_accepts_other_card_spellings() -> None:
    text = Position.from_seed(4).deal_string().replace("T", "10").replace("h", "♥")
    assert Position.from_deal(text) == Position.from_seed(4)


def test_deal_errors_name_the_card() -> None:
    cards = Position.from_seed(1).deal_string().split()
    with pytest.raises(DealError, match="card 5: unknown card 'Xx'"):
        Position.from_deal(" ".join([*cards[:4], "Xx", *cards[5:]]))
    with pytest.raises(DealError, match=f"card {cards[0]} appears twice"):
        Position.from_deal(" ".join([*cards[:51], cards[0]]))
    with pytest.raises(DealError, match=f"51 cards, not 52; missing {cards[-1]}"):
        Position.from_deal(" ".join(cards[:51]))


# ----- position string -----------------------------------------------------------------------------


def test_position_string_round_trips_mid_game() -> None:
    g = new_game(8, "thoughtful3")
    for _ in range(25):
        moves = g.legal_moves()
        g.play(moves[len(g.moves) % len(moves)])
    position = g.position()
    assert Position.parse(str(position)) == position


def test_position_rejects_bad_layouts() -> None:
    with pytest.raises(DealError, match="pile 1: face-up 8c cannot lie on 9s"):
        game(["9s 8c"])
    with pytest.raises(DealError, match="3 fields, expected 5"):
        Position.parse("a b c")


# ----- PySol board --------------------------------------------------------------------------------

# Written by pyksolve's Solitaire.get_pysol() after shuffle1(1).
PYKSOLVE_1 = """Talon: 9D TC 2S QC KH 5S 9C AC QH QD 8S 6D 7C 9H JS QS 8C 5H TD 3D KC 7H 8D TH
4D
<3C> 4C
<9S> <7D> 6H
<AH> <7S> <2C> JD
<AD> <6S> <2H> <TS> AS
<4H> <8H> <2D> <KS> <JC> 5C
<3H> <4S> <3S> <5D> <JH> <6C> KD"""


def test_pysol_board_reads_and_writes_card_for_card() -> None:
    position = from_pysol(PYKSOLVE_1)
    assert to_pysol(position) == PYKSOLVE_1
    assert str(position.stock[-1]) == "9d"  # the talon's first card is drawn first
    assert position.tableau[1][0].rank == 3 and position.face_down[6] == 6


def test_pysol_game_diagram_form_reads() -> None:
    diagram = "Foundations: H-0 C-0 D-0 S-0\nTalon: ==> " + PYKSOLVE_1.split("\n")[0][7:] + " <==\n" + "\n".join(
        ": " + line for line in PYKSOLVE_1.split("\n")[1:])
    assert from_pysol(diagram) == from_pysol(PYKSOLVE_1)


def test_pysol_errors_name_the_line() -> None:
    with pytest.raises(DealError, match="line 3"):
        from_pysol(PYKSOLVE_1.replace("<3C> 4C", "<3C> 4X"))
    with pytest.raises(DealError, match="Talon"):
        from_pysol("\n".join(PYKSOLVE_1.split("\n")[1:]))


def test_pysol_mid_game_round_trip() -> None:
    g = new_game(8, "thoughtful1")
    for _ in range(30):
        moves = g.legal_moves()
        g.play(moves[0])
    position = g.position()
    assert any(position.foundation) or position.waste
    assert position.pass_number == 1
    assert from_pysol(to_pysol(position)) == position


@pytest.mark.parametrize("write", [to_pysol, lambda position: write_layout(position, "solvitaire")])
def test_formats_without_a_pass_number_refuse_a_later_pass(write) -> None:
    position = dataclasses.replace(new_game(8).position(), pass_number=2)
    with pytest.raises(DealError, match=r"no place for the pass number \(this is pass 2\); write a position string"):
        write(position)
    assert Position.parse(str(position)) == position


def test_solvitaire_refuses_a_deal_shaped_layout_all_face_up() -> None:
    position = layout(["Ks", "Kc Qh", "Kd Qs Jd", "Kh Qc Jh Tc", "Js Th 9s 8h 7s", "Qd Jc Td 9c 8d 7c",
                       "9d 8s 7d 6s 5d 4s 3d"])
    with pytest.raises(DealError, match="would read back as a fresh deal"):
        write_layout(position, "solvitaire")
    assert from_pysol(to_pysol(position)) == position


def test_record_header_values_are_escaped_and_names_checked() -> None:
    record = KlondikeRecord.from_game(new_game(3), Event='the "big" one]', Note="line one\nline two\\")
    text = str(record)
    assert '[Event "the \\"big\\" one]"]' in text and '[Note "line one\\nline two\\\\"]' in text
    assert KlondikeRecord.parse(text) == record == KlondikeRecord.parse(record.to_json())
    with pytest.raises(RecordError, match="header name 'My Tag' cannot be written as a tag"):
        KlondikeRecord.from_game(new_game(3), **{"My Tag": "x"})


# ----- Solvitaire -----------------------------------------------------------------------------------

# Solvitaire's klondikeSM1 preset: the same deal as PYKSOLVE_1, stock listed bottom to top.
SOLVITAIRE_SM1 = """{
  "tableau piles":[
    ["4D"], ["3C","4C"], ["9S","7D","6H"], ["AH","7S","2C","JD"], ["AD","6S","2H","10S","AS"],
    ["4H","8H","2D","KS","JC","5C"], ["3H","4S","3S","5D","JH","6C","KD"]
  ],
  "stock": ["10H","8D","7H","KC","3D","10D","5H","8C","QS","JS","9H","7C","6D","8S","QD","QH","AC","9C","5S",
            "KH","QC","2S","10C","9D"]
}"""


def test_solvitaire_preset_is_the_same_deal_as_pyksolve() -> None:
    assert from_solvitaire(SOLVITAIRE_SM1) == from_pysol(PYKSOLVE_1)


def test_solvitaire_round_trip_marks_face_down_in_lower_case() -> None:
    position = Position.from_seed(5)
    text = write_layout(position, "solvitaire")
    data = json.loads(text)
    assert data["tableau piles"][1][0][-1].islower() and data["tableau piles"][1][1][-1].isupper()
    assert from_solvitaire(text) == position


def test_solvitaire_errors_name_pile_and_card() -> None:
    with pytest.raises(DealError, match="pile 2, card 1"):
        from_solvitaire(SOLVITAIRE_SM1.replace('"3C"', '"3X"'))
    with pytest.raises(DealError, match="line"):
        from_solvitaire("{not json")


@pytest.mark.parametrize("fmt", ["deal", "position", "pysol", "solvitaire"])
def test_every_format_is_detected_and_round_trips(fmt: str) -> None:
    position = Position.from_seed(77)
    text = write_layout(position, fmt)
    assert detect_format(text) == fmt
    assert read_layout(text) == position


# ----- Klondike-Solver solutions ----------------------------------------------------------------------


def test_klondike_solver_move_translation() -> None:
    assert moves_from_klondike_solver("DR2 W4 47-3 F4 5S H2 NEW WC") == [
        "D", "D", "W>4", "4>7:3", "5>F", "Fh>2", "R", "W>F"]


# ----- game records --------------------------------------------------------------------------------


def _played(seed: int = 21, n: int = 40, variant: str = "seed-001"):
    g = new_game(seed, variant)
    for i in range(n):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(moves[(i * 7) % len(moves)])
    return g


def test_record_text_round_trips() -> None:
    g = _played()
    record = KlondikeRecord.from_game(g, Player="tester", Seed="21")
    text = str(record)
    again = KlondikeRecord.parse(text)
    assert again == record
    assert again.replay().position() == g.position()
    assert '[Variant "seed-001"]' in text and '[Player "tester"]' in text and f"1. {g.moves[0]}" in text


def test_record_json_round_trips() -> None:
    g = _played(variant="seed-002")
    record = KlondikeRecord.from_game(g)
    again = KlondikeRecord.parse(record.to_json())
    assert again == record and again.variant == Variant.preset("seed-002")


def test_record_of_a_mid_game_start_uses_a_position_header() -> None:
    start = _played(n=10).position()
    record = KlondikeRecord(Variant.preset("draw3"), start, [DRAW])
    text = str(record)
    assert "[Position " in text
    assert KlondikeRecord.parse(text) == record


def test_record_reports_first_illegal_move() -> None:
    record = KlondikeRecord.parse(str(KlondikeRecord.from_game(_played())) + " 99. W>F\n")
    with pytest.raises(ReplayError) as info:
        record.replay()
    assert info.value.number == len(record.moves)
    assert f"move {len(record.moves)} (W>F) is illegal" in str(info.value)


def test_record_errors_name_the_line() -> None:
    text = str(KlondikeRecord.from_game(_played(n=5)))
    bad = text.replace("1. D", "1. Q7", 1) if "1. D" in text else text + "\nQ7\n"
    with pytest.raises(RecordError, match="line"):
        KlondikeRecord.parse(bad)
    with pytest.raises(RecordError, match="line 1"):
        KlondikeRecord.parse('[Game "Klondike"\n')
    with pytest.raises(RecordError, match="no Deal or Position"):
        KlondikeRecord.parse('[Game "Klondike"]\n\n1. D\n')
    with pytest.raises(RecordError, match="variant"):
        KlondikeRecord.parse('[Draw "2"]\n[Deal "x"]\n')


def test_record_comments_and_unnumbered_moves() -> None:
    deal = Position.from_seed(2).deal_string()
    record = KlondikeRecord.parse(f'[Deal "{deal}"]\n\nD {{a comment here}} D 3. D\n')
    assert [str(m) for m in record.moves] == ["D", "D", "D"]
