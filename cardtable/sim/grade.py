"""Deal grades: easy, medium, hard or expert, from the player's view and the solver's search.

A deal is graded only once the solver proves it winnable within
:data:`GRADE_STATE_BUDGET` states; a deal it cannot prove winnable gets no
grade (it may be lost from the start, and is not a deal worth playing). Then
the grade adds up *difficulty points* from three signals, all counted, none
timed, so a grade is the same on every machine:

- **the greedy player** (:class:`~cardtable.bots.klondike.simple.GreedyPlayer`),
  which plays from the player's view: 1 point when it loses the deal;
- **a quick expert**: the ``expert``
  (:class:`~cardtable.bots.klondike.expert.ExpertPlayer`) at a small budget
  (:data:`QUICK_EXPERT`: 8 guesses a decision, 2,000 states a guess, searched
  as before the solver's wide and fill rules so that a grade stays what it was), which
  also sees only what a player sees, plays the deal :data:`EXPERT_GAMES`
  times, each with its guesses seeded differently (0, 1, 2, ...): 1 point
  for each game it loses;
- **the solver's search**: 1 point when proving the deal winnable took more
  than :data:`HARD_SEARCH` states (the winning line is hard to find even
  with every card known).

So a deal has 0 to ``EXPERT_GAMES + 2`` points: 0 is *easy*, 1-2 *medium*,
3-4 *hard* and 5 or more *expert* (:func:`level_of`).

Every other patience game is graded by the same signals and points
(:func:`grade_game`, :func:`game_of_grade`): the patience search's proof
(:func:`~cardtable.solver.patience.solve_game`, every card known), the
patience greedy player and a quick patience expert
(:data:`QUICK_PATIENCE_EXPERT`), each from the player's view. Grading one draw-3
deal takes about a second of one core (the quick expert's games are most of
it).

:func:`deal_of_grade` walks seeds from a given one and returns the first deal
of the asked grade, so the same seed and grade give the same deal; it gives
up after :data:`MOST_GRADED` deals graded none of that grade (a level the
game's deals seldom have), or 2,000 seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

from cardtable.bots.klondike.expert import ExpertPlayer
from cardtable.bots.klondike.simple import GreedyPlayer
from cardtable.errors import SolverError, UsageError
from cardtable.game import play_out
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.patience.description import Description
from cardtable.patience.engine import PatienceGame
from cardtable.solver.search import solve

__all__ = ["EXPERT_GAMES", "GRADE_PROBES", "GRADE_STATE_BUDGET", "HARD_SEARCH", "LEVELS", "MOST_GRADED", "QUICK_EXPERT",
           "QUICK_PATIENCE_EXPERT", "Grade", "check_level", "deal_of_grade", "game_of_grade", "grade_deal",
           "grade_game", "grade_seed", "level_of", "why_ungradable"]

#: The grades, easiest first.
LEVELS = ("easy", "medium", "hard", "expert")
#: States the solver may spend proving a deal winnable before it is graded.
GRADE_STATE_BUDGET = 100_000
#: A proof that needs more states than this adds a point.
HARD_SEARCH = 5_000
#: Games the quick expert plays on each deal.
EXPERT_GAMES = 4
#: The quick expert's options: guesses a decision, states a guess, and its
#: guesses searched without the solver's wide and fill rules (``wide`` 0: a
#: grade, and so a graded deal, stays what it was before those rules).
QUICK_EXPERT: dict[str, int] = {"samples": 8, "max_states": 2000, "wide": 0}
#: The lowest points of each level after ``easy``.
_THRESHOLDS = {"medium": 1, "hard": 3, "expert": 5}
#: How many seeds :func:`deal_of_grade` tries before it gives up.
_MAX_SEEDS = 2000
#: How many deals proven winnable and graded :func:`deal_of_grade` looks through before it gives up: a
#: level a game's deals seldom have (an easy deal of Spider, whose players hardly ever win) is not
#: sought through thousands of seeds (a Klondike level has more than one deal in ten graded).
MOST_GRADED = 64


@dataclass(frozen=True)
class Grade:
    """A deal's grade and what it was made of.

    ``level`` is one of :data:`LEVELS`; ``solver_states`` the states the
    solver needed to prove the deal winnable; ``greedy_won`` whether the greedy
    player won it; ``expert_wins`` of ``expert_games`` the quick expert's
    wins; ``points`` the difficulty points (see the module documentation).
    """

    level: str
    points: int
    solver_states: int
    greedy_won: bool
    expert_wins: int
    expert_games: int

    def to_dict(self) -> dict[str, object]:
        """The grade as plain JSON values."""
        return asdict(self)


def check_level(level: str) -> str:
    """``level`` if it is one of :data:`LEVELS` (any case), else a :class:`UsageError`."""
    from cardtable._text import clip

    name = level.strip().lower()
    if name not in LEVELS:
        raise UsageError(f"unknown difficulty {clip(level)}; known: {', '.join(LEVELS)}")
    return name


def level_of(points: int) -> str:
    """The level of ``points`` difficulty points.

    >>> [level_of(p) for p in range(7)]
    ['easy', 'medium', 'medium', 'hard', 'hard', 'expert', 'expert']
    """
    level = "easy"
    for name, lowest in _THRESHOLDS.items():
        if points >= lowest:
            level = name
    return level


def _play(position: Position, variant: Variant, player: GreedyPlayer | ExpertPlayer, seed: int) -> bool:
    player.new_game(seed)
    return play_out(KlondikeGame(position, variant), [player]).is_won()


def grade_deal(position: Position, variant: Variant) -> Grade | None:
    """The grade of the deal ``position`` under ``variant``, or None when the
    solver cannot prove it winnable within :data:`GRADE_STATE_BUDGET` states.

    >>> from cardtable.klondike import Variant
    >>> grade = grade_deal(Position.from_seed(3), Variant.preset("draw1"))
    >>> grade is not None and grade.level in LEVELS and grade.expert_games == EXPERT_GAMES
    True
    """
    # wide=False: the solver's search as it was when the grades were measured, so a grade stays what it was
    proof = solve(position, variant, max_states=GRADE_STATE_BUDGET, wide=False)
    if proof.result != "won":
        return None
    greedy_won = _play(position, variant, GreedyPlayer(), 0)
    expert = ExpertPlayer(**QUICK_EXPERT)
    wins = sum(_play(position, variant, expert, game) for game in range(EXPERT_GAMES))
    return _graded(proof.states, greedy_won, wins)


def _graded(proof_states: int, greedy_won: bool, expert_wins: int) -> Grade:
    """The grade of a deal proven winnable in ``proof_states`` states, by its players' results."""
    points = (not greedy_won) + (EXPERT_GAMES - expert_wins) + (proof_states > HARD_SEARCH)
    return Grade(level_of(points), points, proof_states, greedy_won, expert_wins, EXPERT_GAMES)


