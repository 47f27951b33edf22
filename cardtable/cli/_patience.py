"""``--game`` in ``deal``, ``show``, ``replay`` and ``simulate``: the same
commands for every patience game of the registry.

Without ``--game``, the commands take Klondike's own paths, as before, and
so does every ``--game`` whose rules are Klondike's, however it is named
(``klondike``, ``klondike:draw-3``, a description file of Klondike's rules:
:func:`~cardtable.klondike.patience.variant_of`), with the variant it gives;
any other game (a name, a name with options after colons, or a description
file) comes here. The patience
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
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardtable._text import clip, plural
from cardtable.cli._options import interrupted, progress_bar
from cardtable.cli._options import seed as whole_seed
from cardtable.errors import RulesError, UsageError

if TYPE_CHECKING:
    from cardtable.patience import Description, PatienceGame
    from cardtable.patience.record import PatienceRecord
    from cardtable.runs.store import RunInfo
    from cardtable.runs.stored import StoredRun

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
    """The game ``--game`` names when the patience engine plays it, or None
    for Klondike's own commands: no ``--game``, or a game whose rules are
    Klondike's (:func:`klondike_rules`, which puts its variant into
    ``args``). An unknown game, option or a bad file is a one-line error."""
    name = getattr(args, "game", None)
    if name is None:
        return None
    from cardtable.patience import load

    description = load(name)
    return None if klondike_rules(args, description) else description


#: The rule options of Klondike's commands, as (dest, flag).
_KLONDIKE_RULE_FLAGS = (("draw", "--draw"), ("passes", "--passes"), ("empty", "--empty"),
                        ("foundation_return", "--foundation-return"))


def klondike_rules(args: argparse.Namespace, description: Description, given: str | None = None) -> bool:
    """Whether ``description`` gives Klondike's rules (by name or not:
    :func:`~cardtable.klondike.patience.variant_of`); if so, Klondike's own
    path plays it, with those rules in ``args``. The shipped ``klondike``
    description's own rules leave ``args`` as they are (``--variant`` and
    the rule flags apply, as without ``--game``); other rules (an option,
    a file with draw 3) become ``--variant`` and flags, and a rule flag
    given beside them is refused in one line. ``--scoring`` is no rule of
    a description and applies either way. ``given`` is the game as the
    user named it (``args.game`` unless told)."""
    from cardtable.klondike.patience import plain_preset, variant_of
    from cardtable.patience import get

    variant = variant_of(description)
    if variant is None:
        return False
    if variant.winnability_key == variant_of(get("klondike")).winnability_key:  # type: ignore[union-attr]
        return True
    named = args.game if given is None else given
    flags = [flag for dest, flag in _KLONDIKE_RULE_FLAGS if getattr(args, dest, None) is not None]
    if getattr(args, "variant", None) not in (None, "draw1"):
        flags.insert(0, "--variant")
    if flags:
        raise UsageError(f"{flags[0]}: --game {clip(named, 40)} gives Klondike's rules already "
                         f"({variant.describe().rsplit(', ', 1)[0]}); leave out {flags[0]}")
    preset = plain_preset(variant)
    args.variant = preset or ("draw3" if variant.draw == 3 else "draw1")
    if preset is None:
        args.draw, args.empty, args.foundation_return = variant.draw, variant.empty, variant.foundation_return
        args.passes = "unlimited" if variant.passes is None else str(variant.passes)
    return True


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
                             extra=("--solvitaire-seed",))
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
    if args.difficulty is not None and (args.daily or args.winnable or args.file is not None
                                        or isinstance(args.seed, str)):
        raise UsageError("--difficulty goes with a whole-number --seed (the first deal of that grade from it) or "
                         "alone (from a random seed), not with --daily, --winnable or --file")
    if args.seed is None and args.file is None and not args.daily and args.difficulty is None:
        raise UsageError(f"say which deal of {description.title}: --seed N (or ms:N, pysol:N where the game "
                         "has them), --file F, --daily or --difficulty LEVEL")
    if args.difficulty is not None:
        game = _graded(args, description)
    elif args.daily or args.winnable:
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


def _graded(args: argparse.Namespace, description: Description) -> PatienceGame:
    """The first deal of ``--difficulty``'s grade from ``--seed`` (else a
    random seed), graded as Klondike's are (:func:`cardtable.sim.grade.game_of_grade`);
    stderr says which seed it is and its grade."""
    import secrets

    from cardtable.patience import PatienceGame
    from cardtable.sim.grade import check_level, game_of_grade

    level = check_level(args.difficulty)
    start = int(args.seed) if args.seed is not None else secrets.randbelow(1 << 32)
    seed, grade = game_of_grade(start, level, description)
    article = "an" if grade.level[0] in "aeiou" else "a"
    print(f"cardtable: {article} {grade.level} deal of {description.title} (seed {seed}, {grade.points} difficulty "
          f"points: the search proved it in {grade.solver_states:,} states, the greedy player "
          f"{'won' if grade.greedy_won else 'lost'}, the quick expert won {grade.expert_wins} of "
          f"{grade.expert_games})", file=sys.stderr)
    return PatienceGame.from_seed(description, seed)


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
    how = (f"won in a search of {found.states:,} states" if found.proven else
           f"not proven winnable: no candidate won within {found.states:,} states in all")
    print(f"cardtable: {what} (seed {found.seed}, {how})", file=sys.stderr)
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

#: What ``simulate --game`` takes besides the game (the others are Klondike's).
_SIMULATE_REFUSED = ("--deals", "--cluster", "--plot", "--no-fast")

#: What ``simulate --resume`` of a patience game's run may be given: how and where, not what to play.
_RESUME_OPTIONS = ("resume", "store", "no_progress", "json", "game")

#: Games played between two writes to the results store (each write is one transaction).
_STORE_EVERY = 100


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


def _rules_words(game: str, rules: str, other: str, other_rules: str) -> str:
    """A game as a message names it: its name, and its rules too when the other game has the same name."""
    return game if game != other or rules == other_rules else f"{game} (rules {rules})"


def stored_game(args: argparse.Namespace) -> Description | None:
    """With ``--resume``: the description a stored run of ``simulate --game``
    plays (kept with the run, so that a user's file is not needed), or None
    for a run of Klondike's (or for no store at all: Klondike's path says
    so); a missing run is a :class:`~cardtable.errors.StoreError`. A
    ``--game`` given beside ``--resume`` must name the run's game and rules;
    it is then set aside, the run's own applying."""
    from cardtable.cli._options import store_path
    from cardtable.klondike.patience import game_key
    from cardtable.patience import Description, load
    from cardtable.runs.store import ResultsStore

    path = store_path(args)
    if args.game is None and not os.path.isfile(path):
        return None  # Klondike's path says what is wrong, in its order
    with ResultsStore(path, create=False) as store:
        info = store.run(args.resume)
        params = store.run_params(args.resume) if info.kind == "simulate" else None
    if args.game is not None:
        given, want = game_key(load(args.game)), (info.game, info.rules)
        if given != want:
            raise UsageError(f"--game {clip(args.game, 40)}: run {args.resume} is a run of "
                             f"{_rules_words(info.game, info.rules, *given)}, not of "
                             f"{_rules_words(given[0], given[1], *want)}; leave out --game to finish it")
        args.game = None
    if params is None or "description" not in params:
        return None
    return Description.from_json(params["description"])


