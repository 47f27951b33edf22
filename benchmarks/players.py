"""How well the players play: Klondike win rates in three rule sets, Kings Corner
hands and matches at four and at two seats.

    python benchmarks/players.py [--games 10000] [--expert-games 2000] [--expert 'expert']
                                 [--matches 2000] [--seats 4 2] [--workers 2]
                                 [--skip-klondike] [--skip-kings-corner]

Klondike (deals from seeds 1..N, the same deals for every player):

- draw 3, unlimited passes, foundation cards may come back (``seed-001``): the
  rule set of the published benchmarks (greedy rules 13%, Ensemble-UCT 37%,
  hindsight optimisation 47.6%);
- draw 1, unlimited passes (``draw1``);
- seed 002's one-pass Vegas game (``seed-002``): wins, foundation cards a game and
  net dollars a game.

Kings Corner: ``expert``, ``strategic`` and ``greedy`` each against three
``greedy`` bots, then one ``greedy`` bot; hand win rate, mean penalty and match
win rate (matches to 25 points), with 95% intervals. Hands are played until the
line-up has finished ``--matches`` matches. Every figure is followed by the
``cardtable`` command that gives it.

The expert against lonelybot's player (docs/peers.md builds its driver), on the
same ``seed-001`` deals from ``--paired-seed`` on:

    python benchmarks/players.py --skip-klondike --skip-kings-corner \
        --lonelybot-player PATH [--paired-deals 2000] [--paired-seed 5000000] \
        [--paired-budget SECONDS] [--paired-jsonl FILE] [--paired-side both|expert|lonelybot]
    python benchmarks/players.py --skip-klondike --skip-kings-corner --paired-replay FILE [FILE ...]

Each player's wins with their 95% interval, foundation cards and CPU seconds a
game, and the paired difference in wins with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
import threading
import time
from dataclasses import dataclass

import _peers
import _report

from cardtable.klondike import Variant
from cardtable.sim.match import run_hands, summarize_hands
from cardtable.sim.runner import RunSpec, play_game, run_games
from cardtable.stats import mean_interval, paired_difference, wilson

_KLONDIKE = ("greedy", "priority")
_SETTINGS = ("seed-001", "draw1", "seed-002")
_KINGS_CORNER = ("expert", "strategic", "greedy")
_LINES: list[str] = []


def _say(text: str = "", **_: object) -> None:
    """Print a line now and keep it for ``--markdown``."""
    print(text, flush=True)
    _LINES.append(text)


def _percent(low: float, high: float) -> str:
    return f"{low:.1%}-{high:.1%}"


def klondike(games: int, expert_games: int, expert: str, workers: int) -> None:
    """One table per rule set: each player's wins, foundation cards and (under
    Vegas) money, with 95% intervals and CPU seconds a game."""
    players = [*_KLONDIKE, expert]
    for setting in _SETTINGS:
        variant = Variant.preset(setting)
        _say(f"\n## Klondike, {setting}: {variant.describe()}\n", flush=True)
        _say("| player | games | won | 95% interval | foundation cards | net $ a game | core-seconds a game |")
        _say("|---|---|---|---|---|---|---|", flush=True)
        for name in players:
            count = expert_games if name == expert else games
            started = time.perf_counter()
            results = run_games(RunSpec(name, variant, seed=1, keep_moves=False), count, workers=workers)
            seconds = time.perf_counter() - started
            won = sum(1 for game in results if game.won)
            low, high = wilson(won, len(results))
            found, flow, fhigh = mean_interval([float(game.foundation) for game in results])
            net, nlow, nhigh = mean_interval([float(game.net) for game in results])
            money = f"{net:.2f} ({nlow:.2f} to {nhigh:.2f})" if variant.scoring.kind == "vegas" else "-"
            _say(f"| {name} | {len(results):,} | {won / len(results):.2%} | {_percent(low, high)} "
                  f"| {found:.2f} ({flow:.2f}-{fhigh:.2f}) | {money} | {seconds * workers / len(results):.4f} |",
                  flush=True)
        _say()
        for name in players:
            count = expert_games if name == expert else games
            _say(f"    cardtable simulate --strategy {shlex.quote(name)} --variant {setting} --games {count}"
                  f" --workers {workers} --record 0")


#: lonelybot's game: draw 3, unlimited passes, kings in empty piles, foundation cards may come back.
PAIRED_SETTING = "seed-001"


@dataclass(frozen=True)
class PairedDeal:
    """One deal played by the expert and by lonelybot's player."""

    seed: int
    expert_won: bool
    expert_foundation: int
    expert_cpu: float
    lonelybot: _peers.PlayerRun


