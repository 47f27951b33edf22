"""The rules in words, read from each description."""

from cardtable.patience.registry import get, names
from cardtable.patience.words import rules_lines


def test_every_game_has_its_title_and_how_it_is_won() -> None:
    for name in names():
        lines = rules_lines(get(name))
        assert lines[0].startswith(f"{get(name).title} ({name}")
        assert any(line.startswith("won when: ") for line in lines)


def test_pyramids_hole_takes_pairs_that_make_thirteen() -> None:
    assert "hole: takes free cards in pairs whose ranks add up to 13 (a card of rank 13 alone)" in rules_lines(
        get("pyramid"))
    assert any(line.startswith("hole: ranks either") for line in rules_lines(get("golf")))
