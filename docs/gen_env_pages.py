"""Write a page for every family of patience games in ``cardtable/Patience-v0``, from the descriptions.

For each family of the shipped games it writes ``docs/envs/patience-FAMILY.md``
in the shape of Gymnasium's own environment pages (the summary table, then
description, action space, observation space, rewards, episode end,
arguments and version history), with every figure (the action count, the
action groups, the observation's fields) read from the environment that the
game's description builds. It rewrites the list of families in
``docs/envs/index.md`` and the pages' entries in ``mkdocs.yml``'s nav, each
between its markers. Run it after changing a description or the environment::

    python docs/gen_env_pages.py            # write the pages
    python docs/gen_env_pages.py --check    # list the pages that are stale; exit 1 if any

``tests/envs/test_patience_env_pages.py`` fails while a page says something
the environment does not.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtable.envs.patience import FACE_DOWN, ActionTable, ObservationLayout  # noqa: E402
from cardtable.patience import Description, Kind, get, names  # noqa: E402

DOCS = ROOT / "docs"
PAGES = DOCS / "envs"
INDEX = PAGES / "index.md"
MKDOCS = ROOT / "mkdocs.yml"
PREFIX = "patience-"

LIST_START = "<!-- patience-envs: written by docs/gen_env_pages.py -->"
LIST_END = "<!-- /patience-envs -->"
NAV_START = "      # envs-nav: written by docs/gen_env_pages.py"
NAV_END = "      # /envs-nav"

_KIND_WORDS = {Kind.TABLEAU: "tableau pile", Kind.FOUNDATION: "foundations", Kind.CELL: "free cell",
               Kind.RESERVE: "reserve", Kind.STOCK: "stock", Kind.WASTE: "waste", Kind.HOLE: "hole"}

_FIELDS = {
    "tableau": "each tableau pile bottom to top, {slots} slots a pile",
    "cells": "the card in each free cell",
    "reserve": "each reserve pile bottom to top, {slots} slots a pile",
    "waste": "the waste, top card first, {slots} slots",
    "foundations": "each foundation's top card and its card count",
    "hole": "the hole's top card and its card count",
    "stock": "the cards in the stock (a count)",
    "pass_number": "which pass through the stock this is (1 for the first)",
    "passes_left": "passes still to come after this one (-1: no limit)",
    "redeals_left": "redeals of the tableau still allowed",
    "moves": "moves played (capped at 32,767)",
}


def families() -> dict[str, list[str]]:
    """The shipped games by family, each family's games in name order."""
    out: dict[str, list[str]] = {}
    for name in names():
        out.setdefault(get(name).family, []).append(name)
    return dict(sorted(out.items()))


def family_title(family: str) -> str:
    """A family's name as a title: its namesake game's title, else the words."""
    return get(family).title if family in names() else family.replace("-", " ").title()


def _group(table: ActionTable) -> list[tuple[str, int, str]]:
    """The action groups of a table: what moves, how many actions, the first and last notation."""
    groups: Counter[str] = Counter()
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    for index in range(table.size):
        text = table.notation(index)
        key = _group_name(table.description, text, index, table)
        groups[key] += 1
        first.setdefault(key, text)
        last[key] = text
    return [(key, count, first[key] if count == 1 else f"{first[key]} .. {last[key]}")
            for key, count in groups.items()]


def _group_name(description: Description, text: str, index: int, table: ActionTable) -> str:
    source, target, count, pair = table.action(index)
    if target is None:
        return "the deal (stock)" if description.stock.count else "a redeal of the tableau"
    if target.kind is Kind.STOCK:
        return "the waste turned over (recycle)"
    if pair is not None:
        return "a pair of free cards to the hole"
    if source.kind is Kind.TABLEAU and target.kind is Kind.TABLEAU:
        return "a whole tableau pile onto another" if count == 0 else "cards from a tableau pile onto another"
    return f"{_KIND_WORDS[source.kind]} to {_KIND_WORDS[target.kind]}"


