"""Solvitaire's deal JSON for every game Solvitaire has a preset of: written,
read back, and read from deal files written by hand in the shape of
Solvitaire's own example deals (tests/patience/solvitaire/)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardtable.cards import Card
from cardtable.patience import Kind, PatienceGame, get, load
from cardtable.patience.solvitaire import (
    SOLVITAIRE_PRESETS,
    SolvitaireError,
    dumps,
    from_solvitaire,
    loads,
    to_solvitaire,
)

FILES = Path(__file__).parent / "solvitaire"


def _state(game: PatienceGame) -> list[tuple[tuple[Card, ...], int]]:
    """Every pile and its face-down count; the hole by its top card and size
    (Solvitaire's deal shows the hole's top card only)."""
    state = []
    for index, place in enumerate(game._kinds):
        pile = game.pile(place)
        state.append((tuple(pile[-1:] if place.kind is Kind.HOLE else pile), len(pile) + game.down[index]))
    return state


@pytest.mark.parametrize("name", sorted(SOLVITAIRE_PRESETS))
def test_positions_after_random_play_read_back_equal(name: str) -> None:
    description = get(name)
    for seed in range(12):
        game = PatienceGame.from_seed(description, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 250)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        data = to_solvitaire(game)
        again = from_solvitaire(description, json.loads(dumps(data)))
        assert _state(again) == _state(game), (name, seed)
        if not description.hole.count:
            assert again.key()[:2] == game.key()[:2]  # the piles and their face-down cards
        assert to_solvitaire(again) == data


@pytest.mark.parametrize("name", sorted(SOLVITAIRE_PRESETS))
def test_deals_have_solvitaires_keys_and_cards(name: str) -> None:
    description = get(name)
    data = to_solvitaire(PatienceGame.from_seed(description, 3))
    assert set(data) <= {"tableau piles", "accordion", "cells", "reserve", "foundations", "stock", "waste", "hole"}
    cards = [item for value in data.values() for pile in (value if isinstance(value, list) else [value])
             for item in (pile if isinstance(pile, list) else [pile]) if item]
    assert len(cards) == description.cards.total
    for card in cards:
        assert card[:-1].upper() in {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}, card
        assert card == card.upper() or card == card.lower()


def _read(name: str, file: str) -> PatienceGame:
    return loads(get(name), (FILES / file).read_text(encoding="utf-8"))


def test_a_hand_written_klondike_deal_in_upper_case_is_the_deal() -> None:
    """Solvitaire's own Klondike deal files write every card in upper case."""
    game = _read("klondike", "klondike-unmarked.json")
    assert game.key() == PatienceGame.from_seed(get("klondike"), "pysol:5").key()
    data = to_solvitaire(game)
    assert data["tableau piles"][1] == ["9h", "JD"]
    assert data["stock"][-1] == "8H" and data["waste"] == []


def test_a_hand_written_klondike_position_with_face_down_cards_in_lower_case() -> None:
    game = _read("klondike", "klondike-played.json")
    tableau = game.places(Kind.TABLEAU)
    assert [game.face_down(place) for place in tableau] == [0, 1, 2, 3, 4, 4, 5]
    assert game.pile(game.places(Kind.FOUNDATION)[0]) == [Card.parse("Ah")]
    assert [str(card) for card in game.pile(game.places(Kind.WASTE)[0])] == ["8h", "Jh", "Jc", "6s"]
    assert game.pile(game.places(Kind.STOCK)[0])[-1] == Card.parse("7d")  # the last card is dealt next


def test_a_hand_written_freecell_deal_is_ms_deal_1() -> None:
    assert _read("freecell", "freecell-ms1.json").key() == PatienceGame.from_seed(get("freecell"), "ms:1").key()


