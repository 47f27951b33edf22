"""Game records: the variant, the start and the moves, as text or JSON.

The text form follows chess's PGN: a block of ``[Name "value"]`` headers, a
blank line, then the moves in move notation, numbered::

    [Game "Klondike"]
    [Variant "seed-002"]
    [Draw "1"]
    [Passes "1"]
    [Empty "king"]
    [FoundationReturn "no"]
    [Scoring "vegas"]
    [Deal "4d 3c ..."]
    [Result "lost: no legal move left"]

    1. D 2. W>F 3. 6>F 4. 7>2:2 ...

The start is a ``Deal`` header (a deal string) or, for a game that begins
mid-way, a ``Position`` header (a position string); when both are given they
must agree, and the position's pass number must be one the variant allows.
Move numbers are optional when reading; ``{...}`` is a comment. Other headers
(``Seed``, ``Player``, ``Date`` ...) are kept as they are. A header name is a
letter, then up to 39 letters, digits or ``_``, and is given once; a value may be any
text: a backslash, a ``"``, a line break or another control character is
escaped (``\\``, ``\"``, ``\n``, ``\u2028`` ...) and read back. The names
the record writes itself (``Game``, the variant's, ``Deal``, ``Position``)
cannot be free headers: building such a record raises :class:`RecordError`, so
the text and JSON forms always hold the same record.

The JSON form is an object with ``headers`` (names to strings), ``variant``
(the options), ``deal`` or ``position`` (a string), and ``moves`` (a list of
move strings).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from cardtable._json import read_json_object
from cardtable._text import clip, read_record_text, record_text, tag_problem
from cardtable.errors import RecordError, ReplayError, RulesError
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import Move, MoveError
from cardtable.klondike.position import DealError, Position
from cardtable.klondike.variant import Variant, VariantError

__all__ = ["KlondikeRecord", "RecordError", "ReplayError"]


_VARIANT_HEADERS = {
    "Variant": "name",
    "Draw": "draw",
    "Passes": "passes",
    "Empty": "empty",
    "FoundationReturn": "foundation_return",
    "Scoring": "scoring",
}
#: The headers a record writes itself, never free headers.
RESERVED_HEADERS = ("Game", *_VARIANT_HEADERS, "Deal", "Position")


def _only_klondike(line: int, name: str, value: str) -> None:
    """Refuse, as it is read, a Game header that names another game."""
    if name == "Game" and value != "Klondike":
        raise RecordError(f"line {line}: this is a record of {clip(value)}, not of Klondike")


@dataclass
class KlondikeRecord:
    """A whole game: variant, start position, moves and free headers.

    Building one checks what every form of the record must hold: each header
    name is a tag name (see the module documentation) the record does not
    write itself, each value is text, and the start's pass number is one the
    variant allows; :class:`RecordError` says which.
    """

    variant: Variant
    start: Position
    moves: list[Move] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._check()

    def _check(self) -> None:
        for name, value in self.headers.items():
            reason = tag_problem(name, value, RESERVED_HEADERS)
            if reason is not None:
                raise RecordError(reason)
        try:
            self.start.check_pass_limit(self.variant.passes)
        except RulesError as error:
            raise RecordError(f"start: {error}") from None

    @classmethod
    def from_game(cls, game: KlondikeGame, **headers: str) -> KlondikeRecord:
        """The record of a game so far (its moves played, not those undone)."""
        return cls(game.variant, game.start, game.moves, dict(headers))

    def replay(self, upto: int | None = None) -> KlondikeGame:
        """Play the moves (the first ``upto`` of them) in a new game; raises
        :class:`ReplayError` naming the first illegal move."""
        game = KlondikeGame(self.start, self.variant)
        for number, move in enumerate(self.moves[:upto], 1):
            reason = game.why_illegal(move)
            if reason is not None:
                raise ReplayError(number, move, reason)
            game.play(move)
        return game

    # ----- text -------------------------------------------------------------------------------

    def _header_items(self) -> list[tuple[str, str]]:
        self._check()  # the headers are a plain dictionary: check them again before writing
        v = self.variant
        items = [("Game", "Klondike"), ("Variant", v.name), ("Draw", str(v.draw)),
                 ("Passes", "unlimited" if v.passes is None else str(v.passes)),
                 ("Empty", v.empty), ("FoundationReturn", "yes" if v.foundation_return else "no"),
                 ("Scoring", v.scoring.kind)]
        if self.start.is_deal:
            items.append(("Deal", self.start.deal_string()))
        else:
            items.append(("Position", str(self.start)))
        items += self.headers.items()
        return items

    def __str__(self) -> str:
        return record_text(self._header_items(), self.moves)

    @classmethod
    def parse(cls, text: str) -> KlondikeRecord:
        """Read a record in its text or JSON form; errors name the line (or
        the JSON field)."""
        text = text.removeprefix("\ufeff")
        if text.lstrip().startswith("{"):
            return cls.from_json(text)
        headers, moves = read_record_text(text, Move.parse, MoveError, RecordError, _only_klondike)
        return cls._from_parts(headers, moves)

    @classmethod
    def _from_parts(cls, headers: dict[str, str], moves: list[Move]) -> KlondikeRecord:
        options: dict[str, object] = {field_: headers[h] for h, field_ in _VARIANT_HEADERS.items() if h in headers}
        try:
            variant = Variant.from_options(options)
        except VariantError as error:
            raise RecordError(f"variant headers: {error}") from None
        if "Deal" not in headers and "Position" not in headers:
            raise RecordError("the record has no Deal or Position header")
        start = _start(headers.get("Deal"), headers.get("Position"), "the Deal and Position headers", "start")
        extra = {k: v for k, v in headers.items() if k not in RESERVED_HEADERS}
        return cls(variant, start, moves, extra)

    # ----- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """The JSON form as a dictionary."""
        data: dict[str, object] = {"headers": dict(self.headers), "variant": self.variant.options()}
        if self.start.is_deal:
            data["deal"] = self.start.deal_string()
        else:
            data["position"] = str(self.start)
        data["moves"] = [str(m) for m in self.moves]
        return data

    def to_json(self) -> str:
        """The JSON form as text."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> KlondikeRecord:
        """Read the JSON form; errors name the field."""
        data = read_json_object(
            text, error=RecordError, what="JSON record", nested="a record",
            not_object="JSON record: expected an object", fields=("headers", "variant", "deal", "position", "moves"),
            unknown_field="JSON record: unknown field {field}; "
                          "the fields are headers, variant, deal, position and moves")
        options = data.get("variant", {})
        if not isinstance(options, dict):
            raise RecordError("JSON record, field 'variant': expected an object of variant options")
        try:
            variant = Variant.from_options(options)
        except VariantError as error:
            raise RecordError(f"JSON record, field 'variant': {error}") from None
        for name in ("deal", "position"):
            if name in data and not isinstance(data[name], str):
                raise RecordError(f"JSON record, field {name!r}: expected a string, not {_json_type(data[name])}")
        if "deal" not in data and "position" not in data:
            raise RecordError("JSON record: no 'deal' or 'position' field")
        start = _start(data.get("deal"), data.get("position"), "the fields 'deal' and 'position'", "JSON record")
        raw_moves = data.get("moves", [])
        if not isinstance(raw_moves, list):
            raise RecordError("JSON record, field 'moves': expected a list of move strings")
        moves = []
        for number, token in enumerate(raw_moves, 1):
            if not isinstance(token, str):
                raise RecordError(f"JSON record, move {number}: expected a move string, not {_json_type(token)}")
            try:
                moves.append(Move.parse(token))
            except MoveError as error:
                raise RecordError(f"JSON record, move {number}: {error}") from None
        headers = data.get("headers", {})
        if not isinstance(headers, dict):
            raise RecordError("JSON record, field 'headers': expected an object")
        for name, value in headers.items():
            if not isinstance(value, str):
                raise RecordError(f"JSON record, header {clip(name, 30)}: expected a string, not {_json_type(value)}")
        return cls(variant, start, moves, headers)


def _start(deal: str | None, position: str | None, both: str, where: str) -> Position:
    """The start of a record from its deal string or position string (one of
    them is given; when both are, they must agree)."""
    try:
        if deal is None:
            return Position.parse(position or "")
        start = Position.from_deal(deal)
    except DealError as error:
        raise RecordError(f"{where}: {error}") from None
    if position is not None:
        try:
            other = Position.parse(position)
        except DealError as error:
            raise RecordError(f"{where}: {error}") from None
        if other != start:
            raise RecordError(f"{both} give different starts")
    return start


def _json_type(value: object) -> str:
    """The JSON name of a value's type, for an error message."""
    if value is None:
        return "null"
    return {bool: "true/false", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)
