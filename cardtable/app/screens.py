"""Screens both games' apps share."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["TextScreen", "show_page"]


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


def show_page(app: App[None], name: str, text: str) -> None:
    """Show a page of ``text`` that never changes (the help), built once per
    app and kept: building a screen is most of the time it takes to open."""
    if not app.is_screen_installed(name):
        app.install_screen(TextScreen(text), name)
    app.push_screen(name)