def test_hand_written_deals_of_other_games() -> None:
    canfield = _read("canfield", "canfield.json")
    reserve = canfield.places(Kind.RESERVE)[0]
    assert canfield.face_down(reserve) == 12 and canfield.pile(reserve)[-1] == Card.parse("Kd")
    assert canfield.pile(canfield.places(Kind.FOUNDATION)[0]) == [Card.parse("Js")]
    assert canfield.key() == PatienceGame.from_seed(get("canfield"), 7).key()
    assert _read("black-hole", "black-hole.json").key() == PatienceGame.from_seed(get("black-hole"), "pysol:3").key()
    assert _read("golf", "golf.json").key() == PatienceGame.from_seed(get("golf"), "pysol:2").key()
    eight_off = _read("eight-off", "eight-off.json")
    assert [len(eight_off.pile(place)) for place in eight_off.places(Kind.CELL)] == [1, 0, 1, 0, 1, 0, 1, 0]
    assert eight_off.key() == PatienceGame.from_seed(get("eight-off"), "pysol:9").key()
    # Solvitaire lays Beleaguered Castle's Aces itself when the file gives no foundations
    castle = _read("beleaguered-castle", "beleaguered-castle.json")
    assert castle.key() == PatienceGame.from_seed(get("beleaguered-castle"), "pysol:6").key()
    assert _read("accordion", "accordion.json").key() == PatienceGame.from_seed(get("accordion"), 4).key()
    albert = _read("king-albert", "king-albert.json")
    assert [str(albert.pile(place)[0]) for place in albert.places(Kind.RESERVE)][:2] == ["Jd", "Tc"]
    assert albert.key() == PatienceGame.from_seed(get("king-albert"), 8).key()


def test_foundations_as_one_list_a_foundation_are_read() -> None:
    """Solvitaire's --deal-only prints one list (or "") a foundation."""
    data = json.loads((FILES / "klondike-played.json").read_text(encoding="utf-8"))
    flat = loads(get("klondike"), json.dumps(data))
    data["foundations"] = [["AH"], "", [], ""]
    assert from_solvitaire(get("klondike"), data).key() == flat.key()


def test_cells_as_one_list_a_cell_are_read() -> None:
    """Solvitaire's --deal-only prints a cell as a list of its card (or "")."""
    game = PatienceGame.from_seed(get("eight-off"), 3)
    data = to_solvitaire(game)
    data["cells"] = [[card] if card else choice for card, choice in zip(data["cells"], ["", []] * 4, strict=True)]
    assert from_solvitaire(get("eight-off"), data).key() == game.key()
    data["cells"][0] = ["JH", "9D"]
    with pytest.raises(SolvitaireError, match=r", cell 1: 2 cards, a cell holds one$"):
        from_solvitaire(get("eight-off"), data)


def _klondike() -> dict[str, Any]:
    return json.loads((FILES / "klondike-played.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["tableau piles"].pop(), r", tableau piles: 6 piles, Klondike has 7$"),
    (lambda d: d["stock"].pop(0), r": 10S is missing \(1 card of Klondike missing\)$"),
    (lambda d: d["stock"].__setitem__(0, "7C"), r": 7C is there twice; Klondike has it once$"),
    (lambda d: d["tableau piles"][1].__setitem__(1, "Jx"), r", tableau pile 2, card 2: 'Jx' is not a card"),
    (lambda d: d["tableau piles"][3].__setitem__(1, "AS"), r", tableau pile 4: the face-down 3c lies on a face-up"),
    (lambda d: d.__setitem__("foundations", ["2H"]), r", foundation 1: 2H cannot begin a foundation of Klondike$"),
    (lambda d: d.__setitem__("cells", ["", "", "", ""]), r": Klondike has no cells$"),
    (lambda d: d.__setitem__("talon", []), r": 'talon' is not a key of Solvitaire's deals \(tableau piles, "),
    (lambda d: d.pop("tableau piles"), r": the 'tableau piles' key is missing$"),
    (lambda d: d.__setitem__("waste", "8H"), r", waste: expected a list of cards, not str$"),
])
def test_bad_deals_name_the_key_and_the_card(change: Any, message: str) -> None:
    data = _klondike()
    change(data)
    with pytest.raises(SolvitaireError, match=r"^Solvitaire JSON" + message):
        from_solvitaire(get("klondike"), data)


