"""Solvers run as separate programs, for the solver benchmark.

Two exact Klondike solvers are built by hand (docs/peers.md says how):

Solvitaire
    ``solvitaire --type klondike|klondike-deal-1 --classify --timeout MS DEAL.json``
    reads the deal as Solvitaire JSON (:func:`cardtable.klondike.formats.to_solvitaire`)
    and prints one CSV line whose last field is ``solved``, ``unsolvable``,
    ``timed-out``, ``memory-limit-reached`` or ``terminated``. Its other
    presets take the deal JSON of :func:`cardtable.patience.solvitaire.to_solvitaire`
    (:func:`solve_solvitaire_file`, for benchmarks/patience_solver.py).
lonelybot
    ``lonecli solve exact SEED DRAW`` (or the ``lonelybot-solve`` driver,
    which takes the same arguments) reads the deal as an *exact seed*: the
    rank of the 52-card permutation (:func:`lonelybot_seed`); it prints
    ``Solvable in N moves``, ``Impossible`` or ``Terminated``.

Each run is a child process, timed from start to exit, its peak resident
memory reported by GNU time (``/usr/bin/time``, Debian's ``time`` package).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from subprocess import DEVNULL, Popen

from cardtable.cards import RANK_NAMES, Card
from cardtable.klondike import Position
from cardtable.klondike.formats import from_solvitaire, solvitaire_deal, to_solvitaire
from cardtable.klondike.position import PILE_COUNT, DealError

#: lonelybot's card number is ``rank_index * 4 + suit_index``, suits in this order.
LONELYBOT_SUITS = "hdcs"
#: Every number below this is an exact seed: 52!
LONELYBOT_SEEDS = 80658175170943878571660636856403766975289505440883277824000000000000

_SOLVITAIRE_RESULTS = {"solved": "won", "unsolvable": "unwinnable"}


def _is_fresh_deal(position: Position) -> bool:
    return (not position.waste and not any(position.foundation) and position.pass_number == 1
            and [len(p) for p in position.tableau] == list(range(1, PILE_COUNT + 1))
            and list(position.face_down) == list(range(PILE_COUNT)))


def lonelybot_order(position: Position) -> list[Card]:
    """The 52 cards in the order lonelybot deals them: pile 1 to pile 7,
    each from bottom to top, then the stock in the order it is drawn.
    Only a fresh deal has an order; anything else raises :class:`ValueError`."""
    if not _is_fresh_deal(position):
        raise ValueError("lonelybot takes a fresh deal only (seven piles of 1 to 7 cards, no waste, "
                         "empty foundations)")
    return [card for pile in position.tableau for card in pile] + list(reversed(position.stock))


def _lonelybot_number(card: Card) -> int:
    return (card.rank - 1) * 4 + LONELYBOT_SUITS.index(card.suit.letter)


def lonelybot_seed(position: Position) -> int:
    """lonelybot's exact seed of a fresh deal: the inverse of its
    ``exact_shuffle``, which starts from the cards in number order and, for
    i = 1 .. 51, swaps card i with card ``seed % (i + 1)`` and divides the
    seed by ``i + 1``."""
    numbers = [_lonelybot_number(card) for card in lonelybot_order(position)]
    seed = 0
    for i in range(len(numbers) - 1, 0, -1):
        where = numbers.index(i, 0, i + 1)
        seed = seed * (i + 1) + where
        numbers[where], numbers[i] = numbers[i], numbers[where]
    return seed


def lonelybot_deal(seed: int) -> Position:
    """The deal of an exact seed (as lonelybot deals it), for checking a conversion."""
    if not 0 <= seed < LONELYBOT_SEEDS:
        raise ValueError(f"an exact seed is a whole number below 52!, not {seed}")
    numbers = list(range(52))
    for i in range(1, 52):
        seed, where = divmod(seed, i + 1)
        numbers[i], numbers[where] = numbers[where], numbers[i]
    cards = [Card(n // 4 + 1, _suit(LONELYBOT_SUITS[n % 4])) for n in numbers]
    piles, start = [], 0
    for size in range(1, PILE_COUNT + 1):
        piles.append(tuple(cards[start:start + size]))
        start += size
    return Position(tableau=tuple(piles), face_down=tuple(range(PILE_COUNT)),
                    stock=tuple(reversed(cards[start:])), waste=(), foundation=(0, 0, 0, 0))


def _suit(letter: str) -> int:
    return "cdhs".index(letter)


def parse_lonelybot(text: str) -> tuple[str, float | None]:
    """``(verdict, seconds)`` from what ``lonecli solve`` printed: the
    verdict ``won``, ``unwinnable`` or ``unknown``, and the seconds of its
    ``Run in N ms`` line (its own clock, without starting the program), or
    ``None``."""
    verdict, seconds = "unknown", None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("Run in ") and line.endswith(" ms"):
            with contextlib.suppress(ValueError):
                seconds = float(line[len("Run in "):-len(" ms")]) / 1000
        elif line.startswith("Solvable in "):
            verdict = "won"
        elif line == "Impossible":
            verdict = "unwinnable"
    return verdict, seconds


def _count_line(text: str, name: str) -> int | None:
    """N of the first ``NAME N`` line of ``text``, or ``None``."""
    for line in text.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == name and words[1].isdigit():
            return int(words[1])
    return None


def parse_lonelybot_states(text: str) -> int | None:
    """The states of the ``States N`` line the ``lonelybot-solve`` driver
    prints (docs/peers.md), or ``None`` (another program, or it did not
    finish).

    >>> parse_lonelybot_states("Run in 1.5 ms\\nImpossible\\nStates 26318\\n"), parse_lonelybot_states("Impossible\\n")
    (26318, None)
    """
    return _count_line(text, "States")


def parse_lonelybot_visits(text: str) -> int | None:
    """The ``Visits N`` line of the ``lonelybot-solve`` driver (docs/peers.md):
    the states its search looked up in its table, the children it made (new
    or already there); ``None`` from a driver built before it printed them.

    >>> parse_lonelybot_visits("Impossible\\nStates 26318\\nVisits 45102\\n"), parse_lonelybot_visits("States 5\\n")
    (45102, None)
    """
    return _count_line(text, "Visits")


def parse_solvitaire(text: str) -> tuple[str, float | None]:
    """``(verdict, seconds)`` from Solvitaire's ``--classify`` line
    (``[seed], type, milliseconds, states, ..., type``) or, without
    ``--classify``, its ``Solution Type:`` and ``Time Taken
    (milliseconds):`` lines; the verdict is ``won``, ``unwinnable`` or
    ``unknown``, the seconds its own clock's (``None`` if not printed)."""
    verdict, seconds = "unknown", None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("Solution Type:"):
            verdict = _SOLVITAIRE_RESULTS.get(line.split(":", 1)[1].strip(), "unknown")
        elif line.startswith("Time Taken (milliseconds):"):
            with contextlib.suppress(ValueError):
                seconds = int(line.split(":", 1)[1]) / 1000
        elif line.count(",") >= 3 and not line.startswith("["):
            fields = [f.strip() for f in line.split(",")]
            verdict = _SOLVITAIRE_RESULTS.get(fields[-1], "unknown")
            with contextlib.suppress(ValueError):
                seconds = int(fields[2]) / 1000
    return verdict, seconds


