"""Klondike players decide from the player's view alone, and ``greedy`` keeps
landing spots for the waste under draw 3."""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.bots.klondike import STRATEGIES, GreedyPlayer, make_player
from cardtable.cards import Card, SplitMix64, new_deck
from cardtable.errors import RulesError, UsageError
from cardtable.game import play_out
from cardtable.klondike import KlondikeGame, Variant
from cardtable.klondike.moves import Move
from cardtable.klondike.position import Position
from cardtable.klondike.view import KlondikeView


def _scrambled(position: Position, seed: int) -> Position:
    """The same layout with the face-down cards and the stock dealt anew."""
    hidden = [card for pile, down in zip(position.tableau, position.face_down, strict=True)
              for card in pile[:down]] + list(position.stock)
    rng = SplitMix64(seed)
    for index in range(len(hidden) - 1, 0, -1):
        other = rng.below(index + 1)
        hidden[index], hidden[other] = hidden[other], hidden[index]
    piles = []
    for pile, down in zip(position.tableau, position.face_down, strict=True):
        piles.append(tuple(hidden[:down]) + pile[down:])
        del hidden[:down]
    return Position(tuple(piles), position.face_down, tuple(hidden), position.waste,
                    position.foundation, position.pass_number)


def _decisions_while_alike(name: str, first: KlondikeGame, second: KlondikeGame) -> list[Move | None]:
    """Both games played by fresh players for as long as the views are the same;
    each decision must agree."""
    players = [make_player(name), make_player(name)]
    for player in players:
        player.new_game(3)
    decisions: list[Move | None] = []
    while True:
        views = [first.view(), second.view()]
        if views[0] != views[1]:
            return decisions
        moves = [players[0].choose(views[0]), players[1].choose(views[1])]
        assert moves[0] == moves[1], f"{name} chose {moves[0]} and {moves[1]} on the same view"
        decisions.append(moves[0])
        if moves[0] is None:
            return decisions
        first.play(moves[0])
        second.play(moves[0])


@pytest.mark.parametrize("name", sorted(STRATEGIES))
@pytest.mark.parametrize("variant", ["seed-001", "draw1", "seed-002"])
def test_players_decide_from_the_view_alone(name: str, variant: str) -> None:
    rules = Variant.preset(variant)
    for seed in range(1, 4):
        position = Position.from_seed(seed)
        other = _scrambled(position, seed)
        assert other != position
        decisions = _decisions_while_alike(name, KlondikeGame(position, rules), KlondikeGame(other, rules))
        assert decisions, "no decision was taken on the same view"


def _layout(waste_top: str, tableau_top: str, hearts: int) -> Position:
    """A layout with one face-up card on pile 1, one waste card and the hearts
    foundation at ``hearts``; every other card in the stock."""
    waste, top = Card.parse(waste_top), Card.parse(tableau_top)
    home = {Card.parse(f"{rank}h") for rank in "A23456789TJQK"[:hearts]}
    stock = tuple(c for c in new_deck() if c not in home and c not in (waste, top))
    foundation = (0, 0, hearts, 0)
    return Position(((top,), (), (), (), (), (), ()), (0,) * 7, stock, (waste,), foundation)


@pytest.mark.parametrize("variant", ["seed-001", "thoughtful1"])
def test_greedy_keeps_a_landing_spot_for_the_waste(variant: str) -> None:
    rules = Variant.preset(variant)
    position = _layout("8s", "9h", hearts=8)  # 9h may go home, but is not yet safe
    assert make_player("greedy").choose(KlondikeGame(position, rules).view()) == Move.parse("W>1")
    position = _layout("3c", "9h", hearts=8)  # nothing lands on 9h: it goes home
    assert make_player("greedy").choose(KlondikeGame(position, rules).view()) == Move.parse("1>F")


