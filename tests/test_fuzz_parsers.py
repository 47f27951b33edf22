"""Every parser and reader, fuzzed: bad input ends in a cardtable error, and
every notation round-trips.

Two kinds of test:

- **Bad input.** Each public reader is fed random text, random bytes (read as
  Latin-1 and as UTF-8 with replacement characters) and near misses of valid
  input: a card deleted, doubled or swapped, a character flipped, the text
  cut short, a byte-order mark, CRLF line ends, huge numbers, digits from
  other scripts, deep nesting, and JSON fields of the wrong type. Only a
  :class:`~cardtable.errors.CardtableError` may escape, and its message is
  one line of reasonable length.
- **Round trips.** Random legal play from a random deal, in each of the 24
  rule combinations, then every notation is written and read back: the
  position string, the PySol board and Solvitaire JSON (or a clear refusal
  where the format cannot hold the position), the move notation of every
  legal move, and the game record as text and as JSON, whose replay lands on
  the same position. Kings Corner hands played by random bots, 2 to 6
  players, go through both record forms too.

The examples are derandomized, so CI sees the same inputs every run. For a
deeper search, set ``CARDTABLE_FUZZ_EXAMPLES`` (examples per bad-input test,
default 150) and ``CARDTABLE_FUZZ_RANDOM=1`` (fresh random inputs, not CI's).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.bots.kings_corner import BOTS, make_bot
from cardtable.cards import MAX_SEED, Card, Suit, parse_cards
from cardtable.errors import CardtableError
from cardtable.kings_corner import HandRecord, KingsCornerGame, PilePosition, parse_action
from cardtable.klondike import (
    PRESETS,
    DealError,
    KlondikeGame,
    KlondikeRecord,
    Move,
    Position,
    Variant,
    load_start,
    read_deals,
    read_layout,
    write_layout,
)
from cardtable.klondike.formats import (
    FORMATS,
    detect_format,
    from_pysol,
    from_solvitaire,
    moves_from_klondike_solver,
    to_pysol,
    to_solvitaire,
)
from cardtable.klondike.moves import FOUNDATION, WASTE
from cardtable.klondike.position import deal_cards_from_string
from cardtable.klondike.variant import RULE_FIELDS, parse_passes

_EXAMPLES = int(os.environ.get("CARDTABLE_FUZZ_EXAMPLES", "150"))
_DERANDOMIZE = os.environ.get("CARDTABLE_FUZZ_RANDOM") != "1"
#: Bad-input tests: many cheap examples each.
FUZZ = settings(max_examples=_EXAMPLES, deadline=None, derandomize=_DERANDOMIZE, database=None,
                suppress_health_check=list(HealthCheck))
#: Round trips: fewer, costlier examples.
ROUND_TRIP = settings(max_examples=max(6, _EXAMPLES // 25), deadline=None, derandomize=_DERANDOMIZE,
                      database=None, suppress_health_check=list(HealthCheck))

#: A message longer than this is not "one clear line".
MESSAGE_LIMIT = 400


def refuses_cleanly(reader: Callable[[Any], object], value: object) -> None:
    """Call ``reader``; it may succeed or raise a :class:`CardtableError`
    with a one-line message, and nothing else (any other exception fails the
    test with its own traceback)."""
    try:
        reader(value)
    except CardtableError as error:
        message = str(error)
        assert message.strip(), f"{type(error).__name__} with an empty message"
        assert "\n" not in message and "\r" not in message, f"message of several lines: {message!r}"
        assert len(message) <= MESSAGE_LIMIT, f"message of {len(message)} characters: {message[:200]!r}..."


# ----- valid input to start from ----------------------------------------------------------------------


def _random_game(seed: int, variant: Variant, moves: int) -> KlondikeGame:
    """A game after up to ``moves`` random legal moves, favouring progress so
    that positions deep into the game appear too."""
    rng = random.Random(seed)
    game = KlondikeGame(Position.from_seed(seed), variant)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        good = [m for m in legal if m.target == FOUNDATION or m.source == WASTE]
        game.play(rng.choice(good) if good and rng.random() < 0.6 else rng.choice(legal))
    return game


def _kings_corner_game(players: int, seed: int, actions: int | None) -> KingsCornerGame:
    rng = random.Random(seed)
    game = KingsCornerGame.from_seed(players, seed)
    bots = [make_bot(rng.choice(sorted(BOTS)), seed=rng.randrange(1000)) for _ in range(players)]
    count = 0
    while not game.is_over() and (actions is None or count < actions):
        action = bots[game.turn].choose(game.view())
        assert action is not None
        game.play(action)
        count += 1
    return game


_GAMES = [_random_game(seed, PRESETS[name], moves)
          for seed, name, moves in ((1, "draw1", 0), (2, "seed-002", 30), (3, "thoughtful3", 80),
                                    (4, "vegas3", 120), (5, "standard1", 60))]
_POSITIONS = [game.position() for game in _GAMES]
_FIRST_PASS = [p for p in _POSITIONS if p.pass_number == 1]
_RECORDS = [KlondikeRecord.from_game(game, Player="fuzz", Seed=str(n)) for n, game in enumerate(_GAMES)]
_HANDS = [HandRecord.from_game(_kings_corner_game(players, players, actions), [("Seed", str(players))])
          for players, actions in ((2, 12), (3, None), (4, 30), (6, 20))]

VALID: dict[str, list[str]] = {
    "card": [text for card in Card._all for text in (str(card), card.symbol(), str(card).lower())] + ["10h"],
    "suit": [text for suit in Suit for text in (suit.letter, suit.symbol, suit.letter.upper())],
    "cards": [" ".join(map(str, p.stock)) for p in _POSITIONS if p.stock],
    "move": sorted({str(move) for game in _GAMES for move in game.moves} | {"2>6:3", "Fh>3", "W>4", "R"}),
    "deal": [Position.from_seed(seed).deal_string() for seed in (0, 7, 99)],
    "position": [str(p) for p in _POSITIONS],
    "pysol": [to_pysol(p) for p in _FIRST_PASS],
    "solvitaire": [to_solvitaire(p) for p in _FIRST_PASS],
    "record": [str(r) for r in _RECORDS],
    "record json": [r.to_json() for r in _RECORDS],
    "deals file": ["# deals\n7\n\n" + Position.from_seed(8).deal_string() + "\n" + str(_POSITIONS[2]) + "\n"],
    "action": [*sorted({str(a) for hand in _HANDS for a in hand.actions}), "play 10h NE", "move W E"],
    "pile": [p.name for p in PilePosition],
    "hand": [h.to_text() for h in _HANDS],
    "hand json": [h.to_json() for h in _HANDS],
    "preset": list(PRESETS),
    "passes": ["1", "3", "unlimited"],
    "format": list(FORMATS),
    "klondike-solver": ["DR1 W1 NEW 1H 3C-2 DR3 F2"],
}

#: Every public reader of text, with the valid inputs its near misses start from.
READERS: dict[str, tuple[Callable[[str], object], tuple[str, ...]]] = {
    "Card.parse": (Card.parse, ("card",)),
    "Suit.parse": (Suit.parse, ("suit",)),
    "parse_cards": (parse_cards, ("cards", "deal")),
    "Move.parse": (Move.parse, ("move",)),
    "KlondikeGame.parse_action": (KlondikeGame().parse_action, ("move",)),
    "deal_cards_from_string": (deal_cards_from_string, ("deal",)),
    "Position.from_deal": (Position.from_deal, ("deal",)),
    "Position.parse": (Position.parse, ("position",)),
    "from_pysol": (from_pysol, ("pysol",)),
    "from_solvitaire": (from_solvitaire, ("solvitaire",)),
    "detect_format": (detect_format, ("deal", "position", "pysol", "solvitaire", "record", "record json")),
    "read_layout": (read_layout, ("deal", "position", "pysol", "solvitaire")),
    "load_start": (load_start, ("deal", "position", "pysol", "solvitaire", "record", "record json")),
    "read_deals": (read_deals, ("deals file", "deal", "position")),
    "KlondikeRecord.parse": (KlondikeRecord.parse, ("record", "record json")),
    "KlondikeRecord.from_json": (KlondikeRecord.from_json, ("record json",)),
    "moves_from_klondike_solver": (moves_from_klondike_solver, ("klondike-solver",)),
    "parse_action": (parse_action, ("action",)),
    "KingsCornerGame.parse_action": (KingsCornerGame.from_seed(2, 1).parse_action, ("action",)),
    "PilePosition.parse": (PilePosition.parse, ("pile",)),
    "HandRecord.from_text": (HandRecord.from_text, ("hand",)),
    "HandRecord.from_json": (HandRecord.from_json, ("hand json",)),
    "Variant.preset": (Variant.preset, ("preset",)),
    "parse_passes": (parse_passes, ("passes",)),
    "write_layout format": (lambda fmt: write_layout(_POSITIONS[0], fmt), ("format",)),
}

# ----- strategies -------------------------------------------------------------------------------------

#: Characters that have broken parsers: digits of other scripts (``int``
#: reads some, ``isdigit`` accepts more), line breaks ``splitlines`` knows,
#: quotes, brackets, separators and suit symbols.
TRICKY = ("²", "٣", "𝟙", "Ⅻ", "\ufeff", "\r", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\x00",
          '"', "\\", "]", "[", "{", "}", "|", "/", ":", ">", "<", "-", ";", "#", "*", ".", "0", "1", "9", "10",
          "♥", "♠", "ß", "İ", "é", " ", "\t", "NaN", "-1", "99999999999999999999999", "9" * 5000, "1e999")


def _tokens(text: str) -> list[str]:
    return text.split(" ")


@st.composite
def near_misses(draw: st.DrawFn, kinds: tuple[str, ...]) -> str:
    """A valid input of one of ``kinds`` with one to three small mutations."""
    text = draw(st.sampled_from([t for kind in kinds for t in VALID[kind]]))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(("delete", "duplicate", "swap", "flip", "insert", "truncate", "bom", "crlf",
                                   "repeat", "number", "nest", "pad")))
        tokens = _tokens(text)
        if op in ("delete", "duplicate", "swap") and len(tokens) > 1:
            i = draw(st.integers(0, len(tokens) - 1))
            j = draw(st.integers(0, len(tokens) - 1))
            if op == "delete":
                del tokens[i]
            elif op == "duplicate":
                tokens.insert(j, tokens[i])
            else:
                tokens[i], tokens[j] = tokens[j], tokens[i]
            text = " ".join(tokens)
        elif op in ("flip", "insert") and text:
            i = draw(st.integers(0, len(text) - 1))
            new = draw(st.one_of(st.sampled_from(TRICKY), st.characters()))
            text = text[:i] + new + text[i + (op == "flip"):]
        elif op == "truncate":
            text = text[:draw(st.integers(0, len(text)))]
        elif op == "bom":
            text = "\ufeff" + text
        elif op == "crlf":
            text = text.replace("\n", "\r\n")
        elif op == "pad":
            # Separators str.strip() and str.split() take away but int() and the card reader do not.
            pad = draw(st.sampled_from(("\x1c", "\x1f", "\x85", "\xa0", "\u2028", "\u3000", "\t")))
            text = draw(st.sampled_from((pad + text, text + pad, text.replace(" ", pad))))
        elif op == "repeat":
            text = text + draw(st.sampled_from(("\n", " ", ""))) + text
        elif op == "number":
            text = text.replace(draw(st.sampled_from(("1", "3", "7", "2"))),
                                draw(st.sampled_from(("99999999999999999999", "-1", "0", "²", "٣", "1.5", "9" * 5000))))
        else:
            depth = draw(st.integers(1, 3000))
            opener = draw(st.sampled_from(("[", "{", '{"a":', "{{")))
            text = opener * depth + text
    return text


def _any_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(max_size=300),
        st.binary(max_size=300).map(lambda b: b.decode("latin-1")),
        st.binary(max_size=300).map(lambda b: b.decode("utf-8", "replace")),
        st.lists(st.sampled_from(TRICKY), max_size=20).map("".join),
    )


#: JSON values of every type, including the awkward ones.
JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True),
                        st.text(max_size=20), st.sampled_from(["Ah", "unlimited", "draw1", "yes", "3", "²", ""]),
                        st.sampled_from([[], {}]))


def _json_containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.lists(inner, min_size=1, max_size=4),
                     st.dictionaries(st.text(max_size=8), inner, min_size=1, max_size=4))


JSON_VALUES = st.recursive(JSON_LEAVES, _json_containers, max_leaves=10)

#: Raw JSON text that ``json.dumps`` cannot write: huge numbers, infinities, deep nesting, lone surrogates.
RAW_JSON = ("1e999", "-1e999", "1" * 5000, "NaN", "Infinity", "[" * 3000 + "]" * 3000, "2.7", "true",
            '"\\ud800"', "{}", "[]", '"Ah Ah"', "-0")
_RAW = "\x00raw\x00"


def _paths(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


@st.composite
def json_mutations(draw: st.DrawFn, kind: str) -> str:
    """A valid JSON input of ``kind`` with one node replaced, removed or wrapped."""
    data = json.loads(draw(st.sampled_from(VALID[kind])))
    path = draw(st.sampled_from(_paths(data)))
    op = draw(st.sampled_from(("replace", "raw", "delete", "wrap", "extra")))
    new: object = draw(JSON_VALUES) if op == "replace" else _RAW
    if not path:
        data = [data] if op == "wrap" else new
    else:
        parent: Any = data
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if op == "delete":
            del parent[last]
        elif op == "wrap":
            parent[last] = {"x": parent[last]} if draw(st.booleans()) else [parent[last]]
        elif op == "extra" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(JSON_VALUES)
        else:
            parent[last] = new
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    return text.replace(json.dumps(_RAW), draw(st.sampled_from(RAW_JSON)))


# ----- bad input: only cardtable errors escape -----------------------------------------------------------


@pytest.mark.parametrize("name", list(READERS))
@FUZZ
@given(data=st.data())
def test_random_text_is_read_or_refused_cleanly(name: str, data: st.DataObject) -> None:
    reader, _ = READERS[name]
    refuses_cleanly(reader, data.draw(_any_text()))


@pytest.mark.parametrize("name", list(READERS))
@FUZZ
@given(data=st.data())
def test_near_misses_are_read_or_refused_cleanly(name: str, data: st.DataObject) -> None:
    reader, kinds = READERS[name]
    refuses_cleanly(reader, data.draw(near_misses(kinds)))


@pytest.mark.parametrize(("name", "kind"), [
    ("from_solvitaire", "solvitaire"), ("load_start", "solvitaire"), ("KlondikeRecord.from_json", "record json"),
    ("load_start", "record json"), ("HandRecord.from_json", "hand json"),
])
@FUZZ
@given(data=st.data())
def test_json_of_the_wrong_shape_is_refused_cleanly(name: str, kind: str, data: st.DataObject) -> None:
    reader, _ = READERS[name]
    refuses_cleanly(reader, data.draw(json_mutations(kind)))


@FUZZ
@given(st.one_of(st.integers(), st.integers(-3, 3), st.integers(MAX_SEED - 3, MAX_SEED + 3)))
def test_seeds_and_card_numbers_are_read_or_refused_cleanly(number: int) -> None:
    refuses_cleanly(Position.from_seed, number)
    refuses_cleanly(Card.from_index, number)
    refuses_cleanly(lambda n: Card(n, n % 7), number)
    refuses_cleanly(lambda n: KingsCornerGame.from_seed(n % 9, abs(n)), number)


@FUZZ
@given(st.integers(-2, 12), st.integers(-2, 12), st.integers(-1, 15), st.sampled_from([None, *Suit]))
def test_a_move_is_built_or_refused_cleanly_and_prints_back(source: int, target: int, count: int,
                                                             suit: Suit | None) -> None:
    try:
        move = Move(source, target, count, suit)
    except CardtableError as error:
        assert "\n" not in str(error) and len(str(error)) <= MESSAGE_LIMIT
        return
    assert Move.parse(str(move)) == move


_OPTION_KEYS = st.sampled_from(("name", "draw", "passes", "empty", "foundation_return", "scoring", "nosuch", ""))


@FUZZ
@given(st.one_of(st.dictionaries(_OPTION_KEYS, JSON_VALUES, max_size=6), JSON_VALUES))
def test_variant_options_are_read_or_refused_cleanly(options: Any) -> None:
    refuses_cleanly(Variant.from_options, options)


@FUZZ
@given(st.sampled_from(sorted(PRESETS)), st.sampled_from(("draw", "passes", "empty", "foundation_return", "scoring")),
       JSON_VALUES)
def test_one_bad_option_on_a_preset_is_refused_cleanly(name: str, key: str, value: object) -> None:
    options = PRESETS[name].options()
    options[key] = value
    refuses_cleanly(Variant.from_options, options)


@pytest.mark.parametrize(("options", "field"), [
    ({"draw": True}, "draw"), ({"passes": 2.7}, "passes"), ({"passes": 1e999}, "passes"),
    ({"passes": "²"}, "passes"), ({"draw": "٣"}, "draw"), ({"passes": -3}, "passes"), ({"passes": 0}, "passes"),
    ({"foundation_return": 2}, "yes or no"), ({"empty": ["king"]}, "empty"), ({"scoring": None}, "scoring"),
    ({"name": {"a": 1}}, "variant"), ({"draw": 10**30}, "draw"),
])
def test_bad_variant_options_name_the_field(options: dict[str, object], field: str) -> None:
    with pytest.raises(CardtableError, match=field):
        Variant.from_options(options)


def test_the_readers_accept_their_valid_inputs() -> None:
    # The near misses start from inputs every reader accepts, so a mutation is what makes them bad.
    for name, (reader, kinds) in READERS.items():
        for kind in kinds:
            for text in VALID[kind]:
                if name == "read_deals" and kind != "deals file" and kind != "deal":
                    continue
                reader(text)


# ----- round trips in all 24 rule combinations ------------------------------------------------------------

#: The values each rule of play can take. Every rule field of :class:`Variant`
#: but the name and the scoring is here (checked below), so the combinations
#: follow the model; the scoring changes no move, so it cycles through its kinds.
RULE_VALUES: dict[str, tuple[object, ...]] = {
    "draw": (1, 3),
    "passes": (1, 3, None),
    "foundation_return": (False, True),
    "empty": ("king", "any"),
}
SCORINGS = ("none", "standard", "vegas")
COMBINATIONS = [
    Variant().replace(**dict(zip(RULE_VALUES, values, strict=True)), scoring=SCORINGS[number % len(SCORINGS)])
    for number, values in enumerate(product(*RULE_VALUES.values()))
]


def test_the_combinations_cover_every_rule_of_play() -> None:
    assert set(RULE_VALUES) == set(RULE_FIELDS["Variant"]) - {"name", "scoring"}
    for name, values in RULE_VALUES.items():
        assert {getattr(preset, name) for preset in PRESETS.values()} <= set(values)
    assert len(COMBINATIONS) == 24
    assert len({v.rules_key()[:4] for v in COMBINATIONS}) == 24
    assert {v.scoring.kind for v in COMBINATIONS} == set(SCORINGS)


#: Free header names and values: any text at all in a value (quotes, brackets, line breaks).
HEADER_NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,11}", fullmatch=True).filter(
    lambda name: name not in ("Game", "Variant", "Draw", "Passes", "Empty", "FoundationReturn", "Scoring", "Deal",
                              "Position", "Players", "Deck", "Result"))
HEADER_VALUES = st.one_of(st.text(max_size=30), st.lists(st.sampled_from(TRICKY), max_size=6).map("".join))


def _check_layout_formats(position: Position) -> None:
    assert Position.parse(str(position)) == position
    assert read_layout(str(position)) == position
    for fmt, write, read in (("pysol", to_pysol, from_pysol), ("solvitaire", to_solvitaire, from_solvitaire)):
        try:
            text = write(position)
        except DealError as error:
            # Refused only for what the format cannot hold, and the message says so.
            lost = position.pass_number != 1 or (
                not any(position.face_down) and [len(p) for p in position.tableau] == list(range(1, 8)))
            assert lost, f"{fmt} refused a position it can hold: {error}"
            assert "pass number" in str(error) or "fresh deal" in str(error)
            assert "position string" in str(error)
            continue
        assert read(text) == position, fmt
        assert read_layout(text) == position, fmt
        assert detect_format(text) == fmt
    if position.is_deal:
        assert Position.from_deal(position.deal_string()) == position
    else:
        with pytest.raises(DealError, match="not a fresh deal"):
            position.deal_string()


@pytest.mark.parametrize("variant", COMBINATIONS, ids=[
    f"draw{v.draw}-passes{v.passes or 'inf'}-{v.empty}-{'back' if v.foundation_return else 'noback'}"
    for v in COMBINATIONS])
@ROUND_TRIP
@given(seed=st.integers(0, MAX_SEED), before=st.integers(0, 150), after=st.integers(0, 80),
       headers=st.dictionaries(HEADER_NAMES, HEADER_VALUES, max_size=3))
def test_every_notation_round_trips_mid_game(variant: Variant, seed: int, before: int, after: int,
                                             headers: dict[str, str]) -> None:
    game = _random_game(seed, variant, before)
    _check_layout_formats(game.position())
    for move in game.legal_moves():
        assert Move.parse(str(move)) == move
        assert game.parse_action(game.action_to_string(move)) == move
    # A record that starts mid-game, then goes on.
    rng = random.Random(seed ^ after)
    if rng.random() < 0.5:
        game = KlondikeGame(game.position(), variant)
    for _ in range(after):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(rng.choice(legal))
    record = KlondikeRecord.from_game(game, **headers)
    for again in (KlondikeRecord.parse(str(record)), KlondikeRecord.parse(record.to_json()),
                  KlondikeRecord.from_json(record.to_json())):
        assert again == record
        assert again.variant.rules_key() == variant.rules_key()
        replayed = again.replay()
        assert replayed.position() == game.position()
        assert replayed.score == game.score
    assert str(KlondikeRecord.parse(str(record))) == str(record)
    position, loaded = load_start(str(record))
    assert position == game.position() and loaded == record


@pytest.mark.parametrize("players", range(2, 7))
@ROUND_TRIP
@given(seed=st.integers(0, 2**32), actions=st.one_of(st.none(), st.integers(0, 60)),
       tags=st.lists(st.tuples(HEADER_NAMES, HEADER_VALUES), max_size=3, unique_by=lambda tag: tag[0]))
def test_kings_corner_hand_records_round_trip(players: int, seed: int, actions: int | None,
                                              tags: list[tuple[str, str]]) -> None:
    game = _kings_corner_game(players, seed, actions)
    for action in game.legal_actions():
        assert parse_action(str(action)) == action
    record = HandRecord.from_game(game, tags)
    for again in (HandRecord.from_text(record.to_text()), HandRecord.from_json(record.to_json())):
        assert again == record
        replayed = again.replay()
        assert replayed.piles == game.piles and replayed.outcome() == game.outcome()
        assert [replayed.hand(s) for s in range(players)] == [game.hand(s) for s in range(players)]


# ----- the same header rules in both games ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["My Tag", "0", "", "Tag]", 'Say"', "a\nb", "Ünï"])
def test_header_names_that_no_text_record_can_hold_are_refused_in_both_games(name: str) -> None:
    game = KlondikeGame.from_seed(3)
    with pytest.raises(CardtableError, match="header name"):
        KlondikeRecord.from_game(game, **{name: "x"})
    with pytest.raises(CardtableError, match="header name"):
        HandRecord.from_game(KingsCornerGame.from_seed(2, 3), [(name, "x")])


@pytest.mark.parametrize("name", ["Game", "Variant", "Deal", "Position", "Draw"])
def test_klondike_headers_the_record_writes_itself_are_refused(name: str) -> None:
    with pytest.raises(CardtableError, match=f"header {name}"):
        KlondikeRecord.from_game(KlondikeGame.from_seed(3), **{name: "x"})


@pytest.mark.parametrize("name", ["Game", "Players", "Deck", "Result"])
def test_kings_corner_tags_the_record_writes_itself_are_refused(name: str) -> None:
    with pytest.raises(CardtableError, match=f"header {name}"):
        HandRecord.from_game(KingsCornerGame.from_seed(2, 3), [(name, "x")])


def test_a_tag_given_twice_is_refused_in_both_games() -> None:
    with pytest.raises(CardtableError, match="twice"):
        HandRecord.from_game(KingsCornerGame.from_seed(2, 3), [("Seed", "1"), ("Seed", "2")])
    deal = Position.from_seed(3).deal_string()
    with pytest.raises(CardtableError, match="line 3: header Seed given twice"):
        KlondikeRecord.parse(f'[Deal "{deal}"]\n[Seed "1"]\n[Seed "2"]\n\n1. D\n')


@pytest.mark.parametrize("value", ['say "hi"', "a]b", "two\nlines", "back\\slash", "tab\there", "\\n", "\u2028",
                                   'end\\"'])
def test_awkward_header_values_are_escaped_and_read_back_in_both_games(value: str) -> None:
    record = KlondikeRecord.from_game(KlondikeGame.from_seed(3), Note=value)
    text = str(record)
    assert len(text.split("\n\n")[0].splitlines()) == 9  # eight fixed headers and Note, one line each
    assert KlondikeRecord.parse(text).headers == {"Note": value}
    hand = HandRecord.from_game(KingsCornerGame.from_seed(2, 3), [("Note", value)])
    assert HandRecord.from_text(hand.to_text()).tag("Note") == value
    assert HandRecord.from_json(hand.to_json()).tag("Note") == value


_ANY_NAMES = st.one_of(st.text(max_size=12), HEADER_NAMES, st.sampled_from(("Game", "Deal", "Players", "My Tag", "0")))
_ANY_VALUES = st.one_of(HEADER_VALUES, st.sampled_from(("\ud800", "a\udfffb")))
_START = KlondikeGame.from_seed(5, Variant.preset("vegas3"))
for _move in _START.legal_moves()[:1]:
    _START.play(_move)


@FUZZ
@given(st.dictionaries(_ANY_NAMES, _ANY_VALUES, max_size=3))
def test_any_klondike_headers_are_refused_when_built_or_round_trip(headers: dict[str, str]) -> None:
    try:
        record = KlondikeRecord.from_game(_START, **headers)
    except CardtableError as error:
        assert "header" in str(error)
        return
    assert KlondikeRecord.parse(str(record)) == record
    assert KlondikeRecord.parse(record.to_json()) == record


@FUZZ
@given(st.lists(st.tuples(_ANY_NAMES, _ANY_VALUES), max_size=3))
def test_any_kings_corner_tags_are_refused_when_built_or_round_trip(tags: list[tuple[str, str]]) -> None:
    game = KingsCornerGame.from_seed(3, 8)
    game.play(game.legal_actions()[0])
    try:
        record = HandRecord.from_game(game, tags)
    except CardtableError as error:
        assert "header" in str(error)
        return
    assert HandRecord.from_text(record.to_text()) == record
    assert HandRecord.from_json(record.to_json()) == record


@FUZZ
@given(st.dictionaries(_ANY_NAMES, st.one_of(_ANY_VALUES, JSON_VALUES), max_size=3))
def test_json_headers_read_back_the_same_in_text(headers: dict[str, object]) -> None:
    text = json.dumps({**KlondikeRecord.from_game(_START).to_dict(), "headers": headers})
    try:
        record = KlondikeRecord.from_json(text)
    except CardtableError:
        return
    assert KlondikeRecord.parse(str(record)) == record
