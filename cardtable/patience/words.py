"""A patience game's rules in words, read from its description: what
``cardtable games NAME`` prints and what the terminal app's help shows.

>>> from cardtable.patience.registry import get
>>> for line in rules_lines(get("golf"))[1:3]:
...     print(line)
cards: 1 deck of suits cdhs
tableau: 7 piles; build none any-suit; moves one-card; a space takes none
"""

from __future__ import annotations

from cardtable.cards import Card
from cardtable.patience.description import (
    Build,
    DealOrder,
    Description,
    Direction,
    Fill,
    Kind,
    MoveUnit,
    StockTo,
    SuitRule,
    Win,
)
from cardtable.patience.moves import Place

__all__ = ["built_words", "place_words", "relation_words", "rules_lines", "rules_sections"]


def place_words(place: Place, *, any_foundation: str = "the foundations") -> str:
    """A pile in words, as the faces' accessible names call it (``pile 3``,
    ``cell a``, ``the stock``); ``any_foundation`` names a move's target "the
    first foundation that takes the card".

    >>> from cardtable.patience.description import Kind
    >>> place_words(Place(Kind.TABLEAU, 2)), place_words(Place(Kind.FOUNDATION, -1), any_foundation="a foundation")
    ('pile 3', 'a foundation')
    """
    kind, number = place.kind, place.index + 1
    return {Kind.TABLEAU: f"pile {number}", Kind.FOUNDATION: any_foundation if place.index < 0 else
            f"foundation {number}", Kind.CELL: f"cell {place}", Kind.RESERVE: f"reserve {number}",
            Kind.STOCK: "the stock", Kind.WASTE: "the waste", Kind.HOLE: "the hole"}[kind]


def rules_lines(d: Description) -> list[str]:
    """The rules of ``d``, one part a line: the title and summary, the cards,
    the tableau, the foundations, the cells and reserve, the hole, the stock,
    the redeals, how the game is won and its options."""
    t, f, s = d.tableau, d.foundations, d.stock
    suits = "".join(suit.letter for suit in d.cards.suits)
    build = ("the same rank or suit" if t.build.direction is Direction.MATCH else
             f"{t.build.direction.value} {t.build.suit.value}{' wrapping' if t.build.wrap else ''}"
             f"{' counting from the base' if t.build.from_base else ''}")
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


# ----- the rules as sentences: each game's page in the docs, a face's help --------------

_RANK_WORDS = ("", "Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
               "Queen", "King")
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve", "thirteen")
_SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
_KIND_WORDS = {Kind.TABLEAU: "tableau piles", Kind.FOUNDATION: "foundations", Kind.CELL: "free cells",
               Kind.RESERVE: "reserve piles", Kind.STOCK: "stock", Kind.WASTE: "waste", Kind.HOLE: "hole"}


def _count(number: int, thing: str, things: str | None = None) -> str:
    word = _NUMBER_WORDS[number] if number < len(_NUMBER_WORDS) else str(number)
    return f"{word} {thing if number == 1 else (things or thing + 's')}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _numbers(values: tuple[int, ...]) -> str:
    """``7, 7, 7, 7, 6, 6, 6, 6``, or ``1 to 7`` for a run one up from 1."""
    if len(values) > 2 and values == tuple(range(values[0], values[0] + len(values))):
        return f"{values[0]} to {values[-1]}"
    return ", ".join(map(str, values))


def relation_words(build: Build) -> str:
    """How a card must relate to the card it goes on under ``build``:
    ``one rank lower and of the other colour``; ``nothing`` when nothing
    goes (whether King and Ace are one apart is :func:`built_words`' to say)."""
    if build.direction is Direction.NONE:
        return "nothing"
    if build.direction is Direction.MATCH:
        return "of the same rank or of the same suit"
    rank = {Direction.DOWN: "one rank lower", Direction.UP: "one rank higher",
            Direction.EITHER: "one rank higher or lower"}[build.direction]
    suit = {SuitRule.ALTERNATE: "and of the other colour", SuitRule.SAME: "and of the same suit",
            SuitRule.ANY: "whatever its suit", SuitRule.ANY_BUT_SAME: "and of another suit"}[build.suit]
    text = f"{rank} {suit}" if build.suit is not SuitRule.ANY else f"{rank}, {suit}"
    if build.closed:
        text += f"; nothing goes on a {_RANK_WORDS[build.closed]}"
    if build.from_base:
        text += ", ranks counted from the foundations' base (the base rank lowest)"
    return text


