"""Benchmark: the browser table's server with many players at once.

Starts ``cardtable serve`` (the Klondike card table) as a user does, on a free
loopback port with a temporary data folder, then opens N WebSocket clients
(``--clients``, each a player of its own: no cookie, so each gets a new id and
its own game), spread over ``--client-processes`` processes so that the
clients' own event loop is not what is measured (and with Python's cyclic
garbage collector off in them, whose pauses would be counted in the round
trips). Each client, after a random start within one pause, plays ``--moves``
moves one at a time, about ``--pause`` seconds apart (from half to one and a
half times it, at random, so that the clients do not fall into step), the way
people play: a draw, then its undo, and so on (each one is checked by the
engine and saved in the results store, as every move is; after a pause the
solver judges whether the game can still be won, in a thread, one search at a
time for the whole server).

While the clients play, Chromium (Debian's, through Playwright, started
before the clients) opens the page ``--pages`` times, each in a fresh context
(a new player), and reads the page's ``cardtable:table-drawn`` performance
mark: the milliseconds from the start of navigation until the first view is
drawn. Chromium shares the machine's cores with the server, as a player's
browser would not, so the round trips are given twice: leaving out the moves
that overlap one of its page loads, and for every move.

Reported for each N: the round trip of a move (from sending it to receiving
the new view: median, 95th percentile and maximum), the time from opening a
socket to the first view (the table's data), the time to the first drawn
table in the browser (median of the pages), the server's CPU time during the
run (as a share of one core) and its resident memory at the end (``VmRSS``).
Goals (issue 25): a move answered in under 20 ms at the 95th percentile with
500 clients, under 1 GB for 500 sessions, the table drawn within 1 s.

Kings Corner (``--kings-corner N ...``, after the Klondike runs, a server of
its own for each N): each of N clients opens a shared table of two seats as a
person does (``POST /kc/new``, a new player each), takes its seat's socket,
starts the match (a ``--kc-level`` bot takes the other seat) and makes
``--kc-actions`` actions ``--pause`` seconds apart: on its turn a legal play
or pile move chosen at random, else the end of its turn (a draw, answered
once the bot has played its turn: a searching bot in a thread, a quick one
on the event loop, as the server does for people), the next hand when one is over, a new match when one is. Reported:
the round trip of a play and of an end of turn (median and 95th
percentile), the time from opening a table to its first view, the server's
CPU share and memory, and (``--pages``) the time to the first drawn table of
people who each open a table of their own in Chromium during the run.

    python benchmarks/web.py --clients 10 100 500
    python benchmarks/web.py --clients 10 --kings-corner 10 100
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import gc
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import _report
import aiohttp

from cardtable.web.kings_corner import LEVELS

CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def client(url: str, moves: int, pause: float, trips: list[tuple[float, float]], opens: list[float]) -> None:
    async with aiohttp.ClientSession() as session:
        await asyncio.sleep(random.random() * pause)
        started = time.perf_counter()
        async with session.ws_connect(url, max_msg_size=1 << 20) as ws:
            await ws.receive_json()
            opens.append(time.perf_counter() - started)
            for index in range(moves):
                await asyncio.sleep(pause * random.uniform(0.5, 1.5))  # people do not play in step
                sent, when = time.perf_counter(), time.monotonic()
                await ws.send_json({"type": "draw" if index % 2 == 0 else "undo"})
                reply = await ws.receive_json()
                while reply["type"] == "notice":  # an earlier move's verdict (the game cannot be won)
                    reply = await ws.receive_json()
                trips.append((time.perf_counter() - sent, when))
                assert reply["type"] == "view", reply


async def kings_client(base: str, actions: int, pause: float, level: str, target: int,
                       trips: list[tuple[str, float, float]], opens: list[float], address: str) -> None:
    """One person at a Kings Corner table of their own with one bot: ``actions`` actions, timed. They
    come from the loopback ``address`` (the server opens 10 tables a minute for one address)."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     connector=aiohttp.TCPConnector(local_addr=(address, 0))) as session:
        await asyncio.sleep(random.random() * pause)
        started = time.perf_counter()
        async with session.post(f"{base}/kc/new", data={"seats": "2", "level": level, "target": str(target),
                                                          "name": "Bench"},
                                headers={"Origin": base}, allow_redirects=False) as response:
            assert response.status == 303, await response.text()
            table = response.headers["Location"].rsplit("/", 1)[1]
        async with session.ws_connect(f"{base}/kc/ws?table={table}", max_msg_size=1 << 20) as ws:

            async def answer(message: Mapping[str, object]) -> dict[str, Any]:
                await ws.send_json(message)
                while True:
                    reply = await ws.receive_json()
                    assert reply["type"] != "error", reply
                    if reply["type"] == "table":
                        return dict(reply["view"])

            view = dict((await ws.receive_json())["view"])
            opens.append(time.perf_counter() - started)
            view = await answer({"type": "start"})
            for _ in range(actions):
                await asyncio.sleep(pause * random.uniform(0.5, 1.5))  # people do not play in step
                if view["phase"] == "playing":
                    legal = [str(a) for a in view["legal"]]
                    plays = [a for a in legal if a.startswith(("play", "move"))]
                    action = random.choice(plays) if plays else legal[0]
                    kind, message = ("play" if plays else "end turn"), {"type": "action", "action": action}
                else:
                    kind, message = "deal", {"type": "next" if view["phase"] == "hand-over" else "newmatch"}
                sent, when = time.perf_counter(), time.monotonic()
                view = await answer(message)
                trips.append((kind, time.perf_counter() - sent, when))


