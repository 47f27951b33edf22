"""How ``cardtable`` reports what goes wrong: bad input in one line and exit
status 2, a bug as an internal error with exit status 70, interrupts 130."""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.cli import klondike as klondike_cli
from cardtable.errors import CardtableError, RecordError, UsageError


def _variants_raises(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    """Make ``cardtable variants`` raise ``error``."""

    def broken(args: object) -> int:
        raise error

    monkeypatch.setattr(klondike_cli, "_cmd_variants", broken)


@pytest.mark.parametrize("error", [UsageError("bad thing"), RecordError("bad thing"), CardtableError("bad thing")])
def test_every_cardtable_error_is_one_line_and_status_2(monkeypatch: pytest.MonkeyPatch, error: CardtableError,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    _variants_raises(monkeypatch, error)
    code, out, err = run(capsys, "variants")
    assert (code, out, err) == (2, "", "cardtable: error: bad thing\n")


@pytest.mark.parametrize("error", [
    RuntimeError("the kernel fell over"),
    ValueError("not a user's mistake"),  # a plain ValueError is a bug, never dressed up as bad input
    KeyError("missing"),
    OSError(errno.EMFILE, "Too many open files"),  # no path the user gave
])
def test_anything_else_is_an_internal_error_with_status_70(monkeypatch: pytest.MonkeyPatch, error: Exception,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("CARDTABLE_DEBUG", raising=False)
    _variants_raises(monkeypatch, error)
    code, out, err = run(capsys, "variants")
    assert code == 70 and out == ""
    first, second = err.splitlines()
    assert first == f"cardtable: internal error: {type(error).__name__}: {error}"
    assert "bug" in second and "report" in second and "CARDTABLE_DEBUG=1" in second
    assert "Traceback" not in err and "cardtable: error:" not in err


def test_cardtable_debug_shows_the_traceback(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CARDTABLE_DEBUG", "1")
    _variants_raises(monkeypatch, RuntimeError("boom"))
    code, _, err = run(capsys, "variants")
    assert code == 70
    assert "Traceback (most recent call last)" in err and "in broken" in err
    assert "cardtable: internal error: RuntimeError: boom" in err


def test_an_os_error_about_a_users_path_names_it(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _variants_raises(monkeypatch, PermissionError(errno.EACCES, "Permission denied", "out/deal.txt"))
    code, _, err = run(capsys, "variants")
    assert (code, err) == (2, "cardtable: error: out/deal.txt: permission denied\n")


@pytest.mark.parametrize(("error", "status", "message"), [
    (KeyboardInterrupt(), 130, "cardtable: interrupted\n"),
    (BrokenPipeError(errno.EPIPE, "Broken pipe"), 0, ""),
])
def test_interrupts_and_closed_pipes(monkeypatch: pytest.MonkeyPatch, error: BaseException, status: int,
                                     message: str, capsys: pytest.CaptureFixture[str]) -> None:
    _variants_raises(monkeypatch, error)
    code, _, err = run(capsys, "variants")
    assert (code, err) == (status, message)


def test_writing_to_a_folder_names_the_target_not_a_temporary_file(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "deal", "--seed", "1", "--output", str(tmp_path))
    assert code == 2 and err == f"cardtable: error: {tmp_path}: is a directory, not a file\n"
    code, _, err = run(capsys, "deal", "--seed", "1", "--output", str(tmp_path / "no" / "deal.txt"))
    assert code == 2 and "does not exist" in err and ".tmp" not in err


@pytest.mark.parametrize(("argv", "message"), [
    (["runs", "show"], "runs show needs a run id"),
    (["deal", "--winnable", "--file", "x.txt"], "--winnable goes with --seed"),
    (["show", "Ah Kd"], "deal string: 2 cards, not 52; missing Ac"),
    (["show", "no-such-board.txt"], "no such file (and not a deal string"),
    (["compare", "priority", "wizard", "--games", "5"], "unknown strategy 'wizard'"),
])
def test_bad_command_line_input_is_a_usage_error(argv: list[str], message: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    if argv[0] == "runs":
        store = tmp_path / "runs.db"
        assert run(capsys, "simulate", "--games", "3", "--workers", "1", "--record", "0", "--store", str(store))[0] == 0
        argv = [*argv, "--store", str(store)]
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.startswith("cardtable: error: ") and message in err


def _run_process(code: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, env=env)


def test_the_exit_status_reaches_the_shell() -> None:
    script = ("import sys\nfrom cardtable.cli import klondike, main\n"
              "def broken(args): raise RuntimeError('boom')\n"
              "klondike._cmd_variants = broken\nsys.exit(main(['variants']))\n")
    result = _run_process(script)
    assert result.returncode == 70
    assert result.stderr.startswith("cardtable: internal error: RuntimeError: boom\n")


def test_a_closed_pipe_is_quiet() -> None:
    # The reader goes away after one line of a long output: status 0 and
    # nothing on stderr (no "Exception ignored" when stdout is flushed at exit).
    script = ("import sys\nfrom cardtable.cli import klondike, main\n"
              "def flood(args):\n    for _ in range(50_000): print('x' * 80)\n    return 0\n"
              "klondike._cmd_variants = flood\nsys.exit(main(['variants']))\n")
    producer = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert producer.stdout is not None and producer.stderr is not None
    producer.stdout.readline()
    producer.stdout.close()
    err = producer.stderr.read()
    assert producer.wait() == 0
    assert err == b""


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "--workers", "100000", "--games", "5"], "--workers must be at most"),
    (["solve", "--deals", "-", "--workers", "0"], "--workers must be at least 1"),
    (["kings-corner", "match", "--workers", "100000"], "--workers must be at most"),
    (["kings-corner", "play", "--delay", "inf"], "finite number of seconds"),
    (["kings-corner", "play", "--delay", "-1"], "finite number of seconds"),
    (["deal", "--seed", "18446744073709551616"], "seed must be at most 18446744073709551615"),
    (["deal", "--seed", "1" * 5000], "seed is out of range: it must be at most 18446744073709551615"),
    (["simulate", "--seed", "18446744073709551610", "--games", "20", "--no-store"], "run past the largest seed"),
])
def test_numbers_out_of_range_are_refused_in_one_line(argv: list[str], message: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_shuffles_refuse_seeds_past_64_bits() -> None:
    from cardtable.cards import MAX_SEED, CardError, shuffled_deck

    assert len(shuffled_deck(MAX_SEED)) == 52
    with pytest.raises(CardError, match="2\\*\\*64 - 1"):
        shuffled_deck(MAX_SEED + 1)