def _resume(args: argparse.Namespace, description: Description) -> StoredRun:
    """Take up a stored run of ``description``: its options go back into ``args``."""
    from cardtable.cli._options import take_up_run

    def fit(params: dict[str, Any]) -> None:
        for name in ("strategy", "seed", "games", "record", "output"):
            setattr(args, name, params[name])
        _check_simulate_outputs(args)  # the stored path again: a file may have taken its place since

    return take_up_run(args, "simulate", "games", _RESUME_OPTIONS, fit)


def _check_simulate_outputs(args: argparse.Namespace) -> None:
    from cardtable._files import check_outputs
    from cardtable.cli._options import store_path
    from cardtable.runs.store import store_files

    check_outputs({"--output": args.output}, {}, store=None if args.no_store else store_files(store_path(args)))


def _start(args: argparse.Namespace, description: Description, strategy: str, count: int) -> StoredRun:
    """Record a new run of ``description``, with what finishes it: the
    description itself (a user's file may be gone by then), the player,
    the seeds and the outputs."""
    from cardtable.cli._options import store_path
    from cardtable.klondike.patience import game_key
    from cardtable.patience.record import rules_name
    from cardtable.runs.stored import StoredRun

    game, rules = game_key(description)
    output = os.path.abspath(args.output) if args.output not in (None, "-") else args.output
    params = {"description": description.to_json(), "game": rules_name(description), "strategy": strategy,
              "seed": args.seed, "games": count, "record": args.record, "output": output}
    return StoredRun.start(store_path(args), table="games", kind="simulate", game=game, rules=rules,
                           strategy=strategy, variant={"name": rules_name(description)},
                           seed=args.seed if isinstance(args.seed, int) else None, deals_file=None, units=count,
                           params=params)


