"""``cardtable kings-corner``: matches between bots, a human seat, records.

Sub-commands: ``match`` (bots against bots, statistics), ``play`` (you against
bots, in :mod:`cardtable.cli.kings_corner_seat`), ``record`` (one bot hand
written as a record) and ``replay`` (check and show a record). A thin layer:
the work is done in :mod:`cardtable.sim.match` (imported by the
commands that play, as it brings the process pool) and
:mod:`cardtable.kings_corner.record`. The game itself is imported by the
commands too, so building the ``cardtable`` parser does not load it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardtable._text import plural
from cardtable.cli._options import (
    MAX_DELAY,
    MAX_UNITS,
    add_cluster_argument,
    add_force_argument,
    bot_delay,
    check_force,
    cluster_options,
    hinted,
    interrupted,
    option_defaults,
    progress_bar,
    quiet_cluster_logs,
    resume_hint,
    run_id,
    seed,
    signals_held,
    store_path,
    take_up_run,
    whole_number,
    worker_count,
)
from cardtable.errors import CardtableError, RecordError

if TYPE_CHECKING:
    from cardtable.kings_corner.record import HandRecord
    from cardtable.runs.stored import StoredRun
    from cardtable.sim.match import MatchReport

__all__ = ["register"]

_GAMES_HELP = (
    "number of hands to play (default 1000). Hands are also grouped, in order, into "
    "matches to --target penalty points; both per-hand and per-match results are reported"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``kings-corner`` and its sub-commands to the ``cardtable`` parser."""
    parser = subparsers.add_parser(
        "kings-corner", help="the multiplayer Kings Corner: matches, play, records",
        description="Kings Corner for 2 to 6 players: bot matches, a human seat, records.",
    )
    parser.set_defaults(func=lambda args: _no_command(parser))
    commands = parser.add_subparsers(dest="kings_corner_command", metavar="COMMAND")

    match = commands.add_parser(
        "match", help="bots against bots, with win rates",
        description="Play hands between bots with seats rotated; report win rates (95% Wilson "
        "interval), mean penalty points and turns. The same seed gives the same result "
        "for any number of workers.",
    )
    match.add_argument("--players", default="strategic,greedy,greedy,greedy",
                       help="comma-separated bots, 2 to 6 (random, greedy, strategic, expert)")
    match.add_argument("--games", type=whole_number(1, "--games", MAX_UNITS), default=1000, help=_GAMES_HELP)
    match.add_argument("--seed", type=seed, default=0, help="match seed (default 0)")
    match.add_argument("--workers", type=worker_count, default=None,
                       help="processes to use, or the workers of --cluster local (default: all CPUs)")
    add_cluster_argument(match)
    match.add_argument("--resume", type=run_id, default=None, metavar="RUN",
                       help="finish a stored match that was stopped: play only its missing hands, then report "
                            "as an uninterrupted match")
    add_force_argument(match)
    match.add_argument("--store", metavar="PATH", help="results store (default: the per-user data directory)")
    match.add_argument("--no-store", action="store_true", help="do not keep this match in the results store")
    match.add_argument("--target", type=whole_number(1), default=25,
                       help="penalty points that end a match (default 25)")
    match.add_argument("--json", action="store_true", help="machine-readable output")
    match.add_argument("--quiet", action="store_true", help="no progress bar")
    match.set_defaults(func=_match, option_defaults=option_defaults(match))

    play = commands.add_parser(
        "play", help="play against bots in the terminal",
        description="Sit at a table with bots. Type h at the prompt for the commands.",
    )
    play.add_argument("--opponents", type=whole_number(1), default=3, help="1 to 5 bots (default 3)")
    play.add_argument("--level", default="expert",
                      help="the bots: random, greedy, strategic or expert (default)")
    play.add_argument("--seed", type=seed, default=None, help="deal seed (default: random)")
    play.add_argument("--target", type=whole_number(1), default=25,
                      help="penalty points that end the match (default 25)")
    play.add_argument("--delay", type=bot_delay, default=0.6,
                      help=f"seconds between bot actions, 0 to {MAX_DELAY:g} (default 0.6)")
    play.add_argument("--ascii", action="store_true", help="write cards as 7h, not 7♥")
    play.add_argument("--save", type=Path, default=None,
                      help="write each finished hand's record to this file")
    play.set_defaults(func=_play)

    record = commands.add_parser(
        "record", help="play one bot hand and write its record",
        description="Play hand HAND of a bot match and write its record (text or JSON).",
    )
    record.add_argument("--players", default="strategic,greedy,greedy,greedy",
                        help="comma-separated bots, 2 to 6")
    record.add_argument("--seed", type=seed, default=0, help="match seed (default 0)")
    record.add_argument("--hand", type=seed, default=0, help="hand index (default 0)")
    record.add_argument("--json", action="store_true", help="write the JSON form")
    record.add_argument("--out", type=Path, default=None, help="file to write (default stdout)")
    record.set_defaults(func=_record)

    replay = commands.add_parser(
        "replay", help="check a record and show the hand",
        description="Read a record (text or JSON), check every action and show the hand.",
    )
    replay.add_argument("file", type=Path, help="the record file ('-' for stdin)")
    replay.add_argument("--board", action="store_true", help="show the table after every turn")
    replay.add_argument("--ascii", action="store_true", help="write cards as 7h, not 7♥")
    replay.set_defaults(func=_replay)


