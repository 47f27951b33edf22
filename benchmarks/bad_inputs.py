"""Bad input through the real command line: every command, every file format.

Each case runs ``cardtable ...`` (the installed script next to this Python)
as a subprocess, in a scratch folder with its own data folder, and is sorted
into one of:

- **clean**: refused with exit status 2 and one line of error on stderr
  (``cardtable: error: ...``, or a bad option's ``cardtable CMD: error: ...``)
  that names the problem (the case's pattern), and no traceback; or, for a
  valid input (a BOM, CRLF line ends), accepted;
- **unclear**: refused, but not in one line naming the problem (argparse's
  usage block before the line counts as more than one);
- **silently accepted**: exit status 0 for input that should be refused;
- **wrongly refused**: a valid input that was refused;
- **traceback**: a traceback on stderr, an internal error (exit 70), a
  crash or a hang.

Usage::

    python benchmarks/bad_inputs.py            # run every case, print what is not clean, then the counts
    python benchmarks/bad_inputs.py -v         # print every case
    python benchmarks/bad_inputs.py -k solve   # only the cases whose name holds "solve"
    python benchmarks/bad_inputs.py --command "python -m cardtable"   # another way to run it

It prints the counts and exits with status 1 when any case is not clean.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from cardtable.kings_corner import HandRecord, KingsCornerGame
from cardtable.klondike import KlondikeGame, KlondikeRecord, Position, Variant
from cardtable.klondike.formats import to_pysol, to_solvitaire

#: The command line under test (``--command`` changes it).
COMMAND = [str(Path(sys.executable).with_name("cardtable"))]
#: Seconds a case may run: every bad input should be refused long before.
TIMEOUT = 60
#: The one error line: ``cardtable: error: ...`` or argparse's ``cardtable CMD: error: ...``.
ERROR_LINE = re.compile(r"cardtable(?: [\w-]+)*: error: .+")


@dataclass
class Case:
    """One command line. ``expect`` is a pattern the error line must match
    (searched, case-insensitive); None means the input is valid and the
    command must succeed."""

    name: str
    args: list[str]
    expect: str | None
    stdin: bytes = b""
    env: dict[str, str] = field(default_factory=dict)
    #: Where standard output goes (a path: ``/dev/full``), else it is read.
    stdout: str | None = None


@dataclass
class Outcome:
    case: Case
    verdict: str
    status: int | None
    stderr: str
    seconds: float


# ----- the files the cases read ----------------------------------------------------------------------------


def make_files(folder: Path) -> dict[str, Path]:
    """Good and bad files of every format, by name."""
    files: dict[str, bytes | str] = {}
    deal = Position.from_seed(7).deal_string()
    game = KlondikeGame.from_seed(7, Variant.preset("draw1"))
    for _ in range(12):
        game.play(game.legal_moves()[0])
    record = KlondikeRecord.from_game(game, Seed="7")
    position = str(game.position())
    hand_game = KingsCornerGame.from_seed(3, 5)
    for _ in range(6):
        hand_game.play(hand_game.legal_actions()[0])
    hand = HandRecord.from_game(hand_game, [("Seed", "5")])
    files.update({
        "deal.txt": deal + "\n",
        "position.txt": position + "\n",
        "pysol.txt": to_pysol(Position.from_seed(7)) + "\n",
        "solvitaire.json": to_solvitaire(Position.from_seed(7)),
        "record.txt": str(record),
        "record.json": record.to_json(),
        "hand.txt": hand.to_text(),
        "hand.json": hand.to_json(),
        "deals.txt": "# three deals\n1\n" + deal + "\n" + position + "\n",
        # valid, in other clothes
        "record-bom-crlf.txt": "\ufeff" + str(record).replace("\n", "\r\n"),
        "deal-bom.txt": "\ufeff" + deal + "\r\n",
        "deals-bom-crlf.txt": "\ufeff1\r\n2\r\n",
        "hand-bom-crlf.txt": "\ufeff" + hand.to_text().replace("\n", "\r\n"),
        "solvitaire-bom.json": "\ufeff" + to_solvitaire(Position.from_seed(7)),
        # bad in every way
        "empty.txt": "",
        "blank.txt": "\n\n   \n",
        "binary.bin": bytes(range(256)) * 4,
        "latin1.txt": "Talon: 9D TC\n\xe9\xe8\n".encode("latin-1"),
        "nul.txt": deal.replace(" ", "\x00") + "\n",
        "huge-line.txt": "Ah " * 200_000,
        "deal-missing.txt": deal.rsplit(" ", 1)[0] + "\n",
        "deal-twice.txt": deal.rsplit(" ", 1)[0] + " Ah\n",
        "deal-unknown.txt": deal.replace("Ac", "Xx") + "\n",
        "deal-53.txt": deal + " Ah\n",
        "deal-unicode-digit.txt": deal.replace("2", "²", 1) + "\n",
        "position-bad-pile.txt": position.replace("/", "", 1) + "\n",
        "position-bad-pass.txt": position.rsplit(" ", 1)[0] + " ²\n",
        "position-pass-zero.txt": position.rsplit(" ", 1)[0] + " 0\n",
        "position-pass-4.txt": str(Position.from_seed(7)).rsplit(" ", 1)[0] + " 4\n",
        "position-bad-foundation.txt": re.sub(r" (\S{4}) (\d+)$", r" XYZW \2", position) + "\n",
        "pysol-no-talon.txt": to_pysol(Position.from_seed(7)).split("\n", 1)[1] + "\n",
        "pysol-six-piles.txt": to_pysol(Position.from_seed(7)).rsplit("\n", 1)[0] + "\n",
        "pysol-bad-card.txt": to_pysol(Position.from_seed(7)).replace("<", "<Z", 1) + "\n",
        "pysol-bad-foundation.txt": to_pysol(Position.from_seed(7)).replace("\n", "\nFoundations: H-1 H-2\n", 1),
        "pysol-foundation-garbage.txt": to_pysol(Position.from_seed(7)).replace("\n", "\nFoundations: junk\n", 1),
        "solvitaire-truncated.json": to_solvitaire(Position.from_seed(7))[:120],
        "solvitaire-list.json": "[1, 2, 3]",
        "solvitaire-six-piles.json": json.dumps({"tableau piles": [["AC"]] * 6, "stock": []}),
        "solvitaire-bad-card.json": re.sub(r'\[\n    \["', '[\n    ["Z', to_solvitaire(Position.from_seed(7)), count=1),
        "solvitaire-stock-number.json": json.dumps({"tableau piles": [[]] * 7, "stock": 5}),
        "solvitaire-huge-number.json": '{"tableau piles": [[],[],[],[],[],[],[]], "stock": [' + "9" * 5000 + "]}",
        "solvitaire-deep.json": "[" * 100_000 + "]" * 100_000,
        "solvitaire-foundation-twice.json": json.dumps(
            {"tableau piles": [[]] * 7, "stock": [], "foundation": [["AC"], ["AC", "2C"]]}),
        "record-illegal.txt": str(record).rstrip("\n") + " 13. 1>F 14. 1>F 15. 1>F\n",
        "record-bad-move.txt": str(record).rstrip("\n") + " 13. 8>9\n",
        "record-bad-header.txt": str(record).replace('[Seed "7"]', '[My Tag "7"]'),
        "record-nosuch-variant.txt": str(record).replace('[Variant "draw1"]', '[Variant "nosuch"]'),
        "record-bad-draw.txt": str(record).replace('[Draw "1"]', '[Draw "2"]'),
        "record-bad-passes.txt": str(record).replace('[Passes "unlimited"]', '[Passes "2.7"]'),
        "record-unicode-passes.txt": str(record).replace('[Passes "unlimited"]', '[Passes "²"]'),
        "record-comment.txt": str(record).rstrip("\n") + " { never closed\n",
        "record-no-start.txt": re.sub(r'\[Deal "[^"]*"\]\n', "", str(record)),
        "record-deal-position.txt": str(record).replace("[Seed", f'[Position "{Position.from_seed(8)}"]\n[Seed'),
        "record-header-twice.txt": str(record).replace('[Seed "7"]', '[Seed "7"]\n[Seed "8"]'),
        "record-pass-beyond.txt": (f'[Variant "seed-002"]\n[Position "'
                                   f'{str(Position.from_seed(7)).rsplit(" ", 1)[0]} 4"]\n\n1. D\n'),
        "record-other-game.txt": str(record).replace('[Game "Klondike"]', '[Game "Chess"]'),
        "record-deep-brackets.txt": "[" * 100_000,
        "record-truncated.json": record.to_json()[:-30],
        "record-draw-true.json": json.dumps({**record.to_dict(), "variant": {"draw": True}}),
        "record-passes-float.json": json.dumps({**record.to_dict(), "variant": {"passes": 2.7}}),
        "record-passes-inf.json": record.to_json().replace('"passes": "unlimited"', '"passes": 1e999'),
        "record-huge-int.json": record.to_json().replace('"draw": 1', '"draw": ' + "1" * 5000),
        "record-moves-string.json": json.dumps({**record.to_dict(), "moves": "D D"}),
        "record-move-number.json": json.dumps({**record.to_dict(), "moves": ["D", 5]}),
        "record-deal-list.json": json.dumps({**record.to_dict(), "deal": [1, 2]}),
        "record-headers-nested.json": json.dumps({**record.to_dict(), "headers": {"Seed": {"a": [1]}}}),
        "record-variant-string.json": json.dumps({**record.to_dict(), "variant": "draw1"}),
        "record-deep.json": "{" + '"a":{' * 50_000,
        "hand-truncated.txt": hand.to_text()[:40],
        "hand-bad-players.txt": hand.to_text().replace('[Players "3"]', '[Players "²"]'),
        "hand-no-deck.txt": re.sub(r'\[Deck "[^"]*"\]\n', "", hand.to_text()),
        "hand-bad-action.txt": hand.to_text().rstrip("\n") + "\n9 P3: fly away\n",
        "hand-bad-tag.txt": hand.to_text().replace('[Seed "5"]', '[My Tag "5"]'),
        "hand-tag-twice.txt": hand.to_text().replace('[Seed "5"]', '[Seed "5"]\n[Seed "6"]'),
        "hand-result.txt": hand.to_text().replace('[Result "*"]', '[Result "P9"]'),
        "hand-truncated.json": hand.to_json()[:-20],
        "hand-players-true.json": hand.to_json().replace('"players": 3', '"players": true'),
        "hand-players-float.json": hand.to_json().replace('"players": 3', '"players": 2.7'),
        "hand-players-huge.json": hand.to_json().replace('"players": 3', '"players": ' + "9" * 5000),
        "hand-actions-nested.json": hand.to_json().replace('"actions": [', '"actions": [[["draw"]], '),
        "hand-deep.json": "[" * 100_000,
        "deals-empty.txt": "# nothing here\n\n",
        "deals-negative.txt": "1\n-5\n",
        "deals-huge-seed.txt": "1\n" + "9" * 40 + "\n",
        "deals-unicode-seed.txt": "1\n²\n",
        "deals-bad-deal.txt": "1\n" + deal.replace("Ac", "Xx") + "\n",
        "deals-pysol.txt": to_pysol(Position.from_seed(7)) + "\n",
        "deals-record.txt": str(record),
        "store-garbage.sqlite": b"this is not a database" * 100,
    })
    paths = {}
    files.update(_patience_files())
    for name, content in files.items():
        path = folder / name
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8", newline="")
        else:
            path.write_bytes(content)
        paths[name] = path
    (folder / "a-folder").mkdir()
    paths["a-folder"] = folder / "a-folder"
    return paths


# ----- the catalogue ---------------------------------------------------------------------------------------

#: Bad numbers for a count flag, with what the message must say.
BAD_COUNTS = [("0", r"at least 1|>= ?1"), ("-5", r"-5|at least"), ("abc", "abc"), ("1e3", "1e3"), ("2.5", "2.5"),
              ("²", "²"), ("9" * 40, r"9999|too (large|big)|at most"), ("", r"''|empty|whole number")]
BAD_SEEDS = [("-1", r"-1|at least 0"), ("abc", "abc"), ("18446744073709551616", r"2\*\*64|18446744073709551616"),
             ("²", "²"), ("1.5", "1.5")]
VARIANT_FLAGS = [(["--variant", "nosuch"], "nosuch"), (["--draw", "2"], r"draw|invalid choice"),
                 (["--passes", "0"], r"passes|at least 1"), (["--passes", "2.7"], r"passes|2\.7"),
                 (["--passes", "²"], r"passes|²"), (["--empty", "queen"], r"empty|invalid choice"),
                 (["--scoring", "money"], r"scoring|invalid choice")]


def _patience_files() -> dict[str, str]:
    """A patience game's record (Golf, seed 4, a greedy game), and that record with an illegal move."""
    from cardtable.bots.patience import make_player
    from cardtable.game import play_out
    from cardtable.patience import PatienceGame, get
    from cardtable.patience.record import PatienceRecord

    game = play_out(PatienceGame.from_seed(get("golf"), 4), [make_player("greedy")], max_actions=500)
    record = PatienceRecord.from_game(game, 4)
    text = str(record)
    illegal = text.replace("\n1. ", "\n1. 8>H ", 1)  # Golf has seven piles
    return {"golf-record.txt": text, "golf-record.json": record.to_json(), "golf-record-illegal.txt": illegal,
            "golf-position.txt": "1:AsKs 2: 3:\n"}


