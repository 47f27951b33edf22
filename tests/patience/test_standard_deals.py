"""Microsoft FreeCell deal numbers, checked against the programs that define
them today: pysol-cards (PyPI) and fc-solve's make-microsoft-freecell-board."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from cardtable.errors import CardtableError
from cardtable.patience import Kind, PatienceGame, get

NUMBERS = (1, 617, 11982, 32000, 1_000_000, 2**31 - 1, 2**31, 3_000_000_000, 2**32 + 5, 2**33 - 1)


def _columns(game: PatienceGame) -> list[str]:
    return [" ".join(str(card).upper() for card in game.pile(place)) for place in game.places(Kind.TABLEAU)]


@pytest.mark.parametrize("name", ["freecell", "bakers-game"])
def test_ms_deals_equal_pysol_cards(name: str) -> None:
    pysol = pytest.importorskip("pysol_cards", reason="pysol-cards is not installed (pip install pysol_cards)")
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    assert pysol is not None
    game_name = name.replace("-", "_")
    for number in NUMBERS:
        theirs = Game(game_name, number, RandomBase.DEALS_MS).calc_layout_string(CardRenderer(True))
        ours = _columns(PatienceGame.from_seed(get(name), f"ms:{number}"))
        assert ours == [line.strip() for line in theirs.strip().splitlines()], number


@pytest.mark.skipif(shutil.which("make-microsoft-freecell-board") is None,
                    reason="fc-solve's make-microsoft-freecell-board is not installed (Debian freecell-solver-bin)")
def test_ms_deals_equal_fc_solve() -> None:
    for number in (*NUMBERS[:6], 123_456_789):
        theirs = subprocess.run(["make-microsoft-freecell-board", "-t", str(number)], capture_output=True,
                                text=True, check=True, timeout=30).stdout
        ours = _columns(PatienceGame.from_seed(get("freecell"), f"ms:{number}"))
        assert ours == [line.strip() for line in theirs.strip().splitlines()], number


def test_ms_deals_only_where_the_game_has_them() -> None:
    with pytest.raises(CardtableError, match="golf has no Microsoft deal numbers"):
        PatienceGame.from_seed(get("golf"), "ms:1")
    with pytest.raises(CardtableError, match="a Microsoft deal number is 1 to"):
        PatienceGame.from_seed(get("freecell"), "ms:0")


PYSOL_GAMES = [("freecell", "freecell"), ("bakers_game", "bakers-game"), ("eight_off", "eight-off"),
               ("seahaven_towers", "seahaven-towers"), ("beleaguered_castle", "beleaguered-castle"),
               ("streets_and_alleys", "streets-and-alleys"), ("fan", "fan"), ("bakers_dozen", "bakers-dozen"),
               ("yukon", "yukon"), ("golf", "golf"), ("black_hole", "black-hole")]


@pytest.mark.parametrize(("theirs_name", "name"), PYSOL_GAMES)
def test_pysol_deals_equal_pysol_cards(theirs_name: str, name: str) -> None:
    pytest.importorskip("pysol_cards", reason="pysol-cards is not installed (pip install pysol_cards)")
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    from cardtable.patience.formats import to_pysol

    for number in (1, 617, 11982, 32000, 32001, 123_456, 10**10, 10**20 - 1):
        theirs = Game(theirs_name, number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
        ours = to_pysol(PatienceGame.from_seed(get(name), f"pysol:{number}")).splitlines()
        # pysol-cards leaves out empty foundations, all-empty free cells and trailing empty ones
        ours = [line.removesuffix(" -") if line.startswith("Freecells:") and name == "seahaven-towers" else line
                for line in ours if not line.startswith(("Foundations: H-0", "Freecells: - - - -"))]
        assert ours == [line.strip() for line in theirs.strip().splitlines()], number


def _klondike_board(game: PatienceGame) -> list[str]:
    """pysol-cards' Klondike board: the talon (next card first), then each
    column from the covered card, face-down cards in angle brackets."""
    talon = "Talon: " + " ".join(str(card).upper() for card in reversed(game.pile(game.places(Kind.STOCK)[0])))
    columns = [" ".join(f"<{str(card).upper()}>" if i < game.face_down(place) else str(card).upper()
                        for i, card in enumerate(game.pile(place))) for place in game.places(Kind.TABLEAU)]
    return [talon, *columns]


def test_klondike_pysol_deals_equal_pysol_cards() -> None:
    """PySolFC deals Klondike right to left, every face-down card first
    (its description's pysol-deal): the same board as pysol-cards'."""
    pytest.importorskip("pysol_cards", reason="pysol-cards is not installed (pip install pysol_cards)")
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    numbers = (*range(1, 41), 617, 11982, 31999, 32000, 32001, 32002, 40_000, 123_456, 2**31 - 1, 10**10,
               10**20 - 1)
    for number in numbers:
        theirs = Game("klondike", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
        ours = _klondike_board(PatienceGame.from_seed(get("klondike"), f"pysol:{number}"))
        assert ours == [line.strip() for line in theirs.strip().splitlines()], number


def test_klondike_seeds_keep_their_own_deal() -> None:
    """A plain seed still deals Klondike left to right, as the Klondike API does."""
    from cardtable.klondike import KlondikeGame

    for seed in (1, 2, 99):
        ours = PatienceGame.from_seed(get("klondike"), seed)
        theirs = KlondikeGame.from_seed(seed).position()
        assert [tuple(ours.pile(p)) for p in ours.places(Kind.TABLEAU)] == list(theirs.tableau)


def test_deal_steps_right_to_left_and_face_down_first() -> None:
    """The deal fields PySolFC's Klondike needs, in a deal of a user's own."""
    from cardtable.cards import Card
    from cardtable.patience import Description, DescriptionError

    data = get("klondike").to_json()
    data["deal"][0].update({"right-to-left": True, "face-down-first": True})
    data["pysol-deal"] = None
    deck = [Card.from_index(i) for i in range(52)]
    game = PatienceGame.from_deck(Description.from_json(data), deck)
    piles = [game.pile(place) for place in game.places(Kind.TABLEAU)]
    assert piles[6][0] == deck[0] and piles[1][0] == deck[5]  # the face-down rows, right to left
    assert piles[6][1] == deck[6] and piles[6][5] == deck[20]
    assert [pile[-1] for pile in reversed(piles)] == deck[21:28]  # then the face-up row, right to left
    assert [game.face_down(place) for place in game.places(Kind.TABLEAU)] == list(range(7))
    data["pysol-deal"] = {"right-to-left": True, "face-up-last": True}
    with pytest.raises(DescriptionError, match=r"^pysol-deal\.face-up-last: unknown field; the fields are "
                                               r"right-to-left, face-down-first$"):
        Description.from_json(data)


def test_pysol_numbers_only_where_the_game_has_them() -> None:
    with pytest.raises(CardtableError, match=r"spider has no PySolFC deal numbers \(pysol:N\)"):
        PatienceGame.from_seed(get("spider"), "pysol:5")
    with pytest.raises(CardtableError, match="a PySolFC deal number is 1 to"):
        PatienceGame.from_seed(get("golf"), "pysol:0")
