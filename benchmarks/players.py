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
"""

from __future__ import annotations

import argparse
import re
import shlex
import time

import _report

from cardtable.klondike import Variant
from cardtable.sim.match import run_hands, summarize_hands
from cardtable.sim.runner import RunSpec, run_games
from cardtable.stats import mean_interval, wilson

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


def main() -> None:
    """Print the tables and the commands that give them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="Klondike deals for greedy and priority")
    parser.add_argument("--expert-games", type=int, default=2000, help="Klondike deals for the expert (slower)")
    parser.add_argument("--expert", default="expert", help="the expert's strategy string, options included")
    parser.add_argument("--matches", type=int, default=2000, help="Kings Corner matches per line-up (at least)")
    parser.add_argument("--seats", type=int, nargs="+", default=[4, 2], help="Kings Corner table sizes")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-klondike", action="store_true")
    parser.add_argument("--skip-kings-corner", action="store_true")
    _report.add_option(parser)
    args = parser.parse_args()
    if not args.skip_klondike:
        klondike(args.games, args.expert_games, args.expert, args.workers)
    if not args.skip_kings_corner:
        kings_corner(args.matches, args.workers, tuple(args.seats))
    if args.markdown:
        # The tables' headings sit one level down, under the page's own heading.
        body = re.sub(r"^## ", "### ", "\n".join(_LINES), flags=re.MULTILINE)
        title = ("## The Klondike players" if args.skip_kings_corner else
                 "## The Kings Corner bots" if args.skip_klondike else "## The players")
        _report.write_markdown(args.markdown, title, body, note=args.markdown_note)


if __name__ == "__main__":
    main()