@dataclass(frozen=True)
class PeerRun:
    """One run of a solver program: its verdict, wall seconds from start to
    exit, the seconds it reported itself (``None`` if it did not), peak
    resident memory in KiB (``None`` if unknown), whether it was killed at
    the time limit, its exit status, what it printed, and its CPU seconds
    (user and system; ``None`` when not measured)."""

    result: str
    seconds: float
    own_seconds: float | None
    peak_kib: int | None
    killed: bool
    status: int
    output: str
    cpu_seconds: float | None = None


#: GNU time, which reports the peak memory of the one program it runs.
TIME = "/usr/bin/time"


def run_program(argv: Sequence[str], timeout: float, gnu_time: bool = True,
                ) -> tuple[str, float, int | None, bool, int]:
    """Run ``argv`` with no input under GNU time (or, ``gnu_time`` false,
    started straight from this process, with no peak); kill it after
    ``timeout`` seconds. Returns ``(stdout, seconds, peak_kib, killed, status)``.

    The peak is GNU time's ``%M``: the program is started from that small
    process, so its figure is the program's own. (A program started straight
    from this process would count this process's memory too: Linux carries
    the memory high-water mark of the process that forked it across ``exec``.)
    Without GNU time the peak is ``None``."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "time"
        command = [TIME, "-f", "%M", "-o", str(report), *argv] if gnu_time and os.path.exists(TIME) else list(argv)
        with open(Path(folder) / "out", "w+b") as out:
            began = time.perf_counter()
            process = Popen(command, stdin=DEVNULL, stdout=out, stderr=DEVNULL)
            killed = wait_or_kill(process, timeout)
            seconds = time.perf_counter() - began
            out.seek(0)
            text = out.read().decode("utf-8", "replace")
        peak = parse_time_report(report.read_text(encoding="utf-8")) if report.exists() else None
    return text, seconds, peak, killed, process.returncode


def wait_or_kill(process: Popen[bytes], timeout: float) -> bool:
    """Wait for ``process`` to exit, killing it (and the program GNU time runs)
    after ``timeout`` seconds; whether it was killed. The wait blocks until the
    exit itself, so the time taken around it is the run's: ``Popen.wait`` with
    a timeout polls, sleeping twice as long each time (0.5 ms, 1 ms, 2 ms ...
    up to 50 ms), and would see a 4 ms run end at 7.5 ms."""
    expired = threading.Event()

    def expire() -> None:
        if process.poll() is None:
            expired.set()
            _kill_tree(process.pid)

    timer = threading.Timer(timeout, expire)
    timer.daemon = True
    timer.start()
    try:
        process.wait()
    except BaseException:  # interrupted (Ctrl-C, SIGTERM): the program does not outlive the benchmark
        _kill_tree(process.pid)
        process.wait()
        raise
    finally:
        timer.cancel()
    return expired.is_set()


def _kill_tree(pid: int) -> None:
    """Kill ``pid``'s children (the program GNU time runs), then ``pid``."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    for child in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(child), signal.SIGKILL)
    if not children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def parse_time_report(text: str) -> int | None:
    """The peak KiB in GNU time's ``-f %M`` report (its last line; a line
    before it may say the program was killed by a signal)."""
    lines = text.strip().splitlines()
    return int(lines[-1]) if lines and lines[-1].strip().isdigit() else None


