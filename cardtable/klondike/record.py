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
mid-way, a ``Position`` header (a position string). Move numbers are optional
when reading; ``{...}`` is a comment. Other headers (``Seed``, ``Player``,
``Date`` ...) are kept as they are.

The JSON form is an object with ``headers``, ``variant`` (the options),
``deal`` or ``position``, and ``moves`` (a list of move strings).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from cardtable.errors import RecordError, ReplayError
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
_HEADER_RE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER_RE = re.compile(r"\d+\.+")


@dataclass
class KlondikeRecord:
    """A whole game: variant, start position, moves and free headers."""

    variant: Variant
    start: Position
    moves: list[Move] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)

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
        v = self.variant
        items = [("Game", "Klondike"), ("Variant", v.name), ("Draw", str(v.draw)),
                 ("Passes", "unlimited" if v.passes is None else str(v.passes)),
                 ("Empty", v.empty), ("FoundationReturn", "yes" if v.foundation_return else "no"),
                 ("Scoring", v.scoring.kind)]
        if self.start.is_deal:
            items.append(("Deal", self.start.deal_string()))
        else:
            items.append(("Position", str(self.start)))
        reserved = {k for k, _ in items} | {"Deal", "Position"}
        items += [(k, val) for k, val in self.headers.items() if k not in reserved]
        return items

    def __str__(self) -> str:
        head = "\n".join(f'[{k} "{_escape(v)}"]' for k, v in self._header_items())
        body: list[str] = []
        line = ""
        for number, move in enumerate(self.moves, 1):
            token = f"{number}. {move}"
            if len(line) + len(token) + 1 > 78:
                body.append(line)
                line = token
            else:
                line = f"{line} {token}" if line else token
        if line:
            body.append(line)
        return head + "\n\n" + "\n".join(body) + "\n"

    @classmethod
    def parse(cls, text: str) -> KlondikeRecord:
        """Read a record in its text or JSON form."""
        if text.lstrip().startswith("{"):
            return cls.from_json(text)
        headers: dict[str, str] = {}
        moves: list[Move] = []
        in_comment = False
        comment_line = 0
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("[") and not in_comment:
                m = _HEADER_RE.fullmatch(line)
                if m is None:
                    raise RecordError(f'line {number}: a header must read [Name "value"], not {_clip(line)!r}')
                headers[m.group(1)] = _unescape(m.group(2))
                continue
            for token in line.split():
                if in_comment:
                    if token.endswith("}"):
                        in_comment = False
                    continue
                if token.startswith("{"):
                    in_comment = not token.endswith("}")
                    comment_line = number
                    continue
                if _NUMBER_RE.fullmatch(token) or token == "*":
                    continue
                token = _NUMBER_RE.sub("", token, count=1) if _NUMBER_RE.match(token) else token
                try:
                    moves.append(Move.parse(token))
                except MoveError as error:
                    raise RecordError(f"line {number}: {error}") from None
        if in_comment:
            raise RecordError(f"line {comment_line}: a {{ comment is never closed with }}")
        return cls._from_parts(headers, moves)

    @classmethod
    def _from_parts(cls, headers: dict[str, str], moves: list[Move]) -> KlondikeRecord:
        options: dict[str, object] = {field_: headers[h] for h, field_ in _VARIANT_HEADERS.items() if h in headers}
        try:
            variant = Variant.from_options(options)
        except VariantError as error:
            raise RecordError(f"variant headers: {error}") from None
        try:
            if "Deal" in headers:
                start = Position.from_deal(headers["Deal"])
                if "Position" in headers and Position.parse(headers["Position"]) != start:
                    raise RecordError("the Deal and Position headers give different starts")
            elif "Position" in headers:
                start = Position.parse(headers["Position"])
            else:
                raise RecordError("the record has no Deal or Position header")
        except DealError as error:
            raise RecordError(f"start: {error}") from None
        extra = {k: v for k, v in headers.items()
                 if k not in _VARIANT_HEADERS and k not in ("Game", "Deal", "Position")}
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
        try:
            data = json.loads(text)
        except RecursionError:
            raise RecordError("JSON record: nested too deeply to be a record") from None
        except json.JSONDecodeError as error:
            raise RecordError(f"JSON record, line {error.lineno}: {error.msg}") from None
        if not isinstance(data, dict):
            raise RecordError("JSON record: expected an object")
        try:
            variant = Variant.from_options(data.get("variant", {}))
        except (VariantError, AttributeError, TypeError) as error:
            raise RecordError(f"JSON record, field 'variant': {error}") from None
        try:
            if "deal" in data:
                start = Position.from_deal(str(data["deal"]))
            elif "position" in data:
                start = Position.parse(str(data["position"]))
            else:
                raise RecordError("JSON record: no 'deal' or 'position' field")
        except DealError as error:
            raise RecordError(f"JSON record, start: {error}") from None
        raw_moves = data.get("moves", [])
        if not isinstance(raw_moves, list):
            raise RecordError("JSON record, field 'moves': expected a list of move strings")
        moves = []
        for number, token in enumerate(raw_moves, 1):
            try:
                moves.append(Move.parse(str(token)))
            except MoveError as error:
                raise RecordError(f"JSON record, move {number}: {error}") from None
        headers = data.get("headers", {})
        if not isinstance(headers, dict):
            raise RecordError("JSON record, field 'headers': expected an object")
        return cls(variant, start, moves, {str(k): str(v) for k, v in headers.items()})


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)



def _clip(text: str, width: int = 60) -> str:
    """``text`` cut to ``width`` characters for an error message."""
    return text if len(text) <= width else text[:width - 1] + "…"
