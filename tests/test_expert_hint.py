"""The expert's hint from the player's view: it never depends on a card the
player has not seen, the same view gets the same hint, and ``cardtable hint``
says it (``--peek`` asks the all-seeing solver instead)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from klondike_helpers import layout

from cardtable._text import plural
from cardtable.bots.klondike.expert import ExpertPlayer, view_seed
from cardtable.bots.klondike.hint import expert_hint, seen_stock
from cardtable.cli import main
from cardtable.klondike import FOUNDATION, KlondikeGame, KlondikeRecord, Move, Position, Variant
from cardtable.klondike.narrate import narrate
from cardtable.solver import hint

# A small budget keeps these tests quick; what they hold does not depend on it.
SMALL = {"samples": 12, "max_states": 3000}


def swapped(position: Position, first: tuple[int, int], second: tuple[int, int]) -> Position:
    """``position`` with two cards swapped, each given as (pile, index; pile -1: the stock)."""
    piles = [list(pile) for pile in position.tableau]
    stock = list(position.stock)

    def place(spot: tuple[int, int]) -> list:  # type: ignore[type-arg]
        return stock if spot[0] < 0 else piles[spot[0]]

    a, b = place(first), place(second)
    a[first[1]], b[second[1]] = b[second[1]], a[first[1]]
    return Position(tuple(tuple(pile) for pile in piles), position.face_down, tuple(stock), position.waste,
                    position.foundation, position.pass_number)


def face_down(game: KlondikeGame, spot: tuple[int, int]) -> bool:
    pile, index = spot
    return index < game.face_down[pile]


def unseen_stock(game: KlondikeGame, index: int) -> bool:
    """Whether stock card ``index`` (from the bottom) is still where the player has not seen its place."""
    return index < len(game.stock) and index >= len(seen_stock(game))


@pytest.mark.parametrize(("variant", "seed", "first", "second"), [
    ("draw3", 5, (6, 0), (5, 1)),      # two face-down cards deep in piles 7 and 6
    ("draw1", 8, (6, 2), (-1, 3)),     # a face-down card and a card deep in the stock
    ("draw3", 11, (-1, 0), (-1, 10)),  # two stock cards the player has not reached
])
def test_deals_that_differ_only_in_unseen_cards_get_the_same_hint_at_every_step(
        variant: str, seed: int, first: tuple[int, int], second: tuple[int, int]) -> None:
    rules = Variant.preset(variant)
    start = Position.from_seed(seed)
    one, other = KlondikeGame(start, rules), KlondikeGame(swapped(start, first, second), rules)
    assert one.position() != other.position()
    steps = 0
    while steps < 12 and not one.is_won():
        hidden = [spot for spot in (first, second) if spot[0] >= 0]
        if not all(face_down(one, spot) for spot in hidden) or \
                not all(unseen_stock(one, spot[1]) for spot in (first, second) if spot[0] < 0):
            break  # a swapped card is now in sight: from here the two deals may rightly differ
        assert one.view() == other.view()
        hint, twin = expert_hint(one, **SMALL), expert_hint(other, **SMALL)
        assert hint == twin and hint.to_dict() == twin.to_dict()
        if hint.move is None:
            break
        one.play(hint.move)
        other.play(hint.move)
        steps += 1
    assert steps >= 3  # the pair was followed some way into the game


def test_the_same_view_gets_the_same_advice_and_the_seed_follows_the_view() -> None:
    game = KlondikeGame.from_seed(4, Variant.preset("draw3"))
    expert = ExpertPlayer(samples=12, max_states=3000)
    first = expert.advise(game.view())
    assert expert.advise(game.view()) == first  # nothing remembered from the last call changes it
    assert first.samples == 12 and 0 <= first.wins <= 12 and first.fallback is None
    before = view_seed(game.view())
    game.play(Move.parse("D"))
    assert view_seed(game.view()) != before


def test_a_safe_card_home_is_advised_and_a_person_s_move_comes_before_a_draw() -> None:
    # Seed 7 deals the ace of clubs face up on pile 7: it goes home first.
    game = KlondikeGame.from_seed(7, Variant.preset("draw1"))
    found = expert_hint(game, **SMALL)
    assert found.move is not None and found.move.target == FOUNDATION and found.move.source == 6
    assert found.words.startswith("A♣ from pile 7 to the foundation")


def test_among_moves_that_win_as_often_a_person_s_move_comes_before_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every guess is won whether the queen of hearts goes onto the king of spades, turning the
    # king of clubs up, or the stock is drawn first; no card can go home. The solver's lines
    # all start by drawing (the leaner plan), so the hint turns the card up only because a
    # person would: without that rule the same hint draws.
    start = layout(["Kc|Qh", "Ks", "Kd", "Kh"], stock="Jc Qc Jd Qd Jh Ts Js Qs", foundation=(10, 10, 10, 9))
    game = KlondikeGame(start, Variant.preset("draw1"))
    assert set(game.legal_moves()) == {Move.parse("1>2"), Move.parse("D")}
    found = expert_hint(game, **SMALL)
    assert found.move == Move.parse("1>2") and found.advice.wins == found.advice.samples
    assert found.words == "Q♥ from pile 1 onto K♠ in pile 2, turning a card up"
    import cardtable.bots.klondike.expert as expert_module

    monkeypatch.setattr(expert_module, "_person_rank", lambda view, move: 0)  # no preference: the lean plan
    assert expert_hint(game, **SMALL).move == Move.parse("D")


def test_a_draw_is_said_without_naming_its_cards() -> None:
    game = KlondikeGame.from_seed(1, Variant.preset("draw3"))
    found = expert_hint(game, samples=1, max_states=1)
    drawn = game.moved_cards(Move.parse("D"))
    if found.move is not None and found.move.is_draw:
        assert found.words == "draw 3 cards from the stock"
    assert not any(card.symbol() in found.describe() for card in drawn)


def test_out_of_time_the_hint_says_it_fell_back_to_the_greedy_move() -> None:
    game = KlondikeGame.from_seed(3, Variant.preset("draw1"))
    found = expert_hint(game, seconds=1e-9, **SMALL)
    assert found.advice.fallback == "out of time" and found.move in game.legal_moves()
    assert "ran out of time" in found.describe()


def test_counts_are_said_in_good_grammar() -> None:
    assert [plural(n, "move") for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    assert plural(1, "guess", "guesses") == "1 guess" and plural(96, "guess", "guesses") == "96 guesses"
    game = KlondikeGame.from_seed(3, Variant.preset("draw1"))
    assert "of 1 guess from here" in expert_hint(game, samples=1, max_states=2000).describe()


def test_one_of_a_thing_is_said_in_the_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = KlondikeGame.from_seed(1, Variant.preset("draw1"))
    game.play(Move.parse("D"))
    record = KlondikeRecord.from_game(game)
    assert "\n1 move, 0 cards on the foundations: lost" in narrate(record, unicode=False)
    path = tmp_path / "one.txt"
    path.write_text(str(record))
    assert main(["replay", str(path), "--quiet"]) == 0
    assert "one.txt: 1 move legal; 0 cards on the foundations" in capsys.readouterr().out
    assert main(["show", str(path)]) == 0
    assert "after 1 move: 0 cards on the foundations" in capsys.readouterr().out
    # One card left in the waste to turn over, one move from a win.
    last = KlondikeGame(layout([], stock="", waste="Ks", foundation=(13, 13, 13, 12)), Variant.preset("draw1"))
    assert hint(last).describe() == "W>F (wins in 1 move)"


def _record(tmp_path: Path, seed: int = 5, variant: str = "draw3", moves: int = 2) -> Path:
    game = KlondikeGame.from_seed(seed, Variant.preset(variant))
    for _ in range(moves):
        game.play(game.legal_moves()[0])
    path = tmp_path / "game.txt"
    path.write_text(str(KlondikeRecord.from_game(game)))
    return path


def test_the_hint_command_gives_the_experts_move_the_same_each_time(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path)
    argv = ["hint", str(path), "--samples", "12", "--max-states", "3000"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hint"] == "expert" and data["samples"] == 12 and data["fallback"] is None
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == data  # reproducible, --json too
    game = KlondikeRecord.parse(path.read_text()).replay()
    assert Move.parse(data["move"]) in game.legal_moves()
    assert main(argv) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"{data['move']}: {data['words']}; the expert wins {data['wins']} of 12 guesses")


def test_the_hint_command_peeks_only_when_asked_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path, seed=2, variant="thoughtful1", moves=0)
    assert main(["hint", str(path), "--peek"]) == 0
    assert capsys.readouterr().out.startswith("peek: the solver's verdict with every card known: ")
    assert main(["hint", str(path), "--peek", "--samples", "4"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "cardtable: error: --samples: the peek does not guess; leave out --samples or --peek"


def test_a_kings_corner_target_of_one_point_is_said_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kings-corner", "match", "--players", "greedy,random", "--games", "4", "--workers", "1",
                 "--seed", "2", "--target", "1"]) == 0
    out = capsys.readouterr().out
    assert "matches to 1 point:" in out and "1 points" not in out
