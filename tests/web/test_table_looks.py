"""How the Klondike card table looks, in a real browser (Debian's Chromium
driven by Playwright, against ``cardtable serve``): a held card and the
keyboard's focus told apart without colour, the table laid out for a phone
held in one hand, and court cards drawn as figures.

Deal 7 (draw 1) starts with the 4♦, 6♦, J♠, 7♠, 3♣, 8♦ and A♣ face up on piles 1 to 7.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import at_rest, chromium, free_port, start_server, stop_servers, wait_for

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    """A card table dealing deal 7, draw 1, to a new player."""
    port = free_port()
    started: list[subprocess.Popen[str]] = [start_server(port, tmp_path / "data", "klondike", "--seed", "7")]
    yield f"http://127.0.0.1:{port}/"
    stop_servers(started)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def card(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


#: What tells a card's state apart, read from its computed style and its place on the page.
_LOOK = """(el) => {
  const style = getComputedStyle(el), box = el.getBoundingClientRect();
  return { outline: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth),
           outlineColour: style.outlineColor, shadow: style.boxShadow, top: box.top,
           focused: el === document.activeElement };
}"""

_RING = re.compile(r"(rgba?\([^)]*\)) 0px 0px 0px (\d+(?:\.\d+)?)px")


def ring(shadow: str) -> tuple[str, float] | None:
    """The solid ring a box-shadow draws round a card (its colour and width), if any."""
    found = _RING.search(shadow)
    return (found.group(1), float(found.group(2))) if found else None


def test_the_held_card_and_the_focused_card_look_different(url: str, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(url)
    six, four = card(page, "six of diamonds, pile 2"), card(page, "four of diamonds, pile 1")
    six.wait_for()
    resting = six.evaluate(_LOOK)
    assert resting["outline"] == "none" and ring(resting["shadow"]) is None
    # The keyboard alone: Tab onto the table, the arrows to the six, Enter picks it up, then ← moves the focus.
    six.focus()
    page.keyboard.press("Enter")
    wait_for(lambda: "Picked up six of diamonds" in page.locator("#message").inner_text(), "the six to be held")
    page.keyboard.press("ArrowLeft")
    assert four.evaluate(_LOOK)["focused"]
    at_rest(page)  # the held card is lifted
    held, focused = six.evaluate(_LOOK), four.evaluate(_LOOK)

    # The focus: a dashed ring, and the card stays where it lies.
    assert focused["outline"] == "dashed" and focused["outlineWidth"] >= 2
    assert ring(focused["shadow"]) is None
    # The held card: no focus ring, but a solid ring of its own, a deeper shadow, and lifted off its pile.
    assert held["outline"] == "none"
    held_ring = ring(held["shadow"])
    assert held_ring is not None and held_ring[1] >= 3
    assert resting["top"] - held["top"] >= 3, (resting["top"], held["top"])
    assert held["shadow"] != resting["shadow"]
    # And the colours differ too.
    assert held_ring[0] != focused["outlineColour"]

    # Back onto the held card: it shows both, the dashed focus round its solid ring.
    page.keyboard.press("ArrowRight")
    both = six.evaluate(_LOOK)
    assert both["focused"] and both["outline"] == "dashed" and ring(both["shadow"]) == held_ring
    # Esc puts it back: down again, no ring.
    page.keyboard.press("Escape")
    at_rest(page)
    back = six.evaluate(_LOOK)
    assert ring(back["shadow"]) is None and abs(back["top"] - resting["top"]) < 1
    context.close()


#: Every element of an open dialog, and every piece of its text, inside the dialog and inside its own box.
_CLIPPED = """(dialog) => {
  const outer = dialog.getBoundingClientRect(), bad = [];
  const inside = (r, box) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 &&
                             r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  for (const el of dialog.querySelectorAll("*")) {
    if (!el.getClientRects().length) continue;  // not shown (a hidden box, a header row kept for screen readers)
    const box = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1) bad.push(`${el.tagName} ${el.textContent.trim()}: scrolls sideways`);
    if (!inside(box, outer)) bad.push(`${el.tagName} ${el.textContent.trim()}: outside the dialog`);
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (!inside(r, outer) || !inside(r, box)) bad.push(`"${node.textContent.trim()}" cut off`);
      }
    }
  }
  return bad;
}"""

#: Each figure of the statistics with the name shown beside it (on a phone, a block a rule set).
_FIGURES = """(dialog) => [...dialog.querySelectorAll("#stats-rows td")].map((td) =>
  [getComputedStyle(td, "::before").content, td.textContent])"""


def test_the_table_is_laid_out_for_a_phone(url: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(url)
    page.locator("html[data-drawn]").wait_for(state="attached")

    # The toolbar: every button at least 44 px tall, all within the lower quarter of the screen (a thumb's reach).
    buttons = page.locator(".tools button")
    assert buttons.count() >= 10
    for box in (b.bounding_box() for b in buttons.all()):
        assert box["height"] >= 44, box
        assert box["y"] >= 0.75 * PHONE["height"] and box["y"] + box["height"] <= PHONE["height"], box
    assert page.evaluate("[...document.querySelectorAll('.tools button')]"
                         ".every((b) => b.scrollWidth <= b.clientWidth)"), "a button's label is cut off"

    # The cards take the width: the seven piles fit it without scrolling sideways, each card 50 px wide or more.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    piles = [page.locator(f'[data-slot="p{p}"]').bounding_box() for p in range(7)]
    assert piles[0]["x"] >= 0 and piles[6]["x"] + piles[6]["width"] <= PHONE["width"]
    assert all(p["width"] >= 50 for p in piles), [p["width"] for p in piles]
    ace = card(page, "ace of clubs, pile 7")
    assert ace.bounding_box()["width"] >= 50
    # The index a fanned card shows (its rank) is drawn at 12 px or more on the screen.
    sizes = page.evaluate("""() => [...document.querySelectorAll('.card[data-card]')].map((el) => {
        const shown = [...el.querySelectorAll('.index-rank')].filter((t) => t.getClientRects().length &&
                                                                      t.getBoundingClientRect().height > 0);
        const scale = el.querySelector('svg').getBoundingClientRect().width / 100;
        return Math.min(...shown.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
    })""")
    assert len(sizes) == 7 and min(sizes) >= 12, sizes

    # Statistics, before any game: "No games finished yet." whole, nothing cut off.
    page.locator('button[data-action="stats"]').tap()
    dialog = page.locator("#stats")
    wait_for(lambda: "No games finished yet." in dialog.inner_text(), "the statistics to be read")
    assert dialog.evaluate(_CLIPPED) == []
    page.locator("#stats button").tap()
    dialog.wait_for(state="hidden")

    # One move, then a new deal: a finished game, every figure of it (Streak and Best streak too) shown whole.
    page.locator('[data-slot="stock"]').tap()
    card(page, "nine of clubs, waste").wait_for()
    page.locator('button[data-action="choose"]').tap()
    page.get_by_role("button", name="Deal", exact=True).tap()
    wait_for(lambda: "Moves 0" in page.locator("#status").inner_text(), "the new deal")
    page.locator('button[data-action="stats"]').tap()
    wait_for(lambda: "draw1" in dialog.inner_text(), "the finished game in the statistics")
    assert dialog.evaluate(_CLIPPED) == []
    figures = dialog.evaluate(_FIGURES)
    assert [name for name, _ in figures] == ['"Games"', '"Won"', '"Win rate"', '"Best time"', '"Fewest moves"',
                                             '"Streak"', '"Best streak"']
    assert [value for _, value in figures][:2] == ["1", "0"]
    context.close()


#: Each court card's picture: its figure's markup, how many shapes draw it, whether its lower half is the
#: upper one turned round, the size of its largest letter, and whether it loads as an image on its own.
_COURTS = """async () => {
  const { cardSvg } = await import("/static/cards.js");
  const out = {};
  for (const suit of "cdhs") for (const rank of "JQK") {
    const svg = new DOMParser().parseFromString(cardSvg(rank + suit), "image/svg+xml").documentElement;
    const court = svg.querySelector(".face-full .court");
    const halves = court ? [...court.children].filter((g) => g.tagName === "g") : [];
    const image = new Image();
    const loaded = new Promise((resolve) => { image.onload = () => resolve(image.naturalWidth > 0);
                                               image.onerror = () => resolve(false); });
    image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(cardSvg(rank + suit));
    out[rank + suit] = {
      shapes: court ? court.querySelectorAll("path, circle, ellipse").length : 0,
      mirrored: halves.length === 2 && halves[0].innerHTML === halves[1].innerHTML &&
                halves[1].getAttribute("transform") === "rotate(180 50 70)",
      figure: court ? court.innerHTML.replace(/#[0-9a-f]{6}|[\u2660-\u2667]/g, "") : "",
      colours: court ? court.innerHTML.match(/#[0-9a-f]{6}/g).join() : "",
      letter: Math.max(...[...svg.querySelectorAll(".face-full text")]
        .filter((t) => "JQK".includes(t.textContent)).map((t) => Number(t.getAttribute("font-size")))),
      loads: await loaded,
    };
  }
  return out;
}"""


def test_court_cards_are_drawn_figures(url: str, browser: Any) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(url)
    card(page, "jack of spades, pile 3").wait_for()  # the accessible name is the card's, as before
    courts = page.evaluate(_COURTS)
    assert len(courts) == 12
    for name, court in courts.items():
        # A figure of many shapes, its lower half the upper one turned round, as on a real court card;
        # the only letters are the corner indices (no big letter in a frame), and it stands alone as an image.
        assert court["shapes"] >= 20 and court["mirrored"] and court["loads"], (name, court["shapes"])
        assert court["letter"] <= 19, (name, court["letter"])
    # A king, a queen and a jack are three drawings, the same in every suit but for its colours,
    # and a red suit's colours are not a black one's.
    for rank in "JQK":
        assert len({courts[rank + suit]["figure"] for suit in "cdhs"}) == 1
        assert courts[rank + "h"]["colours"] == courts[rank + "d"]["colours"] != courts[rank + "s"]["colours"]
    assert len({courts["K" + "s"]["figure"], courts["Q" + "s"]["figure"], courts["J" + "s"]["figure"]}) == 3
    page.close()
