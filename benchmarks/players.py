"""How well the players play: Klondike win rates in three rule sets, Kings Corner
hands and matches at four and at two seats.

    python benchmarks/players.py [--games 2000] [--expert-games 200] [--hands 8000]
                                 [--workers 2] [--skip-klondike] [--skip-kings-corner]

Klondike (deals from seeds 1..N, the same deals for every player):

- draw 3, unlimited passes, foundation cards may come back (``seed-001``): the
  rule set of the published benchmarks (greedy rules 13%, Ensemble-UCT 37%,
  hindsight optimisation 47.6%);
- draw 1, unlimited passes (``draw1``);
- seed 002's one-pass Vegas game (``seed-002``): wins, foundation cards a game and
  net dollars a game.

Kings Corner: ``expert``, ``strategic`` and ``greedy`` each against three
``greedy`` bots, then one ``greedy`` bot; hand win rate, mean penalty and match
win rate (matches to 25 points), with 95% intervals. Every figure is followed by
the ``cardtable`` command that gives it.
"""

from __future__ import annotations

import argparse
import time

from cardtable.kings_corner.match import run_hands, summarize_hands
from cardtable.klondike import Variant
from cardtable.sim.runner import RunSpec, run_games
from cardtable.stats import mean_interval, wilson

_KLONDIKE = ("greedy", "priority", "expert")
_SETTINGS = ("seed-001", "draw1", "seed-002")
_KINGS_CORNER = ("expert", "strategic", "greedy")


def _percent(low: float, high: float) -> str:
    return f"{low:.1%}-{high:.1%}"


def klondike(games: int, expert_games: int, workers: int) -> None:
    """One table per rule set: each player's wins (and, under Vegas, money)."""
    for setting in _SETTINGS:
        variant = Variant.preset(setting)
        print(f"\n## Klondike, {setting}: {variant.describe()}")
        print(f"{'player':<10}{'games':>7}{'won':>8}  {'95% interval':<14}{'foundation':>11}"
              f"{'net $':>9}{'s/game':>9}")
        for name in _KLONDIKE:
            count = expert_games if name == "expert" else games
            started = time.perf_counter()
            results = run_games(RunSpec(name, variant, seed=1, keep_moves=False), count, workers=workers)
            seconds = time.perf_counter() - started
            won = sum(1 for game in results if game.won)
            low, high = wilson(won, len(results))
            foundation = mean_interval([float(game.foundation) for game in results])[0]
            net = mean_interval([float(game.net) for game in results])[0]
            money = f"{net:>9.2f}" if variant.scoring.kind == "vegas" else f"{'-':>9}"
            print(f"{name:<10}{len(results):>7}{won / len(results):>8.2%}  {_percent(low, high):<14}"
                  f"{foundation:>11.2f}{money}{seconds * workers / len(results):>9.4f}")
        for name in _KLONDIKE:
            count = expert_games if name == "expert" else games
            print(f"  cardtable simulate --strategy {name} --variant {setting} --games {count}"
                  f" --workers {workers} --record 0")


def kings_corner(hands: int, workers: int) -> None:
    """Each bot against greedy bots, at four seats and at two."""
    for seats in (4, 2):
        print(f"\n## Kings Corner, {seats} players: each bot in entry 1 against greedy bots,"
              f" {hands} hands, matches to 25 points")
        print(f"{'bot':<11}{'hands won':>10}  {'95% interval':<14}{'penalty':>8}"
              f"{'matches':>8}{'match rate':>11}  {'95% interval':<14}")
        commands = []
        for name in _KINGS_CORNER:
            players = [name] + ["greedy"] * (seats - 1)
            results = run_hands(players, hands, seed=0, workers=workers)
            report = summarize_hands(players, results, seed=0, target=25)
            for index, entry in enumerate(report.entries[:2]):
                label = entry.name if index == 0 else "  greedy"
                low, high = entry.interval
                mlow, mhigh = wilson(entry.matches_won, report.matches)
                print(f"{label:<11}{entry.win_rate:>10.1%}  {_percent(low, high):<14}"
                      f"{entry.mean_penalty:>8.2f}{report.matches:>8}{entry.match_rate:>11.1%}"
                      f"  {_percent(mlow, mhigh):<14}")
            commands.append(f"  cardtable kings-corner match --players {','.join(players)}"
                            f" --games {hands} --workers {workers}")
        print("\n".join(commands))


def main() -> None:
    """Print the tables and the commands that give them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="Klondike deals for greedy and priority")
    parser.add_argument("--expert-games", type=int, default=200, help="Klondike deals for expert (slower)")
    parser.add_argument("--hands", type=int, default=8000, help="Kings Corner hands per line-up")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-klondike", action="store_true")
    parser.add_argument("--skip-kings-corner", action="store_true")
    args = parser.parse_args()
    if not args.skip_klondike:
        klondike(args.games, args.expert_games, args.workers)
    if not args.skip_kings_corner:
        kings_corner(args.hands, args.workers)


if __name__ == "__main__":
    main()
