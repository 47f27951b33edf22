"""Game descriptions: JSON round trips, and the one-line errors of bad files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from cardtable.cards import Card, Suit, new_deck
from cardtable.errors import CardtableError
from cardtable.patience import Description, DescriptionError, get, load, names
from cardtable.patience.description import RULE_REVISIONS, Build, Direction, MoveUnit, SuitRule
from cardtable.patience.position import read_position


@pytest.mark.parametrize("name", names())
def test_every_shipped_description_round_trips_through_json(name: str) -> None:
    description = get(name)
    assert description.name == name
    assert Description.from_json(json.loads(description.dumps())) == description
    for option in description.options:
        changed = description.with_options(option.name)
        assert changed != description
        assert Description.from_json(changed.to_json()) == changed


def test_the_shipped_games_include_the_first_priorities() -> None:
    assert {"freecell", "bakers-game", "eight-off", "seahaven-towers", "beleaguered-castle",
            "streets-and-alleys", "king-albert", "fan", "bakers-dozen", "forty-thieves", "yukon",
            "russian-solitaire", "golf", "black-hole", "klondike"} <= set(names())


def _freecell() -> dict[str, Any]:
    return get("freecell").to_json()


def _error(data: dict[str, Any]) -> str:
    with pytest.raises(DescriptionError) as caught:
        Description.from_json(data)
    message = str(caught.value)
    assert "\n" not in message
    assert isinstance(caught.value, CardtableError)
    return message


def test_an_unknown_value_names_the_field_and_the_choices() -> None:
    data = _freecell()
    data["tableau"]["build"]["suit"] = "reddish"
    assert _error(data) == ("tableau.build.suit: 'reddish' is not one of alternate-colours, same-suit, "
                            "any-suit, any-but-same")


def test_an_unknown_field_and_an_unknown_pile_kind_are_named() -> None:
    data = _freecell()
    data["tableau"]["bild"] = {}
    assert _error(data).startswith("tableau.bild: unknown field")
    data = _freecell()
    data["deal"][0]["to"] = "pyramid"
    assert _error(data).startswith("deal[0].to: 'pyramid' is not one of tableau, foundations")


def test_a_deal_that_needs_more_cards_than_the_decks_hold() -> None:
    data = _freecell()
    data["deal"][0]["cards"] = [8, 8, 8, 8, 7, 7, 7, 7]
    assert _error(data) == "deal: the piles take 60 cards, 1 deck holds 52"


def test_cards_left_over_without_a_stock() -> None:
    data = _freecell()
    data["deal"][0]["cards"] = 6
    assert _error(data) == "deal: 4 cards are left over and the game has no stock (stock.count 0)"


def test_a_pile_count_of_zero_where_one_is_needed() -> None:
    data = _freecell()
    data["tableau"]["count"] = 0
    assert _error(data) == "tableau.count: 0 is out of range (1 to 99)"
    data = _freecell()
    data["cells"]["count"] = 0
    assert Description.from_json(data).cells.count == 0  # FreeCell with no cells is a game
    data["deal"].append({"to": "cells", "cards": 1})
    assert _error(data) == "deal[1].to: the game has no cells piles (count 0)"


def test_a_build_rule_no_card_can_satisfy() -> None:
    data = get("spider-1-suit").to_json()
    data["tableau"]["build"]["suit"] = "alternate-colours"
    assert _error(data) == ("tableau.build.suit: no card can follow alternate-colours: the game's suits "
                            "are all black")
    data = get("spider-1-suit").to_json()
    data["tableau"]["run"]["suit"] = "any-but-same"
    assert _error(data) == "tableau.run.suit: no card can follow any-but-same with one suit"


def test_foundations_that_cannot_hold_every_card() -> None:
    data = _freecell()
    data["foundations"]["count"] = 3
    assert _error(data) == "foundations.count: 3 foundations hold 39 cards, the game has 52 to win with"


def test_wrong_types_and_face_down_counts() -> None:
    data = _freecell()
    data["tableau"]["count"] = "eight"
    assert _error(data) == "tableau.count: expected a whole number, not a string"
    data = get("klondike").to_json()
    data["deal"][0]["face-down"] = [2, 1, 2, 3, 4, 5, 6]
    assert _error(data) == "deal[0].face-down[0]: 2 face down of 1 cards dealt"
    data = _freecell()
    data["cards"]["suits"] = "cdx"
    assert _error(data) == "cards.suits: 'x' is not a suit (c, d, h, s)"


def test_an_option_that_names_no_field() -> None:
    data = get("golf").to_json()
    data["options"]["wrap"]["changes"] = {"hole.build.wrapp": True}
    assert _error(data) == "options.wrap: changes: no field 'hole.build.wrapp'"


def test_a_user_file_with_two_cells_loads_and_a_bad_file_names_itself(tmp_path: Path) -> None:
    data = _freecell()
    data["name"] = "freecell-2"
    data["cells"]["count"] = 2
    path = tmp_path / "two.json"
    path.write_text(json.dumps(data))
    assert load(str(path)).cells.count == 2
    path.write_text("{\"name\": ")
    with pytest.raises(CardtableError, match=r"two.json, line 1"):
        load(str(path))
    path.write_text(json.dumps({**data, "win": "never"}))
    with pytest.raises(DescriptionError) as caught:
        load(str(path))
    assert str(caught.value) == f"{path}: win: 'never' is not one of all-to-foundations, tableau-empty, one-pile"


def test_the_description_reads_its_rules() -> None:
    freecell, bakers = get("freecell"), get("bakers-game")
    assert freecell.tableau.moves is MoveUnit.SUPERMOVE
    assert (freecell.tableau.build.suit, bakers.tableau.build.suit) == (SuitRule.ALTERNATE, SuitRule.SAME)
    golf = get("golf")
    assert golf.hole_build.closed == 13 and not golf.hole_build.wrap
    assert golf.with_options("queens-on-kings").hole_build.closed is None
    assert golf.with_options("wrap").hole_build.wrap
    assert golf.tableau.build.direction is Direction.NONE
    with pytest.raises(DescriptionError, match="golf has no option 'wrapp'; its options: queens-on-kings, wrap"):
        golf.with_options("wrapp")


def test_covers_name_later_piles_only() -> None:
    data = get("tripeaks").to_json()
    assert data["tableau"]["covers"][0] == [4, 5]
    data["tableau"]["covers"][3] = [2]
    assert _error(data) == "tableau.covers[3]: 2 is out of range (5 to 28)"
    data["tableau"]["covers"] = [[]]
    assert _error(data) == "tableau.covers: expected a list of 28 lists of pile numbers, one per pile"


def test_the_docs_list_every_shipped_game() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "games.md").read_text(encoding="utf-8")
    listed = {line.split("`")[1] for line in page.splitlines() if line.startswith("| `") and "|" in line[3:]}
    assert set(names()) <= listed


def _card(text: str) -> Card:
    return Card.parse(text)


def test_a_tableau_rule_from_the_base_counts_ranks_from_the_foundations_base() -> None:
    plain = Build(Direction.DOWN, SuitRule.ALTERNATE)
    counted = Build(Direction.DOWN, SuitRule.ALTERNATE, from_base=True)
    # base 5: the 5 is the lowest rank, the 4 the highest; a 4 never goes on a 5
    assert plain.fits(_card("4s"), _card("5h"), 5) and not counted.fits(_card("4s"), _card("5h"), 5)
    assert counted.fits(_card("Ks"), _card("Ah"), 5) and not plain.fits(_card("Ks"), _card("Ah"), 5)
    assert counted.fits(_card("3s"), _card("4h"), 5) and counted.fits(_card("5s"), _card("6h"), 5)
    # with wrap, lowest and highest are one apart again: the plain wrapping rule
    wrapping = Build(Direction.DOWN, SuitRule.ALTERNATE, wrap=True, from_base=True)
    cards = [Card(rank, suit) for suit in Suit for rank in range(1, 14)]
    for base in range(1, 14):
        for card in cards:
            for onto in cards:
                assert wrapping.fits(card, onto, base) == Build(Direction.DOWN, SuitRule.ALTERNATE,
                                                                 wrap=True).fits(card, onto)
                assert counted.fits(card, onto, 1) == plain.fits(card, onto)


def test_from_base_is_read_written_only_when_set_and_checked() -> None:
    data = get("canfield").to_json()
    assert "from-base" not in data["tableau"]["build"]  # the games without it keep their rules keys
    data["tableau"]["build"]["from-base"] = True
    description = Description.from_json(data)
    assert description.tableau.build.from_base
    assert Description.from_json(description.to_json()) == description
    assert description.rules_key != get("canfield").rules_key
    data["tableau"]["build"]["from-base"] = "yes"
    assert _error(data) == "tableau.build.from-base: expected true or false, not a string"
    data = get("canfield").to_json()
    data["foundations"]["build"]["from-base"] = True
    assert _error(data) == ("foundations.build.from-base: only the tableau's rules count ranks from the "
                            "foundations' base")
    data = get("klondike").to_json()
    data["tableau"]["build"]["from-base"] = True
    Description.from_json(data)  # Klondike's base is the Ace: counted from it, ranks are as they are
    data["foundations"]["base"] = "first-card"
    assert _error(data) == ("tableau.build.from-base: the foundations' base must be known from the deal "
                            "(a base rank, or a card dealt to the foundations)")


def test_the_engine_builds_from_the_deals_base() -> None:
    data = get("canfield").to_json()
    data["tableau"]["build"].update({"wrap": False, "from-base": True})
    counted = Description.from_json(data)
    shown = ["5h", "4s", "Ah", "Ks", "9c", "5c"]
    rest = "".join(str(card) for card in new_deck() if str(card) not in shown)
    text = f"1:5h 2:4s 3:Ah 4:Ks R1:9c F1:5c F2: F3: F4: S:{rest}/ W:"
    plain_moves = {str(m) for m in read_position(get("canfield"), text).legal_moves()}
    moves = {str(m) for m in read_position(counted, text).legal_moves()}
    assert plain_moves - moves == {"2>1"}  # the 4 on the 5: the base rank is the lowest
    assert "4>3" in moves and moves - plain_moves == set()  # a King on an Ace: in both


def _key_of(rules: dict[str, Any]) -> str:
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def test_a_revised_reading_changes_its_games_rules_key_and_no_other() -> None:
    descriptions = [variant for name in names() for variant in
                    (get(name), *(get(name).with_options(option.name) for option in get(name).options))]
    revised = []
    for description in descriptions:
        rules = description.rules_json()
        before = {key: value for key, value in rules.items() if key != "revisions"}
        if "revisions" in rules:
            revised.append(description.name)
            assert description.rules_key != _key_of(before)
        else:  # the key computed without the revision table: byte for byte as before
            assert description.rules_key == _key_of(before), description.name
    assert revised == ["accordion"]
    # the keys as they were before the table (Accordion's: when its piles went by their bottom card)
    assert get("accordion").rules_key != "sha256:e3338a0b0186d7e6"
    assert _key_of({key: value for key, value in get("accordion").rules_json().items()
                    if key != "revisions"}) == "sha256:e3338a0b0186d7e6"
    assert (get("freecell").rules_key, get("klondike").rules_key) == ("sha256:9b92b64923c81aa9",
                                                                      "sha256:9e82e62706e4b3f4")


def test_rule_revisions_are_read_from_the_fields_and_never_written() -> None:
    assert RULE_REVISIONS == {("tableau", "moves", "pile"): 2}
    assert get("accordion").rules_json()["revisions"] == {"tableau.moves": 2}
    data = get("accordion").to_json()
    assert "revisions" not in data and Description.from_json(data) == get("accordion")
    data["tableau"]["moves"] = "one-card"  # any game moving whole piles goes by the revised reading, and only those
    assert "revisions" not in Description.from_json(data).rules_json()
    data = get("golf").to_json()
    data["tableau"]["moves"] = "pile"
    assert Description.from_json(data).rules_json()["revisions"] == {"tableau.moves": 2}
    data = get("accordion").to_json()
    data["revisions"] = {"tableau.moves": 2}
    with pytest.raises(DescriptionError, match="revisions"):
        Description.from_json(data)
