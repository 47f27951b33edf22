"""The review in a real browser (Debian's Chromium through Playwright): the
Review button opens a dialog that fills a progress bar, then draws the
chart of the chance at each position as SVG and says the figures."""

from __future__ import annotations

from pathlib import Path

from browser_helpers import chromium, free_port, screenshots, start_server, stop_servers


def test_the_review_dialog_draws_the_chart(tmp_path: Path) -> None:
    port = free_port()
    process = start_server(port, tmp_path / "data", "--seed", "7")
    try:
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector('main[data-state="ready"]')
            page.get_by_role("button", name="Review").first.click()
            assert page.locator("#review-text").inner_text() == "Nothing to review yet: play a move first."
            page.locator("#review-close").click()
            for moves in (1, 2, 3):
                page.keyboard.press("d")
                page.wait_for_function(f"document.getElementById('st-moves').textContent.includes('{moves}')")
            page.get_by_role("button", name="Review").first.click()
            dialog = page.locator("#review")
            assert dialog.is_visible()
            page.wait_for_function("document.getElementById('review-text').textContent.includes('moves weighed')",
                                   timeout=120_000)
            text = page.locator("#review-text").inner_text()
            assert text.startswith("3 moves weighed: ") and "unfinished" in text
            points = page.locator("#review-chart polyline").get_attribute("points") or ""
            assert len(points.split()) == 4  # a point a position: the start and after each of 3 moves
            assert page.locator("#review-progress").evaluate("bar => bar.value === bar.max")
            page.screenshot(path=str(screenshots(tmp_path) / "web-review.png"))
            page.locator("#review-close").click()
            assert not dialog.is_visible()
    finally:
        stop_servers([process])
