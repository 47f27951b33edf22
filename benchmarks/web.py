"""Benchmark: the browser table's server with many players at once.

Starts ``cardtable serve`` (the Klondike card table) as a user does, on a
free loopback port with a temporary data folder, then opens N WebSocket
clients (``--clients``, each a player of its own: no cookie, so each gets a
new id and its own game), spread over ``--client-processes`` processes so
that the clients' own event loop is not what is measured. Each client, after
a random start within one pause, plays ``--moves`` moves one at a time,
``--pause`` seconds apart, the way people play: a draw, then its undo, and
so on (each one is checked by the engine and saved in the results store, as
every move is; after a pause the solver judges whether the game can still
be won, in a thread, one search at a time for the whole server).

While the clients play, Chromium (Debian's, through Playwright) opens the
page ``--pages`` times, each in a fresh context (a new player), and reads the
page's ``cardtable:table-drawn`` performance mark: the milliseconds from the
start of navigation until the first view is drawn.

Reported for each N: the round trip of a move (from sending it to receiving
the new view: median, 95th percentile and maximum), the time from opening a
socket to the first view (the table's data), the time to the first drawn
table in the browser (median of the pages), the server's CPU time during the
run (as a share of one core) and its resident memory at the end (``VmRSS``).
Goals (issue 25): a move answered in under 20 ms at the 95th percentile with
500 clients, under 1 GB for 500 sessions, the table drawn within 1 s.

    python benchmarks/web.py --clients 10 100 500
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
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
from pathlib import Path

import _report
import aiohttp

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


async def client(url: str, moves: int, pause: float, trips: list[float], opens: list[float]) -> None:
    async with aiohttp.ClientSession() as session:
        await asyncio.sleep(random.random() * pause)
        started = time.perf_counter()
        async with session.ws_connect(url, max_msg_size=1 << 20) as ws:
            await ws.receive_json()
            opens.append(time.perf_counter() - started)
            for index in range(moves):
                await asyncio.sleep(pause)
                sent = time.perf_counter()
                await ws.send_json({"type": "draw" if index % 2 == 0 else "undo"})
                reply = await ws.receive_json()
                while reply["type"] == "notice":  # an earlier move's verdict (the game cannot be won)
                    reply = await ws.receive_json()
                trips.append(time.perf_counter() - sent)
                assert reply["type"] == "view", reply


def play_share(url: str, clients: int, moves: int, pause: float) -> tuple[list[float], list[float]]:
    """Run ``clients`` clients in this process (one of the client processes)."""
    trips: list[float] = []
    opens: list[float] = []

    async def run() -> None:
        await asyncio.gather(*(client(url, moves, pause, trips, opens) for _ in range(clients)))

    asyncio.run(run())
    return trips, opens


def drawn_times(url: str, pages: int, start: threading.Event) -> list[float]:
    """Milliseconds from navigation to the page's first drawn table, for ``pages`` fresh pages."""
    from playwright.sync_api import sync_playwright

    times: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-dev-shm-usage"])
        try:
            start.wait()
            for _ in range(pages):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector("html[data-drawn]", timeout=30_000)
                times.append(float(page.evaluate(
                    "performance.getEntriesByName('cardtable:table-drawn')[0].startTime")))
                context.close()
                time.sleep(0.5)
        finally:
            browser.close()
    return times


def measure(port: int, clients: int, moves: int, pause: float, processes: int,
            pages: int) -> tuple[list[float], list[float], list[float]]:
    url = f"http://127.0.0.1:{port}"
    shares = [clients // processes + (1 if index < clients % processes else 0) for index in range(processes)]
    trips: list[float] = []
    opens: list[float] = []
    start = threading.Event()
    with concurrent.futures.ThreadPoolExecutor(1) as browser, \
            concurrent.futures.ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        drawn = browser.submit(drawn_times, f"{url}/", pages, start) if pages else None
        futures = [pool.submit(play_share, f"{url}/ws", share, moves, pause) for share in shares if share]
        time.sleep(min(2.0, pause * moves / 4))  # the clients are connected and playing: open the page now
        start.set()
        for future in futures:
            share_trips, share_opens = future.result()
            trips += share_trips
            opens += share_opens
        return trips, opens, drawn.result() if drawn is not None else []


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
    _report.add_option(parser)
    args = parser.parse_args()
    if min(args.clients) < 1 or args.moves < 1 or args.pause < 0 or args.client_processes < 1 or args.pages < 0:
        parser.error("--clients, --moves and --client-processes must be at least 1; --pause and --pages at least 0")
    rows: list[list[object]] = []
    for count in args.clients:
        with tempfile.TemporaryDirectory() as data:
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
                cpu_before, wall_before = cpu_seconds(server.pid), time.monotonic()
                trips, opens, drawn = measure(port, count, args.moves, args.pause, args.client_processes,
                                              args.pages)
                busy = (cpu_seconds(server.pid) - cpu_before) / (time.monotonic() - wall_before)
                memory = rss_mb(server.pid)
            finally:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=30)
            drawn_text = f"{statistics.median(drawn):.0f}" if drawn else "-"
            print(f"{count:4d} clients, {len(trips)} moves: round trip median "
                  f"{statistics.median(trips) * 1000:.1f} ms, "
                  f"p95 {ms(trips, 0.95):.1f} ms, max {max(trips) * 1000:.1f} ms; first view median "
                  f"{statistics.median(opens) * 1000:.1f} ms, p95 {ms(opens, 0.95):.1f} ms; table drawn in "
                  f"{drawn_text} ms (median of {len(drawn)} pages: {', '.join(f'{t:.0f}' for t in drawn)}); "
                  f"server CPU {busy:.0%} of a core, memory {memory:.0f} MB", flush=True)
            rows.append([count, len(trips), f"{statistics.median(trips) * 1000:.1f}", f"{ms(trips, 0.95):.1f}",
                         f"{max(trips) * 1000:.1f}", f"{statistics.median(opens) * 1000:.1f}",
                         f"{ms(opens, 0.95):.1f}", drawn_text, f"{busy:.0%}", f"{memory:.0f}"])
    if args.markdown:
        header = ["clients", "moves", "round trip median ms", "p95 ms", "max ms", "first view median ms",
                  "first view p95 ms", "table drawn ms", "server CPU", "server memory MB"]
        intro = (f"Each client plays {args.moves} moves, {args.pause:g} s apart (a draw, then its undo), from "
                 f"{args.client_processes} client processes; \"table drawn\" is the median of {args.pages} "
                 f"pages opened in Chromium during the run, from navigation to the first drawn table; "
                 f"\"server CPU\" its CPU time over the run's wall time.")
        _report.write_markdown(args.markdown, "## The card table's server under load",
                               intro + "\n\n" + _report.table(header, rows), note=args.markdown_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