def test_greedy_never_moves_a_card_straight_back() -> None:
    rules = Variant.preset("draw1")
    for seed in range(1, 40):
        game = KlondikeGame.from_seed(seed, rules)
        player = GreedyPlayer()
        player.new_game(seed)
        last: Move | None = None
        while (move := player.choose(game.view())) is not None:
            if last is not None and last.source < 7 and last.target < 7:
                back = (last.target, last.source, last.count)
                assert (move.source, move.target, move.count) != back, f"deal {seed}: {last} then {move}"
            game.play(move)
            last = move
        assert len(game.moves) < player.max_moves


def test_greedy_games_keep_every_card_and_end() -> None:
    rules = Variant.preset("seed-001")
    for seed in range(1, 6):
        game = KlondikeGame.from_seed(seed, rules)
        player = make_player("greedy")
        player.new_game(seed)
        play_out(game, [player], max_actions=3000)  # the engine refuses an illegal move
        assert len(game.moves) < 3000, "greedy never stopped"
        cards: Counter[Card] = Counter(game.stock + game.waste)
        for pile in game.tableau:
            cards.update(pile)
        cards.update(Card(rank, suit) for suit, top in enumerate(game.foundation)
                     for rank in range(1, top + 1))
        assert cards == Counter(new_deck())


# -- expert: hindsight optimisation over guessed deals ----------------------------


def test_a_guessed_deal_agrees_with_the_view() -> None:
    from cardtable.bots.klondike.hindsight import sample_position

    game = KlondikeGame.from_seed(4, Variant.preset("seed-001"))
    for _ in range(5):
        game.play(Move.parse("D"))
    view = game.view()
    guesses = [sample_position(view, SplitMix64(seed)) for seed in range(3)]
    for guess in guesses:
        assert _visible_of(KlondikeGame(guess, view.variant).view()) == _visible_of(view)
    assert len({guess.stock + tuple(c for pile in guess.tableau for c in pile) for guess in guesses}) == 3


def _visible_of(view: KlondikeView) -> tuple[object, ...]:
    return (view.face_up, view.face_down, view.stock_count, view.waste, view.foundation, view.pass_number,
            view.legal_moves)


def _expert_game(seed: int, variant: str, player_seed: int = 0) -> tuple[KlondikeGame, list[Move]]:
    from cardtable.bots.klondike.expert import ExpertPlayer

    game = KlondikeGame.from_seed(seed, Variant.preset(variant))
    player = ExpertPlayer(samples=4, max_states=2000)
    player.new_game(player_seed)
    play_out(game, [player], max_actions=3000)  # the engine refuses an illegal move
    assert len(game.moves) < 3000, "the expert never stopped"
    return game, list(game.moves)


@pytest.mark.parametrize("variant", ["seed-001", "seed-002"])
def test_the_expert_plays_legal_moves_keeps_every_card_and_is_reproducible(variant: str) -> None:
    for seed in (1, 2):
        game, moves = _expert_game(seed, variant)
        cards: Counter[Card] = Counter(game.stock + game.waste)
        for pile in game.tableau:
            cards.update(pile)
        cards.update(Card(rank, suit) for suit, top in enumerate(game.foundation) for rank in range(1, top + 1))
        assert cards == Counter(new_deck())
        assert _expert_game(seed, variant)[1] == moves


@pytest.mark.parametrize("variant", ["seed-001", "seed-002"])
def test_the_expert_decides_from_the_view_alone(variant: str) -> None:
    # Under seed-002 (one pass) it guesses from the first move; under seed-001 it
    # first looks through the stock.
    from cardtable.bots.klondike.expert import ExpertPlayer

    rules = Variant.preset(variant)
    for seed in (1, 3):
        position = Position.from_seed(seed)
        games = [KlondikeGame(position, rules), KlondikeGame(_scrambled(position, seed), rules)]
        players = [ExpertPlayer(samples=4, max_states=2000), ExpertPlayer(samples=4, max_states=2000)]
        for player in players:
            player.new_game(7)
        decided = 0
        while games[0].view() == games[1].view():
            moves = [player.choose(game.view()) for player, game in zip(players, games, strict=True)]
            assert moves[0] == moves[1]
            if moves[0] is None:
                break
            for game in games:
                game.play(moves[0])
            decided += 1
        assert decided > 0


