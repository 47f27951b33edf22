"""What the Klondike app keeps besides the table: the game's clock, the
statistics of finished games, the Vegas balance carried from game to game
and the autosave.

Files that cannot be read or written never stop a game: each method that
touches one returns the trouble to tell the player, "" when all went well
(a sentence starting with a space, to follow the message; the autosave's
stands alone).
"""

from __future__ import annotations

import datetime
import time
from pathlib import Path
from typing import TYPE_CHECKING

from cardtable._files import describe_error
from cardtable._text import plural
from cardtable.app import autosave
from cardtable.app.status import clock_text
from cardtable.errors import CardtableError
from cardtable.klondike import KlondikeGame, KlondikeRecord, counts_as_loss

if TYPE_CHECKING:
    from cardtable.sim.played import PlayedGame

__all__ = ["GameClock", "Keeper", "leave_saved", "saved_notice"]


class GameClock:
    """The time a game takes: it stands until the first move
    (:meth:`start`), runs while the game is played and stops when it is won
    (:meth:`stop`; :meth:`resume` after an undo). A restored game starts with
    the seconds it had taken.

    >>> clock = GameClock(61.5)
    >>> clock.seconds()  # standing until the next move
    61.5
    """

    def __init__(self, seconds: float = 0.0) -> None:
        self._earlier = seconds  # the seconds the game took before this session (a restored game's)
        self._started: float | None = None  # when the clock started in this session (None: standing)
        self._finished_after: float | None = None

    @property
    def stopped(self) -> bool:
        """True once the game is won (until :meth:`resume`)."""
        return self._finished_after is not None

    def start(self) -> None:
        """A move is played: the clock runs from now on, if it stood."""
        if self._started is None:
            self._started = time.monotonic()

    def seconds(self) -> float:
        """The time the game has taken: from its first move until it was won,
        else until now (a restored game's earlier time included)."""
        if self._finished_after is not None:
            return self._finished_after
        if self._started is None:
            return self._earlier
        return self._earlier + time.monotonic() - self._started

    def stop(self) -> None:
        """The game is won: the time stays."""
        self._finished_after = self.seconds()

    def resume(self) -> None:
        """The game is not won (any more): the clock runs on."""
        self._finished_after = None


