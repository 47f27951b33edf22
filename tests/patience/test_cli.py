"""``cardtable games``: the list, a description and its file read back, a
deal, a bot's game, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.patience import Description, get, names


def test_the_list_names_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0 and len(out.splitlines()) == len(names())
    assert out.splitlines()[0].startswith("accordion ")
    code, out, _ = run(capsys, "games", "--json")
    listed = json.loads(out)
    assert [game["name"] for game in listed] == list(names())
    assert {"name", "title", "family", "decks", "description"} <= set(listed[0])
    assert next(game for game in listed if game["name"] == "spider")["decks"] == 2


def test_a_description_printed_reads_back_and_a_changed_file_plays(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    code, out, _ = run(capsys, "games", "freecell", "--json")
    assert code == 0 and Description.from_json(json.loads(out)) == get("freecell")
    data = json.loads(out)
    data["name"], data["cells"]["count"] = "freecell-2-cells", 2
    path = tmp_path / "two-cells.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "games", str(path))
    assert code == 0 and "free cells: 2" in out
    code, out, _ = run(capsys, "games", str(path), "--deal", "ms:1", "--format", "pysol")
    assert code == 0 and out.splitlines()[1] == "Freecells: - -"
    code, out, _ = run(capsys, "games", str(path), "--play", "greedy", "--deal", "5", "--json")
    assert code == 0 and json.loads(out)["game"] == "freecell-2-cells"


def test_options_after_colons(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "golf:queens-on-kings:wrap", "--json")
    described = Description.from_json(json.loads(out))
    assert code == 0 and described.hole_build.wrap and described.hole_build.closed is None
    assert described.applied == ("queens-on-kings", "wrap")


def test_a_deal_and_a_bot_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "klondike", "--deal", "3")
    assert code == 0 and out.splitlines()[1] == "2: ## Ah" and out.splitlines()[-2] == "stock: 24 cards"
    code, out, _ = run(capsys, "games", "golf", "--deal", "4", "--play", "random", "--json")
    game = json.loads(out)
    assert code == 0 and game["result"] in ("won", "lost: no legal move left") and game["moves"]


@pytest.mark.parametrize(("args", "message"), [
    (("games", "freecel"), "unknown game 'freecel'; did you mean freecell?"),
    (("games", "golf:wrapp"), "golf has no option 'wrapp'; its options: queens-on-kings, wrap"),
    (("games", "spider", "--deal", "ms:3"), "spider has no Microsoft deal numbers (ms:N)"),
    (("games", "freecell", "--deal", "abc"), "cannot read deal 'abc': a whole number, ms:N or pysol:N"),
    (("games", "klondike", "--deal", "1", "--format", "pysol"), "klondike: a PySol board has no waste or reserve"),
    (("games", "--deal", "3"), "--deal needs a game"),
    (("games", "/no/such/game.json"), "/no/such/game.json: no such file or directory"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                          message: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and not out
    assert err.count("\n") == 1 and message in err


def test_a_bad_description_file_names_the_field(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = get("freecell").to_json()
    data["deal"][0]["cards"] = 8
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "games", str(path), "--deal", "1")
    assert code == 2 and err == f"cardtable: error: {path}: deal: the piles take 64 cards, 1 deck holds 52\n"
    path.write_text("[1, 2]")
    code, _, err = run(capsys, "games", str(path))
    assert code == 2 and err == f"cardtable: error: {path}: a game description is a JSON object\n"


def test_klondike_with_eight_columns_plays_from_a_users_file(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    code, out, _ = run(capsys, "games", "klondike", "--json")
    data = json.loads(out)
    data["name"], data["tableau"]["count"] = "klondike-8", 8
    data["deal"][0]["cards"], data["deal"][0]["face-down"] = list(range(1, 9)), list(range(8))
    path = tmp_path / "klondike-8.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "games", str(path), "--deal", "4")
    assert code == 0 and out.splitlines()[7] == "8: " + " ".join(["##"] * 7 + [out.splitlines()[7].split()[-1]])
    assert "stock: 16 cards" in out
    code, out, _ = run(capsys, "games", str(path), "--deal", "4", "--play", "random", "--json")
    assert code == 0 and json.loads(out)["moves"]