def versus_lonelybot(binary: str, deals: int, first_seed: int, expert: str, *, budget: float | None = None,
                     timeout: float = 900.0, jsonl: str | None = None, side: str = "both") -> list[PairedDeal]:
    """Play deals ``first_seed``, ``first_seed + 1``, ... with the expert (in this
    process) and with lonelybot's player (a child process, one game at a time, on
    a second thread), under ``seed-001``'s rules, which are lonelybot's game.
    New deals stop after ``budget`` wall seconds, if given; the deals both
    finished are returned in seed order (and written to ``jsonl`` as they finish).

    ``side`` ``"expert"`` or ``"lonelybot"`` plays that player alone and writes
    its records to ``jsonl`` (the list returned is empty): the two sides of the same
    deals can then run apart, at different times, and :func:`replay_paired`
    joins them."""
    variant = Variant.preset(PAIRED_SETTING)
    spec = RunSpec(expert, variant, seed=first_seed, keep_moves=False)
    began = time.monotonic()
    peer_runs: dict[int, _peers.PlayerRun] = {}
    expert_runs: dict[int, tuple[bool, int, float]] = {}
    lock = threading.Lock()
    out = open(jsonl, "a", encoding="utf-8") if jsonl else None  # noqa: SIM115 (closed below)

    def in_time() -> bool:
        return budget is None or time.monotonic() - began < budget

    def record(index: int) -> None:
        # Called with the lock held, by whichever side finishes a deal second (or the only side).
        wanted = {"both": index in peer_runs and index in expert_runs,
                  "expert": index in expert_runs, "lonelybot": index in peer_runs}[side]
        if wanted and out is not None:
            line: dict[str, object] = {"seed": first_seed + index}
            if index in expert_runs:
                won, found, cpu = expert_runs[index]
                line["expert"] = {"won": won, "foundation": found, "cpu": round(cpu, 3)}
            if index in peer_runs:
                peer = peer_runs[index]
                line["lonelybot"] = {"won": peer.won, "foundation": peer.foundation, "cpu": peer.cpu_seconds,
                                     "seconds": round(peer.seconds, 3), "killed": peer.killed,
                                     "status": peer.status}
            out.write(json.dumps(line) + "\n")
            out.flush()

    def peer_lane() -> None:
        index = 0
        while index < deals and in_time():
            if side == "both" and len(peer_runs) > len(expert_runs) + 50:
                time.sleep(1.0)  # far enough ahead of the expert: wait for it
                continue
            run = _peers.play_lonelybot(binary, spec.deal(index), variant.draw, first_seed + index, timeout)
            with lock:
                peer_runs[index] = run
                record(index)
            index += 1

    lane = threading.Thread(target=peer_lane, daemon=True)
    if side != "expert":
        lane.start()
    try:
        for index in range(deals if side != "lonelybot" else 0):
            if not in_time():
                break
            started = time.thread_time()
            result = play_game(spec, index)
            cpu = time.thread_time() - started
            with lock:
                expert_runs[index] = (result.won, result.foundation, cpu)
                record(index)
        if side != "expert":
            lane.join()
    finally:
        if out is not None:
            out.close()
    both = sorted(set(peer_runs) & set(expert_runs))
    return [PairedDeal(first_seed + i, *expert_runs[i], peer_runs[i]) for i in both]


def replay_paired(paths: list[str]) -> list[PairedDeal]:
    """The paired deals recorded in JSON lines (``--paired-jsonl``): each line has
    a ``seed`` and an ``expert`` record, a ``lonelybot`` record or both; the
    records of one seed may come from different files (the expert's game on a
    deal is the same in every run: its bot is seeded by the deal). A deal with
    both records is returned, in seed order; a later record replaces an earlier.
    Raises :class:`ValueError` naming the file and line of a malformed record."""
    experts: dict[int, tuple[bool, int, float]] = {}
    peers: dict[int, _peers.PlayerRun] = {}
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    seed = int(record["seed"])
                    if "expert" in record:
                        e = record["expert"]
                        experts[seed] = (bool(e["won"]), int(e["foundation"]), float(e["cpu"]))
                    if "lonelybot" in record:
                        b = record["lonelybot"]
                        won = b["won"]
                        peers[seed] = _peers.PlayerRun(
                            None if won is None else bool(won),
                            None if b.get("foundation") is None else int(b["foundation"]),
                            None if b.get("cpu") is None else float(b["cpu"]),
                            float(b.get("seconds", 0.0)), bool(b.get("killed", False)), int(b.get("status", 0)))
                except (ValueError, KeyError, TypeError, AttributeError) as error:
                    raise ValueError(f"{path}, line {number}: not a paired-deal record ({error})") from None
    return [PairedDeal(seed, *experts[seed], peers[seed]) for seed in sorted(set(experts) & set(peers))]


