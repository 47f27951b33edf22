"""Game records: a hand of Kings Corner as PGN-like text or JSON, both round-tripping.

The text form is tag lines, a blank line, then one line per turn::

    [Game "Kings Corner"]
    [Players "3"]
    [Deck "7h Qs ... 2c"]
    [Result "P2"]

    1 P1: move W E; play 7h N; draw
    2 P2: play Kd NE; draw

``Deck`` lists all 52 cards top first (the deal: seven to each player in seat
order, then one card each onto ``N E S W``). ``Players`` is the number of seats.
``Result`` is ``P1``..``P6`` (who emptied their hand), ``stalemate`` or ``*``
(unfinished); it is written from the replay and checked when read. Other tags
(``Names``, ``Seed``, ``Event``...) are kept as given: a tag name is a letter,
then up to 39 letters, digits or ``_``, given once and not one of the four above; a
value may be any text, with a backslash, a ``"``, a line break or another
control character escaped (``\\``, ``\"``, ``\n``, ``\u2028`` ...) and
read back. A record whose tags break these rules cannot be built, so the text
and JSON forms always hold the same record. Lines starting with ``#``
are comments. Each turn line is the turn number, the seat to move and its
actions in :mod:`~cardtable.kings_corner.actions` notation, separated by ``;``.

>>> game = KingsCornerGame.from_seed(3, seed=1)
>>> game.play(game.legal_actions()[-1])
>>> record = HandRecord.from_game(game)
>>> HandRecord.from_text(record.to_text()) == record
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from cardtable._json import read_json_object
from cardtable._text import TAG_NAME, clip, escape_tag, tag_problem, unescape_tag
from cardtable.cards import Card, CardError, format_cards, parse_cards
from cardtable.errors import CardtableError, RecordError
from cardtable.kings_corner.actions import Action, Draw, Pass, parse_action
from cardtable.kings_corner.errors import TableError
from cardtable.kings_corner.game import HandOutcome, KingsCornerGame

__all__ = ["HandRecord", "result_text"]

_TAG = re.compile(r'\[(' + TAG_NAME.pattern + r')\s+"((?:[^"\\]|\\.)*)"\]', re.ASCII)
_TURN = re.compile(r"(\d{1,9})\s+P(\d{1,9})\s*:\s*(.*)", re.ASCII)
_RESERVED = ("Game", "Players", "Deck", "Result")


def result_text(outcome: HandOutcome | None) -> str:
    """The ``Result`` tag for an outcome: ``P2``, ``stalemate`` or ``*``."""
    if outcome is None:
        return "*"
    return "stalemate" if outcome.winner is None else f"P{outcome.winner + 1}"


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A hand as played: the number of players, the deal (52 cards, top first), the
    actions in order, and any extra tags (``Names``, ``Seed``...)."""

    players: int
    deck: tuple[Card, ...]
    actions: tuple[Action, ...]
    tags: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for item in self.tags:
            if not (isinstance(item, tuple) and len(item) == 2):
                raise RecordError(f"a tag is a (name, value) pair, not {clip(repr(item), 40)}")
            name, value = item
            reason = tag_problem(name, value, _RESERVED)
            if reason is not None:
                raise RecordError(reason)
            if name in seen:
                raise RecordError(f"header {name} given twice")
            seen.add(name)

    @classmethod
    def from_game(cls, game: KingsCornerGame, tags: Iterable[tuple[str, str]] = ()) -> HandRecord:
        """The record of ``game`` so far."""
        return cls(game.players, game.initial_deck, game.history, tuple(tags))

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of an extra tag."""
        return next((value for key, value in self.tags if key == name), default)

    def replay(self) -> KingsCornerGame:
        """The game after all the actions; raises :class:`RecordError` naming the
        first action that cannot be played."""
        try:
            game = KingsCornerGame(self.players, self.deck)
        except CardtableError as error:
            raise RecordError(f"bad deal: {error}") from None
        for number, action in enumerate(self.actions, 1):
            try:
                game.play(action)
            except CardtableError as error:
                raise RecordError(f"action {number}: {error}") from None
        return game

    # -- text -------------------------------------------------------------------

    def to_text(self) -> str:
        """The PGN-like text form (see the module documentation)."""
        game = KingsCornerGame(self.players, self.deck)
        turn_lines: list[str] = []
        current: list[str] = []
        for action in self.actions:
            if not current:
                current.append(f"{game.turns + 1} P{game.turn + 1}:")
            game.play(action)
            current.append(str(action) + ";")
            if isinstance(action, (Draw, Pass)):
                turn_lines.append(" ".join(current)[:-1])
                current = []
        if current:
            turn_lines.append(" ".join(current)[:-1])
        tags = [("Game", "Kings Corner"), ("Players", str(self.players)),
                *self.tags, ("Deck", format_cards(self.deck)),
                ("Result", result_text(game.outcome()))]
        lines = [f'[{key} "{escape_tag(value)}"]' for key, value in tags]
        return "\n".join([*lines, "", *turn_lines]) + "\n"

    @classmethod
    def from_text(cls, text: str) -> HandRecord:
        """Read the text form; raises :class:`RecordError` naming the bad line."""
        tags: list[tuple[str, str]] = []
        fixed: dict[str, tuple[int, str]] = {}
        turns: list[tuple[int, int, int, str]] = []
        for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                match = _TAG.fullmatch(line)
                if not match:
                    raise RecordError(f'line {number}: bad tag {clip(line)}: write [Name "value"]')
                key, value = match.group(1), unescape_tag(match.group(2))
                if key in fixed or any(k == key for k, _ in tags):
                    raise RecordError(f"line {number}: tag {key} given twice")
                if key in _RESERVED:
                    fixed[key] = (number, value)
                else:
                    tags.append((key, value))
                continue
            match = _TURN.fullmatch(line)
            if not match:
                raise RecordError(
                    f"line {number}: expected a tag or a turn like '3 P1: play 7h N; draw',"
                    f" not {clip(line)}"
                )
            turns.append((number, int(match.group(1)), int(match.group(2)), match.group(3)))
        if "Game" in fixed and fixed["Game"][1] != "Kings Corner":
            raise RecordError(f"line {fixed['Game'][0]}: this is a record of {clip(fixed['Game'][1])}, "
                              "not of Kings Corner")
        players = _players_tag(fixed)
        deck = _deck_tag(fixed)
        try:
            game = KingsCornerGame(players, deck)
        except TableError as error:  # the number of players
            raise RecordError(f"line {fixed['Players'][0]}: {error}") from None
        except CardtableError as error:
            raise RecordError(f"line {fixed['Deck'][0]}: bad deal: {error}") from None
        actions: list[Action] = []
        for number, turn, seat, body in turns:
            if game.is_over():
                raise RecordError(f"line {number}: the hand is already over")
            if turn != game.turns + 1 or seat != game.turn + 1:
                raise RecordError(
                    f"line {number}: expected turn {game.turns + 1} by P{game.turn + 1},"
                    f" not turn {turn} by P{seat}"
                )
            texts = [part.strip() for part in body.split(";")]
            for position, action_text in enumerate(texts, 1):
                try:
                    action = parse_action(action_text)
                    if game.turns + 1 != turn:
                        raise RecordError(f"'{action}' comes after the end of the turn")
                    game.play(action)
                except CardtableError as error:
                    raise RecordError(f"line {number}, action {position}: {error}") from None
                actions.append(action)
        if "Result" in fixed:
            result_line, claimed = fixed["Result"]
            actual = result_text(game.outcome())
            if claimed != actual:
                raise RecordError(
                    f"line {result_line}: Result says {clip(claimed, 30)} but the actions give {actual!r}"
                )
        return cls(players, deck, tuple(actions), tuple(tags))

    # -- JSON -------------------------------------------------------------------

    def to_json(self) -> str:
        """The JSON form: ``players``, ``deck``, ``actions``, ``tags``, ``result``."""
        return json.dumps({
            "game": "Kings Corner",
            "players": self.players,
            "deck": format_cards(self.deck),
            "actions": [str(action) for action in self.actions],
            "tags": dict(self.tags),
            "result": result_text(self.replay().outcome()),
        }, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> HandRecord:
        """Read the JSON form; raises :class:`RecordError` naming the bad field."""
        data = read_json_object(
            text, error=RecordError, what="JSON record", nested="a record", syntax="not JSON: {error}",
            not_object="a JSON record is an object with players, deck and actions",
            fields=("game", "players", "deck", "actions", "tags", "result"),
            unknown_field="unknown field {field}: a JSON record holds game, players, deck, actions, tags and result")
        if data.get("game", "Kings Corner") != "Kings Corner":
            raise RecordError(f"field 'game': this is a record of {clip(str(data['game']), 30)}, not of Kings Corner")
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise RecordError("field 'players': expected a whole number of players")
        deck_text = data.get("deck")
        if not isinstance(deck_text, str):
            raise RecordError("field 'deck': expected the 52 cards as a string, top first")
        try:
            deck = tuple(parse_cards(deck_text, where="field 'deck'"))
        except CardError as error:
            raise RecordError(str(error)) from None
        raw_actions = data.get("actions", [])
        if not isinstance(raw_actions, list):
            raise RecordError("field 'actions': expected a list of actions")
        raw_tags = data.get("tags", {})
        if not isinstance(raw_tags, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in raw_tags.items()
        ):
            raise RecordError("field 'tags': expected an object of strings")
        actions = []
        for index, item in enumerate(raw_actions, 1):
            if not isinstance(item, str):
                raise RecordError(f"field 'actions', item {index}: expected a string")
            try:
                actions.append(parse_action(item))
            except CardtableError as error:
                raise RecordError(f"field 'actions', item {index}: {error}") from None
        record = cls(players, deck, tuple(actions), tuple(raw_tags.items()))
        game = record.replay()
        claimed = data.get("result")
        if claimed is not None and claimed != result_text(game.outcome()):
            raise RecordError(
                f"field 'result': {clip(str(claimed), 30)} but the actions give {result_text(game.outcome())!r}"
            )
        return record


def _players_tag(fixed: dict[str, tuple[int, str]]) -> int:
    if "Players" not in fixed:
        raise RecordError('missing tag [Players "N"]')
    line, value = fixed["Players"]
    if not (value.isascii() and value.isdigit()) or len(value) > 3:
        raise RecordError(f"line {line}: Players must be a number of players, not {clip(value, 30)}")
    return int(value)


def _deck_tag(fixed: dict[str, tuple[int, str]]) -> tuple[Card, ...]:
    if "Deck" not in fixed:
        raise RecordError('missing tag [Deck "..."] with the 52 cards, top first')
    line, value = fixed["Deck"]
    try:
        return tuple(parse_cards(value, where=f"line {line}: Deck"))
    except CardError as error:
        raise RecordError(str(error)) from None

