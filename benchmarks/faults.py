"""A soak under faults: concurrent runs on one results store, broken at random, then resumed.

For ``--minutes`` it keeps ``--concurrent`` real ``cardtable`` commands
running on one store in a private data folder, each with ``--workers 2``:

- ``simulate`` of ``--games`` seeded games (``--no-fast``, so games are
  stored block by block) with ``--output`` a JSON-lines file;
- ``solve --deals`` of ``--deals`` seeds under a small state budget, with
  ``--output``;
- ``study winnability`` of ``--deals`` deals under a small state budget
  (one at a time: a study is one table of deals, resumed by running it again).

Two readers list the runs (``cardtable runs``, ``cardtable study show``)
all the while. Every ``--every`` seconds or so a fault is done to a random
running command: ``kill -9`` of one of its worker processes (as the OOM
killer does), ``kill -9`` of the command itself (its workers must die with
it), SIGTERM, SIGHUP, or SIGTERM to a ``simulate`` alone as its reader stops
reading its standard output (each prints 200 records at its end; it must
end at once all the same, not wait on the full pipe). A command's standard
output is read otherwise. A command that ends before its work is done is
taken up again (``--resume ID``, or the same study again) until it finishes.

When each finishes, its work is checked against the store and its output:
a unit *lost* is one of the run's units missing from the store or the
output file; a unit *duplicated* is one written twice to the output (the
store cannot hold one twice). A finished simulate's output is compared
byte for byte with that of an unbroken run of the same games. The time to
recover is from a fault until the command taken up again has stored new
work (or finished). Reader failures, orphaned worker processes and
temporary files left beside the outputs are counted too.

A command that stores nothing for ``--hang-seconds`` is taken to hang: what
its processes are doing (each one's state and the kernel function it waits
in) is recorded, the command and its workers are killed and the work is
taken up again; a job that hangs three times is given up. A reader that does
not answer in two minutes is killed and counted as a failed read. So a hang
is reported with what it was waiting on, and the soak always ends.

    python benchmarks/faults.py                      # a 2-minute soak
    python benchmarks/faults.py --minutes 10 --seed 3
    python benchmarks/faults.py --minutes 3 --markdown docs/results/faults.md
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import _report

FAULTS = ("kill -9 worker", "kill -9 command", "SIGTERM", "SIGHUP", "SIGTERM, output unread")


@dataclass
class Job:
    """One piece of work, as many commands as it takes to finish it."""

    kind: str  # simulate, solve or study
    number: int
    args: list[str]
    output: Path | None
    units: int
    run_id: int | None = None
    process: subprocess.Popen[bytes] | None = None
    commands: int = 0
    started_at: float = 0.0  # when its command now running started
    faulted_at: float | None = None  # when the last fault was done, until it has recovered
    stored_at_fault: int = 0
    faults: list[str] = field(default_factory=list)
    progress_units: int = -1  # the units stored when last looked at (-1: not yet)
    progress_at: float = 0.0  # when that count last grew (or its command started)
    looked_at: float = 0.0  # when the store was last read for it
    hangs: int = 0
    #: Set while nobody reads its command's standard output (a full pipe then blocks its writes).
    unread: threading.Event = field(default_factory=threading.Event)


@dataclass
class Tally:
    """What the soak saw."""

    finished: dict[str, int] = field(default_factory=lambda: {"simulate": 0, "solve": 0, "study": 0})
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULTS, 0))
    commands: int = 0
    lost: int = 0
    duplicated: int = 0
    outputs_same: int = 0
    outputs_compared: int = 0
    recoveries: list[float] = field(default_factory=list)
    reads: int = 0
    read_failures: list[str] = field(default_factory=list)
    orphans: int = 0
    leftovers: int = 0
    unexpected: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)


class Soak:
    """The store, the jobs and the faults."""

    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args = args
        self.folder = folder
        self.store = folder / "shared.sqlite"
        self.rng = random.Random(args.seed)
        self.tally = Tally()
        self.env = {**os.environ, "CARDTABLE_DATA": str(folder / "data")}
        self.env.pop("CARDTABLE_DEBUG", None)
        self.deals = folder / "deals.txt"
        self.deals.write_text("".join(f"{seed}\n" for seed in range(1, args.deals + 1)))
        self.jobs: list[Job] = []
        self.count = 0
        self.study_seed = 1
        self.stop = threading.Event()

    # ----- commands ------------------------------------------------------------------------------

    def _command(self, args: list[str], job: Job) -> subprocess.Popen[bytes]:
        """A command whose standard output is read, unless ``job.unread`` says nobody reads it now."""
        self.tally.commands += 1
        process = subprocess.Popen([sys.executable, "-m", "cardtable", *args, "--store", str(self.store)],
                                   cwd=self.folder, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   start_new_session=True)
        threading.Thread(target=_drain, args=(process, job.unread), daemon=True).start()
        return process

    def simulate_args(self, output: Path) -> list[str]:
        # 200 records printed at the end: the output a run stopped while nobody reads it must not wait on
        return ["simulate", "--games", str(self.args.games), "--no-fast", "--workers", "2", "--record", "200",
                "--no-progress", "--output", str(output)]

    def new_job(self) -> Job:
        self.count += 1
        running = {job.kind for job in self.jobs}
        kinds = ["simulate", "solve"] + ([] if "study" in running else ["study"])
        kind = self.rng.choice(kinds)
        if kind == "simulate":
            output = self.folder / f"games-{self.count}.jsonl"
            job = Job(kind, self.count, self.simulate_args(output), output, self.args.games)
        elif kind == "solve":
            output = self.folder / f"rows-{self.count}.jsonl"
            job = Job(kind, self.count, ["solve", "--deals", str(self.deals), "--max-states", "20000",
                                         "--workers", "2", "--no-progress", "--output", str(output)],
                      output, self.args.deals)
        else:
            first, self.study_seed = self.study_seed, self.study_seed + self.args.deals
            job = Job(kind, self.count, ["study", "winnability", "--deals", str(self.args.deals), "--seed",
                                         str(first), "--max-states", "3001", "--workers", "2", "--no-progress"],
                      None, self.args.deals)
        self.start(job)
        return job

    def start(self, job: Job) -> None:
        job.unread.clear()  # a new command's output is read (a hung one's reader may have stopped)
        if job.run_id is not None and job.kind != "study":
            args = [job.kind, "--resume", str(job.run_id), "--no-progress"]
        else:
            args = job.args
        job.process = self._command(args, job)
        job.started_at = job.progress_at = time.monotonic()
        job.progress_units = -1
        job.commands += 1

    # ----- hangs ---------------------------------------------------------------------------------------

    def hung(self, job: Job) -> bool:
        """Whether ``job``'s running command has stored nothing for ``--hang-seconds``; if so it is
        recorded with what its processes wait on, and it and its workers are killed."""
        now = time.monotonic()
        if job.process is None or job.process.poll() is not None or now - job.looked_at < 1.0:
            return False
        job.looked_at = now
        stored = self.stored(job)
        if stored != job.progress_units:
            job.progress_units, job.progress_at = stored, now
            return False
        if now - job.progress_at < self.args.hang_seconds:
            return False
        pids = [job.process.pid, *_children(job.process.pid)]
        self.tally.hangs.append(f"{job.kind} {job.number} (command {job.commands}, {stored} of {job.units} units "
                                f"stored): nothing stored for {now - job.progress_at:.0f} s; "
                                + ", ".join(_waiting(pid) for pid in pids))
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(job.process.pid, signal.SIGKILL)
        job.process.wait()
        job.hangs += 1
        return True

    # ----- the store, read without writing -------------------------------------------------------------

    def _read(self, query: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        if not self.store.exists():
            return []
        for _ in range(50):
            try:
                with sqlite3.connect(f"{self.store.as_uri()}?mode=ro", uri=True, timeout=20) as db:
                    return list(db.execute(query, params))
            except sqlite3.OperationalError:
                time.sleep(0.1)
        return []

    def find_run(self, job: Job) -> int | None:
        if job.kind == "study" or job.output is None:
            return None
        for run_id, params in self._read("SELECT id, params FROM runs WHERE kind = ?", (job.kind,)):
            if params and json.loads(str(params)).get("output") == str(job.output):
                return int(str(run_id))
        return None

    def stored(self, job: Job) -> int:
        if job.kind == "study":
            first = int(job.args[job.args.index("--seed") + 1])
            rows = self._read("SELECT COUNT(*) FROM study_deals WHERE max_states = 3001 AND seed BETWEEN ? AND ?",
                              (first, first + job.units - 1))
        else:
            job.run_id = job.run_id or self.find_run(job)
            if job.run_id is None:
                return 0
            table = "games" if job.kind == "simulate" else "solves"
            rows = self._read(f"SELECT COUNT(DISTINCT idx) FROM {table} WHERE run_id = ?", (job.run_id,))
        return int(str(rows[0][0])) if rows else 0

    # ----- faults --------------------------------------------------------------------------------------

    def fault(self) -> None:
        running = [job for job in self.jobs if job.process is not None and job.process.poll() is None]
        if not running:
            return
        kind = self.rng.choice(FAULTS)
        job = self.rng.choice(running)
        if kind == "kill -9 worker":  # a command whose workers are up (one still starting has none yet)
            job = self.rng.choice([job for job in running if job.process and _children(job.process.pid)] or [job])
        assert job.process is not None
        workers = _children(job.process.pid)
        if kind == "kill -9 worker" and not workers:
            kind = "SIGTERM"
        if kind == "SIGTERM, output unread":  # `kill PID` of a simulate whose reader stopped reading
            job = self.rng.choice([job for job in running if job.kind == "simulate"] or [job])
            assert job.process is not None
            if job.kind != "simulate":
                kind = "SIGTERM"
        job.stored_at_fault = self.stored(job)
        try:
            if kind == "kill -9 worker":
                os.kill(self.rng.choice(workers), signal.SIGKILL)
            elif kind == "kill -9 command":
                os.kill(job.process.pid, signal.SIGKILL)
            elif kind == "SIGTERM, output unread":
                job.unread.set()
                os.kill(job.process.pid, signal.SIGTERM)
            else:
                os.killpg(job.process.pid, signal.SIGTERM if kind == "SIGTERM" else signal.SIGHUP)
        except ProcessLookupError:
            return
        self.tally.faults[kind] += 1
        job.faults.append(kind)
        if job.faulted_at is None:
            job.faulted_at = time.monotonic()
        if kind == "kill -9 command":
            self._check_orphans(workers)

    def _check_orphans(self, workers: list[int]) -> None:
        def watch() -> None:
            deadline = time.monotonic() + 10
            while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
                time.sleep(0.1)
            left = [pid for pid in workers if _alive(pid)]
            self.tally.orphans += len(left)
            for pid in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        threading.Thread(target=watch, daemon=True).start()

    # ----- readers -------------------------------------------------------------------------------------

    def reader(self, command: list[str]) -> None:
        while not self.stop.is_set():
            if self.store.exists():
                try:
                    done = subprocess.run([sys.executable, "-m", "cardtable", *command, "--store",
                                           str(self.store)], cwd=self.folder, env=self.env, capture_output=True,
                                          text=True, timeout=120, check=False)
                except subprocess.TimeoutExpired:  # killed by run(): a failed read, and reading goes on
                    self.tally.reads += 1
                    self.tally.read_failures.append(f"cardtable {' '.join(command)} did not answer in 120 s")
                    continue
                self.tally.reads += 1
                if done.returncode != 0:
                    self.tally.read_failures.append(done.stderr.strip().splitlines()[-1:][0] if done.stderr else
                                                    f"exit {done.returncode}")
            self.stop.wait(0.2)

    # ----- the end of a job ----------------------------------------------------------------------------

    def check(self, job: Job, reference: str) -> None:
        stored = self.stored(job)
        lost = job.units - stored
        if job.output is not None:
            lines = job.output.read_text().splitlines() if job.output.exists() else []
            key = "index" if job.kind == "simulate" else "deal"
            seen = [json.loads(line)[key] for line in lines]
            self.tally.duplicated += len(seen) - len(set(seen))
            lost = max(lost, job.units - len(set(seen)))
            left = list(self.folder.glob(f".{job.output.name}.*.tmp"))
            self.tally.leftovers += len(left)
            if job.kind == "simulate":
                self.tally.outputs_compared += 1
                self.tally.outputs_same += job.output.read_text() == reference
        self.tally.lost += max(lost, 0)
        self.tally.finished[job.kind] += 1

    def run(self) -> Tally:
        reference_file = self.folder / "unbroken.jsonl"
        subprocess.run([sys.executable, "-m", "cardtable", *self.simulate_args(reference_file), "--no-store"],
                       cwd=self.folder, env=self.env, check=True, capture_output=True)
        reference = reference_file.read_text()
        readers = [threading.Thread(target=self.reader, args=(command,), daemon=True)
                   for command in (["runs"], ["study", "show"])]
        for thread in readers:
            thread.start()
        ends = time.monotonic() + 60 * self.args.minutes
        next_fault = time.monotonic() + self.rng.expovariate(1 / self.args.every)
        try:
            while time.monotonic() < ends or any(job.process is not None for job in self.jobs):
                soaking = time.monotonic() < ends
                while soaking and len(self.jobs) < self.args.concurrent:
                    self.jobs.append(self.new_job())
                if soaking and time.monotonic() >= next_fault:
                    self.fault()
                    next_fault = time.monotonic() + self.rng.expovariate(1 / self.args.every)
                for job in list(self.jobs):
                    self.tend(job, reference)
                time.sleep(0.1)
        finally:
            self.stop.set()
            for job in self.jobs:
                if job.process is not None and job.process.poll() is None:
                    os.killpg(job.process.pid, signal.SIGKILL)
        for thread in readers:
            thread.join(timeout=130)
        return self.tally

    def tend(self, job: Job, reference: str) -> None:
        """Notice a job's recovery, a hang and its command's end; take it up again or check it."""
        if self.hung(job):
            assert job.process is not None
            if job.process.stderr:
                job.process.stderr.close()
            job.process = None
            if job.hangs >= 3:
                self.tally.unexpected.append(f"{job.kind} {job.number} given up after {job.hangs} hangs")
                self.jobs.remove(job)
            else:
                self.start(job)  # taken up again
            return
        taken_up = job.faulted_at is not None and (job.started_at > job.faulted_at or
                                                   job.faults[-1] == "kill -9 worker")
        if taken_up and job.faulted_at is not None and job.process is not None and job.process.poll() is None \
                and self.stored(job) > job.stored_at_fault:
            self.tally.recoveries.append(time.monotonic() - job.faulted_at)
            job.faulted_at = None
        if job.process is None or job.process.poll() is None:
            return
        status = job.process.returncode
        job.unread.clear()
        stderr = job.process.stderr.read().decode(errors="replace") if job.process.stderr else ""
        if job.process.stderr:
            job.process.stderr.close()
        job.process = None
        job.run_id = job.run_id or self.find_run(job)
        if status == 0 and self.stored(job) >= job.units:
            if job.faulted_at is not None:
                self.tally.recoveries.append(time.monotonic() - job.faulted_at)
                job.faulted_at = None
            self.check(job, reference)
            self.jobs.remove(job)
            return
        # Stopped before its end: by a lost worker (1), a signal it handled (129, 130, 143), or one that
        # came before its handlers were set or after they were put back (-1, -9, -15): taken up again.
        if status in (1, 129, 130, 143, -1, -9, -15) or "still running" in stderr:
            if "still running" in stderr:
                time.sleep(0.2)
            self.start(job)  # taken up again
            return
        self.tally.unexpected.append(f"{job.kind} {job.number} ended {status}: {stderr.strip()[-300:]}")
        self.jobs.remove(job)


def _drain(process: subprocess.Popen[bytes], unread: threading.Event) -> None:
    """Read ``process``'s standard output to its end, but not while ``unread`` is set and it runs."""
    assert process.stdout is not None
    while True:
        if unread.is_set() and process.poll() is None:
            time.sleep(0.05)
            continue
        if not process.stdout.read1(65536):
            break
    process.stdout.close()


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _state(pid: int) -> str | None:
    """``pid``'s state letter as /proc shows it (``S``, ``T``, ``Z``...), or None when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return None


def _waiting(pid: int) -> str:
    """``pid``, its state letter and the kernel function it waits in, as /proc shows them."""
    state = _state(pid)
    try:
        wchan = Path(f"/proc/{pid}/wchan").read_text().strip() or "-"
    except OSError:
        state = None
    return f"{pid} gone" if state is None else f"{pid} {state} in {wchan}"


def _alive(pid: int) -> bool:
    return _state(pid) not in (None, "Z")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=2.0, help="how long faults are done (default 2)")
    parser.add_argument("--concurrent", type=int, default=3, help="commands running at once (default 3)")
    parser.add_argument("--every", type=float, default=4.0, help="mean seconds between faults (default 4)")
    parser.add_argument("--games", type=int, default=1500, help="games of each simulate (default 1500)")
    parser.add_argument("--deals", type=int, default=60, help="deals of each solve and study (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the faults' choices (default 1)")
    parser.add_argument("--hang-seconds", type=float, default=90.0,
                        help="a command that stores nothing for this long is taken to hang: recorded, killed and "
                             "taken up again (default 90)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    _report.add_option(parser)
    args = parser.parse_args()
    if sys.platform != "linux":
        parser.error("the soak reads /proc to find worker processes: Linux only")
    if args.hang_seconds <= 0:
        parser.error(f"--hang-seconds must be positive, not {args.hang_seconds:g}")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cardtable-faults-") as folder:
        tally = Soak(args, Path(folder)).run()
    seconds = time.monotonic() - started
    longest = max(tally.recoveries, default=0.0)
    figures = {
        "minutes": args.minutes, "seconds": round(seconds, 1), "commands": tally.commands,
        "runs_completed": dict(tally.finished), "faults": dict(tally.faults),
        "units_lost": tally.lost, "units_duplicated": tally.duplicated,
        "simulate_outputs_same_as_unbroken": f"{tally.outputs_same} of {tally.outputs_compared}",
        "recoveries": len(tally.recoveries), "longest_recovery_seconds": round(longest, 2),
        "median_recovery_seconds": round(sorted(tally.recoveries)[len(tally.recoveries) // 2], 2)
        if tally.recoveries else 0.0,
        "reads": tally.reads, "read_failures": len(tally.read_failures), "orphan_workers": tally.orphans,
        "temporary_files_left": tally.leftovers, "unexpected_ends": tally.unexpected,
        "commands_hung": tally.hangs,
    }
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        for key, value in figures.items():
            print(f"{key.replace('_', ' ')}: {value}")
        for failure in tally.read_failures[:5]:
            print(f"  read failed: {failure}")
        for hang in tally.hangs:
            print(f"  hung: {hang}")
    if args.markdown:
        rows: list[list[object]] = [
            ["soak", f"{args.minutes:g} min of faults ({seconds:.0f} s in all), {args.concurrent} commands at once, "
                     "2 workers each"],
            ["commands started", f"{tally.commands:,}"],
            ["runs completed", ", ".join(f"{n} {kind}" for kind, n in tally.finished.items())],
            ["faults done", ", ".join(f"{n} {kind}" for kind, n in tally.faults.items())],
            ["units lost (goal 0)", tally.lost],
            ["units duplicated (goal 0)", tally.duplicated],
            ["simulate outputs identical to an unbroken run", f"{tally.outputs_same} of {tally.outputs_compared}"],
            ["longest time to recover", f"{longest:.1f} s (median {figures['median_recovery_seconds']} s, "
                                        f"{len(tally.recoveries)} recoveries)"],
            ["reads by 2 concurrent readers (failed)", f"{tally.reads:,} ({len(tally.read_failures)})"],
            ["orphaned workers / temporary files left", f"{tally.orphans} / {tally.leftovers}"],
            ["commands that ended otherwise", len(tally.unexpected)],
            [f"commands that stored nothing for {args.hang_seconds:g} s, killed (goal 0)", len(tally.hangs)],
        ]
        intro = (f"Random faults (kill -9 of a worker or of the command, SIGTERM, SIGHUP; one every {args.every:g} s "
                 f"on average, seed {args.seed}) in concurrent `simulate` ({args.games:,} games), `solve --deals` "
                 f"and `study winnability` ({args.deals} deals) runs on one store, each taken up again until "
                 "it finished.")
        _report.write_markdown(args.markdown, "## Faults soak", intro + "\n\n" + _report.table(["", ""], rows),
                               note=args.markdown_note)


if __name__ == "__main__":
    main()
