"""The deal of the day of every patience game comes from one function
(:func:`cardtable.solver.patience_deals.daily_game`): ``cardtable deal --game
NAME --daily`` prints it, the browser table and the terminal deal it; a game
whose deals the search seldom wins within its budget (the Spiders) costs the
whole search budget, no more, and still has its deal of the day, said not to
be proven winnable."""

from __future__ import annotations

import datetime
import re

import pytest
from cli_helpers import run

from cardtable.errors import SolverError
from cardtable.patience import get
from cardtable.patience.position import write_position
from cardtable.solver import patience_deals
from cardtable.solver.daily import day_candidates
from cardtable.solver.patience import solve_game
from cardtable.solver.patience_deals import daily_game, winnable_game
from cardtable.solver.patience_study import study_key
from cardtable.web.patience import PatienceTable

DAY = datetime.date(2026, 11, 29)


def test_the_days_deal_is_the_same_from_the_command_line_the_library_and_the_browser_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    found = daily_game(DAY, get("golf"))
    assert found.proven and solve_game(found.game(get("golf")), max_states=200_000).result == "won"
    code, out, err = run(capsys, "deal", "--game", "golf", "--daily", "--date", DAY.isoformat())
    assert code == 0 and f"(seed {found.seed}, won in a search of {found.states:,} states)" in err
    assert out == write_position(found.game(get("golf"))) + "\n"
    table = PatienceTable.deal(get("golf"), daily=DAY)
    assert (table.deal_text, table.daily) == (str(found.seed), DAY.isoformat())
    assert daily_game(DAY, get("golf").with_options("wrap")).seed != found.seed  # each set of options its own


def test_a_game_the_search_seldom_wins_spends_its_budget_and_keeps_a_deal_of_the_day(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patience_deals, "PATIENCE_SEARCH_STATES", 120_000)
    scorpion = get("scorpion")  # most deals lost, and a proof costs the budget
    found = daily_game(DAY, scorpion)
    first = next(iter(day_candidates(DAY, "|".join(study_key(scorpion)))))
    assert (found.proven, found.seed, found.moves) == (False, first, ())
    assert 120_000 <= found.states < 120_000 + patience_deals.PATIENCE_PROOF_STATES and found.tries <= 3
    code, _, err = run(capsys, "deal", "--game", "scorpion", "--daily", "--date", DAY.isoformat())
    assert code == 0 and re.search(rf"\(seed {first}, not proven winnable: no candidate won within [0-9,]+ states "
                                   r"in all\)", err), err
    with pytest.raises(SolverError, match="120,000 in all"):
        winnable_game(1, scorpion)  # a winnable deal asked for is not given unproven