def kings_share(base: str, clients: int, actions: int, pause: float, level: str,
                target: int, first: int) -> tuple[list[tuple[str, float, float]], list[float]]:
    """Run ``clients`` Kings Corner clients in this process (one of the client processes), the
    first of them client number ``first`` of the run: client N comes from 127.0.0.(2 + N % 250)."""
    gc.disable()  # a client's own collector pausing its event loop is not the server's round trip
    trips: list[tuple[str, float, float]] = []
    opens: list[float] = []

    async def run() -> None:
        await asyncio.gather(*(kings_client(base, actions, pause, level, target, trips, opens,
                                            f"127.0.0.{2 + (first + index) % 250}")
                               for index in range(clients)))

    asyncio.run(run())
    return trips, opens


def play_share(url: str, clients: int, moves: int, pause: float) -> tuple[list[tuple[float, float]], list[float]]:
    """Run ``clients`` clients in this process (one of the client processes)."""
    gc.disable()  # a client's own collector pausing its event loop is not the server's round trip
    trips: list[tuple[float, float]] = []
    opens: list[float] = []

    async def run() -> None:
        await asyncio.gather(*(client(url, moves, pause, trips, opens) for _ in range(clients)))

    asyncio.run(run())
    return trips, opens


#: A page load's span in Chromium: (start, end) on the machine's monotonic clock.
Window = tuple[float, float]


def open_klondike(page: Any, base: str) -> None:
    """A new player opens the Klondike table."""
    page.goto(f"{base}/")


def open_kings_corner(page: Any, base: str) -> None:
    """A new person opens a Kings Corner table of their own from ``/kc``: the table's page opens."""
    page.goto(f"{base}/kc")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(lambda url: urlsplit(url).path.rstrip("/") != "/kc")