def test_the_expert_is_a_strategy_and_checks_its_options() -> None:
    from cardtable.bots.klondike.expert import ExpertPlayer

    assert make_player("expert").name == "expert"
    with pytest.raises(UsageError):
        ExpertPlayer(samples=0)
    with pytest.raises(UsageError):
        ExpertPlayer(seconds=0)
    with pytest.raises(UsageError, match="seconds"):
        ExpertPlayer(seconds=float("nan"))


def test_a_strategy_string_sets_the_expert_options() -> None:
    from cardtable.bots.klondike import parse_strategy, strategy_name
    from cardtable.bots.klondike.expert import ExpertPlayer

    player = make_player("expert  samples=7 states=1234 seconds=0.25")
    assert isinstance(player, ExpertPlayer)
    assert (player.samples, player.max_states, player.seconds) == (7, 1234, 0.25)
    assert strategy_name("expert samples=7") == "expert"
    assert parse_strategy("greedy") == ("greedy", {})
    for text, words in [("expert samples=many", "samples needs a whole number, not 'many'"),
                        ("expert seconds=soon", "seconds needs a number"),
                        ("expert depth=3", "'depth=3' is not an option"),
                        ("expert samples", "'samples' is not an option"),
                        ("priority states=3", "takes no options"),
                        ("experts", "unknown strategy 'experts'")]:
        with pytest.raises(RulesError) as caught:
            make_player(text)
        assert words in str(caught.value), text
    with pytest.raises(UsageError, match="at least one sample, not 0"):
        make_player("expert samples=0")
    with pytest.raises(UsageError, match="wide option is 0 or 1, not 2"):
        make_player("expert wide=2")
    assert ExpertPlayer().wide and not make_player("expert wide=0").wide  # type: ignore[attr-defined]


def test_guesses_searched_under_the_wide_rules_find_lines_that_win() -> None:
    # wide=1 searches each guess under the solver's wide and fill rules; the
    # lines it finds win when replayed, on the deals the old search wins too.
    from cardtable.bots.klondike.hindsight import solve_sample

    variant = Variant.preset("seed-001")
    decided = 0
    for seed in range(40):
        game = KlondikeGame(Position.from_seed(seed), variant)
        narrow = solve_sample(game, 200_000)
        wide = solve_sample(game, 200_000, wide=True)
        if wide is not None:
            replay = game.clone()
            k = 0
            while (move := wide[k]) is not None:
                replay.play(move)
                k += 1
            assert replay.is_won(), seed
        decided += narrow is not None and wide is not None
    assert decided >= 10


def _open_layout(seed: int) -> Position:
    """Deal ``seed`` with only each pile's top card on the table, face up, and every
    other card in the stock: nothing is face down."""
    dealt = Position.from_seed(seed)
    stock = tuple(card for pile in dealt.tableau for card in pile[:-1]) + dealt.stock
    return Position(tuple((pile[-1],) for pile in dealt.tableau), (0,) * 7, stock, (), (0, 0, 0, 0), 1)


def test_the_expert_wins_what_the_solver_wins_when_nothing_is_hidden() -> None:
    # Once it has looked through the stock every guess is the deal itself, so
    # the plan it plays is a winning line, played to the end.
    from cardtable.bots.klondike.expert import ExpertPlayer
    from cardtable.solver import solve

    rules = Variant.preset("seed-001")
    greedy_won = 0
    for seed in range(1, 7):
        position = _open_layout(seed)
        assert solve(position, rules, max_states=2000).result == "won"
        game = KlondikeGame(position, rules)
        player = ExpertPlayer(samples=2, max_states=2000)
        player.new_game(seed)
        play_out(game, [player], max_actions=3000)
        assert game.is_won(), f"deal {seed}: the expert stopped after {len(game.moves)} moves"
        other = KlondikeGame(position, rules)
        greedy = make_player("greedy")
        greedy.new_game(seed)
        play_out(other, [greedy], max_actions=3000)
        greedy_won += other.is_won()
    assert greedy_won < 6  # the deals are no walkover


