"""The patience games' tables in Chromium, as a player plays them: the piles
drawn (counted by their accessible names), a mouse drag that lands, an
illegal drop that returns with the engine's reason, tap-then-tap on a touch
phone, a hint that is a legal move, reload that restores the position, every
game of the registry opening without a console error, and a game described
in a user's file played with ``cardtable serve --game FILE.json``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Served, at_rest, chromium, serving, under_won_box

from cardtable.cards import Card
from cardtable.patience import Description, Kind, Move, PatienceGame, Place, get, names
from cardtable.patience.words import rules_sections
from cardtable.solver.patience import Search

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PILE_NAME = re.compile(r"^(pile|cell|foundation|reserve|stock|waste|hole)\b")
#: The six games played through the page, each at a deal with a move to drag; the default run plays
#: two of them each way, the others are slow checks.
GAMES = ["freecell", "spider-2-suits", "golf", "pyramid", "yukon", "canfield"]


def some_slow(*fast: str) -> list[Any]:
    return [name if name in fast else pytest.param(name, marks=pytest.mark.slow) for name in GAMES]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    starting = serving(tmp_path_factory.mktemp("served"), Served)
    start = next(starting)
    yield start()
    next(starting, None)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def words(place: Place) -> str:
    """A pile in words, as the page names it."""
    kind, number = place.kind, place.index + 1
    return {Kind.TABLEAU: f"pile {number}", Kind.FOUNDATION: f"foundation {number}", Kind.CELL: f"cell {place}",
            Kind.RESERVE: f"reserve {number}", Kind.STOCK: "stock", Kind.WASTE: "waste", Kind.HOLE: "hole"}[kind]


def open_game(context: Any, base: str, path: str) -> tuple[Any, list[str], list[dict[str, Any]]]:
    """A page at ``path`` once its table is drawn, with the console errors and the server's messages it gets."""
    page = context.new_page()
    errors: list[str] = []
    frames: list[dict[str, Any]] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))))
    page.goto(base + path)
    page.wait_for_selector("html[data-drawn=yes]")
    return page, errors, frames


def open_deal(context: Any, base: str, name: str, seed: str) -> tuple[Any, list[str], list[dict[str, Any]]]:
    """A page of ``name`` at deal ``seed`` once its cards lie still: the page first draws the view it is
    sent (the player's game, or a new one), then asks for the address's deal, and its cards slide there."""
    page, errors, frames = open_game(context, base, f"/play/{name}?seed={seed}")
    until(page, lambda: frames and last_view(frames)["deal"] == seed, "the deal the address names")
    page.wait_for_function(f"document.getElementById('st-deal').textContent === 'Deal {seed}'")
    at_rest(page)
    return page, errors, frames


def until(page: Any, condition: Callable[[], Any], what: str) -> Any:
    """Poll ``condition`` while the page runs (Playwright hands over its events only while it is called)."""
    for _ in range(400):
        value = condition()
        if value:
            return value
        page.wait_for_timeout(50)
    pytest.fail(f"timed out waiting for {what}")


def last_view(frames: list[dict[str, Any]]) -> dict[str, Any]:
    return next(frame["view"] for frame in reversed(frames) if frame["type"] == "view")


#: The first point near an element's top-left corner, down its left edge, where the element is what the
#: pointer would touch (the svg inside a card takes no pointer events): what shows of a card under a fan.
_SHOWING = """(el) => {
  const box = el.getBoundingClientRect();
  const x = box.left + Math.min(8, box.width / 4);
  for (let y = box.top + Math.min(4, box.height / 4); y < box.bottom; y += 1) {
    if (document.elementFromPoint(x, y) === el) return [x, y];
  }
  return null;
}"""


def corner(page: Any, locator: Any) -> tuple[float, float]:
    """A point near the top-left corner of an element where it shows (of a card under a fan, the strip
    above the next card), once the cards lie still."""
    at_rest(page)
    point = locator.evaluate(_SHOWING)
    assert point is not None, f"{locator} does not show on the table"
    return point[0], point[1]


