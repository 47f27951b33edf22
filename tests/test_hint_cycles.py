"""The hint never leads a player round in circles: following the expert's own
advice never meets the same position twice with the same knowledge (what the
player sees, and the stock's order as far as seen), whatever the budget; when
every move would go back, the hint says that no move makes progress. Nor does it
move the table (tableau and foundations) back to a layout met before while
another move, a draw included, leads somewhere new."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from cardtable.bots.klondike.expert import ExpertPlayer
from cardtable.bots.klondike.hint import ExpertHint, expert_hint, seen_stock
from cardtable.cards import Card, Suit, new_deck
from cardtable.cli import main
from cardtable.klondike import KlondikeGame, KlondikeRecord, Move, Position, Variant

# The cycle rule does not depend on the budget, so the long walks use a small one.
TINY = {"samples": 1, "max_states": 30}

# Deal 83574, draw 1: after these moves the hint shuttled 2♠ between 3♥ and 3♦ for ever.
SHUTTLE_83574 = "2>3 D 1>F 7>F 7>2 5>3 5>2 5>2 5>3 4>1 5>4 W>4"
# Deal 271828, draw 3: the hint's own advice from the deal up to here, where it then moved
# K♦ Q♣ from pile 1 to pile 6 and back for ever (1>6:2, 6>1:2).
RUNS_271828 = ("3>F 1>4 D 2>7 D D 4>1:2 3>4 5>3 D D D D D 5>1 5>1 5>4 W>1 3>6:2 R D D D D W>1 W>3 7>3:2 "
               "7>5 6>1:3 D D D D")


def knowledge(game: KlondikeGame) -> tuple[object, ...]:
    """What the player knows, built here from the view and the seen stock alone: the
    face-up cards, the face-down counts, the stock's count, the waste, the foundations,
    the pass number where passes are counted, and the stock order seen."""
    view = game.view()
    passes = view.pass_number if view.variant.passes is not None else 0
    return (view.face_up, view.face_down, view.stock_count, view.waste, view.foundation, passes, seen_stock(game))


def follow(game: KlondikeGame, moves: int, **budget: int) -> ExpertHint | None:
    """Play the hint's own advice in ``game`` for up to ``moves`` moves (the game's
    earlier moves count as met); fails on a position met twice with the same
    knowledge. The last hint, when it had no move."""
    replay = KlondikeGame(game.start, game.variant)
    met = {knowledge(replay): 0}
    for index, move in enumerate(game.moves, 1):
        replay.play(move)
        met.setdefault(knowledge(replay), index)
    for _ in range(moves):
        if game.is_won():
            return None
        found = expert_hint(game, **budget)
        if found.move is None:
            return found
        game.play(found.move)
        seen = knowledge(game)
        assert seen not in met, (f"move {game.move_count} ({found.move}) goes back to the position after move "
                                 f"{met[seen]}: {' '.join(map(str, game.moves))}")
        met[seen] = game.move_count
    return None


def table(game: KlondikeGame) -> tuple[object, ...]:
    """The table, built here from the view alone: the face-up cards, the face-down
    counts and the foundations (no stock, waste or knowledge of the stock)."""
    view = game.view()
    return view.face_up, view.face_down, view.foundation


def restoring(game: KlondikeGame, move: Move, tables: set[tuple[object, ...]]) -> bool:
    """Whether ``move`` changes the table (not a draw or a turn of the stock) back to one of ``tables``."""
    if move.is_draw or move.is_recycle:
        return False
    after = game.clone()
    after.play(move)
    return table(after) in tables


def follow_tables(game: KlondikeGame, moves: int, **budget: int) -> list[str]:
    """Play the hint's own advice in ``game`` for up to ``moves`` moves (the game's
    earlier moves count as met); fails on a move that restores a table met before
    while another move that does not leads to a position not met (a draw included).
    The hints given, and the last hint's fallback when it had no move."""
    replay = KlondikeGame(game.start, game.variant)
    met, tables = {knowledge(replay)}, {table(replay)}
    for move in game.moves:
        replay.play(move)
        met.add(knowledge(replay))
        tables.add(table(replay))
    given: list[str] = []
    for _ in range(moves):
        if game.is_won():
            break
        found = expert_hint(game, **budget)
        if found.move is None:
            given.append(str(found.advice.fallback))
            break
        if restoring(game, found.move, tables):
            progress = []
            for move in game.legal_moves():
                after = game.clone()
                after.play(move)
                if not restoring(game, move, tables) and knowledge(after) not in met:
                    progress.append(str(move))
            assert not progress, (f"move {game.move_count + 1} ({found.move}) restores a table met before "
                                  f"while {' '.join(progress)} would make progress: {' '.join(map(str, game.moves))}")
        given.append(str(found.move))
        game.play(found.move)
        met.add(knowledge(game))
        tables.add(table(game))
    return given