def test_the_expert_out_of_time_still_plays_a_legal_game_to_the_end() -> None:
    from cardtable.bots.klondike.expert import ExpertPlayer

    game = KlondikeGame.from_seed(5, Variant.preset("seed-002"))
    player = ExpertPlayer(samples=64, max_states=5000, seconds=1e-6)
    player.new_game(5)
    play_out(game, [player], max_actions=3000)  # the engine refuses an illegal move
    assert 0 < len(game.moves) < 3000


def _plan_layout(waste: str, piles: list[str]) -> Position:
    """Pile 1 is a face-down card under the first card of ``piles``; the other
    piles hold one face-up card each; one waste card; every other card in the stock."""
    tops = [Card.parse(text) for text in piles]
    down = Card.parse("Kc")
    on_table = {*tops, down, Card.parse(waste)}
    stock = tuple(card for card in new_deck() if card not in on_table)
    tableau = [(down, tops[0])] + [(top,) for top in tops[1:]] + [()] * (7 - len(tops))
    return Position(tuple(tableau), (1,) + (0,) * 6, stock, (Card.parse(waste),), (0, 0, 0, 0))


def test_a_plan_is_played_lean_keeping_only_what_its_last_move_needs() -> None:
    # A guess's solver puts the waste card away before turning the face-down card
    # up; the lean plan turns it up first and leaves the waste card for later.
    from cardtable.bots.klondike.expert import _lean, _Plan, _visible_in

    rules = Variant.preset("seed-001")
    game = KlondikeGame(_plan_layout("9c", ["5h", "6s", "Td"]), rules)
    moves = [Move.parse(text) for text in ("W>3", "D", "D", "1>2")]
    lean = _lean(_Plan((), moves), game, unknown_stock=0)
    assert lean is not None and lean.moves == [Move.parse("1>2")]
    assert lean.key == (_visible_in(game), Move.parse("1>2"))  # the table as it stands: nothing before
    assert lean.commits == 1 and _Plan((), moves).commits == 2
    # The waste card is the landing spot the last move needs: nothing is left out.
    game = KlondikeGame(_plan_layout("6c", ["5h", "7d"]), rules)
    assert _lean(_Plan((), [Move.parse("W>2"), Move.parse("1>2")]), game, unknown_stock=0) is None
    # A plan that ends by drawing an unseen card is played as it is.
    game = KlondikeGame(_plan_layout("9c", ["5h", "6s", "Td"]), rules)
    assert _lean(_Plan((), [Move.parse("W>3"), Move.parse("D")]), game, unknown_stock=10) is None


def test_a_lean_plan_turns_the_stock_no_further_than_its_waste_card_needs() -> None:
    # Turning the stock is forced (a draw while it has cards, else a recycle), so
    # a card that comes to the top of the waste after two recycles came there
    # in an earlier pass too: the plan plays it then, with no idle pass between.
    from cardtable.bots.klondike.expert import _least_turning

    rules = Variant.preset("seed-001")
    game = KlondikeGame(_plan_layout("9c", ["5h", "6s", "Td"]), rules)
    turning, tops = [], []  # three passes through the stock, and the waste top after each turn
    probe = game.clone()
    while sum(move.is_recycle for move in turning) < 2 or probe.stock:
        turning.append(Move.parse("D") if probe.stock else Move.parse("R"))
        probe.play(turning[-1])
        tops.append(probe.waste[-1] if probe.waste else None)
    third = max(index for index, move in enumerate(turning) if move.is_recycle) + 1
    last = next(index for index in range(third, len(tops)) if tops[index] is not None and tops[index].rank == 1)
    first = tops.index(tops[last])
    assert first < third  # the same ace was on top in an earlier pass
    home = Move.parse("W>F")
    assert _least_turning(game, [*turning[:last + 1], home]) == [*turning[:first + 1], home]
    # Turns with no waste card after them are kept as they are, and a plan that
    # does not play gives None.
    assert _least_turning(game, turning[:5]) == turning[:5]
    assert _least_turning(game, [Move.parse("W>F")]) is None


def test_the_expert_plays_on_while_its_guesses_are_won() -> None:
    # Deal 9,000,239 under seed 001's rules: a lean plan once kept the idle passes
    # of its guess's line (the waste cards that line put away left out), and the
    # expert stopped after two idle passes with no card moved, though most of
    # its guesses were won from there.
    from cardtable.sim.runner import RunSpec, play_game

    result = play_game(RunSpec("expert", Variant.preset("seed-001"), seed=9_000_000, keep_moves=True), 239)
    recycles = [index for index, move in enumerate(result.moves) if move == "R"]
    # After the look through the stock, the next pass plays a card from it.
    assert any(move not in ("D", "R") for move in result.moves[recycles[0] + 1:recycles[1]])
    assert result.foundation > 0


def test_the_expert_leaves_a_long_shot_to_the_greedy_move() -> None:
    # With chase=1 a plan is played only when every guess wins it; on one-pass
    # deals few guesses win, so the first choices are the greedy player's.
    from cardtable.bots.klondike.expert import ExpertPlayer

    rules = Variant.preset("seed-002")
    differs = 0
    for seed in range(1, 9):
        view = KlondikeGame.from_seed(seed, rules).view()
        greedy = GreedyPlayer()
        greedy.new_game(seed)
        choices = []
        for chase in (1.0, 0.0):
            player = ExpertPlayer(samples=8, max_states=2000, chase=chase)
            player.new_game(seed)
            choices.append(player.choose(view))
        assert choices[0] == greedy.choose(view), f"deal {seed}"
        differs += choices[1] != choices[0]
    assert differs > 0  # chasing the win plays otherwise


def test_the_expert_checks_its_chase() -> None:
    from cardtable.bots.klondike.expert import ExpertPlayer

    assert ExpertPlayer().chase is None
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(UsageError, match="chase must be a share"):
            ExpertPlayer(chase=bad)
    assert make_player("expert chase=0.5").chase == 0.5  # type: ignore[attr-defined]


def test_the_expert_takes_a_second_look_at_a_close_call() -> None:
    # A second look changes some of the games on draw-3 deals (it only ever
    # reorders close calls), and the games stay legal and reproducible.
    from cardtable.bots.klondike.expert import ExpertPlayer

    rules = Variant.preset("seed-001")
    differs = 0
    for seed in range(1, 7):
        moves = []
        for second in (0, 4, 4):
            game = KlondikeGame.from_seed(seed, rules)
            player = ExpertPlayer(samples=8, max_states=2000, second=second)
            player.new_game(seed)
            play_out(game, [player], max_actions=3000)
            assert len(game.moves) < 3000
            moves.append(list(game.moves))
        assert moves[1] == moves[2], f"deal {seed}: not reproducible"
        differs += moves[0] != moves[1]
    assert differs > 0


def test_the_expert_checks_its_second_look() -> None:
    from cardtable.bots.klondike.expert import ExpertPlayer

    with pytest.raises(UsageError, match="second look"):
        ExpertPlayer(second=-1)
    assert make_player("expert second=3").second == 3  # type: ignore[attr-defined]


def test_a_second_look_with_nothing_left_hidden_is_the_solver_verdict() -> None:
    # With no card face down there is nothing to guess: the game is won after
    # the next plan exactly when the solver wins it.
    from cardtable.bots.klondike.expert import ExpertPlayer
    from cardtable.solver import solve

    rules = Variant.preset("seed-001")
    player = ExpertPlayer(max_states=2000, second=3)
    for seed in range(1, 5):
        position = _open_layout(seed)
        won = solve(position, rules, max_states=2000).result == "won"
        assert player._wins_unseen(KlondikeGame(position, rules)) == won
    game = KlondikeGame(_open_layout(1), rules)
    game.play(next(move for move in game.legal_moves() if move.is_draw))
    assert player._wins_unseen(game) == (solve(game.position(), rules, max_states=2000).result == "won")