def card_at(page: Any, game: PatienceGame, place: Place, from_top: int = 1) -> Any:
    """The card ``from_top`` of a pile by its accessible name, and by its place in the pile where two decks
    put two copies of it there."""
    card, shown = game.pile(place)[-from_top], len(game.pile(place)) - game.face_down(place)
    named = page.get_by_role("button", name=f"{card.name()}, {words(place)}", exact=True)
    return named.and_(page.locator(f'.card[data-index="{shown - from_top}"]'))


def _target_place(game: PatienceGame, move: Move) -> tuple[Place, bool]:
    """The pile a move's cards are dropped on (the first foundation for any), and whether its top card
    shows (else the pile's own place is the target)."""
    if move.pair is not None:
        return move.pair, True
    assert move.target is not None
    place = Place(Kind.FOUNDATION, 0) if move.target.kind is Kind.FOUNDATION else move.target
    return place, bool(game.pile(place)) and game.face_down(place) < len(game.pile(place))


def target_of(page: Any, game: PatienceGame, move: Move) -> Any:
    """The element a move's cards are dropped on."""
    place, on_card = _target_place(game, move)
    if on_card:
        return card_at(page, game, place)
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(words(place))}\b")).first


def top_of_target(game: PatienceGame, move: Move) -> Card | None:
    """The card a move's cards are dropped on (None: a pile's place)."""
    place, on_card = _target_place(game, move)
    return game.pile(place)[-1] if on_card else None


def draggable(game: PatienceGame) -> Move:
    """A legal move of cards the player can take in hand (no deal, no recycle)."""
    return next(move for move in game.legal_moves() if not move.is_deal and not move.is_recycle)


def illegal(game: PatienceGame) -> tuple[Move, str]:
    """A move of a top card onto a pile that the engine refuses, and its reason."""
    sources = [place for kind in (Kind.TABLEAU, Kind.WASTE) for place in game.places(kind)
               if game.pile(place) and game.face_down(place) < len(game.pile(place))
               and game.description.tableau.covers is None]
    pyramid_free = [move.source for move in game.legal_moves() if not move.is_deal and not move.is_recycle]
    for source in sources or pyramid_free:
        for target in game.places(Kind.TABLEAU):
            if target == source or not game.pile(target):
                continue
            move = (Move(source, Place(Kind.HOLE), 1, target) if game.description.hole_pairs is not None
                    else Move(source, target))
            reason = game.why_illegal(move)
            if reason is not None and "lies under" not in reason and "has no face-up" not in reason:
                return move, reason
    raise AssertionError("no illegal move found")


def seed_with_drag(name: str) -> str:
    """The first deal of ``name`` with a legal move that is not the stock's."""
    for seed in range(200):
        game = PatienceGame.from_seed(get(name), seed)
        if any(not move.is_deal and not move.is_recycle for move in game.legal_moves()):
            return str(seed)
    raise AssertionError(f"no deal of {name} with a move to drag")


def drag(page: Any, source: Any, target: Any) -> None:
    x, y = corner(page, source)
    page.mouse.move(x, y)
    page.mouse.down()
    box = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 20), steps=5)
    page.mouse.up()


def moves_shown(page: Any, count: int) -> None:
    page.wait_for_function(f"document.getElementById('st-moves').textContent === 'Moves {count}'")


def statistics(page: Any) -> list[str]:
    """The Statistics dialog opened, and the game's row in it once the server's figures have come (it
    says "Reading…" until then)."""
    page.get_by_role("button", name="Statistics").click()
    page.locator("#stats-rows tr th").first.wait_for()
    return [cell.text_content() for cell in page.locator("#stats-rows tr").first.locator("th, td").all()]


