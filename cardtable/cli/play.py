"""``cardtable play``: Klondike or Kings Corner in the terminal (the Textual apps in
:mod:`cardtable.app`; ``--plain`` gives Kings Corner's line-by-line seat), and
``cardtable serve``: Klondike at a card table in a web browser (:mod:`cardtable.web`,
one process for every player), or with ``--terminal`` (and for Kings Corner) the
terminal apps in a browser page (textual-serve runs one ``cardtable play`` process
for each browser session).

Everything the user gives is checked here, before the app starts, so bad
input ends in one line and exit status 2. Textual is imported only when the
app runs, and the game, its file formats and the file helpers only when a
command uses them, so building the parser stays cheap.
"""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from cardtable._text import plural
from cardtable.cli._deals import DealChoice, add_deal_arguments, check_deal_arguments, choose_deal
from cardtable.cli._options import (
    MAX_DELAY,
    add_variant_arguments,
    bot_delay,
    pause,
    refuse_rule_flags,
    variant_from_args,
    whole_number,
)
from cardtable.cli._patience import deal_number
from cardtable.errors import UsageError

if TYPE_CHECKING:
    from pathlib import Path

    from cardtable.klondike.game import KlondikeGame
    from cardtable.klondike.variant import Variant
    from cardtable.patience import Description, PatienceGame

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["register"]

