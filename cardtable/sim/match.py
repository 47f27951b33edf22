"""Bot-versus-bot play: many hands, seats rotated, deals seeded, run on many cores.

``--games N`` counts *hands* (deals). Each hand is played at a
:class:`~cardtable.kings_corner.session.KingsCornerSession` of the bots, so it
is seated and seeded by the one rule every Kings Corner table keeps (the app's
and the line seat's too): entry ``i`` of the player list sits in seat
``(i + g) mod players`` in hand ``g``, so every entry moves first equally
often; hand ``g`` is dealt from :func:`~cardtable.cards.shuffled_deck` with
seed ``derive_seed(seed, g)`` and each bot gets ``derive_seed(seed, g, i + 1)``
(:func:`~cardtable.kings_corner.session.derive_seed`).
A hand's result depends only on ``(seed, g)`` and never on how the hands are
spread over worker processes.

Matches are then read off the hands in order: penalty points add up hand by
hand (a :class:`~cardtable.kings_corner.session.MatchScore`) until someone
reaches the target (25 by default); the lowest total wins the match (a tie
shares it) and the next hand starts a new match. Hands after the last
finished match are left out of the match figures.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import islice
from typing import Any

from cardtable.bots import Resolver
from cardtable.bots.kings_corner import RESOLVERS, Bot, make_bot
from cardtable.kings_corner.errors import TableError
from cardtable.kings_corner.game import MAX_PLAYERS, MIN_PLAYERS, KingsCornerGame
from cardtable.kings_corner.record import HandRecord
from cardtable.kings_corner.session import MATCH_TARGET, KingsCornerSession, MatchScore
from cardtable.runs.executor import Executor, LocalExecutor
from cardtable.stats import wilson

__all__ = [
    "EntryStats",
    "HandResult",
    "MatchReport",
    "check_players",
    "play_hand",
    "record_of",
    "run_hands",
    "summarize_hands",
    "wilson_interval",
]


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand: its index, the entry in each seat, the winning entry (None on a
    stalemate), each entry's penalty points and the number of turns."""

    index: int
    seating: tuple[int, ...]
    winner: int | None
    penalties: tuple[int, ...]
    turns: int

    def to_row(self) -> tuple[object, ...]:
        """The hand as a row of the results store's ``hands`` table (the
        seating and the penalties as JSON)."""
        return (self.index, json.dumps(list(self.seating)), self.winner, json.dumps(list(self.penalties)), self.turns)

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> HandResult:
        """The hand of a row of :meth:`to_row`.

        >>> hand = HandResult(3, (1, 0), 0, (0, 7), 22)
        >>> HandResult.from_row(hand.to_row()) == hand
        True
        """
        index, seating, winner, penalties, turns = row
        return cls(int(index), tuple(json.loads(seating)), None if winner is None else int(winner),
                   tuple(json.loads(penalties)), int(turns))


def _session(players: Sequence[str], index: int, seed: int) -> KingsCornerSession:
    """Hand ``index`` of a match between ``players``, played out."""
    session = KingsCornerSession([partial(make_bot, name) for name in players], seed, names=players, hand=index)
    session.play_bots()
    return session


def play_hand(
    players: Sequence[str], index: int, seed: int = 0
) -> tuple[HandResult, KingsCornerGame]:
    """Play hand ``index`` of a match between ``players`` (bot names, in entry order)."""
    session = _session(players, index, seed)
    outcome = session.game.outcome()
    assert outcome is not None
    winner = None if outcome.winner is None else session.seating[outcome.winner]
    result = HandResult(index, session.seating, winner, session.by_entry(outcome.penalties), outcome.turns)
    return result, session.game


def record_of(players: Sequence[str], index: int, seed: int = 0) -> HandRecord:
    """The record of hand ``index``, with the bots' names in seat order."""
    return _session(players, index, seed).record(("Hand", str(index)))


def _play_range(players: tuple[str, ...], seed: int, resolvers: tuple[Resolver[Bot], ...],
                hands: Sequence[int]) -> list[HandResult]:
    """Play ``hands``; ``resolvers`` make the bots the library does not define
    itself (a policy) in a worker that was not forked from this process."""
    RESOLVERS.adopt(resolvers)
    return [play_hand(players, index, seed)[0] for index in hands]


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """Validate a list of bot names; raises :class:`TableError` saying why."""
    # A policy's module.path:attribute keeps its case; bot names do not.
    names = tuple(name.strip() if ":" in name else name.strip().lower() for name in players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise TableError(
            f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}"
        )
    for name in names:
        make_bot(name)
    return names