def finishes(game: PatienceGame) -> bool:
    """Whether Auto-finish (every card that can go home, one after another) wins from here."""
    copy = game.clone()
    while (move := copy.home_move()) is not None:
        copy.play(move)
    return copy.is_won()


def play_line(page: Any, game: PatienceGame, line: list[Move]) -> None:
    """Play ``line`` from ``game``'s position (played along) through the page, as a player would: the
    stock clicked, the other moves dragged with the mouse and tapped then tapped in turn, and Auto-finish
    pressed once it wins. A card is not tapped again at once after a tap on it (that would be a double
    tap, which sends it home)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    tapped: Card | None = None  # the card the last tap touched
    for number, move in enumerate(line):
        if game.home_move() is not None and finishes(game):
            page.get_by_role("button", name="Auto-finish").click()
            return
        if move.is_deal or move.is_recycle:
            stock = page.get_by_role("button", name=re.compile(r"^stock\b")).bounding_box()
            page.mouse.click(stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2)
        else:
            source, target = card_at(page, game, move.source, move.count), target_of(page, game, move)
            if number % 2 or game.pile(move.source)[-move.count] == tapped:
                drag(page, source, target)
            else:
                page.mouse.click(*corner(page, source))
                page.wait_for_selector(".card.selected")
                tapped = top_of_target(game, move)
                box = target.bounding_box()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 20))
        game.play(move)
        try:
            moves_shown(page, game.view().moves_played)
        except PlaywrightTimeout:
            said = page.locator("#message").text_content()
            pytest.fail(f"move {number + 1} of the line, {move}, did not land (the page says: {said})")


@pytest.mark.parametrize("name", some_slow("freecell", "pyramid"))
def test_a_game_played_with_the_mouse(server: Served, browser: Any, name: str) -> None:
    description = get(name)
    seed = seed_with_drag(name)
    context = browser.new_context(viewport=DESKTOP)
    page, errors, frames = open_deal(context, server.base, name, seed)
    game = PatienceGame.from_seed(description, seed)

    # every pile is drawn, each with its accessible name
    assert page.get_by_role("button", name=PILE_NAME).count() == sum(description.count(kind) for kind in Kind)

    # an illegal drop returns the card and says why (the engine's reason, its cards in words)
    move, reason = illegal(game)
    source = card_at(page, game, move.source)
    before = source.bounding_box()
    drag(page, source, target_of(page, game, move))
    said = page.locator("#message")
    first_words = re.sub(r"\b[A2-9TJQK][cdhs]\b", "", reason).split(":")[0].strip().split(" ")[-3:]
    until(page, lambda: " ".join(first_words) in said.text_content(), f"the reason {reason!r}")
    until(page, lambda: source.bounding_box() == before, "the card back where it was")  # it slides back
    moves_shown(page, 0)

    # a legal drag lands
    move = draggable(game)
    drag(page, card_at(page, game, move.source, move.count), target_of(page, game, move))
    moves_shown(page, 1)
    game.play(move)
    until(page, lambda: last_view(frames)["piles"][game.index(move.source)]["up"]
             == [str(card) for card in game.view().piles[game.index(move.source)].cards], "the move on the table")

    # the hint is a legal move of the position, and is shown on the table
    frames.clear()
    page.get_by_role("button", name="Hint").click()
    hint = until(page, lambda: next((frame for frame in frames if frame["type"] == "hint"), None), "the hint")
    assert hint["move"] is None or Move.parse(hint["move"]) in game.legal_moves()
    if hint["move"] is not None:
        page.wait_for_selector(".hinted")

    # a reload restores the position
    page.reload()
    page.wait_for_selector("html[data-drawn=yes]")
    moves_shown(page, 1)
    assert f"seed={seed}" in page.url
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("name", [*some_slow("spider-2-suits", "golf"), "forty-thieves"])
def test_tap_then_tap_on_a_touch_phone(server: Served, browser: Any, name: str) -> None:
    seed = seed_with_drag(name)
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page, errors, _ = open_deal(context, server.base, name, seed)
    game = PatienceGame.from_seed(get(name), seed)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
    rights = page.locator(".card, .slot").evaluate_all("els => els.map(el => el.getBoundingClientRect().right)")
    assert max(rights) <= PHONE["width"]  # every pile and card on the screen
    move = draggable(game)
    page.touchscreen.tap(*corner(page, card_at(page, game, move.source, move.count)))
    page.wait_for_selector(".card.selected")
    box = target_of(page, game, move).bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 12))
    moves_shown(page, 1)
    assert not errors, errors
    context.close()


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_game_opens_at_its_link_without_a_console_error(server: Served, browser: Any,
                                                               viewport: dict[str, int]) -> None:
    """Every game on a desktop and on a 390 px phone, where no game scrolls sideways."""
    phone = viewport is PHONE
    context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
    for name in names():
        page, errors, frames = open_game(context, server.base, f"/play/{name}")
        description = get(name)
        assert page.get_by_role("button", name=PILE_NAME).count() == sum(description.count(kind) for kind in Kind)
        # every face-up card a gesture takes has its name: a fanned pile's each, another pile's top
        layout = next(frame["table"]["layout"]["piles"] for frame in frames if frame["type"] == "table")
        fans = {pile["place"]: pile["fan"] != "none" and pile["kind"] != "waste" for pile in layout}
        takeable = sum(len(pile["up"]) if fans[pile["place"]] else min(1, len(pile["up"]))
                       for pile in last_view(frames)["piles"])
        assert page.locator(".card[aria-label]").count() == takeable, name
        assert page.title() == f"cardtable: {description.title}"
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], name
        rights = page.locator(".card, .slot").evaluate_all("els => els.map(el => el.getBoundingClientRect().right)")
        assert max(rights) <= viewport["width"], name
        assert not errors, (name, errors)
        page.close()
    context.close()


def test_the_chooser_finds_a_game_and_opens_it(server: Served, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(server.base + "/")
    page.get_by_label("Search").fill("two suits")
    assert page.locator("#games > li:visible").count() == 1
    page.get_by_role("link", name="Spider (two suits)").click()
    page.wait_for_selector("html[data-drawn=yes]")
    assert page.url.split("?")[0].endswith("/play/spider-2-suits")
    assert page.get_by_role("button", name=re.compile(r"^pile ")).count() == 10
    # Help gives the game's rules, read from its description
    page.get_by_role("button", name="Help").click()
    help_text = page.locator("#help").inner_text()
    for heading, text in rules_sections(get("spider-2-suits")):
        assert heading in help_text and text.replace("`", "") in help_text
    context.close()


def test_a_game_from_a_users_file_plays(tmp_path: Path, browser: Any) -> None:
    data = get("freecell").to_json()
    data.update(name="two-cell-freecell", title="FreeCell with two cells", description="FreeCell, two cells.")
    data["cells"]["count"] = 2
    data["options"] = {}
    path = tmp_path / "two-cells.json"
    path.write_text(json.dumps(data))
    description = Description.from_json(data)
    starting = serving(tmp_path, Served)
    start = next(starting)
    served = start("--game", str(path))
    try:
        context = browser.new_context(viewport=DESKTOP)
        page, errors, frames = open_game(context, served.base, "/")
        assert page.url.split("?")[0].endswith("/play/two-cell-freecell")
        assert page.get_by_role("button", name=re.compile(r"^cell ")).count() == 2
        seed = last_view(frames)["deal"]
        game = PatienceGame.from_seed(description, seed)
        move = draggable(game)
        drag(page, card_at(page, game, move.source, move.count), target_of(page, game, move))
        moves_shown(page, 1)
        # a game left for a new one after a move counts, lost, in this game's statistics
        page.get_by_role("button", name="New game").click()
        page.get_by_role("button", name="Deal", exact=True).click()
        moves_shown(page, 0)
        assert statistics(page)[:4] == ["FreeCell with two cells", "1", "0", "0%"]
        assert not errors, errors
        context.close()
    finally:
        next(starting, None)


#: The games pictured in the documentation (docs/web-NAME.png), each at a deal and after some moves.
PICTURED = {"freecell": "ms:11982", "spider-2-suits": "3", "pyramid": "5", "golf": "4", "canfield": "2",
            "tripeaks": "6"}


def play_along(base: str, context: Any, name: str, moves: list[Move]) -> None:
    """Play ``moves`` on the player's game, as another page of theirs would: each page of the player
    shows them."""
    import asyncio
    import concurrent.futures

    import aiohttp

    from cardtable.web.protocol import COOKIE

    cookie = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)

    async def play() -> None:
        headers = {"Cookie": f"{COOKIE}={cookie}", "Origin": base}
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{base}/play/{name}/ws",
                                                                          headers=headers) as ws:
            await ws.receive_json(timeout=10)
            await ws.receive_json(timeout=10)
            for move in moves:
                await ws.send_json({"type": "move", "move": str(move)})
                assert (await ws.receive_json(timeout=10))["type"] == "view"

    with concurrent.futures.ThreadPoolExecutor(1) as thread:  # Playwright's own loop runs in this thread
        thread.submit(asyncio.run, play()).result(timeout=60)


def greedy_moves(name: str, seed: str, count: int) -> list[Move]:
    """The greedy player's first ``count`` moves of ``name``'s deal ``seed`` (fewer when it stops)."""
    from cardtable.bots.patience import GreedyPlayer

    game, player, moves = PatienceGame.from_seed(get(name), seed), GreedyPlayer(seed=1), []
    while len(moves) < count and (move := player.choose(game.view())) is not None:
        game.play(move)
        moves.append(move)
    return moves


@pytest.mark.slow
@pytest.mark.parametrize(("viewport", "suffix"), [(DESKTOP, ""), (PHONE, "-phone")])
def test_pictures_of_six_games_with_every_card_on_the_screen(server: Served, browser: Any, tmp_path: Path,
                                                              viewport: dict[str, int], suffix: str) -> None:
    """Six games a few moves in: every card lies on the screen, none past its edges; the pictures go to
    ``$CARDTABLE_SCREENSHOTS`` (``docs`` renews the documentation's)."""
    from browser_helpers import screenshots

    phone = viewport is PHONE
    context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
    for name, seed in PICTURED.items():
        page, errors, frames = open_deal(context, server.base, name, seed)
        play_along(server.base, context, name, greedy_moves(name, seed, 12))
        until(page, lambda frames=frames: last_view(frames)["moves"] >= 1, "the moves on the page")
        at_rest(page)
        boxes = page.locator(".card").evaluate_all(
            "cards => cards.map(card => card.getBoundingClientRect().toJSON())")
        for box in boxes:
            assert box["left"] >= 0 and box["right"] <= viewport["width"] + 0.5, (name, box)
            assert box["top"] >= 0 and box["bottom"] <= viewport["height"], (name, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        if not phone or name == "spider-2-suits":
            page.screenshot(path=str(screenshots(tmp_path) / f"web-{name}{suffix}.png"))
        assert not errors, errors
        page.close()
    context.close()


@pytest.mark.parametrize("touch", [False, True], ids=["double-click", "double-tap"])
def test_a_double_click_or_a_double_tap_sends_a_card_home(server: Served, browser: Any, touch: bool) -> None:
    description = get("golf")
    seed, move = next((str(seed), move) for seed in range(100)
                      for move in PatienceGame.from_seed(description, seed).legal_moves()
                      if move.target is not None and move.target.kind is Kind.HOLE)
    context = (browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True) if touch
               else browser.new_context(viewport=DESKTOP))
    page, errors, frames = open_deal(context, server.base, "golf", seed)
    game = PatienceGame.from_seed(description, seed)
    card = game.pile(move.source)[-1]
    where = corner(page, card_at(page, game, move.source))
    if touch:
        page.touchscreen.tap(*where)
        page.touchscreen.tap(*where)
    else:
        page.mouse.dblclick(*where)
    moves_shown(page, 1)
    until(page, lambda: last_view(frames)["piles"][-1]["up"][-1] == str(card), "the card on the hole")
    assert not errors, errors
    context.close()


def test_the_keyboard_alone_plays_a_move(server: Served, browser: Any) -> None:
    seed = "ms:11982"
    game = PatienceGame.from_seed(get("freecell"), seed)
    context = browser.new_context(viewport=DESKTOP)
    page, errors, _ = open_deal(context, server.base, "freecell", seed)
    top = card_at(page, game, Place(Kind.TABLEAU, 0))
    top.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".card.selected")
    # the arrows walk up the pile's cards to the free cells above it (empty cells are stops)
    names = []
    for _ in range(len(game.pile(Place(Kind.TABLEAU, 0)))):
        page.keyboard.press("ArrowUp")
        names.append(page.evaluate("document.activeElement.getAttribute('aria-label')"))
    assert names[-1].startswith("cell a, empty"), names
    assert [name.split(", ")[1] for name in names[:-1]] == ["pile 1"] * (len(names) - 1)
    page.keyboard.press("Enter")
    moves_shown(page, 1)
    assert page.get_by_role("button", name=f"{game.pile(Place(Kind.TABLEAU, 0))[-1].name()}, cell a").count() == 1
    assert not errors, errors
    context.close()