def catalogue(f: dict[str, Path], tmp: Path) -> list[Case]:
    """Every case, by command."""
    cases: list[Case] = []

    def add(name: str, args: list[str], expect: str | None, **kwargs: object) -> None:
        cases.append(Case(name, args, expect, **kwargs))  # type: ignore[arg-type]

    p = {name: str(path) for name, path in f.items()}
    missing = str(tmp / "no-such-file.txt")
    into_missing_folder = str(tmp / "no-such-folder" / "out.txt")

    # -- the top level and unknown things
    add("no command", [], r"command|usage")
    add("unknown command", ["juggle"], "juggle")
    add("unknown flag", ["deal", "--seed", "1", "--frobnicate"], "frobnicate")
    add("variants --json extra", ["variants", "extra"], "extra")

    # -- deal
    for value, expect in BAD_SEEDS:
        add(f"deal --seed {value[:12]}", ["deal", "--seed", value], expect)
    add("deal --seed after a separator", ["deal", "--seed", "\x1c5"], r"seed")
    add("deal --seed in other digits", ["deal", "--seed", "٥"], r"seed")
    add("deal no source", ["deal"], r"--seed|--file|required")
    add("deal both sources", ["deal", "--seed", "1", "--file", p["deal.txt"]], r"not allowed|--file")
    add("deal --format nosuch", ["deal", "--seed", "1", "--format", "nosuch"], r"nosuch|invalid choice")
    add("deal --winnable --file", ["deal", "--winnable", "--file", p["deal.txt"]], "--winnable")
    for flags, expect in VARIANT_FLAGS:
        add(f"deal {' '.join(flags)}", ["deal", "--seed", "1", *flags], expect)
    add("deal --output missing folder", ["deal", "--seed", "1", "--output", into_missing_folder],
        r"no-such-folder|folder|directory")
    add("deal --output a folder", ["deal", "--seed", "1", "--output", p["a-folder"]], r"a-folder|folder|directory")
    add("deal --output under a file", ["deal", "--seed", "1", "--output", str(f["deal.txt"] / "x.txt")],
        r"deal.txt|not a folder|directory")
    add("deal --format deal of a position", ["deal", "--file", p["position.txt"], "--format", "pysol"], None)
    add("deal solvitaire of a later pass", ["deal", "--file", p["record-pass-beyond.txt"]], "pass")
    bad_layouts = {
        "missing": (missing, r"no-such-file|no such file"),
        "empty.txt": (p["empty.txt"], r"0 cards|empty|no "),
        "blank.txt": (p["blank.txt"], r"0 cards|empty|no "),
        "binary.bin": (p["binary.bin"], "UTF-8"),
        "latin1.txt": (p["latin1.txt"], "UTF-8"),
        "a-folder": (p["a-folder"], r"folder|directory"),
        "nul.txt": (p["nul.txt"], r"card|\\x00"),
        "huge-line.txt": (p["huge-line.txt"], r"card|appears twice"),
        "deal-missing.txt": (p["deal-missing.txt"], r"51 cards.*missing"),
        "deal-twice.txt": (p["deal-twice.txt"], "Ah appears twice"),
        "deal-unknown.txt": (p["deal-unknown.txt"], r"card \d+: unknown card 'Xx'"),
        "deal-53.txt": (p["deal-53.txt"], r"appears twice|53"),
        "deal-unicode-digit.txt": (p["deal-unicode-digit.txt"], r"unknown card '²"),
        "position-bad-pile.txt": (p["position-bad-pile.txt"], r"pile|6 piles"),
        "position-bad-pass.txt": (p["position-bad-pass.txt"], r"pass: a whole number"),
        "position-pass-zero.txt": (p["position-pass-zero.txt"], r"pass number must be at least 1"),
        "position-bad-foundation.txt": (p["position-bad-foundation.txt"], r"foundation"),
        "pysol-no-talon.txt": (p["pysol-no-talon.txt"], "Talon"),
        "pysol-six-piles.txt": (p["pysol-six-piles.txt"], r"6 tableau lines"),
        "pysol-bad-card.txt": (p["pysol-bad-card.txt"], r"line \d+: unknown card"),
        "pysol-bad-foundation.txt": (p["pysol-bad-foundation.txt"], r"line 2: the hearts foundation is given twice"),
        "pysol-foundation-garbage.txt": (p["pysol-foundation-garbage.txt"], r"line 2: foundation 'junk'"),
        "solvitaire-truncated.json": (p["solvitaire-truncated.json"], r"Solvitaire JSON, line \d+"),
        "solvitaire-list.json": (p["solvitaire-list.json"], r"JSON: expected an object"),
        "solvitaire-six-piles.json": (p["solvitaire-six-piles.json"], r"7 piles"),
        "solvitaire-bad-card.json": (p["solvitaire-bad-card.json"], r"pile 1, card 1: unknown card"),
        "solvitaire-stock-number.json": (p["solvitaire-stock-number.json"], r"stock: expected a list"),
        "solvitaire-huge-number.json": (p["solvitaire-huge-number.json"], r"Solvitaire JSON: .*digits"),
        "solvitaire-deep.json": (p["solvitaire-deep.json"], r"nested too deeply"),
        "solvitaire-foundation-twice.json": (p["solvitaire-foundation-twice.json"],
                                             r"second clubs foundation|Ac is already on the clubs foundation"),
    }
    for name, (path, expect) in bad_layouts.items():
        add(f"deal --file {name}", ["deal", "--file", path], expect)
    for name in ("deal-bom.txt", "solvitaire-bom.json", "record-bom-crlf.txt"):
        add(f"deal --file {name}", ["deal", "--file", p[name], "--format", "position"], None)
    add("deal --file - binary stdin", ["deal", "--file", "-"], r"card|UTF-8", stdin=bytes(range(256)))
    add("deal --file - empty stdin", ["deal", "--file", "-"], r"0 cards|empty|no ")

    bad_records = {
        "record-illegal.txt": r"move 1[345] \(1>F\) is illegal",
        "record-bad-move.txt": r"line \d+: cannot read move '8>9'",
        "record-bad-header.txt": r"line \d+: a header must read",
        "record-nosuch-variant.txt": r"unknown variant 'nosuch'",
        "record-bad-draw.txt": r"draw must be 1 or 3",
        "record-bad-passes.txt": r"passes must be a whole number",
        "record-unicode-passes.txt": r"passes must be a whole number",
        "record-comment.txt": r"comment is never closed",
        "record-no-start.txt": r"no Deal or Position header",
        "record-deal-position.txt": r"different starts",
        "record-header-twice.txt": r"header Seed given twice",
        "record-pass-beyond.txt": r"start: the position is in pass 4, but the variant allows 1 pass",
        "record-other-game.txt": r"record of 'Chess'",
        "record-deep-brackets.txt": r"a header must read|nested too deeply",
        "record-truncated.json": r"JSON record, line \d+",
        "record-draw-true.json": r"draw must be a whole number, not True",
        "record-passes-float.json": r"passes must be a whole number.*2\.7",
        "record-passes-inf.json": r"passes must be a whole number.*inf",
        "record-huge-int.json": r"JSON record: .*digits",
        "record-moves-string.json": r"field 'moves': expected a list",
        "record-move-number.json": r"move 2: expected a move string",
        "record-deal-list.json": r"field 'deal': expected a string",
        "record-headers-nested.json": r"header 'Seed': expected a string",
        "record-variant-string.json": r"field 'variant': expected an object",
        "record-deep.json": r"nested too deeply|JSON record",
        "empty.txt": r"no Deal or Position",
        "binary.bin": "UTF-8",
        "deal.txt": r"no Deal or Position|cannot read move",
        "hand.txt": r"record of 'Kings Corner'|header|Deal",
    }

    # -- show
    for name in ("deal-twice.txt", "position-bad-pass.txt", "pysol-no-talon.txt", "solvitaire-list.json",
                 "record-illegal.txt", "binary.bin", "record-deep-brackets.txt"):
        expect = bad_layouts[name][1] if name in bad_layouts else bad_records[name]
        add(f"show {name}", ["show", p[name]], expect)
    add("show missing file", ["show", missing], r"no such file")
    add("show a few cards", ["show", "Ah Kd Qs"], r"3 cards|missing")
    add("show nonsense word", ["show", "nonsense"], r"nonsense")
    add("show a long word", ["show", "x" * 3000], r"x…: no such file")
    add("show a position string", ["show", str(Position.from_seed(3))], None)
    add("show --color sometimes", ["show", p["deal.txt"], "--color", "sometimes"], r"sometimes|invalid choice")
    add("show bom+crlf record", ["show", p["record-bom-crlf.txt"]], None)

    # -- replay
    for name, expect in bad_records.items():
        add(f"replay {name}", ["replay", p[name]], expect)
    add("replay missing", ["replay", missing], "no such file")
    add("replay a folder", ["replay", p["a-folder"]], r"folder|directory")
    add("replay bom+crlf", ["replay", p["record-bom-crlf.txt"]], None)
    add("replay json", ["replay", p["record.json"]], None)
    add("replay stdin garbage", ["replay", "-"], r"line 1", stdin=b"hello world\n")

    # -- --game: every patience game in deal, show, replay and simulate
    add("deal --game unknown", ["deal", "--game", "freecel", "--seed", "1"], r"unknown game 'freecel'")
    add("deal --game unknown option", ["deal", "--game", "golf:wrapp", "--seed", "1"], r"no option 'wrapp'")
    add("deal --game a missing file", ["deal", "--game", missing.replace(".txt", ".json"), "--seed", "1"],
        r"no such file|not found|cannot")
    add("deal --game ms: without Microsoft deals", ["deal", "--game", "spider", "--seed", "ms:3"],
        r"spider has no Microsoft deal numbers")
    add("deal --game pysol: without PySolFC deals", ["deal", "--game", "pyramid", "--seed", "pysol:3"],
        r"pyramid has no PySolFC deal numbers")
    add("deal ms: without --game", ["deal", "--seed", "ms:3"], r"Klondike has no ms:N")
    add("deal --game seed xx:3", ["deal", "--game", "freecell", "--seed", "xx:3"], r"ms:N or pysol:N")
    add("deal --game ms:0", ["deal", "--game", "freecell", "--seed", "ms:0"], r"Microsoft deal number is 1 to")
    add("deal --game with --draw", ["deal", "--game", "golf", "--seed", "1", "--draw", "3"], r"--draw is a Klondike")
    add("deal --game --file garbage", ["deal", "--game", "golf", "--file", p["deal.txt"]], r"position string")
    add("deal --game --file a short position", ["deal", "--game", "golf", "--file", p["golf-position.txt"]],
        r"pile \d is missing|not the cards")
    add("deal --game freecell ms:11982", ["deal", "--game", "freecell", "--seed", "ms:11982", "--format", "pysol"],
        None)
    add("show --game a word", ["show", "--game", "golf", "nonsense"], r"no such file")
    add("show --game a position", ["show", "--game", "golf", p["golf-position.txt"]], r"pile \d is missing")
    add("show a patience record", ["show", p["golf-record.txt"]], None)
    add("replay a patience record", ["replay", p["golf-record.txt"]], None)
    add("replay a patience record, JSON", ["replay", p["golf-record.json"]], None)
    add("replay a patience record's illegal move", ["replay", p["golf-record-illegal.txt"]],
        r"move 1 \(8>H\) is illegal: Golf has no pile 8")
    add("replay --game of another game", ["replay", p["golf-record.txt"], "--game", "freecell"],
        r"a record of golf, not of freecell")
    add("simulate --game --store", ["simulate", "--game", "golf", "--games", "2", "--store", str(tmp / "p.sqlite")],
        r"--store: the results store keeps Klondike's runs only")
    add("simulate --game --resume", ["simulate", "--game", "golf", "--resume", "1"], r"--resume: the results store")
    add("simulate --game --strategy priority", ["simulate", "--game", "golf", "--strategy", "priority"],
        r"random or greedy")
    add("simulate --game ms: without Microsoft deals", ["simulate", "--game", "golf", "--seed", "ms:1"],
        r"golf has no Microsoft deal numbers")
    add("simulate --game seed past 2**64-1", ["simulate", "--game", "golf", "--games", "2", "--seed", str(2**64 - 1)],
        r"the last game's deal")
    add("simulate --game golf", ["simulate", "--game", "golf", "--games", "3", "--record", "1"], None)
    add("games --output without --play", ["games", "golf", "-o", str(tmp / "g.txt")], r"--output writes a bot's")

    # -- simulate
    for value, expect in BAD_COUNTS:
        add(f"simulate --games {value[:12]!r}", ["simulate", "--games", value, "--no-store"], expect)
    for value, expect in BAD_SEEDS:
        add(f"simulate --seed {value[:12]}", ["simulate", "--games", "2", "--seed", value, "--no-store"], expect)
    add("simulate --games after a separator", ["simulate", "--games", "\x1c5", "--no-store"], r"games")
    add("simulate --workers 0", ["simulate", "--games", "2", "--workers", "0", "--no-store"], "--workers")
    add("simulate --workers abc", ["simulate", "--games", "2", "--workers", "abc", "--no-store"], "abc")
    add("simulate --strategy nosuch", ["simulate", "--strategy", "nosuch"], r"nosuch|invalid choice")
    add("simulate --record -1", ["simulate", "--games", "2", "--record", "-1", "--no-store"], r"-1|at least")
    add("simulate --resume abc", ["simulate", "--resume", "abc"], "abc")
    add("simulate --resume 999999", ["simulate", "--resume", "999999", "--store", str(tmp / "s1.sqlite")],
        r"999999|no run|no results store")
    for flags, expect in VARIANT_FLAGS:
        add(f"simulate {' '.join(flags)}", ["simulate", "--games", "2", "--no-store", *flags], expect)
    for name, expect in (("deals-empty.txt", "no deals"), ("deals-negative.txt", r"line 2: a seed is a whole"),
                         ("deals-huge-seed.txt", r"line 2: a seed is a whole number >= 0 and at most"),
                         ("deals-unicode-seed.txt", r"line 2: write a seed in the digits"),
                         ("deals-bad-deal.txt", r"line 2: .*unknown card 'Xx'"),
                         ("deals-pysol.txt", r"line 1: expected a seed number"),
                         ("deals-record.txt", r"line 1: expected a seed number"),
                         ("binary.bin", "UTF-8"), ("a-folder", r"folder|directory")):
        add(f"simulate --deals {name}", ["simulate", "--deals", p[name], "--no-store"], expect)
    add("simulate --deals missing", ["simulate", "--deals", missing, "--no-store"], "no such file")
    add("simulate --deals bom+crlf", ["simulate", "--deals", p["deals-bom-crlf.txt"], "--no-store",
                                      "--no-progress", "--record", "0"], None)
    add("simulate --output missing folder", ["simulate", "--games", "2", "--no-store", "--output",
                                             into_missing_folder], r"no-such-folder|folder")
    add("simulate --output a folder", ["simulate", "--games", "2", "--no-store", "--output", p["a-folder"]],
        r"folder|directory")
    add("simulate --plot missing folder", ["simulate", "--games", "2", "--no-store", "--plot",
                                           str(tmp / "nope" / "x.png")], r"nope|folder")
    add("simulate --plot x.xyz", ["simulate", "--games", "2", "--no-store", "--plot", str(tmp / "x.xyz")],
        r"cannot draw a \.xyz picture")
    add("simulate --store under a file", ["simulate", "--games", "2", "--store", str(f["deal.txt"] / "s.sqlite")],
        "is a file, not a folder")
    add("simulate --plot under a file", ["simulate", "--games", "2", "--no-store", "--plot",
                                         str(f["deal.txt"] / "x.png")], r"deal.txt|not a folder|directory")
    add("simulate --store garbage", ["simulate", "--games", "2", "--store", p["store-garbage.sqlite"]],
        r"store-garbage|database|store")
    add("simulate --store a folder", ["simulate", "--games", "2", "--store", p["a-folder"]], r"folder|directory|store")
    add("simulate --store ''", ["simulate", "--games", "2", "--store", ""], r"--store.*empty")
    add("runs --store ''", ["runs", "--store", ""], r"--store.*empty")
    for journal in ("-wal", "-shm", "-journal"):  # the files SQLite keeps beside the store
        add(f"simulate --output the store's {journal}", ["simulate", "--games", "2", "--store", str(tmp / "s2.sqlite"),
                                                          "--output", str(tmp / "s2.sqlite") + journal],
            rf"s2\.sqlite{journal}.*same file as --store")
    add("simulate --plot the store's -wal", ["simulate", "--games", "2", "--store", str(tmp / "s2.sqlite"), "--plot",
                                              str(tmp / "s2.sqlite-wal")], r"same file as --store")
    add("simulate --output in the store's lock folder", ["simulate", "--games", "2", "--store",
                                                         str(tmp / "s2.sqlite"), "--output",
                                                         str(tmp / "s2.sqlite.runs" / "9.lock")], r"folder of --store")
    add("simulate --output /dev/full", ["simulate", "--games", "2", "--store", str(tmp / "s4.sqlite"), "--output",
                                        "/dev/full"], r"/dev/full: no room")
    add("simulate --seed 2**63 with a store", ["simulate", "--games", "1", "--seed", str(2**63), "--store",
                                               str(tmp / "s4.sqlite")], None)
    add("simulate --seed 2**64-2 with a store", ["simulate", "--games", "2", "--seed", str(2**64 - 2), "--store",
                                                 str(tmp / "s4.sqlite")], None)
    add("kc match --seed 2**64-1 with a store", ["kings-corner", "match", "--games", "1", "--workers", "1", "--seed",
                                                 str(2**64 - 1), "--store", str(tmp / "s4.sqlite")], None)
    add("simulate --cluster nonsense", ["simulate", "--games", "2", "--no-store", "--cluster", "not a host:xx"],
        r"cluster|address|not a host")

    # -- runs
    add("runs show abc", ["runs", "show", "abc", "--store", str(tmp / "s2.sqlite")], r"abc|id")
    add("runs show 999", ["runs", "show", "999", "--store", str(tmp / "s2.sqlite")], r"999|no run")
    add("runs show without id", ["runs", "show", "--store", str(tmp / "s2.sqlite")], r"id")
    add("runs frobnicate", ["runs", "frobnicate"], r"frobnicate|invalid choice")
    add("runs --limit 0", ["runs", "--limit", "0", "--store", str(tmp / "s2.sqlite")], r"--limit|at least")
    add("runs --limit -3", ["runs", "--limit", "-3", "--store", str(tmp / "s2.sqlite")], r"--limit|-3")
    add("runs --store garbage", ["runs", "--store", p["store-garbage.sqlite"]], r"store-garbage|database")
    add("runs --store folder", ["runs", "--store", p["a-folder"]], r"folder|directory|store")

    # -- compare
    add("compare nosuch", ["compare", "priority", "nosuch", "--games", "2"], "unknown strategy 'nosuch'")
    add("compare no strategy", ["compare"], r"STRATEGY|required")
    for value, expect in BAD_COUNTS[:5]:
        add(f"compare --games {value}", ["compare", "priority", "greedy", "--games", value], expect)
    add("compare --seed -1", ["compare", "priority", "greedy", "--seed", "-1"], r"-1|at least")
    add("compare --deals bad", ["compare", "priority", "greedy", "--deals", p["deals-bad-deal.txt"]],
        r"line 2: .*'Xx'")
    add("compare --deals binary", ["compare", "priority", "greedy", "--deals", p["binary.bin"]], "UTF-8")
    add("compare --variant nosuch", ["compare", "priority", "greedy", "--variant", "nosuch"], "nosuch")

    # -- solve and hint
    add("solve no source", ["solve"], r"required|--deal")
    add("solve --deal short", ["solve", "--deal", "Ah Kd"], r"2 cards")
    add("solve --deal unknown card", ["solve", "--deal", Position.from_seed(7).deal_string().replace("Ac", "Zz")],
        r"unknown card 'Zz'")
    for value, expect in BAD_SEEDS:
        add(f"solve --seed {value[:12]}", ["solve", "--seed", value], expect)
    for value, expect in (("-1", r"-1|timeout"), ("abc", "abc"), ("0", r"timeout|0"), ("inf", r"inf|timeout"),
                          ("nan", r"nan|timeout"), ("1e999", r"1e999|timeout")):
        add(f"solve --timeout {value}", ["solve", "--seed", "1", "--timeout", value], expect)
    for value, expect in (("0", r"max-states|at least"), ("-4", r"-4|max-states"), ("x", "x"),
                          (str(10**12), "at most 100000000000")):
        add(f"solve --max-states {value}", ["solve", "--seed", "1", "--max-states", value], expect)
    add("solve --seed of 5000 digits", ["solve", "--seed", "9" * 5000], "out of range")
    for args in (["solve", "--deals"], ["solve", "--file"], ["replay"], ["hint"]):
        add(f"{' '.join(args)} /dev/zero", [*args, "/dev/zero"], "longer than 1 MiB")
    for name in ("deal-twice.txt", "pysol-no-talon.txt", "solvitaire-truncated.json", "record-illegal.txt",
                 "binary.bin", "empty.txt", "record-huge-int.json"):
        expect = bad_layouts.get(name, (None, bad_records.get(name)))[1] or "."
        add(f"solve --file {name}", ["solve", "--file", p[name]], expect)
    add("solve --file missing", ["solve", "--file", missing], "no such file")
    for name, expect in (("deals-empty.txt", "no deals"), ("deals-unicode-seed.txt", "line 2"),
                         ("deals-huge-seed.txt", "line 2"), ("binary.bin", "UTF-8")):
        add(f"solve --deals {name}", ["solve", "--deals", p[name]], expect)
    add("solve --deals --output missing folder", ["solve", "--deals", p["deals.txt"], "--output",
                                                  into_missing_folder], r"no-such-folder|folder")
    add("solve --workers 0", ["solve", "--deals", p["deals.txt"], "--workers", "0"], "--workers")
    for flags, expect in VARIANT_FLAGS:
        add(f"solve {' '.join(flags)}", ["solve", "--seed", "1", *flags], expect)
    for name in ("record-illegal.txt", "record-comment.txt", "binary.bin", "record-deep.json", "deal-twice.txt",
                 "record-pass-beyond.txt"):
        expect = bad_records.get(name) or bad_layouts[name][1]
        add(f"hint {name}", ["hint", p[name]], expect)
    add("hint missing", ["hint", missing], "no such file")
    beyond = r"the position is in pass 4, but the variant allows 1 pass"
    add("solve a pass the variant never reaches", ["solve", "--file", p["position-pass-4.txt"], "--variant",
                                                   "seed-002"], beyond)
    add("hint a pass the variant never reaches", ["hint", p["position-pass-4.txt"], "--variant", "vegas1"], beyond)
    add("play a pass the variant never reaches", ["play", "--file", p["position-pass-4.txt"], "--variant",
                                                  "seed-002", "--no-stats", "--no-autosave"], beyond)
    add("simulate a pass the variant never reaches", ["simulate", "--deals", p["position-pass-4.txt"], "--no-store",
                                                      "--variant", "seed-002"], beyond)
    add("solve a position of pass 4 in draw1", ["solve", "--file", p["position-pass-4.txt"], "--variant", "draw1",
                                                "--timeout", "5"], None)
    add("hint --timeout abc", ["hint", p["record.txt"], "--timeout", "abc"], "abc")

    # -- budgets: each has a range, said with the option
    add("hint --samples 10**12", ["hint", p["record.txt"], "--samples", str(10**12)],
        r"--samples must be at most 10000 \(from 1 to 10000\)")
    add("review --samples 10001", ["review", p["record.txt"], "--samples", "10001"], r"--samples .*from 1 to 10000")
    add("review --max-states too many", ["review", p["record.txt"], "--max-states", str(10**12)],
        r"--max-states .*from 1 to 25000000000")
    add("hint --max-states too many", ["hint", p["record.txt"], "--max-states", str(10**12)],
        r"--max-states .*at most 100000000000")
    add("simulate expert samples=10**12", ["simulate", "--games", "1", "--no-store", "--strategy",
                                           f"expert samples={10**12}"], r"samples\) must be at most 10,000")
    add("simulate expert second=10**12", ["simulate", "--games", "1", "--no-store", "--strategy",
                                          f"expert second={10**12}"], r"from 0 to 10,000")

    # -- run ids past what the store keeps, blank names, unreadable files
    store = str(tmp / "s2.sqlite")
    add("simulate --resume 2**63", ["simulate", "--resume", str(2**63), "--store", store], r"--resume .*at most")
    add("solve --resume 10**30", ["solve", "--resume", str(10**30), "--store", store], r"--resume .*at most")
    add("kc match --resume 2**63", ["kings-corner", "match", "--resume", str(2**63), "--store", store],
        r"--resume .*at most")
    add("kc match --games 10**39", ["kings-corner", "match", "--games", "9" * 39, "--no-store"],
        r"--games must be at most 9223372036854775807")
    add("runs show a 101-digit id", ["runs", "show", "9" * 101, "--store", store], r"run id is out of range")
    add("runs --limit 10**30", ["runs", "--limit", str(10**30), "--store", store], r"--limit .*at most")
    add("simulate --strategy ''", ["simulate", "--games", "2", "--no-store", "--strategy", ""], "needs a name")
    add("simulate --strategy ' '", ["simulate", "--games", "2", "--no-store", "--strategy", " "], "needs a name")
    add("deal --file /proc/self/mem", ["deal", "--file", "/proc/self/mem"], r"/proc/self/mem: input/output error")
    add("deal --difficulty alone", ["deal", "--difficulty", "easy"], None)

    # -- no room on standard output, in every command that prints
    no_room = r"standard output: no room left"
    for args in (["deal", "--seed", "1"], ["show", p["deal.txt"]], ["replay", p["record.txt"]],
                 ["solve", "--seed", "1", "--max-states", "2000", "--json"],
                 ["hint", p["record.txt"], "--samples", "4"], ["simulate", "--games", "3", "--no-store"],
                 ["simulate", "--games", "3", "--store", str(tmp / "s4.sqlite")],
                 ["compare", "priority", "greedy", "--games", "3"], ["runs", "--store", store], ["variants"],
                 ["strategies"], ["kings-corner", "match", "--games", "3", "--no-store"],
                 ["kings-corner", "replay", p["hand.txt"]], ["review", p["record.txt"], "--samples", "2"],
                 ["stats", "--store", str(tmp / "s3.sqlite")], ["--help"], ["deal", "--help"], ["--version"]):
        add(f"{' '.join(args[:2])} > /dev/full", args, no_room, stdout="/dev/full")

    # -- kings-corner
    add("kc no subcommand", ["kings-corner"], r"subcommand|command|usage|required")
    add("kc match --players one", ["kings-corner", "match", "--players", "strategic", "--games", "2"],
        r"2 to 6|players")
    add("kc match --players seven", ["kings-corner", "match", "--players", ",".join(["random"] * 7), "--games", "2"],
        r"2 to 6|7")
    add("kc match --players nosuch", ["kings-corner", "match", "--players", "strategic,nosuch", "--games", "2"],
        "nosuch")
    add("kc match --players empty name", ["kings-corner", "match", "--players", "strategic,,greedy", "--games", "2"],
        r"empty|''|players")
    for value, expect in BAD_COUNTS[:6]:
        add(f"kc match --games {value}", ["kings-corner", "match", "--games", value], expect)
    add("kc match --seed -1", ["kings-corner", "match", "--games", "2", "--seed", "-1"], r"-1|at least")
    add("kc match --workers 0", ["kings-corner", "match", "--games", "2", "--workers", "0"], "--workers")
    add("kc match --target 0", ["kings-corner", "match", "--games", "2", "--target", "0"], r"--target|at least")
    add("kc match --target abc", ["kings-corner", "match", "--games", "2", "--target", "abc"], "abc")
    add("kc record --hand -1", ["kings-corner", "record", "--hand", "-1"], r"-1|--hand")
    add("kc record --hand abc", ["kings-corner", "record", "--hand", "abc"], "abc")
    add("kc record --players x", ["kings-corner", "record", "--players", "x,y"], r"'x'|unknown")
    add("kc record --out missing folder", ["kings-corner", "record", "--out", into_missing_folder],
        r"no-such-folder|folder")
    add("kc record --out a folder", ["kings-corner", "record", "--out", p["a-folder"]], r"folder|directory")
    add("kc record --out under a file", ["kings-corner", "record", "--out", str(f["deal.txt"] / "h.txt")],
        r"deal.txt|not a folder|directory")
    bad_hands = {
        "hand-truncated.txt": r"line \d|tag|Deck",
        "hand-bad-players.txt": r"line 2: Players must be a number",
        "hand-no-deck.txt": r"missing tag \[Deck",
        "hand-bad-action.txt": r"line \d+.*(unknown action 'fly away'|expected turn)",
        "hand-bad-tag.txt": r"line \d+: bad tag",
        "hand-tag-twice.txt": r"tag Seed given twice",
        "hand-result.txt": r"Result says 'P9'",
        "hand-truncated.json": r"not JSON|JSON",
        "hand-players-true.json": r"field 'players'",
        "hand-players-float.json": r"field 'players'",
        "hand-players-huge.json": r"JSON record: .*digits",
        "hand-actions-nested.json": r"field 'actions', item 1",
        "hand-deep.json": r"nested too deeply|line 1: bad tag",
        "record.txt": r"record of 'Klondike'|tag|Players",
        "empty.txt": r"missing tag|empty|Players",
        "binary.bin": "UTF-8",
    }
    for name, expect in bad_hands.items():
        add(f"kc replay {name}", ["kings-corner", "replay", p[name]], expect)
    add("kc replay missing", ["kings-corner", "replay", missing], "no such file")
    add("kc replay bom+crlf", ["kings-corner", "replay", p["hand-bom-crlf.txt"]], None)
    add("kc replay json", ["kings-corner", "replay", p["hand.json"]], None)
    add("kc play --opponents 0", ["kings-corner", "play", "--opponents", "0"], r"--opponents|1|at least")
    add("kc play --opponents 9", ["kings-corner", "play", "--opponents", "9"], r"--opponents|9|at most")
    add("kc play --level nosuch", ["kings-corner", "play", "--level", "nosuch"], "nosuch")
    add("kc play --delay -1", ["kings-corner", "play", "--delay", "-1"], r"--delay|-1")
    add("kc play --delay 1e300", ["kings-corner", "play", "--delay", "1e300"], r"--delay: must be at most 60")
    add("play kings-corner --delay 1e300", ["play", "kings-corner", "--delay", "1e300"], r"--delay: must be at most 60")
    add("kc play --save missing folder", ["kings-corner", "play", "--save", into_missing_folder],
        r"no-such-folder|folder")

    # -- play and stats
    add("play --seed abc", ["play", "--seed", "abc"], "abc")
    add("play --file missing", ["play", "--file", missing], "no such file")
    add("play --file binary", ["play", "--file", p["binary.bin"]], "UTF-8")
    add("play --file bad record", ["play", "--file", p["record-illegal.txt"]], r"move 1[345]")
    add("play --file bad deal", ["play", "--file", p["deal-twice.txt"]], "Ah appears twice")
    add("play --save missing folder", ["play", "--seed", "1", "--save", into_missing_folder], r"no-such-folder|folder")
    add("play --variant nosuch", ["play", "--variant", "nosuch"], "nosuch")
    add("play kings-corner --opponents 7", ["play", "kings-corner", "--opponents", "7"], r"--opponents|7")
    add("play --delay x", ["play", "kings-corner", "--delay", "x"], r"--delay|'x'")
    add("stats --store garbage", ["stats", "--store", p["store-garbage.sqlite"]], r"store-garbage|database")
    add("stats --variant nosuch", ["stats", "--variant", "nosuch", "--store", str(tmp / "s3.sqlite")], "nosuch")
    add("stats --passes 0", ["stats", "--passes", "0", "--store", str(tmp / "s3.sqlite")], r"passes")

    # -- Solvitaire's deal JSON and PySol boards of any game (games --deal-file, deal --game --file)
    sol = _solvitaire_files(tmp)
    for name, (game, expect) in {
        "sol-six-piles.json": ("klondike", r"tableau piles: 6 piles, Klondike has 7"),
        "sol-missing-card.json": ("klondike", r": 10S is missing"),
        "sol-twice.json": ("klondike", r": 7C is there twice"),
        "sol-bad-card.json": ("klondike", r"tableau pile 2, card 2: '?Jx'? is not a card"),
        "sol-down-on-up.json": ("klondike", r"tableau pile 4: the face-down 3c lies on a face-up card"),
        "sol-bad-foundation.json": ("klondike", r"foundation 1: 2H cannot begin a foundation of Klondike"),
        "sol-unknown-key.json": ("klondike", r"'?talon'? is not a key of Solvitaire's deals"),
        "sol-cells.json": ("freecell", r"cells: 3 cells, FreeCell has 4"),
        "sol-list.json": ("klondike", r"expected an object with a 'tableau piles' key"),
        "sol-broken.json": ("klondike", r"Solvitaire JSON"),
        "sol-klondike.json": ("golf", r"Golf has no waste"),
    }.items():
        add(f"games --deal-file {name}", ["games", game, "--deal-file", sol[name]], expect)
        if game != "klondike":  # deal --game klondike takes Klondike's own path
            add(f"deal --game --file {name}", ["deal", "--game", game, "--file", sol[name]], expect)
    add("games --deal-file board of another game", ["games", "freecell", "--deal-file", sol["golf-board.txt"]],
        r"FreeCell has no talon")
    add("deal --file Solvitaire JSON with an unknown key", ["deal", "--file", sol["sol-unknown-key.json"]],
        r"'?talon'? is not a key of a Klondike deal")
    add("games --deal-file missing", ["games", "golf", "--deal-file", missing], "no such file")
    add("games --deal-file binary", ["games", "golf", "--deal-file", p["binary.bin"]], "UTF-8")
    add("games --deal and --deal-file", ["games", "golf", "--deal", "1", "--deal-file", sol["golf-board.txt"]],
        r"--deal and --deal-file")
    add("games --format solvitaire without a preset", ["games", "yukon", "--deal", "1", "--format", "solvitaire"],
        r"Solvitaire has no preset of Yukon")
    add("games --deal-file good", ["games", "golf", "--deal-file", sol["sol-golf.json"], "--format", "pysol"], None)
    return cases


