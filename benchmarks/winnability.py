"""The winnability table of docs/winnability.md: every game's study, run and tabled.

    python benchmarks/winnability.py run --deals 1000 --max-states 200000 --store S.sqlite [--workers 2]
        [--only thoughtful3 bakers-game ...] [--retry-undecided]
    python benchmarks/winnability.py table --max-states 200000 --store S.sqlite > table.md

``run`` runs ``cardtable study winnability`` for Klondike (draw 3 and draw 1,
thoughtful) and every patience game, with the rules Blake and Gent's
Solvitaire figures use where they differ from a game's default
(``golf:queens-on-kings`` and the description files in
``benchmarks/winnability/``), one after the other: a study is resumable, so
running it again with a larger ``--deals`` solves only the new deals, and a
stopped run loses no finished deal. ``--only`` runs some of the studies (named
as ``--variant`` or ``--game`` takes them); ``--retry-undecided`` solves again
the deals a study holds as undecided (after the search is made stronger: won
and unwinnable answers never change, undecided ones may). ``table`` prints the Markdown table of
the studies kept in the store under that budget, beside Solvitaire's figures.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtable.patience import load, names  # noqa: E402
from cardtable.runs.store import ResultsStore  # noqa: E402
from cardtable.solver.patience_study import study_key  # noqa: E402
from cardtable.solver.study import (  # noqa: E402
    Budget,
    WinnabilityReport,
    plan_study,
    stored_winnability,
    study_report,
)
from cardtable.solver.study_store import StudyInfo, study_deals  # noqa: E402

HERE = Path(__file__).resolve().parent / "winnability"

#: The studies of the table, in order: (what ``--variant`` or ``--game`` takes, the flag).
def _subjects() -> list[tuple[str, str]]:
    games = [name for name in names() if name != "klondike"]
    subjects = [("thoughtful3", "--variant"), ("thoughtful1", "--variant")]
    for name in games:
        subjects.append((name, "--game"))
        if name == "golf":
            subjects.append(("golf:queens-on-kings", "--game"))
        if name in ("canfield", "fan", "king-albert"):
            subjects.append((str((HERE / f"{name}-solvitaire.json").relative_to(ROOT)), "--game"))
    return subjects


#: Blake and Gent's winnable share (Solvitaire, JAIR 2026), in percent, by study.
SOLVITAIRE = {
    "thoughtful3": 81.945, "thoughtful1": 90.480, "freecell": 99.99888, "black-hole": 86.94,
    "benchmarks/winnability/canfield-solvitaire.json": 71.25, "golf:queens-on-kings": 45.11,
    "spiderette": 99.62, "benchmarks/winnability/king-albert-solvitaire.json": 68.54,
    "seahaven-towers": 89.33, "eight-off": 99.88, "beleaguered-castle": 68.17,
    "benchmarks/winnability/fan-solvitaire.json": 48.78, "streets-and-alleys": 51.19, "bakers-game": 75.05,
}


def _run(args: argparse.Namespace) -> int:
    subjects = _subjects()
    unknown = sorted(set(args.only or ()) - {subject for subject, _ in subjects})
    if unknown:
        print(f"--only: no study {unknown[0]!r} (the studies: {', '.join(s for s, _ in subjects)})", file=sys.stderr)
        return 2
    for subject, flag in subjects:
        if args.only and subject not in args.only:
            continue
        command = [sys.executable, "-m", "cardtable", "study", "winnability", flag, subject, "--deals",
                   str(args.deals), "--max-states", str(args.max_states), "--workers", str(args.workers),
                   "--store", args.store, "--no-progress"]
        if args.retry_undecided:
            command.append("--retry-undecided")
        print("==", " ".join(command[2:]), flush=True)
        code = subprocess.call(command, cwd=ROOT)
        if code:
            return code
    return 0


def _key(subject: str, flag: str) -> tuple[str, str]:
    if flag == "--variant":
        from cardtable.klondike import Variant

        return "klondike", Variant.preset(subject).winnability_key
    return study_key(load(subject))


def _cell(report: WinnabilityReport) -> str:
    interval = report.interval
    if report.winnable_share is None or interval is None:
        return "-"
    return f"{100 * report.winnable_share:.2f}% ({100 * interval[0]:.2f}..{100 * interval[1]:.2f})"


def _whole(store: ResultsStore, info: StudyInfo, report: WinnabilityReport) -> WinnabilityReport:
    """The study's figures over deals 1 to N, N the most with every deal answered (a study stopped
    part way, or still running, counts the deals it has finished from the first)."""
    if not report.pending:
        return report
    budget = Budget(info.timeout, info.max_states)
    plan = plan_study(study_deals(store, info.rules, 1, info.deals, game=info.game), range(1, info.deals + 1), budget)
    done = next((seed - 1 for seed in range(1, info.deals + 1) if seed not in plan.answers), info.deals)
    if not done:
        return report
    return study_report(store, info.label, info.rules, first_seed=1, deals=done, budget=budget, game=info.game)


def _table(args: argparse.Namespace) -> int:
    with ResultsStore(args.store, create=False) as store:
        found = [(info, _whole(store, info, report)) for info, report in stored_winnability(store)
                 if info.first_seed == 1]
    print("| Study | Deals | Won | Unwinnable | Undecided | Winnable share of decided (95% interval) "
          "| All deals, undecided lost..won | Mean s a deal | Search s in all | Solvitaire |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for subject, flag in _subjects():
        key = _key(subject, flag)
        mine = [report for info, report in found  # whole studies only: deals 1 to N, every one answered
                if (info.game, info.rules) == key and info.max_states == args.max_states and info.timeout is None
                and not report.pending]
        if not mine:
            continue
        report = max(mine, key=lambda r: r.answered)
        bounds = report.bounds
        spread = "-" if bounds is None else f"{100 * bounds[0]:.1f}..{100 * bounds[1]:.1f}%"
        total = (report.mean_seconds or 0.0) * report.answered
        theirs = SOLVITAIRE.get(subject)
        name = f"`{flag} {subject}`"
        print(f"| {name} | {report.answered:,} | {report.won:,} | {report.unwinnable:,} | {report.undecided:,} "
              f"| {_cell(report)} | {spread} | {report.mean_seconds or 0:.3f} | {total:,.0f} "
              f"| {'' if theirs is None else f'{theirs:g}%'} |")
    return 0


def main() -> int:
    """Run the studies, or print their table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("run", "table"))
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--max-states", type=int, default=200_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--store", required=True)
    parser.add_argument("--only", nargs="+", metavar="STUDY", help="run only these studies (run)")
    parser.add_argument("--retry-undecided", action="store_true",
                        help="solve again the deals stored undecided under this budget (run)")
    args = parser.parse_args()
    return _run(args) if args.what == "run" else _table(args)


if __name__ == "__main__":
    raise SystemExit(main())