def test_settings_offer_the_games_own_options_and_apply_them(server: Served, browser: Any) -> None:
    description = get("golf")
    context = browser.new_context(viewport=DESKTOP)
    page, errors, _ = open_game(context, server.base, "/play/golf")
    page.get_by_role("button", name="Settings").click()
    for option in description.options:
        assert not page.get_by_label(option.summary).is_checked()
    assert page.locator('#settings input[name="option"]').count() == len(description.options)
    wrap = next(option for option in description.options if option.name == "wrap")
    page.get_by_label(wrap.summary).check()
    page.locator("#options-apply").click()
    # the address then names the deal too, as soon as it comes (a wait for the bare address could miss it)
    page.wait_for_url(re.compile(r"/play/golf\?options=wrap(&seed=[0-9]+)?$"))
    page.wait_for_selector("html[data-drawn=yes]")
    page.get_by_role("button", name="Help").click()
    help_text = page.locator("#help").inner_text()
    for heading, text in rules_sections(description.with_options("wrap")):
        assert heading in help_text and text.replace("`", "") in help_text
    assert rules_sections(description.with_options("wrap")) != rules_sections(description)
    assert not errors, errors
    context.close()


def test_a_game_won_through_the_page_counts_in_its_statistics(server: Served, browser: Any) -> None:
    from cardtable.solver.patience import solve_game

    seed = "2"
    game = PatienceGame.from_seed(get("golf"), seed)
    line = solve_game(game.clone(), max_states=200_000).moves
    assert line and line[-1].target is not None and line[-1].target.kind is Kind.HOLE
    context = browser.new_context(viewport=DESKTOP)
    page, errors, _ = open_deal(context, server.base, "golf", seed)
    play_along(server.base, context, "golf", line[:-1])
    moves_shown(page, len(line) - 1)
    for move in line[:-1]:
        game.play(move)
    page.mouse.dblclick(*corner(page, card_at(page, game, line[-1].source)))  # the last card home, by hand
    page.wait_for_selector("#won:not([hidden])")
    assert under_won_box(page) == []
    page.get_by_role("button", name="Close").click()  # the box goes, and stays gone when the table is drawn again
    page.set_viewport_size(PHONE)
    at_rest(page)
    assert page.locator("#won").is_hidden()
    assert statistics(page)[:4] == ["Golf", "1", "1", "100%"]
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("pointer", ["finger", "pen"])
def test_a_drag_with_a_finger_or_a_pen_lands(server: Served, browser: Any, pointer: str) -> None:
    """Chromium's own input (through its DevTools protocol) drags a card with a finger on a touch phone
    and with a pen on a desktop: the page reads them as the pointer events of a real drag."""
    seed = seed_with_drag("freecell")
    touch = pointer == "finger"
    context = (browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True) if touch
               else browser.new_context(viewport=DESKTOP))
    page, errors, _ = open_deal(context, server.base, "freecell", seed)
    game = PatienceGame.from_seed(get("freecell"), seed)
    move = draggable(game)
    x, y = corner(page, card_at(page, game, move.source, move.count))
    box = target_of(page, game, move).bounding_box()
    to_x, to_y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 12)
    path = [(x + (to_x - x) * step / 10, y + (to_y - y) * step / 10) for step in range(1, 11)]
    devtools = context.new_cdp_session(page)
    if touch:
        devtools.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for px, py in path:
            devtools.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": px, "y": py}]})
        devtools.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    else:
        pen = {"button": "left", "pointerType": "pen"}
        devtools.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "clickCount": 1, **pen})
        for px, py in path:
            devtools.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": px, "y": py, "buttons": 1, **pen})
        devtools.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": to_x, "y": to_y, "clickCount": 1,
                                                   **pen})
    moves_shown(page, 1)
    game.play(move)
    assert move.target is not None
    assert page.get_by_role("button", name=re.compile(rf"^{re.escape(game.pile(move.target)[-1].name())}, ")).count()
    assert not errors, errors
    context.close()


