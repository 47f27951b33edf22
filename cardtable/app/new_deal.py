"""The patience app's new-game dialog: which deal to play next.

The field offers the next deal (enter deals it at once); any deal number
the game has may be typed: a whole number, or ``ms:N`` and ``pysol:N`` in
the games that number their deals as Microsoft's FreeCell or PySolFC do. A
number the game has not is said in the dialog, which stays open. A
difficulty asks for the first deal of that grade from the number on
(:func:`cardtable.sim.grade.game_of_grade`), offered once the app knows the
game's deals can be graded (:func:`cardtable.sim.grade.why_ungradable`;
else the dialog says why not). The dialog answers with a :class:`DealChoice`,
or None when put away (esc).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Select

from cardtable.errors import CardtableError
from cardtable.patience.description import Description
from cardtable.patience.engine import PatienceGame
from cardtable.sim.grade import LEVELS

__all__ = ["CHECKING", "DealChoice", "NewDealScreen", "read_deal"]

#: The difficulty list's entry for "any deal".
_ANY = "any"
#: What the dialog is told while the app still checks whether the game's deals can be graded.
CHECKING = "checking"


@dataclass(frozen=True)
class DealChoice:
    """What the dialog asked for: the ``deal`` and the ``difficulty`` (None:
    this deal itself; else the first deal of that grade from it on)."""

    deal: int | str
    difficulty: str | None = None


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


class NewDealScreen(ModalScreen[DealChoice | None]):
    """Choose the next deal of ``description``'s game; ``offered`` is in the
    field first. ``grading`` is why its deals cannot be graded (None: they
    can; :data:`CHECKING`: not known yet, :meth:`set_grading` tells it later)."""

    DEFAULT_CSS = """
    NewDealScreen { align: center middle; }
    NewDealScreen > Vertical { width: 64; max-width: 100%; height: auto; border: round $accent;
                               background: $panel; padding: 0 1; }
    NewDealScreen #error { color: $error; width: 100%; height: auto; }
    NewDealScreen #grading { width: 100%; height: auto; }
    NewDealScreen #difficulty { width: 28; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel", show=False)]

    def __init__(self, description: Description, offered: int | str, grading: str | None = CHECKING) -> None:
        super().__init__()
        self.description = description
        self.offered = offered
        self.grading = grading

    def compose(self) -> ComposeResult:
        kinds = ", ".join(f"{kind}:N" for kind in self.description.deals)
        numbers = f" (or {kinds})" if kinds else ""
        with Vertical():
            yield Label(f"New game of {self.description.title}: the deal number{numbers}.")
            yield Label("Enter deals it; tab reaches the difficulty; esc goes back.")
            yield Input(str(self.offered), id="deal", max_length=40)
            yield Label("", id="error")
            yield Select([("Any difficulty", _ANY), *((f"{level.capitalize()} deals", level) for level in LEVELS)],
                         value=_ANY, allow_blank=False, id="difficulty")
            yield Label("", id="grading")

    def on_mount(self) -> None:
        self._show_grading()

    def set_grading(self, grading: str | None) -> None:
        """Offer the difficulties (``grading`` None), or say why not, or that it is being checked."""
        self.grading = grading
        if self.is_mounted:
            self._show_grading()

    def _show_grading(self) -> None:
        grading = self.grading
        select = self.query_one("#difficulty", Select)
        select.display = grading is None
        note = self.query_one("#grading", Label)
        if grading == CHECKING:
            note.update(f"Checking whether {self.description.title}'s deals can be graded...")
        elif grading is not None:
            note.update(f"No graded deals: {grading}.")
        else:
            note.update("A difficulty deals the first deal of that grade from the number on.")

    @on(Select.Changed, "#difficulty")
    def _back_to_the_number(self) -> None:
        """A difficulty chosen: back to the deal number, where enter deals."""
        self.query_one("#deal", Input).focus()

    @on(Input.Submitted, "#deal")
    def deal(self, event: Input.Submitted) -> None:
        error = self.query_one("#error", Label)
        try:
            deal = read_deal(event.value, self.description)
        except CardtableError as refused:
            message = str(refused)
            error.update(f"{message[:1].upper()}{message[1:]}.")
            return
        level = str(self.query_one("#difficulty", Select).value) if self.grading is None else _ANY
        if level != _ANY and not isinstance(deal, int):
            error.update(f"A graded deal is found from a whole number, not {deal}.")
            return
        self.dismiss(DealChoice(deal, None if level == _ANY else level))

    def action_cancel(self) -> None:
        self.dismiss(None)