def _no_command(parser: argparse.ArgumentParser) -> int:
    commands = next(action.choices for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    print(f"cardtable: error: choose a kings-corner command: {', '.join(commands)} "
          f"(see '{parser.prog} --help')", file=sys.stderr)
    return 2


#: What ``match --resume`` may be given: how and where to run, not what to play.
_RESUME_OPTIONS = ("resume", "cluster", "cluster_timeout", "workers", "store", "quiet", "json")


def _resume_match(args: argparse.Namespace) -> StoredRun:
    """Take up a stored match: its options go back into ``args``."""

    def fit(params: dict[str, Any]) -> None:
        args.players, args.games = params["players"], params["games"]
        args.seed, args.target = params["seed"], params["target"]

    return take_up_run(args, "kings-corner", "hands", _RESUME_OPTIONS, fit)


def _start_match(args: argparse.Namespace, players: tuple[str, ...]) -> StoredRun:
    """Record a new match, with the options that finish it."""
    from cardtable.runs.store import ONE_RULE_SET
    from cardtable.runs.stored import StoredRun

    params: dict[str, object] = {"players": ",".join(players), "games": args.games, "seed": args.seed,
                                 "target": args.target}
    return StoredRun.start(store_path(args), table="hands", kind="kings-corner", game="kings-corner",
                           rules=ONE_RULE_SET, strategy=",".join(players),
                           variant={"name": "kings-corner", "players": len(players)}, seed=args.seed,
                           deals_file=None, units=args.games, params=params)


def _match(args: argparse.Namespace) -> int:
    from contextlib import ExitStack

    from cardtable.cli._policies import load_policy_support
    from cardtable.runs.cluster import open_executor
    from cardtable.sim.match import HandResult, check_players, run_hands, summarize_hands

    check_force(args)
    stored: StoredRun | None = None
    done: list[HandResult] = []
    with ExitStack() as stack:
        if args.resume is not None:  # marked interrupted should anything below fail
            stored = stack.enter_context(_resume_match(args))
            done = [HandResult.from_row(row) for row in stored.units()]
        load_policy_support(args.players.split(","), "bot")
        players = check_players(args.players.split(","))
        # before the match is recorded
        executor = stack.enter_context(open_executor(args.cluster, args.workers, **cluster_options(args)))
        if args.cluster is not None:
            quiet_cluster_logs()
        if stored is None and not args.no_store:
            stored = stack.enter_context(_start_match(args, players))
        hint = resume_hint(stored, "kings-corner match", args)

        def keep(hands: list[HandResult]) -> None:
            with signals_held():  # hands are counted and stored whole, or not at all
                if stored is not None:
                    stored.add([hand.to_row() for hand in hands])
                results.extend(hands)

        started = time.perf_counter()
        left = args.games - len(done)
        show = not args.quiet and sys.stderr.isatty() and (left >= 50 or args.cluster is not None)
        results: list[HandResult] = list(done)
        stopped = False
        label = "hands" + (f" (run {stored.id if stored else None}, {len(done):,} stored)" if done else "")
        with hinted(hint), progress_bar(left, label, enabled=show, rate_unit="hands") as advance:
            try:
                run_hands(players, args.games, args.seed, args.workers, advance if show else None,
                          executor=executor, on_hands=keep, done=done)
            except KeyboardInterrupt:  # report the hands played so far
                stopped = True
        results.sort(key=lambda result: result.index)
        elapsed = time.perf_counter() - started
        report = summarize_hands(list(players), results, args.seed, args.target)
        if stored is not None:
            stored.finish(report.to_dict(), interrupted=stopped)
    if args.json:
        data = report.to_dict()
        data["seconds"] = round(elapsed, 3)
        # as simulate's: whether the match stopped short of --games (SIGTERM, Ctrl-C, a lost worker)
        data["interrupted"] = stopped or len(results) < args.games
        print(json.dumps(data, indent=1))
    else:
        print(_report_text(report, elapsed, len(results) - len(done)))
    if stopped:
        return interrupted(f"reported the {len(results):,} of {args.games:,} hands played", hint, executor)
    return 0


def _report_text(report: MatchReport, elapsed: float, played: int | None = None) -> str:
    """The report for people; the rate counts the ``played`` hands (all by default)."""
    played = report.games if played is None else played
    lines = [
        f"{report.games} hands, {len(report.players)} players, seed {report.seed}, seats rotated;"
        f" {report.stalemates} stalemates, {report.mean_turns:.1f} turns per hand"
        f" ({played / elapsed:.0f} hands/s)" if elapsed > 0 else "",
        f"{'entry':<14}{'wins':>7}{'win rate':>10}  {'95% interval':<15}"
        f"{'penalty':>8}{'turns to win':>14}{'matches':>9}",
    ]
    for index, entry in enumerate(report.entries, 1):
        low, high = entry.interval
        turns = "-" if entry.mean_turns_to_win is None else f"{entry.mean_turns_to_win:.1f}"
        lines.append(
            f"{f'{index}. {entry.name}':<14}{entry.wins:>7}{entry.win_rate:>10.1%}  "
            f"{f'{low:.1%} – {high:.1%}':<15}{entry.mean_penalty:>8.2f}{turns:>14}"
            f"{entry.matches_won:>9.1f}"
        )
    lines.append(f"matches to {plural(report.target, 'point')}: {report.matches} finished"
                 " (lowest total wins, ties shared)")
    return "\n".join(lines)


def _play(args: argparse.Namespace) -> int:
    from rich.console import Console

    from cardtable._files import check_output
    from cardtable.cli.kings_corner_seat import HumanSeat, hand_saver

    save = args.save
    check_output(save)  # before the hand, not at its end
    seat = HumanSeat(
        opponents=args.opponents, level=args.level, seed=args.seed, target=args.target,
        delay=max(0.0, args.delay), unicode=not args.ascii,
        console=Console(highlight=False), on_hand_end=hand_saver(save),
    )
    return seat.run()


def _record(args: argparse.Namespace) -> int:
    from cardtable._files import atomic_write_text, check_output
    from cardtable.cli._policies import load_policy_support
    from cardtable.sim.match import check_players, record_of

    check_output(args.out)
    players = [name.strip().lower() for name in args.players.split(",")]
    load_policy_support(players, "bot")
    record = record_of(check_players(players), args.hand, args.seed)
    text = record.to_json() if args.json else record.to_text()
    if args.out is None:
        sys.stdout.write(text)
    else:
        atomic_write_text(args.out, text)
    return 0


def _read_record(path: Path) -> HandRecord:
    """Read a record file, text or JSON (``-`` for stdin); errors name the file."""
    from cardtable._files import read_text
    from cardtable.kings_corner.record import HandRecord

    text = read_text(path)
    try:
        if text.lstrip().startswith("{"):
            return HandRecord.from_json(text)
        return HandRecord.from_text(text)
    except CardtableError as error:
        raise RecordError(f"{path}: {error}") from None


def _replay(args: argparse.Namespace) -> int:
    from cardtable.kings_corner.game import KingsCornerGame
    from cardtable.kings_corner.render import describe_action, table_text

    record = _read_record(args.file)
    unicode = not args.ascii
    game = KingsCornerGame(record.players, record.deck)
    names = (record.tag("Names") or "").split(",")
    if len(names) != record.players:
        names = [f"P{seat + 1}" for seat in range(record.players)]
    else:
        names = [f"P{seat + 1} ({name})" for seat, name in enumerate(names)]
    print(table_text(game.piles, game.deck_count, unicode))
    table_shown = True
    for action in record.actions:
        seat = game.turn
        if game.turn_actions == 0:
            print(f"\nturn {game.turns + 1}: {names[seat]} holds {_cards(len(game.hand(seat)))}")
        game.play(action)
        print("  " + describe_action(action, names[seat], unicode))
        table_shown = args.board and (game.turn_actions == 0 or game.is_over())
        if table_shown:
            print(table_text(game.piles, game.deck_count, unicode))
    outcome = game.outcome()
    if not table_shown:
        print()
        print(table_text(game.piles, game.deck_count, unicode))
    if outcome is None:
        print(f"\nunfinished after {_turns(game.turns)}")
    else:
        # A hand is won during the winner's turn, which is not a completed turn.
        ending = ("stalemate after " + _turns(outcome.turns) if outcome.winner is None
                  else f"{names[outcome.winner]} wins in turn {outcome.turns + 1}")
        print(f"\n{ending}; penalty points: "
              + ", ".join(f"{names[s]} {p}" for s, p in enumerate(outcome.penalties)))
    return 0


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _turns(count: int) -> str:
    return f"{count} turn" if count == 1 else f"{count} turns"