def test_a_game_won_through_the_page_counts_in_the_games_statistics(server: Served, browser: Any) -> None:
    from cardtable.solver.patience import solve_game

    description = get("tripeaks")
    game = PatienceGame.from_seed(description, 2)
    line = solve_game(game, max_states=100_000)
    assert line.result == "won"  # a short line: TriPeaks' 28 cards to the hole, and deals
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")  # no move waits for a slide
    page, errors, frames = open_deal(context, server.base, "tripeaks", "2")
    assert statistics(page)[:4] == ["TriPeaks", "0", "0", "–"]  # none yet, read from the server
    page.keyboard.press("Escape")
    play_line(page, game, line.moves)  # the solver's line, through the page's controls
    until(page, lambda: last_view(frames)["won"], "the game won")
    row = statistics(page)
    assert row[:4] == ["TriPeaks", "1", "1", "100%"] and row[5] == str(len(line.moves)) and row[6:] == ["1", "1"], row
    assert page.locator("#stats-daily").text_content() == "No daily deal played yet."
    stats = next(frame for frame in reversed(frames) if frame["type"] == "stats")["stats"]
    assert (stats["played"], stats["won"], stats["fewest_moves"]) == (1, 1, len(line.moves))
    assert not errors, errors
    context.close()


def test_the_new_game_dialog_deals_a_graded_deal(server: Served, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page, errors, frames = open_game(context, server.base, "/play/tripeaks?seed=2")
    until(page, lambda: frames and last_view(frames)["deal"] == "2", "the deal the address names")
    page.get_by_role("button", name="New game").first.click()
    difficulty = page.get_by_label("Difficulty")
    until(page, lambda: difficulty.is_enabled(), "the server's word that TriPeaks' deals can be graded")
    difficulty.select_option("easy")
    page.locator('#deal input[name="number"]').fill("6")
    page.get_by_role("button", name="Deal", exact=True).click()
    until(page, lambda: page.locator("#table[data-finding]").count() or last_view(frames)["grade"], "the search")
    until(page, lambda: last_view(frames)["grade"] == "easy", "the graded deal")
    assert page.locator("#st-deal").text_content() == f"Deal {last_view(frames)['deal']} (easy)"
    assert not errors, errors
    context.close()


#: A deal of each of these games that the solver wins in a short line, and the order of search that finds
#: it (Golf and TriPeaks are won by the tests above).
WON: dict[str, tuple[str, Search]] = {
    "freecell": ("17", "best-first"), "spider-2-suits": ("73", "hybrid"), "pyramid": ("40", "hybrid"),
    "yukon": ("30", "best-first"), "canfield": ("21", "hybrid")}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(WON))
