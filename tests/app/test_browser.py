"""``cardtable serve``'s terminal page (``--terminal``, and Kings Corner) in a real browser:
Debian's Chromium, driven by Playwright (the Klondike card table's own browser tests
are in ``tests/web/test_table_browser.py``).

The server runs as its own process on 127.0.0.1, exactly as a user starts
it; each page gets its own ``cardtable play`` process. The browser is the
system's Chromium (``/usr/bin/chromium``): nothing is downloaded.

The screenshots are written to ``$CARDTABLE_SCREENSHOTS`` when it is set
(the README's pictures come from there), else to the test's folder.
"""

from __future__ import annotations

import concurrent.futures
import io
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium, free_port, screenshots, stop_servers, wait_for
from PIL import Image  # Pillow comes with matplotlib

from cardtable.klondike import DRAW, KlondikeRecord

#: The browser window: about 88 by 26 terminal cells at the page's 16 px font.
VIEWPORT = {"width": 800, "height": 480}




class Served:
    """A running ``cardtable serve`` process and what it keeps."""

    def __init__(self, process: subprocess.Popen[str], url: str, data: Path) -> None:
        self.process = process
        self.url = url
        self.data = data

    @property
    def autosave(self) -> Path:
        return self.data / "klondike-autosave.txt"


def _accepting(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    started: list[subprocess.Popen[str]] = []

    def start(*options: str) -> Served:
        port = free_port()
        data = tmp_path / f"data-{port}"
        env = {**os.environ, "CARDTABLE_DATA": str(data)}
        process = subprocess.Popen([sys.executable, "-m", "cardtable", "serve", "--port", str(port), *options],
                                   env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True)
        started.append(process)
        wait_for(lambda: _accepting(port) or process.poll() is not None, "the server to listen")
        assert process.poll() is None, process.communicate()
        return Served(process, f"http://127.0.0.1:{port}/", data)

    yield start
    stop_servers(started)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched



class Terminal:
    """The page's terminal: its size in cells and where each cell is drawn."""

    def __init__(self, page: Any, columns: int, rows: int) -> None:
        box = page.locator(".xterm-screen").bounding_box()
        self.page = page
        self.columns = columns
        self.rows = rows
        self.left, self.top = box["x"], box["y"]
        self.cell_width = box["width"] / columns
        self.cell_height = box["height"] / rows

    def centre(self, column: float, row: float) -> tuple[float, float]:
        """The page coordinates of the middle of cell (column, row)."""
        return self.left + (column + 0.5) * self.cell_width, self.top + (row + 0.5) * self.cell_height

    def cells(self, column: int, row: int, width: int, height: int = 1) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom) of a block of cells."""
        return (round(self.left + column * self.cell_width), round(self.top + row * self.cell_height),
                round(self.left + (column + width) * self.cell_width),
                round(self.top + (row + height) * self.cell_height))


def open_game(browser: Any, url: str) -> tuple[Any, Terminal]:
    """A new page (a new browser session) on ``url``, once the app has drawn."""
    page = browser.new_page(viewport=VIEWPORT)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(url)
    page.wait_for_selector("body.-first-byte", timeout=30_000)
    query = dict(part.split("=") for part in sockets[0].split("?", 1)[1].split("&"))
    return page, Terminal(page, int(query["width"]), int(query["height"]))


def picture(page: Any) -> Image.Image:
    return Image.open(io.BytesIO(page.screenshot())).convert("RGB")


def inked(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many pixels of ``box`` differ from its top-left pixel (something drawn there)."""
    region = image.crop(box)
    background = region.getpixel((0, 0))
    return sum(1 for x in range(region.width) for y in range(region.height) if region.getpixel((x, y)) != background)


