"""Win rates of the patience players (``random``, ``greedy``) in every
shipped game, on the same deals.

Run: ``python benchmarks/patience_bots.py [--deals 1000] [--workers 2] [--games golf,spider] [--json]
[--markdown docs/results/patience-bots.md]``

Game ``i`` (0-based) of every player is dealt from seed ``i + 1``
(``cardtable simulate --game NAME --seed 1`` deals the same games) and played
by :func:`cardtable.game.play_out` for at most ``--cap`` moves (2,000, as
``simulate --game`` plays them) or until the player stops. A player's
generator is seeded with the game's index, as in ``simulate``. Each cell is
the number of games won, the win rate and its 95% Wilson interval; the last
column is the seconds both players took in that game (the work is spread
over ``--workers`` processes in chunks of deals, so the figures do not hang
on the machine's load, only the seconds do).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool

import _report

from cardtable.bots.patience import make_player
from cardtable.errors import CardtableError
from cardtable.game import play_out
from cardtable.patience import PatienceGame, get, names
from cardtable.stats import wilson

PLAYERS = ("random", "greedy")
_CHUNK = 50


def play_chunk(task: tuple[str, str, int, int, int]) -> tuple[str, str, int, int, float]:
    """Play deals ``first..first+count-1`` of ``game`` with ``player``: (game, player, won, played, seconds)."""
    game_name, player, first, count, cap = task
    description = get(game_name)
    won = 0
    start = time.perf_counter()
    for index in range(first, first + count):
        game = PatienceGame.from_seed(description, index + 1)
        play_out(game, [make_player(player, index)], max_actions=cap)
        won += game.is_won()
    return game_name, player, won, count, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals a game and player (1000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--cap", type=int, default=2000, help="moves a game at most (2000)")
    parser.add_argument("--games", help="comma-separated game names (default: every shipped game)")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    try:
        _report.at_least_one("--deals", args.deals)
        _report.at_least_one("--workers", args.workers)
        _report.at_least_one("--cap", args.cap)
        games = names() if args.games is None else tuple(args.games.split(","))
        for game in games:
            get(game)
    except CardtableError as error:
        print(f"patience_bots: error: {error}", file=sys.stderr)
        return 2
    tasks = [(game, player, first, min(_CHUNK, args.deals - first), args.cap)
             for game in games for player in PLAYERS for first in range(0, args.deals, _CHUNK)]
    won = {(game, player): 0 for game in games for player in PLAYERS}
    left = {(game, player): 0 for game in games for player in PLAYERS}
    for game, player, *_ in tasks:
        left[game, player] += 1
    seconds = dict.fromkeys(games, 0.0)
    with Pool(args.workers) as pool:
        for game, player, wins, _, spent in pool.imap_unordered(play_chunk, tasks):
            won[game, player] += wins
            seconds[game] += spent
            left[game, player] -= 1
            if not left[game, player]:  # a figure as soon as it is known (stderr), for long runs
                print(f"{game} {player}: {won[game, player]} of {args.deals} won", file=sys.stderr, flush=True)
    rows = []
    for game in games:
        row: dict[str, object] = {"game": game, "deals": args.deals, "seconds": round(seconds[game], 1)}
        for player in PLAYERS:
            low, high = wilson(won[game, player], args.deals)
            row[player] = {"won": won[game, player], "win_rate": won[game, player] / args.deals,
                           "low": low, "high": high}
        rows.append(row)
    if args.json:
        print(json.dumps({"deals": args.deals, "cap": args.cap, "games": rows}, indent=1))
        return 0

    def cell(entry: object) -> str:
        assert isinstance(entry, dict)
        return f"{entry['won']} ({100 * entry['win_rate']:.1f}%, {100 * entry['low']:.1f}-{100 * entry['high']:.1f})"

    text = _report.table(("game", *(f"{p} won (rate, 95% CI)" for p in PLAYERS), "seconds"),
                         [(row["game"], *(cell(row[p]) for p in PLAYERS), row["seconds"]) for row in rows])
    print(text)
    if args.markdown:
        _report.write_markdown(args.markdown, "## Patience players' win rates", text, note=args.markdown_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