def played(seed: int, variant: str, moves: str) -> KlondikeGame:
    game = KlondikeGame.from_seed(seed, Variant.preset(variant))
    for text in moves.split():
        game.play(Move.parse(text))
    return game


def test_the_hint_no_longer_shuttles_the_two_of_spades_on_deal_83574() -> None:
    game = played(83574, "draw1", SHUTTLE_83574)
    follow(game, 4)  # the full hint budget, as a player gets it
    assert game.move_count == 16


def test_the_hint_no_longer_moves_the_two_of_spades_back_between_draws_on_deal_83574() -> None:
    # 3>4 (2♠ onto 3♥), D, then 4>3 put 2♠ back onto 3♦: a new card in the waste each time, so
    # no position came twice, but the table did; the draws needed no tableau move between them.
    game = played(83574, "draw1", SHUTTLE_83574)
    given = follow_tables(game, 60)  # the full hint budget, as a player gets it
    assert given[:3] == ["3>4", "D", "D"]


def test_the_hint_restores_no_table_while_a_draw_makes_progress_on_20_deals() -> None:
    for variant in ("draw1", "draw3"):
        for seed in range(1, 11):
            follow_tables(KlondikeGame.from_seed(seed, Variant.preset(variant)), 300, **TINY)


def test_the_hint_no_longer_moves_a_run_back_and_forth_on_deal_271828() -> None:
    game = played(271828, "draw3", RUNS_271828)
    follow(game, 3)
    assert game.move_count == 36


@pytest.mark.parametrize("variant", ["draw1", "draw3"])
def test_following_the_hint_never_meets_a_position_twice(variant: str) -> None:
    ends = set()
    for seed in range(1, 21):
        game = KlondikeGame.from_seed(seed, Variant.preset(variant))
        last = follow(game, 500, **TINY)
        ends.add("won" if game.is_won() else "500 moves" if last is None else last.advice.fallback or "no move")
    assert {"won", "no move makes progress"} <= ends  # some walks won, some the rule stopped


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["draw1", "draw3"])
def test_following_the_hint_never_meets_a_position_twice_on_200_deals(variant: str) -> None:
    for seed in range(1, 201):
        follow(KlondikeGame.from_seed(seed, Variant.preset(variant)), 500, **TINY)


@pytest.mark.slow
def test_the_full_hint_followed_from_deal_271828_never_meets_a_position_twice() -> None:
    # The game the issue met: the hint's own advice from the deal, with the hint's whole budget.
    follow(KlondikeGame.from_seed(271828, Variant.preset("draw3")), 500)


def stuck_position() -> Position:
    """Draw 1 with nothing to play but the stock's two cards: red tops that take
    no card of the table, no ace in sight, no empty pile."""
    tops = [Card.parse(text) for text in ("9h", "9d", "Jh", "Jd", "Kh", "Kd", "5h")]
    stock = [Card.parse("6c"), Card.parse("6s")]
    rest = [card for card in new_deck() if card not in tops and card not in stock]
    piles = tuple((*(rest[6 * pile:6 * pile + 6] if pile < 6 else rest[36:]), top) for pile, top in enumerate(tops))
    return Position(piles, (6, 6, 6, 6, 6, 6, 7), tuple(stock), (), (0, 0, 0, 0), 1)


def test_when_every_move_goes_back_the_hint_says_no_move_makes_progress() -> None:
    game = KlondikeGame(stuck_position(), Variant.preset("draw1"))
    hints = []
    while (found := expert_hint(game, **TINY)).move is not None:
        hints.append(str(found.move))
        game.play(found.move)
        assert len(hints) < 10
    # The first pass shows the stock's order (progress); the second has nothing new to show.
    assert hints == ["D", "D", "R", "D"]
    assert found.advice.fallback == "no move makes progress" and found.advice.chance is None
    assert found.describe() == ("no move makes progress: every legal move leads back to a position this game "
                                "has been in, with nothing new to see")
    assert found.to_dict()["move"] is None
    assert game.legal_moves() == [Move.parse("D")]


