"""Write a page for every shipped patience game, from its description.

For each game in ``cardtable/patience/presets/`` it writes ``docs/games/NAME.md``
(the rules in words, its options, its deal numbers, the command lines that deal,
show, play and simulate it, and where the rules come from) and
``docs/games/NAME.svg`` (deal 1 on the table, drawn by
:func:`cardtable.patience.svg.table_svg`); it rewrites the table of games in
``docs/games.md`` and the pages' entries in ``mkdocs.yml``'s nav, each between
its markers. Run it after changing a description::

    python docs/gen_games.py            # write the pages
    python docs/gen_games.py --check    # list the pages that are stale; exit 1 if any

``tests/test_game_pages.py`` fails while a page says something its description
does not.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = DOCS / "games"
INDEX = DOCS / "games.md"
MKDOCS = ROOT / "mkdocs.yml"

TABLE_START = "<!-- games-table: written by docs/gen_games.py -->"
TABLE_END = "<!-- /games-table -->"
NAV_START = "      # games-nav: written by docs/gen_games.py"
NAV_END = "      # /games-nav"
#: The deal every page draws.
DEAL = 1

_DEALS = {
    "ms": ("ms:N", "Microsoft's numbered FreeCell deals, N from 1, the deals fc-solve and pysol-cards make for "
                   "that number"),
    "pysol": ("pysol:N", "PySolFC's deal number N of this game, as PySolFC and pysol-cards deal it"),
    "pysol-reversed": ("pysol:N", "PySolFC's deal number N of this game, as PySolFC and pysol-cards deal it "
                                  "(PySolFC deals this game from the other end of its shuffled deck)"),
}


def _source(url: str, title: str) -> str:
    if "pagat.com" in url:
        return f"The rules follow pagat.com's page on {title}: <{url}>."
    if "PySolFC" in url:
        return f"The rules follow PySolFC's rules page for {title}: <{url}>."
    return f"The rules follow <{url}>."


def commands(name: str) -> list[tuple[str, str]]:
    """The command lines a game's page shows, each with what it does."""
    return [
        (f"cardtable games {name}", "the rules, one part a line"),
        (f"cardtable deal --game {name} --seed {DEAL}", f"deal {DEAL}, as text"),
        (f"cardtable deal --game {name} --seed {DEAL} | cardtable show --game {name} -",
         f"deal {DEAL}, drawn in the terminal"),
        (f"cardtable serve --game {name}", "play it at the table in the browser"),
        (f"cardtable games {name} --deal {DEAL} --play greedy", f"the greedy player plays deal {DEAL}"),
        (f"cardtable simulate --game {name} --games 1000 --strategy greedy", "1,000 deals, won and lost"),
        (f"cardtable games {name} --json > my-{name}.json",
         f"its description, to change and play with --game my-{name}.json"),
    ]


