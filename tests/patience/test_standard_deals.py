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


def test_pysol_numbers_only_where_the_game_has_them() -> None:
    with pytest.raises(CardtableError, match=r"klondike has no PySolFC deal numbers \(pysol:N\)"):
        PatienceGame.from_seed(get("klondike"), "pysol:5")
    with pytest.raises(CardtableError, match="a PySolFC deal number is 1 to"):
        PatienceGame.from_seed(get("golf"), "pysol:0")
