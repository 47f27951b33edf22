"""Win rates of the patience players (``random``, ``greedy``, ``expert``) in
every shipped game, on the same deals.

Run: ``python benchmarks/patience_bots.py [--deals 1000] [--players random,greedy,expert]
[--expert-deals N] [--samples 6] [--max-states 20000] [--workers 2] [--games golf,spider:1]
[--checkpoint FILE] [--table] [--json] [--markdown docs/results/patience-bots.md]``

Game ``i`` (0-based) of every player is dealt from seed ``i + 1``
(``cardtable simulate --game NAME --seed 1`` deals the same games) and played
by :func:`cardtable.game.play_out` for at most ``--cap`` moves (2,000, as
``simulate --game`` plays them) or until the player stops. A player's
generator is seeded with the game's index, as in ``simulate``. ``--games``
takes names with options after colons (``golf:wrap``). The expert
(:class:`cardtable.bots.patience.ExpertPlayer`) plays ``--expert-deals``
deals (``--deals`` unless told) with ``--samples`` guesses of
``--max-states`` states at each decision (its defaults, those of ``simulate
--game --strategy expert``). Each cell is the number of games won of the
deals played, the win rate and its 95% Wilson interval; the last column is
the CPU seconds the players took in that game (the work is spread over
``--workers`` processes in chunks of deals, so the figures do not hang on
the machine's load, only the seconds do).

``--checkpoint FILE`` appends each finished chunk to FILE (one JSON line:
the game, the player, the deals, the games won, the CPU seconds, the move
cap, the expert's budget and revision, and the commit the code was on) and
skips the chunks FILE holds already, so a long run that was stopped goes on
where it stopped, on any machine; a chunk is reused only when it was played
at the same cap, and the expert's at the same budget and
:attr:`~cardtable.bots.patience.ExpertPlayer.revision`. The expert's run is
kept in the repository (``benchmarks/checkpoints/patience_expert.jsonl``) so
that it goes on across machines and days. ``--table`` plays nothing and
prints the table of what FILE holds, each player's deals counted from the
first as far as they run without a gap (the deals actually played, for a run
stopped at a deadline).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from multiprocessing import Pool

import _report

from cardtable.bots.patience import PLAYERS, ExpertPlayer, make_player
from cardtable.errors import CardtableError
from cardtable.game import play_out
from cardtable.patience import PatienceGame, load, names
from cardtable.stats import wilson

#: Deals a chunk of work, by player: the expert's chunks are small, so a stopped run loses little.
_CHUNK = {"random": 50, "greedy": 50, "expert": 5}

# (game, player, first deal, deals, cap, samples, max_states, commit)
_Task = tuple[str, str, int, int, int, int, int, str]


def play_chunk(task: _Task) -> dict[str, object]:
    """Play deals ``first..first+count-1`` of ``game`` with ``player``: the chunk's row of the checkpoint."""
    game_name, player, first, count, cap, samples, max_states, commit = task
    description = load(game_name)
    won = 0
    start = time.process_time()
    for index in range(first, first + count):
        game = PatienceGame.from_seed(description, index + 1)
        bot = ExpertPlayer(index, samples=samples, max_states=max_states) if player == "expert" \
            else make_player(player, index)
        play_out(game, [bot], max_actions=cap)
        won += game.is_won()
    return {"game": game_name, "player": player, "first": first, "count": count, "won": won,
            "seconds": round(time.process_time() - start, 3), **_budget(player, cap, samples, max_states),
            "commit": commit}


def _budget(player: str, cap: int, samples: int, max_states: int) -> dict[str, int]:
    """What a chunk's figures depend on besides its deals (a checkpoint's row is reused only when they agree)."""
    if player != "expert":
        return {"cap": cap}
    return {"cap": cap, "samples": samples, "max_states": max_states, "revision": ExpertPlayer.revision}


def _read_checkpoint(path: str | None) -> list[dict[str, object]]:
    if path is None or not os.path.exists(path):
        return []
    return [row for _, row in _report.json_lines(path)]