#: The options each game alone takes, as (dest, flag, default): filled in by :func:`register`.
_ONLY: dict[str, list[tuple[str, str, object]]] = {}
_T = TypeVar("_T")
_KINGS_CORNER_DEFAULTS = {"opponents": "3", "level": "expert", "target": "25", "delay": "0.6"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play", help="play Klondike, any patience game or Kings Corner in the terminal",
        allow_abbrev=False,  # '--dr 3' is refused, as serve refuses '--po 8767': options are written whole
        description="Play Klondike or Kings Corner in the terminal (keyboard and mouse; press ? in the "
                    "game for the keys). Klondike: without --seed, --winnable or --file the game saved "
                    "automatically last time comes back, in its own variant; otherwise a new deal starts. "
                    "Any other patience game (a name, as 'cardtable games' lists them, with options after "
                    "colons, or a description file FILE.json): its table, its own autosave and statistics; "
                    "without --seed the game saved last time comes back. "
                    "Kings Corner: you against bots, hand after hand until a penalty total reaches "
                    "--target.")
    add_play_arguments(parser)
    parser.set_defaults(func=_cmd_play)
    _register_serve(subparsers)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``cardtable play`` (the game and the options of each game)."""
    parser.add_argument("game", nargs="?", default="klondike", metavar="GAME",
                        help="klondike (the default), kings-corner, or any patience game: a name ('cardtable "
                             "games' lists them; options after colons, golf:wrap) or a description file FILE.json")
    before = list(parser._actions)
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--seed", type=deal_number, metavar="N",
                       help="deal from seed N; in the games that have them, ms:N (Microsoft's FreeCell numbers) "
                            "or pysol:N (PySolFC's)")
    start.add_argument("--file", metavar="F",
                       help="start from a deal, position, PySol board, Solvitaire JSON or game record "
                            "(a record keeps its variant and its moves); any other patience game: from its "
                            "game record (as s writes it)")
    parser.add_argument("--winnable", action="store_true",
                        help="a deal proven winnable (with --seed N: the N-th, as 'cardtable deal "
                             "--winnable' gives)")
    add_deal_arguments(parser, start)
    parser.add_argument("--save", metavar="FILE",
                        help="where the game record goes: Klondike's s key writes it (default "
                             "./cardtable-game.txt); in Kings Corner ctrl+s writes the hand so far (default "
                             "./cardtable-hand.txt) and, with --save, every finished hand is written there")
    parser.add_argument("--ascii", action="store_true", help="plain ASCII cards (suits as c d h s)")
    parser.add_argument("--store", metavar="PATH",
                        help="the results store that keeps your statistics ('cardtable stats [kings-corner]'; "
                             "default: the per-user data directory)")
    parser.add_argument("--no-stats", action="store_true", help="keep no statistics of these games")
    parser.add_argument("--cumulative", action="store_true",
                        help="under Vegas scoring, carry the balance from game to game (kept in the data folder "
                             "for each variant; a game counts once won, or left for a new one after a move; "
                             "a restored game keeps carrying it)")
    parser.add_argument("--no-autosave", action="store_true",
                        help="neither restore nor keep the game in progress (it is lost when the app closes)")
    add_variant_arguments(parser)
    _ONLY["klondike"] = [(a.dest, a.option_strings[0], a.default) for a in parser._actions
                         if a not in before and a.dest not in ("ascii", "seed", "save", "store", "no_stats")]
    before = list(parser._actions)
    kings = parser.add_argument_group("Kings Corner")
    kings.add_argument("--opponents", metavar="N", help="1 to 5 bots (default 3)")
    kings.add_argument("--level", metavar="LEVEL", help="the bots: random, greedy, strategic or expert (default)")
    kings.add_argument("--target", metavar="POINTS",
                       help="penalty points that end the match (default 25)")
    kings.add_argument("--delay", metavar="SECONDS",
                       help=f"seconds between the bots' actions, 0 to {MAX_DELAY:g} (default 0.6)")
    kings.add_argument("--plain", action="store_true",
                       help="the line-by-line seat, for screen readers and pipes")
    _ONLY["kings-corner"] = [(a.dest, a.option_strings[0], a.default) for a in parser._actions
                             if a not in before]


#: The options of Klondike's that every patience game takes too.
_PATIENCE_TAKES = ("no_autosave", "file", "daily", "date")


def _refuse_others(args: argparse.Namespace) -> None:
    """A one-line UsageError for an option of another game; a whole-number
    --seed for Klondike and Kings Corner."""
    patience = args.game not in _ONLY
    for game, options in _ONLY.items():
        if game == args.game:
            continue
        for dest, flag, default in options:
            if getattr(args, dest) != default and not (patience and dest in _PATIENCE_TAKES):
                raise UsageError(f"{flag} is not an option of {args.game} (only of {game})")
    if not patience and isinstance(args.seed, str):
        raise UsageError(f"--seed {args.seed}: {args.game} has no {args.seed.split(':')[0]}:N deal numbers; "
                         "those go with the games that have them (e.g. cardtable play freecell --seed ms:11982)")


def _checked(kind: Callable[[str], _T], text: str, prefix: str = "") -> _T:
    """``kind(text)``, its complaint raised as a UsageError."""
    try:
        return kind(text)
    except argparse.ArgumentTypeError as error:
        raise UsageError(f"{prefix}{error}") from None


@dataclass(frozen=True)
class _KingsCornerSettings:
    opponents: int
    target: int
    delay: float
    level: str


def _kings_corner_settings(args: argparse.Namespace) -> _KingsCornerSettings:
    """The checked Kings Corner options (a one-line UsageError for a bad one)."""
    values = {dest: getattr(args, dest) if getattr(args, dest) is not None else default
              for dest, default in _KINGS_CORNER_DEFAULTS.items()}
    level = values["level"].strip().lower()
    from cardtable.bots.kings_corner import make_bot

    make_bot(level)  # an unknown level: a one-line error before anything starts
    return _KingsCornerSettings(opponents=_checked(whole_number(1, "--opponents", 5), values["opponents"]),
                                target=_checked(whole_number(1, "--target"), values["target"]),
                                delay=_checked(bot_delay, values["delay"], "--delay: "), level=level)


def _cmd_kings_corner(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cardtable._files import check_output

    settings = _kings_corner_settings(args)
    check_output(args.save)
    if args.plain:
        from rich.console import Console

        from cardtable.cli.kings_corner_seat import HumanSeat, hand_saver

        return HumanSeat(opponents=settings.opponents, level=settings.level, seed=args.seed,
                         target=settings.target, delay=settings.delay, unicode=not args.ascii,
                         console=Console(highlight=False), on_hand_end=hand_saver(args.save)).run()
    from cardtable.app.kings_corner import KingsCornerApp

    return _run_app(KingsCornerApp(opponents=settings.opponents, level=settings.level, seed=args.seed,
                                   target=settings.target, delay=settings.delay, ascii_only=args.ascii,
                                   save_path=Path(args.save) if args.save is not None else None,
                                   stats_path=_stats_path(args)))


def _check_klondike(args: argparse.Namespace) -> tuple[Variant, DealChoice]:
    """The variant and the deal asked for, after checking the Klondike options
    and paths (before any work)."""
    from cardtable._files import check_output

    if args.winnable and args.file is not None:
        raise UsageError("--winnable and --file cannot be used together")
    choice = check_deal_arguments(args)
    variant = variant_from_args(args)
    check_output(args.save)
    return variant, choice


def _cmd_play(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cardtable._files import read_text
    from cardtable.klondike.formats import load_start
    from cardtable.klondike.game import KlondikeGame
    from cardtable.klondike.position import Position

    if args.game not in _ONLY:  # Klondike's rules, however named (klondike:draw-3, a file), play in Klondike's app
        from cardtable.cli._patience import klondike_rules
        from cardtable.patience import load

        if klondike_rules(args, load(args.game), args.game):
            args.game = "klondike"
    _refuse_others(args)
    if args.game == "kings-corner":
        return _cmd_kings_corner(args)
    if args.game != "klondike":
        return _cmd_patience(args)
    variant, choice = _check_klondike(args)
    save_path = Path(args.save) if args.save is not None else None

    from cardtable.app import autosave

    autosave_path = None if args.no_autosave else autosave.autosave_path()
    game: KlondikeGame | None = None
    number: int | None = None
    notice: str | None = None
    seconds = 0.0
    stats_path = _stats_path(args)
    daily: str | None = None
    grade: str | None = None
    if choice.asked:
        number, position, what = choose_deal(choice, args.seed, variant)
        game = KlondikeGame(position, variant)
        daily = choice.day.isoformat() if choice.day is not None else None
        grade = choice.level if daily is None else None
        notice = f"New game: {what}, {variant.title}. Press ? for the keys."
        if daily is not None:
            number = None  # the daily deal is known by its date, not by a number to count on from
    elif args.file is not None:
        position, record = load_start(read_text(args.file))
        refuse_rule_flags(args, record, args.file)
        game = record.replay() if record is not None else KlondikeGame(position, variant)
        number = _header_number(record.headers.get("Seed")) if record is not None else None
    elif args.seed is None and not args.winnable and autosave_path is not None:
        record, notice = autosave.restore(autosave_path)
        if record is not None:
            game = record.replay()
            args.winnable = "Winnable" in record.headers
            daily = record.headers.get("Daily")
            number = _header_number(record.headers.get("Winnable" if args.winnable else "Seed"))
            seconds = autosave.saved_seconds(record)
            args.cumulative = args.cumulative or autosave.CUMULATIVE_HEADER in record.headers
            from cardtable.sim.grade import LEVELS

            grade = kept if (kept := record.headers.get(autosave.GRADE_HEADER)) in LEVELS else None
            notice = f"Welcome back: your game of {plural(len(game.moves), 'move')} is restored. Press ? for the keys."
    if game is None:
        import secrets

        number = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
        if args.winnable:
            from cardtable.solver import winnable_deal

            game = KlondikeGame(winnable_deal(number, variant), variant)
        else:
            game = KlondikeGame(Position.from_seed(number), variant)

    saved = None
    if autosave_path is not None and (args.file is not None or args.seed is not None or args.winnable or choice.asked):
        # A game is saved and a new one asked for: the app leaves the saved one at the first move here.
        saved, trouble = autosave.restore(autosave_path)
        notice = trouble or notice

    from cardtable.app.klondike import KlondikeApp

    return _run_app(KlondikeApp(game, seed=number, winnable=args.winnable, save_path=save_path,
                                autosave_path=autosave_path, stats_path=stats_path, ascii_only=args.ascii,
                                notice=notice, balance_path=autosave.balance_path() if args.cumulative else None,
                                seconds=seconds, saved=saved, daily=daily, grade=grade))


def _patience_start(args: argparse.Namespace) -> tuple[PatienceGame, int | str | None]:
    """The game ``args.game`` names, dealt from ``--seed`` (checked before
    any work: a bad name, file or seed is a one-line error)."""
    from cardtable.patience import PatienceGame, load

    description = load(args.game)
    if getattr(args, "date", None) is not None and not getattr(args, "daily", False):
        raise UsageError("--date goes with --daily: the daily deal of that date")
    if args.seed is None:
        return PatienceGame.from_seed(description, 0), None
    return PatienceGame.from_seed(description, args.seed), args.seed


def _patience_daily(args: argparse.Namespace, game: PatienceGame) -> tuple[PatienceGame, int, str]:
    """The day's deal of ``game``'s game (``--date``'s, else today's, in
    local time): the one ``cardtable deal --game NAME --daily`` gives
    (:func:`~cardtable.solver.patience_deals.daily_game`), its seed and its date."""
    import datetime

    from cardtable.patience import PatienceGame
    from cardtable.solver.daily import parse_date
    from cardtable.solver.patience_deals import daily_game

    day = parse_date(args.date) if args.date is not None else datetime.date.today()
    found = daily_game(day, game.description)
    return PatienceGame.from_seed(game.description, found.seed), found.seed, day.isoformat()


def _cmd_patience(args: argparse.Namespace) -> int:
    """``cardtable play GAME`` for every patience game but Klondike (:mod:`cardtable.app.patience`)."""
    import secrets
    from pathlib import Path

    from cardtable._files import check_output
    from cardtable.app.autosave import GRADE_HEADER
    from cardtable.app.patience_books import PEEKED_HEADER, PatienceBooks, saved_seconds
    from cardtable.runs.store import default_store_path

    game, seed = _patience_start(args)
    check_output(args.save)
    stats = _stats_path(args)
    books = PatienceBooks(game.description,
                          autosave_folder=None if args.no_autosave else default_store_path().parent,
                          store_path=stats)
    notice: str | None = None
    seconds = 0.0
    daily: str | None = None
    peeked = False
    grade: str | None = None
    if args.daily:
        game, seed, daily = _patience_daily(args, game)
        notice = f"The daily deal of {game.description.title} for {daily} (deal {seed}). Press ? for the keys."
    elif args.file is not None:
        game, seed = _patience_record(args.file, game)
        notice = (f"Game record {args.file}: {plural(len(game.moves), 'move')} played. "
                  "Press ? for the keys.")
    elif seed is None:
        record, notice = books.restore()
        if record is not None:
            game = record.replay()
            seed = _deal_of(record.seed)
            seconds = saved_seconds(record.headers)
            daily = record.headers.get("Daily")
            peeked = record.headers.get(PEEKED_HEADER) == "yes"
            from cardtable.sim.grade import LEVELS

            grade = kept if (kept := record.headers.get(GRADE_HEADER)) in LEVELS else None
            notice = (f"Welcome back: your game of {game.description.title}, "
                      f"{plural(len(game.moves), 'move')}, is restored. Press ? for the keys.")
        else:
            from cardtable.patience import PatienceGame

            seed = secrets.randbelow(1_000_000)
            game = PatienceGame.from_seed(game.description, seed)
    saved = None
    if args.seed is not None or args.file is not None or args.daily:
        # A game is saved and another asked for: the app leaves the saved one at the first move here.
        saved, trouble = books.restore()
        notice = trouble or notice
    from cardtable.app.patience import PatienceApp

    return _run_app(PatienceApp(game, seed=seed, books=books, ascii_only=args.ascii, notice=notice,
                                save_path=Path(args.save) if args.save is not None else None, seconds=seconds,
                                saved=saved, daily=daily, peeked=peeked, grade=grade))


def _patience_record(path: str, game: PatienceGame) -> tuple[PatienceGame, int | str | None]:
    """The game of the record in ``path`` (its moves played), which must be of ``game``'s game."""
    from cardtable._files import read_text
    from cardtable.patience.record import PatienceRecord, rules_name

    record = PatienceRecord.parse(read_text(path))
    if rules_name(record.description) != rules_name(game.description):
        raise UsageError(f"{path}: a game record of {record.description.title} "
                         f"({rules_name(record.description)}), not of {game.description.title}")
    return record.replay(), _deal_of(record.seed)