def test_a_game_won_through_the_page_counts_1_played_1_won(server: Served, browser: Any, tmp_path: Path,
                                                            name: str) -> None:
    """The solver's winning line played through the page as a player plays (mouse drags, taps, the stock,
    Auto-finish): the page shows the win, and the game's Statistics count it."""
    from browser_helpers import screenshots

    from cardtable.solver.patience import solve_game

    description = get(name)
    seed, search = WON[name]
    game = PatienceGame.from_seed(description, seed)
    line = solve_game(game, max_states=400_000, search=search)
    assert line.result == "won", line.reason
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")  # no move waits for a slide
    page, errors, frames = open_deal(context, server.base, name, seed)
    play_line(page, game, line.moves)
    page.wait_for_selector("#won:not([hidden])")
    assert last_view(frames)["won"]
    at_rest(page)
    assert under_won_box(page) == []
    page.screenshot(path=str(screenshots(tmp_path) / f"won-{name}.png"))
    # the empty stock's sign: ✕ only when no pass is left (Canfield's are unlimited)
    view = last_view(frames)
    stock = next((pile for pile in view["piles"] if pile["place"] == "S"), None)
    if stock is not None and not stock["down"]:
        spent = page.locator('.slot[data-place="S"]').evaluate("(el) => el.classList.contains('spent')")
        assert spent == (view["passesLeft"] == 0)
    page.set_viewport_size(PHONE)  # the box moves with the table drawn again, and still hides nothing
    at_rest(page)
    assert under_won_box(page) == []
    page.screenshot(path=str(screenshots(tmp_path) / f"won-{name}-phone.png"))
    page.set_viewport_size(DESKTOP)
    assert statistics(page)[:4] == [description.title, "1", "1", "100%"]
    assert not errors, errors
    context.close()


