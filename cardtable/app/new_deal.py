"""The patience app's new-game dialog: which deal to play next.

The field offers the next deal (enter deals it at once); any deal number
the game has may be typed: a whole number, or ``ms:N`` and ``pysol:N`` in
the games that number their deals as Microsoft's FreeCell or PySolFC do. A
number the game has not is said in the dialog, which stays open. The
dialog answers with the deal, or None when put away (esc).
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from cardtable.errors import CardtableError
from cardtable.patience.description import Description
from cardtable.patience.engine import PatienceGame

__all__ = ["NewDealScreen", "read_deal"]


def read_deal(text: str, description: Description) -> int | str:
    """The deal ``text`` names in ``description``'s game: a whole number,
    ``ms:N`` or ``pysol:N``; a :class:`CardtableError` says why it is none.

    >>> from cardtable.patience.registry import get
    >>> read_deal(" MS:11982 ", get("freecell")), read_deal("7", get("golf"))
    ('ms:11982', 7)
    """
    text = text.strip().lower().replace(" ", "")
    deal: int | str = int(text) if text.isdigit() else text
    if isinstance(deal, str):
        kind, _, number = deal.partition(":")
        if kind not in ("ms", "pysol") or not number.isdigit():
            raise CardtableError("a deal is a whole number, or ms:N or pysol:N in the games that have them")
    PatienceGame.from_seed(description, deal)  # a number the game has not raises here
    return deal


class NewDealScreen(ModalScreen[int | str | None]):
    """Choose the next deal of ``description``'s game; ``offered`` is in the field first."""

    DEFAULT_CSS = """
    NewDealScreen { align: center middle; }
    NewDealScreen > Vertical { width: 64; max-width: 100%; height: auto; border: round $accent;
                               background: $panel; padding: 0 1; }
    NewDealScreen #error { color: $error; width: 100%; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel", show=False)]

    def __init__(self, description: Description, offered: int | str) -> None:
        super().__init__()
        self.description = description
        self.offered = offered

    def compose(self) -> ComposeResult:
        kinds = ", ".join(f"{kind}:N" for kind in self.description.deals)
        numbers = f" (or {kinds})" if kinds else ""
        with Vertical():
            yield Label(f"New game of {self.description.title}: the deal number{numbers}.")
            yield Label("Enter deals it; esc goes back.")
            yield Input(str(self.offered), id="deal", max_length=40)
            yield Label("", id="error")

    @on(Input.Submitted, "#deal")
    def deal(self, event: Input.Submitted) -> None:
        try:
            deal = read_deal(event.value, self.description)
        except CardtableError as error:
            message = str(error)
            self.query_one("#error", Label).update(f"{message[:1].upper()}{message[1:]}.")
            return
        self.dismiss(deal)

    def action_cancel(self) -> None:
        self.dismiss(None)