def _solvitaire_files(folder: Path) -> dict[str, str]:
    """Solvitaire deal files, each wrong in one way, written to ``folder``."""
    from cardtable.patience import PatienceGame, get
    from cardtable.patience.formats import to_pysol
    from cardtable.patience.solvitaire import to_solvitaire

    good = to_solvitaire(PatienceGame.from_seed(get("klondike"), "pysol:5"))
    changes = {
        "sol-six-piles.json": lambda d: d["tableau piles"].pop(),
        "sol-missing-card.json": lambda d: d["stock"].pop(0),
        "sol-twice.json": lambda d: d["stock"].__setitem__(0, "7C"),
        "sol-bad-card.json": lambda d: d["tableau piles"][1].__setitem__(1, "Jx"),
        "sol-down-on-up.json": lambda d: d["tableau piles"][3].__setitem__(1, "AS"),
        "sol-bad-foundation.json": lambda d: d.__setitem__("foundations", ["2H"]),
        "sol-unknown-key.json": lambda d: d.__setitem__("talon", []),
        "sol-klondike.json": lambda d: None,
    }
    texts = {"sol-cells.json": json.dumps({"tableau piles": [[]] * 8, "cells": ["", "", ""]}),
             "sol-list.json": "[1, 2]", "sol-broken.json": '{"tableau piles": [',
             "sol-golf.json": json.dumps(to_solvitaire(PatienceGame.from_seed(get("golf"), "pysol:2"))),
             "golf-board.txt": to_pysol(PatienceGame.from_seed(get("golf"), "pysol:2"))}
    for name, change in changes.items():
        data = json.loads(json.dumps(good))
        change(data)
        texts[name] = json.dumps(data)
    paths = {}
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
        paths[name] = str(folder / name)
    return paths


