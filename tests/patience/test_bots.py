"""The patience players: they play every description from the view alone."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable.bots.patience as patience_bots
from cardtable.bots.patience import ExpertPlayer, GreedyPlayer, hole_continuation, make_player
from cardtable.bots.patience_hindsight import guess_deal
from cardtable.cards import Card, SplitMix64, new_deck
from cardtable.game import play_out
from cardtable.patience import Description, Kind, PatienceGame, get, load, names
from cardtable.patience.engine import PileView
from cardtable.patience.moves import DEAL, Move
from cardtable.patience.position import read_position


@pytest.mark.parametrize("name", names())
def test_greedy_plays_every_game_to_an_end_with_legal_moves(name: str) -> None:
    game = PatienceGame.from_seed(get(name), 3)
    play_out(game, [make_player("greedy", 3)], max_actions=300)
    assert len(game.moves) > 0
    # it stopped: no legal move left, or the player chose to stop (which play_out allows)
    replay = PatienceGame.from_seed(get(name), 3)
    for move in game.moves:
        replay.play(move)  # every move was legal
    assert replay.key() == game.key()


#: Every game of the registry, and each with each of its options.
_EVERY_RULE_SET = (*names(), *(f"{name}:{option.name}" for name in names() for option in get(name).options))


@pytest.mark.slow
@pytest.mark.parametrize("name", _EVERY_RULE_SET)
def test_every_player_plays_every_game_and_option_with_legal_moves(name: str) -> None:
    description = load(name)
    for player in (make_player("random", 2), GreedyPlayer(2), ExpertPlayer(2, samples=2, max_states=300)):
        game = play_out(PatienceGame.from_seed(description, 2), [player], max_actions=120)
        assert game.moves, f"{player.name} made no move"
        replay = PatienceGame.from_seed(description, 2)
        for move in game.moves:
            replay.play(move)  # raises on a move the rules refuse
        assert replay.key() == game.key()


def _hidden_swapped(game: PatienceGame) -> PatienceGame | None:
    """The same position with two face-down cards of different piles exchanged, or None."""
    piles = [list(p) for p in game.piles]
    down = [(i, j) for i, count in enumerate(game.down) for j in range(count)]
    for a, (i, j) in enumerate(down):
        for k, m in down[a + 1:]:
            if k != i and piles[i][j] != piles[k][m]:
                piles[i][j], piles[k][m] = piles[k][m], piles[i][j]
                return PatienceGame(game.description, piles, game.down)
    return None


@pytest.mark.parametrize("name", ["klondike", "spider-2-suits", "yukon", "scorpion", "tripeaks"])
def test_greedy_chooses_alike_whatever_the_face_down_cards(name: str) -> None:
    game = PatienceGame.from_seed(get(name), 11)
    other = _hidden_swapped(game)
    assert other is not None and other.key() != game.key()
    assert other.view() == game.view()
    first, second = GreedyPlayer(5), GreedyPlayer(5)
    assert first.choose(game.view()) == second.choose(other.view())


def test_greedy_never_returns_to_a_position_it_has_seen() -> None:
    for seed in range(1, 6):
        game = PatienceGame.from_seed(get("freecell"), seed)
        player = GreedyPlayer(seed)
        seen = {game.key()}
        while (move := player.choose(game.view())) is not None:
            game.play(move)
            if move.target is not None and move.target.kind is Kind.FOUNDATION:
                seen = set()  # progress: the old positions can never come back
            assert game.key() not in seen, f"seed {seed}: {game.moves[-8:]} went back to a known position"
            seen.add(game.key())


def test_greedy_deals_in_spider_where_it_used_to_stop() -> None:
    deals = 0
    for seed in range(1, 4):
        game = play_out(PatienceGame.from_seed(get("spider-1-suit"), seed), [make_player("greedy", seed)],
                        max_actions=3000)
        deals += sum(move.is_deal for move in game.moves)
    assert deals >= 6  # 5 deals of 10 cards wait in each stock


def test_greedy_wins_more_than_random_where_skill_shows() -> None:
    def wins(game_name: str, player: str) -> int:
        won = 0
        for seed in range(1, 31):
            game = play_out(PatienceGame.from_seed(get(game_name), seed), [make_player(player, seed)],
                            max_actions=2000)
            won += game.is_won()
        return won

    assert wins("tripeaks", "greedy") > wins("tripeaks", "random") + 3


def test_greedy_takes_the_hole_move_with_the_longer_run_after_it() -> None:
    golf = get("golf")
    c = Card.parse
    # hole 7h; pile 1 offers 8s (then nothing follows), pile 2 offers 6d with 5c and 4h under it
    piles = [[c("Kd"), c("8s")], [c("4h"), c("5c"), c("6d")], [c("Ks")], [c("Kc")], [c("Kh")], [c("Qs")],
             [c("Qh")], [c("2c")], [c("7h")]]
    game = PatienceGame(golf, piles, [0] * 7 + [1, 0])
    view = game.view()
    assert {str(m) for m in view.legal_moves} == {"1>H", "2>H", "D"}
    assert hole_continuation(view) == 3
    for seed in range(10):
        assert str(GreedyPlayer(seed).choose(view)) == "2>H"


def test_hole_continuation_stops_at_face_down_cards() -> None:
    golf = get("golf")
    c = Card.parse
    piles = [[c("5c"), c("6d")], [c("Ks")], [c("Kc")], [c("Kh")], [c("Qs")], [c("Qh")], [c("Qd")], [c("2c")],
             [c("7h")]]
    game = PatienceGame(golf, piles, [0] * 7 + [1, 0])
    view = game.view()
    assert hole_continuation(view) == 2
    hidden_under = replace(view, piles=(PileView(view.piles[0].place, 1, (c("6d"),)), *view.piles[1:]))
    assert hole_continuation(hidden_under) == 1


def test_unknown_player_is_one_clear_error() -> None:
    with pytest.raises(Exception, match="unknown patience player 'smart': choose random, greedy, expert"):
        make_player("smart")


def test_the_expert_wins_an_open_deal_the_solver_wins() -> None:
    game = PatienceGame.from_seed(get("bakers-game"), 7)  # nothing hidden: one guess is the deal itself
    play_out(game, [ExpertPlayer(1, max_states=100_000)], max_actions=500)
    assert game.is_won()


def test_the_expert_chooses_alike_whatever_the_face_down_cards() -> None:
    game = PatienceGame.from_seed(get("klondike"), 5)
    other = _hidden_swapped(game)
    assert other is not None and other.view() == game.view()
    assert ExpertPlayer(3, samples=3, max_states=3000).choose(game.view()) == \
        ExpertPlayer(3, samples=3, max_states=3000).choose(other.view())


#: The games whose player does not see every card at the start (face-down cards or a stock).
_HIDDEN_GAMES = tuple(name for name in names()
                      if any(pile.face_down for pile in PatienceGame.from_seed(get(name), 1).view().piles))


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(_HIDDEN_GAMES), deal=st.integers(1, 10_000), prefix=st.integers(0, 30),
       guess=st.integers(0, 2**32))
def test_the_expert_never_reads_the_hidden_cards_or_the_stocks_order(name: str, deal: int, prefix: int,
                                                                    guess: int) -> None:
    # a position some moves into a deal, and a twin in which every unseen card (face down or in the
    # stock) is dealt anew: the player sees the same, so the expert must choose the same
    game = play_out(PatienceGame.from_seed(get(name), deal), [make_player("greedy", deal)], max_actions=prefix)
    view = game.view()
    rng = SplitMix64(guess)
    twin = next((t for t in (guess_deal(view, rng) for _ in range(20)) if t.key() != game.key()), None)
    if twin is None:
        return  # a single unseen card, or none left: nothing to deal otherwise
    assert replace(twin.view(), moves_played=view.moves_played) == view
    assert ExpertPlayer(deal, samples=2, max_states=300).choose(view) == \
        ExpertPlayer(deal, samples=2, max_states=300).choose(twin.view())


def test_a_guess_knows_the_redeals_the_player_used() -> None:
    # La Belle Lucie's two redeals used up: a guess of the position must not offer a third, or the
    # expert plays a line whose first move (D) the game refuses
    game = PatienceGame.from_seed(get("la-belle-lucie"), 1)
    game.play(DEAL)
    game.play(DEAL)
    view = game.view()
    assert view.redeals_used == 2 and DEAL not in view.legal_moves
    guess = guess_deal(view, SplitMix64(1))
    assert replace(guess.view(), moves_played=view.moves_played) == view
    played = play_out(game, [ExpertPlayer(1, samples=2, max_states=2000)], max_actions=300)
    replay = PatienceGame.from_seed(get("la-belle-lucie"), 1)
    for move in played.moves:
        replay.play(move)


def test_the_expert_searches_again_only_when_its_view_holds_something_new(monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[int] = []

    def no_line(game: PatienceGame, max_states: int) -> None:
        searched.append(max_states)

    monkeypatch.setattr(patience_bots, "solve_guess", no_line)
    # FreeCell shows every card: one search, with the whole budget of a decision, then the greedy game
    game = play_out(PatienceGame.from_seed(get("freecell"), 3), [ExpertPlayer(3, samples=4, max_states=500)],
                    max_actions=60)
    assert len(game.moves) == 60 and searched == [2000]
    # Klondike: a search of 4 guesses (each tried after the greedy player's move, then from the
    # position) when cards never seen before come into view (turned up, or dealt in the first pass
    # through the stock): one after the first search in vain, two after the second, four after the
    # third, ..., at most VAIN_WAIT; none while nothing new is seen
    searched.clear()
    game = PatienceGame.from_seed(get("klondike"), 3)
    player = ExpertPlayer(3, samples=4, max_states=500)
    expected: list[int] = []
    least = 10**6
    vain = 0
    for _ in range(400):
        view = game.view()
        if len(view.legal_moves) > 1:  # a single move is played without a search
            now = sum(pile.face_down for pile in view.piles)
            wait = min(2 ** (vain - 1), patience_bots.VAIN_WAIT) if vain else 1
            if now < least and (now == 0 or now <= least - wait):
                # nothing hidden left: the one deal there is, with the whole budget
                expected += [500] * 8 if now else [2000]
                least = now
                vain += 1
        move = player.choose(view)
        if move is None:
            break
        game.play(move)
    assert game.pass_number > 1 and vain > 4 and searched == expected


def test_the_expert_stops_guessing_when_the_rest_cannot_change_its_move(monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[PatienceGame] = []

    def a_line(game: PatienceGame, max_states: int) -> list[Move]:
        searched.append(game)
        return [game.legal_moves()[0]]

    monkeypatch.setattr(patience_bots, "solve_guess", a_line)
    view = PatienceGame.from_seed(get("klondike"), 5).view()
    # every guess won by a line that starts with the greedy player's move: after 4 of 6 the other
    # 2 cannot outvote it
    assert ExpertPlayer(5, samples=6, max_states=500).choose(view) == GreedyPlayer(5).choose(view)
    assert len(searched) == 4


def test_the_expert_tries_the_greedy_players_move_first(monkeypatch: pytest.MonkeyPatch) -> None:
    view = PatienceGame.from_seed(get("yukon"), 4).view()
    greedy = GreedyPlayer(4).choose(view)
    assert greedy is not None

    def another_line(game: PatienceGame, max_states: int) -> list[Move]:
        return [next(move for move in game.legal_moves() if move != greedy)]

    monkeypatch.setattr(patience_bots, "solve_guess", another_line)
    # every guess is won after the greedy player's move as well as by another line: the greedy
    # player's move is played (the line the search happens to find first does not outvote it)
    assert ExpertPlayer(4, samples=3, max_states=500).choose(view) == greedy


def test_the_expert_plays_legal_moves_to_an_end_in_a_game_with_a_stock() -> None:
    game = play_out(PatienceGame.from_seed(get("golf"), 8), [ExpertPlayer(8, samples=2, max_states=2000)],
                    max_actions=200)
    replay = PatienceGame.from_seed(get("golf"), 8)
    for move in game.moves:
        replay.play(move)
    assert game.is_over() or len(game.moves) == 200


def test_the_greedy_player_reads_runs_counted_from_the_base() -> None:
    # Under Solvitaire's Canfield (ranks counted from the base, here 5) a 4
    # on a 5 is no run: the scorer sees one card on top, not two.
    variant = load("benchmarks/winnability/canfield-solvitaire.json")
    data = variant.to_json()
    data["tableau"]["build"].update({"wrap": True, "from-base": False})
    wrapping = Description.from_json(data)
    rest = "".join(str(card) for card in new_deck() if str(card) not in ("5h", "4s", "9c", "5c"))
    text = f"1:5h4s 2: 3: 4: R1:9c F1:5c F2: F3: F4: S:{rest}/ W:"
    counted, plain = (patience_bots._Scorer(read_position(d, text).view(), set()) for d in (variant, wrapping))
    assert counted.view.foundation_base == 5
    assert counted._run_below(counted.piles[0]) == 1
    assert plain._run_below(plain.piles[0]) == 2