class Keeper:
    """The books of one app's games: ``stats_path`` is the results store
    that keeps the statistics of finished games (None: none kept);
    ``balance_path`` the file that carries the Vegas balance from game to
    game (None: each game alone); ``autosave_path`` the file that keeps the
    game after every move (None: no autosave).

    >>> keeper = Keeper(stats_path=None, balance_path=None, autosave_path=None)
    >>> game = KlondikeGame.from_seed(7)
    >>> keeper.record(game, won=False), keeper.carry_balance(game), keeper.balance(game)
    ('', '', (None, ''))
    """

    def __init__(self, *, stats_path: Path | None, balance_path: Path | None, autosave_path: Path | None) -> None:
        self.stats_path = stats_path
        self.balance_path = balance_path
        self.autosave_path = autosave_path
        self._balances: dict[str, int] | None = None  # read when first shown
        self._carried = False  # this game's result is in the carried balance
        self._recorded = False  # this game is in the statistics
        self._clock = GameClock()
        self._unrecorded: list[PlayedGame] = []  # finished games the statistics could not take yet

    # ----- the clock ---------------------------------------------------------------------------------

    def new_game(self, seconds: float = 0.0) -> None:
        """A new game starts, having taken ``seconds`` already (a restored
        game's time): its clock stands until :meth:`start_clock`, and nothing
        of it is kept yet."""
        self._clock = GameClock(seconds)
        self._recorded = False
        self._carried = False

    def start_clock(self) -> None:
        """A move is played: the clock runs from now on, if it stood."""
        self._clock.start()

    def seconds(self) -> float:
        """The time the game has taken: from its first move until it was won,
        else until now (a restored game's earlier time included).

        >>> keeper = Keeper(stats_path=None, balance_path=None, autosave_path=None)
        >>> keeper.new_game(seconds=61.5)
        >>> keeper.seconds()  # the clock stands until the next move
        61.5
        """
        return self._clock.seconds()

    def finish(self, game: KlondikeGame, daily: str | None = None) -> str:
        """The game is won: stop the clock, count the win (as the daily deal of
        ``daily``, when it is one) and carry its Vegas result, once (winning
        again after an undo changes nothing)."""
        if self._clock.stopped:
            return ""
        self._clock.stop()
        return self.record(game, won=True, daily=daily) + self.carry_balance(game)

    def resume(self) -> None:
        """The game is not won (any more): the clock runs on."""
        self._clock.resume()

    # ----- the statistics ----------------------------------------------------------------------------

    def record(self, game: KlondikeGame, *, won: bool, daily: str | None = None) -> str:
        """Count ``game`` in the statistics of its variant, once: a win when
        it is won, a loss when it is left for a new game and that counts
        (:func:`~cardtable.klondike.counts_as_loss`); ``daily`` is the date of the daily deal it
        is (None: not one)."""
        if self._recorded or self.stats_path is None or not (game.moves if won else counts_as_loss(game)):
            return ""
        self._recorded = True
        from cardtable.sim.played import PlayedGame

        self._unrecorded.append(PlayedGame.of_game(game, won=won, seconds=self.seconds(), daily=daily))
        return self.record_pending()

    def record_pending(self) -> str:
        """Keep the finished games the statistics could not take before (a
        full disk): they stay in memory, in order, until a write succeeds, and
        each later move or game tries again. Returns the trouble, else ""."""
        if not self._unrecorded or self.stats_path is None:
            return ""
        from cardtable.runs.store import ResultsStore
        from cardtable.sim.played import record_played

        try:
            with ResultsStore(self.stats_path) as store:
                while self._unrecorded:
                    record_played(store, self._unrecorded[0])
                    self._unrecorded.pop(0)
        except (OSError, CardtableError) as error:
            waiting = plural(len(self._unrecorded), "game")
            return (f" Could not keep the statistics ({describe_error(error)}); {waiting} kept in memory, "
                    "tried again at each move.")
        return ""

    def stats_text(self, current: str) -> str:
        """The statistics page: the figures of variant ``current`` first,
        then every other variant played (from the results store; nothing is written)."""
        from cardtable.runs.store import ResultsStore
        from cardtable.sim.played import daily_stats, play_stats

        if self.stats_path is None:
            return "No statistics are kept in this session (--no-stats).\nAny key closes this."
        if not self.stats_path.exists():
            return "No games finished yet: a won game, or one left for a new game, counts.\nAny key closes this."
        try:
            with ResultsStore(self.stats_path, create=False) as store:
                every = play_stats(store)
                dailies = daily_stats(store, datetime.date.today())
        except (OSError, CardtableError) as error:
            return f"The statistics cannot be read: {error}\nAny key closes this."
        every.sort(key=lambda s: (s.variant != current, s.variant))
        lines = [f"{'Your games':<12} {'played':>6} {'won':>5} {'rate':>6} {'streak':>6} {'best':>5} "
                 f"{'fastest':>8} {'fewest':>6}", ""]
        for stats in every:
            best_time = "-" if stats.best_seconds is None else clock_text(stats.best_seconds)
            fewest = "-" if stats.fewest_moves is None else str(stats.fewest_moves)
            lines.append(f"{stats.variant[:12]:<12} {stats.played:>6} {stats.won:>5} {stats.win_rate:>6.0%} "
                         f"{stats.current_streak:>6} {stats.best_streak:>5} {best_time:>8} {fewest:>6}")
        if not every:
            lines.append("No games finished yet.")
        elif every[0].variant != current:
            lines.insert(2, f"{current[:60]}: no games finished yet")
        if dailies:
            dailies.sort(key=lambda s: (s.variant != current, s.variant))
            lines += ["", f"{'Daily deals':<12} {'days':>6} {'won':>5} {'streak':>6} {'best':>5}"]
            lines += [f"{d.variant[:12]:<12} {d.days:>6} {d.days_won:>5} {d.current_streak:>6} {d.best_streak:>5}"
                      for d in dailies]
            lines.append("Daily streak: days won in a row; it waits for today's deal until midnight.")
        lines += ["", "streak: wins in a row now; best: the longest; fastest and fewest: over wins.",
                  "'cardtable stats' gives each variant's whole name. Any key closes this."]
        return "\n".join(lines)

    # ----- the Vegas balance across games ------------------------------------------------------------

    def balance(self, game: KlondikeGame) -> tuple[int | None, str]:
        """The balance the status bar shows for ``game`` when the Vegas
        balance is carried across games: the earlier games' balance and this
        game's score (None: not carried, or not Vegas scoring); and the
        trouble reading the earlier balance, the first time (a file that
        cannot be read counts as no balance)."""
        if self.balance_path is None or game.variant.scoring.kind != "vegas":
            return None, ""
        trouble = ""
        if self._balances is None:
            try:
                self._balances = autosave.read_balances(self.balance_path)
            except (OSError, CardtableError) as error:
                self._balances = {}
                trouble = f" Could not read the balance: {error}"
        return self._balances.get(game.variant.label, 0) + (0 if self._carried else game.score), trouble

    def carry_balance(self, game: KlondikeGame) -> str:
        """Add ``game``'s Vegas result to the carried balance, once, when it
        counts: it was won, or left for a new game when that counts
        (:func:`~cardtable.klondike.counts_as_loss`)."""
        counts = game.moves if game.is_won() else counts_as_loss(game)
        if self.balance_path is None or self._carried or not counts or game.variant.scoring.kind != "vegas":
            return ""
        self._carried = True
        label = game.variant.label
        try:
            balances = autosave.read_balances(self.balance_path)
            balances[label] = balances.get(label, 0) + game.score
            autosave.write_balances(self.balance_path, balances)
            self._balances = balances
        except (OSError, CardtableError) as error:
            return f" Could not keep the balance: {error}"
        return ""

    # ----- the autosave ------------------------------------------------------------------------------

    def autosave(self, game: KlondikeGame, headers: dict[str, str]) -> str:
        """Keep ``game`` (with ``headers``, its time and whether the Vegas
        balance is carried) in the autosave; returns why that failed (else "")."""
        pending = self.record_pending().strip()
        if self.autosave_path is None:
            return pending
        kept = {**headers, autosave.TIME_HEADER: f"{self.seconds():.1f}"}
        if self.balance_path is not None:
            kept[autosave.CUMULATIVE_HEADER] = "yes"
        try:
            autosave.save(self.autosave_path, game, kept)
        except (OSError, CardtableError) as error:
            return (f"Could not autosave ({describe_error(error)}); the game is kept here and saved again at the "
                    "next move.")
        return pending

    def clear_autosave(self) -> None:
        """A finished game leaves no autosave."""
        if self.autosave_path is not None:
            autosave.clear(self.autosave_path)


