"""The Klondike app's new-game dialog: the variant, the deal number,
whether to deal only deals the solver has proven winnable, a difficulty
(the first deal of that grade from the deal number on,
:mod:`cardtable.sim.grade`), or today's daily deal (the Daily deal button,
:mod:`cardtable.solver.daily`).

Enter deals at once: the next deal in the same variant, as before. The
dialog answers with a :class:`NewGame`, or None when put away (esc).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select

from cardtable.cards import MAX_SEED
from cardtable.klondike.variant import PRESET_TITLES, PRESETS, Variant
from cardtable.sim.grade import LEVELS

__all__ = ["NewGame", "NewGameScreen"]

#: The variant list's entry for "the rules of the game now".
_SAME = "same"
#: The difficulty list's entry for "any deal".
_ANY = "any"


@dataclass(frozen=True)
class NewGame:
    """What the dialog asked for: the rules, the deal number, winnable deals
    only, today's daily deal (``daily``) and the difficulty (None: any)."""

    variant: Variant
    number: int
    winnable: bool
    daily: bool = False
    difficulty: str | None = None


class NewGameScreen(ModalScreen[NewGame | None]):
    """Choose the next game. ``variant`` is the game's now (offered first),
    ``number`` the deal number offered (the next one), ``winnable`` whether
    deals are winnable-only now."""

    DEFAULT_CSS = """
    NewGameScreen { align: center middle; }
    NewGameScreen > Vertical { width: 72; max-width: 100%; height: auto; border: round $accent;
                               background: $panel; padding: 0 1; }
    NewGameScreen Label { margin: 0; }
    NewGameScreen #error { color: $error; margin: 0; width: 100%; height: auto; }  /* a long one wraps */
    NewGameScreen Horizontal { height: auto; margin: 1 0 0 0; }
    NewGameScreen Button { margin: 0 2 0 0; }
    NewGameScreen #difficulty { width: 24; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel", show=False)]

    def __init__(self, variant: Variant, number: int, winnable: bool) -> None:
        super().__init__()
        self.variant = variant
        self.number = number
        self.winnable = winnable

    def _choices(self) -> list[tuple[str, str]]:
        return [(f"as now: {self.variant.title}", _SAME), *((PRESET_TITLES[name], name) for name in PRESETS)]

    def reset(self, variant: Variant, number: int, winnable: bool) -> None:
        """Offer these again (the app keeps one dialog and shows it anew: building it is slow)."""
        self.variant, self.number, self.winnable = variant, number, winnable
        if not self.is_mounted:
            return  # compose will show them
        variants = self.query_one("#variant", Select)
        variants.set_options(self._choices())
        variants.value = _SAME
        self.query_one("#number", Input).value = str(number)
        self.query_one("#winnable", Checkbox).value = winnable
        self.query_one("#difficulty", Select).value = _ANY
        self.query_one("#error", Label).update("")

    def compose(self) -> ComposeResult:
        choices = self._choices()
        with Vertical():
            yield Label("New game. Enter deals; tab moves between the fields; esc goes back.")
            yield Label("Rules")
            yield Select(choices, value=_SAME, allow_blank=False, id="variant")
            yield Label("Deal number")
            yield Input(str(self.number), id="number", restrict=r"[0-9]*", max_length=20)
            yield Label("", id="error")
            with Horizontal():
                yield Checkbox("Only proven winnable deals", self.winnable, id="winnable")
                yield Select([("Any difficulty", _ANY), *((f"{level.capitalize()} deals", level) for level in LEVELS)],
                             value=_ANY, allow_blank=False, id="difficulty")
            with Horizontal():
                for button in (Button("Deal", variant="primary", id="deal"), Button("Daily deal", id="daily"),
                               Button("Cancel", id="cancel")):
                    # No press animation: it would swallow an enter pressed as the dialog shows again.
                    button.active_effect_duration = 0
                    yield button

    def on_screen_resume(self) -> None:
        """Each time the dialog shows, enter deals."""
        self.query_one("#deal", Button).focus()

    def chosen(self, daily: bool = False) -> NewGame | None:
        """What the fields say (``daily``: today's daily deal in the chosen
        rules), or None (with the reason shown) when the deal number is not one."""
        text = self.query_one("#number", Input).value.strip()
        number = int(text) if text.isdigit() else -1
        if daily and not 0 <= number <= MAX_SEED:
            number = self.number  # the daily deal has no number: the field does not matter
        if not 0 <= number <= MAX_SEED:
            self.query_one("#error", Label).update(f"The deal number must be a whole number from 0 to {MAX_SEED}.")
            return None
        name = self.query_one("#variant", Select).value
        variant = self.variant if name == _SAME else PRESETS[str(name)]
        level = str(self.query_one("#difficulty", Select).value)
        return NewGame(variant, number, self.query_one("#winnable", Checkbox).value, daily=daily,
                       difficulty=None if daily or level == _ANY else level)

    @on(Button.Pressed, "#deal")
    @on(Input.Submitted, "#number")
    def action_deal(self) -> None:
        chosen = self.chosen()
        if chosen is not None:
            self.dismiss(chosen)

    @on(Button.Pressed, "#daily")
    def action_daily(self) -> None:
        chosen = self.chosen(daily=True)
        if chosen is not None:
            self.dismiss(chosen)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