#: The quick patience expert's options (:class:`cardtable.bots.patience.ExpertPlayer`): guesses a
#: decision and states a guess.
QUICK_PATIENCE_EXPERT: dict[str, int] = {"samples": 2, "max_states": 1000}
#: The most moves a player makes in a graded game before it counts as lost (none of the games loops
#: so long: a cap, not a rule).
_MOST_MOVES = 5000


def grade_game(game: PatienceGame) -> Grade | None:
    """The grade of the deal of ``game`` (any patience game, at its start),
    or None when the patience search cannot prove it winnable within
    :data:`GRADE_STATE_BUDGET` states; the same signals and points as
    Klondike's (see the module documentation).

    >>> from cardtable.patience import get
    >>> grade = grade_game(PatienceGame.from_seed(get("tripeaks"), 2))
    >>> grade is not None and grade.level in LEVELS and grade.expert_games == EXPERT_GAMES
    True
    """
    from cardtable.bots.patience import ExpertPlayer as PatienceExpert
    from cardtable.bots.patience import GreedyPlayer as PatienceGreedy
    from cardtable.solver.patience import solve_game

    # the patience core for every game, Klondike's rules included: a grade measured stays the grade
    proof = solve_game(game, max_states=GRADE_STATE_BUDGET, core="patience")
    if proof.result != "won":
        return None

    def won(player: PatienceGreedy | PatienceExpert) -> bool:
        return play_out(game.clone(), [player], max_actions=_MOST_MOVES).is_won()

    greedy_won = won(PatienceGreedy(0))
    wins = sum(won(PatienceExpert(seed, **QUICK_PATIENCE_EXPERT)) for seed in range(EXPERT_GAMES))
    return _graded(proof.states, greedy_won, wins)


