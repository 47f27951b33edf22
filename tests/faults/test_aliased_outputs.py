"""Outputs that alias: an output that is the same file as an input, the
results store or another output is refused in one line before any work,
the victim left as it was; and standard output named as a file
(``/dev/stdout``) is streamed, never replaced, so a pipe works and a file
appended to with ``>>`` keeps what it had. Real commands in real processes."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest


def _cardtable(tmp_path: Path, *args: str, stdout: int | IO[str] = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data")}
    env.pop("CARDTABLE_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "cardtable", *args], cwd=tmp_path, env=env, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a real results store (one run), a deals file, and a link to the store."""
    folder = tmp_path_factory.mktemp("aliases")
    made = _cardtable(folder, "simulate", "--strategy", "greedy", "--games", "3", "--workers", "1", "--record", "0",
                      "--store", "s.sqlite")
    assert made.returncode == 0, made.stderr
    (folder / "d.txt").write_text("5\n6\n7\n")
    (folder / "link.sqlite").symlink_to("s.sqlite")
    (folder / "out.jsonl").write_text("kept\n")
    return folder


@pytest.mark.parametrize(("args", "message"), [
    (("simulate", "--games", "3", "--store", "s.sqlite", "--output", "s.sqlite"),
     "--output s.sqlite: is the same file as --store s.sqlite"),
    (("simulate", "--games", "3", "--store", "s.sqlite", "--plot", "s.sqlite"),
     "--plot s.sqlite: is the same file as --store s.sqlite"),
    (("simulate", "--games", "3", "--store", "s.sqlite", "--output", "link.sqlite"),
     "--output link.sqlite: is the same file as --store s.sqlite"),
    (("simulate", "--deals", "d.txt", "--no-store", "--output", "d.txt"),
     "--output d.txt: is the same file as --deals d.txt"),
    (("simulate", "--games", "3", "--no-store", "--output", "out.jsonl", "--plot", "./out.jsonl"),
     "--plot ./out.jsonl: is the same file as --output out.jsonl"),
    (("solve", "--deals", "d.txt", "--max-states", "100", "--store", "s.sqlite", "--output", "d.txt"),
     "--output d.txt: is the same file as --deals d.txt"),
    (("solve", "--deals", "d.txt", "--max-states", "100", "--store", "link.sqlite", "--output", "s.sqlite"),
     "--output s.sqlite: is the same file as --store link.sqlite"),
])
def test_an_output_that_aliases_another_file_is_refused_and_the_file_kept(files: Path, args: tuple[str, ...],
                                                                           message: str) -> None:
    before = {name: (files / name).read_bytes() for name in ("s.sqlite", "d.txt", "out.jsonl")}
    refused = _cardtable(files, *args)
    assert refused.returncode == 2
    assert refused.stderr == f"cardtable: error: {message}; give another file\n"
    assert {name: (files / name).read_bytes() for name in before} == before
    assert not [path.name for path in files.iterdir() if path.name.endswith(".tmp")]
    with_store = _cardtable(files, "runs", "--store", "s.sqlite", "--json")
    assert len(json.loads(with_store.stdout)) == 1  # no run was started


def test_dev_stdout_appended_to_a_file_keeps_the_files_earlier_content(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("earlier line\n")
    with open(log, "a") as appended:  # as a shell's '>> log.txt' does
        done = _cardtable(tmp_path, "simulate", "--strategy", "greedy", "--games", "3", "--workers", "1", "--record",
                          "0", "--no-store", "--json", "--output", "/dev/stdout", stdout=appended)
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines()
    assert lines[0] == "earlier line"
    games = [json.loads(line) for line in lines[1:4]]
    assert [game["index"] for game in games] == [0, 1, 2]
    assert json.loads("\n".join(lines[4:]))["games"] == 3
    assert not [path.name for path in tmp_path.iterdir() if path.name.endswith(".tmp")]


def test_dev_stdout_into_a_pipe_is_streamed(tmp_path: Path) -> None:
    done = _cardtable(tmp_path, "simulate", "--strategy", "greedy", "--games", "2", "--workers", "1", "--record",
                      "0", "--no-store", "--json", "--output", "/dev/stdout")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [json.loads(line)["index"] for line in lines[:2]] == [0, 1]


def test_a_resume_checks_its_stored_output_again(tmp_path: Path) -> None:
    made = _cardtable(tmp_path, "simulate", "--strategy", "greedy", "--games", "4", "--workers", "1", "--record", "0",
                      "--store", "s.sqlite", "--output", "games.jsonl")
    assert made.returncode == 0, made.stderr
    with sqlite3.connect(tmp_path / "s.sqlite") as db:  # stopped before its end, as a killed run is
        db.execute("UPDATE runs SET status = 'interrupted' WHERE id = 1")
    db.close()
    (tmp_path / "games.jsonl").unlink()
    (tmp_path / "games.jsonl").symlink_to("s.sqlite")  # the output's place is now the store's
    refused = _cardtable(tmp_path, "simulate", "--resume", "1", "--store", "s.sqlite")
    assert refused.returncode == 2
    assert refused.stderr == (f"cardtable: error: --output {tmp_path / 'games.jsonl'}: is the same file as --store "
                              "s.sqlite; give another file\n")
    assert (tmp_path / "s.sqlite").read_bytes().startswith(b"SQLite format 3\0")  # still the store
    assert (tmp_path / "games.jsonl").is_symlink()
    listed = _cardtable(tmp_path, "runs", "--store", "s.sqlite", "--json")
    assert [(run["status"], run["games_played"]) for run in json.loads(listed.stdout)] == [("interrupted", 4)]