def _deal_of(text: str | None) -> int | str | None:
    """A record's Seed header as ``--seed`` takes it (None: none, or not one)."""
    if text is None:
        return None
    return int(text) if text.isdigit() else text


def _run_app(app: App[Any]) -> int:
    """Run a Textual app until it quits; returns the exit status. SIGTERM
    and SIGHUP (``timeout``, systemd, a closed terminal; also after SIGSTOP
    and SIGCONT) ask the app to quit as ``q`` does, on its event loop, so it
    keeps its game as on any quit (the autosave); then the command says so
    and ends with their status (143, 129)."""
    import asyncio
    import signal

    from cardtable.cli import EXIT_HANGUP, EXIT_TERMINATED

    received: list[signal.Signals] = []
    signums = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])

    def ask_to_quit(signum: signal.Signals) -> None:
        received.append(signum)
        app.exit()

    loop = asyncio.new_event_loop()
    previous = {signum: signal.getsignal(signum) for signum in signums}
    try:
        for signum in signums:
            loop.add_signal_handler(signum, ask_to_quit, signum)
    except (NotImplementedError, RuntimeError):  # no signal handling on this loop: the command's own stay
        pass
    try:
        app.run(loop=loop)
    finally:
        for signum, handler in previous.items():
            loop.remove_signal_handler(signum)
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        loop.close()
    if received:
        print(f"cardtable: interrupted by {received[0].name}; the game is kept as on any quit", file=sys.stderr)
        return EXIT_TERMINATED if received[0] == signal.SIGTERM else EXIT_HANGUP
    return 0