def _played(rows: list[dict[str, object]], game: str, player: str, budget: dict[str, int],
            deals: int) -> tuple[int, int, float]:
    """(won, deals, seconds) of ``player`` in ``game``: the chunks from deal 0 on, up to ``deals``, without a gap."""
    chunks = {int(row["first"]): row for row in rows  # type: ignore[call-overload]
              if row["game"] == game and row["player"] == player and all(row.get(k) == v for k, v in budget.items())}
    won = played = 0
    seconds = 0.0
    while played < deals and played in chunks:
        row = chunks[played]
        won += int(row["won"])  # type: ignore[call-overload]
        seconds += float(row["seconds"])  # type: ignore[arg-type]
        played += int(row["count"])  # type: ignore[call-overload]
    return won, played, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals a game and player (1000)")
    parser.add_argument("--players", default="random,greedy", help="comma-separated players (random,greedy)")
    parser.add_argument("--expert-deals", type=int, help="deals a game of the expert (--deals)")
    parser.add_argument("--samples", type=int, default=6, help="the expert's guesses a decision (6)")
    parser.add_argument("--max-states", type=int, default=20_000, help="the expert's states a guess (20000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--cap", type=int, default=2000, help="moves a game at most (2000)")
    parser.add_argument("--games", help="comma-separated games, options after colons (default: every shipped game)")
    parser.add_argument("--checkpoint", metavar="FILE", help="keep finished chunks in FILE and skip those it holds")
    parser.add_argument("--table", action="store_true", help="play nothing: the table of what --checkpoint holds")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    _report.add_option(parser)
    args = parser.parse_args(argv)
    try:
        for option in ("--deals", "--samples", "--max-states", "--workers", "--cap"):
            _report.at_least_one(option, getattr(args, option[2:].replace("-", "_")))
        expert_deals = args.deals if args.expert_deals is None else args.expert_deals
        _report.at_least_one("--expert-deals", expert_deals)
        players = tuple(args.players.split(","))
        for player in players:
            if player not in PLAYERS:
                raise CardtableError(f"--players: unknown player {player!r} (random, greedy, expert)")
        games = names() if args.games is None else tuple(args.games.split(","))
        for game in games:
            load(game)
        if args.table and args.checkpoint is None:
            raise CardtableError("--table reads --checkpoint FILE: give it")
        rows = _read_checkpoint(args.checkpoint)
    except CardtableError as error:
        print(f"patience_bots: error: {error}", file=sys.stderr)
        return 2
    deals = {player: expert_deals if player == "expert" else args.deals for player in players}
    budget = {player: _budget(player, args.cap, args.samples, args.max_states) for player in players}
    if not args.table:
        kept = {(r["game"], r["player"], r["first"], r["count"]) for r in rows
                if r["player"] in budget and all(r.get(k) == v for k, v in budget[str(r["player"])].items())}
        # deal by deal across the games, so that a run stopped early has played every game alike
        commit = _report.commit()  # once, before the checkpoint grows
        tasks = [(game, player, first, min(_CHUNK[player], deals[player] - first), args.cap, args.samples,
                  args.max_states, commit)
                 for first in range(0, max(deals.values()), min(_CHUNK[p] for p in players))
                 for game in games for player in players
                 if first < deals[player] and first % _CHUNK[player] == 0]
        tasks = [task for task in tasks if task[:4] not in kept]
        with Pool(args.workers) as pool, \
                open(args.checkpoint, "a", encoding="utf-8") if args.checkpoint else open(os.devnull, "w") as out:
            for row in pool.imap_unordered(play_chunk, tasks):
                rows.append(row)
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(f"{row['game']} {row['player']}: deals {int(row['first']) + 1}.."  # type: ignore[call-overload]
                      f"{int(row['first']) + int(row['count'])} won {row['won']}", file=sys.stderr, flush=True)  # type: ignore[call-overload]
    table_rows = []
    for game in games:
        row: dict[str, object] = {"game": game}
        seconds = 0.0
        for player in players:
            won, played, spent = _played(rows, game, player, budget[player], deals[player])
            seconds += spent
            low, high = wilson(won, played) if played else (0.0, 1.0)
            row[player] = {"won": won, "deals": played, "win_rate": won / played if played else None,
                           "low": low, "high": high}
        row["seconds"] = round(seconds, 1)
        table_rows.append(row)
    if args.json:
        print(json.dumps({"deals": deals, "cap": args.cap, "samples": args.samples, "max_states": args.max_states,
                          "games": table_rows}, indent=1))
        return 0

    def cell(entry: object) -> str:
        assert isinstance(entry, dict)
        if not entry["deals"]:
            return "-"
        return (f"{entry['won']}/{entry['deals']} ({100 * entry['win_rate']:.1f}%, "
                f"{100 * entry['low']:.1f}-{100 * entry['high']:.1f})")

    text = _report.table(("game", *(f"{p} won/deals (rate, 95% CI)" for p in players), "CPU seconds"),
                         [(row["game"], *(cell(row[p]) for p in players), row["seconds"]) for row in table_rows])
    print(text)
    if args.markdown:
        _report.write_markdown(args.markdown, "## Patience players' win rates", text, note=args.markdown_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
