"""Benchmark: the patience games' tables in the browser.

Starts ``cardtable serve`` (the game chooser and every game's table) as a
user does, on a free loopback port with a temporary data folder, and reports:

- **page weight** of a game's table: the bytes of its page and of every style
  sheet and JavaScript module it loads (followed through their ``import``
  lines), the same for every game, and the bytes of the game's first two
  messages on its socket (the table: rules and layout; the first view);
- **time to the first drawn table** for each game (``--games``, default all):
  Chromium (Debian's, through Playwright) opens ``/play/NAME`` ``--pages``
  times, each in a fresh context (a new player), and reads the page's
  ``cardtable:table-drawn`` performance mark (milliseconds from the start of
  navigation until the first view is drawn); the median is reported;
- **a move's round trip** with ``--clients`` players at once on one game
  (``--move-game``, default freecell), spread over ``--client-processes``
  processes so that the clients' own event loop is not what is measured: each
  client, after a random start within one pause, makes ``--moves`` moves about
  ``--pause`` seconds apart (a legal move from its view, then its undo, and so
  on; each is checked by the engine and saved in the results store, as every
  move is); the median, 95th percentile and maximum round trip (from sending a
  move to receiving the new view), and the server's own CPU time a move (its
  user and system seconds over the moves, read from ``/proc``: unlike the
  round trips, it hardly moves when other work shares the machine).

    python benchmarks/web_patience.py --clients 100 --moves 20
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import gc
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import _report

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        return bytes(response.read())


def page_weight(base: str, path: str) -> int:
    """The bytes of the page at ``path`` and of every style sheet and module it loads."""
    seen: set[str] = set()
    total = 0
    page = fetch(base + path).decode()
    total += len(page.encode())
    queue = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        body = fetch(base + url)
        total += len(body)
        if url.endswith(".js"):
            queue.extend(f"/static/{name}" for name in re.findall(r'from "\./([^"]+)"', body.decode()))
    return total


async def first_messages(base: str, name: str) -> int:
    import aiohttp

    async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/play/{name}/ws") as ws:
        table = await ws.receive_str(timeout=30)
        view = await ws.receive_str(timeout=30)
    return len(table.encode()) + len(view.encode())


async def client(url: str, moves: int, pause: float, trips: list[float]) -> None:
    import aiohttp

    rng = random.Random()
    await asyncio.sleep(rng.uniform(0, pause))
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.receive_json(timeout=30)
        view = (await ws.receive_json(timeout=30))["view"]
        for number in range(moves):
            playable = [move for move in view["legal"] if move not in ("D", "R")]
            message = {"type": "undo"} if number % 2 else {"type": "move", "move": rng.choice(playable or ["D"])}
            began = time.perf_counter()
            await ws.send_json(message)
            reply = await ws.receive_json(timeout=60)
            trips.append(time.perf_counter() - began)
            if reply["type"] == "view":
                view = reply["view"]
            await asyncio.sleep(pause * rng.uniform(0.5, 1.5))


def client_process(url: str, clients: int, moves: int, pause: float) -> list[float]:
    gc.disable()
    trips: list[float] = []

    async def run() -> None:
        await asyncio.gather(*(client(url, moves, pause, trips) for _ in range(clients)))

    asyncio.run(run())
    return trips


def cpu_seconds(pid: int) -> float | None:
    """The user and system seconds process ``pid`` has used so far (None where ``/proc`` is not there)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def drawn_ms(base: str, names: list[str], pages: int) -> dict[str, float]:
    from browser_helpers import chromium

    times: dict[str, float] = {}
    with chromium() as browser:
        for name in names:
            marks = []
            for _ in range(pages):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                page.goto(f"{base}/play/{name}")
                page.wait_for_selector("html[data-drawn=yes]")
                marks.append(page.evaluate(
                    "performance.getEntriesByName('cardtable:table-drawn')[0].startTime"))
                context.close()
            times[name] = statistics.median(marks)
    return times


def main() -> None:
    from cardtable.patience import names

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=list(names()), help="the games whose tables are loaded")
    parser.add_argument("--pages", type=int, default=3, help="page loads a game (the median is reported)")
    parser.add_argument("--clients", type=int, default=100, help="players making moves at once")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--moves", type=int, default=20, help="moves each client makes")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between a client's moves (about)")
    parser.add_argument("--move-game", default="freecell")
    parser.add_argument("--markdown", metavar="PATH", help="also write the results to this Markdown file")
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "cardtable", "serve", "--port", str(port)],
                                  env={**os.environ, "CARDTABLE_DATA": data}, stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(200):
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.05)
            weight = page_weight(base, f"/play/{args.games[0]}")
            messages = {name: asyncio.run(first_messages(base, name)) for name in args.games}
            drawn = drawn_ms(base, args.games, args.pages)
            per = [args.clients // args.client_processes + (i < args.clients % args.client_processes)
                   for i in range(args.client_processes)]
            url = f"ws://127.0.0.1:{port}/play/{args.move_game}/ws"
            cpu_before = cpu_seconds(server.pid)
            with concurrent.futures.ProcessPoolExecutor(args.client_processes) as pool:
                trips = [trip for part in pool.map(client_process, [url] * len(per), per,
                                                   [args.moves] * len(per), [args.pause] * len(per))
                         for trip in part]
            cpu_after = cpu_seconds(server.pid)
        finally:
            server.send_signal(signal.SIGTERM)
            server.communicate(timeout=30)
    trips.sort()
    p95 = trips[max(0, round(0.95 * len(trips)) - 1)]
    rows = [[name, f"{weight / 1024:.1f}", f"{messages[name] / 1024:.1f}", f"{drawn[name]:.0f}"] for name in args.games]
    table = _report.table(["game", "page (KiB)", "table + first view (KiB)", "first drawn (ms, median)"], rows)
    moves = (f"{args.clients} clients on {args.move_game}, {len(trips)} moves: round trip median "
             f"{statistics.median(trips) * 1000:.1f} ms, 95th percentile {p95 * 1000:.1f} ms, "
             f"max {trips[-1] * 1000:.1f} ms")
    if cpu_before is not None and cpu_after is not None:
        moves += f"; the server's CPU {(cpu_after - cpu_before) / len(trips) * 1000:.2f} ms a move"
    print(table)
    print()
    print(moves)
    if args.markdown:
        _report.write_markdown(args.markdown, "## The patience tables in the browser", f"{table}\n\n{moves}\n")


if __name__ == "__main__":
    main()
