"""Where the piles lie: every pile of every game placed by the one layout
function, none overlapping unless the description says one covers the
other, fanned rows clear of the rows below, and Pyramid and TriPeaks in
their real shapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cli import main
from cardtable.patience import Description, DescriptionError, PatienceGame, get, load, names
from cardtable.patience.description import Fan, Kind
from cardtable.patience.layout import FAN_STEP, TableLayout, table_layout
from cardtable.patience.moves import Place


def _check_table(description: Description, table: TableLayout) -> None:
    game = PatienceGame.from_seed(description, 1)
    assert [pile.place for pile in table.piles] == [pile.place for pile in game.view().piles]
    covers = description.tableau.covers or ()
    for number, pile in enumerate(table.piles):
        assert pile.x >= 0 and pile.y >= 0
        assert pile.x + pile.width <= table.width and pile.y + pile.height <= table.height
        for other in table.piles[number + 1:]:
            if pile.overlaps(other):
                assert pile.place.kind is other.place.kind is Kind.TABLEAU, (pile.place, other.place)
                assert other.place in pile.covered_by, (str(pile.place), str(other.place))
        if pile.place.kind is Kind.TABLEAU and covers:
            assert pile.covered_by == tuple(Place(Kind.TABLEAU, j) for j in covers[pile.place.index])
        else:
            assert not pile.covered


@pytest.mark.parametrize("name", names())
def test_every_pile_of_every_game_is_placed_and_none_overlap_unless_covered(name: str) -> None:
    description = get(name)
    _check_table(description, table_layout(description))
    for option in description.options:
        changed = description.with_options(option.name)
        _check_table(changed, table_layout(changed))


def test_a_fanned_row_leaves_room_for_its_cards_above_the_next_row() -> None:
    golf = table_layout(get("golf"))
    column = golf.pile(Place(Kind.TABLEAU, 0))
    assert column.fan is Fan.DOWN and column.room == 5  # five cards dealt, nothing builds on them
    assert column.height == 1 + 4 * FAN_STEP
    assert golf.pile(Place(Kind.STOCK)).y == column.y + column.height
    klondike = table_layout(get("klondike"))
    last = klondike.pile(Place(Kind.TABLEAU, 6))
    assert last.room == 7 + 12  # the deal and a King-to-Ace run on top
    assert last.y == 1 and last.height == 1 + 18 * FAN_STEP
    assert table_layout(get("klondike").with_options("draw-3")).pile(Place(Kind.WASTE)).width == 1 + 2 * FAN_STEP


def test_pyramid_is_seven_overlapping_rows_each_half_a_card_lower_and_centred() -> None:
    table = table_layout(get("pyramid"))
    tableau = [pile for pile in table.piles if pile.place.kind is Kind.TABLEAU]
    start = 0
    for row in range(7):
        piles = tableau[start:start + row + 1]
        assert {pile.y for pile in piles} == {row / 2}
        assert [pile.x for pile in piles] == [piles[0].x + i for i in range(row + 1)]
        assert sum(pile.x for pile in piles) / len(piles) == 3  # centred on the bottom row's middle card
        start += row + 1
    assert all(pile.covered for pile in tableau[:21]) and not any(pile.covered for pile in tableau[21:])
    stock = table.pile(Place(Kind.STOCK))
    assert stock.y == 4 and table.height == 5  # the bottom row's cards end at 3 + 1


def test_tripeaks_is_three_peaks_over_a_row_of_ten() -> None:
    table = table_layout(get("tripeaks"))
    tableau = [pile for pile in table.piles if pile.place.kind is Kind.TABLEAU]
    rows: dict[float, list[float]] = {}
    for pile in tableau:
        rows.setdefault(pile.y, []).append(pile.x)
    assert [len(rows[y]) for y in sorted(rows)] == [3, 6, 9, 10]
    assert rows[0] == [1.5, 4.5, 7.5]
    assert rows[1.5] == [float(x) for x in range(10)]
    peaks = [[pile for pile in tableau[:18] if left <= pile.x < left + 3] for left in (0, 3, 6)]
    assert [len(peak) for peak in peaks] == [6, 6, 6]  # three peaks of 18
    assert not any(pile.covered for pile in tableau[18:])


def test_show_draws_pyramid_and_tripeaks_in_their_shapes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--game", "pyramid", "--ascii", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    labels = [line.split() for line in lines[0:14:2]]
    assert labels == [[str(n) for n in range(start + 1, start + row + 2)]
                      for row, start in enumerate((0, 1, 3, 6, 10, 15, 21))]
    indents = [len(line) - len(line.lstrip()) for line in lines[0:14:2]]
    assert indents == sorted(indents, reverse=True) and indents[0] > 12
    assert main(["show", "--game", "tripeaks", "--ascii", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["1", "2", "3"] and lines[1].split() == ["##"] * 3
    assert lines[6].split() == [str(n) for n in range(19, 29)]


def _user_file(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_a_users_game_is_laid_out_without_overlaps(tmp_path: Path) -> None:
    data = get("freecell").to_json()
    data["cells"]["count"] = 8  # eight cells run into the foundations' column: the foundations move right
    eight_cells = load(_user_file(tmp_path, data))
    table = table_layout(eight_cells)
    _check_table(eight_cells, table)
    assert table.pile(Place(Kind.FOUNDATION, 0)).x == 8
    data = get("klondike").to_json()
    data["tableau"]["count"] = 8
    data["deal"] = [{"to": "tableau", "cards": [1, 2, 3, 4, 5, 6, 7, 8], "face-down": [0, 1, 2, 3, 4, 5, 6, 7]}]
    _check_table(load(_user_file(tmp_path, data)), table_layout(load(_user_file(tmp_path, data))))


@pytest.mark.parametrize(("places", "message"), [
    ([[0, 0]], "tableau.layout.places: 1 places for 8 piles"),
    ([[0, 0]] * 7 + [[-1, 2]], r"tableau.layout.places\[7\]: x -1 is out of range \(0 to 99\)"),
    ([[0, 0]] * 7 + [[1, "a"]], r"tableau.layout.places\[7\]: y must be a number, not a string"),
    ([[0, 0]] * 7 + [[1]], r"tableau.layout.places\[7\]: expected \[x, y\], two numbers in card units"),
    ("left", "tableau.layout.places: expected a list of"),
])
def test_wrong_places_name_the_field(places: object, message: str) -> None:
    data = get("freecell").to_json()
    data["tableau"]["layout"]["places"] = places
    with pytest.raises(DescriptionError, match=f"^{message}"):
        Description.from_json(data)


def test_places_that_overlap_without_covering_are_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = get("freecell").to_json()
    data["tableau"]["layout"]["places"] = [[i, 0] for i in range(7)] + [[6.5, 0]]
    path = _user_file(tmp_path, data)
    with pytest.raises(DescriptionError, match=r"tableau.layout.places\[7\]: pile 8 overlaps pile 7, and neither "):
        load(path)
    assert main(["show", "--game", path, "1"]) == 2
    err = capsys.readouterr().err
    assert "tableau.layout.places[7]: pile 8 overlaps pile 7" in err and len(err.strip().splitlines()) == 1


def test_places_round_trip_with_halves() -> None:
    pyramid = get("pyramid")
    data = pyramid.to_json()
    assert data["tableau"]["layout"]["places"][1] == [2.5, 0.5]
    assert data["tableau"]["layout"]["places"][0] == [3, 0]
    assert Description.from_json(json.loads(pyramid.dumps())) == pyramid
    assert get("freecell").to_json()["tableau"]["layout"]["places"] is None


@settings(max_examples=60, deadline=None)
@given(cells=st.integers(0, 10), columns=st.integers(1, 12), foundation_column=st.integers(0, 12),
       cells_column=st.integers(0, 12), foundation_row=st.integers(0, 2), cells_row=st.integers(0, 2),
       tableau_row=st.integers(0, 2), fan=st.sampled_from(list(Fan)), draw_fan=st.sampled_from(list(Fan)))
def test_any_layout_of_a_users_game_places_every_pile_without_overlaps(
        cells: int, columns: int, foundation_column: int, cells_column: int, foundation_row: int, cells_row: int,
        tableau_row: int, fan: Fan, draw_fan: Fan) -> None:
    data = get("freecell").to_json()
    data["cells"] = {"count": cells, "layout": {"row": cells_row, "column": cells_column, "fan": draw_fan.value}}
    data["foundations"]["layout"] = {"row": foundation_row, "column": foundation_column, "fan": draw_fan.value}
    data["tableau"]["count"] = columns
    data["tableau"]["layout"] = {"row": tableau_row, "column": 0, "fan": fan.value}
    data["deal"] = [{"to": "tableau", "cards": [52 // columns + (i < 52 % columns) for i in range(columns)]}]
    description = Description.from_json(data)
    _check_table(description, table_layout(description))
