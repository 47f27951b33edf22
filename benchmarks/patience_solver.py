"""The patience solver against the field's solvers, on the same deals, in one run.

FreeCell (Microsoft deals ``--freecell FIRST-LAST``, default 1-1000):
cardtable's search deal by deal against fc-solve's range solver with its
tuned preset (``freecell-solver-range-parallel-solve FIRST LAST 1000 -l
looking-glass``, which finds wins only), and the proof that deal 11982 is
impossible against fc-solve's exhaustive scan (``fc-solve -m -p -t -sel
--method soft-dfs -to 01ABCDE``, every single-card move). Its notes give
cardtable's states a deal and where the whole batch's time goes, step by
step (the deal, the core, the search, the line, the replay, the JSON line).

Black Hole and Golf (PySolFC deals 1 to ``--pysol N``, default 300): against
black-hole-solver's ``black-hole-solve`` (a complete search; docs/peers.md
says how to build it), one process a deal, its verdicts compared deal by
deal. Golf runs under each of the three rule sets both programs have: the
default (nothing on a King, no wrapping), ``golf:queens-on-kings``
(``--queens-on-kings``) and ``golf:queens-on-kings:wrap`` (``--wrap-ranks``).

Baker's Game, Eight Off and Seahaven Towers (PySolFC deals 1 to ``--fc-solve
N``, default 100; fc-solve plays them by PySolFC's numbers): against fc-solve's
exhaustive scan under its own rules for each game (``fc-solve --game
bakers_game|eight_off|seahaven_towers -m -p -t -sel --method soft-dfs -to
01ABCDE``, every single-card move, so that "could not solve" is a proof), one
process a deal, killed at the time bound or at ``--fc-solve-memory`` GiB
(default 4); its verdicts compared deal by deal. ``--fc-solve-games`` picks
some of the three.

Solvitaire (cardtable's deals 1 to ``--solvitaire N``, default 100, of
each game below): against Solvitaire's presets of the same rules, each deal
written as Solvitaire's deal JSON (``solvitaire --type PRESET --classify
DEAL.json``), one process a deal, killed at the same time bound as
cardtable's search (its own ``--timeout`` does not stop it under load); its
verdicts compared deal by deal. ``benchmarks/build_solvitaire.sh`` builds it
as shipped and with its rules parser fixed; the fixed build runs every game
(the fix changes only the Spider games), and ``--solvitaire-shipped`` adds the
shipped build on Spider and Spiderette, whose disagreements are then its bug.
``--solvitaire-games`` picks games by their label (the first column).

cardtable's times are the compiled search's own (CPU seconds around
``Core.solve``), and its memory the bytes its tables took; a game of
Klondike's rules (Klondike's row) is searched by Klondike's own core, as
``solve_game`` and ``solve --game`` hand it over, and its time is the whole
``solve_game`` call (the search, its line written out as the patience
engine's moves and replayed there), its memory the searches' tables; the peers' times
are whole processes (GNU time: wall, CPU, peak resident memory), so a peer's
time a deal includes starting the program (black-hole-solve's and
Solvitaire's: CPU seconds, user and system). Every winning line of cardtable is replayed in the engine after
it is timed (a failed replay stops the run).

With ``--games N``, cardtable alone on deals 1 to N of cardtable's shuffle
of every game of the registry, a row a game.

    python benchmarks/patience_solver.py --freecell 1-1000 --pysol 300 --fc-solve 100 --solvitaire 100
    python benchmarks/patience_solver.py --freecell none --pysol 0 --fc-solve 1000 --solvitaire 0 --timeout 60
    python benchmarks/patience_solver.py --freecell none --pysol 0 --fc-solve 0 --solvitaire 0 --games 10 \
        --max-states 1000000 --timeout 30
    python benchmarks/patience_solver.py --freecell none --pysol 0 --fc-solve 0 --solvitaire 100 --timeout 10 \
        --solvitaire-games black-hole,golf
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from _peers import run_measured, run_program, solve_solvitaire_file, time_program
from _report import add_option, table, write_markdown

from cardtable.cli._options import whole_number
from cardtable.klondike.patience import variant_of
from cardtable.patience import PatienceGame
from cardtable.patience.formats import to_pysol
from cardtable.patience.registry import load, names
from cardtable.patience.solvitaire import to_solvitaire
from cardtable.solver.patience import SEARCHES, PatienceSolveResult, core_of, move_of, replayed_line, solve_game

#: Where docs/peers.md builds black-hole-solver.
BLACK_HOLE_SOLVE = "/root/peers/black-hole-build/black-hole-solve"
#: Golf's rule sets: cardtable's game and black-hole-solve's options.
GOLF_RULES = (("golf", ()), ("golf:queens-on-kings", ("--queens-on-kings",)),
              ("golf:queens-on-kings:wrap", ("--wrap-ranks",)))
#: Where benchmarks/build_solvitaire.sh builds Solvitaire: ``solvitaire`` as
#: shipped and ``solvitaire-fixed``, its rules parser reading "only complete pile moves".
#: ``SOLVITAIRE_BIN`` in the environment names another folder (.ci/run builds it there).
SOLVITAIRE_BIN = os.environ.get("SOLVITAIRE_BIN", "/root/peers/solvitaire/bin")
_RULES = "benchmarks/winnability/"
#: The games compared with Solvitaire: (label, cardtable's game or description
#: file, Solvitaire's preset), each pair under the same rules (docs/patience-solver.md
#: says where a game's default differs from the preset). Eight Off's and Seahaven
#: Towers' deals fill cells: only ``solvitaire-fixed`` reads their "cells" key.
SOLVITAIRE_GAMES = (
    ("black-hole", "black-hole", "black-hole"),
    ("golf", "golf:queens-on-kings", "golf"),
    ("bakers-game", "bakers-game", "bakers-game"),
    ("freecell", "freecell", "free-cell"),
    ("eight-off", "eight-off", "eight-off"),
    ("seahaven-towers", "seahaven-towers", "seahaven-towers"),
    ("streets-and-alleys", "streets-and-alleys", "streets-and-alleys"),
    ("beleaguered-castle", "beleaguered-castle", "beleaguered-castle"),
    ("king-albert", _RULES + "king-albert-solvitaire.json", "king-albert"),
    ("klondike", "klondike:draw-3:foundation-return", "klondike-arbitrary-built-moves"),
    ("accordion", "accordion", "accordion"),
    ("canfield", _RULES + "canfield-solvitaire.json", "canfield-arbitrary-built-moves"),
    ("fan", _RULES + "fan-solvitaire.json", "fan"),
    ("forty-thieves", "forty-thieves", "forty-thieves"),
    ("spiderette", _RULES + "spiderette-solvitaire.json", "spiderette"),
    ("spider", _RULES + "spider-solvitaire.json", "spider"),
)
#: The games compared with fc-solve's exhaustive scan: cardtable's game and fc-solve's ``--game``.
FC_SOLVE_GAMES = (("bakers-game", "bakers_game"), ("eight-off", "eight_off"),
                  ("seahaven-towers", "seahaven_towers"))
#: fc-solve's exhaustive scan: every single-card move, depth first, with the
#: limits shown (-sel), so that "I could not solve this game" is a proof.
FC_SOLVE_EXHAUSTIVE = ("-m", "-p", "-t", "-sel", "--method", "soft-dfs", "-to", "01ABCDE")
#: The presets whose rules the shipped build's parser bug changes.
SOLVITAIRE_PARSER_BUG = ("spider", "spiderette")


@dataclass
class Runs:
    """One solver's runs of one game: verdicts by deal, seconds, memory."""

    solver: str
    game: str
    verdicts: dict[str, str] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)
    peak_kib: int = 0
    states: list[int] = field(default_factory=list)

    def row(self, total_seconds: float | None = None) -> list[object]:
        counts = [sum(v == name for v in self.verdicts.values()) for name in ("won", "unwinnable", "unknown")]
        times = sorted(self.seconds)
        if times:
            p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
            spread = [f"{1000 * statistics.median(times):.2f}", f"{1000 * statistics.mean(times):.2f}",
                      f"{1000 * p90:.2f}", f"{1000 * times[-1]:.1f}"]
        elif total_seconds is not None:
            mean = total_seconds / max(1, len(self.verdicts))
            spread = ["", f"{1000 * mean:.3f} (range, wall)", "", ""]
        else:
            spread = ["", "", "", ""]
        decided = counts[0] + counts[1]
        return [self.game, self.solver, len(self.verdicts), decided, *counts, *spread, f"{self.peak_kib / 1024:.1f}"]