def page(name: str) -> str:
    """The Markdown page of the game ``name``."""
    from cardtable.patience.registry import get
    from cardtable.patience.words import rules_sections

    d = get(name)
    lines = [f"# {d.title}", "",
             f"<!-- Written by docs/gen_games.py from cardtable/patience/presets/{name}.json; "
             "change the description, then run the script. -->", "",
             d.summary, "",
             f"`--game {name}` · family {d.family} · "
             f"{'one deck' if d.cards.decks == 1 else f'{d.cards.decks} decks'} · "
             f"{d.cards.total} cards", "",
             f"![{d.title}: deal {DEAL} on the table, each pile under its name in move notation]({name}.svg)", "",
             f"*Deal {DEAL} as the table lays it out, each pile under its name in move notation "
             "(the names the moves use, e.g. `3>F`, `W>2`).*", "",
             "## Rules", ""]
    for heading, text in rules_sections(d):
        lines += [f"**{heading}.** {text}", ""]
    lines += ["## Options", ""]
    if d.options:
        lines += ["| option | what it changes | play it with |", "|---|---|---|"]
        lines += [f"| `{o.name}` | {o.summary} | `--game {name}:{o.name}` |" for o in d.options]
        lines += ["", "Options add up: `--game NAME:one:two` applies both, in that order.", ""]
    else:
        lines += [f"{d.title} has no options; a description file (below) changes any rule.", ""]
    lines += ["## Deal numbers", "",
              "- `N`, a whole number from 0 to 2^64 - 1: cardtable's own shuffle of the game's cards "
              "(the same deal for the same number everywhere)."]
    seen = set()
    for key in d.deals:
        label, text = _DEALS[key]
        if label not in seen:
            seen.add(label)
            lines.append(f"- `{label}`: {text}.")
    lines += ["", "`deal --seed`, `simulate --seed`, `games --deal` and `show` take them all.", "",
              "## Command lines", "", "```sh"]
    for number, (command, what) in enumerate(commands(name)):
        lines += ([""] if number else []) + [f"# {what}", command]
    lines += ["```", "", "## Where the rules come from", ""]
    if d.source:
        lines.append(_source(d.source, d.title))
    else:
        lines.append("The description names no source.")
    lines += ["", "The whole description is `cardtable/patience/presets/"
              f"{name}.json`; [Patience games as descriptions](../games.md) says what each field means.", ""]
    return "\n".join(lines)


def picture(name: str) -> str:
    """The SVG picture of deal 1 of the game ``name``."""
    from cardtable.patience.engine import PatienceGame
    from cardtable.patience.registry import get
    from cardtable.patience.svg import table_svg

    d = get(name)
    return table_svg(PatienceGame.from_seed(d, DEAL).view(), fit=True, title=f"{d.title}: deal {DEAL}")


def _between(text: str, start: str, end: str, body: str, where: Path) -> str:
    if start not in text or end not in text:
        raise SystemExit(f"{where.relative_to(ROOT)}: the markers {start!r} and {end!r} are missing")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}{end}{tail}"


def index_table() -> str:
    """The table of games of ``docs/games.md``: each game's page, name, family and rules in short."""
    from cardtable.patience.registry import get, names

    rows = ["| name | game | family | rules in short | options |", "|---|---|---|---|---|"]
    for name in names():
        d = get(name)
        options = ", ".join(f"`{o.name}`" for o in d.options) or "-"
        rows.append(f"| `{name}` | [{d.title}](games/{name}.md) | {d.family} | {d.summary} | {options} |")
    return "\n".join(rows) + "\n"


def nav() -> str:
    """The nav entries of the games' pages, indented for their place in ``mkdocs.yml``."""
    from cardtable.patience.registry import get, names

    return "".join(f"          - \"{get(name).title}\": games/{name}.md\n" for name in names())


def pages() -> dict[Path, str]:
    """Every file the script writes, with its text."""
    from cardtable.patience.registry import names

    out: dict[Path, str] = {}
    for name in names():
        out[PAGES / f"{name}.md"] = page(name)
        out[PAGES / f"{name}.svg"] = picture(name)
    out[INDEX] = _between(INDEX.read_text(encoding="utf-8"), TABLE_START, TABLE_END, index_table(), INDEX)
    out[MKDOCS] = _between(MKDOCS.read_text(encoding="utf-8"), NAV_START, NAV_END, nav(), MKDOCS)
    return out


def stale() -> list[Path]:
    """The files whose text is not what the script writes, and pages of games that are gone."""
    wanted = pages()
    found = [path for path, text in wanted.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    extra = [path for path in sorted(PAGES.glob("*")) if path not in wanted]
    return found + extra


def main(argv: list[str]) -> int:
    if argv[1:] == ["--check"]:
        late = stale()
        for path in late:
            print(f"{path.relative_to(ROOT)}: stale; run python docs/gen_games.py")
        return 1 if late else 0
    if argv[1:]:
        print("usage: python docs/gen_games.py [--check]", file=sys.stderr)
        return 2
    PAGES.mkdir(exist_ok=True)
    wanted = pages()
    for path in sorted(PAGES.glob("*")):
        if path not in wanted:
            path.unlink()
    for path, text in wanted.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv))