def run_hands(
    players: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    executor: Executor | None = None,
    on_hands: Callable[[list[HandResult]], None] | None = None,
    done: Sequence[HandResult] = (),
) -> list[HandResult]:
    """Play hands ``0 .. games-1`` and return their results in order.

    The hands run in blocks on ``executor`` (default: a
    :class:`~cardtable.runs.executor.LocalExecutor` with ``workers``
    processes, :func:`os.cpu_count` unless told; 1 plays in this process).
    ``progress`` is called with the number of hands just done, ``on_hands``
    with the results of each block as it finishes (in order). A
    KeyboardInterrupt reaches the caller after ``on_hands`` has been given
    every block that finished, so the caller can keep them. ``done`` holds
    hands already played (a resumed match): only the others are played, and
    the result has them all.

    >>> [result.index for result in run_hands(["greedy", "random"], 3, seed=1, workers=1)]
    [0, 1, 2]
    """
    names = check_players(players)
    if games < 0:
        raise TableError(f"the number of games must be positive, not {games}")
    executor = executor or LocalExecutor(max(1, workers or os.cpu_count() or 1))
    workers = max(1, int(getattr(executor, "workers", workers or 1)))
    finished = {result.index for result in done if 0 <= result.index < games}
    # Small blocks on one worker keep the progress steady; on many, a few
    # blocks per worker keep them all busy to the end.
    left = games - len(finished)
    chunk = max(1, min(200, left // (workers * 8))) if workers > 1 else max(1, min(50, left // 100))
    blocks = _blocks(range(games), finished, chunk)
    results: list[HandResult] = [result for result in done if result.index < games]
    for played in executor.map(partial(_play_range, names, seed, RESOLVERS.portable()), blocks):
        results.extend(played)
        if on_hands:
            on_hands(played)
        if progress:
            progress(len(played))
    results.sort(key=lambda result: result.index)
    return results


def _blocks(hands: range, finished: set[int], chunk: int) -> Iterator[Sequence[int]]:
    """The hands not ``finished`` in blocks of ``chunk``, made as they are
    asked for (a match of a billion hands starts at once); a block of hands
    that follow on is a range (cheap to send)."""
    if not finished:
        yield from (hands[start:start + chunk] for start in range(0, len(hands), chunk))
        return
    pending = (index for index in hands if index not in finished)
    while block := list(islice(pending, chunk)):
        yield range(block[0], block[-1] + 1) if block[-1] - block[0] == len(block) - 1 else block


#: The Wilson score interval (shared with the rest of cardtable).
wilson_interval = wilson



@dataclass(frozen=True, slots=True)
class EntryStats:
    """One entry's figures: hands won, win rate and its 95% interval, mean penalty per
    hand, mean length of the hands it won, matches won (ties shared)."""

    name: str
    wins: int
    win_rate: float
    interval: tuple[float, float]
    mean_penalty: float
    mean_turns_to_win: float | None
    matches_won: float
    match_rate: float


@dataclass(frozen=True, slots=True)
class MatchReport:
    """Everything a run of hands gives: per-entry figures and totals."""

    players: tuple[str, ...]
    games: int
    seed: int
    target: int
    stalemates: int
    mean_turns: float
    matches: int
    entries: tuple[EntryStats, ...]

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "target": self.target,
            "stalemates": self.stalemates,
            "mean_turns": self.mean_turns,
            "matches": self.matches,
            "entries": [
                {
                    "entry": index + 1,
                    "bot": entry.name,
                    "wins": entry.wins,
                    "win_rate": entry.win_rate,
                    "win_rate_95": list(entry.interval),
                    "mean_penalty": entry.mean_penalty,
                    "mean_turns_to_win": entry.mean_turns_to_win,
                    "matches_won": entry.matches_won,
                    "match_win_rate": entry.match_rate,
                }
                for index, entry in enumerate(self.entries)
            ],
        }


def _matches(results: Sequence[HandResult], count: int, target: int) -> tuple[int, list[float]]:
    won = [0.0] * count
    score = MatchScore(count, target)
    matches = 0
    for result in results:
        score.add(result.penalties)
        if score.is_over:
            leaders = score.leaders
            for entry in leaders:
                won[entry] += 1 / len(leaders)
            matches += 1
            score = MatchScore(count, target)
    return matches, won


def summarize_hands(
    players: Sequence[str], results: Sequence[HandResult], seed: int = 0, target: int = MATCH_TARGET
) -> MatchReport:
    """Figures for a run of hands (in order), matches to ``target`` points included."""
    count = len(players)
    games = len(results)
    matches, match_wins = _matches(results, count, target)
    entries = []
    for entry, name in enumerate(players):
        won = [result for result in results if result.winner == entry]
        penalty = sum(result.penalties[entry] for result in results)
        entries.append(EntryStats(
            name=name,
            wins=len(won),
            win_rate=len(won) / games if games else 0.0,
            interval=wilson_interval(len(won), games),
            mean_penalty=penalty / games if games else 0.0,
            mean_turns_to_win=sum(r.turns for r in won) / len(won) if won else None,
            matches_won=match_wins[entry],
            match_rate=match_wins[entry] / matches if matches else 0.0,
        ))
    return MatchReport(
        players=tuple(players),
        games=games,
        seed=seed,
        target=target,
        stalemates=sum(1 for result in results if result.winner is None),
        mean_turns=sum(result.turns for result in results) / games if games else 0.0,
        matches=matches,
        entries=tuple(entries),
    )
