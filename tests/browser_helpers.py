"""What the browser tests share: Debian's Chromium driven by Playwright,
free ports, polling, screenshots, and stopping the servers they started."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

CHROMIUM = "/usr/bin/chromium"
#: Chromium's switches for a headless run in a container, with no network of its own.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-extensions", "--no-first-run"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(condition: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    """Poll ``condition`` until it gives something true; fail naming ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")


def at_rest(page: Any) -> None:
    """Wait until nothing on the page slides (a card to its place, a held card lifting): an element read
    while it slides, after a new deal, a move or a pick, is not where a player sees it once it lies still."""
    page.wait_for_function("document.getAnimations().every((a) => !(a instanceof CSSTransition))")


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (no browser is downloaded)."""
    from playwright import sync_api as playwright_api

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: install Debian's chromium package (.ci/run does)"
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def screenshots(tmp_path: Path) -> Path:
    """Where screenshots go: ``$CARDTABLE_SCREENSHOTS`` (``docs`` to renew the
    documentation's pictures), else the test's own folder."""
    folder = Path(os.environ.get("CARDTABLE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def stop_servers(started: list[subprocess.Popen[str]]) -> None:
    """Stop each server still running with SIGTERM; one that does not stop
    within 10 s is killed and fails the test."""
    for process in started:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                pytest.fail("cardtable serve did not stop on SIGTERM")


def start_server(port: int, data: Path, *options: str, stderr: Any = subprocess.PIPE) -> subprocess.Popen[str]:
    """``cardtable serve --port PORT OPTIONS`` with ``data`` as its data
    folder, in a session of its own, once it listens on 127.0.0.1; a server
    that ends before then fails the test with what it said. Stop it with
    :func:`stop_servers`."""
    process = subprocess.Popen([sys.executable, "-m", "cardtable", "serve", "--port", str(port), *options],
                               env={**os.environ, "CARDTABLE_DATA": str(data)}, stdout=subprocess.PIPE,
                               stderr=stderr, text=True, start_new_session=True)

    def listening() -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0 or process.poll() is not None

    wait_for(listening, "the server to listen")
    assert process.poll() is None, process.communicate()
    return process


class Served:
    """A ``cardtable serve`` process started by :func:`serving`: its address,
    and what it logged once stopped."""

    def __init__(self, process: subprocess.Popen[str], port: int) -> None:
        self.process = process
        self.port = port
        self.base = f"http://127.0.0.1:{port}"

    def log(self) -> str:
        """Stop the server (SIGTERM, as an operator would) and give its standard error."""
        self.process.send_signal(signal.SIGTERM)
        _out, err = self.process.communicate(timeout=30)
        return err


S = TypeVar("S", bound=Served)


def serving(tmp_path: Path, kind: type[S]) -> Iterator[Callable[..., S]]:
    """For a fixture: a function that starts ``cardtable serve OPTIONS`` on a
    free port with a data folder of its own under ``tmp_path`` and gives it
    as a ``kind``; every server it started is stopped afterwards."""
    started: list[subprocess.Popen[str]] = []

    def start(*options: str) -> S:
        port = free_port()
        process = start_server(port, tmp_path / f"data-{port}", *options)
        started.append(process)
        return kind(process, port)

    yield start
    stop_servers(started)


#: The cards and pile places of the table that the "You won!" box overlaps, by their names.
_UNDER_WON_BOX = """() => {
  const box = document.getElementById("won").getBoundingClientRect();
  return [...document.querySelectorAll("#table .card, #table .slot")].filter((el) => {
    if (el.classList.contains("gone")) return false;
    const r = el.getBoundingClientRect();
    return r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom;
  }).map((el) => el.getAttribute("aria-label") || el.className);
}"""


def under_won_box(page: Any) -> list[str]:
    """What the shown "You won!" box hides of the table (its cards and pile places), once nothing on the
    page moves any more; the box must lie inside the window too."""
    page.locator("#won").wait_for(state="visible")
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')")
    box = page.locator("#won").bounding_box()
    size = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (box, size)
    return list(page.evaluate(_UNDER_WON_BOX))
