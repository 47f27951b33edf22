"""Screens both games' apps share."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["ScrollPage", "TextScreen", "show_page"]


class TextScreen(ModalScreen[None]):
    """A page of text over the table (the keys, the statistics), closed by
    any key or click."""

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Static { width: auto; max-width: 100%; height: auto; max-height: 100%;
                          border: round $accent; background: $panel; padding: 0 1; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss()


class ScrollPage(TextScreen):
    """A page of text that may be taller than the screen: the arrows, page
    up and down, home and end scroll it; any other key or a click closes it."""

    DEFAULT_CSS = """
    ScrollPage { align: center middle; }
    ScrollPage > VerticalScroll { width: 84; max-width: 100%; height: auto; max-height: 100%;
                                  border: round $accent; background: $panel; padding: 0 1; }
    ScrollPage Static { width: 100%; }
    """

    #: The keys that scroll, and how.
    SCROLLS: ClassVar[dict[str, str]] = {"up": "scroll_up", "down": "scroll_down", "pageup": "scroll_page_up",
                                         "pagedown": "scroll_page_down", "home": "scroll_home", "end": "scroll_end"}

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.text, markup=False)

    def on_key(self, event: events.Key) -> None:
        scroll = self.SCROLLS.get(event.key)
        if scroll is None:
            return  # the page's handler closes it
        event.stop()
        event.prevent_default()  # not the page's handler: it would close it
        getattr(self.query_one(VerticalScroll), scroll)(animate=False)


def show_page(app: App[None], name: str, text: str) -> None:
    """Show a page of ``text`` that never changes (the help), built once per
    app and kept: building a screen is most of the time it takes to open."""
    if not app.is_screen_installed(name):
        app.install_screen(TextScreen(text), name)
    app.push_screen(name)