def page(family: str) -> str:
    """The Markdown page of one family."""
    games = families()[family]
    title = family_title(family)
    rows = []
    for name in games:
        d = get(name)
        table = ActionTable(d)
        layout = ObservationLayout.of(d)
        rows.append(f"| {d.title} | `game=\"{name}\"` | `Discrete({table.size})` | `Box(int16, ({layout.size},))` |")
    lines = [
        f"# Patience-v0: the {title} family",
        "",
        "<!-- written by docs/gen_env_pages.py from the games' descriptions: do not edit -->",
        "",
        "| | |",
        "|---|---|",
        "| id | `cardtable/Patience-v0` (Gymnasium; `import cardtable.envs` registers it) |",
        "| class | `cardtable.envs.patience.PatienceEnv` |",
        "| action space | `Discrete(N)` built from the game's description, with an action mask |",
        "| observation space | `Box(int16)` built from the description: the player's view only |",
        "| rewards | `foundation` (default, with a win bonus) or `win` |",
        "| players | 1 |",
        "",
        "| game | argument | action space | observation space |",
        "|---|---|---|---|",
        *rows,
        "",
        "## Description",
        "",
    ]
    for name in games:
        d = get(name)
        lines += [f"**{d.title}** (`{name}`): {d.summary} The rules in full: [{d.title}](../games/{name}.md).", ""]
    lines += [
        "```python",
        "import gymnasium as gym",
        "import cardtable.envs  # registers cardtable/Patience-v0",
        "",
        f"env = gym.make(\"cardtable/Patience-v0\", game=\"{games[0]}\", render_mode=\"ansi\")",
        "observation, info = env.reset(seed=7)",
        "action = int(env.np_random.choice(info[\"action_mask\"].nonzero()[0]))",
        "observation, reward, terminated, truncated, info = env.step(action)",
        "```",
        "",
        "## Action space",
        "",
        "Every move the description allows has one fixed index: by source pile (tableau piles left to right, "
        "free cells, reserve, waste, foundations where cards come back), each source's move to the foundations "
        "(`F`, the first that takes the card), to the hole, onto each tableau pile (by count, as the game's move "
        "unit allows; `:*` moves the whole pile) and into each free cell; then pairs to the hole, the deal `D` and "
        "the recycle `R`. `info[\"action_mask\"]` (`np.int8`) marks exactly the engine's legal moves; "
        "`env.unwrapped.actions.notation(i)` names action `i` in move notation.",
        "",
    ]
    for name in games:
        table = ActionTable(get(name))
        lines += [f"**{get(name).title}**: `Discrete({table.size})`", "",
                  "| moves | actions | notation |", "|---|---|---|"]
        lines += [f"| {key} | {count} | `{span}` |" for key, count, span in _group(table)]
        lines.append("")
    lines += [
        "## Observation space",
        "",
        f"Only what the player sees: a face-up card is coded `1 + card.index` (clubs A..K = 1..13, diamonds "
        f"14..26, hearts 27..39, spades 40..52, both decks' copies alike), a face-down card `{FACE_DOWN}` wherever "
        "it lies (never its identity), no card 0; the stock is a count. `env.unwrapped.layout.fields` names "
        "each field's offset and size.",
        "",
    ]
    for name in games:
        layout = ObservationLayout.of(get(name))
        slots = {"tableau": layout.tableau_slots, "reserve": layout.reserve_slots, "waste": layout.waste_slots}
        lines += [f"**{get(name).title}**: `Box(int16, ({layout.size},))`", "",
                  "| field | offset | size | what |", "|---|---|---|---|"]
        lines += [f"| `{field}` | {offset} | {size} | {_FIELDS[field].format(slots=slots.get(field, 0))} |"
                  for field, (offset, size) in layout.fields.items()]
        lines.append("")
    lines += [
        "## Rewards",
        "",
        "- `reward=\"foundation\"` (the default): the change in the game's returns each step, +1 for each card "
        "that reaches a foundation or the hole and -1 for each that comes back (in a game won with one pile, +1 "
        "for each pile gathered onto another), plus `win_bonus` (default 10) on the step that wins;",
        "- `reward=\"win\"`: 1 on the step that wins, otherwise 0.",
        "",
        "## Episode end",
        "",
        "- **Terminated**: the game is won, or no legal move is left (`info[\"outcome\"]`: `won`, "
        "`no legal move`).",
        "- **Truncated**: `max_steps` steps were taken (`max steps`), or `stall_limit` steps went by without "
        "progress: no new best returns, no card turned up or dealt (`stalled`).",
        "",
        "At the end `info[\"returns\"]` holds the game's returns (cards home).",
        "",
        "## Arguments",
        "",
        "| argument | default | what |",
        "|---|---|---|",
        "| `game` | `\"klondike\"` | a game's name (options after colons, `\"golf:wrap\"`), a description file, or a "
        "`Description` |",
        "| `reward` | `\"foundation\"` | `\"foundation\"` or `\"win\"` |",
        "| `win_bonus` | `10.0` | what `\"foundation\"` adds on the winning step |",
        "| `max_steps` | `1000` | steps before the episode is truncated |",
        "| `stall_limit` | `200` | steps without progress before it is truncated (`None`: never) |",
        "| `illegal_action` | `\"ignore\"` | `\"ignore\"` (no change, no reward) or `\"raise\"` |",
        "| `render_mode` | `None` | `\"ansi\"`: `render()` returns the table as text |",
        "",
        "`reset(seed=N)` deals reproducibly; `reset(options={\"deal_seed\": N})` deals the game's deal `N` "
        "(`\"ms:N\"`, `\"pysol:N\"` where the game has them); `reset(options={\"deal\": TEXT})` starts from a "
        "position string.",
        "",
        "## Version history",
        "",
        "- **v0**: the first version.",
        "",
    ]
    return "\n".join(lines)