def _stats_path(args: argparse.Namespace) -> Path | None:
    """Where the statistics of these games are kept (None with --no-stats)."""
    if args.no_stats:
        return None
    if args.store:
        from pathlib import Path

        return Path(args.store)
    from cardtable.runs.store import default_store_path

    return default_store_path()


def _header_number(text: str | None) -> int | None:
    """A seed header's number, or None when absent or not a number."""
    if text is None or not text.isdigit():
        return None
    return int(text)


# ---------------------------------------------------------------------------
# cardtable serve

#: Hosts that only this machine can reach.
_LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _register_serve(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve", help="play in a web browser: any patience game's card table (a chooser of every game), "
                      "Kings Corner's, or the terminal apps, over HTTP",
        allow_abbrev=False,  # '--po 8767' is no option: taken as --port here, it would reach 'play' as well
        description="Serve a game to web browsers. Klondike: a card table (drag and drop, touch, keys) "
                    "served by this one process for every player; each player (a cookie) keeps their own "
                    "game in the results store after every move, and a new player is dealt --seed N, a "
                    "--winnable deal or a random one, in the chosen variant (their New game may choose other rules "
                    "and winnable deals). Kings Corner: shared tables of "
                    "2 to 6 seats (a player opens one and shares its link; bots take the empty seats; "
                    "--opponents, --level and --target are a new table's defaults). Any other patience game, "
                    "named as GAME or with --game: its card table at / (without a game: the chooser of every "
                    "game at /, Klondike's table at /klondike). With --terminal: "
                    "the terminal app in a browser page, one 'cardtable play' per session. "
                    "By default only this machine can connect (127.0.0.1); serving to other machines needs "
                    "--public.",
        epilog="The terminal page keeps your autosave and statistics as 'cardtable play' does; with "
               "--public each visitor gets a fresh game and nothing is kept, unless play options ask for it.")
    parser.add_argument("--host", metavar="HOST",
                        help="the address to listen on (default 127.0.0.1; 0.0.0.0 with --public)")
    parser.add_argument("--port", metavar="PORT", type=whole_number(1, "--port", 65535), default=8000,
                        help="the TCP port (default 8000)")
    parser.add_argument("--public", action="store_true",
                        help="allow a host other machines can reach (prints a warning)")
    parser.add_argument("--url", metavar="URL",
                        help="the address browsers use to reach this server, when it is not http://HOST:PORT "
                             "(behind a proxy, or with --host 0.0.0.0)")
    parser.add_argument("--terminal", action="store_true",
                        help="serve the terminal app's page (one 'cardtable play' per session) instead of "
                             "the card table")
    parser.add_argument("--sessions", metavar="N", type=whole_number(1, "--sessions", 1000),
                        help="with --terminal: the most sessions (game processes) at once; more pages are "
                             "told the server is full (default 8)")
    parser.add_argument("--game", metavar="NAME|FILE.json", dest="table_game",
                        help="serve this one patience game's table (a game of 'cardtable games', options after "
                             "colons as in golf:wrap, or a description file) at / instead of the game chooser; "
                             "the same as naming it as GAME")
    parser.add_argument("--seat-timeout", metavar="SECONDS",
                        help="Kings Corner: how long a person's seat waits for them after they leave the page "
                             "before a bot plays it until they return (default 60)")
    add_play_arguments(parser)
    parser.set_defaults(func=_cmd_serve)