def built_words(build: Build) -> str:
    """A build rule in the words of patience books: ``built down in
    alternate colours``, ``built up in suit``."""
    if build.direction is Direction.NONE:
        return "not built on"
    if build.direction is Direction.MATCH:
        return "built by rank or suit"
    way = {Direction.DOWN: "down", Direction.UP: "up", Direction.EITHER: "up or down"}[build.direction]
    suit = {SuitRule.ALTERNATE: "in alternate colours", SuitRule.SAME: "in suit",
            SuitRule.ANY: "regardless of suit", SuitRule.ANY_BUT_SAME: "in any other suit"}[build.suit]
    return (f"built {way} {suit}" + (", King and Ace one rank apart" if build.wrap else "")
            + (", ranks counted from the foundations' base" if build.from_base else ""))


def _pile_names(d: Description, kind: Kind) -> str:
    count = d.count(kind)
    first, last = Place(kind, 0), Place(kind, count - 1)
    return f"`{first}`" if count == 1 else f"`{first}` to `{last}`"


def _cards(d: Description) -> str:
    cards = d.cards
    decks = "One deck" if cards.decks == 1 else _count(cards.decks, "deck").capitalize()
    if len(cards.suits) == 4:
        return f"{decks} of 52 cards." if cards.decks == 1 else f"{decks} of 52 cards: {cards.total} cards."
    suits = _and([_SUIT_WORDS[suit.letter] for suit in cards.suits])
    return (f"{cards.total} cards, {decks.lower()}' worth in {suits} only: "
            f"{_count(cards.copies, 'copy', 'copies')} of each card.")


def _ranges(kind: Kind, indices: list[int]) -> str:
    """Piles by their names: ```1` to `4```, or ```F1```, or ```1`, `3` and `5```."""
    runs: list[list[int]] = []
    for index in indices:
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    parts = [f"`{Place(kind, run[0])}`" if len(run) == 1 else
             (f"`{Place(kind, run[0])}` and `{Place(kind, run[-1])}`" if len(run) == 2 else
              f"`{Place(kind, run[0])}` to `{Place(kind, run[-1])}`") for run in runs]
    word = "pile" if kind is Kind.TABLEAU else ""
    names = _and(parts)
    if not word:
        return names
    return f"{word}{'s' if len(indices) > 1 else ''} {names}"


def _piles(d: Description) -> str:
    parts = []
    for kind in Kind:
        count = d.count(kind)
        if not count:
            continue
        if kind in (Kind.STOCK, Kind.WASTE, Kind.HOLE):
            parts.append(f"a {_KIND_WORDS[kind]} ({_pile_names(d, kind)})")
        else:
            parts.append(f"{_count(count, _KIND_WORDS[kind][:-1], _KIND_WORDS[kind])} ({_pile_names(d, kind)})")
    text = f"The table has {_and(parts)}."
    if d.cells.count:
        text += " A free cell holds one card, any card."
    covers = d.tableau.covers
    if covers and any(covers):
        covered = sum(1 for over in covers if over)
        text += (f" The tableau piles overlap: {_count(covered, 'pile')} lie under others (pile 1 under "
                 f"{_and([f'`{j + 1}`' for j in covers[0]]) if covers[0] else 'none'}, and so on); a covered "
                 "card neither moves nor takes a card, and a face-down one turns up when every pile over it "
                 "is empty.")
    return text