# ----- running and judging ---------------------------------------------------------------------------------


def judge(case: Case, status: int | None, stderr: str) -> str:
    """The verdict on one case (see the module documentation)."""
    if status is None:
        return "traceback"  # a hang
    if "Traceback" in stderr or status == 70 or status < 0 or status not in (0, 1, 2, 130, 143):
        return "traceback"
    if case.expect is None:
        return "clean" if status == 0 else "wrongly refused"
    if status == 0:
        return "silently accepted"
    lines = [line for line in stderr.splitlines() if line.strip()]
    if status != 2 or len(lines) != 1 or not ERROR_LINE.fullmatch(lines[0]):
        return "unclear"
    return "clean" if re.search(case.expect, lines[0], re.IGNORECASE) else "unclear"


def run_case(case: Case, folder: Path) -> Outcome:
    env = {**os.environ, "CARDTABLE_DATA": str(folder / "data"), "XDG_DATA_HOME": str(folder / "xdg"),
           "NO_COLOR": "1", "TERM": "dumb", **case.env}
    env.pop("CARDTABLE_DEBUG", None)
    start = time.perf_counter()
    try:
        with open(case.stdout, "w") if case.stdout else contextlib.nullcontext() as out:
            proc = subprocess.run([*COMMAND, *case.args], input=case.stdin, stdout=out or subprocess.PIPE,
                                  stderr=subprocess.PIPE, cwd=folder, env=env, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return Outcome(case, judge(case, None, ""), None, f"(no answer after {TIMEOUT} s)", TIMEOUT)
    stderr = proc.stderr.decode("utf-8", "replace")
    return Outcome(case, judge(case, proc.returncode, stderr), proc.returncode, stderr,
                   time.perf_counter() - start)


VERDICTS = ("clean", "unclear", "silently accepted", "wrongly refused", "traceback")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("-k", metavar="TEXT", help="only the cases whose name holds TEXT")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every case, not only the unclean")
    parser.add_argument("--command", help="the command line to test, split on spaces (default: the cardtable "
                        "script beside this Python)")
    args = parser.parse_args(argv)
    if args.command:
        COMMAND[:] = args.command.split()
    with tempfile.TemporaryDirectory(prefix="cardtable-bad-inputs-") as name:
        folder = Path(name)
        files = make_files(folder)
        cases = [c for c in catalogue(files, folder) if args.k is None or args.k in c.name]
        # One finished run in the store the 'runs' cases read, so that they meet a real store.
        subprocess.run([*COMMAND, "simulate", "--games", "2", "--store", str(folder / "s2.sqlite"), "--no-progress",
                        "--record", "0"], capture_output=True, check=True, cwd=folder)
        counts: Counter[str] = Counter()
        start = time.perf_counter()
        for case in cases:
            outcome = run_case(case, folder)
            counts[outcome.verdict] += 1
            if args.verbose or outcome.verdict != "clean":
                last = outcome.stderr.strip().splitlines()[-1:] or ["(nothing on stderr)"]
                print(f"{outcome.verdict:<17} {case.name:<44} exit {outcome.status}  {last[0][:160]}", flush=True)
    print()
    print(f"{len(cases)} cases in {time.perf_counter() - start:.0f} s")
    for verdict in VERDICTS:
        print(f"  {verdict:<17} {counts[verdict]:>4}")
    return 0 if counts["clean"] == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