def solvitaire_command(binary: str, deal_file: str, draw: int, timeout: float) -> list[str]:
    """Solvitaire's Klondike command line for a deal file (its own limit set to ``timeout``)."""
    if draw not in (1, 3):
        raise ValueError(f"Solvitaire's Klondike presets draw 1 or 3 cards, not {draw}")
    return solvitaire_preset_command(binary, "klondike-deal-1" if draw == 1 else "klondike", deal_file, timeout)


def solvitaire_preset_command(binary: str, preset: str, deal_file: str, timeout: float) -> list[str]:
    """Solvitaire's command line for a deal file of any preset (``--type``), its
    one-line verdict (``--classify``), its own limit set to ``timeout``."""
    return [binary, "--type", preset, "--classify", "--timeout", str(max(1, round(timeout * 1000))), deal_file]


def solve_solvitaire_file(binary: str, preset: str, deal_file: str, timeout: float) -> PeerRun:
    """Run Solvitaire on a deal file of ``preset``, killed at ``timeout``
    wall seconds: its own ``--timeout`` is given too, but under load it
    does not stop it. Its CPU seconds and peak are the whole process's
    (GNU time), its start included."""
    text, measured, killed, status = run_measured(solvitaire_preset_command(binary, preset, deal_file, timeout),
                                                  timeout)
    verdict, own = parse_solvitaire(text)
    return PeerRun("unknown" if killed else verdict, measured.wall if measured else timeout, own,
                   measured.peak_kib if measured else None, killed, status, text,
                   measured.cpu if measured else None)


def lonelybot_command(binary: str, position: Position, draw: int) -> list[str]:
    """lonelybot's command line for a deal."""
    return [binary, "solve", "exact", str(lonelybot_seed(position)), str(draw)]


def solve_solvitaire(binary: str, position: Position, draw: int, timeout: float, folder: str) -> PeerRun:
    """Run Solvitaire on ``position`` (a deal file is written in ``folder``)."""
    deal = Path(folder) / "deal.json"
    deal.write_text(to_solvitaire(position), encoding="utf-8")
    # Its own clock stops it at the limit; the kill a little later is a backstop.
    text, seconds, peak, killed, status = run_program(solvitaire_command(binary, str(deal), draw, timeout),
                                                      timeout + 5)
    verdict, own = parse_solvitaire(text)
    return PeerRun("unknown" if killed else verdict, seconds, own, peak, killed, status, text)


