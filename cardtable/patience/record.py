"""Game records of every patience game: the game, the start and the moves, as
text or JSON, in the style of Klondike's records
(:mod:`cardtable.klondike.record`)::

    [Game "FreeCell"]
    [Rules "freecell"]
    [Seed "ms:11982"]
    [Result "won"]
    [Player "greedy"]

    1. 3>a 2. 8>3 3. 1>F ...

``Game`` is the game's title; ``Rules`` what ``--game`` reads to find it (a
shipped game's name with its options after colons, ``golf:wrap``); a game
that is no shipped one (a user's description file) also carries its whole
description as JSON in a ``Description`` header, so the record replays
without the file. The start is a ``Seed`` (a whole number, ``ms:N`` or
``pysol:N``, as ``--seed`` takes) or a ``Position`` (a position string,
:mod:`cardtable.patience.position`); when both are given they must agree.
``Result`` is written for people and
not read back. Move numbers are optional when reading; ``{...}`` is a
comment. Other headers (``Player``, ``Round``, ``Date`` ...) are kept as they are.

The JSON form is an object with ``headers`` (names to strings), ``rules``,
``description`` (only for a game that is no shipped one), ``seed`` or
``position`` (a string), ``moves`` (a list of move strings) and ``result``
(written as the ``Result`` header is, not read back).

>>> from cardtable.patience.engine import PatienceGame, PatienceOutcome
>>> from cardtable.patience.registry import get
>>> game = PatienceGame.from_seed(get("freecell"), "ms:11982")
>>> game.play(game.legal_moves()[0])
>>> record = PatienceRecord.from_game(game, "ms:11982", Player="me")
>>> print(str(record).splitlines()[2])
[Seed "ms:11982"]
>>> PatienceRecord.parse(str(record)).replay().key() == game.key()
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from cardtable._json import read_json_object
from cardtable._text import clip, read_record_text, record_text, tag_problem
from cardtable.errors import NotationError, RecordError, ReplayError, RulesError
from cardtable.patience.description import Description
from cardtable.patience.engine import PatienceGame, PatienceOutcome
from cardtable.patience.moves import Move, MoveError
from cardtable.patience.position import read_position, write_position
from cardtable.patience.registry import load, names

__all__ = ["RESERVED_HEADERS", "PatienceRecord", "rules_name"]

#: The headers a record writes itself, never free headers.
RESERVED_HEADERS = ("Game", "Rules", "Description", "Seed", "Position", "Result")
_JSON_FIELDS = ("headers", "rules", "description", "seed", "position", "moves", "result")


def rules_name(description: Description) -> str:
    """What ``--game`` reads to find ``description``: its name with the
    options applied after colons (``golf:wrap``)."""
    return ":".join((description.name, *description.applied))


def _result_text(outcome: PatienceOutcome | None) -> str:
    """What the Result header says of a game that ended so (None: not over)."""
    return outcome.value if outcome is not None else "game in progress"


def _is_shipped(description: Description) -> bool:
    if description.name not in names():
        return False
    try:
        return load(rules_name(description)) == description
    except RulesError:
        return False


@dataclass
class PatienceRecord:
    """A whole patience game: the description, the start (``seed``, or a
    ``position`` when the game did not start from a seed), the moves and free
    headers. Building one checks the headers and the start; :class:`RecordError`
    says what is wrong."""

    description: Description
    seed: str | None = None
    position: str | None = None
    moves: list[Move] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    #: The Result header when the record was made from the game itself
    #: (:meth:`from_game`), so that writing it needs no replay.
    _result: str | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, value in self.headers.items():
            reason = tag_problem(name, value, RESERVED_HEADERS)
            if reason is not None:
                raise RecordError(reason)
        if (self.seed is None) == (self.position is None):
            raise RecordError("a record starts from a Seed or from a Position, one of them")
        self.start()  # a seed or a position the game cannot have fails here

    @classmethod
    def from_game(cls, game: PatienceGame, seed: int | str | None = None, **headers: str) -> PatienceRecord:
        """The record of a game so far: from ``seed`` when it was dealt from
        one, else from its start position."""
        if seed is not None:
            record = cls(game.description, seed=str(seed), moves=game.moves, headers=dict(headers))
        else:
            start = PatienceGame(game.description, *game.start, shuffle_seed=game.shuffle_seed)
            record = cls(game.description, position=write_position(start), moves=game.moves, headers=dict(headers))
        record._result = _result_text(game.outcome())
        return record

    def start(self) -> PatienceGame:
        """A new game at the record's start."""
        try:
            if self.seed is not None:
                return PatienceGame.from_seed(self.description, self.seed)
            return read_position(self.description, self.position or "")
        except (RulesError, NotationError) as error:
            raise RecordError(f"start: {error}") from None

    def replay(self, upto: int | None = None) -> PatienceGame:
        """Play the moves (the first ``upto`` of them) from the start; raises
        :class:`ReplayError` naming the first illegal move and why."""
        game = self.start()
        for number, move in enumerate(self.moves[:upto], 1):
            reason = game.why_illegal(move)
            if reason is not None:
                raise ReplayError(number, move, reason)
            game.play(move)
        return game

    # ----- text -------------------------------------------------------------------------------

    def _header_items(self) -> list[tuple[str, str]]:
        d = self.description
        items = [("Game", d.title), ("Rules", rules_name(d))]
        if not _is_shipped(d):
            items.append(("Description", json.dumps(d.to_json(), separators=(",", ":"), ensure_ascii=False)))
        items.append(("Seed", self.seed) if self.seed is not None else ("Position", self.position or ""))
        items.append(("Result", self._result or _result_text(self.replay().outcome())))
        items += self.headers.items()
        return items

    def __str__(self) -> str:
        return record_text(self._header_items(), self.moves)

    @staticmethod
    def is_patience_record(text: str) -> bool:
        """True when ``text`` looks like a patience record (it has a ``Rules``
        header or field), not a Klondike one (which always has a ``Variant``
        header or field, and may carry ``Rules`` as a free header)."""
        text = text.removeprefix("\ufeff").lstrip()
        if text.startswith("{"):
            return '"rules"' in text and '"variant"' not in text

        def has(name: str) -> bool:
            return re.search(r'^\s*\[\s*' + name + r'\s+"', text, re.MULTILINE) is not None

        return has("Rules") and not has("Variant")

    @classmethod
    def parse(cls, text: str, description: Description | None = None) -> PatienceRecord:
        """Read a record in its text or JSON form; errors name the line (or
        the field). ``description`` plays it under that game instead of the
        one its headers name."""
        text = text.removeprefix("\ufeff")
        if text.lstrip().startswith("{"):
            return cls.from_json(text, description)
        headers, moves = read_record_text(text, Move.parse, MoveError, RecordError)
        if description is None:
            description = _description(headers.get("Rules"), headers.get("Description"), "header")
        if "Seed" not in headers and "Position" not in headers:
            raise RecordError("the record has no Seed or Position header")
        extra = {k: v for k, v in headers.items() if k not in RESERVED_HEADERS}
        _agree(description, headers.get("Seed"), headers.get("Position"), "the Seed and Position headers")
        return cls(description, headers.get("Seed"), headers.get("Position") if "Seed" not in headers else None,
                   moves, extra)

    # ----- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """The JSON form as a dictionary."""
        data: dict[str, object] = {"headers": dict(self.headers), "rules": rules_name(self.description)}
        if not _is_shipped(self.description):
            data["description"] = self.description.to_json()
        if self.seed is not None:
            data["seed"] = self.seed
        else:
            data["position"] = self.position
        data["moves"] = [str(m) for m in self.moves]
        data["result"] = self._result or _result_text(self.replay().outcome())
        return data

    def to_json(self) -> str:
        """The JSON form as text."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str, description: Description | None = None) -> PatienceRecord:
        """Read the JSON form; errors name the field."""
        data = read_json_object(
            text, error=RecordError, what="JSON record", nested="a record",
            not_object="JSON record: expected an object", fields=_JSON_FIELDS,
            unknown_field="JSON record: unknown field {field}; the fields are " + ", ".join(_JSON_FIELDS))
        for name in ("rules", "seed", "position"):
            if name in data and not isinstance(data[name], str):
                raise RecordError(f"JSON record, field {name!r}: expected a string")
        if description is None:
            raw = data.get("description")
            described = None if raw is None else json.dumps(raw)
            description = _description(data.get("rules"), described, "field")
        if "seed" not in data and "position" not in data:
            raise RecordError("JSON record: no 'seed' or 'position' field")
        raw_moves = data.get("moves", [])
        if not isinstance(raw_moves, list):
            raise RecordError("JSON record, field 'moves': expected a list of move strings")
        moves = []
        for number, token in enumerate(raw_moves, 1):
            if not isinstance(token, str):
                raise RecordError(f"JSON record, move {number}: expected a move string")
            try:
                moves.append(Move.parse(token))
            except MoveError as error:
                raise RecordError(f"JSON record, move {number}: {error}") from None
        headers = data.get("headers", {})
        if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
            raise RecordError("JSON record, field 'headers': expected an object of strings")
        _agree(description, data.get("seed"), data.get("position"), "the fields 'seed' and 'position'")
        return cls(description, data.get("seed"), data.get("position") if "seed" not in data else None,
                   moves, headers)


def _agree(description: Description, seed: str | None, position: str | None, both: str) -> None:
    """A record that gives both a seed and a position: they must be the same start."""
    if seed is None or position is None:
        return
    from_seed = PatienceRecord(description, seed=seed).start()
    if PatienceRecord(description, position=position).start().key() != from_seed.key():
        raise RecordError(f"{both} give different starts")


def _description(rules: str | None, described: str | None, what: str) -> Description:
    """The game a record names: its own description when it carries one,
    else the shipped game its rules name."""
    if described is not None:
        try:
            data: Any = json.loads(described)
            return Description.from_json(data)
        except ValueError as error:  # DescriptionError is a ValueError too
            raise RecordError(f"the Description {what}: {error}") from None
    if rules is None:
        raise RecordError(f"the record has no Rules {what}: it names no game (or give --game)")
    if rules.endswith(".json") or "/" in rules:
        raise RecordError(f"the Rules {what} names a file, {clip(rules, 40)}: give it as --game")
    try:
        return load(rules)
    except RulesError as error:
        raise RecordError(f"the Rules {what}: {error}") from None