def test_the_advice_leaves_out_only_moves_that_go_back() -> None:
    game = played(83574, "draw1", SHUTTLE_83574 + " 3>4")
    back = Move.parse("4>3")
    assert back in game.legal_moves()
    view, known = game.view(), seen_stock(game)
    expert = ExpertPlayer(samples=8, max_states=2000)
    advice = expert.advise(view, known, game.past_knowledge())
    assert advice.move in game.legal_moves() and advice.move != back


def test_the_hint_command_says_so_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = KlondikeGame(stuck_position(), Variant.preset("draw1"))
    for text in ["D", "D", "R"]:
        game.play(Move.parse(text))
    path = tmp_path / "stuck.txt"
    path.write_text(str(KlondikeRecord.from_game(game)))
    assert main(["hint", str(path), "--samples", "1", "--max-states", "30"]) == 0
    assert capsys.readouterr().out.startswith("D: draw 1 card from the stock")  # the second look is progress
    game.play(Move.parse("D"))
    path.write_text(str(KlondikeRecord.from_game(game)))
    assert main(["hint", str(path), "--samples", "1", "--max-states", "30"]) == 0
    assert capsys.readouterr().out == ("No move makes progress: every legal move leads back to a position this "
                                       "game has been in, with nothing new to see.\n")
    assert main(["hint", str(path), "--samples", "1", "--max-states", "30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["move"], data["fallback"], data["chance"]) == (None, "no move makes progress", None)


def stuck_game() -> KlondikeGame:
    """The stuck position after a pass to look at the stock and a draw of the second."""
    game = KlondikeGame(stuck_position(), Variant.preset("draw1"))
    for text in ["D", "D", "R", "D"]:
        game.play(Move.parse(text))
    return game


NO_PROGRESS = ("No move makes progress: every legal move leads back to a position this game has been in, "
               "with nothing new to see.")


def test_the_terminal_apps_advisor_and_the_card_table_say_so_too() -> None:
    import asyncio

    from cardtable.app import advisor as advisor_module
    from cardtable.web.klondike import KlondikeTable

    game = stuck_game()
    shown: list[tuple[Move | None, str]] = []

    class App:  # the advisor's one call back into its app's thread
        def call_from_thread(self, call: Callable[..., object], *args: object) -> object:
            return call(*args)

    advisor_module._load_solver()
    advisor = advisor_module.Advisor(App(), lambda: game, unicode=True, tell=lambda text: None,  # type: ignore[arg-type]
                                     show_hint=lambda move, text: shown.append((move, text)),
                                     show_lost=lambda: None)
    advisor._expert_hint(game.clone())
    assert shown == [(None, NO_PROGRESS)]
    table = KlondikeTable(game, number=None, winnable=False)
    assert asyncio.run(table.hint()) == {"type": "hint", "move": None, "text": NO_PROGRESS}


def mistake_game() -> KlondikeGame:
    """Draw 1 where a foundation card may come back: the player has just put 6♠ home
    off 7♥, and the stock holds the two red fives that could have gone on it."""
    tops = [Card.parse(text) for text in ("9h", "9d", "Jh", "Jd", "Kh", "Kd")]
    run = [Card.parse("7h"), Card.parse("6s")]
    stock = [Card.parse("5d"), Card.parse("5h")]
    home = [Card.parse(f"{rank}s") for rank in "A2345"]
    rest = [card for card in new_deck() if card not in tops + run + stock + home]
    piles = (*((*rest[6 * pile:6 * pile + 6], top) for pile, top in enumerate(tops)), (rest[36], *run))
    foundation = [0, 0, 0, 0]
    foundation[Suit.parse("s")] = 5
    start = Position(piles, (6, 6, 6, 6, 6, 6, 1), tuple(stock), (), tuple(foundation), 1)  # type: ignore[arg-type]
    game = KlondikeGame(start, Variant.preset("draw1").replace(foundation_return=True))
    game.play(Move.parse("7>F"))  # the mistake
    return game


def test_a_players_mistake_is_taken_back_once_nothing_else_makes_progress() -> None:
    game = mistake_game()
    before = KlondikeGame(game.start, game.variant)
    given = follow_tables(game, 10, **TINY)
    # Drawing through the stock and looking at its order is progress, and comes first; then
    # only taking 6♠ back (to the table the game started with) leads somewhere new.
    assert given[:5] == ["D", "D", "R", "D", "Fs>7"]
    back = KlondikeGame(game.start, game.variant)
    for text in ["7>F", *given[:5]]:
        back.play(Move.parse(text))
    assert table(back) == table(before)
    assert given[5] == "W>7"  # and the red five goes on it