def _serve_options() -> argparse.ArgumentParser:
    """A parser of ``serve``'s own options alone (what is left are play's)."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    for flag in ("--host", "--port", "--url", "--seat-timeout", "--sessions", "--game"):
        parser.add_argument(flag)
    parser.add_argument("--public", action="store_true")
    parser.add_argument("--terminal", action="store_true")
    return parser


def serve_command(play_options: list[str], *, game: str, public: bool) -> list[str]:
    """The command each browser session runs: ``cardtable play PLAY_OPTIONS``
    (``play_options`` may name the game; it is ``game`` either way).

    With ``public``, a session adds nothing to the serving user's
    statistics (unless the options name a store), and a patience session
    (Klondike's, or any other game's) neither restores nor keeps their game in progress.

    >>> serve_command(["klondike", "--draw", "3"], game="klondike", public=False)[-4:]
    ['play', 'klondike', '--draw', '3']
    >>> serve_command([], game="klondike", public=True)[-3:]
    ['play', '--no-autosave', '--no-stats']
    """
    command = [sys.executable, "-m", "cardtable", "play", *play_options]
    if public:
        if game != "kings-corner" and "--no-autosave" not in play_options:
            command.append("--no-autosave")
        if "--no-stats" not in play_options and not any(o.startswith("--store") for o in play_options):
            command.append("--no-stats")
    return command


def _cmd_serve(args: argparse.Namespace) -> int:
    import shlex
    import socket

    from cardtable._files import check_output, read_text
    from cardtable.klondike.formats import load_start

    named = None  # a patience game named as the game
    if args.game not in _ONLY:  # as play: Klondike's rules, however named (klondike:draw-3, a file), are its table
        from cardtable.cli._patience import klondike_rules
        from cardtable.patience import load

        named = load(args.game)
        if klondike_rules(args, named, args.game):
            args.game, named = "klondike", None
    # 'serve freecell' is that game's table, as --game freecell; with --terminal, its terminal app
    table = args.table_game is not None or (named is not None and not args.terminal)
    table_game = _table_game(args, named) if table else None
    _refuse_others(args)
    title = args.game.replace('-', ' ').title()
    if args.game == "kings-corner":
        if args.plain:
            raise UsageError("--plain is the line-by-line seat of a terminal: it cannot be served")
        _kings_corner_settings(args)
        check_output(args.save)
    elif args.game != "klondike" and table_game is None:  # a patience game's terminal app
        game, _ = _patience_start(args)
        if args.file is not None:
            _patience_record(args.file, game)
        check_output(args.save)
        title = game.description.title
    else:
        _check_klondike(args)
        if args.file is not None:
            refuse_rule_flags(args, load_start(read_text(args.file))[1], args.file)
    given = args.argv[args.argv.index("serve") + 1:]
    _, rest = _serve_options().parse_known_args(given)
    options = rest  # play's options, and the game when it was named
    host = args.host if args.host is not None else ("0.0.0.0" if args.public else "127.0.0.1")
    try:
        infos = socket.getaddrinfo(host, args.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        why = error.strerror if isinstance(error, socket.gaierror) else "not a host name"
        shown = host if host.isprintable() and host.strip() == host and host else repr(host)
        raise UsageError(f"--host {shown}: not an address of this machine ({why})") from None
    if host not in _LOOPBACK and not args.public:
        raise UsageError(f"--host {host}: other machines could connect; add --public to allow it")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise UsageError(f"port {args.port} on {host} is already in use; choose another with --port") \
                    from None
            raise UsageError(f"cannot listen on {host} port {args.port}: {error.strerror}") from None
    url = _checked_url(args.url) if args.url is not None else \
        f"http://{'localhost' if host in _LOOPBACK else f'[{host}]' if ':' in host else host}:{args.port}"
    if args.public:
        cost = "" if not args.terminal else ", and every session runs a game process on it"
        print(f"cardtable: warning: serving on {host} port {args.port}: anyone who can reach this machine "
              f"can play here{cost}", file=sys.stderr)
    if not args.terminal:
        return _serve_table(args, host=host, url=url, table_game=table_game)
    if args.seat_timeout is not None:
        raise UsageError("--seat-timeout is an option of the Kings Corner card table: leave out --terminal")
    command = serve_command(options, game=args.game, public=args.public)
    from cardtable.app.serve import DEFAULT_SESSIONS, GameServer

    GameServer(shlex.join(command), host=host, port=args.port, url=url,
               title=f"cardtable: {title}", loopback=host in _LOOPBACK,
               sessions=args.sessions or DEFAULT_SESSIONS).serve()
    return 0


def _klondike_asked(args: argparse.Namespace) -> bool:
    """Whether ``serve`` was asked for Klondike's table: by name, or by an option only Klondike takes (else
    ``/`` is the game chooser, and Klondike's table is at ``/klondike``)."""
    given = args.argv[args.argv.index("serve") + 1:]
    return "klondike" in given or args.seed is not None or any(
        getattr(args, dest) != default for dest, _flag, default in _ONLY["klondike"])