def stock_cell(columns: int, rows: int) -> tuple[int, int, int]:
    """Where the Klondike app draws the stock and the waste at this size: (row, stock column,
    waste column), asked of the app itself through the pilot on a screen of the same size."""
    import asyncio

    from cardtable.app.klondike import KlondikeApp
    from cardtable.app.table import Spot
    from cardtable.klondike import STOCK, WASTE, KlondikeGame

    async def main() -> tuple[int, int, int]:
        app = KlondikeApp(KlondikeGame.from_seed(7))
        async with app.run_test(size=(columns, rows)) as pilot:
            await pilot.pause()
            origin = app.table.region
            stock = app.table.spot_position(Spot(STOCK))
            waste = app.table.spot_position(Spot(WASTE))
            assert stock is not None and waste is not None
            return origin.y + stock[1], origin.x + stock[0], origin.x + waste[0]

    # Playwright's sync API keeps an event loop in this thread: the pilot runs in its own.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main()).result()


def test_klondike_in_the_browser_draws_when_the_stock_is_clicked(serve: Callable[..., Served], browser: Any,
                                                                 tmp_path: Path) -> None:
    served = serve("klondike", "--terminal", "--seed", "7")
    page, terminal = open_game(browser, served.url)
    row, stock_column, waste_column = stock_cell(terminal.columns, terminal.rows)
    waste_box = terminal.cells(waste_column, row, 4)
    stock_box = terminal.cells(stock_column, row, 4)
    wait_for(lambda: inked(picture(page), stock_box) > 20, "the table to be drawn")
    before = picture(page)
    assert not served.autosave.exists()  # no move yet

    page.mouse.click(*terminal.centre(stock_column + 1, row))
    record = wait_for(lambda: served.autosave.exists() and KlondikeRecord.parse(served.autosave.read_text()),
                      "the draw to reach the game's autosave")
    assert [str(move) for move in record.moves] == [str(DRAW)]
    assert len(record.replay().waste) == 1
    # The screen shows it: the waste, empty before, now holds a card.
    after = wait_for(lambda: (image := picture(page)) and inked(image, waste_box) != inked(before, waste_box)
                     and image, "the waste to show the drawn card")
    after.save(screenshots(tmp_path) / "klondike.png")
    assert after.crop(waste_box).tobytes() != before.crop(waste_box).tobytes()
    page.close()


def test_each_browser_session_is_its_own_game(serve: Callable[..., Served], browser: Any) -> None:
    served = serve("klondike", "--terminal", "--seed", "11", "--no-autosave", "--no-stats")
    first, _ = open_game(browser, served.url)
    second, _ = open_game(browser, served.url)
    sessions = wait_for(lambda: len(found := _play_processes(served.process.pid)) == 2 and found,
                        "one 'cardtable play' process per page")
    assert all(command.endswith("play klondike --seed 11 --no-autosave --no-stats") for command in sessions.values())
    first.close()
    wait_for(lambda: len(_play_processes(served.process.pid)) == 1, "the closed page's game to end")
    # Stopping the server ends the games still open.
    (still_open,) = _play_processes(served.process.pid)
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=15) == 0
    wait_for(lambda: not Path(f"/proc/{still_open}").exists() or _zombie(still_open), "the open game to end")
    second.close()


def test_kings_corner_in_the_browser(serve: Callable[..., Served], browser: Any, tmp_path: Path) -> None:
    served = serve("kings-corner", "--terminal", "--seed", "3", "--delay", "0")
    page, terminal = open_game(browser, served.url)
    whole = terminal.cells(0, 0, terminal.columns, terminal.rows)
    # The cross of piles and the hand take a good part of the screen once dealt.
    image = wait_for(lambda: (shot := picture(page)) and inked(shot, whole) > 5_000 and shot,
                     "the Kings Corner table to be drawn")
    time.sleep(1.0)  # the bots' opening moves, when they lead, are paced: let them settle for the picture
    picture(page).save(screenshots(tmp_path) / "kings-corner.png")
    assert inked(image, whole) > 5_000
    page.close()


def _play_processes(server_pid: int) -> dict[int, str]:
    """The Python processes running ``cardtable play`` under the server: their command lines by pid."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = [part.decode() for part in (entry / "cmdline").read_bytes().split(b"\0") if part]
        except OSError:
            continue
        if command and "python" in Path(command[0]).name and "play" in command \
                and _descends_from(int(entry.name), server_pid):
            found[int(entry.name)] = " ".join(command)
    return found


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return False
