"""Small text helpers shared by every notation reader and both games' records.

- :func:`plural` says a count with its noun ("1 move", "2 moves").
- :func:`clip` quotes a piece of user input for an error message, cut short
  so that a message stays one readable line whatever was read.
- :func:`check_tag_name`, :func:`tag_problem`, :func:`escape_tag` and :func:`unescape_tag` keep
  the ``[Name "value"]`` header lines of both games' records the same: a name
  is a letter then up to 39 letters, digits or ``_``; a value may hold any text, and
  is escaped so that it stays on its one line and reads back exactly.

>>> escape_tag('say "hi"\\nthen go')
'say \\\\"hi\\\\"\\\\nthen go'
>>> unescape_tag(escape_tag('a]b\\\\c\\u2028')) == 'a]b\\\\c\\u2028'
True
>>> clip("x" * 100, 10)
"'xxxxxxxx…"
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

__all__ = ["TAG_NAME", "check_tag_name", "clip", "escape_tag", "plural", "read_record_text", "record_text",
           "tag_problem", "unescape_tag"]

#: What a header name may be: a letter, then up to 39 letters, digits or ``_``.
TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}", re.ASCII)

_SIMPLE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNSIMPLE = {"\\": "\\", '"': '"', "n": "\n", "r": "\r", "t": "\t"}
#: Escaped: the backslash, the quote, and every control character and every
#: character :meth:`str.splitlines` breaks a line at (as ``\\uXXXX`` when not
#: ``\\n``, ``\\r`` or ``\\t``).
_ESCAPE = re.compile(r'[\\"\x00-\x1f\x7f-\x9f\u2028\u2029]')
_UNESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|.)", re.DOTALL)


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` (with thousands separators) and ``noun``, in its plural ``many``
    (default: ``noun`` + "s") unless the count is one.

    >>> plural(1, "move"), plural(2, "card"), plural(0, "point"), plural(1_000, "guess", "guesses")
    ('1 move', '2 cards', '0 points', '1,000 guesses')
    """
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"


def clip(text: object, width: int = 60) -> str:
    """``repr(text)``, cut to about ``width`` characters for an error message."""
    quoted = repr(text)
    return quoted if len(quoted) <= width else quoted[:width - 1] + "…"


def check_tag_name(name: object) -> str | None:
    """Why ``name`` cannot be a header name, or None when it can."""
    if not isinstance(name, str) or TAG_NAME.fullmatch(name) is None:
        return (f"header name {clip(str(name), 40)} cannot be written as a tag: "
                "use a letter, then up to 39 letters, digits or _")
    return None


def tag_problem(name: object, value: object, reserved: tuple[str, ...]) -> str | None:
    """Why ``[name "value"]`` cannot be a free header of a record whose own
    headers are ``reserved``, or None when it can: the name must be a tag
    name and not reserved, the value text that a file can hold."""
    reason = check_tag_name(name)
    if reason is not None:
        return reason
    if name in reserved:
        return f"header {name} is written by the record itself; give the value another name"
    if not isinstance(value, str):
        return f"header {name}: the value must be text, not {type(value).__name__}"
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        return f"header {name}: the value holds a lone surrogate, which no file can hold"
    return None


def escape_tag(value: str) -> str:
    """``value`` written inside the quotes of a ``[Name "value"]`` line."""
    return _ESCAPE.sub(lambda m: _SIMPLE.get(m.group(), f"\\u{ord(m.group()):04x}"), value)


def record_text(headers: Iterable[tuple[str, str]], moves: Iterable[object], width: int = 78) -> str:
    """A game record as text: one ``[Name "value"]`` line a header, a blank
    line, then the numbered moves wrapped at ``width`` characters.

    >>> print(record_text([("Game", "Klondike")], ["D", "1>F"]), end="")
    [Game "Klondike"]
    <BLANKLINE>
    1. D 2. 1>F
    """
    head = "\n".join(f'[{name} "{escape_tag(value)}"]' for name, value in headers)
    body: list[str] = []
    line = ""
    for number, move in enumerate(moves, 1):
        token = f"{number}. {move}"
        if len(line) + len(token) + 1 > width:
            body.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        body.append(line)
    return head + "\n\n" + "\n".join(body) + "\n"


_HEADER_RE = re.compile(r'\[\s*(' + TAG_NAME.pattern + r')\s+"((?:[^"\\]|\\.)*)"\s*\]', re.ASCII)
_NUMBER_RE = re.compile(r"\d+\.+", re.ASCII)
M = TypeVar("M")


def read_record_text(text: str, parse_move: Callable[[str], M], move_error: type[Exception],
                     error: Callable[[str], Exception],
                     on_header: Callable[[int, str, str], None] | None = None) -> tuple[dict[str, str], list[M]]:
    """Read what :func:`record_text` writes: the headers and the moves, each
    move read by ``parse_move`` (move numbers, ``*`` and ``{ comments }``
    passed over). A fault is raised as ``error(message)``, the message naming
    the line; ``parse_move``'s own ``move_error`` too. ``on_header(line,
    name, value)`` may refuse a header as it is read.

    >>> read_record_text('[Game "Klondike"]\\n\\n1. D {a look} 2. 1>F', str, ValueError, ValueError)
    ({'Game': 'Klondike'}, ['D', '1>F'])
    """
    headers: dict[str, str] = {}
    moves: list[M] = []
    in_comment = False
    comment_line = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("[") and not in_comment:
            m = _HEADER_RE.fullmatch(line)
            if m is None:
                raise error(f'line {number}: a header must read [Name "value"], not {clip(line)}')
            if m.group(1) in headers:
                raise error(f"line {number}: header {m.group(1)} given twice")
            value = unescape_tag(m.group(2))
            if on_header is not None:
                on_header(number, m.group(1), value)
            headers[m.group(1)] = value
            continue
        for token in line.split():
            if in_comment:
                in_comment = not token.endswith("}")
                continue
            if token.startswith("{"):
                in_comment = not token.endswith("}")
                comment_line = number
                continue
            if _NUMBER_RE.fullmatch(token) or token == "*":
                continue
            token = _NUMBER_RE.sub("", token, count=1) if _NUMBER_RE.match(token) else token
            try:
                moves.append(parse_move(token))
            except move_error as exc:
                raise error(f"line {number}: {exc}") from None
    if in_comment:
        raise error(f"line {comment_line}: a {{ comment is never closed with }}")
    return headers, moves


def unescape_tag(value: str) -> str:
    """Read back what :func:`escape_tag` wrote (an unknown escape ``\\x`` is ``x``)."""
    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if len(code) == 5:
            return chr(int(code[1:], 16))
        return _UNSIMPLE.get(code, code)

    return _UNESCAPE.sub(one, value)
