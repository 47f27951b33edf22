"""The games' pages: written from the descriptions by docs/gen_games.py and
never stale, each in the nav and the index, with command lines that run, a
picture that shows only what the player sees, and rules in words that follow
the description's fields."""

from __future__ import annotations

import importlib.util
import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from cardtable.cli import build_parser, main
from cardtable.patience import Description, DescriptionError, PatienceGame, get, names
from cardtable.patience.svg import table_svg
from cardtable.patience.words import rules_sections

ROOT = Path(__file__).resolve().parent.parent


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_games", ROOT / "docs" / "gen_games.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


def test_the_pages_say_what_the_descriptions_say() -> None:
    late = [str(path.relative_to(ROOT)) for path in GEN.stale()]
    assert not late, f"stale: {', '.join(late)}; run python docs/gen_games.py"


def test_a_changed_description_makes_its_page_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    golf = get("golf")
    changed = golf.with_options("wrap")
    monkeypatch.setattr("cardtable.patience.registry.get", lambda name: changed if name == "golf" else get(name))
    assert GEN.page("golf") != (ROOT / "docs" / "games" / "golf.md").read_text(encoding="utf-8")
    assert "King and Ace are one rank apart" in GEN.page("golf")


def test_every_game_has_a_page_in_the_nav_and_the_index() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    index = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    for name in names():
        assert (ROOT / "docs" / "games" / f"{name}.md").exists()
        assert f"games/{name}.md" in nav
        assert f"[{get(name).title}](games/{name}.md)" in index
        page = (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
        assert f"]({name}.svg)" in page
        assert get(name).source is not None and f"<{get(name).source}>" in page


@pytest.mark.parametrize("name", names())
def test_the_command_lines_of_a_page_are_the_commands_the_parser_has(name: str) -> None:
    parser = build_parser()
    for line, _ in GEN.commands(name):
        for command in line.split(" | "):
            words = shlex.split(command.split(" > ")[0])
            assert words[0] == "cardtable"
            parser.parse_args(words[1:])  # an unknown option or command exits


@pytest.mark.parametrize("name", names())
def test_the_deal_and_show_of_a_page_draw_deal_one(name: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--game", name, "--seed", "1"]) == 0
    deal = tmp_path / "deal.txt"
    deal.write_text(capsys.readouterr().out)
    assert main(["show", "--game", name, "--ascii", str(deal)]) == 0
    shown = capsys.readouterr().out
    if name != "klondike":  # Klondike's own engine draws it its way
        game = PatienceGame.from_seed(get(name), 1)
        from cardtable.patience.render import render
        assert shown.rstrip("\n") == render(game.view(), unicode=False)


@pytest.mark.parametrize("name", names())
def test_the_picture_shows_every_pile_and_only_what_the_player_sees(name: str) -> None:
    view = PatienceGame.from_seed(get(name), 1).view()
    picture = table_svg(view)
    ET.fromstring(picture)  # well-formed
    faces = set(re.findall(r'<symbol id="c(\w\w)"', picture))
    seen = {str(card) for pile in view.piles for card in pile.cards}
    assert faces <= seen  # no face-down card is ever written into the picture
    labels = re.findall(r'class="t" text-anchor="middle">([^<]+)</text>', picture)
    assert labels == [str(pile.place) for pile in view.piles]


def test_the_picture_draws_face_down_cards_as_backs() -> None:
    view = PatienceGame.from_seed(get("klondike"), 1).view()
    picture = table_svg(view)
    assert picture.count('href="#back"') == 21 + 1  # the tableau's face-down cards and the stock
    assert len(re.findall(r'href="#c\w\w"', picture)) == 7


def test_rules_in_words_follow_the_fields() -> None:
    freecell = get("freecell")
    words = dict(rules_sections(freecell))
    assert words["Filling spaces"] == "Any card, or any run that may move, fills an empty tableau pile."
    assert "built down in alternate colours" in words["Building"]
    data = freecell.to_json()
    data["tableau"]["empty"] = "kings"
    data["tableau"]["build"]["suit"] = "same-suit"
    data["cells"]["count"] = 2
    changed = dict(rules_sections(Description.from_json(data)))
    assert changed["Filling spaces"].startswith("Only a King")
    assert "built down in suit" in changed["Building"]
    assert "two free cells (`a` to `b`)" in changed["Piles"]
    assert "three cards at a time" in dict(rules_sections(get("klondike").with_options("draw-3")))["Stock and passes"]
    assert "pairs whose ranks add up to 13" in dict(rules_sections(get("pyramid")))["The hole"]
    assert "face down on piles `1` to `18`" in dict(rules_sections(get("tripeaks")))["Deal"]


@pytest.mark.parametrize("name", names())
def test_every_game_names_where_its_rules_come_from(name: str) -> None:
    source = get(name).source
    assert source is not None
    assert source.startswith(("https://www.pagat.com/patience/",
                              "https://github.com/shlomif/PySolFC/blob/master/html-src/rules/"))


def test_a_source_that_is_not_a_web_address_names_the_field() -> None:
    data = get("golf").to_json()
    data["source"] = "my uncle"
    with pytest.raises(DescriptionError, match=r"^source: expected a web address \(https://\.\.\.\)"):
        Description.from_json(data)
    data["source"] = None
    assert Description.from_json(data).source is None