def _between(text: str, start: str, end: str, body: str, where: Path) -> str:
    head, found, rest = text.partition(start)
    _, found_end, tail = rest.partition(end)
    if not found or not found_end:
        raise SystemExit(f"{where}: the markers {start!r} and {end!r} are missing")
    return f"{head}{start}\n{body}{end}{tail}"


def index_list() -> str:
    """The families' pages, for ``docs/envs/index.md``."""
    lines = []
    for family, games in families().items():
        titles = ", ".join(get(name).title for name in games)
        lines.append(f"- [{family_title(family)}]({PREFIX}{family}.md): {titles}")
    return "\n".join(lines) + "\n"


def nav() -> str:
    """The pages' entries in ``mkdocs.yml``'s nav."""
    return "".join(f'      - "Patience-v0: {family_title(family)}": envs/{PREFIX}{family}.md\n'
                   for family in families())


def pages() -> dict[Path, str]:
    """Every file the script writes, with its text."""
    out = {PAGES / f"{PREFIX}{family}.md": page(family) for family in families()}
    out[INDEX] = _between(INDEX.read_text(encoding="utf-8"), LIST_START, LIST_END, index_list(), INDEX)
    out[MKDOCS] = _between(MKDOCS.read_text(encoding="utf-8"), NAV_START, NAV_END, nav(), MKDOCS)
    return out


def stale() -> list[Path]:
    """The files whose text is not what the script writes, and pages of families that are gone."""
    wanted = pages()
    late = [path for path, text in wanted.items()
            if not path.exists() or path.read_text(encoding="utf-8") != text]
    late += sorted(path for path in PAGES.glob(f"{PREFIX}*.md") if path not in wanted)
    return late


def main(argv: list[str]) -> int:
    if argv[1:] == ["--check"]:
        late = stale()
        for path in late:
            print(path.relative_to(ROOT))
        return 1 if late else 0
    if argv[1:]:
        print("usage: python docs/gen_env_pages.py [--check]", file=sys.stderr)
        return 2
    for path in PAGES.glob(f"{PREFIX}*.md"):
        path.unlink()
    for path, text in pages().items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
