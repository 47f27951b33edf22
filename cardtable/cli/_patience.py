"""``--game`` in ``deal``, ``show``, ``replay`` and ``simulate``: the same
commands for every patience game of the registry.

Without ``--game``, and with ``--game klondike`` itself, the commands take
Klondike's own paths, as before; any other game (a name, a name with
options after colons, or a description file) comes here. The patience
modules are imported inside the functions, so building the parser stays light.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardtable._text import clip, plural
from cardtable.cli._options import interrupted, progress_bar
from cardtable.cli._options import seed as whole_seed
from cardtable.errors import RulesError, UsageError

if TYPE_CHECKING:
    from cardtable.patience import Description, PatienceGame
    from cardtable.patience.record import PatienceRecord

__all__ = ["GAME_HELP", "deal", "deal_number", "patience_game", "replay", "show", "simulate"]

GAME_HELP = ("a patience game: a name ('cardtable games' lists them), with options after colons "
             "(golf:wrap), or a description file FILE.json (default: Klondike, with its own options)")

_NUMBERED = re.compile(r"(ms|pysol):\s*\+?\d+", re.ASCII | re.IGNORECASE)


def deal_number(text: str) -> int | str:
    """An argparse type for ``--seed``: a whole number (as before), or a
    standard deal number ``ms:N`` or ``pysol:N`` (kept as text; which games
    have them is checked with the game)."""
    stripped = text.strip(" \t")
    if ":" in stripped:
        if not _NUMBERED.fullmatch(stripped):
            raise argparse.ArgumentTypeError(f"a seed is a whole number, ms:N or pysol:N, not {clip(stripped, 30)}")
        return stripped.lower().replace(" ", "")
    return whole_seed(text)


def patience_game(args: argparse.Namespace) -> Description | None:
    """The game ``--game`` names, or None for Klondike's own commands (no
    ``--game``, or ``--game klondike``). An unknown game, option or a bad
    file is a one-line error."""
    name = getattr(args, "game", None)
    if name is None or name == "klondike":
        return None
    from cardtable.patience import load

    return load(name)


def klondike_seed(value: int | str | None) -> None:
    """Klondike's commands take whole-number seeds only."""
    if isinstance(value, str):
        raise UsageError(f"--seed {value}: Klondike has no {value.split(':')[0]}:N deal numbers; those go "
                         "with --game (e.g. --game freecell --seed ms:11982)")


def _refuse_klondike_options(args: argparse.Namespace, description: Description, *, variant_default: Any,
                             extra: tuple[str, ...] = ()) -> None:
    """Klondike's rule options, and the ``extra`` options that go with Klondike
    only, have no meaning for another game: refused in one line."""
    for flag in extra:
        if getattr(args, flag.removeprefix("--").replace("-", "_"), None) not in (None, False):
            raise UsageError(f"{flag} goes with Klondike only, not (yet) with --game {description.name}")
    given = []
    if getattr(args, "variant", variant_default) != variant_default:
        given.append("--variant")
    given += [flag for dest, flag in (("draw", "--draw"), ("passes", "--passes"), ("empty", "--empty"),
                                      ("foundation_return", "--foundation-return"), ("scoring", "--scoring"))
              if getattr(args, dest, None) is not None]
    if given:
        raise UsageError(f"{given[0]} is a Klondike option; {description.title}'s rules come from --game "
                         f"(options after colons, e.g. {description.name}:OPTION; 'cardtable games "
                         f"{description.name}' lists them)")


def _from_seed(description: Description, value: int | str) -> PatienceGame:
    from cardtable.patience import PatienceGame

    return PatienceGame.from_seed(description, value)