#: The deals whose search runs out of budget before :func:`why_ungradable` gives up on a game, and the
#: most deals it tries (a deal the search proves lost is cheap: it is passed over, as the grader does).
GRADE_PROBES = 4
_MOST_PROBES = 32


def why_ungradable(description: Description) -> str | None:
    """Why the deals of a patience game cannot be graded, or None when they
    can: a deal is graded only once the search proves it winnable within
    :data:`GRADE_STATE_BUDGET` states, and a game whose deals the search
    seldom wins within it (Pyramid, none of whose first 32 deals can be
    won) would have its faces
    search for a graded deal for ever. The probe tries deals 0, 1, 2, ... and
    stops at the first proven winnable (so a game that can be graded costs
    a search or two); it gives up once :data:`GRADE_PROBES` of them ran out of
    budget, or none of the first 32 was won. The answer is the same on every machine.

    >>> from cardtable.patience import get
    >>> why_ungradable(get("tripeaks")) is None
    True
    """
    from cardtable.solver.patience import solve_game

    out_of_budget = 0
    for seed in range(_MOST_PROBES):
        result = solve_game(PatienceGame.from_seed(description, seed), max_states=GRADE_STATE_BUDGET,
                            core="patience").result
        if result == "won":
            return None
        out_of_budget += result != "unwinnable"
        if out_of_budget >= GRADE_PROBES:
            return (f"the search proves none of deals 0 to {seed} of {description.title} winnable within "
                    f"{GRADE_STATE_BUDGET:,} states, and a deal is graded only once proven winnable")
    return f"the search proves none of deals 0 to {_MOST_PROBES - 1} of {description.title} winnable"


def grade_seed(seed: int, variant: Variant) -> Grade | None:
    """The grade of the deal of ``seed`` (:func:`grade_deal`)."""
    return grade_deal(Position.from_seed(seed), variant)


def deal_of_grade(seed: int, level: str, variant: Variant,
                  on_try: Callable[[int, Grade | None], None] | None = None) -> tuple[int, Grade]:
    """The first deal seed at or after ``seed`` whose grade is ``level``, and
    its grade; the same every time for the same seed, level and rules.
    ``on_try(seed, grade)`` is told of each seed graded (for progress)."""
    return _first_of_grade(seed, level, lambda candidate: grade_seed(candidate, variant), variant.describe(), on_try)


def game_of_grade(seed: int, level: str, description: Description,
                  on_try: Callable[[int, Grade | None], None] | None = None) -> tuple[int, Grade]:
    """The first deal seed of a patience game at or after ``seed`` whose
    grade (:func:`grade_game`) is ``level``, and its grade; the same every
    time for the same seed, level and rules."""
    return _first_of_grade(seed, level, lambda candidate: grade_game(PatienceGame.from_seed(description, candidate)),
                           description.title, on_try)


def _first_of_grade(seed: int, level: str, grade_of: Callable[[int], Grade | None], what: str,
                    on_try: Callable[[int, Grade | None], None] | None) -> tuple[int, Grade]:
    level = check_level(level)
    if seed < 0:
        raise UsageError(f"seed must be >= 0, not {seed}")
    seen: dict[str, int] = {}
    for candidate in range(seed, seed + _MAX_SEEDS):
        grade = grade_of(candidate)
        if on_try is not None:
            on_try(candidate, grade)
        if grade is not None and grade.level == level:
            return candidate, grade
        if grade is not None:
            seen[grade.level] = seen.get(grade.level, 0) + 1
            if sum(seen.values()) == MOST_GRADED:
                grades = ", ".join(f"{seen[name]} {name}" for name in LEVELS if name in seen)
                raise SolverError(f"no {level} deal of {what} among the {MOST_GRADED} deals graded from seed "
                                  f"{seed} to {candidate} ({grades}): its deals are seldom {level}")
    raise SolverError(f"no {level} deal among the {_MAX_SEEDS} seeds from {seed} for {what}")