def report_versus_lonelybot(played: list[PairedDeal], expert: str) -> None:
    """Each player's wins with their interval, foundation cards and CPU a game,
    then the paired difference in wins (expert minus lonelybot) with its interval."""
    finished = [d for d in played if d.lonelybot.won is not None]
    failed = len(played) - len(finished)
    seeds = [d.seed for d in played]
    span = f"deals {min(seeds):,} to {max(seeds):,}" if seeds else "no deals"
    if seeds and max(seeds) - min(seeds) + 1 != len(seeds):
        span += f" ({len(seeds):,} of them)"
    _say(f"\n## Klondike, {PAIRED_SETTING}: the expert against lonelybot's player, {span}\n")
    if failed:
        _say(f"lonelybot's player gave no verdict on {failed} deal(s), left out of every figure: "
             + ", ".join(str(d.seed) for d in played if d.lonelybot.won is None) + "\n")
    if not finished:
        _say("No deal was finished by both players.")
        return
    n = len(finished)
    _say("| player | games | won | 95% interval | foundation cards | CPU seconds a game |")
    _say("|---|---|---|---|---|---|")
    rows = [(expert, [float(d.expert_won) for d in finished], [float(d.expert_foundation) for d in finished],
             [d.expert_cpu for d in finished]),
            ("lonelybot's player", [float(bool(d.lonelybot.won)) for d in finished],
             [float(d.lonelybot.foundation or 0) for d in finished],
             [d.lonelybot.cpu_seconds if d.lonelybot.cpu_seconds is not None else d.lonelybot.seconds
              for d in finished])]
    for name, wins, found, cpu in rows:
        won = int(sum(wins))
        low, high = wilson(won, n)
        fmean, flow, fhigh = mean_interval(found)
        cmean, clow, chigh = mean_interval(cpu)
        _say(f"| {name} | {n:,} | {won / n:.2%} | {_percent(low, high)} | {fmean:.2f} ({flow:.2f}-{fhigh:.2f}) "
             f"| {cmean:.2f} ({clow:.2f}-{chigh:.2f}) |")
    expert_wins, peer_wins = rows[0][1], rows[1][1]
    diff, low, high = paired_difference(peer_wins, expert_wins)
    only_expert = sum(1 for a, b in zip(expert_wins, peer_wins, strict=True) if a > b)
    only_peer = sum(1 for a, b in zip(expert_wins, peer_wins, strict=True) if b > a)
    _say(f"\nPaired difference in wins, {expert} minus lonelybot's player, on the same {n:,} deals: "
         f"{diff:+.2%} (95% interval {low:+.2%} to {high:+.2%}). Won by the expert only: {only_expert}; "
         f"by lonelybot's player only: {only_peer}; by both: "
         f"{sum(1 for a, b in zip(expert_wins, peer_wins, strict=True) if a and b)}.")
    _say("\nlonelybot's player is `lonecli hop`'s search (3000 sampled deals a move, 1000 states each) through "
         "the `lonelybot-play` driver (docs/peers.md); it sees the stock's order from the start, as lonelybot's "
         "game lets it, while the expert learns the stock only as it turns the cards. Its CPU is the "
         "driver's own (user plus system); the expert's is its thread's.")


