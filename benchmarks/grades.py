"""How hard the graded deals are: the full-strength ``expert``'s win rate per grade.

    python benchmarks/grades.py [--variant seed-001] [--deals 1000] [--first-seed 1] [--jobs 2]
                                [--journal FILE] [--seconds S] [--expert 'expert']
                                [--markdown docs/results/grades.md]

Deals are graded in seed order from ``--first-seed`` (:func:`cardtable.sim.grade.grade_seed`:
easy, medium, hard, expert, or no grade when the solver cannot prove the deal
winnable within its budget). The full-strength expert (its defaults: 48 guesses
a decision, 20,000 states a guess, seeded with the deal's seed) then plays each
graded deal whose grade has fewer than ``--deals`` games, until every grade
has them. Whether a deal is played depends only on the deals graded before
it, never on how the expert fares on it, so each grade's games are a fair
sample of that grade. The table gives, per grade, the share of graded deals
it holds, the deals played, the expert's win rate with its 95% Wilson
interval, the mean solver states of the proofs and the CPU seconds a game.

A full run is hours of CPU (about 8,000 deals graded at 0.8 CPU s each and
4,000 expert games at about 3 s each, for 1,000 a grade), so it runs on
``--jobs`` processes and keeps a journal (``--journal``: one JSON line a
deal, appended as each finishes). A run stopped by Ctrl-C, by ``--seconds``
(no new deal after that many wall seconds) or by a killed process is taken
up again by the same command: the deals in the journal are not played
again. The journal's first line names the rules, the expert and the commit;
it is refused when the code that grades or plays has changed since.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any, NoReturn

import _report

from cardtable.bots.klondike import make_player
from cardtable.game import play_out
from cardtable.klondike import KlondikeGame, Position, Variant
from cardtable.sim.grade import EXPERT_GAMES, GRADE_STATE_BUDGET, HARD_SEARCH, LEVELS, QUICK_EXPERT, grade_seed
from cardtable.stats import wilson

_REPOSITORY = Path(__file__).resolve().parents[1]
#: The code a grade or an expert game depends on: a journal made before a
#: change to any of these is not continued.
_PLAYING_CODE = ("cardtable/bots", "cardtable/solver", "cardtable/sim/grade.py", "cardtable/klondike",
                 "cardtable/cards.py", "cardtable/game.py")


def _play_expert(spec: str, seed: int, variant: Variant) -> tuple[bool, float]:
    """One game of the expert on the deal of ``seed``: won, and CPU seconds."""
    player = make_player(spec)
    player.new_game(seed)
    start = time.process_time()
    won = play_out(KlondikeGame(Position.from_seed(seed), variant), [player]).is_won()
    return won, time.process_time() - start


def _deal(seed: int, variant_name: str, expert: str, open_levels: frozenset[str]) -> dict[str, Any]:
    """Grade the deal of ``seed`` and, when its grade is in ``open_levels``,
    let the expert play it: the journal's line for it."""
    variant = Variant.preset(variant_name)
    start = time.process_time()
    grade = grade_seed(seed, variant)
    row: dict[str, Any] = {"seed": seed, "grade": None if grade is None else grade.to_dict(),
                           "grade_cpu": round(time.process_time() - start, 3)}
    if grade is not None and grade.level in open_levels:
        won, seconds = _play_expert(expert, seed, variant)
        row.update(won=won, cpu=round(seconds, 3))
    return row


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=_REPOSITORY, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _changed_since(commit: str) -> list[str]:
    """The files of :data:`_PLAYING_CODE` that differ from ``commit`` (in the working tree too)."""
    try:
        done = subprocess.run(["git", "diff", "--name-only", commit, "--", *_PLAYING_CODE], cwd=_REPOSITORY,
                              capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return ["(no git checkout to compare with)"]
    return done.stdout.split()


def _header(args: argparse.Namespace) -> dict[str, Any]:
    return {"variant": args.variant, "expert": args.expert, "first_seed": args.first_seed,
            "grader": {"state_budget": GRADE_STATE_BUDGET, "hard_search": HARD_SEARCH, "expert_games": EXPERT_GAMES,
                       "quick_expert": QUICK_EXPERT}}


def _refuse(message: str) -> NoReturn:
    print(message, file=sys.stderr)
    raise SystemExit(2)


def _read_journal(path: Path, header: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The deals of the journal at ``path`` (none when there is none yet); exits 2 when it belongs to
    another run. A line cut short by a killed process is dropped (and cut from the file)."""
    if not path.exists():
        return {}
    text = path.read_bytes()
    lines = text.split(b"\n")
    whole = text.endswith(b"\n")
    if not whole:  # the last line was being written when the run was killed
        with path.open("r+b") as file:
            file.truncate(len(text) - len(lines[-1]))
    lines = [line for line in lines[:-1] if line.strip()]
    if not lines:
        return {}
    try:
        first = json.loads(lines[0])
        rows = {int(row["seed"]): row for row in map(json.loads, lines[1:])}
    except (ValueError, KeyError, TypeError) as error:
        _refuse(f"grades.py: {path}: not a journal of this benchmark ({error})")
    mine = {key: first.get(key) for key in header}
    if mine != json.loads(json.dumps(header)):
        _refuse(f"grades.py: {path} is the journal of another run ({json.dumps(mine)}); "
                 "give another --journal or the same options")
    changed = _changed_since(str(first.get("commit")))
    if changed:
        _refuse(f"grades.py: {path} was made at commit {str(first.get('commit'))[:10]}; the code that grades or "
                 f"plays has changed since ({', '.join(changed[:5])}): start a new journal")
    return rows


def _seeds(rows: dict[int, dict[str, Any]], first: int) -> Iterator[int]:
    """The seeds still to do: the gaps below the journal's last seed, then the ones after it."""
    last = max(rows, default=first - 1)
    yield from (seed for seed in range(first, last + 1) if seed not in rows)
    yield from count(last + 1)


def _open_levels(rows: dict[int, dict[str, Any]], deals: int) -> frozenset[str]:
    played = {level: 0 for level in LEVELS}
    for row in rows.values():
        if "won" in row:
            played[row["grade"]["level"]] += 1
    return frozenset(level for level in LEVELS if played[level] < deals)


def _table(rows: dict[int, dict[str, Any]], args: argparse.Namespace, variant: Variant) -> tuple[str, str]:
    graded = {level: 0 for level in LEVELS}
    ungraded = 0
    games: dict[str, list[dict[str, Any]]] = {level: [] for level in LEVELS}
    for seed in sorted(rows):
        row = rows[seed]
        if row["grade"] is None:
            ungraded += 1
            continue
        level = row["grade"]["level"]
        graded[level] += 1
        if "won" in row and len(games[level]) < args.deals:  # each grade's first games in seed order
            games[level].append(row)
    total_graded = sum(graded.values())
    table_rows = []
    for level in LEVELS:
        played = games[level]
        wins = sum(bool(row["won"]) for row in played)
        low, high = wilson(wins, len(played))
        rate = f"{wins / len(played):.1%} ({low:.1%}-{high:.1%})" if played else "-"
        states = sum(row["grade"]["solver_states"] for row in played) / len(played) if played else 0
        cpu = sum(row["cpu"] for row in played) / len(played) if played else 0
        table_rows.append([level, f"{graded[level] / total_graded:.0%}" if total_graded else "-", len(played),
                           f"{wins}", rate, f"{states:,.0f}", f"{cpu:.1f}"])
    body = _report.table(["grade", "share of graded deals", "deals played", "expert wins",
                          "expert win rate (95% interval)", "mean solver states", "CPU s a game"], table_rows)
    grading = sum(row["grade_cpu"] for row in rows.values()) / max(len(rows), 1)
    seeds = f"{min(rows)}-{max(rows)}" if rows else "none"
    summary = (f"{variant.name}: {variant.describe()}. Seeds {seeds} graded: {total_graded:,} graded, "
               f"{ungraded:,} not proven winnable within the grading budget (no grade); grading took "
               f"{grading:.2f} CPU s a deal. Expert: `{args.expert}`.")
    short = [level for level in LEVELS if len(games[level]) < args.deals]
    if short:
        summary += (f" Not finished: {', '.join(short)} {'has' if len(short) == 1 else 'have'} fewer than "
                    f"{args.deals:,} games (run the same command again to go on).")
    return summary, body


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="seed-001", help="the rules (a preset name; default seed-001, draw 3)")
    parser.add_argument("--deals", type=int, default=1000, help="expert games per grade (default 1000)")
    parser.add_argument("--first-seed", type=int, default=1, help="the first deal seed graded")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes grading and playing at once (default: one a CPU)")
    parser.add_argument("--journal", type=Path, default=None,
                        help="the journal a run keeps and goes on from (default: benchmarks/results/"
                             "grades-VARIANT-SEED.jsonl)")
    parser.add_argument("--seconds", type=float, default=None, help="start no new deal after this many wall seconds")
    parser.add_argument("--expert", default="expert", help="the expert's spec (default: its full strength)")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    if args.deals < 1 or args.jobs < 1 or args.first_seed < 0:
        parser.error("--deals and --jobs must be at least 1, --first-seed at least 0")
    try:
        variant = Variant.preset(args.variant)
        make_player(args.expert)
    except Exception as error:  # a bad name, said in one line
        parser.error(str(error))
    journal = args.journal or _REPOSITORY / "benchmarks" / "results" / f"grades-{args.variant}-{args.first_seed}.jsonl"
    header = _header(args)
    rows = _read_journal(journal, header)
    if not journal.exists() or journal.stat().st_size == 0:
        journal.parent.mkdir(parents=True, exist_ok=True)
        journal.write_text(json.dumps({**header, "commit": _commit()}) + "\n", encoding="utf-8")
    print(f"journal {journal}: {len(rows):,} deals done before this run", flush=True)
    began = time.monotonic()
    seeds = _seeds(rows, args.first_seed)
    in_flight: dict[concurrent.futures.Future[dict[str, Any]], int] = {}
    with journal.open("a", encoding="utf-8") as out, \
            concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        try:
            while True:
                open_levels = _open_levels(rows, args.deals)
                out_of_time = args.seconds is not None and time.monotonic() - began > args.seconds
                while open_levels and not out_of_time and len(in_flight) < args.jobs:
                    seed = next(seeds)
                    in_flight[pool.submit(_deal, seed, args.variant, args.expert, open_levels)] = seed
                if not in_flight:
                    break
                done, _ = concurrent.futures.wait(in_flight, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    del in_flight[future]
                    row = future.result()
                    rows[row["seed"]] = row
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    played = {level: 0 for level in LEVELS}
                    for kept in rows.values():
                        if "won" in kept:
                            played[kept["grade"]["level"]] += 1
                    grade = row["grade"]
                    what = "no grade" if grade is None else f"{grade['level']} ({grade['points']} points, " \
                        f"{grade['solver_states']} states)"
                    if "won" in row:
                        what += f", expert {'won' if row['won'] else 'lost'} in {row['cpu']:.1f} s"
                    print(f"seed {row['seed']}: {what}; " + ", ".join(f"{level} {played[level]}"
                                                                      for level in LEVELS), flush=True)
        except KeyboardInterrupt:
            for future in in_flight:
                future.cancel()
            print(f"\nstopped: {len(rows):,} deals in {journal}; the same command goes on", file=sys.stderr)
            pool.shutdown(wait=False, cancel_futures=True)
            raise SystemExit(130) from None
    summary, body = _table(rows, args, variant)
    print()
    print(summary)
    print()
    print(body)
    if args.markdown:
        _report.write_markdown(args.markdown, "## The expert's win rate per grade", summary + "\n\n" + body,
                               note=args.markdown_note)


if __name__ == "__main__":
    main()