def drawn_times(base: str, pages: int, launched: threading.Event, start: threading.Event,
                open_page: Callable[[Any, str], None]) -> tuple[list[float], list[Window]]:
    """Milliseconds from navigation to the first drawn table, for ``pages``
    fresh players (each a new browser context) opening it by ``open_page``,
    and the span of each page load (Chromium shares the cores with the server).
    Chromium is started before the clients (``launched`` is set then) and
    opens the pages once ``start`` is set."""
    from playwright.sync_api import sync_playwright

    times: list[float] = []
    windows: list[Window] = []
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=["--no-sandbox", "--disable-dev-shm-usage"])
        finally:
            launched.set()
        try:
            start.wait()
            for _ in range(pages):
                began = time.monotonic()
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                open_page(page, base)
                page.wait_for_selector("html[data-drawn]", timeout=30_000)
                times.append(float(page.evaluate(
                    "performance.getEntriesByName('cardtable:table-drawn')[0].startTime")))
                context.close()
                time.sleep(0.5)  # Chromium is still busy closing the page: part of its window
                windows.append((began, time.monotonic()))
        finally:
            browser.close()
    if windows:  # Chromium's closing is part of its last page's window
        windows[-1] = (windows[-1][0], time.monotonic())
    return times, windows


def outside(windows: list[Window], sent: float, trip: float) -> bool:
    """Whether a round trip sent at ``sent`` that took ``trip`` seconds overlaps no page load."""
    return all(sent + trip < began or sent > ended for began, ended in windows)


