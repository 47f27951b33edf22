"""``cardtable serve``: its checks before serving (one line, exit 2), the
warning of ``--public``, the card table and the terminal page (``--terminal``),
the command each terminal session runs, and a clean stop."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.cli.play import serve_command


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(("argv", "words"), [
    (["--host", "0.0.0.0"], "--host 0.0.0.0: other machines could connect; add --public to allow it"),
    (["--host", "192.0.2.1"], "add --public"),
    (["--host", "no.such.host.invalid", "--public"], "--host no.such.host.invalid: not an address"),
    (["kings-corner", "--plain"], "--plain is the line-by-line seat of a terminal: it cannot be served"),
    (["kings-corner", "--draw", "3"], "--draw is not an option of kings-corner"),
    (["kings-corner", "--level", "clever"], "unknown bot 'clever'"),
    (["kings-corner", "--seat-timeout", "soon"], "--seat-timeout: "),
    (["--seat-timeout", "5"], "--seat-timeout is not an option of klondike"),
    (["kings-corner", "--seat-timeout", "1e9"], "--seat-timeout 1e+09: at most 86400 seconds"),
    (["kings-corner", "--target", "5000"], "--target 5000: at most 1000 points at the card table"),
    (["kings-corner", "--save", "hand.txt"], "--save is an option of the terminal page: add --terminal"),
    (["kings-corner", "--terminal", "--seat-timeout", "5"], "--seat-timeout is an option of the Kings Corner card"),
    (["--opponents", "2"], "--opponents is not an option of klondike"),
    (["--file", "/nonexistent/deal.txt"], "/nonexistent/deal.txt"),
    (["--save", "/nonexistent/game.txt"], "folder /nonexistent does not exist"),
    (["--variant", "nosuch"], "nosuch"),
    (["--game", "freecel"], "unknown game 'freecel'; did you mean freecell?"),
    (["--game", "/nonexistent/game.json"], "/nonexistent/game.json: "),
    (["--game", "golf:nosuch"], "golf has no option 'nosuch'"),
    (["--game", "golf", "--terminal"], "--game serves a patience game's card table: leave out --terminal"),
    (["--game", "golf", "kings-corner"], "--game serves a patience game's table: leave out 'kings-corner'"),
    (["--game", "golf", "--draw", "3"], "--draw is not an option of a patience game's table (--game)"),
    (["--game", "golf", "--seed", "3"], "/play/NAME?seed=N"),
    (["freecell", "--draw", "3"], "--draw is not an option of FreeCell's card table"),
    (["freecell", "--daily"], "--daily is not an option of FreeCell's card table; the terminal app's page takes it"),
    (["freecell", "--seed", "ms:3"], "/play/NAME?seed=N"),
    (["freecell", "--opponents", "2"], "--opponents is not an option of FreeCell's card table"),
    (["freecel"], "unknown game 'freecel'; did you mean freecell?"),
    (["klondike:draw-3", "--draw", "1"], "gives Klondike's rules already (draw 3"),
    (["freecel", "--terminal"], "unknown game 'freecel'; did you mean freecell?"),
    (["golf", "--terminal", "--seed", "ms:3"], "golf has no Microsoft deal numbers"),
])
def test_bad_input_is_one_line_and_exit_2_before_serving(argv: list[str], words: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "serve", "--port", str(free_port()), *argv)
    assert status == 2 and words in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("port", ["0", "65536", "http"])
def test_a_bad_port_is_refused(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err = run(capsys, "serve", "--port", port)
    assert status == 2 and "--port" in err


def test_a_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, _out, err = run(capsys, "serve", "--port", str(port))
    assert status == 2
    assert err.strip() == f"cardtable: error: port {port} on 127.0.0.1 is already in use; choose another with --port"


def test_the_session_command_is_play_with_the_given_options() -> None:
    command = serve_command(["kings-corner", "--opponents", "2"], game="kings-corner", public=True)
    assert command[:3] == [sys.executable, "-m", "cardtable"]
    assert command[3:] == ["play", "kings-corner", "--opponents", "2", "--no-stats"]
    klondike = serve_command(["--draw", "3"], game="klondike", public=True)
    assert klondike[3:] == ["play", "--draw", "3", "--no-autosave", "--no-stats"]
    assert serve_command(["--store", "s.db"], game="klondike", public=True)[-1] == "--no-autosave"
    assert serve_command([], game="klondike", public=False)[3:] == ["play"]
    freecell = serve_command(["freecell", "--seed", "ms:5"], game="freecell", public=True)
    assert freecell[3:] == ["play", "freecell", "--seed", "ms:5", "--no-autosave", "--no-stats"]


def _start(tmp_path: Path, *argv: str) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "cardtable", "serve", "--port", str(port), *argv],
                               env={**os.environ, "CARDTABLE_DATA": str(tmp_path)}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process, port
        time.sleep(0.1)
    process.kill()
    pytest.fail(f"the server did not listen: {process.communicate()}")


@contextlib.contextmanager
def _stopped_if_failing(process: subprocess.Popen[str]) -> Iterator[None]:
    """A failing check leaves no server running."""
    try:
        yield
    except BaseException:
        process.kill()
        process.communicate()
        raise


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_the_server_says_where_to_go_and_stops_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    process, port = _start(tmp_path, "--draw", "3")
    with _stopped_if_failing(process):
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
        assert "<title>cardtable: Klondike</title>" in page and "/static/table.js" in page  # the card table
    process.send_signal(stop)
    _out, err = process.communicate(timeout=15)
    assert process.returncode == 0
    assert f"Serving cardtable: Klondike on http://localhost:{port}: open it in a web browser" in err
    assert "Traceback" not in err and "warning" not in err


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_the_terminal_page_says_where_to_go_and_stops_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    process, port = _start(tmp_path, "--terminal", "--draw", "3")
    with _stopped_if_failing(process):
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
        assert f"ws://localhost:{port}/ws" in page  # the page's websocket points back at this server
    process.send_signal(stop)
    _out, err = process.communicate(timeout=15)
    assert process.returncode == 0
    assert f"Serving cardtable: Klondike on http://localhost:{port}: open it in a web browser" in err
    assert "Traceback" not in err and "warning" not in err


def test_the_terminal_page_of_any_patience_game_is_named_by_its_title(tmp_path: Path) -> None:
    process, port = _start(tmp_path, "--terminal", "spider-2-suits")
    with _stopped_if_failing(process):
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
        assert f"ws://localhost:{port}/ws" in page
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=15)
    assert process.returncode == 0 and "Serving cardtable: Spider (two suits) on" in err


@pytest.mark.parametrize(("argv", "title", "script"), [
    (["freecell"], "FreeCell", "/static/patience.js"),
    (["--game", "freecell"], "FreeCell", "/static/patience.js"),
    (["golf:wrap"], "Golf", "/static/patience.js"),
    (["klondike:draw-3"], "Klondike", "/static/table.js"),
])
def test_a_patience_game_named_as_the_game_serves_its_card_table(argv: list[str], title: str, script: str,
                                                                  tmp_path: Path) -> None:
    """``serve freecell`` is ``serve --game freecell``; Klondike's rules by any name are Klondike's own table."""
    process, port = _start(tmp_path, *argv)
    with _stopped_if_failing(process):
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
        assert f"<title>cardtable: {title}</title>" in page and script in page, page[:400]
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=15)
    assert process.returncode == 0 and f"Serving cardtable: {title} on http://localhost:{port}" in err, err


def test_public_warns_and_listens_beyond_loopback(tmp_path: Path) -> None:
    process, port = _start(tmp_path, "--public", "--url", "http://cards.example:8000/")
    try:
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
        assert "<title>cardtable: card games</title>" in page  # the game chooser
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/klondike", timeout=10).read().decode()
        assert "<title>cardtable: Klondike</title>" in page
    finally:
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=15)
    assert f"cardtable: warning: serving on 0.0.0.0 port {port}: anyone who can reach this machine" in err
    assert "game process" not in err  # the card table is one process for every player
    assert "Serving cardtable: card games on http://cards.example:8000: open it" in err


@pytest.mark.parametrize("argv", [["--save", "game.txt"], ["--no-autosave"], ["--ascii"]])
def test_the_card_table_refuses_the_terminal_pages_options(argv: list[str], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "serve", "--port", str(free_port()), *argv)
    assert status == 2 and out == ""
    assert err.strip() == f"cardtable: error: {argv[0]} is an option of the terminal page: add --terminal, " \
                          "or leave it out"


def test_the_terminal_page_with_public_warns_of_its_processes(tmp_path: Path) -> None:
    process, port = _start(tmp_path, "--terminal", "--public", "--url", "http://cards.example:8000/")
    try:
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
        assert "ws://cards.example:8000/ws" in page  # --url is the address the page gives the browser
    finally:
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=15)
    assert f"cardtable: warning: serving on 0.0.0.0 port {port}: anyone who can reach this machine" in err
    assert "every session runs a game process on it" in err


@pytest.mark.parametrize(("argv", "named", "meant"), [
    (["serve", "--po", "8767"], "--po", "--port"),
    (["serve", "klondike", "--se", "3"], "--se", "--seat-timeout or --seed"),
    (["serve", "--win"], "--win", "--winnable"),
    (["serve", "--por=8767"], "--por", "--port"),
    (["play", "--dr", "3"], "--dr", "--draw"),
    (["play", "kings-corner", "--opp", "2"], "--opp", "--opponents"),
    (["serve", "--nonsense"], "--nonsense", None),
])
def test_an_abbreviated_option_is_not_taken_for_another(argv: list[str], named: str, meant: str | None,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # '--po 8767' is no option of serve: it is refused in one line naming it, not served on port 8767, not
    # passed on to play, and not read as the game '8767'.
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and "Serving" not in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert f"error: unknown option {named} (options are not abbreviated" in err
    assert "invalid choice" not in err
    assert (f"did you mean {meant}" in err) if meant else "did you mean" not in err


def test_a_store_that_is_not_one_is_one_line_before_serving(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_text("not a database\n")
    status, out, err = run(capsys, "serve", "--port", str(free_port()), "--store", str(bad))
    assert status == 2 and out == "" and "Serving" not in err
    assert err.strip() == f"cardtable: error: {bad}: cannot read the results store: file is not a database"
    assert bad.read_text() == "not a database\n"  # left as it was