def _deal(d: Description) -> str:
    sentences = []
    fixed: list[tuple[Card, str]] = []  # the cards taken out first, one after another
    for step in d.deal:
        kind = step.to
        count = d.count(kind)
        if step.card is not None:
            fixed.append((step.card, "the hole" if kind is Kind.HOLE else _ranges(kind, [step.cards.index(1)])))
            continue
        given = [index for index in range(count) if step.cards[index]]
        if count == 1:
            where = {Kind.HOLE: "the hole", Kind.WASTE: "the waste"}.get(kind, _ranges(kind, [0]))
            amount = f"{_count(step.cards[0], 'card')} to {where}"
        elif len({step.cards[index] for index in given}) == 1:
            if len(given) == count:
                places = f"each of the {count} {_KIND_WORDS[kind]}"
            else:
                places = ("each of " if len(given) > 1 else "") + _ranges(kind, given)
            amount = f"{_count(step.cards[given[0]], 'card')} to {places}"
        else:
            amount = f"{_numbers(step.cards)} cards to the {count} {_KIND_WORDS[kind]}, left to right"
        downs = [step.face_down[index] for index in given]
        if not any(downs):
            faces = "face up"
        elif all(step.face_down[i] == step.cards[i] for i in given):
            faces = "face down"
        elif all(step.face_down[i] == step.cards[i] - 1 for i in given):
            faces = "the top card face up, the others face down" if len(given) > 1 or count == 1 else "face down"
        elif len({step.face_down[i] for i in given}) > 3:
            faces = f"of which {_numbers(tuple(step.face_down[i] for i in given))} face down, the others face up"
        else:
            groups: dict[int, list[int]] = {}
            for index in given:
                groups.setdefault(step.face_down[index], []).append(index)
            parts = []
            for down, indices in sorted(groups.items(), key=lambda item: item[1][0]):
                if not down:
                    parts.append(f"face up on {_ranges(kind, indices)}")
                elif all(step.cards[i] == down for i in indices):
                    parts.append(f"face down on {_ranges(kind, indices)}")
                else:
                    parts.append(f"{_count(down, 'card')} face down on {_ranges(kind, indices)}")
            faces = "; ".join(parts) + ("; the other cards face up" if len(parts) == 1 else "")
        if len(given) <= 1 or max(step.cards) == 1:
            order = ""
        elif step.order is DealOrder.ROWS:
            order = "; in rows, a card to each pile in turn" + (", right to left" if step.right_to_left else "")
        else:
            order = "; pile by pile" + (", from the last" if step.right_to_left else "")
        extra = "; the face-down cards are dealt first" if step.face_down_first else ""
        sentence = f"Deal {amount}, {faces}{order}{extra}."
        if step.kings_to_bottom:
            sentence += " Then each pile's Kings go under its other cards."
        sentences.append(sentence)
    if len(fixed) == 1:
        sentences.insert(0, f"The {fixed[0][0].name()} is taken out first and goes to {fixed[0][1]}.")
    elif fixed:
        sentences.insert(0, f"The {_and([card.name() for card, _ in fixed])} are taken out first and go to "
                            f"{_and([where for _, where in fixed])}, in that order.")
    left = d.cards.total - sum(sum(step.cards) for step in d.deal)
    if left:
        sentences.append(f"The other {left} cards, face down, are the stock.")
    else:
        sentences.append("Every card is dealt.")
    return " ".join(sentences)


def _building(d: Description) -> str:
    t = d.tableau
    if t.build.direction is Direction.NONE:
        return "Nothing is built on the tableau: its cards only leave it."
    if t.build.direction is Direction.MATCH:
        return "A pile goes onto another when their top cards are of the same rank or of the same suit."
    return (f"The tableau is {built_words(t.build)}: on a pile's top card goes a card "
            f"{relation_words(t.build)}.")


def _moves(d: Description) -> str:
    t = d.tableau
    same = t.run is None or t.run == t.build
    run = "a run that follows the building rule" if same else f"a run {built_words(t.run or t.build)}"
    text = {
        MoveUnit.ONE: "One card moves at a time: the top card of a pile.",
        MoveUnit.RUN: f"A pile's top cards move together when they form {run}.",
        MoveUnit.FACE_UP: "Any face-up card moves, with every card on it, whatever they are.",
        MoveUnit.SUPERMOVE: (f"The top cards of a pile move together when they form {run} and the free cells "
                             "and empty piles could carry it one card at a time: (free cells + 1) × 2 to the "
                             "power of the empty piles, half that when the run goes to an empty pile."),
        MoveUnit.WHOLE_PILE: "The top card moves, or the whole pile when it is one run.",
        MoveUnit.PILE: "Only whole piles move, onto another pile, going by their top card.",
    }[t.moves]
    if t.reach:
        text += (f" A pile moves only onto the pile {' or the pile '.join(map(str, sorted(t.reach)))} places to "
                 "its left, counting only the piles that hold cards.")
    sources = [name for name, there in (("each free cell", d.cells.count),
                                        ("each reserve pile" if d.reserve.count > 1 else "the reserve",
                                         d.reserve.count), ("the waste", d.waste.count)) if there]
    targets = [name for name, there in (("the tableau", t.build.direction is not Direction.NONE),
                                        ("the foundations", d.foundations.count and not d.foundations.complete_runs),
                                        ("the hole", d.hole.count)) if there]
    if sources and targets:
        text += f" The top card of {_and(sources)} also plays, onto {_and(targets)}."
    if d.foundations.may_return:
        text += " A card may come back from a foundation to the tableau."
    return text


def _spaces(d: Description) -> str:
    t = d.tableau
    text = {
        Fill.ANY: "Any card, or any run that may move, fills an empty tableau pile.",
        Fill.KINGS: "Only a King, or a run headed by a King, fills an empty tableau pile.",
        Fill.NONE: "An empty tableau pile stays empty.",
        Fill.RESERVE: ("An empty tableau pile is filled at once with the reserve's top card; once the reserve "
                       "is empty, any card may fill it."),
    }[t.empty]
    if not t.pile_to_space and t.empty is not Fill.NONE:
        text += " A whole pile with nothing face down in it does not move to an empty pile (it would change nothing)."
    return text


