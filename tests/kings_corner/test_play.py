"""The human seat, driven by a script: commands, errors, undo, bots' actions shown."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cardtable.cards import Card
from cardtable.cli.kings_corner_seat import Command, HumanSeat, parse_command
from cardtable.errors import UsageError
from cardtable.kings_corner import (
    DRAW,
    HandRecord,
    KingsCornerGame,
    PilePosition,
    PlayCard,
)
from cardtable.kings_corner.session import derive_seed


@pytest.mark.parametrize(("text", "command"), [
    ("7h N", Command("play", card=Card.parse("7h"), target=PilePosition.N)),
    ("play 10d sw", Command("play", card=Card.parse("Td"), target=PilePosition.SW)),
    ("7♥", Command("play", card=Card.parse("7h"))),
    ("W E", Command("move", source=PilePosition.W, target=PilePosition.E)),
    ("move n ne", Command("move", source=PilePosition.N, target=PilePosition.NE)),
    ("d", Command("end")), ("draw", Command("end")), ("pass", Command("end")),
    ("u", Command("undo")), ("?", Command("help")), ("Q", Command("quit")),
    ("hint", Command("hint")), ("m", Command("moves")), ("b", Command("board")),
])
def test_parse_command(text: str, command: Command) -> None:
    assert parse_command(text) == command


@pytest.mark.parametrize(("text", "message"), [
    ("", "type a command"),
    ("fly away", "not a command"),
    ("7h X", "unknown pile 'X'"),
    ("d now", "takes nothing after it"),
    ("1 2 3", "not a command"),
])
def test_bad_commands(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_command(text)


def scripted(lines: list[str], seed: int = 5, opponents: int = 2, unicode: bool = True):
    console = Console(file=io.StringIO(), width=100, color_system=None)
    feed = iter(lines)
    records: list[HandRecord] = []

    def read(prompt: str) -> str:
        console.print(prompt + "<")
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    seat = HumanSeat(opponents=opponents, level="greedy", seed=seed, delay=0, console=console,
                     read=read, on_hand_end=records.append, unicode=unicode)
    status = seat.run()
    return status, console.file.getvalue(), records


def first_hand(seed: int, players: int) -> KingsCornerGame:
    return KingsCornerGame.from_seed(players, derive_seed(seed, 0))


def test_human_turn_commands_and_errors() -> None:
    game = first_hand(5, 3)
    hand = game.hand(0)
    play = next(a for a in game.legal_actions() if isinstance(a, PlayCard))
    not_held = next(c for c in Card._all if c not in hand)
    status, out, records = scripted([
        "h", "zz", f"{not_held} N", "m", str(play), "u", "u", f"{play.card} {play.target.name}",
        "d", "q",
    ])
    assert status == 0
    assert "Commands" in out  # help
    assert "'zz' is not a command" in out
    assert f"{not_held} is not in" in out
    assert "Took back: " + str(play) in out
    assert "Nothing to undo this turn." in out
    assert "You drew" in out
    assert "Bot 1 " in out and "Bot 2 " in out  # the bots' actions are shown
    assert "You left the table." in out
    # the record of the unfinished hand holds what was played
    assert records and records[-1].actions[:2] == (play, DRAW)


def test_auto_target_and_ambiguity() -> None:
    game = first_hand(5, 3)
    legal = game.legal_actions()
    cards = {}
    for action in legal:
        if isinstance(action, PlayCard):
            cards.setdefault(action.card, set()).add(action.target)
    unplayable = next((c for c in game.hand(0) if c not in cards), None)
    lines = [str(c) for c in cards] + ([str(unplayable)] if unplayable else []) + ["q"]
    status, out, _ = scripted(lines)
    assert status == 0
    if unplayable:
        assert "fits on no pile now" in out


def test_illegal_move_is_explained_and_changes_nothing() -> None:
    status, out, records = scripted(["NE N", "q"])
    assert status == 0
    assert "Can't move a corner pile" in out
    assert records[-1].actions == ()


def test_end_of_input_leaves_quietly() -> None:
    status, out, _ = scripted([])
    assert status == 0 and "You left the table." in out


def test_a_whole_hand_can_be_played() -> None:
    # always draw: the bots (greedy) finish the hand; totals are reported
    status, out, records = scripted(["d"] * 200, seed=2, opponents=1)
    assert status == 0
    assert "Penalty points this hand" in out and "Totals:" in out
    assert records and records[0].replay().is_over()


def test_ascii_seat_writes_no_suit_symbols() -> None:
    hand = first_hand(5, 3).hand(0)
    not_held = next(c for c in Card._all if c not in hand and c.is_red)
    status, out, _ = scripted([str(not_held), "d", "q"], unicode=False)
    assert status == 0
    assert f"{not_held} is not in your hand" in out and "You drew " in out
    assert not set("♣♦♥♠") & set(out)