def solve_lonelybot(binary: str, position: Position, draw: int, timeout: float) -> PeerRun:
    """Run lonelybot on ``position``; it has no limit of its own, so it is killed at ``timeout``.

    It runs twice: under GNU time, for its peak memory, and then started
    straight from this process, for its verdict and both its times (the first
    run's wall time also counts GNU time's own start, about a millisecond: as
    much as lonelybot's whole run on an easy deal). A run killed at the limit
    is not run again, and printed no time of its own: its own time is then
    taken as the whole run's (it had been searching for all of it, less its
    start), as a report counts a deal that hit the limit with the time it
    took."""
    argv = lonelybot_command(binary, position, draw)
    text, seconds, peak, killed, status = run_program(argv, timeout)
    if not killed:
        text, seconds, _, killed, status = run_program(argv, timeout, gnu_time=False)
    verdict, own = parse_lonelybot(text)
    if killed:
        own = seconds
    return PeerRun("unknown" if killed else verdict, seconds, own, peak, killed, status, text)


def check_solvitaire_interchange(binary: str, folder: str, seeds: tuple[int, ...] = (5, 7)) -> list[str]:
    """Check, with the real program, that cardtable and Solvitaire read each
    other's deal JSON; returns the problems found (none when all agree).

    For each seed: Solvitaire's ``--deal-only`` output is read back (its
    empty waste ``""`` and foundations included; its face-down cards are
    hidden as ``##``, so they are filled from :func:`solvitaire_deal`, whose
    named cards must be the same); and Solvitaire solves cardtable's JSON of
    that deal and of a position with cards on the foundations and in the
    waste, with the same states searched as on its own deal."""
    problems: list[str] = []
    for seed in seeds:
        shown = run_program([binary, "--type", "klondike", "--random", str(seed), "--deal-only"], 60)[0]
        start = shown.find("{")
        try:
            data = json.loads(shown[start:])
        except ValueError:
            problems.append(f"seed {seed}: Solvitaire's --deal-only printed no JSON")
            continue
        ours = solvitaire_deal(seed)
        piles = [list(pile) for pile in reversed(ours.tableau)]  # it lists pile 7 first
        named = [[tok for tok in pile] for pile in data["tableau piles"]]
        for pile, theirs in zip(piles, named, strict=True):
            for k, tok in enumerate(theirs):
                if tok == "##":  # face down: the suit letter in lower case
                    theirs[k] = _solvitaire_token(pile[k])[:-1] + pile[k].suit.letter.lower()
        filled = dict(data, **{"tableau piles": named})
        try:
            read = from_solvitaire(json.dumps(filled))
        except DealError as error:
            problems.append(f"seed {seed}: Solvitaire's --deal-only output is not read: {error}")
            continue
        if read.stock != ours.stock or [p[-1] for p in read.tableau] != [p[-1] for p in piles]:
            problems.append(f"seed {seed}: Solvitaire's deal differs from solvitaire_deal({seed})")
        own = run_program([binary, "--type", "klondike", "--classify", "--random", str(seed)], 120)[0]
        deal = Path(folder) / f"interchange-{seed}.json"
        deal.write_text(to_solvitaire(ours), encoding="utf-8")
        written = run_program(solvitaire_command(binary, str(deal), 3, 60), 120)[0]
        counters = [line.strip().split(",") for line in (own.strip().splitlines()[-1:] +
                                                          written.strip().splitlines()[-1:])]
        if len(counters) != 2 or [c[1:2] + c[3:] for c in counters[:1]] != [c[1:2] + c[3:] for c in counters[1:]]:
            problems.append(f"seed {seed}: Solvitaire searches cardtable's JSON of its deal differently")
        middle = _position_with_foundations(ours)
        if middle is not None:
            deal.write_text(to_solvitaire(middle), encoding="utf-8")
            verdict, _ = parse_solvitaire(run_program(solvitaire_command(binary, str(deal), 3, 60), 120)[0])
            if verdict != "won":
                problems.append(f"seed {seed}: Solvitaire does not solve cardtable's JSON of a position on a "
                                f"winning line with cards on the foundations ({verdict})")
    return problems


def _position_with_foundations(deal: Position) -> Position | None:
    """The first position on cardtable's winning line of ``deal`` (draw 3)
    with a card on the foundations and some in the waste, in the first pass."""
    from cardtable.klondike import KlondikeGame, Variant
    from cardtable.solver import solve

    variant = Variant.preset("thoughtful3")
    result = solve(deal, variant)
    game = KlondikeGame(deal, variant)
    for move in result.moves:
        game.play(move)
        position = game.position()
        if any(position.foundation) and position.waste and position.pass_number == 1:
            return position
    return None


def _solvitaire_token(card: Card) -> str:
    return ("10" if card.rank == 10 else RANK_NAMES[card.rank]) + card.suit.letter.upper()


