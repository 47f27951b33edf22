"""The path rules against none: the same verdicts on many deals of every Klondike variant.

    python benchmarks/solver_path_rules.py [--deals 2000] [--start 9200000] [--max-states 50000]
                                           [--variants d3-pNone-king-r1 ...] [--jobs 2] [--jsonl RUN.jsonl]

Klondike's main depth-first search (:class:`cardtable.solver._ccore.Search`,
the rules of ``solve``'s default: the wide, fill and pair rules) runs on each
deal twice, with the path rules (``Search(..., path=True)``: the notes in
``cardtable/solver/klondike.h`` prove that they keep every win and every
state a proof of loss searches) and without them, each up to ``--max-states``
states. A deal is *decided* when both searches end within the budget; on
every decided deal the two must agree:

- the same verdict (won or unwinnable);
- on a loss, the same states searched (the rules leave out only moves to
  states the search meets anyway) and no more moves tried;
- on a win, the line the search with the rules found replays to a won game
  in the rules engine (:func:`cardtable.solver.search.line_moves`, played move by
  move in :class:`cardtable.klondike.KlondikeGame`).

A deal one search or both leave undecided is counted as *unknown* (which
side says so) and compared no further: the budget bounds the time a deal
takes, and the unknowns are reported, not hidden. The variants are the 24 the
core plays: draw 1 or 3, unlimited passes or 1 or 3, kings only or any card
in an empty pile, foundation return or not; each is named
``d{draw}-p{passes}-{empty}-r{return}`` (``d3-pNone-king-r1``: draw 3,
unlimited passes, kings only, foundation return).

For each variant the report gives the deals, how many were decided (won,
unwinnable), the unknowns, the disagreements (each listed: there should be
none) and, over the decided losses, the moves tried a state with and without
the rules. ``--jsonl`` writes one line a deal as it goes and, given again,
skips the deals the file already has, so an interrupted run resumes where
it stopped; the report covers every deal of the file in the range asked.
``--jobs`` searches deals in that many processes at once. The exit status
is 1 when any deal disagrees, 2 on bad options.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
from collections.abc import Iterable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, TextIO

import _report

from cardtable.errors import UsageError
from cardtable.klondike import KlondikeGame, Position, Variant
from cardtable.solver import _ccore
from cardtable.solver._state import params, state_bytes
from cardtable.solver.search import _START_BITS, _table_bits, line_moves

#: Every variant the core plays, in the order the report lists them.
VARIANTS = Variant.every()

#: A search's verdict by its core status: "won", "unwinnable", or "unknown" (out of budget).
VERDICTS = {_ccore.WON: "won", _ccore.EXHAUSTED: "unwinnable"}


def name(variant: Variant) -> str:
    """The variant's name in the report: ``d3-pNone-king-r1``."""
    return f"d{variant.draw}-p{variant.passes}-{variant.empty}-r{int(variant.foundation_return)}"


@dataclass(frozen=True)
class Deal:
    """One deal searched with the path rules and without them."""

    variant: str
    seed: int
    verdicts: tuple[str, str]  # with the rules, without them: "won", "unwinnable" or "unknown"
    states: tuple[int, int]
    tried: tuple[int, int]
    replayed: bool | None  # the line found with the rules replays to a win (None: no win to replay)

    @property
    def decided(self) -> bool:
        return "unknown" not in self.verdicts

    def disagreement(self) -> str:
        """Why the two searches disagree on this deal, or "" when they agree (or it is undecided)."""
        if not self.decided:
            return ""
        got, want = self.verdicts
        if got != want:
            return f"{got} with the rules, {want} without"
        if got == "won":
            return "" if self.replayed else "the line found with the rules does not win in the rules engine"
        if self.states[0] != self.states[1]:
            return f"a loss searched in {self.states[0]:,} states with the rules, {self.states[1]:,} without"
        if self.tried[0] > self.tried[1]:
            return f"more moves tried with the rules ({self.tried[0]:,}) than without ({self.tried[1]:,})"
        return ""

    def row(self) -> dict[str, object]:
        return {"variant": self.variant, "seed": self.seed, "verdicts": list(self.verdicts),
                "states": list(self.states), "tried": list(self.tried), "replayed": self.replayed}


def check_deal(variant: Variant, seed: int, budget: int) -> Deal:
    """Deal ``seed`` under ``variant`` searched with and without the path rules, up to ``budget`` states each."""
    position = Position.from_seed(seed)
    state = state_bytes(position)
    v = params(variant, wide=True)
    bits = _table_bits(budget)
    searches = [_ccore.Search(state, v, bits, min(bits, _START_BITS), path=path) for path in (True, False)]
    statuses = [int(search.run(budget)) for search in searches]
    verdicts = tuple(VERDICTS.get(status, "unknown") for status in statuses)
    replayed = None
    if verdicts[0] == "won":
        game = KlondikeGame(position, variant)
        replay = game.clone()
        try:
            for move in line_moves(game, list(searches[0].path()), wide=True):
                replay.play(move)
            replayed = replay.is_won()
        except (AssertionError, ValueError):  # a move the rules do not allow (a solver bug)
            replayed = False
    return Deal(name(variant), seed, (verdicts[0], verdicts[1]), (searches[0].states, searches[1].states),
                (searches[0].tried, searches[1].tried), replayed)