def kings_corner(matches: int, workers: int, tables: tuple[int, ...] = (4, 2)) -> None:
    """Each bot against greedy bots, at four seats and at two (``tables``)."""
    for seats in tables:
        _say(f"\n## Kings Corner, {seats} players: each bot in entry 1 against greedy bots,"
              f" matches to 25 points\n", flush=True)
        _say("| bot | hands | hands won | 95% interval | mean penalty | matches | matches won | 95% interval |")
        _say("|---|---|---|---|---|---|---|---|", flush=True)
        commands = []
        for name in _KINGS_CORNER:
            players = [name] + ["greedy"] * (seats - 1)
            hands = matches * (3 if seats == 2 else 5)
            results = run_hands(players, hands, seed=0, workers=workers)
            report = summarize_hands(players, results, seed=0, target=25)
            while report.matches < matches:  # play on until the matches are there
                hands += max(100, (matches - report.matches) * hands // max(report.matches, 1))
                results = run_hands(players, hands, seed=0, workers=workers, done=results)
                report = summarize_hands(players, results, seed=0, target=25)
            for index, entry in enumerate(report.entries[:2]):
                label = entry.name if index == 0 else "greedy (entry 2)"
                low, high = entry.interval
                mlow, mhigh = wilson(entry.matches_won, report.matches)
                _say(f"| {label} | {report.games:,} | {entry.win_rate:.1%} | {_percent(low, high)} "
                      f"| {entry.mean_penalty:.2f} | {report.matches:,} | {entry.match_rate:.1%} "
                      f"| {_percent(mlow, mhigh)} |", flush=True)
            commands.append(f"    cardtable kings-corner match --players {','.join(players)}"
                            f" --games {hands} --workers {workers}")
        _say()
        _say("\n".join(commands), flush=True)


def main(argv: list[str] | None = None) -> int:
    """Print the tables and the commands that give them; the exit status (2: bad arguments)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="Klondike deals for greedy and priority")
    parser.add_argument("--expert-games", type=int, default=2000, help="Klondike deals for the expert (slower)")
    parser.add_argument("--expert", default="expert", help="the expert's strategy string, options included")
    parser.add_argument("--matches", type=int, default=2000, help="Kings Corner matches per line-up (at least)")
    parser.add_argument("--seats", type=int, nargs="+", default=[4, 2], help="Kings Corner table sizes")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-klondike", action="store_true")
    parser.add_argument("--skip-kings-corner", action="store_true")
    parser.add_argument("--lonelybot-player", metavar="PATH",
                        help="lonelybot's player driver (lonelybot-play, docs/peers.md): play it and the expert "
                             "on the same draw-3 deals and report the paired difference")
    parser.add_argument("--paired-deals", type=int, default=2000, help="deals for the paired comparison")
    parser.add_argument("--paired-seed", type=int, default=5_000_000, help="the paired comparison's first deal")
    parser.add_argument("--paired-budget", type=float, metavar="SECONDS",
                        help="start no new paired deal after this many wall seconds")
    parser.add_argument("--paired-timeout", type=float, default=900.0, metavar="SECONDS",
                        help="wall seconds before one game of lonelybot's player is stopped")
    parser.add_argument("--paired-jsonl", metavar="FILE", help="append each paired deal as a JSON line")
    parser.add_argument("--paired-side", choices=("both", "expert", "lonelybot"), default="both",
                        help="play one player only, its records to --paired-jsonl, to be joined with the "
                             "other's by --paired-replay (default: both, side by side)")
    parser.add_argument("--paired-replay", nargs="+", metavar="FILE",
                        help="report the paired comparison from recorded JSON lines (--paired-jsonl) "
                             "instead of playing; one seed's two records may come from different files")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    problem = None
    if args.lonelybot_player is not None and not (os.path.isfile(args.lonelybot_player)
                                                  and os.access(args.lonelybot_player, os.X_OK)):
        problem = f"--lonelybot-player {args.lonelybot_player}: not an executable file"
    elif args.paired_deals < 1:
        problem = f"--paired-deals {args.paired_deals}: at least 1"
    elif args.paired_seed < 0:
        problem = f"--paired-seed {args.paired_seed}: a seed is a whole number >= 0"
    elif args.paired_budget is not None and not args.paired_budget > 0:
        problem = f"--paired-budget {args.paired_budget:g}: more than 0 seconds"
    elif not args.paired_timeout > 0:
        problem = f"--paired-timeout {args.paired_timeout:g}: more than 0 seconds"
    elif args.paired_side != "both" and not args.paired_jsonl:
        problem = f"--paired-side {args.paired_side}: needs --paired-jsonl FILE for its records"
    elif args.paired_side == "lonelybot" and args.lonelybot_player is None:
        problem = "--paired-side lonelybot: needs --lonelybot-player PATH"
    if problem:
        print(f"players.py: error: {problem}", file=sys.stderr)
        return 2
    if not args.skip_klondike:
        klondike(args.games, args.expert_games, args.expert, args.workers)
    if not args.skip_kings_corner:
        kings_corner(args.matches, args.workers, tuple(args.seats))
    if args.paired_replay:
        try:
            played = replay_paired(args.paired_replay)
        except (OSError, ValueError) as error:
            print(f"players.py: error: --paired-replay: {error}", file=sys.stderr)
            return 2
        report_versus_lonelybot(played, args.expert)
    elif args.paired_side != "both":
        versus_lonelybot(args.lonelybot_player or "", args.paired_deals, args.paired_seed, args.expert,
                         budget=args.paired_budget, timeout=args.paired_timeout, jsonl=args.paired_jsonl,
                         side=args.paired_side)
        _say(f"{args.paired_side}'s games written to {args.paired_jsonl}; --paired-replay joins them "
             "with the other player's records of the same deals")
    elif args.lonelybot_player is not None:
        played = versus_lonelybot(args.lonelybot_player, args.paired_deals, args.paired_seed, args.expert,
                                  budget=args.paired_budget, timeout=args.paired_timeout, jsonl=args.paired_jsonl)
        report_versus_lonelybot(played, args.expert)
    if args.markdown:
        # The tables' headings sit one level down, under the page's own heading.
        body = re.sub(r"^## ", "### ", "\n".join(_LINES), flags=re.MULTILINE)
        title = ("## The expert against lonelybot's player" if args.skip_klondike and args.skip_kings_corner else
                 "## The Klondike players" if args.skip_kings_corner else
                 "## The Kings Corner bots" if args.skip_klondike else "## The players")
        _report.write_markdown(args.markdown, title, body, note=args.markdown_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
