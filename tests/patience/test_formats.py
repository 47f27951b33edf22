"""PySol boards (fc-solve's and black-hole-solver's format), written and read back."""

from __future__ import annotations

import pytest

from cardtable.patience import Move, PatienceGame, get
from cardtable.patience.formats import BoardError, from_pysol, to_pysol

BOARD_GAMES = ["freecell", "bakers-game", "eight-off", "seahaven-towers", "beleaguered-castle",
               "streets-and-alleys", "fan", "bakers-dozen", "yukon", "russian-solitaire", "golf", "black-hole"]


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_a_board_reads_back_to_the_same_position(name: str) -> None:
    game = PatienceGame.from_seed(get(name), 17)
    for move in game.legal_moves()[:1]:
        game.play(move)
    text = to_pysol(game)
    again = from_pysol(get(name), text)
    assert to_pysol(again) == text
    assert again.legal_moves() == game.legal_moves() or name in ("golf", "black-hole")
    dealt = PatienceGame.from_seed(get(name), 18)
    if name not in ("beleaguered-castle",):  # its dealt Aces lie in deck order, the board's in H C D S
        assert from_pysol(get(name), to_pysol(dealt)).key() == dealt.key()


def test_the_ms_board_is_pysol_cards_board() -> None:
    pytest.importorskip("pysol_cards", reason="pysol-cards is not installed (pip install pysol_cards)")
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    theirs = Game("freecell", 11982, RandomBase.DEALS_MS).calc_layout_string(CardRenderer(True))
    ours = to_pysol(PatienceGame.from_seed(get("freecell"), "ms:11982")).splitlines()
    assert ours[:2] == ["Foundations: H-0 C-0 D-0 S-0", "Freecells: - - - -"]
    assert ours[2:] == [line.strip() for line in theirs.strip().splitlines()]


def test_golf_and_black_hole_boards_have_the_talon_and_the_hole() -> None:
    golf = to_pysol(PatienceGame.from_seed(get("golf"), 2)).splitlines()
    assert golf[0].startswith("Talon: ") and len(golf[0].split()) == 17
    assert golf[1].startswith("Foundations: ") and len(golf) == 9
    assert to_pysol(PatienceGame.from_seed(get("black-hole"), 2)).splitlines()[0] == "Foundations: AS"


def test_bad_boards_name_the_problem() -> None:
    freecell = get("freecell")
    text = to_pysol(PatienceGame.from_seed(freecell, "ms:5"))
    with pytest.raises(BoardError, match=r"PySol board: 7 columns, FreeCell has 8"):
        from_pysol(freecell, "\n".join(text.splitlines()[:-1]))
    with pytest.raises(BoardError, match=r"line 3: .*unknown card 'XX'"):
        from_pysol(freecell, text.replace(text.splitlines()[2].split()[0], "XX", 1))
    with pytest.raises(BoardError, match=r"not the cards of FreeCell: .* is missing"):
        first = text.splitlines()[2].split()
        from_pysol(freecell, text.replace(first[1], first[0], 1))
    with pytest.raises(BoardError, match="a PySol board has no waste or reserve"):
        to_pysol(PatienceGame.from_seed(get("klondike"), 1))
    game = PatienceGame.from_seed(freecell, "ms:5")
    game.play(next(m for m in game.legal_moves() if str(m).endswith(">a")))
    assert "Freecells: " in to_pysol(game) and from_pysol(freecell, to_pysol(game)).key() == game.key()
    assert Move.parse("1>a") is not None