def simulate(args: argparse.Namespace, description: Description) -> int:
    """``simulate --game``: N deals played by a patience bot, their records
    and the summary; stored as a run (unless ``--no-store``) that
    ``--resume`` finishes when it was stopped."""
    from cardtable._files import AtomicWriter
    from cardtable.bots.patience import PLAYERS, make_player
    from cardtable.cli._options import check_force, resume_hint, signals_held
    from cardtable.game import play_out
    from cardtable.patience.moves import Move
    from cardtable.patience.record import PatienceRecord, rules_name
    from cardtable.stats import mean_interval, wilson

    check_force(args)
    stored = _resume(args, description) if args.resume is not None else None
    with ExitStack() as stack:
        if stored is not None:  # marked interrupted should anything below fail
            stack.enter_context(stored)
        else:
            _refuse_klondike_options(args, description, variant_default=None, extra=_SIMULATE_REFUSED)
        strategy = args.strategy if args.strategy is not None else "greedy"
        if strategy not in PLAYERS:
            raise UsageError(f"--strategy {clip(strategy, 30)}: {description.title} is played by "
                             f"{_players(PLAYERS)} (Klondike's strategies play Klondike only)")
        count = 1000 if args.games is None else args.games
        try:  # a seed out of range fails before any game
            _from_seed(description, _seed_of(args.seed, count - 1))
        except RulesError as error:
            raise UsageError(f"--seed {args.seed} with --games {count}: the last game's deal: {error}") from None
        if stored is None:
            _check_simulate_outputs(args)
            if not args.no_store:
                stored = stack.enter_context(_start(args, description, strategy, count))
        done = {int(row[0]): row for row in stored.units()} if stored is not None and args.resume else {}
        hint = resume_hint(stored, "simulate", args)
        output = AtomicWriter(args.output) if args.output else None
        # What a game gets done: cards home, or in a game won with one pile left (Accordion) the piles left.
        one_pile = description.win.value == "one-pile"
        label, key = ("piles left", "piles_left") if one_pile else ("foundation cards", "foundation")
        won, home, records = 0, [], []
        pending: list[tuple[object, ...]] = []  # games played and not stored yet
        started = time.perf_counter()
        show_progress = not args.no_progress and sys.stderr.isatty() and count - len(done) >= 200

        def keep_rows() -> None:
            if stored is not None and pending:
                with signals_held():  # a block of games is stored whole, or not at all
                    stored.add(pending)
                pending.clear()

        try:
            with progress_bar(count - len(done), f"{strategy} on {description.title}", enabled=show_progress,
                              rate_unit="games") as advance:
                for index in range(count):
                    seed = _seed_of(args.seed, index)
                    keep = index < args.record or output is not None
                    headers = {"Player": strategy, "Round": str(index + 1)}
                    row = None
                    if index in done:  # stored by an earlier session: read back, not played again
                        _, _, was_won, cards, _, _, _, stored_detail = done[index]
                        kept = json.loads(stored_detail)
                        game_won, game_home = bool(was_won), float(kept["home"])
                        record = PatienceRecord(description, seed=str(seed), headers={
                            **headers, "FoundationCards": str(cards)},
                            moves=[Move.parse(text) for text in kept.get("moves", ())]) if keep else None
                    else:
                        game = _from_seed(description, seed)
                        play_out(game, [make_player(strategy, index)], max_actions=MAX_MOVES)
                        game_won = game.is_won()
                        game_home = float(_piles_left(game) if one_pile else game.foundation_cards())
                        record = PatienceRecord.from_game(game, str(seed), **headers,
                                                          FoundationCards=str(game.foundation_cards())) \
                            if keep else None
                        detail = {"home": game_home, **({"moves": [str(m) for m in game.moves]} if keep else {})}
                        row = (index, str(seed), int(game_won), game.foundation_cards(), 0, len(game.moves), None,
                               json.dumps(detail))
                        advance(1)
                    if record is not None:
                        if output is not None:
                            output.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")
                        if index < args.record:
                            records.append(record)
                    won += game_won  # counted once its record is written: a signal keeps the two alike
                    home.append(game_home)
                    if row is not None:
                        pending.append(row)
                    if len(pending) >= _STORE_EVERY:
                        keep_rows()
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the games that finished are reported and kept
            stopped = True
        except BaseException:
            if output is not None:
                output.abandon()
            raise
        else:
            stopped = False
        keep_rows()
        if output is not None:
            output.commit()
        seconds = time.perf_counter() - started
        played = len(home)
        played_now = played - len(done)
        summary: dict[str, Any] = {}
        if played:
            low, high = wilson(won, played)
            mean, mean_low, mean_high = mean_interval(home)
            summary = {"game": rules_name(description), "strategy": strategy, "seed": args.seed, "games": played,
                       "interrupted": stopped, "won": won, "win_rate": won / played, "win_rate_low": low,
                       "win_rate_high": high, f"{key}_mean": mean, f"{key}_low": mean_low,
                       f"{key}_high": mean_high, "seconds": seconds,
                       "games_per_second": played_now / seconds if seconds > 0 else 0.0}
        if stored is not None:
            stored.finish(summary, interrupted=stopped)
    run = stored.id if stored is not None else None
    kept_words = f"kept the {played:,} of {count:,} games that finished"
    if stopped and not played:
        return interrupted(f"no game of {count:,} finished", hint)
    if args.json:
        print(json.dumps({**summary, "run": run}, indent=1))
        return interrupted(kept_words, hint) if stopped else 0
    for number, record in enumerate(records if not stopped else [], 1):  # stopped: the summary only
        print(f"Game {number} ({description.title}, seed {record.seed}), strategy {strategy}")
        print(record)
    print(f"{strategy} on {description.title} ({rules_name(description)}): {description.summary}")
    print(f"deals from seeds {args.seed}..{_seed_of(args.seed, count - 1)}, one process"
          f"{'' if run is not None else ', not stored'}")
    if done:
        print(f"resumed run {run}: {len(done):,} games were stored, {played_now:,} played now")
    print(f"games played       {played:,}")
    print(f"games won          {won:,} ({100 * won / played:.2f}%, 95% CI {100 * summary['win_rate_low']:.2f}-"
          f"{100 * summary['win_rate_high']:.2f}%)")
    print(f"{label:<19}{summary[f'{key}_mean']:.3f} a game (95% CI {summary[f'{key}_low']:.3f}-"
          f"{summary[f'{key}_high']:.3f})")
    print(f"throughput         {summary['games_per_second']:,.0f} games/s ({seconds:.2f} s)")
    if run is not None:
        print(f"stored as run {run} ('cardtable runs show {run}')")
    if args.output:
        print(f"games written to {args.output}")
    return interrupted(kept_words, hint) if stopped else 0


def show_run(info: RunInfo, params: dict[str, Any] | None) -> None:
    """``runs show`` for a stored run of ``simulate --game``."""
    from cardtable.patience import Description

    title = Description.from_json(params["description"]).title if params and "description" in params \
        else info.game
    seed = params.get("seed") if params else info.seed
    print(f"run {info.id}: {info.kind} {info.strategy} on {title} ({info.variant.get('name', info.game)})")
    print(f"created {info.created}, {info.status}, {info.games_played:,} of {info.games_requested:,} games")
    print(f"deals: seeds from {seed}")
    s: dict[str, Any] = info.summary or {}
    if "won" in s:
        print(f"won {s['won']:,} of {s['games']:,} ({100 * float(s['win_rate']):.2f}%, 95% CI "
              f"{100 * float(s['win_rate_low']):.2f}-{100 * float(s['win_rate_high']):.2f}%)")
        key, label = ("piles_left", "piles left") if "piles_left_mean" in s else ("foundation", "foundation cards")
        print(f"{label} {float(s[f'{key}_mean']):.3f} a game "
              f"(95% CI {float(s[f'{key}_low']):.3f}-{float(s[f'{key}_high']):.3f})")
        print(f"throughput {float(s['games_per_second']):,.0f} games/s")


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
