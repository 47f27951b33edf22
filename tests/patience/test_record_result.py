"""A patience record made from a game writes the game's result without
replaying it; the text is the same as the one a replay gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.patience import RandomPlayer
from cardtable.patience import PatienceGame, get
from cardtable.patience.record import PatienceRecord


@settings(max_examples=30)
@given(name=st.sampled_from(["freecell", "golf", "pyramid", "spider-1-suit", "canfield"]),
       seed=st.integers(0, 2**32), moves=st.integers(0, 400))
def test_a_record_from_a_game_says_what_its_replay_says(name: str, seed: int, moves: int) -> None:
    game = PatienceGame.from_seed(get(name), seed)
    player = RandomPlayer(seed)
    for _ in range(moves):
        move = player.choose(game.view())
        if move is None:
            break
        game.play(move)
    made = PatienceRecord.from_game(game, seed, Player="random")
    read = PatienceRecord.parse(str(made))  # knows no outcome: replays to write its Result
    assert str(made) == str(read) and made.to_json() == read.to_json()
    result = "game in progress" if game.outcome() is None else game.outcome().value
    assert f'[Result "{result}"]' in str(made)
