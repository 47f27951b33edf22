"""Benchmark: the browser table's server with many players at once.

Starts ``cardtable serve`` (the Klondike card table) as a user does, on a
free loopback port with a temporary data folder, then opens N WebSocket
clients (``--clients``, each a player of its own: no cookie, so each gets a
new id and its own game). Each client, after a random start within one
pause, plays ``--moves`` moves one at a time, ``--pause`` seconds apart, the
way people play: a draw, then its undo, and so on (each one is checked by the
engine and saved in the results store, as every move is; after a pause the
solver judges whether the game can still be won, in a thread, one search at a
time for the whole server).

Reported for each N: the round trip of a move (from sending it to receiving
the new view: median, 95th percentile and maximum), the time from opening a
socket to the first view (the table's data; the page's drawing is not
counted), and the server's resident memory at the end (``VmRSS``).
Goals (issue 25): a move answered in under 20 ms at the 95th percentile with
500 clients, under 1 GB for 500 sessions.

    python benchmarks/web.py --clients 10 100 500
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _report
import aiohttp


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


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


async def measure(url: str, clients: int, moves: int, pause: float) -> tuple[list[float], list[float]]:
    trips: list[float] = []
    opens: list[float] = []
    await asyncio.gather(*(client(url, moves, pause, trips, opens) for _ in range(clients)))
    return trips, opens


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[10, 100, 500])
    parser.add_argument("--moves", type=int, default=20, help="moves per client (default 20)")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between a client's moves (default 0.5)")
    _report.add_option(parser)
    args = parser.parse_args()
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
                trips, opens = asyncio.run(measure(f"http://127.0.0.1:{port}/ws", count, args.moves, args.pause))
                memory = rss_mb(server.pid)
            finally:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=30)
            print(f"{count:4d} clients, {len(trips)} moves: round trip median "
                  f"{statistics.median(trips) * 1000:.1f} ms, "
                  f"p95 {ms(trips, 0.95):.1f} ms, max {max(trips) * 1000:.1f} ms; first view median "
                  f"{statistics.median(opens) * 1000:.1f} ms, p95 {ms(opens, 0.95):.1f} ms; "
                  f"server memory {memory:.0f} MB", flush=True)
            rows.append([count, len(trips), f"{statistics.median(trips) * 1000:.1f}", f"{ms(trips, 0.95):.1f}",
                         f"{max(trips) * 1000:.1f}", f"{statistics.median(opens) * 1000:.1f}",
                         f"{ms(opens, 0.95):.1f}", f"{memory:.0f}"])
    if args.markdown:
        header = ["clients", "moves", "round trip median ms", "p95 ms", "max ms", "first view median ms",
                  "first view p95 ms", "server memory MB"]
        intro = f"Each client plays {args.moves} moves, {args.pause:g} s apart."
        _report.write_markdown(args.markdown, "## The card table's server under load",
                               intro + "\n\n" + _report.table(header, rows), note=args.markdown_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
