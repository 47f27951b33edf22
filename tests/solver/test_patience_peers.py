"""The patience solver's verdicts against the field's solvers: fc-solve on
Microsoft FreeCell deals (every one of 1 to 50 won, 11982 proved impossible,
as fc-solve's exhaustive scan says) and on PySolFC's deals of Baker's Game,
Eight Off and Seahaven Towers under its own rules for each, won and
unwinnable alike, black-hole-solver on PySolFC's Black
Hole and Golf deals under each of Golf's rule sets (where docs/peers.md's
build is present), and Solvitaire on a few deals of each game it has a preset
of, written as its deal JSON (where benchmarks/build_solvitaire.sh's build is
present; ``SOLVITAIRE_BIN`` names its folder; its fixed build reads the filled
cells of Eight Off's and Seahaven Towers' deals and plays Spider's rules, and
from positions of Spiderette and Spider with one stock deal left it reaches
as many positions as the engine's moves do). The timings are in
benchmarks/patience_solver.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from _benchmarks import load_benchmark

from cardtable.patience import PatienceGame, get
from cardtable.patience.formats import to_pysol
from cardtable.patience.registry import load
from cardtable.patience.solvitaire import loads as load_deal
from cardtable.patience.solvitaire import to_solvitaire
from cardtable.solver.patience import solve_game

BLACK_HOLE_SOLVE = "/root/peers/black-hole-build/black-hole-solve"
bench = load_benchmark("patience_solver")
SOLVITAIRE = Path(bench.SOLVITAIRE_BIN) / "solvitaire-fixed"
#: cardtable's deals of each game that both solvers decide in well under a second.
SOLVITAIRE_DEALS = {"black-hole": [1, 3], "golf": [2, 3], "bakers-game": [2, 3], "freecell": [1, 2],
                    "eight-off": [1, 2], "seahaven-towers": [2, 3], "streets-and-alleys": [2, 11],
                    "beleaguered-castle": [1, 2], "king-albert": [1, 3], "klondike": [2, 3], "accordion": [2, 3]}


def test_microsoft_deals_1_to_50_are_won_and_11982_is_not() -> None:
    description = get("freecell")
    for number in range(1, 51):
        game = PatienceGame.from_seed(description, f"ms:{number}")
        result = solve_game(game, max_states=1_000_000)
        assert result.result == "won", number
        assert result.replays(game)
    assert solve_game(PatienceGame.from_seed(description, "ms:11982"), max_states=2_000_000).result == "unwinnable"


@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="fc-solve is not installed (Debian freecell-solver-bin)")
@pytest.mark.parametrize("number", [1, 2, 617, 11982])
def test_fc_solve_agrees(number: int, tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    game = PatienceGame.from_seed(get("freecell"), f"ms:{number}")
    board.write_text(to_pysol(game) + "\n")
    # fc-solve's exhaustive scan of every single-card move: its "could not solve" is a proof
    done = subprocess.run(["fc-solve", "-m", "-p", "-t", "-sel", "--method", "soft-dfs", "-to", "01ABCDE",
                           str(board)], capture_output=True, text=True, timeout=300)
    theirs = "unwinnable" if "I could not solve" in done.stdout else "won"
    assert "This game is solveable" in done.stdout or theirs == "unwinnable"
    assert solve_game(game, max_states=2_000_000).result == theirs


@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="fc-solve is not installed (Debian freecell-solver-bin)")
@pytest.mark.parametrize(("name", "number"), [
    ("bakers-game", 2), ("bakers-game", 10), ("eight-off", 2), ("eight-off", 465), ("eight-off", 644),
    ("seahaven-towers", 2), ("seahaven-towers", 21), ("seahaven-towers", 70),
])
def test_fc_solve_agrees_on_its_other_games(name: str, number: int, tmp_path: Path) -> None:
    """fc-solve's exhaustive scan under its own rules for the game (``--game``)
    and cardtable's search give one verdict on a PySolFC deal, won or
    unwinnable (each game's deals here hold both)."""
    board = tmp_path / "board.txt"
    game = PatienceGame.from_seed(get(name), f"pysol:{number}")
    board.write_text(to_pysol(game) + "\n")
    peer_game = dict(bench.FC_SOLVE_GAMES)[name]
    done = subprocess.run(bench.fc_solve_command("fc-solve", peer_game, str(board), 2.0), capture_output=True,
                          text=True, timeout=300)
    theirs = bench.fc_solve_verdict(done.stdout)
    assert theirs != "unknown", done.stdout[-300:]
    result = solve_game(game, max_states=2_000_000)
    assert result.result == theirs
    assert theirs == "unwinnable" or result.replays(game)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(BLACK_HOLE_SOLVE), reason="black-hole-solve is not built (docs/peers.md)")