def test_the_review_dialog_draws_the_experts_chance_of_a_game(server: Served, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page, errors, frames = open_game(context, server.base, "/play/tripeaks?seed=4")
    until(page, lambda: frames and last_view(frames)["deal"] == "4", "the deal the address names")
    page.keyboard.press("v")
    until(page, lambda: page.locator("#review-text").text_content() == "Nothing to review yet: play a move first.",
          "the review's word that no move was played")
    page.get_by_role("button", name="Close").click()
    for played in (1, 2):
        page.locator('.card[data-place="S"]').last.click()  # the stock deals
        moves_shown(page, played)
    page.get_by_role("button", name="Review").first.click()
    until(page, lambda: any(frame["type"] == "review" for frame in frames), "the review")
    review = next(frame for frame in frames if frame["type"] == "review")["review"]
    assert len(review["positions"]) == 3 and review["peek"] is None
    page.wait_for_selector("#review-chart svg polyline")
    text = page.locator("#review-text").text_content()
    assert "2 moves: the expert's chance" in text and "Peek" not in text
    assert not errors, errors
    context.close()


@pytest.mark.slow
def test_the_new_game_dialog_says_why_pyramid_has_no_graded_deals(server: Served, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page, errors, _ = open_game(context, server.base, "/play/pyramid?seed=2")
    page.get_by_role("button", name="New game").first.click()
    note = page.locator("#grading-note")
    for _ in range(600):  # the server's probe of Pyramid's first 32 deals, all lost: seconds
        if note.text_content().startswith("No graded deals"):
            break
        page.wait_for_timeout(100)
    assert note.text_content().startswith("No graded deals: the search proves none of deals 0 to 31 of Pyramid")
    assert not page.get_by_label("Difficulty").is_visible()
    assert not errors, errors
    context.close()
