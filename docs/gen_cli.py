"""MkDocs hook: the command-line reference, written from cardtable's own parser.

A page that holds the line ``<!-- cli-reference -->`` gets, in its place, one
section per command (sub-commands nested under their group) with the help that
``cardtable COMMAND --help`` prints: its usage, its description and every
option. The text comes from :func:`cardtable.cli.build_parser` at build time,
so the reference cannot drift from the parsers.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from typing import Any

MARKER = "<!-- cli-reference -->"
#: The width the help is formatted at, whatever terminal builds the site.
_COLUMNS = "100"


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], str]]:
    yield words, parser.format_help()
    for name, sub in _subcommands(parser).items():
        yield from _walk(sub, (*words, name))


def cli_reference() -> str:
    """Markdown for every command: a heading and its ``--help`` text."""
    from cardtable.cli import build_parser

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = _COLUMNS
    try:
        sections = []
        for words, text in _walk(build_parser(), ("cardtable",)):
            level = "#" * min(len(words) + 1, 4)
            sections.append(f"{level} `{' '.join(words)}`\n\n```text\n{text.rstrip()}\n```\n")
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return "\n".join(sections)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Put the reference where a page asks for it."""
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown
