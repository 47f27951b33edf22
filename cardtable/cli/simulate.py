"""Simulator commands: ``simulate``, ``runs``, ``compare`` and ``strategies``.

The simulator (and with it numpy and the compiled kernel), the players and
the file helpers are imported inside the commands that use them, so the
parser and ``runs`` stay light.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from contextlib import ExitStack
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cardtable.cli._options import (
    add_cluster_argument,
    add_force_argument,
    add_variant_arguments,
    check_force,
    cluster_options,
    hinted,
    interrupted,
    option_defaults,
    progress_bar,
    quiet_cluster_logs,
    resume_hint,
    run_id,
    run_limit,
    shown_run_id,
    signals_held,
    store_path,
    take_up_run,
    use_color,
    variant_from_args,
    whole_number,
    worker_count,
)
from cardtable.cli._patience import GAME_HELP, deal_number, klondike_seed, patience_game
from cardtable.errors import CardtableError, UsageError
from cardtable.klondike.position import Position
from cardtable.klondike.variant import GAME, Variant

if TYPE_CHECKING:
    from cardtable.runs.executor import Executor
    from cardtable.runs.store import RunInfo
    from cardtable.runs.stored import StoredRun
    from cardtable.sim.runner import Batch, GameResult, Results, RunSpec
    from cardtable.sim.stats import Summary

__all__ = ["register"]

#: The names of :data:`cardtable.bots.klondike.STRATEGIES`, in its order (not
#: imported: building the parser stays light; a test holds the two equal).
STRATEGY_NAMES = ("priority", "turns", "greedy", "random", "expert")

_DEALS_HELP = "one seed number, deal string or position string a line, instead of seeds"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the simulator commands."""
    p = subparsers.add_parser(
        "simulate", help="play many games with a strategy and report the winnings (the main job)",
        description="Play many Klondike games with a strategy. With no options: seed 002's game, 1,000 games "
                    "with the priority strategy from seed 1, the complete record of the first two games, "
                    "then the summary.")
    p.add_argument("--strategy", default=None, metavar="NAME",
                   help=f"who plays: {', '.join(STRATEGY_NAMES)}, or a policy as module.path:attribute (default "
                        "priority). Options follow the name in the same argument, as in --strategy 'expert "
                        "samples=96 states=20000' ('cardtable strategies' lists them); with --game, random, "
                        "greedy or expert (default greedy)")
    p.add_argument("--games", type=whole_number(1, "--games"), default=None,
                   help="games to play (default 1000, or every deal)")
    p.add_argument("--seed", type=deal_number, default=1,
                   help="game i is dealt from seed SEED+i (default 1; with --game, also ms:N or pysol:N where "
                        "the game has them)")
    p.add_argument("--game", metavar="NAME|FILE.json", help=GAME_HELP + "; a game of Klondike's rules (by any name) "
                   "is Klondike's simulation, another game is played by the random, greedy or expert player, in one "
                   "process, stored by game and rules as Klondike's runs are")
    p.add_argument("--deals", metavar="FILE", help=_DEALS_HELP)
    p.add_argument("--workers", type=worker_count, default=None,
                   help="local processes, or the workers of --cluster local (default: all cores)")
    add_cluster_argument(p)
    p.add_argument("--resume", type=run_id, default=None, metavar="RUN",
                   help="finish a stored run that was stopped: play only its missing games, with its own "
                        "options, then report as an uninterrupted run")
    add_force_argument(p)
    p.add_argument("--record", type=whole_number(0), default=2, metavar="K",
                   help="print the complete record of the first K games (default 2; 0 for none)")
    p.add_argument("--output", metavar="FILE.jsonl", help="one JSON object per game")
    p.add_argument("--plot", metavar="FILE.png", help="draw foundation cards per game, and the running net winnings "
                   "(Vegas), mean points (standard scoring) or win rate; in the format the file's extension names "
                   "(.png, .svg, .pdf, ...; PNG without one)")
    p.add_argument("--json", action="store_true", help="the summary as JSON on stdout")
    p.add_argument("--store", metavar="PATH", help="results store (default: the per-user data directory)")
    p.add_argument("--no-store", action="store_true", help="do not keep this run in the results store")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-fast", action="store_true", help="play through the rules engine even where a "
                   "compiled kernel exists (slower; same games)")
    p.add_argument("--ascii", action="store_true", help="records in plain ASCII")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour in records")
    add_variant_arguments(p, default=None)
    p.set_defaults(func=_cmd_simulate, option_defaults=option_defaults(p))

    p = subparsers.add_parser("runs", help="list past simulation runs, or show one, or check the store",
                              description="List the stored runs (newest first), show one ('runs show ID'), or "
                                          "check the whole results store for damage ('runs check': SQLite's "
                                          "integrity check; exit 0 when sound, 1 when damaged).")
    p.add_argument("action", nargs="?", choices=("list", "show", "check"), default="list")
    p.add_argument("id", nargs="?", type=shown_run_id, help="run id for 'show'")
    p.add_argument("--store", metavar="PATH", help="results store (default: the per-user data directory)")
    p.add_argument("--limit", type=run_limit, default=50, help="newest runs to list (default 50)")
    p.add_argument("--game", metavar="NAME|FILE.json",
                   help="list the runs of one game: a name ('cardtable games' lists them), with options after "
                        "colons, or a description file; its rules must match too (klondike alone: every "
                        "Klondike run; kings-corner: every match)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_runs)

    p = subparsers.add_parser("compare", help="play the same deals with several strategies, side by side")
    p.add_argument("strategies", nargs="+", metavar="STRATEGY",
                   help=f"from: {', '.join(STRATEGY_NAMES)}; options follow a name in the same argument "
                        "('expert samples=96'); with --game, random, greedy or expert")
    p.add_argument("--games", type=whole_number(1, "--games"), default=None, help="deals to play (default 1000)")
    p.add_argument("--seed", type=deal_number, default=1, help="first deal seed (default 1; with --game, also ms:N "
                   "or pysol:N where the game has them)")
    p.add_argument("--game", metavar="NAME|FILE.json", help=GAME_HELP + "; another game is played by its random, "
                   "greedy or expert player, in one process")
    p.add_argument("--deals", metavar="FILE", help=_DEALS_HELP)
    p.add_argument("--workers", type=worker_count, default=None,
                   help="local processes (default: all cores)")
    p.add_argument("--json", action="store_true")
    add_variant_arguments(p, default=None)
    p.set_defaults(func=_cmd_compare)

    p = subparsers.add_parser("strategies", help="list the Klondike strategies")
    p.set_defaults(func=_cmd_strategies)


def _read_starts(path: str | None) -> tuple[Position, ...] | None:
    """The starting positions of ``--deals``, or None to deal from seeds."""
    if path is None:
        return None
    from cardtable._files import read_deals_file

    return tuple(position for _, position in read_deals_file(path))


def _where_from(deals: str | None) -> str | None:
    """A file as the store keeps it: an absolute path (``-`` stays)."""
    return os.path.abspath(deals) if deals not in (None, "-") else deals


def _game_count(games: int | None, deals: tuple[Position, ...] | None) -> int:
    """``--games``, or 1,000 seeded games, or every deal of the file (at most)."""
    if deals is None:
        return 1000 if games is None else games
    return len(deals) if games is None else min(games, len(deals))


def _variant(args: argparse.Namespace, strategy: str) -> Variant:
    from cardtable.bots.klondike import HOME_VARIANTS, strategy_name

    if args.variant is None:
        args.variant = HOME_VARIANTS.get(strategy_name(strategy), "draw1")
    return variant_from_args(args)


def _record_text(spec: RunSpec, result: GameResult, color: bool, ascii_: bool, number: int) -> str:
    from cardtable.klondike.moves import Move
    from cardtable.klondike.narrate import narrate
    from cardtable.klondike.record import KlondikeRecord

    record = KlondikeRecord(spec.variant, spec.deal(result.index), [Move.parse(m) for m in result.moves],
                            {"Player": spec.strategy, "Round": str(result.index + 1)})
    where = f"seed {spec.seed + result.index}" if spec.deals is None else f"deal {result.index + 1} of the file"
    return narrate(record, unicode=not ascii_, color=color, title=f"Game {number} ({where}), strategy {spec.strategy}")


#: What ``simulate --resume`` may be given: how and where to run, not what to play.
_RESUME_OPTIONS = ("resume", "cluster", "cluster_timeout", "workers", "store", "no_progress", "json")


def _deals_digest(deals: tuple[Position, ...] | None) -> str | None:
    """A fingerprint of the starting positions, to check a resumed run plays the same ones."""
    if deals is None:
        return None
    import hashlib

    return hashlib.sha256("\n".join(str(position) for position in deals).encode()).hexdigest()


def _resume_simulate(args: argparse.Namespace) -> StoredRun:
    """Take up a stored run: its options go back into ``args``."""

    def fit(params: dict[str, Any]) -> None:
        for name in ("strategy", "seed", "deals", "games", "record", "output", "plot", "ascii", "color", "no_fast"):
            setattr(args, name, params[name])
        args.variant_options = params["variant"]
        _check_outputs(args)  # the stored paths again: a file may have taken an output's place since
        if params["deals"] is not None:
            deals = _read_starts(str(params["deals"]))
            if _deals_digest(deals) != params["deals_digest"]:
                raise UsageError(f"{params['deals']}: the deals file changed since run {args.resume} started; "
                                 "it cannot be finished with other deals")

    return take_up_run(args, "simulate", "games", _RESUME_OPTIONS, fit)


def _start_simulate(args: argparse.Namespace, variant: Variant, deals: tuple[Position, ...] | None,
                    count: int) -> StoredRun:
    """Record a new run, with the options that finish it."""
    from cardtable.runs.stored import StoredRun

    params = {"strategy": args.strategy, "variant": variant.options(), "seed": args.seed,
              "deals": _where_from(args.deals), "deals_digest": _deals_digest(deals), "games": count,
              "record": args.record, "output": _where_from(args.output), "plot": _where_from(args.plot),
              "ascii": args.ascii, "color": args.color, "no_fast": args.no_fast}
    game, rules = variant.game_key
    return StoredRun.start(store_path(args), table="games", kind="simulate", game=game, rules=rules,
                           strategy=args.strategy,
                           variant=variant.options(), seed=None if deals else args.seed,
                           deals_file=_where_from(args.deals), units=count, params=params)


def _check_outputs(args: argparse.Namespace) -> None:
    """The outputs can be written, and none is the deals file, the store or the other output."""
    from cardtable._files import check_outputs
    from cardtable.runs.store import store_files

    check_outputs({"--output": args.output, "--plot": args.plot}, {"--deals": args.deals},
                  store=None if args.no_store else store_files(store_path(args)))
    if args.plot:
        _plot_format(args.plot)


def _plot_format(path: str) -> str:
    """The picture format ``--plot`` names by its extension (PNG when it
    has none), or a one-line refusal listing the formats that can be written."""
    suffix = os.path.splitext(path)[1].lower().removeprefix(".")
    if suffix in ("", "png"):
        return "png"  # without importing matplotlib
    from cardtable.sim.plot import picture_formats

    formats = picture_formats()
    if suffix not in formats:
        raise UsageError(f"--plot {path}: cannot draw a .{suffix} picture; name a file ending in one of "
                         f"{', '.join('.' + f for f in formats)}")
    return suffix


def _cmd_simulate(args: argparse.Namespace) -> int:
    from cardtable.bots.klondike import make_player
    from cardtable.cli import _patience
    from cardtable.cli._policies import load_policy_support
    from cardtable.runs.cluster import open_executor
    from cardtable.sim.runner import Batch, RunSpec
    from cardtable.sim.stats import summarize_games

    # A run taken up plays its own game: a patience game's, or Klondike's.
    description = _patience.stored_game(args) if args.resume is not None else patience_game(args)
    if description is not None:
        return _patience.simulate(args, description)
    check_force(args)
    stored = _resume_simulate(args) if args.resume is not None else None
    if args.strategy is None:
        args.strategy = "priority"
    klondike_seed(args.seed)
    with ExitStack() as stack:
        if stored is not None:  # marked interrupted should anything below fail
            stack.enter_context(stored)
        variant = Variant.from_options(args.variant_options) if stored is not None else _variant(args, args.strategy)
        load_policy_support([args.strategy])
        make_player(args.strategy)  # an unknown strategy or policy fails here, before any game
        _check_outputs(args)  # before the games, not after them
        deals = _read_starts(args.deals)
        count = _game_count(args.games, deals)
        # Every game's moves for --output; else only those of the records printed (the first K).
        spec = RunSpec(args.strategy, variant, args.seed, deals, keep_moves=bool(args.output), record=args.record)
        workers = args.workers or os.cpu_count() or 1
        # reached before the run is recorded
        executor = stack.enter_context(open_executor(args.cluster, workers, **cluster_options(args)))
        if args.cluster is not None:
            quiet_cluster_logs()
        if stored is None and not args.no_store:
            stored = stack.enter_context(_start_simulate(args, variant, deals, count))
        done = Batch.from_rows(stored.units()) if stored is not None and args.resume else None
        hint = resume_hint(stored, "simulate", args)
        results, seconds, closed = _play(args, spec, count, executor, stored, done, hint)
        summary = summarize_games(results, seconds) if results else None
        if summary is not None and done is not None and len(done):
            played = len(results) - len(done)  # the throughput of this session's games
            summary = replace(summary, games_per_second=played / seconds if seconds > 0 else 0.0)
        with hinted(hint):  # a full disk: the run stays interrupted with every game stored, to resume
            _write_plot(args, spec, results)
        if stored is not None:
            stored.finish(summary.to_dict() if summary else {}, interrupted=len(results) < count)
    run = stored.id if stored is not None else None
    # Stopped by a signal: the summary of the games kept, not their records (which may be
    # many, into a pipe nobody reads); the command ends at once, as the signal asked.
    signalled = len(results) < count and not closed and getattr(executor, "lost", None) is None
    _report(args, spec, count, workers, results, summary, done, run, records=0 if signalled else args.record)
    if closed and len(results) < count:
        from cardtable.cli import EXIT_PIPE_CLOSED

        print(f"cardtable: the output's reader went away (a closed pipe): kept the {len(results):,} of {count:,} "
              f"games that finished{hint}", file=sys.stderr)
        return EXIT_PIPE_CLOSED
    if len(results) < count:
        return interrupted(f"kept the {len(results):,} of {count:,} games that finished", hint, executor)
    return 0


def _play(args: argparse.Namespace, spec: RunSpec, count: int, executor: Executor, stored: StoredRun | None,
          done: Batch | None, hint: str) -> tuple[Results, float, bool]:
    """Play the games ``done`` lacks, storing and writing each batch as it
    finishes; the games in index order, the seconds they took, and whether
    the output's reader went away (a closed pipe: the games then stop, and
    those stored are kept). A run
    interrupted while its games are played ends quietly with those that
    finished; the output file then keeps them. A lost cluster's error ends
    with ``hint``."""
    from cardtable._files import AtomicWriter
    from cardtable.sim.runner import Results, run_games

    variant = spec.variant
    output = AtomicWriter(args.output) if args.output else None
    streamed = output is not None and output.streams
    closed = False
    try:
        with hinted(hint):
            left = count - (len(done) if done is not None else 0)
            show_progress = not args.no_progress and sys.stderr.isatty() and (left >= 2000 or args.cluster is not None)
            pending: dict[int, GameResult] = {}
            next_out = 0

            def write_ready() -> None:
                nonlocal next_out
                if output is not None:
                    while next_out in pending:  # write in index order whatever order batches finish in
                        output.write(json.dumps(pending.pop(next_out).to_dict()) + "\n")
                        next_out += 1

            if done is not None and output is not None:
                pending.update((r.index, r) for r in done.results(variant))
                write_ready()
            label = f"{spec.strategy} on {variant.name}"
            if stored is not None and done:
                label += f" (run {stored.id}, {count - left:,} stored)"
            started = time.perf_counter()
            with progress_bar(left, label, enabled=show_progress, rate_unit="games") as advance:

                # The games kept are those stored and written: a signal between the
                # executor's answer and the store cannot count a batch that was not kept.
                kept: list[Batch] = [done] if done is not None and len(done) else []

                def on_batch(batch: Batch) -> None:
                    with signals_held():  # a batch is counted, stored and written whole, or not at all
                        if stored is not None:
                            stored.add(batch.rows(variant))
                        if output is not None:
                            pending.update((r.index, r) for r in batch.results(variant))
                            if not streamed:
                                write_ready()
                        kept.append(batch)
                    if streamed:  # a pipe may block: written where a signal still ends the run at once
                        write_ready()
                    advance(len(batch))

                try:
                    run_games(spec, count, on_batch=on_batch, use_fast=not args.no_fast, executor=executor,
                              done=done)
                except BrokenPipeError:
                    if not streamed:
                        raise
                    from cardtable.cli import drop_stdout

                    closed = True
                    drop_stdout()
                results = Results(variant, kept)
            seconds = time.perf_counter() - started
            if output is not None and not closed:
                for index in sorted(pending):  # an interrupted run may leave gaps; keep what finished
                    output.write(json.dumps(pending[index].to_dict()) + "\n")
                output.commit()
    except (CardtableError, KeyboardInterrupt, OSError):  # a lost cluster, Ctrl-C, a full disk: no temporary file
        if output is not None:
            output.abandon()
        raise
    if closed and output is not None:
        output.abandon()
    return results, seconds, closed


def _report(args: argparse.Namespace, spec: RunSpec, count: int, workers: int, results: Results,
            summary: Summary | None, done: Batch | None, run: int | None, *, records: int) -> None:
    """Print the first ``records`` records, the summary (or its JSON) and the plot's file."""
    strategy, variant, deals = spec.strategy, spec.variant, spec.deals
    if not args.json:
        color = use_color(args)
        for number, result in enumerate(results[:records], 1):
            print(_record_text(spec, result, color, args.ascii, number))
            print()
        print(f"{strategy} on {variant.name} ({variant.describe()})")
        if deals is None:
            where = f"cluster {args.cluster}" if args.cluster else f"{workers} worker{'s' if workers != 1 else ''}"
            print(f"deals from seeds {args.seed}..{args.seed + count - 1}, {where}")
        if done is not None:
            print(f"resumed run {run}: {len(done):,} games were stored, {len(results) - len(done):,} played now")
        if summary is not None:
            print(summary.text())
        if run is not None:
            print(f"stored as run {run} ('cardtable runs show {run}')")
        if args.output:
            print(f"games written to {args.output}")
    else:
        data = {"strategy": strategy, "variant": variant.options(), "seed": None if deals else args.seed,
                "run": run, "interrupted": len(results) < count,
                **(summary.to_dict() if summary else {"games": 0})}
        print(json.dumps(data, indent=1))
    if args.plot and results and not args.json:
        print(f"plot written to {args.plot}")


def _write_plot(args: argparse.Namespace, spec: RunSpec, results: Results) -> None:
    """Draw ``--plot`` (when given and some game finished), before the run is
    marked finished: a plot that cannot be written leaves it to resume."""
    if not args.plot or not results:
        return
    from cardtable._files import atomic_write_bytes
    from cardtable.sim.plot import plot_picture

    title = f"{spec.strategy} on {spec.variant.name}, {len(results):,} games"
    atomic_write_bytes(args.plot, plot_picture(results, file_format=_plot_format(args.plot), title=title))


def _cmd_runs(args: argparse.Namespace) -> int:
    from cardtable.runs.store import ResultsStore
    from cardtable.sim.stats import money_text

    path = store_path(args)
    if args.action == "check":
        return _check_runs_store(path)
    if not os.path.exists(path):
        if args.action == "show":
            raise UsageError(f"no run {args.id}: {path} does not exist (no runs stored yet)")
        print(f"no runs yet ({path} does not exist)")
        return 0
    with ResultsStore(path, create=False) as store:
        if args.action == "show":
            if args.id is None:
                raise UsageError("runs show needs a run id, e.g. 'cardtable runs show 3'")
            info = store.run(args.id)
            if args.json:
                print(json.dumps(info.__dict__, indent=1))
                return 0
            if info.kind != "simulate":
                _show_other_run(info)
                return 0
            if info.game != GAME:  # a run of simulate --game
                from cardtable.cli._patience import show_run

                show_run(info, store.run_params(info.id))
                return 0
            variant = Variant.from_options(info.variant)
            print(f"run {info.id}: {info.kind} {info.strategy} on {variant.name} ({variant.describe()})")
            print(f"created {info.created}, {info.status}, {info.games_played:,} of {info.games_requested:,} games")
            print(f"deals: {'seeds from ' + str(info.seed) if info.seed is not None else info.deals_file}")
            if info.summary:
                s: dict[str, Any] = info.summary
                print(f"won {s['won']:,} of {s['games']:,} ({100 * float(s['win_rate']):.2f}%, 95% CI "
                      f"{100 * float(s['win_rate_low']):.2f}-{100 * float(s['win_rate_high']):.2f}%)")
                print(f"foundation cards {float(s['foundation_mean']):.3f} a game "
                      f"(95% CI {float(s['foundation_low']):.3f}-{float(s['foundation_high']):.3f})")
                if variant.scoring.kind == "vegas":
                    print(f"net winnings {money_text(int(s['net_total']))} in all, "
                          f"{money_text(float(s['net_mean']), 3)} a game")
                elif variant.scoring.kind == "standard" and "score_mean" in s:
                    print(f"points {float(s['score_mean']):,.1f} a game")
                print(f"throughput {float(s['games_per_second']):,.0f} games/s")
            return 0
        runs = store.runs(args.limit, **_game_filter(args))
        if args.json:
            print(json.dumps([r.__dict__ for r in runs], indent=1))
            return 0
        if not runs:
            print("no runs yet" if args.game is None else f"no runs of {args.game} yet")
            return 0
        rows = [["run", "created", "kind", "strategy", "variant", "played", "won", "net", "status"]]
        for r in runs:
            figures: dict[str, Any] = r.summary or {}
            rate = f"{100 * float(figures['win_rate']):.2f}% won" if "win_rate" in figures else "-"
            if figures.get("winnable_share") is not None:
                rate = f"{100 * float(figures['winnable_share']):.2f}% won"
            vegas = r.variant.get("scoring", "vegas") == "vegas"
            net = f"net {money_text(int(figures['net_total']))}" if "net_total" in figures and vegas else "-"
            rows.append([str(r.id), r.created, r.kind, r.strategy, str(r.variant.get("name", "?")),
                         f"{r.games_played:,} {_UNITS.get(r.kind, 'games')}", rate, net, r.status])
        for line in _columns(rows, right=_RIGHT_COLUMNS):
            print(line)
    return 0


def _game_filter(args: argparse.Namespace) -> dict[str, str]:
    """The game (and rules) ``runs --game`` lists: the game and rules a
    description is kept under, or every run of Klondike (``klondike`` with
    no options: its variants are chosen apart from --game) or Kings Corner."""
    if args.game is None:
        return {}
    if args.game in (GAME, "kings-corner"):
        return {"game": args.game}
    from cardtable.klondike.patience import game_key
    from cardtable.patience import load

    game, rules = game_key(load(args.game))
    return {"game": game, "rules": rules}


#: The columns of the runs listing that line up on the right (numbers), by position.
_RIGHT_COLUMNS = frozenset({0, 5, 6, 7})


def _columns(rows: list[list[str]], *, right: frozenset[int]) -> list[str]:
    """``rows`` of cells as lines whose columns line up, each as wide as its
    widest cell (two spaces apart; the columns in ``right`` line up on the right).

    >>> _columns([["run", "kind"], ["12", "kings-corner"]], right=frozenset({0}))
    ['run  kind', ' 12  kings-corner']
    """
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return ["  ".join(cell.rjust(width) if column in right else cell.ljust(width)
                      for column, (cell, width) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in rows]


def _check_runs_store(path: str | os.PathLike[str]) -> int:
    """``runs check``: the store's full integrity check, read-only; 0 when sound, 1 when damaged."""
    from cardtable.runs.store import check_store

    problems = check_store(path)
    if not problems:
        print(f"{path}: OK")
        return 0
    print(f"{path}: damaged ({len(problems)} problem{'s' if len(problems) != 1 else ''} found):")
    for problem in problems[:20]:
        print(f"  {problem}")
    if len(problems) > 20:
        print(f"  and {len(problems) - 20} more")
    return 1


#: What a run of each kind counts.
_UNITS = {"simulate": "games", "solve": "deals", "kings-corner": "hands"}


def _show_other_run(info: RunInfo) -> None:
    """``runs show`` for a batch solve or a Kings Corner match."""
    units = _UNITS.get(info.kind, "units")
    who = f"{info.variant.get('name', '?')}" if info.kind == "solve" else f"{info.strategy}"
    print(f"run {info.id}: {info.kind} {who}")
    print(f"created {info.created}, {info.status}, {info.games_played:,} of {info.games_requested:,} {units}")
    if info.deals_file is not None:
        print(f"deals: {info.deals_file}")
    s: dict[str, Any] = info.summary or {}
    if info.kind == "solve" and s:
        print(f"{s['won']:,} won, {s['unwinnable']:,} unwinnable, {s['unknown']:,} unknown")
    elif info.kind == "kings-corner" and s:
        for number, entry in enumerate(s.get("entries", []), 1):
            print(f"{number}. {entry['bot']}: won {entry['wins']:,} hands ({100 * float(entry['win_rate']):.1f}%), "
                  f"{float(entry['mean_penalty']):.2f} penalty points a hand")


def _cmd_compare(args: argparse.Namespace) -> int:
    from cardtable.sim.compare import compare_strategies
    from cardtable.stats import Z95

    description = patience_game(args)
    if description is not None:
        from cardtable.cli import _patience

        return _patience.compare(args, description)
    klondike_seed(args.seed)

    names = args.strategies
    variant = _variant(args, names[0])
    deals = _read_starts(args.deals)
    count = _game_count(args.games, deals)
    rows: list[dict[str, Any]] = compare_strategies(names, variant, count, seed=args.seed, deals=deals,
                                                    workers=args.workers)
    if args.json:
        print(json.dumps({"variant": variant.options(), "games": count, "seed": None if deals else args.seed,
                          "strategies": rows}, indent=1))
        return 0
    print(f"{count:,} deals ({'seeds from ' + str(args.seed) if deals is None else args.deals}), "
          f"variant {variant.name} ({variant.describe()})")
    print(f"differences are paired, game by game, against {names[0]}; intervals are 95% (z = {Z95:.2f})")
    print()
    from cardtable.sim.compare import comparison_table

    print(comparison_table(rows, variant))
    return 0


def _cmd_strategies(args: argparse.Namespace) -> int:
    import inspect

    from cardtable.bots.klondike import HOME_VARIANTS, STRATEGIES

    width = max(len(n) for n in STRATEGIES)
    for name, cls in STRATEGIES.items():
        print(f"{name:<{width}}  {cls.summary} (plays {HOME_VARIANTS[name]} unless told)")
        for option, (argument, kind, text) in cls.options.items():
            default = inspect.signature(cls).parameters[argument].default
            shown = cls.option_defaults.get(option, "no limit" if default is None else default)
            print(f"{'':<{width}}    {option}={kind.__name__.upper()}: {text} (default {shown})")
    return 0
