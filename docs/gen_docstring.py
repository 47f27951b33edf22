"""MkDocs hook: a module's docstring, read from the package, as Markdown.

A page line ``<!-- docstring: cardtable.envs.klondike -->`` is replaced by
that module's docstring at build time (``<!-- docstring: MODULE ### -->``
sets its section titles' level), so a page such as an environment's
specification is the docstring the tests run (its examples are doctests) and
cannot drift from it. The docstrings are written in the package's reST-like
style; this turns its few forms into Markdown: underlined section titles,
``::`` literal blocks, ``>>>`` examples, double backquotes and
``:role:`target``` references.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from typing import Any

from griffe import Extension, Object

_MARKER = re.compile(r"^<!-- docstring: ([\w.]+)(?: (#{1,6}))? -->$", re.MULTILINE)
_ROLE = re.compile(r":(?:class|func|meth|data|attr|mod|exc|obj):`(~?)([^`]+)`")
_TITLE_RULE = re.compile(r"^(-{3,}|={3,})$")


def _role(match: re.Match[str]) -> str:
    short, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


#: A star between two words or numbers is arithmetic (``2**64``), not emphasis.
_ARITHMETIC_STAR = re.compile(r"(?<=[\w)])\*+(?=[\w(])")


def _inline(line: str) -> str:
    parts = _ROLE.sub(_role, line.replace("``", "`")).split("`")
    # Even parts are outside code spans.
    return "`".join(
        _ARITHMETIC_STAR.sub(lambda m: m.group(0).replace("*", "\\*"), part) if i % 2 == 0 else part
        for i, part in enumerate(parts))


def docstring_markdown(module_name: str, heading: str = "##") -> str:
    """The docstring of ``module_name`` as Markdown, its section titles at ``heading``."""
    return rest_to_markdown(module_docstring(module_name), heading)


def module_docstring(module_name: str) -> str:
    """The docstring of ``module_name``, read from its source without
    importing it: a page may describe a module whose extra dependencies
    (the environments' Gymnasium) the ``docs`` extra does not install."""
    top, *rest = module_name.split(".")
    spec = importlib.util.find_spec(top)  # a top-level package: found, not imported
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"no package {top!r} for the page's docstring of {module_name}")
    base = Path(next(iter(spec.submodule_search_locations)), *rest)
    source = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
    return ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or ""


def rest_to_markdown(doc: str, heading: str | None = "##") -> str:
    """The package's docstring style in Markdown; section titles become
    ``heading`` lines, or bold lines when ``heading`` is None."""
    lines = doc.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if i + 1 < len(lines) and line.strip() and _TITLE_RULE.match(lines[i + 1].strip()):
            title = f"{heading} {line.strip()}" if heading else f"**{line.strip()}**"
            out.extend([title, ""])
            i += 2
            continue
        if line.lstrip().startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            out.extend(["```pycon", *block, "```"])
            continue
        if line.rstrip().endswith("::"):
            text = line.rstrip()[:-2].rstrip()
            if text:
                out.append(_inline(text) + ":")
            i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            while block and not block[0].strip():
                block.pop(0)
            indent = min(len(b) - len(b.lstrip()) for b in block if b.strip())
            language = "python" if any(b.strip().startswith(("import ", "from ")) for b in block) else "text"
            out.extend(["", f"```{language}", *(b[indent:] for b in block), "```", ""])
            continue
        out.append(_inline(line))
        i += 1
    return "\n".join(out)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Put each asked-for docstring in its place."""
    return _MARKER.sub(lambda match: docstring_markdown(match.group(1), match.group(2) or "##"), markdown)


class RestDocstrings(Extension):
    """Griffe extension for mkdocstrings: every docstring of the API pages is
    turned into Markdown the same way, so its examples show as code and its
    references as names."""

    def on_instance(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = rest_to_markdown(obj.docstring.value, heading=None)