def _stock(d: Description) -> str:
    s = d.stock
    if d.redeals.count:
        return (f"No stock. Instead, {_count(d.redeals.count, 'redeal')} (move `D`): every tableau card is "
                f"gathered pile by pile, shuffled and dealt again, {d.redeals.per_pile} to a pile from the first "
                "pile on (the last pile may get fewer).")
    if not s.count:
        return "No stock: every card is dealt at the start."
    if s.to is StockTo.WASTE:
        text = (f"The stock deals {_count(s.draw, 'card')} at a time to the waste (move `D`); the waste's top "
                "card plays.")
    elif s.to is StockTo.TABLEAU:
        text = ("The stock deals one card onto each tableau pile, left to right while cards last (move `D`)"
                + ("; not while a tableau pile is empty." if s.needs_no_empty_pile else "."))
    elif s.to is StockTo.HOLE:
        text = "The stock deals one card at a time onto the hole (move `D`)."
    else:
        return "The stock holds no cards in play."
    if s.to is StockTo.WASTE:
        if s.passes is None:
            text += " When the stock is empty the waste turns over into a new stock (move `R`), without limit."
        elif s.passes == 1:
            text += " One pass: the waste never turns over."
        else:
            text += (f" When the stock is empty the waste turns over into a new stock (move `R`): "
                     f"{_count(s.passes, 'pass', 'passes')} in all.")
    return text


def _foundations(d: Description) -> str:
    f = d.foundations
    parts = []
    if f.count and f.complete_runs:
        parts.append(f"A whole run from King down to Ace of one suit goes to a foundation at once, as soon "
                     f"as it lies on a tableau pile; the {_count(f.count, 'foundation')} take the game's "
                     f"{f.count} runs.")
    elif f.count:
        if f.base is None:
            parts.append(f"The first foundation card is dealt; every foundation starts with a card of its rank "
                         f"and is {built_words(f.build)}.")
        else:
            article = "an" if f.base in (1, 8) else "a"
            parts.append(f"Each foundation starts with {article} {_RANK_WORDS[f.base]} and is "
                         f"{built_words(f.build)}.")
    if d.hole.count:
        if d.hole_pairs is not None:
            parts.append(f"Free cards go to the hole in pairs whose ranks add up to {d.hole_pairs} (Ace 1, "
                         f"Jack 11, Queen 12), a {_RANK_WORDS[d.hole_pairs]} alone.")
        else:
            b = d.hole_build
            rank = {Direction.DOWN: "one rank lower than", Direction.UP: "one rank higher than",
                    Direction.EITHER: "one rank higher or lower than", Direction.MATCH: "of the same rank or suit as",
                    Direction.NONE: "nothing like"}[b.direction]
            suit = {SuitRule.ALTERNATE: ", and of the other colour", SuitRule.SAME: ", and of the same suit",
                    SuitRule.ANY: ", whatever its suit", SuitRule.ANY_BUT_SAME: ", and of another suit"}[b.suit]
            if b.direction is Direction.MATCH:
                suit = ""
            parts.append(f"A free card goes onto the hole when it is {rank} the hole's top card{suit}"
                         f"{' (King and Ace are one rank apart)' if b.wrap else ''}"
                         f"{'; nothing goes on a ' + _RANK_WORDS[b.closed] if b.closed else ''}.")
    return " ".join(parts) or "No foundations."


def _win(d: Description) -> str:
    if d.win is Win.TABLEAU_EMPTY:
        return "The game is won when every tableau pile is empty."
    if d.win is Win.ONE_PILE:
        return "The game is won when every card lies in one pile."
    if d.hole.count and not d.foundations.count:
        return "The game is won when every card is in the hole."
    return "The game is won when every card is on the foundations" + (" and the hole." if d.hole.count else ".")


def rules_sections(d: Description) -> list[tuple[str, str]]:
    """The rules of ``d`` as sentences, one paragraph a part, each with its
    heading: the cards, the piles, the deal, building, moves, filling
    spaces, the stock and passes, the foundations, and how the game is won.
    Every sentence is read from a field of the description.

    >>> from cardtable.patience.registry import get
    >>> dict(rules_sections(get("freecell")))["Filling spaces"]
    'Any card, or any run that may move, fills an empty tableau pile.'
    """
    return [("Cards", _cards(d)), ("Piles", _piles(d)), ("Deal", _deal(d)), ("Building", _building(d)),
            ("Moves", _moves(d)), ("Filling spaces", _spaces(d)), ("Stock and passes", _stock(d)),
            ("Foundations" if d.foundations.count or not d.hole.count else "The hole", _foundations(d)),
            ("Winning", _win(d))]