def _table_game(args: argparse.Namespace, named: Description | None) -> Description:
    """The one patience game whose table is served, named by ``--game`` or as the game (``serve freecell``,
    ``named``, read already); the table takes none of the terminal's or the other games' options."""
    from cardtable.patience import load

    if args.table_game is None and named is not None:  # named as the game, without --terminal
        game, told = named, f"{named.title}'s card table"
    else:
        if args.terminal:
            raise UsageError("--game serves a patience game's card table: leave out --terminal")
        given = args.argv[args.argv.index("serve") + 1:]
        if args.game != "klondike" or "klondike" in given:
            raise UsageError(f"--game serves a patience game's table: leave out {args.game!r}")
        game, told = load(args.table_game), "a patience game's table (--game)"
    for options in _ONLY.values():
        for dest, flag, default in options:
            if getattr(args, dest) != default:
                terminal = "; the terminal app's page takes it: add --terminal" \
                    if args.table_game is None and dest in _PATIENCE_TAKES else ""
                raise UsageError(f"{flag} is not an option of {told}{terminal}")
    if args.seed is not None:
        raise UsageError("--seed: a patience game's table opens a deal from its link, /play/NAME?seed=N")
    return game


def _checked_url(text: str) -> str:
    """``--url``: the address browsers use, an http or https URL with a host
    (and a port, a path), else a :class:`UsageError` that names it."""
    from urllib.parse import urlsplit

    example = "give one such as http://cards.example:8000/"
    try:
        parts = urlsplit(text)
        port = parts.port  # a port that is not a number or out of range raises here
    except ValueError as error:
        raise UsageError(f"--url {text[:80]!r}: not a web address ({error}); {example}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"--url {text[:80]!r}: not a web address (http:// or https:// and a host); {example}")
    if port == 0:
        raise UsageError(f"--url {text[:80]!r}: port 0 is no port a browser can reach; {example}")
    if parts.username is not None or parts.password is not None or parts.query or parts.fragment \
            or any(char.isspace() or not char.isprintable() for char in text):
        raise UsageError(f"--url {text[:80]!r}: an address is a scheme, a host, a port and a path, nothing "
                         f"else; {example}")
    return text


#: Play options the card table does not take (they belong to the terminal page), as (dest, flag).
_TERMINAL_ONLY = (("file", "--file"), ("save", "--save"), ("ascii", "--ascii"), ("no_autosave", "--no-autosave"),
                  ("no_stats", "--no-stats"))


def _serve_table(args: argparse.Namespace, *, host: str, url: str, table_game: Description | None) -> int:
    """Serve the card tables (:mod:`cardtable.web`): the patience games' chooser at ``/`` (with ``--game``,
    that one game's table; with the game named, the Klondike or Kings Corner table)."""
    if args.sessions is not None:
        raise UsageError("--sessions is an option of the terminal page: add --terminal, or leave it out")
    for dest, flag in _TERMINAL_ONLY:
        if getattr(args, dest) not in (None, False):
            raise UsageError(f"{flag} is an option of the terminal page: add --terminal, or leave it out")
    from pathlib import Path

    from cardtable.runs.store import default_store_path
    from cardtable.web.klondike import KlondikeDealer
    from cardtable.web.server import TableServer, configure_logging

    kings = None
    if args.game == "kings-corner":
        from cardtable.web.kings_corner import LEVELS, KingsCornerHouse

        settings = _kings_corner_settings(args)
        if settings.level not in LEVELS:
            raise UsageError(f"--level {settings.level}: the card table's bots are {', '.join(LEVELS)}")
        seat_timeout = _checked(pause, args.seat_timeout or "60", "--seat-timeout: ")
        if seat_timeout > 86400:
            raise UsageError(f"--seat-timeout {seat_timeout:g}: at most 86400 seconds (a day)")
        if settings.target > 1000:
            raise UsageError(f"--target {settings.target}: at most 1000 points at the card table")
        kings = KingsCornerHouse(seats=settings.opponents + 1, level=settings.level, target=settings.target,
                                 seed=args.seed, seat_timeout=seat_timeout, delay=settings.delay)
        dealer = KlondikeDealer(variant_from_args(args))
    else:
        if args.seat_timeout is not None:
            raise UsageError("--seat-timeout is not an option of klondike (only of kings-corner)")
        dealer = KlondikeDealer(variant_from_args(args), seed=args.seed, winnable=args.winnable,
                                cumulative=args.cumulative)
    games, home, title = None, args.game, "cardtable: Kings Corner" if kings is not None else "cardtable: Klondike"
    if table_game is not None:
        games, home = {table_game.name: table_game}, table_game.name
        title = f"cardtable: {table_game.title}"
    elif args.game == "klondike" and not _klondike_asked(args):
        home, title = "games", "cardtable: card games"
    configure_logging()
    server = TableServer(dealer, store_path=Path(args.store) if args.store else default_store_path(), url=url,
                         title=title, loopback=host in _LOOPBACK, kings=kings, home=home, games=games)
    server.serve(host, args.port, announce=lambda text: print(text, file=sys.stderr, flush=True))
    return 0
