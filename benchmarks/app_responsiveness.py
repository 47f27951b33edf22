"""Benchmark: how fast the terminal apps answer a key, and how long a hint takes.

**Key to screen** (goal: under 50 ms). Each app runs in Textual's headless
test harness (``App.run_test()``, an 80x24 screen unless ``--size`` says
otherwise) and a seeded player presses ``--keys`` keys, one at a time, the
way a person plays:

- Klondike (draw 1, seeds from ``--seed``): ``d`` draws, ``u`` undoes, a
  pile digit or ``w`` picks a card up and a pile digit or ``f`` puts it down
  (mostly legal moves, sometimes a wrong pile, which the app explains),
  the arrows move the cursor, ``a`` plays the safe cards home, ``?`` shows
  the help (enter closes it), and once the game is over or long ``n`` opens
  the new-game dialog and enter deals. Then, in a second Klondike table
  (``klondike_pages``, a fifth as many keys, at least 25), the pages round
  and round: ``d``, ``n`` and enter (the dialog, then the deal), ``?`` and
  a key to close the help. The autosave is on (in a temporary folder), as
  it is for a player, and so is the statistics store.
- Kings Corner (three strategic bots, ``--delay 0``): a card digit and a
  pile key play a legal card, two pile keys move a pile, ``d`` ends the
  turn, ``u`` undoes, ``h`` asks for the strategic bot's plan, the arrows
  walk the hand, and space deals the next hand. With no delay the bots'
  whole turn is played inside the handling of ``d`` (or of the card that
  ends your turn), so those keys carry the bots' thinking too: an upper
  bound on what the paced default costs per key.

For each key the clock starts just before the key event is handed to the
app (what the pilot's ``press`` does) and stops when the key's answer is on
the screen: the last frame produced before the app is idle again, leaving
out frames that come after a worker thread hands its result back (after a
Klondike move the solver checks in a thread whether the game can still be
won; its news is not the key's answer). A frame is caught where Textual
hands the compositor's update to the terminal (``App._display``); in
headless mode Textual skips making the terminal's bytes, so the benchmark
makes them itself there (``CompositorUpdate.render_segments``) and times
the frame after that. The figure covers the key's dispatch, the app's
handler (the engine's move, the autosave, the statistics), the widgets'
rendering, Textual's frame pacing (a refresh waits for the screen's next
update tick, at most 60 a second) and the composition of the frame, but
not the terminal's own drawing. After each key the harness waits until the
app is idle, worker threads included, before the next key. The Klondike
status clock ticks once a second; its timer is paused while keys are
measured, so its repaint is never mistaken for a key's.

Reported per app: the median, 95th percentile and maximum of the key to
screen time, overall and per kind of key; the process's CPU time up to the
answer (well below the wall time when other programs hold the processor);
the time to the first frame (less than the answer when a key's answer
takes two frames, as closing a dialog and dealing do) and to the last frame
before idle (the worker's news included); and the keys that gave no frame
at all (a key that changes nothing on the screen).

**Hints** (goal: about 1 s). The call the ``h`` key makes in a worker
thread: :func:`cardtable.bots.klondike.hint.expert_hint`, the expert's move
from the player's view, with its budget of guesses and states (capped at
:data:`cardtable.app.advisor.EXPERT_SECONDS`), on ``--deals`` fresh deals
(seeds ``--seed`` onwards) in ``draw1`` and ``draw3`` (reported with how
many fell back to the quick move); and the peek's call (``H``, then ``h``):
:func:`cardtable.solver.hint` with the app's own budget
(:data:`cardtable.app.advisor.HINT_TIMEOUT` seconds and
:data:`~cardtable.app.advisor.HINT_MAX_STATES` states) on a copy of the
game, on the same deals (``peek_draw1``, ``peek_draw3``). Before them, the first two hints of the process are timed
through the app itself (``h``, then the worker's answer on the screen), on
the draw-1 deal ``--app-hint-seed``: the first hint loads (or compiles)
the solver, and when its search stops at the budget the app searches a
second time. Then, on the same deal, three more hints, each followed by
right-arrow presses one after another until the hint is shown: the time
from each arrow to its frame while the search runs in its thread (the
solver's compiled core holds Python's global lock while it runs a slice of
the search, so the app's loop waits). Reported: that first and second
hint; the keys during the hints; the time of the check the app runs in a
thread after each Klondike move (the solver with ``VERDICT_MAX_STATES``
states, the same lock held), on ``--deals`` positions a few random moves
into draw-1 deals; and for the deals, the median, 95th percentile and
maximum, and how many searches found a win, proved the deal lost, or
stopped at the budget.

    python benchmarks/app_responsiveness.py
    python benchmarks/app_responsiveness.py --keys 300 --deals 200 --json results.json
    python benchmarks/app_responsiveness.py --only keys --keys 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import _report
from textual import events
from textual._compositor import CompositorUpdate
from textual.app import App
from textual.pilot import Pilot

from cardtable.app import advisor
from cardtable.app.kings_corner import KingsCornerApp
from cardtable.app.klondike import KlondikeApp
from cardtable.app.status import StatusBar
from cardtable.bots.klondike.hint import expert_hint
from cardtable.kings_corner.actions import MovePile, PlayCard
from cardtable.kings_corner.table import CORNERS, PilePosition
from cardtable.klondike import FOUNDATION, WASTE, KlondikeGame, Variant
from cardtable.solver import hint, solve

#: The goals: a key's new screen, and a hint.
KEY_GOAL = 0.050
HINT_GOAL = 1.0


# ----- figures -------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``share`` of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def summary(seconds: list[float]) -> dict[str, float | int]:
    """Count, median, 95th percentile and maximum, in milliseconds."""
    if not seconds:
        return {"n": 0}
    return {"n": len(seconds), "median_ms": round(1000 * statistics.median(seconds), 2),
            "p95_ms": round(1000 * percentile(seconds, 0.95), 2), "max_ms": round(1000 * max(seconds), 2)}


# ----- key to screen -------------------------------------------------------------------------------


class FrameClock:
    """Times every frame ``app`` sends to its terminal, and every result a
    worker thread hands back to the app (see the module's docstring)."""

    def __init__(self, app: App[Any]) -> None:
        #: (wall clock, process CPU time) when each frame was ready.
        self.frames: list[tuple[float, float]] = []
        #: When each worker's result began to be handled on the app's loop.
        self.news: list[float] = []
        display = app._display
        call_from_thread = app.call_from_thread

        def timed_display(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is None or app._batch_count:
                return
            if isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)  # the bytes a real terminal would be sent
            self.frames.append((time.perf_counter(), time.process_time()))

        def traced_call_from_thread(callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            def noted(*inner: Any, **named: Any) -> Any:
                self.news.append(time.perf_counter())
                return callback(*inner, **named)

            return call_from_thread(noted, *args, **kwargs)

        app._display = timed_display  # type: ignore[method-assign]
        app.call_from_thread = traced_call_from_thread  # type: ignore[method-assign]

    def clear(self) -> None:
        self.frames.clear()
        self.news.clear()


Chooser = Callable[[Any, random.Random], list[tuple[str, str]]]


def klondike_keys(app: KlondikeApp, rng: random.Random) -> list[tuple[str, str]]:
    """The next keys a player presses, each with its kind."""
    game = app.game
    if len(app.screen_stack) > 1:  # a page (any key closes it) or the new-game dialog (enter deals)
        return [("enter", "close / deal")]
    if app.held is not None:
        return [("escape", "escape")]
    if game.is_won() or game.outcome() is not None or len(game.moves) >= 60:
        return [("n", "new game dialog")]
    roll = rng.random()
    if roll < 0.12 and game.can_undo:
        return [("u", "undo")]
    if roll < 0.18:
        return [(rng.choice(["left", "right", "up", "down"]), "arrow")]
    if roll < 0.21:
        return [("a", "auto")]
    if roll < 0.22:
        return [("question_mark", "help")]
    moves = [m for m in game.legal_moves()
             if (m.source == WASTE or 0 <= m.source < 7) and not (m.is_draw or m.is_recycle)]
    if roll < 0.40 or not moves:
        return [("d", "draw")]
    move = rng.choice(moves)
    pick = "w" if move.source == WASTE else str(move.source + 1)
    if rng.random() < 0.1:  # a wrong pile now and then: the app says why and puts the card back
        return [(pick, "pick up"), (str(rng.randrange(1, 8)), "put down")]
    put = "f" if move.target == FOUNDATION else str(move.target + 1)
    return [(pick, "pick up"), (put, "put down")]


def _pile_keys(position: PilePosition) -> list[str]:
    if position.is_corner:
        return ["c", str(CORNERS.index(position) + 1)]
    return [position.name.lower()]


def kings_corner_keys(app: KingsCornerApp, rng: random.Random) -> list[tuple[str, str]]:
    """The next keys a player presses, each with its kind."""
    if app.phase != "you":
        return [("space", "next hand")]
    if app.chosen is not None:
        return [("escape", "escape")]
    roll = rng.random()
    if roll < 0.08 and len(app.game.history) > app._turn_start:
        return [("u", "undo")]
    if roll < 0.14:
        return [("h", "hint")]
    if roll < 0.20:
        return [(rng.choice(["left", "right"]), "arrow")]
    hand = app.hand_cards
    plays = [a for a in app.game.legal_actions()
             if isinstance(a, MovePile) or (isinstance(a, PlayCard) and hand.index(a.card) < 9)]
    if roll < 0.35 or not plays:
        return [("d", "end turn")]
    action = rng.choice(plays)
    if isinstance(action, PlayCard):
        first = [(str(hand.index(action.card) + 1), "choose card")]
    else:
        first = [(key, "choose pile") for key in _pile_keys(action.source)]
    return first + [(key, "pile") for key in _pile_keys(action.target)]


async def press_and_time(pilot: Pilot[Any], clock: FrameClock, key: str) -> dict[str, float] | None:
    """Press ``key`` and time what follows (None: no frame at all): the
    seconds to the key's answer (its last frame before any worker's news),
    to the first frame and to the last frame before the app was idle, and
    the process's CPU seconds up to the answer."""
    clock.clear()
    began, cpu = time.perf_counter(), time.process_time()
    await pilot.press(key)
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    frames = [(wall, used) for wall, used in clock.frames if wall >= began]
    if not frames:
        return None
    news = min((t for t in clock.news if t >= began), default=math.inf)
    answer = [frame for frame in frames if frame[0] < news] or frames[:1]
    return {"answer": answer[-1][0] - began, "first": frames[0][0] - began, "last": frames[-1][0] - began,
            "cpu": answer[-1][1] - cpu}


async def drive(app: App[Any], choose: Chooser, keys: int, rng: random.Random,
                size: tuple[int, int]) -> dict[str, Any]:
    """Press ``keys`` keys chosen by ``choose``; the timings, overall and by kind."""
    timings: dict[str, list[float]] = {"answer": [], "first": [], "last": [], "cpu": []}
    by_kind: dict[str, list[float]] = {}
    by_kind_cpu: dict[str, list[float]] = {}
    silent: list[str] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for node in (app, *app.query(StatusBar)):  # the status clock's tick (see the docstring)
            for timer in list(node._timers):
                timer.pause()
        clock = FrameClock(app)
        pressed = 0
        while pressed < keys:
            for key, kind in choose(app, rng):
                if pressed == keys:
                    break
                timing = await press_and_time(pilot, clock, key)
                pressed += 1
                if timing is None:
                    silent.append(f"{key} ({kind})")
                    continue
                for name, seconds in timing.items():
                    timings[name].append(seconds)
                by_kind.setdefault(kind, []).append(timing["answer"])
                by_kind_cpu.setdefault(kind, []).append(timing["cpu"])
    return {"keys": keys, **{name: summary(seconds) for name, seconds in timings.items()},
            "no_frame": silent,
            "by_kind": {kind: summary(times) for kind, times in sorted(by_kind.items())},
            "by_kind_cpu": {kind: summary(times) for kind, times in sorted(by_kind_cpu.items())}}


#: The Klondike pages, round and round: a draw (so that the game counts when
#: left), the new-game dialog and enter to deal, the help and a key to close it.
_PAGE_ROUND = (("d", "draw"), ("n", "open new game"), ("enter", "deal"), ("question_mark", "open help"),
               ("x", "close help"))


def klondike_pages(app: KlondikeApp, rng: random.Random) -> list[tuple[str, str]]:
    """The keys of :data:`_PAGE_ROUND`, the whole round each time."""
    del app, rng
    return list(_PAGE_ROUND)


def time_keys(keys: int, seed: int, size: tuple[int, int]) -> dict[str, Any]:
    """Key-to-screen timings for both apps, and for Klondike's pages (a fifth of ``keys``, at least 25)."""
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        def klondike() -> KlondikeApp:
            return KlondikeApp(KlondikeGame.from_seed(seed, Variant.preset("draw1")), seed=seed,
                               save_path=Path(folder) / "game.txt", autosave_path=Path(folder) / "auto.txt",
                               stats_path=Path(folder) / "results.sqlite")

        results["klondike"] = asyncio.run(drive(klondike(), klondike_keys, keys, random.Random(seed), size))
        pages = max(25, keys // 5)
        results["klondike_pages"] = asyncio.run(drive(klondike(), klondike_pages, pages, random.Random(seed), size))
    corner = KingsCornerApp(opponents=3, level="strategic", seed=seed, target=10_000, delay=0)
    results["kings_corner"] = asyncio.run(drive(corner, kings_corner_keys, keys, random.Random(seed), size))
    return results


# ----- hints ---------------------------------------------------------------------------------------


async def _hints_in_the_app(seed: int, presses: int) -> list[float]:
    """Seconds from ``h`` to the hint on the screen, ``presses`` times, on draw-1 deal ``seed``."""
    seconds: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        app = KlondikeApp(KlondikeGame.from_seed(seed, Variant.preset("draw1")), seed=seed,
                          autosave_path=Path(folder) / "auto.txt")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(presses):
                began = time.perf_counter()
                await pilot.press("h")
                await app.workers.wait_for_complete()
                await pilot.pause()
                if not app.message.startswith("Hint"):
                    raise RuntimeError(f"no hint came: {app.message}")
                seconds.append(time.perf_counter() - began)
    return seconds


async def _keys_during_hints(seed: int, hints: int) -> list[float]:
    """Seconds from a key to its frame while a hint is searched: ``h`` on
    draw-1 deal ``seed``, then the right arrow again and again (each once the
    last one's frame is out) until the hint is shown; ``hints`` times."""
    seconds: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        app = KlondikeApp(KlondikeGame.from_seed(seed, Variant.preset("draw1")), seed=seed,
                          autosave_path=Path(folder) / "auto.txt")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            clock = FrameClock(app)
            driver = app._driver
            assert driver is not None
            for _ in range(hints):
                driver.send_message(events.Key("h", "h"))
                while not app._advisor.thinking:
                    await asyncio.sleep(0.001)
                while app._advisor.thinking:
                    clock.clear()
                    began = time.perf_counter()
                    driver.send_message(events.Key("right", None))
                    while not clock.frames:
                        await asyncio.sleep(0.001)
                    if app._advisor.thinking:  # the key was answered while the search still ran
                        seconds.append(clock.frames[0][0] - began)
                await app.workers.wait_for_complete()
                await pilot.pause()
    return seconds


def time_verdicts(positions: int, seed: int) -> dict[str, float | int]:
    """The check the Klondike app runs in a thread after each move (the
    solver with :data:`cardtable.app.advisor.VERDICT_MAX_STATES` states), on
    ``positions`` positions of draw 1: ten from each deal from seed ``seed``
    on, each a few random legal moves after the last."""
    rng = random.Random(seed)
    variant = Variant.preset("draw1")
    seconds: list[float] = []
    number = seed
    while len(seconds) < positions:
        game = KlondikeGame.from_seed(number, variant)
        number += 1
        for _ in range(10):
            for _ in range(rng.randrange(1, 6)):
                moves = game.legal_moves()
                if moves:
                    game.play(rng.choice(moves))
            began = time.perf_counter()
            solve(game.position(), variant, max_states=advisor.VERDICT_MAX_STATES)
            seconds.append(time.perf_counter() - began)
    return summary(seconds[:positions])


def time_hints(deals: int, seed: int, app_seed: int) -> dict[str, Any]:
    """The app's hint call on fresh deals, in draw 1 and draw 3, after the
    first hints of the process through the app itself on deal ``app_seed``."""
    timeout, max_states = advisor.HINT_TIMEOUT, advisor.HINT_MAX_STATES
    in_app = asyncio.run(_hints_in_the_app(app_seed, 2))
    results: dict[str, Any] = {"app_seed": app_seed, "app_first_hint_s": round(in_app[0], 3),
                               "app_second_hint_s": round(in_app[1], 3),
                               "keys_during_hint": summary(asyncio.run(_keys_during_hints(app_seed, 3))),
                               "verdicts": time_verdicts(deals, seed),
                               "timeout_s": timeout, "max_states": max_states}
    for name in ("draw1", "draw3"):
        variant = Variant.preset(name)
        seconds: list[float] = []
        fallbacks = 0
        for number in range(seed, seed + deals):
            game = KlondikeGame.from_seed(number, variant)
            began = time.perf_counter()
            advice = expert_hint(game.clone(), seconds=advisor.EXPERT_SECONDS).advice
            seconds.append(time.perf_counter() - began)
            fallbacks += advice.fallback is not None
        results[name] = {**summary(seconds), "fallbacks": fallbacks}
        seconds = []
        outcomes = {"won": 0, "unwinnable": 0, "unknown": 0}
        for number in range(seed, seed + deals):
            game = KlondikeGame.from_seed(number, variant)
            began = time.perf_counter()
            found = hint(game.clone(), timeout=timeout, max_states=max_states)
            seconds.append(time.perf_counter() - began)
            outcomes[found.search.result] = outcomes.get(found.search.result, 0) + 1
        results[f"peek_{name}"] = {**summary(seconds), **outcomes}
    return results


# ----- the command ---------------------------------------------------------------------------------


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a size is WIDTHxHEIGHT, like 80x24, not {text!r}") from None
    if width < 20 or height < 10:
        raise argparse.ArgumentTypeError(f"the screen must be at least 20x10, not {text!r}")
    return width, height


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _verdict(value_ms: float, goal: float) -> str:
    return "goal met" if value_ms < 1000 * goal else "GOAL MISSED"


def report(results: dict[str, Any]) -> str:
    """The results as a few lines of text."""
    lines = [f"screen {results['size']}, load average {results['load_average_before']:.2f} before and "
             f"{results['load_average_after']:.2f} after"]
    for app in ("klondike", "klondike_pages", "kings_corner"):
        if app not in results.get("keys", {}):
            continue
        figures = results["keys"][app]
        answer, first, last, cpu = (figures[name] for name in ("answer", "first", "last", "cpu"))
        lines.append(f"{app}: {figures['keys']} keys, key to screen median {answer['median_ms']} ms, "
                     f"p95 {answer['p95_ms']} ms, max {answer['max_ms']} ms; {_verdict(answer['p95_ms'], KEY_GOAL)} "
                     f"at p95")
        lines.append(f"    CPU time to that frame: median {cpu['median_ms']} ms, p95 {cpu['p95_ms']} ms; "
                     f"first frame: median {first['median_ms']} ms, p95 {first['p95_ms']} ms; last frame "
                     f"before idle: median {last['median_ms']} ms, p95 {last['p95_ms']} ms")
        if figures["no_frame"]:
            lines.append(f"    keys that changed nothing on the screen: {', '.join(figures['no_frame'])}")
        for kind, times in figures["by_kind"].items():
            cpu_times = figures["by_kind_cpu"][kind]
            lines.append(f"    {kind:<15} n={times['n']:<4} median {times['median_ms']:>7} ms  "
                         f"p95 {times['p95_ms']:>7} ms  max {times['max_ms']:>7} ms   CPU median "
                         f"{cpu_times['median_ms']:>6} ms  p95 {cpu_times['p95_ms']:>6} ms")
    hints = results.get("hints")
    if hints:
        lines.append(f"hints (peek: timeout {hints['timeout_s']} s, {hints['max_states']} states): through the app on "
                     f"draw-1 deal {hints['app_seed']}, h to the hint on the screen took "
                     f"{hints['app_first_hint_s']} s the first time in the process and "
                     f"{hints['app_second_hint_s']} s the second; "
                     f"{_verdict(1000 * hints['app_first_hint_s'], HINT_GOAL)} for the first")
        during = hints["keys_during_hint"]
        if during["n"]:
            lines.append(f"    keys while the hint searched (3 hints): n={during['n']}, key to screen median "
                         f"{during['median_ms']} ms, p95 {during['p95_ms']} ms, max {during['max_ms']} ms; "
                         f"{_verdict(during['p95_ms'], KEY_GOAL)} at p95")
        checks = hints["verdicts"]
        lines.append(f"    the check after each move ({checks['n']} positions): median {checks['median_ms']} ms, "
                     f"p95 {checks['p95_ms']} ms, max {checks['max_ms']} ms (in a thread, holding the lock)")
        for name in ("draw1", "draw3"):
            h = hints[name]
            lines.append(f"    {name} (the expert's hint): {h['n']} deals, median {h['median_ms']} ms, "
                         f"p95 {h['p95_ms']} ms, max {h['max_ms']} ms; {h['fallbacks']} fell back to the "
                         f"quick move; {_verdict(h['median_ms'], HINT_GOAL)} at the median")
            h = hints[f"peek_{name}"]
            lines.append(f"    {name} (peek): {h['n']} deals, median {h['median_ms']} ms, p95 {h['p95_ms']} ms, "
                         f"max {h['max_ms']} ms; won {h['won']}, unwinnable {h['unwinnable']}, "
                         f"unknown {h['unknown']}; {_verdict(h['p95_ms'], HINT_GOAL)} at p95")
    return "\n".join(lines)


def markdown(results: dict[str, Any]) -> str:
    """The results as Markdown tables: keys by app and by kind of key, then the hints."""
    parts = [f"Screen {results['size']}; load average {results['load_average_before']:.2f} before and "
             f"{results['load_average_after']:.2f} after. The goals: {1000 * KEY_GOAL:.0f} ms from a key to "
             f"its frame (p95), {HINT_GOAL:g} s for a hint."]
    keys = results.get("keys", {})
    rows = []
    for app in ("klondike", "klondike_pages", "kings_corner"):
        if app not in keys:
            continue
        figures = keys[app]
        for kind, times in {"all keys": figures["answer"], **figures["by_kind"]}.items():
            cpu = figures["cpu"] if kind == "all keys" else figures["by_kind_cpu"][kind]
            rows.append([app, kind, times.get("n", figures["keys"]), times["median_ms"], times["p95_ms"],
                         times["max_ms"], cpu["median_ms"], cpu["p95_ms"],
                         _verdict(times["p95_ms"], KEY_GOAL) if kind == "all keys" else ""])
    if rows:
        parts.append("### Keys\n\n" + _report.table(
            ["app", "keys", "n", "median ms", "p95 ms", "max ms", "CPU median ms", "CPU p95 ms", "at p95"], rows))
    hints = results.get("hints")
    if hints:
        rows = []
        for name in ("draw1", "draw3"):
            h = hints[name]
            rows.append([f"{name}, the expert's hint", h["n"], h["median_ms"], h["p95_ms"], h["max_ms"],
                         f"{h['fallbacks']} fell back to the quick move",
                         f"{_verdict(h['median_ms'], HINT_GOAL)} at the median"])
            h = hints[f"peek_{name}"]
            rows.append([f"{name}, peek", h["n"], h["median_ms"], h["p95_ms"], h["max_ms"],
                         f"won {h['won']}, unwinnable {h['unwinnable']}, unknown {h['unknown']}",
                         f"{_verdict(h['p95_ms'], HINT_GOAL)} at p95"])
        checks = hints["verdicts"]
        rows.append(["the check after each move", checks["n"], checks["median_ms"], checks["p95_ms"],
                     checks["max_ms"], "in a thread, holding the lock", ""])
        during = hints["keys_during_hint"]
        if during["n"]:
            rows.append(["keys while a hint searches", during["n"], during["median_ms"], during["p95_ms"],
                         during["max_ms"], "key to screen", f"{_verdict(during['p95_ms'], KEY_GOAL)} at p95"])
        parts.append(
            f"### Hints\n\nThrough the app on draw-1 deal {hints['app_seed']}, from h to the hint on the screen: "
            f"{hints['app_first_hint_s']} s the first time in the process "
            f"({_verdict(1000 * hints['app_first_hint_s'], HINT_GOAL)}), {hints['app_second_hint_s']} s the "
            f"second.\n\n" + _report.table(["what", "n", "median ms", "p95 ms", "max ms", "detail", "verdict"], rows))
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=_positive, default=300, help="keys pressed in each app (default 300)")
    parser.add_argument("--deals", type=_positive, default=200,
                        help="fresh deals per draw mode for the hints (default 200)")
    parser.add_argument("--seed", type=_positive, default=1, help="first seed of deals and key choices (default 1)")
    parser.add_argument("--app-hint-seed", type=int, default=25,
                        help="the draw-1 deal of the first hints through the app (default 25, which the "
                             "solver cannot decide within the hint's budget)")
    parser.add_argument("--size", type=_size, default=(80, 24), help="the screen, WIDTHxHEIGHT (default 80x24)")
    parser.add_argument("--only", choices=("keys", "hints"), help="run one half only")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON ('-': standard output)")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    results: dict[str, Any] = {"size": f"{args.size[0]}x{args.size[1]}", "seed": args.seed,
                               "load_average_before": os.getloadavg()[0]}
    if args.only != "hints":
        results["keys"] = time_keys(args.keys, args.seed, args.size)
    if args.only != "keys":
        results["hints"] = time_hints(args.deals, args.seed, args.app_hint_seed)
    results["load_average_after"] = os.getloadavg()[0]
    if args.json == "-":
        json.dump(results, sys.stdout, indent=2)
        print()
    else:
        print(report(results))
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    if args.markdown:
        _report.write_markdown(args.markdown, "## How fast the apps answer", markdown(results),
                               note=args.markdown_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
