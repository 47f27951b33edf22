"""The patience games' tables over their WebSocket, without a browser: the
chooser, the table message and the view (hidden cards never sent), moves and
their refusals, undo and redo, deals by number, the daily deal, options, the
game kept across pages, the hint read from the player's view alone, and the
server's checks (Host, Origin)."""

from __future__ import annotations

import asyncio
import datetime
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.klondike import Variant
from cardtable.patience import Kind, Move, PatienceGame, get, names
from cardtable.patience.layout import table_layout
from cardtable.solver.patience import solve_game
from cardtable.solver.patience_deals import daily_game, winnable_game
from cardtable.web.klondike import KlondikeDealer
from cardtable.web.patience import PatienceTable, hint_message
from cardtable.web.protocol import MAX_MESSAGE_BYTES, ProtocolError
from cardtable.web.server import TableServer

CARD = re.compile(r"\b[A2-9TJQK][cdhs]\b")


def serving(tmp_path: Path, test: Callable[[str], Awaitable[None]], **options: Any) -> None:
    """Run ``test(base_url)`` against a table server on a free loopback port (the chooser at ``/``
    unless ``options`` say otherwise)."""
    async def main() -> None:
        server = TableServer(KlondikeDealer(Variant.preset("draw1")), store_path=tmp_path / "store.db",
                             url="http://localhost:0", title="cardtable: card games", **{"home": "games", **options})
        runner = web.AppRunner(server.application(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        try:
            await test(f"http://127.0.0.1:{runner.addresses[0][1]}")
        finally:
            await runner.cleanup()

    asyncio.run(main())


async def opened(ws: aiohttp.ClientWebSocketResponse) -> tuple[dict[str, Any], dict[str, Any]]:
    """The table message and the first view a game's socket sends."""
    first = await ws.receive_json(timeout=10)
    assert first["type"] == "table", first
    second = await ws.receive_json(timeout=10)
    assert second["type"] == "view", second
    return first["table"], second["view"]


async def answer(ws: aiohttp.ClientWebSocketResponse, message: dict[str, Any]) -> dict[str, Any]:
    await ws.send_json(message)
    return dict(await ws.receive_json(timeout=10))


def test_the_chooser_links_every_game_and_an_unknown_game_is_not_found(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{base}/") as response:
                page = await response.text()
            for name in names():
                assert f'href="/play/{name}"' in page
                assert get(name).summary.split(";")[0].replace("'", "&#x27;") in page
            assert 'href="/play/pyramid?options=three-passes"' in page
            async with session.get(f"{base}/play/freecell") as response:
                assert response.status == 200 and "/static/patience.js" in await response.text()
            async with session.get(f"{base}/play/freecel") as response:
                assert response.status == 404
            async with session.get(f"{base}/klondike") as response:  # Klondike's own table stays where it was
                assert "/static/table.js" in await response.text()

    serving(tmp_path, test)


def test_a_game_opens_with_its_layout_and_a_view_that_hides_face_down_cards(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session:
            for name in ("klondike", "spider-2-suits", "pyramid", "canfield"):
                async with session.ws_connect(f"{base}/play/{name}/ws") as ws:
                    table, view = await opened(ws)
                    description = get(name)
                    assert len(table["layout"]["piles"]) == sum(description.count(kind) for kind in Kind)
                    assert len(table["layout"]["piles"]) == len(table_layout(description).piles)
                    game = PatienceGame.from_seed(description, view["deal"])
                    seen = game.view()
                    for pile, shown in zip(seen.piles, view["piles"], strict=True):
                        assert shown["place"] == str(pile.place)
                        assert shown["down"] == pile.face_down
                        assert shown["up"] == [str(card) for card in pile.cards]
                    # the whole message names only the face-up cards
                    visible = {card for pile in view["piles"] for card in pile["up"]}
                    assert set(CARD.findall(str(view))) <= visible

    serving(tmp_path, test)


def test_moves_refusals_undo_redo_restart_and_the_game_kept_for_the_next_page(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            await (await session.get(f"{base}/play/freecell")).release()  # the page sets the player's cookie
            async with session.ws_connect(f"{base}/play/freecell/ws") as ws:
                await opened(ws)
                reply = await answer(ws, {"type": "new", "deal": "ms:11982"})
                assert reply["view"]["deal"] == "ms:11982" and reply["said"] == "Deal ms:11982."
                for text, words in [('{"type": "move", "move": "1>2"}', "does not go on pile 2"),
                                    ('{"type": "move", "move": "9>9"}', "cannot read move"),
                                    ('{"type": "undo"}', "nothing to undo"),
                                    ('{"type": "new", "deal": "ms:0"}', "Microsoft deal number"),
                                    ('{"type": "new", "deal": 7}', '"deal" must be'),
                                    ('{"type": "fly"}', "unknown message type"),
                                    (json.dumps({"type": "view", "pad": "x" * MAX_MESSAGE_BYTES}),
                                     "message too large")]:
                    await ws.send_str(text)
                    reply = await ws.receive_json(timeout=10)
                    assert reply["type"] == "error" and words in reply["message"], (text, reply)
                legal = reply_view = (await answer(ws, {"type": "view"}))["view"]
                move = legal["legal"][0]
                played = (await answer(ws, {"type": "move", "move": move}))["view"]
                assert played["moves"] == 1 and played["canUndo"] and not played["canRedo"]
                undone = (await answer(ws, {"type": "undo"}))["view"]
                assert undone["piles"] == reply_view["piles"] and undone["canRedo"]
                redone = (await answer(ws, {"type": "redo"}))["view"]
                assert redone["piles"] == played["piles"]
            async with session.ws_connect(f"{base}/play/freecell/ws") as again:  # a reload: the same game
                _, view = await opened(again)
                assert view["piles"] == redone["piles"] and view["deal"] == "ms:11982" and view["canUndo"]
                restarted = (await answer(again, {"type": "restart"}))["view"]
                assert restarted["moves"] == 0 and restarted["piles"] == reply_view["piles"]

    serving(tmp_path, test)


def test_options_and_the_daily_deal(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(f"{base}/play/pyramid/ws?options=three-passes") as ws:
                table, view = await opened(ws)
                assert table["applied"] == ["three-passes"] and view["passes"] == 3
                dealing = await answer(ws, {"type": "new", "daily": True})
                assert dealing == {"type": "dealing", "text": "Finding the daily deal of Pyramid\u2026"}
                reply = await ws.receive_json(timeout=120)
                daily = reply["view"]
                rules = get("pyramid").with_options("three-passes")
                today = datetime.date.today()
                assert daily["deal"] == str(daily_game(today, rules).seed)  # the deal 'deal --daily' gives
                assert daily["daily"] == today.isoformat() and reply["said"] == f"The daily deal of {today}."
            async with session.ws_connect(f"{base}/play/pyramid/ws?options=nine-passes") as ws:
                reply = await ws.receive_json(timeout=10)
                assert reply["type"] == "error" and "no option 'nine-passes'" in reply["message"]

    serving(tmp_path, test)


def test_one_game_served_alone_is_at_the_root(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{base}/") as response:
                assert response.url.path == "/play/golf" and response.status == 200
            async with session.get(f"{base}/play/freecell") as response:
                assert response.status == 404

    serving(tmp_path, test, home="golf", games={"golf": get("golf")})


def test_a_winnable_deal_is_searched_for_in_a_process_and_proven(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/play/tripeaks/ws") as ws:
            await opened(ws)
            for bad, words in [({"type": "new", "winnable": "yes"}, '"winnable" must be true or false'),
                               ({"type": "new", "winnable": True, "deal": "4"}, 'without "deal"')]:
                reply = await answer(ws, bad)
                assert reply["type"] == "error" and words in reply["message"], reply
            await ws.send_json({"type": "new", "winnable": True})
            dealing = await ws.receive_json(timeout=10)
            assert dealing == {"type": "dealing", "text": "Finding a winnable deal of TriPeaks\u2026"}
            reply = await ws.receive_json(timeout=120)
            while reply["type"] != "view":  # a move sent meanwhile would be refused; nothing else comes
                reply = await ws.receive_json(timeout=120)
            view = reply["view"]
            assert view["winnable"] and reply["said"].endswith("proven winnable.")
            assert solve_game(PatienceGame.from_seed(get("tripeaks"), view["deal"]), timeout=30).result == "won"

    serving(tmp_path, test)


def test_a_won_game_and_a_game_left_count_in_the_players_statistics_in_the_store(tmp_path: Path) -> None:
    from cardtable.runs.store import ResultsStore
    from cardtable.sim.played import played_games

    rules = get("golf")
    proven = winnable_game(3, rules)  # a deal the search wins, and its line
    deal, line = str(proven.seed), [Move.parse(text) for text in proven.moves]

    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/play/golf/ws") as ws:
            await opened(ws)
            empty = await answer(ws, {"type": "stats"})
            assert empty == {"type": "stats", "daily": None, "stats": {
                "variant": "Golf", "played": 0, "won": 0, "win_rate": 0.0, "current_streak": 0, "best_streak": 0,
                "best_seconds": None, "fewest_moves": None}}
            assert (await answer(ws, {"type": "new", "deal": "5"}))["view"]["deal"] == "5"
            assert (await answer(ws, {"type": "move", "move": "D"}))["type"] == "view"
            await answer(ws, {"type": "new", "deal": deal})  # the game left after a move: abandoned
            for move in line:
                reply = await answer(ws, {"type": "move", "move": str(move)})
            assert reply["view"]["won"] and reply["said"].endswith("You won!")
            await answer(ws, {"type": "undo"})  # undone and won again: counted once
            await answer(ws, {"type": "redo"})
            stats = (await answer(ws, {"type": "stats"}))["stats"]
            assert (stats["played"], stats["won"], stats["current_streak"], stats["fewest_moves"]) == \
                (2, 1, 1, len(line))

    serving(tmp_path, test)
    with ResultsStore(tmp_path / "store.db", create=False) as store:
        assert played_games(store, game="golf") == []  # the terminal's person played none
        player = store.select("played", ("player",), action="read")[0][0]
        left, kept = played_games(store, player=player, game="golf", rules=rules.rules_key)
    assert (left.start, left.result, left.moves, left.total) == ("5", "abandoned", 1, 52)
    assert (kept.start, kept.result, kept.moves, kept.foundation) == (deal, "won", len(line), 52)
    from cardtable.patience.record import PatienceRecord

    assert PatienceRecord.parse(kept.record or "").replay().moves == line  # kept to review


def test_a_frame_far_too_large_closes_the_socket_unread(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/play/golf/ws") as ws:
            await opened(ws)
            await ws.send_str(json.dumps({"type": "view", "pad": "x" * MAX_MESSAGE_BYTES * 5}))
            frame = await ws.receive(timeout=10)
            assert frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            assert ws.close_code == 1009  # the message is too big

    serving(tmp_path, test)


def test_the_server_refuses_a_cross_site_socket_and_a_foreign_host(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(f"{base}/play/golf/ws", headers={"Origin": "http://evil.example"})
            assert refused.value.status == 403
            async with session.get(f"{base}/play/golf", headers={"Host": "rebound.example:80"}) as response:
                assert response.status == 403

    serving(tmp_path, test)


@settings(max_examples=25)
@given(name=st.sampled_from(["klondike", "spider-2-suits", "yukon", "canfield", "scorpion"]),
       seed=st.integers(0, 2**32), swap=st.data())
def test_the_hint_reads_only_what_the_player_sees(name: str, seed: int, swap: st.DataObject) -> None:
    """Two games that differ only in their face-down cards get the same hint."""
    game = PatienceGame.from_seed(get(name), seed)
    hidden = [(pile, i) for pile, down in enumerate(game.down) for i in range(down)]
    if len(hidden) < 2:
        return
    (p, i), (q, j) = swap.draw(st.lists(st.sampled_from(hidden), min_size=2, max_size=2, unique=True))
    piles = [list(cards) for cards in game.piles]
    piles[p][i], piles[q][j] = piles[q][j], piles[p][i]
    other = PatienceGame(game.description, piles, game.down, shuffle_seed=game.shuffle_seed)
    assert other.view() == game.view()
    first = hint_message(game, samples=2, max_states=500)
    assert first == hint_message(other, samples=2, max_states=500)
    assert first["move"] is None or first["move"] in {str(move) for move in game.legal_moves()}
    assert not CARD.search(first["text"])  # cards in words, and only cards in view


def test_the_hint_is_the_experts_searched_in_a_process_and_one_at_a_time(tmp_path: Path) -> None:
    async def test(base: str) -> None:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            await (await session.get(f"{base}/play/yukon")).release()
            async with session.ws_connect(f"{base}/play/yukon/ws") as ws:
                await opened(ws)
                view = (await answer(ws, {"type": "new", "deal": "3"}))["view"]
                await ws.send_json({"type": "hint"})
                refused = await answer(ws, {"type": "hint"})  # the table answers while the expert thinks
                assert refused["type"] == "error" and "being looked for" in refused["message"]
                hint = await ws.receive_json(timeout=60)
                assert hint["type"] == "hint" and hint["move"] in view["legal"], hint
                assert hint["text"].startswith("Hint: ") and "guess" in hint["text"]
                # the game moves on while the expert thinks: the late hint is not shown
                await ws.send_json({"type": "hint"})
                moved = await answer(ws, {"type": "move", "move": hint["move"]})
                assert moved["type"] == "view" and moved["view"]["moves"] == 1
                late = await ws.receive_json(timeout=60)
                assert late == {"type": "hint", "move": None,
                                "text": "The game moved on meanwhile: ask again for a hint."}

    serving(tmp_path, test)


def test_a_pair_from_two_piles_names_each_cards_pile_in_the_message_and_the_hint() -> None:
    from cardtable.bots.patience_hint import move_words
    from cardtable.patience import Place

    table = PatienceTable.deal(get("pyramid"), "40")
    while not (pairs := [move for move in table.game.legal_moves()
                         if move.pair is not None and Kind.WASTE in (move.source.kind, move.pair.kind)]):
        table.apply({"type": "move", "move": "D"})  # the stock, until the waste's card makes a pair
    move = pairs[0]
    assert move.pair is not None
    first, second = (table.game.pile(place)[-1].name() for place in (move.source, move.pair))
    where = ["the waste" if place == Place(Kind.WASTE) else f"pile {place.index + 1}"
             for place in (move.source, move.pair)]
    assert move_words(table.game.view(), move) == \
        f"the {first} from {where[0]} and the {second} from {where[1]} to the hole"
    assert table.apply({"type": "move", "move": str(move)}).startswith(
        f"{first.capitalize()} from {where[0]} and the {second} from {where[1]} to the hole.")


def test_a_table_refuses_a_deal_the_game_cannot_have() -> None:
    with pytest.raises(ProtocolError, match="no Microsoft deal numbers"):
        PatienceTable.deal(get("golf"), "ms:3")


def test_auto_finish_sends_home_what_can_go_and_says_so_when_nothing_can() -> None:
    from patience_helpers import two_clubs_to_go_home

    table = PatienceTable(two_clubs_to_go_home(), deal="1")
    assert table.view()["canFinish"]
    assert table.apply({"type": "autofinish"}) == "Auto-finish sent 2 cards home."
    assert [str(move) for move in table.game.moves] == ["4>F", "2>F"] and not table.view()["canFinish"]
    with pytest.raises(ProtocolError, match="no card can go to the foundations now"):
        table.apply({"type": "autofinish"})
    golf = PatienceTable.deal(get("golf"), "1")
    assert not golf.view()["canFinish"]


def test_a_foundation_of_a_whole_run_shows_its_king() -> None:
    from patience_helpers import a_spider_run_gone_home

    piles = {pile["place"]: pile for pile in PatienceTable(a_spider_run_gone_home(), deal="1").view()["piles"]}
    assert piles["F1"]["up"][-1] == "Ks" and piles["F1"]["up"][0] == "As"


def test_the_view_counts_the_passes_left_for_the_empty_stocks_sign() -> None:
    from patience_helpers import a_spider_run_gone_home, a_won_canfield

    assert PatienceTable(a_won_canfield(), deal="1").view()["passesLeft"] is None  # unlimited
    assert PatienceTable(a_spider_run_gone_home(), deal="1").view()["passesLeft"] == 0  # never turned over
    forty = PatienceTable.deal(get("forty-thieves"), "1")  # one pass
    assert forty.view()["passesLeft"] == 0


@pytest.mark.slow
def test_a_graded_deal_is_searched_for_in_a_process_and_the_game_takes_no_move_meanwhile(tmp_path: Path) -> None:
    from cardtable.sim.grade import game_of_grade

    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/play/tripeaks/ws") as ws:
            await opened(ws)
            assert await answer(ws, {"type": "grading"}) == {"type": "grading", "reason": None}
            for bad, words in [({"type": "new", "difficulty": "tricky"}, '"difficulty" must be one of easy, medium'),
                               ({"type": "new", "difficulty": "easy", "daily": True}, "proven winnable already"),
                               ({"type": "new", "difficulty": "easy", "deal": "ms:4"}, "from a whole number")]:
                reply = await answer(ws, bad)
                assert reply["type"] == "error" and words in reply["message"], reply
            await ws.send_json({"type": "new", "difficulty": "easy", "deal": "6"})
            dealing = await ws.receive_json(timeout=10)
            assert dealing == {"type": "dealing", "text": "Finding an easy deal of TriPeaks\u2026"}
            refused = await answer(ws, {"type": "move", "move": "D"})
            assert refused["type"] == "error" and "takes no more moves" in refused["message"]
            reply = await ws.receive_json(timeout=120)
            while reply["type"] != "view":
                reply = await ws.receive_json(timeout=120)
            seed, _ = game_of_grade(6, "easy", get("tripeaks"))
            view = reply["view"]
            assert view["deal"] == str(seed) and view["grade"] == "easy" and view["moves"] == 0
            assert reply["said"] == f"Deal {seed}, graded easy: proven winnable."

    serving(tmp_path, test)


def test_a_game_whose_deals_cannot_be_graded_says_why() -> None:
    from cardtable.web.patience_room import PatienceRoom

    class Lent:
        async def search(self, work: Callable[..., Any], *args: object) -> Any:
            return work(*args)

    async def main() -> tuple[str | None, str | None]:
        room = PatienceRoom(Lent(), {})  # type: ignore[arg-type]
        return await room._ungradable(get("russian-solitaire")), await room._ungradable(get("pyramid"))

    gradable, pyramid = asyncio.run(main())
    assert gradable is None and pyramid is not None and pyramid.startswith("the search proves none of deals 0 to")


def test_the_review_weighs_each_position_from_the_players_view(tmp_path: Path) -> None:
    from cardtable.bots.patience_review import REVIEW_SAMPLES, REVIEW_STATES, weigh_position

    async def test(base: str) -> None:
        async with aiohttp.ClientSession() as session, \
                session.ws_connect(f"{base}/play/tripeaks/ws") as ws:
            await opened(ws)
            reply = await answer(ws, {"type": "review"})
            assert reply == {"type": "error", "message": "nothing to review yet: play a move first"}
            await ws.send_json({"type": "new", "deal": "4"})
            view = (await ws.receive_json(timeout=10))["view"]
            game = PatienceGame.from_seed(get("tripeaks"), "4")
            seen: set[str] = {card for pile in view["piles"] for card in pile["up"]}
            for _ in range(3):
                move = next(m for m in game.legal_moves() if not m.is_recycle)
                view = (await answer(ws, {"type": "move", "move": str(move)}))["view"]
                game.play(move)
                seen |= {card for pile in view["piles"] for card in pile["up"]}
            await ws.send_json({"type": "review"})
            await ws.send_json({"type": "review"})
            done = []
            again = await ws.receive_json(timeout=10)
            while again["type"] == "review-progress":
                done.append(again["done"])
                again = await ws.receive_json(timeout=10)
            assert again == {"type": "error", "message": "a review is under way already"}
            reply = await ws.receive_json(timeout=120)
            while reply["type"] == "review-progress":
                done.append(reply["done"])
                reply = await ws.receive_json(timeout=120)
            assert reply["type"] == "review" and not reply["stopped"] and done == [1, 2, 3, 4]
            review = reply["review"]
            replay = PatienceGame.from_seed(game.description, "4")
            expected = [weigh_position(replay.clone(), index=0, samples=REVIEW_SAMPLES, max_states=REVIEW_STATES)]
            for index, move in enumerate(game.moves, start=1):
                replay.play(move)
                expected.append(weigh_position(replay.clone(), index=index, samples=REVIEW_SAMPLES,
                                               max_states=REVIEW_STATES))
            assert review["positions"] == [position.to_dict() for position in expected]
            assert review["peek"] is None and review["outcome"] == "unfinished"  # mid-game: no peek
            assert [move["move"] for move in review["moves"]] == [str(move) for move in game.moves]
            # the review names only cards the player has seen
            assert set(CARD.findall(str(review))) <= seen

    serving(tmp_path, test)


def test_the_review_of_a_game_over_adds_the_searchs_verdicts_every_card_known() -> None:
    from cardtable.web.patience import review_message

    async def search(work: Callable[[], Any]) -> Any:
        return work()

    async def progress(done: int, total: int) -> None:
        pass

    game = PatienceGame.from_seed(get("golf"), 4)
    while game.outcome() is None:  # deal until the stock is out and no move is left: lost
        game.play(next((m for m in game.legal_moves() if not m.is_deal), game.legal_moves()[0]))
    going = game.clone()
    going.undo()
    over, on = (asyncio.run(review_message(search, each, "4", progress=progress, stopped=lambda: False, samples=2,
                                           max_states=500, peek_states=2000)) for each in (game, going))
    assert over["review"]["outcome"] == "lost: no legal move is left" and over["review"]["peek"]
    assert on["review"]["outcome"] == "unfinished" and on["review"]["peek"] is None