@pytest.mark.parametrize(("variant", "options"), [
    ("black-hole", ["--game", "black_hole"]), ("golf", ["--game", "golf"]),
    ("golf:queens-on-kings", ["--game", "golf", "--queens-on-kings"]),
    ("golf:queens-on-kings:wrap", ["--game", "golf", "--wrap-ranks"]),
])
def test_black_hole_solver_agrees(variant: str, options: list[str], tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    for number in range(1, 21):
        game = PatienceGame.from_seed(load(variant), f"pysol:{number}")
        board.write_text(to_pysol(game) + "\n")
        done = subprocess.run([BLACK_HOLE_SOLVE, *options, str(board)], capture_output=True, text=True, timeout=300)
        theirs = {"Solved!": "won", "Unsolved!": "unwinnable"}[done.stdout.split("\n", 1)[0].strip()]
        assert solve_game(game, max_states=10_000_000).result == theirs, (variant, number)


@pytest.mark.slow
@pytest.mark.skipif(not SOLVITAIRE.exists(), reason="Solvitaire is not built (benchmarks/build_solvitaire.sh)")
@pytest.mark.parametrize(("label", "game_name", "preset"),
                         [game for game in bench.SOLVITAIRE_GAMES if game[0] in SOLVITAIRE_DEALS])
def test_solvitaire_agrees(label: str, game_name: str, preset: str, tmp_path: Path) -> None:
    description = load(game_name)
    deal = tmp_path / "deal.json"
    for number in SOLVITAIRE_DEALS[label]:
        game = PatienceGame.from_seed(description, number)
        deal.write_text(json.dumps(to_solvitaire(game, preset)))
        done = subprocess.run([str(SOLVITAIRE), "--type", preset, "--classify", str(deal)], capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        theirs = {"solved": "won", "unsolvable": "unwinnable"}[done.stdout.strip().rsplit(",", 1)[-1].strip()]
        assert solve_game(game, max_states=5_000_000).result == theirs, (label, number)


def _solvitaire_start(printed: str) -> tuple[list[str], list[list[str]]]:
    """The cells (``""`` an empty one) and tableau piles (bottom card first) of
    the first position Solvitaire prints without ``--classify``: the deal it
    read, under ``Deal:`` or first under ``Solution:``."""
    block = printed.split("===", 1)[0].splitlines()
    cells_at, tableau_at = block.index("--- Cells ---------------"), block.index("--- Tableau Piles -------")
    cells = ["" if card == "[]" else card for card in block[cells_at + 1].split("\t")]
    rows = [line.split("\t") for line in block[tableau_at + 1:]]
    width = len(rows[0])
    piles = [[row[i] for row in rows if i < len(row) and row[i]] for i in range(width)]
    return cells, piles


@pytest.mark.slow
@pytest.mark.skipif(not SOLVITAIRE.exists(), reason="Solvitaire is not built (benchmarks/build_solvitaire.sh)")
@pytest.mark.parametrize("name", ["eight-off", "seahaven-towers"])
def test_solvitaire_reads_the_filled_cells(name: str, tmp_path: Path) -> None:
    # the fixed build reads "cells" (as shipped it aborts on an empty cell's "")
    deal = tmp_path / "deal.json"
    for number in (1, 2):
        ours = to_solvitaire(PatienceGame.from_seed(load(name), number))
        assert sum(map(bool, ours["cells"])) == {"eight-off": 4, "seahaven-towers": 2}[name]
        deal.write_text(json.dumps(ours))
        done = subprocess.run([str(SOLVITAIRE), "--type", name, "--timeout", "1", str(deal)], capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert _solvitaire_start(done.stdout) == (ours["cells"], ours["tableau piles"]), (name, number)


@pytest.mark.slow
@pytest.mark.skipif(not SOLVITAIRE.exists(), reason="Solvitaire is not built (benchmarks/build_solvitaire.sh)")
@pytest.mark.parametrize("name", ["eight-off", "seahaven-towers"])
def test_solvitaires_own_deal_comes_back_through_cardtable(name: str, tmp_path: Path) -> None:
    # its --deal-only JSON read by cardtable and written again is its deal, up to the order of
    # the piles and of the cells (it prints them in its own order, the start as dealt)
    deal = tmp_path / "deal.json"
    for seed in (3, 4):
        own = subprocess.run([str(SOLVITAIRE), "--type", name, "--deal-only", "--random", str(seed)],
                             capture_output=True, text=True, timeout=300, check=True).stdout
        deal.write_text(json.dumps(to_solvitaire(load_deal(load(name), own))))
        starts = [subprocess.run([str(SOLVITAIRE), "--type", name, "--timeout", "1", *args], capture_output=True,
                                 text=True, timeout=300, check=True).stdout for args in (["--random", str(seed)],
                                                                                        [str(deal)])]
        cells, piles = zip(*map(_solvitaire_start, starts), strict=True)
        assert sorted(cells[0]) == sorted(cells[1]) and sorted(piles[0]) == sorted(piles[1]), (name, seed)


def _solvitaire_game(label: str) -> tuple[str, str]:
    """The cardtable game and the Solvitaire preset the benchmark pairs under
    ``label`` (:data:`SOLVITAIRE_GAMES` of benchmarks/patience_solver.py)."""
    return next((name, preset) for game, name, preset in bench.SOLVITAIRE_GAMES if game == label)


def _solvitaire_search(preset: str, data: dict[str, object], tmp_path: Path) -> tuple[str, int]:
    """Solvitaire's verdict (``solved``, ``unsolvable``) on a deal JSON, and
    how many unique states its search visited."""
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(data))
    done = subprocess.run([str(SOLVITAIRE), "--type", preset, str(deal)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    verdict = done.stdout.split("Solution Type: ", 1)[1].split()[0]
    return verdict, int(done.stdout.split("Unique States Searched: ", 1)[1].split()[0])


def _reachable(game: PatienceGame, deals: int) -> int:
    """How many positions (the start's included) the engine's moves reach
    from ``game`` with at most ``deals`` more deals from the stock."""
    seen = {game.key()}
    frontier = [(game, 0)]
    while frontier:
        after = []
        for position, dealt in frontier:
            for move in position.legal_moves():
                more = dealt + move.is_deal
                if more > deals:
                    continue
                child = position.clone()
                child.play(move)
                if child.key() not in seen:
                    seen.add(child.key())
                    after.append((child, more))
        frontier = after
    return len(seen)


@pytest.mark.slow
@pytest.mark.skipif(not SOLVITAIRE.exists(), reason="Solvitaire is not built (benchmarks/build_solvitaire.sh)")
@pytest.mark.parametrize(("label", "number", "dealt"),
                         [("spiderette", 5, 1), ("spiderette", 8, 1), ("spiderette", 11, 0), ("spider", 9, 3)])
def test_solvitaire_reaches_the_positions_cardtable_does_in_spider_games(label: str, number: int, dealt: int,
                                                                         tmp_path: Path) -> None:
    # A differential test of the two move generators: from a position with one deal left in the
    # stock (cardtable's deal, the stock's first `dealt` deals made, the stock cut to its next
    # deal in Solvitaire's JSON), neither wins, so Solvitaire's search visits every position its
    # moves reach, and its count of unique states is the engine's count of reachable positions.
    # The fixed build plays Spider's rules (build_solvitaire.sh); the build with the parser's fix
    # alone reaches 289, 7,771, 3,678 and 779 of these (runs go only onto their own suit there).
    # Equal counts also say that no complete run forms from these positions: Solvitaire may leave
    # one on the tableau, where cardtable sends it home at once.
    game_name, preset = _solvitaire_game(label)
    description = load(game_name)
    game = PatienceGame.from_seed(description, number)
    for _ in range(dealt):
        game.play(next(move for move in game.legal_moves() if move.is_deal))
    data = to_solvitaire(game, preset)
    data["stock"] = data["stock"][-description.tableau.count:]
    verdict, states = _solvitaire_search(preset, data, tmp_path)
    assert verdict == "unsolvable"
    assert _reachable(game, 1) == states, (label, number, dealt)


@pytest.mark.slow
@pytest.mark.skipif(not SOLVITAIRE.exists(), reason="Solvitaire is not built (benchmarks/build_solvitaire.sh)")
@pytest.mark.parametrize("number", [80, 16])
def test_solvitaire_proves_spiderette_deals_in_cardtables_states(number: int, tmp_path: Path) -> None:
    # Two whole deals that neither wins: Solvitaire's search visits every position it reaches,
    # and cardtable's proof keys as many, in each of its searches (the moves its pruning leaves
    # out reach positions that the moves it keeps reach too).
    game_name, preset = _solvitaire_game("spiderette")
    game = PatienceGame.from_seed(load(game_name), number)
    verdict, states = _solvitaire_search(preset, to_solvitaire(game, preset), tmp_path)
    assert verdict == "unsolvable"
    for search in ("hybrid", "depth-first", "best-first"):
        proof = solve_game(game, max_states=2_000_000, search=search)
        assert (proof.result, proof.states) == ("unwinnable", states), (number, search)