def measure(port: int, clients: int, moves: int, pause: float, processes: int,
            pages: int) -> tuple[list[tuple[float, float]], list[float], list[float], list[Window]]:
    url = f"http://127.0.0.1:{port}"
    shares = [clients // processes + (1 if index < clients % processes else 0) for index in range(processes)]
    trips: list[tuple[float, float]] = []
    opens: list[float] = []
    launched, start = threading.Event(), threading.Event()
    with concurrent.futures.ThreadPoolExecutor(1) as browser, \
            concurrent.futures.ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        drawn = browser.submit(drawn_times, url, pages, launched, start, open_klondike) if pages else None
        launched.wait(60 if pages else 0)
        futures = [pool.submit(play_share, f"{url}/ws", share, moves, pause) for share in shares if share]
        time.sleep(min(2.0, pause * moves / 4))  # the clients are connected and playing: open the page now
        start.set()
        for future in futures:
            share_trips, share_opens = future.result()
            trips += share_trips
            opens += share_opens
        times, windows = drawn.result() if drawn is not None else ([], [])
        return trips, opens, times, windows


def measure_kings(port: int, clients: int, actions: int, pause: float, processes: int, level: str, target: int,
                  pages: int) -> tuple[list[tuple[str, float, float]], list[float], list[float], list[Window]]:
    base = f"http://127.0.0.1:{port}"
    shares = [clients // processes + (1 if index < clients % processes else 0) for index in range(processes)]
    trips: list[tuple[str, float, float]] = []
    opens: list[float] = []
    launched, start = threading.Event(), threading.Event()
    with concurrent.futures.ThreadPoolExecutor(1) as browser, \
            concurrent.futures.ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        drawn = browser.submit(drawn_times, base, pages, launched, start, open_kings_corner) if pages else None
        launched.wait(60 if pages else 0)
        futures = [pool.submit(kings_share, base, share, actions, pause, level, target, sum(shares[:index]))
                   for index, share in enumerate(shares) if share]
        time.sleep(min(2.0, pause * actions / 4))  # the clients are seated and playing: open the pages now
        start.set()
        for future in futures:
            share_trips, share_opens = future.result()
            trips += share_trips
            opens += share_opens
        times, windows = drawn.result() if drawn is not None else ([], [])
        return trips, opens, times, windows


@contextlib.contextmanager
def serving(data: str) -> Iterator[tuple[int, int]]:
    """``cardtable serve`` on a free loopback port with the data folder ``data``: its port and pid."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "cardtable", "serve", "--port", str(port)],
                              env={**os.environ, "CARDTABLE_DATA": data}, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield port, server.pid
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[10, 100, 500])
    parser.add_argument("--moves", type=int, default=20, help="moves per client (default 20)")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between a client's moves (default 0.5)")
    parser.add_argument("--client-processes", type=int, default=2,
                        help="processes the clients are spread over (default 2)")
    parser.add_argument("--pages", type=int, default=3,
                        help="pages Chromium opens during each run, for the time to the first drawn table "
                             "(default 3; 0: none)")
    parser.add_argument("--kings-corner", type=int, nargs="+", default=[], metavar="N",
                        help="after the Klondike runs, Kings Corner runs with N clients each, every client at a "
                             "two-seat table of its own with a bot (default: none)")
    parser.add_argument("--kc-actions", type=int, default=20,
                        help="Kings Corner: actions per client (default 20)")
    parser.add_argument("--kc-level", choices=LEVELS, default="greedy",
                        help="Kings Corner: the bot in the other seat (default greedy)")
    parser.add_argument("--kc-target", type=int, default=25,
                        help="Kings Corner: the match target in penalty points (default 25)")
    _report.add_option(parser)
    args = parser.parse_args()
    if min(args.clients) < 1 or args.moves < 1 or args.pause < 0 or args.client_processes < 1 or args.pages < 0:
        parser.error("--clients, --moves and --client-processes must be at least 1; --pause and --pages at least 0")
    if (args.kings_corner and min(args.kings_corner) < 1) or args.kc_actions < 1 \
            or not 1 <= args.kc_target <= 1000:
        parser.error("--kings-corner and --kc-actions must be at least 1; --kc-target from 1 to 1000")
    rows: list[list[object]] = []
    for count in args.clients:
        with tempfile.TemporaryDirectory() as data, serving(data) as (port, pid):
            cpu_before, wall_before = cpu_seconds(pid), time.monotonic()
            timed_moves, opens, drawn, windows = measure(port, count, args.moves, args.pause,
                                                         args.client_processes, args.pages)
            busy = (cpu_seconds(pid) - cpu_before) / (time.monotonic() - wall_before)
            memory = rss_mb(pid)
        every = [trip for trip, _ in timed_moves]
        trips = [trip for trip, sent in timed_moves if outside(windows, sent, trip)] or every
        drawn_text = f"{statistics.median(drawn):.0f}" if drawn else "-"
        print(f"{count:4d} clients, {len(every)} moves ({len(trips)} outside Chromium's page loads): round trip "
              f"median {statistics.median(trips) * 1000:.1f} ms, p95 {ms(trips, 0.95):.1f} ms, max "
              f"{max(trips) * 1000:.1f} ms (every move: p95 {ms(every, 0.95):.1f} ms, max {max(every) * 1000:.1f} "
              f"ms); first view median {statistics.median(opens) * 1000:.1f} ms, p95 {ms(opens, 0.95):.1f} ms; "
              f"table drawn in {drawn_text} ms (median of {len(drawn)} pages: "
              f"{', '.join(f'{t:.0f}' for t in drawn)}); server CPU {busy:.0%} of a core, memory {memory:.0f} MB",
              flush=True)
        rows.append([count, len(every), len(trips), f"{statistics.median(trips) * 1000:.1f}",
                     f"{ms(trips, 0.95):.1f}", f"{max(trips) * 1000:.1f}", f"{ms(every, 0.95):.1f}",
                     f"{statistics.median(opens) * 1000:.1f}", f"{ms(opens, 0.95):.1f}", drawn_text,
                     f"{busy:.0%}", f"{memory:.0f}"])
    kings_rows: list[list[object]] = []
    for count in args.kings_corner:
        with tempfile.TemporaryDirectory() as data, serving(data) as (port, pid):
            cpu_before, wall_before = cpu_seconds(pid), time.monotonic()
            timed_all, opens, drawn, windows = measure_kings(port, count, args.kc_actions, args.pause,
                                                             args.client_processes, args.kc_level, args.kc_target,
                                                             args.pages)
            busy = (cpu_seconds(pid) - cpu_before) / (time.monotonic() - wall_before)
            memory = rss_mb(pid)
        timed = [(kind, trip) for kind, trip, sent in timed_all if outside(windows, sent, trip)]
        plays = [t for kind, t in timed if kind == "play"]
        ends = [t for kind, t in timed if kind == "end turn"]
        every = [trip for kind, trip, _ in timed_all if kind in ("play", "end turn")]
        figures = [f"{statistics.median(plays) * 1000:.1f}" if plays else "-",
                   f"{ms(plays, 0.95):.1f}" if plays else "-",
                   f"{statistics.median(ends) * 1000:.1f}" if ends else "-",
                   f"{ms(ends, 0.95):.1f}" if ends else "-",
                   f"{max(t for _, t in timed) * 1000:.1f}" if timed else "-",
                   f"{ms(every, 0.95):.1f}" if every else "-",
                   f"{statistics.median(opens) * 1000:.1f}", f"{ms(opens, 0.95):.1f}",
                   f"{statistics.median(drawn):.0f}" if drawn else "-"]
        print(f"{count:4d} Kings Corner clients, {len(timed_all)} actions ({len(timed)} outside Chromium's page "
              f"loads: {len(plays)} plays, {len(ends)} ends of turn): play round trip median {figures[0]} ms, "
              f"p95 {figures[1]} ms; end of turn (with the bot's turn) median {figures[2]} ms, p95 {figures[3]} "
              f"ms; max {figures[4]} ms (every play and end of turn: p95 {figures[5]} ms); first view median "
              f"{figures[6]} ms, p95 {figures[7]} ms; table drawn in {figures[8]} ms (median of {len(drawn)} "
              f"pages: {', '.join(f'{t:.0f}' for t in drawn)}); server CPU {busy:.0%} of a core, "
              f"memory {memory:.0f} MB",
              flush=True)
        kings_rows.append([count, len(timed_all), len(plays), *figures, f"{busy:.0%}", f"{memory:.0f}"])
    if args.markdown:
        header = ["clients", "moves", "moves timed", "round trip median ms", "p95 ms", "max ms",
                  "p95 ms, every move", "first view median ms", "first view p95 ms", "table drawn ms",
                  "server CPU", "server memory MB"]
        intro = (f"Each client plays {args.moves} moves, about {args.pause:g} s apart (from {args.pause / 2:g} to "
                 f"{args.pause * 1.5:g} s at random; a draw, then its undo), from "
                 f"{args.client_processes} client processes; \"table drawn\" is the median of {args.pages} "
                 f"pages opened in Chromium during the run, from navigation to the first drawn table; "
                 f"\"server CPU\" its CPU time over the run's wall time. Chromium runs on the server's two "
                 f"cores here, as a player's browser would not: the round trips (\"moves timed\") leave out "
                 f"the moves that overlap one of its page loads, and \"every move\" gives the 95th percentile "
                 f"with them.")
        body = intro + "\n\n" + _report.table(header, rows)
        if kings_rows:
            header = ["clients", "actions", "plays timed", "play median ms", "play p95 ms",
                      "end of turn median ms", "end of turn p95 ms", "max ms", "p95 ms, every action",
                      "first view median ms", "first view p95 ms", "table drawn ms", "server CPU",
                      "server memory MB"]
            body += ("\n\n### Kings Corner tables\n\n"
                     f"Each client opens a two-seat table of its own (a {args.kc_level} bot in the other seat, "
                     f"a match to {args.kc_target} points) and makes {args.kc_actions} actions, about {args.pause:g} "
                     f"s apart, from {args.client_processes} client processes: on its turn a legal play or pile "
                     f"move chosen at random, else the end of its turn, whose answer comes once the bot has "
                     f"played its turn; \"first view\" is from opening the table (`POST /kc/new`) to the "
                     f"socket's first view; \"table drawn\" the median of {args.pages} people who each open a "
                     f"table of their own in Chromium during the run (at `/kc`, the Open the table button), "
                     f"from the table page's navigation to its first drawn table (the actions that overlap a page load "
                     f"are left out of the round trips, as above).\n\n"
                     + _report.table(header, kings_rows))
        _report.write_markdown(args.markdown, "## The card table's server under load", body,
                               note=args.markdown_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
