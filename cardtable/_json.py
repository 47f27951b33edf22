"""Reading a JSON document that must be one object, the same way for every reader.

:func:`read_json_object` is what the JSON forms of both games' records and
Solvitaire's deal files share: a leading UTF-8 byte order mark is skipped; a
syntax error, a document nested too deeply and a number too long to read
become one-line errors; a document that is not an object, and a field the
reader does not know, are refused. Each reader keeps its own words.

>>> from cardtable.errors import RecordError
>>> read_json_object('\\ufeff{"moves": []}', error=RecordError, what="JSON record", nested="a record",
...                  not_object="JSON record: expected an object")
{'moves': []}
>>> read_json_object('{"moves": [}', error=RecordError, what="JSON record", nested="a record",
...                  not_object="JSON record: expected an object")
Traceback (most recent call last):
...
cardtable.errors.RecordError: JSON record, line 1: Expecting value
>>> read_json_object('{"mvoes": []}', error=RecordError, what="JSON record", nested="a record",
...                  not_object="JSON record: expected an object", fields=("moves",),
...                  unknown_field="JSON record: unknown field {field}; the only field is moves")
Traceback (most recent call last):
...
cardtable.errors.RecordError: JSON record: unknown field 'mvoes'; the only field is moves
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from cardtable._text import clip
from cardtable.errors import CardtableError

__all__ = ["read_json_object"]


def read_json_object(text: str, *, error: type[CardtableError], what: str, nested: str, not_object: str,
                     fields: Collection[str] | None = None, unknown_field: str = "",
                     syntax: str = "{what}, line {line}: {message}") -> dict[str, Any]:
    """The object a JSON document holds, or ``error`` saying what is wrong.

    ``what`` names the document in the messages: a number too long to read
    gives ``"{what}: <Python's words>"``, a document nested deeper than Python
    reads gives ``"{what}: nested too deeply to be {nested}"``, a syntax error
    gives ``syntax`` filled in with ``what``, ``line``, ``column``, ``message``
    (the parser's words) and ``error`` (they with the position). A document
    that is not an object gives ``not_object``. With ``fields``, the first
    other field (in sorted order) gives ``unknown_field`` filled in with
    ``field``, the name quoted and cut short.
    """
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except RecursionError:
        raise error(f"{what}: nested too deeply to be {nested}") from None
    except json.JSONDecodeError as problem:
        raise error(syntax.format(what=what, line=problem.lineno, column=problem.colno, message=problem.msg,
                                  error=problem)) from None
    except ValueError as problem:  # a number too long to read, say
        raise error(f"{what}: {clip(str(problem), 100)}") from None
    if not isinstance(data, dict):
        raise error(not_object)
    if fields is not None:
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise error(unknown_field.format(field=clip(unknown[0], 30)))
    return data
