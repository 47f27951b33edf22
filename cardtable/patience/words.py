"""A patience game's rules in words, read from its description: what
``cardtable games NAME`` prints and what the terminal app's help shows.

>>> from cardtable.patience.registry import get
>>> for line in rules_lines(get("golf"))[1:3]:
...     print(line)
cards: 1 deck of suits cdhs
tableau: 7 piles; build none any-suit; moves one-card; a space takes none
"""

from __future__ import annotations

from cardtable.patience.description import Description, Direction, StockTo

__all__ = ["rules_lines"]


def rules_lines(d: Description) -> list[str]:
    """The rules of ``d``, one part a line: the title and summary, the cards,
    the tableau, the foundations, the cells and reserve, the hole, the stock,
    the redeals, how the game is won and its options."""
    t, f, s = d.tableau, d.foundations, d.stock
    suits = "".join(suit.letter for suit in d.cards.suits)
    build = ("the same rank or suit" if t.build.direction is Direction.MATCH else
             f"{t.build.direction.value} {t.build.suit.value}{' wrapping' if t.build.wrap else ''}")
    reach = f"; onto the pile {' or '.join(map(str, sorted(t.reach)))} to the left" if t.reach else ""
    lines = [f"{d.title} ({d.name}, family {d.family}): {d.summary}",
             f"cards: {d.cards.decks} deck{'s' if d.cards.decks > 1 else ''} of suits {suits}",
             f"tableau: {t.count} piles; build {build}; moves {t.moves.value}{reach}; a space takes {t.empty.value}"]
    if f.count:
        base = "the first card's rank" if f.base is None else f"rank {f.base}"
        lines.append(f"foundations: {f.count}, from {base}, {f.build.direction.value} {f.build.suit.value}"
                     f"{'; cards may come back' if f.may_return else ''}"
                     f"{'; complete runs only' if f.complete_runs else ''}")
    for label, count in (("free cells", d.cells.count), ("reserve piles", d.reserve.count)):
        if count:
            lines.append(f"{label}: {count}")
    if d.hole.count and d.hole_pairs is not None:
        lines.append(f"hole: takes free cards in pairs whose ranks add up to {d.hole_pairs} "
                     f"(a card of rank {d.hole_pairs} alone)")
    elif d.hole.count:
        b = d.hole_build
        lines.append(f"hole: ranks {b.direction.value}{' wrapping' if b.wrap else ''}"
                     f"{'; nothing on rank ' + str(b.closed) if b.closed else ''}")
    if s.count:
        passes = "no limit" if s.passes is None else str(s.passes)
        lines.append(f"stock: deals {s.draw if s.to is not StockTo.TABLEAU else 1} to the {s.to.value}; "
                     f"passes: {passes}{'; not while a pile is empty' if s.needs_no_empty_pile else ''}")
    if d.redeals.count:
        lines.append(f"redeals: {d.redeals.count} (D gathers the tableau, shuffles it and deals "
                     f"{d.redeals.per_pile} to a pile)")
    lines.append(f"won when: {d.win.value}")
    for option in d.options:
        lines.append(f"option {option.name}: {option.summary}")
    return lines