def leave_saved(record: KlondikeRecord, *, stats_path: Path | None) -> str:
    """The saved game ``record`` (the autosave's) is left for another game:
    count it as the app's ``n`` counts a game left (a loss once a move was
    played: :func:`~cardtable.klondike.counts_as_loss`), carrying its Vegas
    result when it was played with the balance carried; what to tell the
    player about it (a sentence starting with a space).

    >>> game = KlondikeGame.from_seed(7)
    >>> game.play(game.legal_moves()[0])
    >>> leave_saved(KlondikeRecord.from_game(game), stats_path=None)
    ' The saved game of 1 move is left for this one.'
    """
    game = record.replay()
    carried = autosave.CUMULATIVE_HEADER in record.headers
    keeper = Keeper(stats_path=stats_path, balance_path=autosave.balance_path() if carried else None,
                    autosave_path=None)
    keeper.new_game(autosave.saved_seconds(record))
    left = f" The saved game of {plural(len(game.moves), 'move')} is left for this one"
    if not counts_as_loss(game):
        return f"{left}."
    trouble = keeper.record(game, won=False) + keeper.carry_balance(game)
    return f"{left}{': it counts as a loss' if stats_path is not None else ''}.{trouble}"


def saved_notice(record: KlondikeRecord, *, stats_path: Path | None) -> str:
    """What a new game says first while ``record`` (the autosave's game) waits:
    a move in the new game leaves it (see :func:`leave_saved`), quitting first keeps it."""
    moves = plural(len(record.moves), "move")
    counted = ", and it counts as a loss, as n does" if stats_path is not None and record.moves else ""
    return f"Your saved game ({moves}) waits: a move here leaves it{counted}; q keeps it."
