"""How ``cardtable`` reports what goes wrong: bad input in one line and exit
status 2, a bug as an internal error with exit status 70, interrupts 130."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run

from cardtable.cli import klondike as klondike_cli
from cardtable.errors import CardtableError, RecordError, UsageError
from cardtable.klondike import Position


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
    (["kings-corner", "play", "--delay", "1e300"], "--delay: must be at most 60 seconds (from 0 to 60)"),
    (["play", "kings-corner", "--delay", "61"], "--delay: must be at most 60 seconds (from 0 to 60)"),
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


# ----- bad options: one line, never argparse's usage block ----------------------------------------


@pytest.mark.parametrize(("argv", "prog", "message"), [
    (["deal"], "cardtable", "say which deal: --seed N, --file F"),
    (["deal", "--seed", "x"], "cardtable deal", "argument --seed: seed must be a whole number"),
    (["deal", "--seed", "1", "--file", "f"], "cardtable deal", "argument --file: not allowed with argument --seed"),
    (["juggle"], "cardtable", "argument COMMAND: invalid choice: 'juggle'"),
    (["runs", "frobnicate"], "cardtable runs", "invalid choice: 'frobnicate'"),
    (["kings-corner", "match", "--games", "x"], "cardtable kings-corner match", "--games must be a whole number"),
    (["kings-corner", "match", "--target", "x"], "cardtable kings-corner match", "expected a whole number, not 'x'"),
    (["study", "winnability"], "cardtable study winnability", "the following arguments are required: --deals"),
    (["solve", "--seed", "1", "--timeout", "nan"], "cardtable solve", "argument --timeout"),
    (["show"], "cardtable show", "the following arguments are required: DEAL-OR-FILE"),
])
def test_a_bad_option_is_one_line_with_a_pointer_to_help(argv: list[str], prog: str, message: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and not err.startswith("usage:"), err
    assert err.startswith(f"{prog}: error: ") and message in err, err
    if prog != "cardtable":
        assert err.endswith(f" (see '{prog} --help')\n"), err


@pytest.mark.parametrize("argv", [[], ["kings-corner"], ["study"]])
def test_no_command_is_one_line_naming_the_commands(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("cardtable: error: choose a ") and "--help" in err


# ----- budgets: every one capped, in one line naming the option and its range ---------------------


def test_the_cli_budgets_are_the_librarys() -> None:
    from cardtable.bots.klondike.expert import MAX_EXPERT_STATES, MAX_SAMPLES
    from cardtable.cli import _options

    assert (_options.MAX_SAMPLES, _options.MAX_GUESS_STATES) == (MAX_SAMPLES, MAX_EXPERT_STATES)


@pytest.mark.parametrize(("argv", "message"), [
    (["hint", "RECORD", "--samples", "1000000000000"], "--samples must be at most 10000 (from 1 to 10000)"),
    (["hint", "RECORD", "--samples", "0"], "--samples must be at least 1 (from 1 to 10000)"),
    (["review", "RECORD", "--samples", "10001"], "--samples must be at most 10000 (from 1 to 10000)"),
    (["review", "RECORD", "--max-states", "25000000001"],
     "--max-states must be at most 25000000000 (from 1 to 25000000000)"),
    (["review", "RECORD", "--verdict-states", "100000000001"], "--verdict-states must be at most 100000000000"),
    (["simulate", "--games", "1", "--no-store", "--strategy", "expert samples=1000000000000"],
     "the expert's guesses (samples) must be at most 10,000"),
    (["simulate", "--games", "1", "--no-store", "--strategy", "expert second=1000000000000"],
     "second look needs a count of guesses, from 0 to 10,000"),
])
def test_budgets_beyond_their_range_are_refused(argv: list[str], message: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.txt"
    record.write_text(f'[Deal "{Position.from_seed(3).deal_string()}"]\n\n1. D\n')
    code, out, err = run(capsys, *[str(record) if word == "RECORD" else word for word in argv])
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert message in err, err


# ----- input that used to be an internal error ------------------------------------------------------


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "--resume", str(2**63)], "--resume must be at most 9223372036854775807"),
    (["solve", "--resume", str(10**30)], "--resume must be at most 9223372036854775807"),
    (["kings-corner", "match", "--resume", str(2**63)], "--resume must be at most 9223372036854775807"),
    (["runs", "show", "9" * 101], "run id is out of range: it must be at most 9223372036854775807"),
    (["runs", "show", str(2**63)], "run id must be at most 9223372036854775807"),
    (["runs", "--limit", "9" * 30], "--limit must be at most 9223372036854775807"),
    (["kings-corner", "match", "--games", "9" * 39], "--games must be at most 9223372036854775807"),
    (["simulate", "--games", "2", "--no-store", "--strategy", ""], "a strategy needs a name, not ''"),
    (["simulate", "--games", "2", "--no-store", "--strategy", " "], "a strategy needs a name, not ' '"),
    (["deal", "--file", "/proc/self/mem"], "/proc/self/mem: input/output error"),
])
def test_input_beyond_what_the_store_or_files_take_is_bad_input(argv: list[str], message: str, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "runs.db"  # a real store, so that a large id would reach SQLite
    assert run(capsys, "simulate", "--games", "3", "--workers", "1", "--record", "0", "--store", str(store))[0] == 0
    if argv[0] in ("simulate", "solve", "kings-corner", "runs") and "--no-store" not in argv:
        argv = [*argv, "--store", str(store)]
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and message in err, err


def test_a_grade_alone_deals_a_fresh_graded_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "deal", "--difficulty", "easy")
    assert code == 0, err
    number = int(err.split("seed ", 1)[1].split(",", 1)[0])
    assert "graded easy" in err
    assert out == Position.from_seed(number).deal_string() + "\n"


# ----- standard output with no room: one line, exit 2, for every command ---------------------------


@pytest.mark.parametrize("argv", [
    ["deal", "--seed", "1"],
    ["replay", "RECORD"],
    ["solve", "--seed", "1", "--max-states", "2000", "--json"],
    ["simulate", "--games", "3", "--no-store"],
    ["variants", "--json"],
    ["--help"],
    ["deal", "--help"],
    ["--version"],
])
def test_no_room_on_standard_output_is_one_line_and_exit_2(argv: list[str], tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text(f'[Deal "{Position.from_seed(3).deal_string()}"]\n\n1. D\n')
    argv = [str(record) if word == "RECORD" else word for word in argv]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "cardtable", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120, env={**os.environ, "CARDTABLE_DATA": str(tmp_path / "data")})
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("cardtable: error: standard output: no room left on the device "
                           "(No space left on device)\n")