def test_other_bad_deals() -> None:
    with pytest.raises(SolvitaireError, match=r"^Solvitaire JSON, cells: 3 cells, FreeCell has 4$"):
        from_solvitaire(get("freecell"), {"tableau piles": [[]] * 8, "cells": ["", "", ""]})
    with pytest.raises(SolvitaireError, match=r"^Solvitaire JSON, foundations: 5 foundations, FreeCell has 4$"):
        from_solvitaire(get("freecell"), {"tableau piles": [[]] * 8, "foundations": [[], [], [], [], []]})
    with pytest.raises(SolvitaireError, match=r"^Solvitaire JSON, foundation 1: 3C does not go on AC$"):
        from_solvitaire(get("freecell"), {"tableau piles": [[]] * 8, "foundations": [["AC", "3C"]]})
    with pytest.raises(SolvitaireError, match=r"^Solvitaire JSON: expected an object with a 'tableau piles' key$"):
        loads(get("freecell"), "[1, 2]")
    with pytest.raises(SolvitaireError, match=r"^Solvitaire JSON: Solvitaire has no preset of Yukon; its deal "):
        to_solvitaire(PatienceGame.from_seed(get("yukon"), 1))


def test_a_later_pass_of_a_limited_stock_is_refused() -> None:
    game = PatienceGame.from_seed(get("klondike").with_options("three-passes"), 1)
    while game.pass_number == 1:
        game.play(game.legal_moves()[-1])  # the deal, or the recycle, comes last
    with pytest.raises(SolvitaireError, match=r"^Solvitaire JSON has no place for the pass number: this is pass 2 "
                                              r"of 3 through the stock$"):
        to_solvitaire(game)


# ----- the command line ------------------------------------------------------------------------------


def test_games_writes_a_deal_in_solvitaire_json_and_reads_it_back(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    from cli_helpers import run

    code, out, _ = run(capsys, "games", "canfield", "--deal", "7", "--format", "solvitaire")
    assert code == 0
    data = json.loads(out)
    assert data == to_solvitaire(PatienceGame.from_seed(get("canfield"), 7))
    assert data["reserve"][0] == "4d" and data["foundations"] == ["JS"]
    file = tmp_path / "deal.json"
    file.write_text(out, encoding="utf-8")
    code, again, _ = run(capsys, "games", "canfield", "--deal-file", str(file), "--format", "solvitaire")
    assert (code, again) == (0, out)
    code, board, _ = run(capsys, "games", "golf", "--deal", "pysol:2", "--format", "pysol")
    board_file = tmp_path / "golf.txt"
    board_file.write_text(board, encoding="utf-8")
    code, out, _ = run(capsys, "games", "golf", "--deal-file", str(board_file), "--format", "solvitaire")
    assert code == 0 and json.loads(out) == json.loads((FILES / "golf.json").read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "games", "golf", "--deal-file", str(FILES / "golf.json"), "--format", "pysol")
    assert (code, out) == (0, board)


@pytest.mark.parametrize(("args", "message"), [
    (("games", "yukon", "--deal", "1", "--format", "solvitaire"), "Solvitaire has no preset of Yukon"),
    (("games", "klondike", "--deal-file", str(FILES / "golf.json")), "golf.json: Solvitaire JSON: Klondike has no "
                                                                     "hole"),
    (("games", "fan", "--deal-file", str(FILES / "freecell-ms1.json")), "freecell-ms1.json: Solvitaire JSON, "
                                                                        "tableau piles: 8 piles, Fan has 18"),
    (("games", "freecell", "--deal-file", str(FILES / "canfield.json")), "canfield.json: Solvitaire JSON: FreeCell "
                                                                         "has no reserve"),
    (("games", "freecell", "--deal", "1", "--deal-file", "x.json"), "--deal and --deal-file both say which deal"),
    (("games", "--deal-file", "x.json"), "--deal-file needs a game"),
])
def test_bad_deal_files_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                                message: str) -> None:
    from cli_helpers import run

    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_deal_game_writes_and_reads_solvitaire_json(capsys: pytest.CaptureFixture[str]) -> None:
    from cli_helpers import run

    code, out, _ = run(capsys, "deal", "--game", "golf", "--seed", "pysol:2", "--format", "solvitaire")
    assert code == 0 and json.loads(out) == json.loads((FILES / "golf.json").read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "deal", "--game", "golf", "--file", str(FILES / "golf.json"), "--format", "pysol")
    _, board, _ = run(capsys, "games", "golf", "--deal", "pysol:2", "--format", "pysol")
    assert (code, out) == (0, board)
    code, out, err = run(capsys, "deal", "--game", "freecell", "--file", str(FILES / "golf.json"))
    assert (code, out) == (2, "") and "Solvitaire JSON: FreeCell has no stock" in err


