"""Solvitaire's deal JSON, as its own schema and its own ``--deal-only``
output have it: ``"foundations"`` is one flat list of cards, and an empty pile
may be written ``""``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.cards import Card
from cardtable.klondike import KlondikeGame, Position
from cardtable.klondike.formats import from_solvitaire, read_layout, solvitaire_deal, to_solvitaire
from cardtable.klondike.position import DealError
from cardtable.solver import solve

#: The top-level fields of Solvitaire's deal schema (its deal_parser's schema; ``additionalProperties`` false).
SCHEMA_FIELDS = {"tableau piles", "foundations", "sequences", "hole", "stock", "waste", "reserve", "accordion"}


def _position_with_foundations() -> Position:
    """A position on the solver's winning line of a deal, with three cards
    or more on the foundations and some in the waste."""
    for seed in range(1, 40):
        game = KlondikeGame.from_seed(seed)
        result = solve(game.position(), game.variant)
        for move in result.moves:
            game.play(move)
            position = game.position()
            if sum(position.foundation) >= 3 and position.waste and position.pass_number == 1:
                return position
    raise AssertionError("no deal's winning line has three cards home and a waste in its first pass")


def test_foundations_are_written_as_one_flat_list_of_the_schemas_fields() -> None:
    position = _position_with_foundations()
    assert any(position.foundation)
    data = json.loads(to_solvitaire(position))
    assert set(data) <= SCHEMA_FIELDS
    assert "foundation" not in data
    assert all(isinstance(card, str) for card in data["foundations"])
    assert len(data["foundations"]) == sum(position.foundation)
    assert from_solvitaire(to_solvitaire(position)) == position


def test_solvitaires_deal_only_output_is_read() -> None:
    """Solvitaire prints an empty pile as "" and the foundations as one list a pile."""
    text = json.dumps({
        "tableau piles": [["4D"], ["3c", "4C"], ["9s", "7d", "6H"], ["Ah", "7s", "2c", "JD"],
                          ["Ad", "6s", "2h", "10s", "AS"], ["4h", "8h", "2d", "Ks", "Jc", "5C"],
                          ["3h", "4s", "3s", "5d", "Jh", "6c", "KD"]],
        "foundations": ["", "", "", ""],
        "stock": ["10H", "8D", "7H", "KC", "3D", "10D", "5H", "8C", "QS", "JS", "9H", "7C", "6D", "8S", "QD",
                  "QH", "AC", "9C", "5S", "KH", "QC", "2S", "10C", "9D"],
        "waste": "",
    })
    position = read_layout(text)
    assert position.waste == ()
    assert position.foundation == (0, 0, 0, 0)
    assert position.face_down == (0, 1, 2, 3, 4, 5, 6)
    assert len(position.stock) == 24


def test_foundations_as_piles_and_the_older_key_are_read_alike() -> None:
    position = _position_with_foundations()
    data = json.loads(to_solvitaire(position))
    flat = data.pop("foundations")
    by_suit: dict[str, list[str]] = {}
    for card in flat:
        by_suit.setdefault(card[-1], []).append(card)
    piles = [by_suit.get(suit, "") for suit in "CDHS"]
    assert from_solvitaire(json.dumps({**data, "foundations": piles})) == position
    assert from_solvitaire(json.dumps({**data, "foundation": list(by_suit.values())})) == position


@pytest.mark.parametrize(("foundations", "message"), [
    (["2C"], "foundations card 1: .* is out of order"),
    (["AC", "AC"], "foundations card 2: .* is already on the clubs foundation"),
    ([5], "foundations item 1: expected a card or a list of cards"),
    ("AC", "foundations: expected a list of cards"),
])
def test_bad_foundations_are_named(foundations: object, message: str) -> None:
    with pytest.raises(DealError, match=message):
        from_solvitaire(json.dumps({"tableau piles": [[]] * 7, "stock": [], "foundations": foundations}))


DATA = Path(__file__).parent / "data" / "solvitaire"


@pytest.mark.parametrize("seed", [5, 7])
def test_solvitaires_seeded_deal_is_dealt_as_solvitaire_deals_it(seed: int) -> None:
    """Its --deal-only output (recorded) names the top cards and the stock: they are solvitaire_deal's."""
    shown = json.loads((DATA / f"deal-only-{seed}.json").read_text())
    ours = solvitaire_deal(seed)

    def named(card: Card) -> str:
        return ("10" if card.rank == 10 else str(card)[0].upper()) + card.suit.letter.upper()

    assert [pile[-1] for pile in shown["tableau piles"]] == [named(p[-1]) for p in ours.tableau[::-1]]
    assert shown["stock"] == [named(card) for card in ours.stock]
    assert shown["waste"] == "" and shown["foundations"] == ["", "", "", ""]
    assert [len(pile) for pile in ours.tableau] == [1, 2, 3, 4, 5, 6, 7]
    assert ours.face_down == (0, 1, 2, 3, 4, 5, 6)


def test_hidden_cards_of_deal_only_output_are_refused_by_name() -> None:
    with pytest.raises(DealError, match=r"pile 1, card 1: '##' is a face-down card .* --solvitaire-seed N"):
        read_layout((DATA / "deal-only-5.json").read_text())


def test_the_deal_command_deals_solvitaires_seed(tmp_path: Path) -> None:
    written = subprocess.run([sys.executable, "-m", "cardtable", "deal", "--solvitaire-seed", "5", "--format",
                              "solvitaire"], capture_output=True, text=True, check=True).stdout
    assert from_solvitaire(written) == solvitaire_deal(5)
    refused = subprocess.run([sys.executable, "-m", "cardtable", "deal", "--solvitaire-seed", str(2**31)],
                             capture_output=True, text=True)
    assert refused.returncode == 2
    assert refused.stderr.strip() == ("cardtable: error: a Solvitaire seed is a whole number from 0 to 2147483647,"
                                      " not '2147483648'")


@pytest.mark.skipif(shutil.which("solvitaire") is None, reason="Solvitaire is built by hand (docs/peers.md)")
def test_solvitaire_itself_reads_what_cardtable_writes(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    try:
        import _peers
    finally:
        sys.path.pop(0)
    assert _peers.check_solvitaire_interchange(shutil.which("solvitaire") or "", str(tmp_path)) == []


def test_a_key_a_klondike_deal_has_not_is_refused() -> None:
    """A misspelt or foreign key was silently left out (benchmarks/bad_inputs.py found it)."""
    data = json.loads(to_solvitaire(Position.from_seed(7)))
    data["talon"] = []
    with pytest.raises(DealError, match=r"^Solvitaire JSON: 'talon' is not a key of a Klondike deal \(tableau piles, "
                                        r"foundations, stock, waste\)$"):
        from_solvitaire(json.dumps(data))