def _pair(row: Mapping[str, object], key: str, kind: type, where: str) -> tuple[Any, Any]:
    """Field ``key`` of ``row``: a pair (with the rules, without them) of values of ``kind``."""
    pair = row.get(key)
    if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(x, kind) for x in pair):
        raise UsageError(f"{where}: {key} must be a pair of {kind.__name__} (with the rules, without them)")
    return pair[0], pair[1]


def read_done(path: str) -> dict[tuple[str, int], Deal]:
    """The deals of a ``--jsonl`` file, by variant and seed (a file not yet made has none)."""
    done: dict[tuple[str, int], Deal] = {}
    if not os.path.exists(path):
        return done
    for number, row in _report.json_lines(path):
        where = f"{path}, line {number}"
        _report.check_fields(row, {"variant": str, "seed": int}, where)
        replayed = row.get("replayed")
        if not isinstance(replayed, bool | None):
            raise UsageError(f"{where}: replayed must be true, false or null")
        deal = Deal(str(row["variant"]), int(row["seed"]), _pair(row, "verdicts", str, where),  # type: ignore[call-overload]
                    _pair(row, "states", int, where), _pair(row, "tried", int, where), replayed)
        done[(deal.variant, deal.seed)] = deal
    return done


def report(variant: str, deals: Iterable[Deal]) -> tuple[str, list[str]]:
    """One variant's line of the report, and its disagreements (a line each)."""
    deals = list(deals)
    decided = [deal for deal in deals if deal.decided]
    won = sum(1 for deal in decided if deal.verdicts[0] == "won")
    lost = [deal for deal in decided if deal.verdicts[0] == "unwinnable" == deal.verdicts[1]]
    unknown_with = sum(1 for deal in deals if deal.verdicts[0] == "unknown")
    unknown_without = sum(1 for deal in deals if deal.verdicts[1] == "unknown")
    bad = [f"{variant} seed {deal.seed}: {deal.disagreement()}" for deal in decided if deal.disagreement()]
    states = sum(deal.states[1] for deal in lost)
    per = (f"{sum(d.tried[0] for d in lost) / states:.2f} / {sum(d.tried[1] for d in lost) / states:.2f}"
           if states else "-")
    line = (f"| {variant} | {len(deals):,} | {len(decided):,} ({won:,} / {len(decided) - won:,}) | "
            f"{unknown_with:,} / {unknown_without:,} | {len(bad)} | {per} |")
    return line, bad


HEADER = ("| variant | deals | decided (won / unwinnable) | unknown: with / without the rules | disagreements "
          "| moves tried a state on the losses: with / without |\n|---|---|---|---|---|---|")


def _check(task: tuple[Variant, int, int]) -> Deal:
    """:func:`check_deal` of one task (for a pool of processes)."""
    return check_deal(*task)


def run(variants: list[Variant], seeds: range, budget: int, done: Mapping[tuple[str, int], Deal],
        log: TextIO | None, jobs: int = 1) -> dict[str, list[Deal]]:
    """Each deal of each variant not in ``done`` checked (in ``jobs`` processes, and written to ``log``); every
    deal, by variant."""
    found: dict[str, list[Deal]] = {name(variant): [] for variant in variants}
    todo = [(variant, seed, budget) for variant in variants for seed in seeds if (name(variant), seed) not in done]
    with multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 and todo else nullcontext() as pool:
        checked = pool.imap(_check, todo, chunksize=16) if pool is not None else map(_check, todo)
        for deal in checked:
            if log is not None:
                log.write(json.dumps(deal.row()) + "\n")
                log.flush()
            found[deal.variant].append(deal)
    for variant in variants:
        label = name(variant)
        found[label] += [deal for seed in seeds if (deal := done.get((label, seed))) is not None]
        found[label].sort(key=lambda deal: deal.seed)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per variant (default 2000)")
    parser.add_argument("--start", type=int, default=9_200_000, help="first seed (default 9200000)")
    parser.add_argument("--max-states", type=int, default=50_000,
                        help="states each search may take on a deal (default 50,000)")
    parser.add_argument("--variants", nargs="+", metavar="NAME", choices=[name(v) for v in VARIANTS],
                        help="only these variants (default: all 24)")
    parser.add_argument("--jobs", type=int, default=1, help="processes searching deals at once (default 1)")
    parser.add_argument("--jsonl", metavar="FILE",
                        help="write one JSON line per deal; the deals a file already has are not searched again")
    args = parser.parse_args(argv)
    try:
        _report.at_least_one("--deals", args.deals)
        _report.a_seed("--start", args.start)
        _report.at_least_one("--max-states", args.max_states)
        _report.at_least_one("--jobs", args.jobs)
        done = read_done(args.jsonl) if args.jsonl else {}
        log = open(args.jsonl, "a", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    except (UsageError, OSError) as error:
        print(f"solver_path_rules.py: error: {error}", file=sys.stderr)
        return 2
    variants = [v for v in VARIANTS if args.variants is None or name(v) in args.variants]
    seeds = range(args.start, args.start + args.deals)
    try:
        found = run(variants, seeds, args.max_states, done, log, args.jobs)
    except KeyboardInterrupt:
        print("\nsolver_path_rules.py: interrupted" + (f"; every finished deal is in {args.jsonl}" if args.jsonl
                                                      else ""), file=sys.stderr)
        return 130
    finally:
        if log is not None:
            log.close()
    print(f"seeds {args.start:,} to {args.start + args.deals - 1:,}, up to {args.max_states:,} states a search")
    print(HEADER)
    bad: list[str] = []
    for label, deals in found.items():
        line, wrong = report(label, deals)
        print(line)
        bad += wrong
    for line in bad:
        print(line, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