def test_spiders_foundations_hold_whole_suits() -> None:
    """A Spider foundation holds the run King to Ace that went there at once."""
    from cardtable.cards import Suit

    description = get("spider")
    game = PatienceGame.from_seed(description, 1)
    run = [Card(rank, Suit.SPADES) for rank in range(13, 0, -1)]
    piles = [list(game.pile(place)) for place in game._kinds]
    for card in run:
        next(pile for pile in piles if card in pile).remove(card)
    kinds = [place.kind for place in game._kinds]
    piles[kinds.index(Kind.FOUNDATION)] = run
    down = [len(pile) if kind is Kind.STOCK else min(game.down[i], max(len(pile) - 1, 0))
            for i, (pile, kind) in enumerate(zip(piles, kinds, strict=True))]
    down[kinds.index(Kind.FOUNDATION)] = 0
    position = PatienceGame(description, piles, down)
    data = to_solvitaire(position)
    assert data["foundations"] == ["KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AS"]
    assert from_solvitaire(description, data).key()[:2] == position.key()[:2]
    data["foundations"] = [*data["foundations"][1:], "KS"]
    with pytest.raises(SolvitaireError, match=r"^Solvitaire JSON, foundation 1: a foundation of Spider holds one "
                                              r"suit from King down to Ace$"):
        from_solvitaire(description, data)


def test_docs_list_every_preset_and_the_pysol_boards() -> None:
    """docs/games.md's Solvitaire table and its list of games with PySol boards say what the code does."""
    import re

    from cardtable.patience import names
    from cardtable.patience.formats import BoardError, to_pysol

    text = (Path(__file__).parents[2] / "docs" / "games.md").read_text(encoding="utf-8")
    section = text.split("## Solvitaire's deal JSON", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `([a-z0-9-]+)` \| `([a-z-]+)` \|", section, re.MULTILINE))
    assert rows == dict(SOLVITAIRE_PRESETS)
    boards = []
    for name in names():
        try:
            to_pysol(PatienceGame.from_seed(get(name), 1))
        except BoardError:
            continue
        boards.append(get(name).title)
    listed = text.split("## Formats by game", 1)[1].split("for the others", 1)[0]
    assert all(title in listed for title in boards)
    assert ", ".join(boards[:-1]) + " and " + boards[-1] in " ".join(listed.split())


def test_empty_cells_are_left_out_as_solvitaires_schema_has_no_cells() -> None:
    game = PatienceGame.from_seed(get("freecell"), "ms:1")
    assert "cells" not in to_solvitaire(game)
    assert from_solvitaire(get("freecell"), to_solvitaire(game)).key() == game.key()
    game.play(next(move for move in game.legal_moves() if move.target and move.target.kind is Kind.CELL))
    data = to_solvitaire(game)
    assert sorted(data["cells"])[:3] == ["", "", ""] and len(data["cells"]) == 4
    assert from_solvitaire(get("freecell"), data).key() == game.key()


def test_a_description_of_ones_own_is_written_for_the_preset_of_its_rules() -> None:
    """benchmarks/winnability/fan-solvitaire.json is Fan as Solvitaire's fan
    deals and plays it (its 52 cards a row at a time into 18 fans, so 16 of 3
    and two of 2; foundation cards coming back): it has no preset of its own
    name, and is written for the preset of its rules."""
    fan = load(str(Path(__file__).parents[2] / "benchmarks" / "winnability" / "fan-solvitaire.json"))
    game = PatienceGame.from_seed(fan, 1)
    with pytest.raises(SolvitaireError, match="no preset of Fan"):
        to_solvitaire(game)
    data = to_solvitaire(game, "fan")
    assert [len(pile) for pile in data["tableau piles"]] == [3] * 16 + [2, 2]
    own = to_solvitaire(PatienceGame.from_seed(get("fan"), 1))
    assert [len(pile) for pile in own["tableau piles"]] == [3] * 17 + [1]
    row = PatienceGame.from_seed(get("accordion"), 1)
    assert to_solvitaire(row, "accordion") == to_solvitaire(row) and "accordion" in to_solvitaire(row)