# ----- lonelybot's player ----------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRun:
    """One game played by lonelybot's player (the ``lonelybot-play`` driver):
    won or not (``None`` when it printed no verdict), foundation cards at the
    end, CPU seconds it reported (``None`` if not), wall seconds from start to
    exit, whether it was killed at the time limit, and its exit status."""

    won: bool | None
    foundation: int | None
    cpu_seconds: float | None
    seconds: float
    killed: bool
    status: int


def lonelybot_play_command(binary: str, position: Position, draw: int, rng_seed: int) -> list[str]:
    """The player driver's command line for a deal: ``BINARY hop exact SEED DRAW RNG_SEED``."""
    return [binary, "hop", "exact", str(lonelybot_seed(position)), str(draw), str(rng_seed)]


def parse_lonelybot_play(text: str) -> tuple[bool | None, int | None, float | None]:
    """``(won, foundation cards, CPU seconds)`` from what ``lonelybot-play``
    printed: a ``Won`` or ``Lost`` line, ``Foundation N`` and ``CPU S s``;
    each is ``None`` when its line is missing or unreadable."""
    won: bool | None = None
    foundation: int | None = None
    cpu: float | None = None
    for line in text.splitlines():
        line = line.strip()
        if line in ("Won", "Lost"):
            won = line == "Won"
        elif line.startswith("Foundation "):
            with contextlib.suppress(ValueError):
                foundation = int(line[len("Foundation "):])
        elif line.startswith("CPU ") and line.endswith(" s"):
            with contextlib.suppress(ValueError):
                cpu = float(line[len("CPU "):-len(" s")])
    return won, foundation, cpu


def play_lonelybot(binary: str, position: Position, draw: int, rng_seed: int, timeout: float) -> PlayerRun:
    """Play ``position`` with lonelybot's player; it is killed at ``timeout`` wall seconds."""
    text, seconds, _, killed, status = run_program(lonelybot_play_command(binary, position, draw, rng_seed),
                                                   timeout)
    won, foundation, cpu = parse_lonelybot_play(text)
    if killed:
        won = None
    return PlayerRun(won, foundation, cpu, seconds, killed, status)


# ----- whole-process timing ----------------------------------------------------------------------

#: GNU time's format for :func:`time_program`: wall, user and system seconds, peak KiB.
TIME_FORMAT = "%e %U %S %M"


@dataclass(frozen=True)
class ProcessTime:
    """One whole-process run: wall seconds, CPU seconds (user plus system) and peak resident KiB."""

    wall: float
    cpu: float
    peak_kib: int


def parse_time_format(text: str) -> ProcessTime | None:
    """GNU time's ``-f "%e %U %S %M"`` report (its last line; a line before it
    may say the program was killed by a signal), or ``None``."""
    lines = text.strip().splitlines()
    fields = lines[-1].split() if lines else []
    if len(fields) != 4:
        return None
    try:
        wall, user, system = (float(field) for field in fields[:3])
        return ProcessTime(wall, user + system, int(fields[3]))
    except ValueError:
        return None


def time_program(argv: Sequence[str], timeout: float) -> tuple[ProcessTime | None, int]:
    """Run ``argv`` as a whole process under GNU time (its output thrown away);
    ``(its times, or None when GNU time is missing or it was killed at
    timeout, its exit status)``."""
    if not os.path.exists(TIME):
        return None, -1
    _, measured, killed, status = run_measured(argv, timeout)
    return (None if killed else measured), status


def run_measured(argv: Sequence[str], timeout: float) -> tuple[str, ProcessTime | None, bool, int]:
    """Run ``argv`` with no input under GNU time, killed after ``timeout``
    wall seconds: ``(what it printed, its wall, CPU and peak figures, whether
    it was killed, its exit status)``. A killed program's figures are those
    up to the kill; without GNU time they are ``None``. The CPU seconds are
    this process's children's (``resource.getrusage``), which count the
    program in microseconds where GNU time rounds to 10 ms."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "time"
        timed = os.path.exists(TIME)
        command = [TIME, "-f", TIME_FORMAT, "-o", str(report), *argv] if timed else list(argv)
        with open(Path(folder) / "out", "w+b") as out:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            process = Popen(command, stdin=DEVNULL, stdout=out, stderr=DEVNULL)
            killed = wait_or_kill(process, timeout)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            out.seek(0)
            text = out.read().decode("utf-8", "replace")
        measured = parse_time_format(report.read_text(encoding="utf-8")) if report.exists() else None
    if measured is not None:
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        measured = ProcessTime(measured.wall, cpu, measured.peak_kib)
    return text, measured, killed, process.returncode