def _read_layout(description: Description, text: str) -> PatienceGame:
    """A position string (one line), Solvitaire's deal JSON (from ``{``) or a
    PySol board (several lines)."""
    from cardtable.patience.position import read_position

    if text.lstrip("\ufeff \t\r\n").startswith("{"):
        from cardtable.patience.solvitaire import loads

        return loads(description, text)
    lines = [line for line in text.removeprefix("\ufeff").splitlines() if line.strip()]
    if len(lines) == 1 and not lines[0].lstrip().lower().startswith(("talon", "foundations", "freecells")):
        return read_position(description, lines[0])
    from cardtable.patience.formats import from_pysol

    return from_pysol(description, "\n".join(lines))


# ----- deal -----------------------------------------------------------------------------------------


def deal(args: argparse.Namespace, description: Description) -> int:
    """``deal --game``: a deal from a seed, or a layout file converted."""
    from cardtable._files import atomic_write_text, check_output, read_text
    from cardtable.patience.position import write_position

    _refuse_klondike_options(args, description, variant_default="draw1",
                             extra=("--difficulty", "--solvitaire-seed"))
    check_output(args.output)
    if args.date is not None and not args.daily:
        raise UsageError("--date goes with --daily")
    if args.winnable and args.daily:
        raise UsageError("--daily deals are already proven winnable: leave out --winnable")
    if args.winnable and args.seed is None:
        raise UsageError(f"--winnable goes with --seed N: the deal of {description.title} proven winnable for N")
    if args.winnable and isinstance(args.seed, str):
        raise UsageError(f"--winnable takes a whole-number --seed, not {args.seed}: its candidates are "
                         f"{description.title}'s own deals")
    if args.seed is None and args.file is None and not args.daily:
        raise UsageError(f"say which deal of {description.title}: --seed N (or ms:N, pysol:N where the game "
                         "has them), --file F or --daily")
    if args.daily or args.winnable:
        game = _proven(args, description)
    elif args.seed is not None:
        game = _from_seed(description, args.seed)
    else:
        game = _read_layout(description, read_text(args.file))
    if args.format == "pysol":
        from cardtable.patience.formats import to_pysol

        text = to_pysol(game)
    elif args.format == "solvitaire":
        from cardtable.patience.solvitaire import dumps, to_solvitaire

        text = dumps(to_solvitaire(game))
    else:
        text = write_position(game) + "\n"
    if args.output:
        atomic_write_text(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _proven(args: argparse.Namespace, description: Description) -> PatienceGame:
    """The deal ``--winnable`` or ``--daily`` asks for, proven winnable by
    the solver (:mod:`cardtable.solver.patience_deals`); stderr says which
    seed it is."""
    from cardtable.solver.patience_deals import daily_game, winnable_game

    if args.daily:
        from cardtable.solver.daily import parse_date

        day = parse_date(args.date) if args.date is not None else datetime.date.today()
        found = daily_game(day, description)
        what = f"the daily deal of {description.title} for {day.isoformat()}"
    else:
        found = winnable_game(int(args.seed), description)
        what = f"a deal of {description.title} proven winnable for seed {args.seed}"
    print(f"cardtable: {what} (seed {found.seed}, won in a search of {found.states:,} states)", file=sys.stderr)
    return found.game(description)


# ----- show -----------------------------------------------------------------------------------------


def _argument(value: str) -> str | None:
    """The text of a file argument (``-`` for stdin), or None when it names no file."""
    if value == "-" or (len(value) < 4096 and "\n" not in value and os.path.exists(value)):
        from cardtable._files import read_text

        return read_text(value)
    return None


def show(args: argparse.Namespace, description: Description, text: str | None = None) -> int:
    """``show --game``: a seed's deal, a position string, a PySol board or a
    game record's last position, drawn (``text``: the argument's, when already read)."""
    from cardtable.cli._options import use_color
    from cardtable.patience.record import PatienceRecord
    from cardtable.patience.render import render

    _refuse_klondike_options(args, description, variant_default="draw1")
    if text is None:
        text = _argument(args.deal)
    record = None
    if text is None:
        value = args.deal.strip()
        if value.isdigit() or _NUMBERED.fullmatch(value):
            game = _from_seed(description, value)
        elif ":" in value:
            game = _read_layout(description, value)
        else:
            raise UsageError(f"{clip(value)}: no such file (and not a seed or a position string of "
                             f"{description.title})")
    elif PatienceRecord.is_patience_record(text):
        record = _record(text, description)
        game = record.replay()
    else:
        game = _read_layout(description, text)
    print(render(game.view(), unicode=not args.ascii, color=use_color(args)))
    if record is not None:
        outcome = game.outcome()
        print(f"\nafter {plural(len(record.moves), 'move')}: {_home(game)}, "
              f"{outcome.value if outcome else 'game in progress'}")
    return 0


def _piles_left(game: PatienceGame) -> int:
    from cardtable.patience import Kind

    return sum(1 for place in game.places(Kind.TABLEAU) if game.pile(place))


def _home(game: PatienceGame) -> str:
    if game.description.win.value == "one-pile":
        return f"{plural(_piles_left(game), 'pile')} left"
    return f"{plural(game.foundation_cards(), 'card')} home"


def _record(text: str, description: Description | None) -> PatienceRecord:
    """A patience record, under ``description`` when given: a record of
    another game is refused rather than played under the wrong rules."""
    from cardtable.errors import RecordError
    from cardtable.patience.record import PatienceRecord, rules_name

    record = PatienceRecord.parse(text)
    if description is not None and record.description != description:
        raise RecordError(f"this is a record of {rules_name(record.description)}, not of "
                          f"{rules_name(description)} (leave out --game, or give the game it names)")
    return record


# ----- replay ---------------------------------------------------------------------------------------


def is_patience_record(text: str) -> bool:
    """True when a record's text is a patience record rather than Klondike's."""
    from cardtable.patience.record import PatienceRecord

    return PatienceRecord.is_patience_record(text)


def replay(args: argparse.Namespace, description: Description | None, text: str) -> int:
    """``replay``: every move of a patience record checked; the last position and the verdict."""
    from cardtable.cli._options import use_color
    from cardtable.patience.render import render

    record = _record(text, description)
    game = record.replay()
    outcome = game.outcome()
    if not args.quiet:
        print(render(game.view(), unicode=not args.ascii, color=use_color(args)))
        print()
    print(f"{Path(args.file).name}: {'' if len(record.moves) == 1 else 'all '}{plural(len(record.moves), 'move')} "
          f"legal; {record.description.title}, {_home(game)}; {outcome.value if outcome else 'game in progress'}")
    return 0


# ----- simulate -------------------------------------------------------------------------------------

#: A game of ``simulate --game`` stops after this many moves (as ``cardtable games --play`` does).
MAX_MOVES = 2000

#: What ``simulate --game`` takes besides the game (the others are Klondike's or the store's).
_SIMULATE_REFUSED = ("--deals", "--cluster", "--plot", "--no-fast", "--force")


def _seed_of(start: int | str, index: int) -> int | str:
    """The seed of game ``index`` of a run from ``start`` (``ms:N`` counts on as ``ms:N+index``)."""
    if isinstance(start, int):
        return start + index
    prefix, _, number = start.partition(":")
    return f"{prefix}:{int(number) + index}"


def _players(names: object) -> str:
    """The patience players' names as words: ``random, greedy or expert``."""
    listed = list(names)  # type: ignore[call-overload]
    return f"{', '.join(listed[:-1])} or {listed[-1]}"


def simulate(args: argparse.Namespace, description: Description) -> int:
    """``simulate --game``: N deals played by a patience bot, their records and the summary."""
    from cardtable._files import AtomicWriter, check_outputs
    from cardtable.bots.patience import PLAYERS, make_player
    from cardtable.game import play_out
    from cardtable.patience.record import PatienceRecord, rules_name
    from cardtable.stats import mean_interval, wilson

    if args.store is not None or args.resume is not None:
        raise UsageError(f"{'--store' if args.store is not None else '--resume'}: the results store keeps "
                         f"Klondike's runs only for now (runs keyed by game come later); simulate "
                         f"--game {description.name} is not stored")
    _refuse_klondike_options(args, description, variant_default=None, extra=_SIMULATE_REFUSED)
    strategy = args.strategy if args.strategy is not None else "greedy"
    if strategy not in PLAYERS:
        raise UsageError(f"--strategy {clip(strategy, 30)}: {description.title} is played by "
                         f"{_players(PLAYERS)} (Klondike's strategies play Klondike only)")
    check_outputs({"--output": args.output}, {})
    count = 1000 if args.games is None else args.games
    try:  # a seed out of range fails before any game
        _from_seed(description, _seed_of(args.seed, count - 1))
    except RulesError as error:
        raise UsageError(f"--seed {args.seed} with --games {count}: the last game's deal: {error}") from None
    output = AtomicWriter(args.output) if args.output else None
    # What a game gets done: cards home, or in a game won with one pile left (Accordion) the piles left.
    one_pile = description.win.value == "one-pile"
    label, key = ("piles left", "piles_left") if one_pile else ("foundation cards", "foundation")
    won, home, records = 0, [], []
    started = time.perf_counter()
    show_progress = not args.no_progress and sys.stderr.isatty() and count >= 200
    try:
        with progress_bar(count, f"{strategy} on {description.title}", enabled=show_progress,
                          rate_unit="games") as advance:
            for index in range(count):
                seed = _seed_of(args.seed, index)
                game = _from_seed(description, seed)
                play_out(game, [make_player(strategy, index)], max_actions=MAX_MOVES)
                if index < args.record or output is not None:
                    record = PatienceRecord.from_game(game, str(seed), Player=strategy, Round=str(index + 1),
                                                      FoundationCards=str(game.foundation_cards()))
                    if output is not None:
                        output.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")
                    if index < args.record:
                        records.append(record)
                won += game.is_won()  # counted once its record is written: a signal keeps the two alike
                home.append(float(_piles_left(game) if one_pile else game.foundation_cards()))
                advance(1)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the games that finished are reported and kept
        stopped = True
    except BaseException:
        if output is not None:
            output.abandon()
        raise
    else:
        stopped = False
    if output is not None:
        output.commit()
    seconds = time.perf_counter() - started
    played = len(home)
    if stopped and not played:
        return interrupted(f"no game of {count:,} finished", "")
    low, high = wilson(won, played)
    mean, mean_low, mean_high = mean_interval(home)
    summary = {"game": rules_name(description), "strategy": strategy, "seed": args.seed, "games": played,
               "interrupted": stopped,
               "won": won, "win_rate": won / played, "win_rate_low": low, "win_rate_high": high,
               f"{key}_mean": mean, f"{key}_low": mean_low, f"{key}_high": mean_high,
               "seconds": seconds, "games_per_second": played / seconds if seconds > 0 else 0.0}
    kept = f"kept the {played:,} of {count:,} games that finished"
    if args.json:
        print(json.dumps(summary, indent=1))
        return interrupted(kept, "") if stopped else 0
    for number, record in enumerate(records if not stopped else [], 1):  # stopped: the summary only
        print(f"Game {number} ({description.title}, seed {record.seed}), strategy {strategy}")
        print(record)
    print(f"{strategy} on {description.title} ({rules_name(description)}): {description.summary}")
    print(f"deals from seeds {args.seed}..{_seed_of(args.seed, count - 1)}, one process, not stored")
    print(f"games played       {played:,}")
    print(f"games won          {won:,} ({100 * won / played:.2f}%, 95% CI {100 * low:.2f}-{100 * high:.2f}%)")
    print(f"{label:<19}{mean:.3f} a game (95% CI {mean_low:.3f}-{mean_high:.3f})")
    print(f"throughput         {summary['games_per_second']:,.0f} games/s ({seconds:.2f} s)")
    if args.output:
        print(f"games written to {args.output}")
    return interrupted(kept, "") if stopped else 0


# ----- compare --------------------------------------------------------------------------------------

#: What ``compare --game`` takes besides the game (the others are Klondike's).
_COMPARE_REFUSED = ("--deals", "--workers")


def compare(args: argparse.Namespace, description: Description) -> int:
    """``compare --game``: the same deals played by each patience player, side
    by side, with each difference from the first player taken deal by deal."""
    from cardtable.bots.patience import PLAYERS, make_player
    from cardtable.game import play_out
    from cardtable.patience.record import rules_name
    from cardtable.stats import Z95, mean_interval, paired_difference, wilson

    _refuse_klondike_options(args, description, variant_default=None, extra=_COMPARE_REFUSED)
    for name in args.strategies:
        if name not in PLAYERS:
            raise UsageError(f"strategy {clip(name, 30)}: {description.title} is played by "
                             f"{_players(PLAYERS)} (Klondike's strategies play Klondike only)")
    count = 1000 if args.games is None else args.games
    try:
        _from_seed(description, _seed_of(args.seed, count - 1))
    except RulesError as error:
        raise UsageError(f"--seed {args.seed} with --games {count}: the last game's deal: {error}") from None
    one_pile = description.win.value == "one-pile"
    label, key = ("piles left", "piles_left") if one_pile else ("foundation", "foundation")
    wins: dict[str, list[float]] = {}
    done: dict[str, list[float]] = {}
    for name in args.strategies:
        wins[name], done[name] = [], []
        for index in range(count):
            game = _from_seed(description, _seed_of(args.seed, index))
            play_out(game, [make_player(name, index)], max_actions=MAX_MOVES)
            wins[name].append(float(game.is_won()))
            done[name].append(float(_piles_left(game) if one_pile else game.foundation_cards()))
    first = args.strategies[0]
    rows: list[dict[str, Any]] = []
    for name in args.strategies:
        won = int(sum(wins[name]))
        low, high = wilson(won, count)
        mean, mean_low, mean_high = mean_interval(done[name])
        row: dict[str, Any] = {"strategy": name, "games": count, "won": won, "win_rate": won / count,
                               "win_rate_low": low, "win_rate_high": high, f"{key}_mean": mean,
                               f"{key}_low": mean_low, f"{key}_high": mean_high}
        if rows:  # every row after the first
            diff = paired_difference(wins[first], wins[name])
            found = paired_difference(done[first], done[name])
            row.update(diff_win_rate=diff[0], diff_win_rate_low=diff[1], diff_win_rate_high=diff[2],
                       **{f"diff_{key}": found[0], f"diff_{key}_low": found[1], f"diff_{key}_high": found[2]})
        rows.append(row)
    if args.json:
        print(json.dumps({"game": rules_name(description), "games": count, "seed": args.seed,
                          "strategies": rows}, indent=1))
        return 0
    print(f"{count:,} deals of {description.title} ({rules_name(description)}), seeds from {args.seed}")
    print(f"differences are paired, game by game, against {first}; intervals are 95% (z = {Z95:.2f})")
    print()
    header = ("strategy", "won", "95% CI", label, "95% CI", "Δ won", "95% CI", f"Δ {label}", "95% CI")
    lines = [header]
    for row in rows:
        cells = [row["strategy"], f"{100 * row['win_rate']:.1f}%",
                 f"{100 * row['win_rate_low']:.1f}-{100 * row['win_rate_high']:.1f}",
                 f"{row[f'{key}_mean']:.2f}", f"{row[f'{key}_low']:.2f}-{row[f'{key}_high']:.2f}"]
        if "diff_win_rate" in row:
            cells += [f"{100 * row['diff_win_rate']:+.1f}%",
                      f"{100 * row['diff_win_rate_low']:+.1f} {100 * row['diff_win_rate_high']:+.1f}",
                      f"{row[f'diff_{key}']:+.2f}",
                      f"{row[f'diff_{key}_low']:+.2f} {row[f'diff_{key}_high']:+.2f}"]
        else:
            cells += [""] * 4
        lines.append(tuple(cells))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(f"{cell!s:<{width}}" for cell, width in zip(line, widths, strict=True)).rstrip())
    return 0