HEADERS = ["game", "solver", "deals", "decided", "won", "unwinnable", "unknown", "median ms", "mean ms", "p90 ms",
           "max ms", "peak MiB"]


def ours(game_name: str, seeds: list[str], max_states: int, timeout: float) -> Runs:
    """cardtable's search on each deal: CPU seconds of the compiled search;
    every winning line replayed in the engine afterwards."""
    description = load(game_name)
    runs = Runs("cardtable", game_name)
    klondike = variant_of(description) is not None
    for seed in seeds:
        game = PatienceGame.from_seed(description, seed)
        if klondike:  # Klondike's rules: solve_game hands the search to Klondike's core and replays the line
            began = time.process_time()
            result = solve_game(game, timeout=timeout, max_states=max_states)
            runs.seconds.append(time.process_time() - began)
            runs.states.append(result.states)
            runs.peak_kib = max(runs.peak_kib, result.memory // 1024)
            runs.verdicts[seed] = result.result
            continue
        core = core_of(game)
        began = time.process_time()
        status, states, codes, memory = core.solve(max_states, timeout, SEARCHES["hybrid"])
        runs.seconds.append(time.process_time() - began)
        runs.states.append(states)
        runs.peak_kib = max(runs.peak_kib, memory // 1024)
        verdict = {"won": "won", "unwinnable": "unwinnable"}.get(status, "unknown")
        if verdict == "won":
            for code in codes:
                game.play(move_of(description, code))
            if not game.is_won():
                raise AssertionError(f"{game_name} {seed}: the winning line does not win in the engine")
        runs.verdicts[seed] = verdict
    return runs


def whole_batch(game_name: str, seeds: list[str], max_states: int, timeout: float) -> tuple[float, dict[str, int]]:
    """CPU seconds of cardtable's whole batch, as ``solve --deals`` runs it:
    each deal dealt from its number, searched and its winning line replayed
    in the engine (``solve_game``), and the count of each verdict."""
    description = load(game_name)
    counts = {"won": 0, "unwinnable": 0, "unknown": 0}
    began = time.process_time()
    for seed in seeds:
        counts[solve_game(PatienceGame.from_seed(description, seed), timeout=timeout,
                          max_states=max_states).result] += 1
    return time.process_time() - began, counts


def batch_parts(game_name: str, seeds: list[str], max_states: int, timeout: float) -> dict[str, float]:
    """Where the whole batch's time goes, CPU milliseconds a deal: the deal
    dealt from its number, the core made from it, the search, the line
    turned into the engine's moves, its replay in the engine and the JSON
    line, each step as ``solve_game`` and ``solve --deals`` take it."""
    description = load(game_name)
    parts = dict.fromkeys(("deal", "core", "search", "line", "replay", "json"), 0.0)
    for seed in seeds:
        t0 = time.process_time()
        game = PatienceGame.from_seed(description, seed)
        t1 = time.process_time()
        core = core_of(game)
        t2 = time.process_time()
        status, states, codes, _memory = core.solve(max_states, timeout, SEARCHES["hybrid"])
        t3 = time.process_time()
        won = status == "won"
        moves = [move_of(description, code) for code in codes]
        t4 = time.process_time()
        line = replayed_line(game, moves) if won else []  # the replay solve_game makes
        if line is None:
            raise AssertionError(f"{game_name} {seed}: the winning line does not win in the engine")
        result = PatienceSolveResult("won" if won else "unknown", line, states)
        t5 = time.process_time()
        json.dumps({"deal": seed, **result.to_dict(), "game": game_name})
        t6 = time.process_time()
        for name, a, b in (("deal", t0, t1), ("core", t1, t2), ("search", t2, t3), ("line", t3, t4),
                           ("replay", t4, t5), ("json", t5, t6)):
            parts[name] += 1000 * (b - a) / len(seeds)
    return parts


def black_hole_peer(binary: str, game_name: str, options: tuple[str, ...], seeds: list[str],
                    timeout: float, folder: str) -> Runs:
    """black-hole-solve on each deal, one process a deal: its CPU seconds
    (user and system, its start included) and peak (GNU time)."""
    description = load(game_name)
    peer_game = "black_hole" if description.name == "black-hole" else "golf"
    runs = Runs("black-hole-solve " + " ".join(("--game", peer_game, *options)), game_name)
    for seed in seeds:
        board = Path(folder) / "board.txt"
        board.write_text(to_pysol(PatienceGame.from_seed(description, seed)) + "\n")
        text, measured, killed, _ = run_measured([binary, "--game", peer_game, *options, str(board)], timeout)
        if measured is None:
            raise RuntimeError("GNU time (/usr/bin/time, Debian's time) is needed to measure black-hole-solve")
        runs.seconds.append(measured.cpu)
        runs.peak_kib = max(runs.peak_kib, measured.peak_kib)
        first = text.strip().splitlines()[0] if text.strip() else ""
        runs.verdicts[seed] = "unknown" if killed else {"Solved!": "won", "Unsolved!": "unwinnable"}.get(first,
                                                                                                           "unknown")
    return runs


def fc_solve_verdict(text: str) -> str:
    """fc-solve's verdict from what its exhaustive scan printed: ``won``,
    ``unwinnable`` (it ran out of moves: with ``-sel`` a limit that stopped
    it says so instead) or ``unknown``."""
    if "This game is solveable" in text:
        return "won"
    if "I could not solve this game" in text:
        return "unwinnable"
    return "unknown"


def fc_solve_command(binary: str, peer_game: str, board: str, memory_gib: float) -> list[str]:
    """fc-solve's exhaustive scan of the board file under its rules for
    ``peer_game``, held to ``memory_gib`` GiB of address space (``prlimit
    --as``, where the machine has it)."""
    limit = ["prlimit", f"--as={int(memory_gib * 2**30)}"] if shutil.which("prlimit") else []
    return [*limit, binary, "--game", peer_game, *FC_SOLVE_EXHAUSTIVE, board]


def fc_solve_peer(binary: str, game_name: str, peer_game: str, seeds: list[str], timeout: float,
                  folder: str, memory_gib: float) -> Runs:
    """fc-solve's exhaustive scan (``--game peer_game``) on each deal, one
    process a deal, killed at ``timeout`` seconds and held to ``memory_gib``
    GiB of address space (``prlimit --as``: its scan keeps every state, and
    on some Seahaven Towers deals grows past 20 GiB in two minutes; a deal
    that reaches the bound crashes it and is counted unknown): its CPU
    seconds (user and system, its start included) and peak (GNU time)."""
    description = load(game_name)
    runs = Runs(f"fc-solve --game {peer_game} soft-dfs -to 01ABCDE", game_name)
    board = Path(folder) / "board.txt"
    for seed in seeds:
        board.write_text(to_pysol(PatienceGame.from_seed(description, seed)) + "\n")
        text, measured, killed, _ = run_measured(fc_solve_command(binary, peer_game, str(board), memory_gib), timeout)
        if measured is None:
            raise RuntimeError("GNU time (/usr/bin/time, Debian's time) is needed to measure fc-solve")
        runs.seconds.append(measured.cpu)
        runs.peak_kib = max(runs.peak_kib, measured.peak_kib)
        runs.verdicts[seed] = "unknown" if killed else fc_solve_verdict(text)
    return runs


def compare_fc_solve_games(folder: str, deals: int, games: list[str], max_states: int,
                           timeout: float, memory_gib: float) -> tuple[list[list[object]], list[str]]:
    """The section of fc-solve's other games: both solvers on PySolFC deals 1
    to ``deals`` of each game in ``games``; the table's rows and the notes."""
    rows: list[list[object]] = []
    notes: list[str] = []
    binary = shutil.which("fc-solve")
    if binary is None:
        return rows, ["fc-solve not found (Debian freecell-solver-bin): its games left out"]
    seeds = [f"pysol:{n}" for n in range(1, deals + 1)]
    for game_name, peer_game in FC_SOLVE_GAMES:
        if game_name not in games:
            continue
        mine = ours(game_name, seeds, max_states, timeout)
        peer = fc_solve_peer(binary, game_name, peer_game, seeds, timeout, folder, memory_gib)
        rows += [mine.row(), peer.row()]
        differ = disagreements(mine, peer)
        decided = [sum(v != "unknown" for v in runs.verdicts.values()) for runs in (mine, peer)]
        both = [i for i, seed in enumerate(seeds) if "unknown" not in (mine.verdicts[seed], peer.verdicts[seed])]
        slowest = max(range(len(seeds)), key=lambda i: peer.seconds[i])
        notes.append(f"{game_name}, PySolFC 1-{deals}, against fc-solve's exhaustive scan: {len(differ)} verdicts "
                     f"differ" + (f" ({', '.join(differ[:10])})" if differ else "")
                     + f"; decided {decided[0]} / {decided[1]}; CPU seconds in all cardtable "
                       f"{sum(mine.seconds):.3f}, fc-solve {sum(peer.seconds):.3f} (on the {len(both)} deals both "
                       f"decided {sum(mine.seconds[i] for i in both):.3f} and {sum(peer.seconds[i] for i in both):.3f})"
                       f"; fc-solve's slowest deal {seeds[slowest]} ({peer.verdicts[seeds[slowest]]}, "
                       f"{peer.seconds[slowest]:.3f} s)")
        print(notes[-1], file=sys.stderr, flush=True)
    return rows, notes


def solvitaire_peer(binary: str, game_name: str, preset: str, seeds: list[str], timeout: float,
                    folder: str) -> Runs:
    """Solvitaire's ``preset`` on each deal of ``game_name``, one process a
    deal, killed at ``timeout`` seconds: its CPU seconds and peak (GNU time)."""
    description = load(game_name)
    runs = Runs(f"solvitaire{'-fixed' * binary.endswith('-fixed')} --type {preset}", game_name)
    deal = Path(folder) / "deal.json"
    for seed in seeds:
        deal.write_text(json.dumps(to_solvitaire(PatienceGame.from_seed(description, seed), preset)) + "\n")
        run = solve_solvitaire_file(binary, preset, str(deal), timeout)
        if run.cpu_seconds is None:
            raise RuntimeError("GNU time (/usr/bin/time, Debian's time) is needed to measure Solvitaire")
        if not run.killed and run.status != 0:
            raise RuntimeError(f"{preset} deal {seed}: Solvitaire failed (exit status {run.status}): "
                               f"{run.output.strip()[-300:]}")
        if not run.killed and not run.output.strip():  # it says why on its standard error, with status 0
            raise RuntimeError(f"{preset} deal {seed}: Solvitaire printed no verdict: it refused the deal "
                               f"file (run {binary} --type {preset} on it to see why)")
        runs.seconds.append(run.cpu_seconds)
        runs.peak_kib = max(runs.peak_kib, run.peak_kib or 0)
        runs.verdicts[seed] = run.result
    return runs


def compare_solvitaire(folder: str, deals: int, games: list[str], shipped: bool, max_states: int,
                       timeout: float) -> tuple[list[list[object]], list[str]]:
    """The Solvitaire section: both solvers on deals 1 to ``deals`` of each
    game labelled in ``games``; the table's rows and the notes."""
    rows: list[list[object]] = []
    notes: list[str] = []
    fixed = os.path.join(SOLVITAIRE_BIN, "solvitaire-fixed")
    if not os.path.exists(fixed):
        return rows, [f"Solvitaire not found at {fixed} (benchmarks/build_solvitaire.sh builds it): left out"]
    seeds = [str(n) for n in range(1, deals + 1)]
    for label, game_name, preset in SOLVITAIRE_GAMES:
        if label not in games:
            continue
        mine = ours(game_name, seeds, max_states, timeout)
        peers = [solvitaire_peer(fixed, game_name, preset, seeds, timeout, folder)]
        if shipped and preset in SOLVITAIRE_PARSER_BUG:
            peers.append(solvitaire_peer(os.path.join(SOLVITAIRE_BIN, "solvitaire"), game_name, preset, seeds,
                                         timeout, folder))
        for runs in (mine, *peers):
            runs.game = label
        rows.append(mine.row())
        for peer in peers:
            rows.append(peer.row())
            differ = disagreements(mine, peer)
            decided = [sum(v != "unknown" for v in runs.verdicts.values()) for runs in (mine, peer)]
            ratio = statistics.mean(peer.seconds) / max(statistics.mean(mine.seconds), 1e-9)
            both = [i for i, seed in enumerate(seeds) if "unknown" not in (mine.verdicts[seed], peer.verdicts[seed])]
            both_ratio = (f"{sum(peer.seconds[i] for i in both) / max(sum(mine.seconds[i] for i in both), 1e-9):.2f}"
                          if both else "-")
            notes.append(f"{label} ({game_name} / {peer.solver}), deals 1-{deals}: {len(differ)} verdicts differ"
                         + (f" ({', '.join(differ[:10])})" if differ else "")
                         + f"; decided {decided[0]} / {decided[1]}; mean time a deal Solvitaire / cardtable = "
                           f"{ratio:.2f}, on the {len(both)} deals both decided {both_ratio}")
            print(notes[-1], file=sys.stderr, flush=True)
    return rows, notes


GAME_HEADERS = ["game", "deals", "won", "unwinnable", "unknown", "median ms", "mean ms", "max ms", "peak MiB",
                "states"]


def every_game(deals: int, max_states: int, timeout: float, only: list[str] | None = None) -> str:
    """cardtable alone on deals 1 to ``deals`` of every game of the registry (or of ``only``), a row a game
    (with the states of all its deals: the same on any machine when no deal hits the time bound)."""
    rows: list[list[object]] = []
    for name in only or names():
        runs = ours(name, [str(n) for n in range(1, deals + 1)], max_states, timeout)
        row = runs.row()
        rows.append([name, row[2], *row[4:9], row[10], row[11], f"{sum(runs.states):,}"])
    return table(GAME_HEADERS, rows)


def disagreements(a: Runs, b: Runs) -> list[str]:
    """The deals both decided, with different verdicts."""
    return [seed for seed, verdict in a.verdicts.items()
            if verdict != "unknown" and b.verdicts.get(seed, "unknown") not in ("unknown", verdict)]


def _gib(text: str) -> float:
    """A size in GiB above 0 (argparse's type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} GiB: fc-solve needs some memory to start")
    return value


def _picked(parser: argparse.ArgumentParser, option: str, text: str, labels: list[str]) -> list[str]:
    """The games an ``A,B`` option names, each one of ``labels``; a name that
    is not one stops the run with the usage error that names it."""
    games = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in games if name not in labels]
    if unknown:
        parser.error(f"{option}: no game {unknown[0]!r} (the games: {', '.join(labels)})")
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--freecell", default="1-1000", metavar="FIRST-LAST",
                        help="Microsoft deals (default 1-1000; none leaves fc-solve out)")
    parser.add_argument("--freecell-batch-only", action="store_true", help="FreeCell: time only the whole batch "
                        "(one pass, as solve --deals runs it), not the search alone too (for long ranges)")
    parser.add_argument("--pysol", type=whole_number(0, "--pysol"),
                        default=300, metavar="N", help="PySolFC deals 1 to N of Black Hole "
                        "and Golf (default 300; 0 leaves them out)")
    parser.add_argument("--max-states", type=int, default=5_000_000, help="cardtable's budget a deal")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a deal, for every solver")
    parser.add_argument("--black-hole-solve", default=BLACK_HOLE_SOLVE, metavar="PATH")
    parser.add_argument("--games", type=whole_number(0, "--games"),
                        default=0, metavar="N", help="cardtable alone on deals 1 to N of "
                        "every game of the registry (default 0: none)")
    parser.add_argument("--only", default="", metavar="A,B", help="with --games, only these games of the "
                        "registry (names or name:option variants)")
    parser.add_argument("--fc-solve", type=whole_number(0, "--fc-solve"),
                        default=100, metavar="N", help="PySolFC deals 1 to N of Baker's "
                        "Game, Eight Off and Seahaven Towers against fc-solve's exhaustive scan (default 100; 0 "
                        "leaves them out)")
    parser.add_argument("--fc-solve-games", default=",".join(name for name, _ in FC_SOLVE_GAMES), metavar="A,B",
                        help="the games against fc-solve's exhaustive scan (default all: "
                        + ", ".join(name for name, _ in FC_SOLVE_GAMES) + ")")
    parser.add_argument("--fc-solve-memory", type=_gib, default=4.0, metavar="GIB", help="the address space "
                        "each fc-solve process may take, in GiB (default 4: its exhaustive scan keeps every state)")
    parser.add_argument("--solvitaire", type=whole_number(0, "--solvitaire"),
                        default=100, metavar="N", help="cardtable's deals 1 to N of "
                        "each game against Solvitaire (default 100; 0 leaves them out)")
    parser.add_argument("--solvitaire-games", default=",".join(label for label, _, _ in SOLVITAIRE_GAMES),
                        metavar="A,B", help="the games against Solvitaire (default all: "
                        + ", ".join(label for label, _, _ in SOLVITAIRE_GAMES) + ")")
    parser.add_argument("--solvitaire-shipped", action="store_true", help="also run Solvitaire as shipped on "
                        "Spider and Spiderette (its parser bug changes their rules)")
    add_option(parser)
    args = parser.parse_args(argv)
    rows: list[list[object]] = []
    notes: list[str] = []

    games = _picked(parser, "--solvitaire-games", args.solvitaire_games, [label for label, _, _ in SOLVITAIRE_GAMES])
    fc_games = _picked(parser, "--fc-solve-games", args.fc_solve_games, [game for game, _ in FC_SOLVE_GAMES])
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    for name in only:
        try:
            load(name)
        except ValueError as error:
            parser.error(f"--only: {error}")
    if args.freecell != "none":
        compare_fc_solve(args, rows, notes)
    run_black_hole(args, rows, notes)
    sections: list[tuple[list[list[object]], list[str]]] = []
    with tempfile.TemporaryDirectory() as folder:
        if args.fc_solve:
            sections.append(compare_fc_solve_games(folder, args.fc_solve, fc_games, args.max_states, args.timeout,
                                                   args.fc_solve_memory))
        if args.solvitaire:
            sections.append(compare_solvitaire(folder, args.solvitaire, games, args.solvitaire_shipped,
                                               args.max_states, args.timeout))
    for more_rows, more_notes in sections:
        rows += more_rows
        notes += more_notes

    text = table(HEADERS, rows) if rows else ""
    if args.games:
        text += ("\n\n" if text else "") + every_game(args.games, args.max_states, args.timeout, only)
    print(text)
    for note in notes:
        print(note)
    if args.markdown:
        write_markdown(args.markdown, "## The patience solver and its peers", text + "\n\n" + "\n".join(
            f"- {note}" for note in notes), argv=sys.argv)
    return 0


def compare_fc_solve(args: argparse.Namespace, rows: list[list[object]], notes: list[str]) -> None:
    """The FreeCell section: Microsoft deals against fc-solve, and deal 11982's proof."""
    first, last = (int(part) for part in args.freecell.split("-"))
    seeds = [f"ms:{n}" for n in range(first, last + 1)]
    mine = None if args.freecell_batch_only else ours("freecell", seeds, args.max_states, args.timeout)
    if mine is not None:
        rows.append(mine.row())
        states = sorted(mine.states)
        notes.append(f"FreeCell MS {first}-{last}: states a deal, mean {statistics.mean(states):,.0f}, median "
                     f"{statistics.median(states):,.0f}, p90 {states[min(len(states) - 1, int(0.9 * len(states)))]:,}, "
                     f"max {states[-1]:,}")
        parts = batch_parts("freecell", seeds, args.max_states, args.timeout)
        notes.append(f"FreeCell MS {first}-{last}, the whole batch step by step, CPU ms a deal: "
                     + ", ".join(f"{name} {ms:.3f}" for name, ms in parts.items()))
    whole, counts = whole_batch("freecell", seeds, args.max_states, args.timeout)
    rows.append(["freecell", "cardtable, whole batch", len(seeds), counts["won"] + counts["unwinnable"],
                 counts["won"], counts["unwinnable"], counts["unknown"], "", f"{1000 * whole / len(seeds):.3f}", "",
                 "", ""])
    range_solver = shutil.which("freecell-solver-range-parallel-solve")
    if range_solver:
        measured, _ = time_program([range_solver, str(first), str(last), "1000", "-l", "looking-glass"],
                                   args.timeout * len(seeds))
        if measured is not None:
            peer = Runs("fc-solve range -l looking-glass (wins only)", "freecell",
                        {seed: "won" for seed in seeds}, [], measured.peak_kib)
            row = peer.row(measured.wall)  # its CPU time is rounded to 10 ms: the wall time a deal, start included
            row[3:7] = ["", "", "", ""]  # the range solver prints no verdict a deal
            rows.append(row)
            if mine is not None:
                ours_cpu = sum(mine.seconds)
                notes.append(f"FreeCell MS {first}-{last}: cardtable {ours_cpu:.3f} s CPU in all, the range solver "
                             f"{measured.cpu:.3f} s CPU ({measured.wall:.3f} s wall): cardtable / fc-solve = "
                             f"{ours_cpu / max(measured.cpu, 1e-9):.1f}")
            notes.append(f"FreeCell MS {first}-{last}, the whole batch as `solve --deals` runs it (each deal dealt, "
                         f"searched and its line replayed in the engine): {counts['won']:,} won, "
                         f"{counts['unwinnable']:,} unwinnable, {counts['unknown']:,} unknown, {whole:.3f} s CPU, "
                         f"{1000 * whole / len(seeds):.3f} ms a deal; / fc-solve's CPU = "
                         f"{whole / max(measured.cpu, 1e-9):.1f}, / its wall = {whole / max(measured.wall, 1e-9):.1f}")
    proof = ours("freecell", ["ms:11982"], args.max_states, args.timeout)
    rows.append(proof.row())
    fc_solve = shutil.which("fc-solve")
    if fc_solve and shutil.which("make-microsoft-freecell-board"):
        with tempfile.TemporaryDirectory() as folder:
            board = Path(folder) / "11982.txt"
            board.write_text(to_pysol(PatienceGame.from_seed(load("freecell"), "ms:11982")) + "\n")
            command = [fc_solve, *FC_SOLVE_EXHAUSTIVE, str(board)]
            measured, _ = time_program(command, args.timeout)
            text, _, _, _, _ = run_program(command, args.timeout, gnu_time=False)
        if measured is not None:
            verdict = fc_solve_verdict(text)
            peer = Runs("fc-solve soft-dfs -to 01ABCDE", "freecell", {"ms:11982": verdict}, [measured.cpu],
                        measured.peak_kib)
            rows.append(peer.row())
            notes.append(f"FreeCell MS 11982: cardtable {proof.verdicts['ms:11982']} in {proof.seconds[0]:.3f} s CPU, "
                         f"fc-solve's exhaustive scan {verdict} in {measured.cpu:.3f} s CPU: cardtable / fc-solve = "
                         f"{proof.seconds[0] / max(measured.cpu, 1e-9):.1f}")



def run_black_hole(args: argparse.Namespace, rows: list[list[object]], notes: list[str]) -> None:
    """The Black Hole and Golf section, against black-hole-solve."""
    binary = args.black_hole_solve
    if args.pysol and os.path.exists(binary):
        seeds = [f"pysol:{n}" for n in range(1, args.pysol + 1)]
        with tempfile.TemporaryDirectory() as folder:
            for name, options in (("black-hole", ()), *GOLF_RULES):
                mine = ours(name, seeds, args.max_states, args.timeout)
                peer = black_hole_peer(binary, name, options, seeds, args.timeout, folder)
                rows += [mine.row(), peer.row()]
                differ = disagreements(mine, peer)
                notes.append(f"{name}, PySolFC 1-{args.pysol}: {len(differ)} verdicts differ"
                             + (f" ({', '.join(differ[:10])})" if differ else "")
                             + f"; CPU seconds in all cardtable {sum(mine.seconds):.3f}, black-hole-solve "
                               f"{sum(peer.seconds):.3f}: cardtable / black-hole-solve = "
                               f"{sum(mine.seconds) / max(sum(peer.seconds), 1e-9):.3f}")
    elif args.pysol:
        notes.append(f"black-hole-solve not found at {binary} (docs/peers.md builds it): Black Hole and Golf left out")


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("patience_solver.py: stopped (the notes above, a game each, are complete; no table was written)",
              file=sys.stderr)
        raise SystemExit(130) from None
