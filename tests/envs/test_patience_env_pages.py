"""The environment's pages, one a family: written from the descriptions by
docs/gen_env_pages.py and never stale, each in the nav and the index."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from cardtable.envs.patience import ActionTable
from cardtable.patience import get, names

ROOT = Path(__file__).resolve().parent.parent.parent


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_env_pages", ROOT / "docs" / "gen_env_pages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


def test_the_pages_say_what_the_environment_builds() -> None:
    late = [str(path.relative_to(ROOT)) for path in GEN.stale()]
    assert not late, f"stale: {', '.join(late)}; run python docs/gen_env_pages.py"


def test_a_changed_description_makes_its_family_page_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    freecell = get("freecell")
    six_cells = freecell.from_json({**freecell.to_json(), "cells": {"count": 6}})
    monkeypatch.setattr(GEN, "get", lambda name: six_cells if name == "freecell" else get(name))
    text = GEN.page("freecell")
    assert text != (ROOT / "docs" / "envs" / "patience-freecell.md").read_text(encoding="utf-8")
    assert f"`Discrete({ActionTable(six_cells).size})`" in text and "`1>a .. 8>f`" in text


def test_every_game_is_on_its_familys_page_in_the_nav_and_the_index() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    index = (ROOT / "docs" / "envs" / "index.md").read_text(encoding="utf-8")
    for name in names():
        family = get(name).family
        page = (ROOT / "docs" / "envs" / f"patience-{family}.md").read_text(encoding="utf-8")
        assert f'`game="{name}"` | `Discrete({ActionTable(get(name)).size})`' in page
        assert f"envs/patience-{family}.md" in nav
        assert f"(patience-{family}.md)" in index and get(name).title in index
    for heading in ("## Action space", "## Observation space", "## Rewards", "## Episode end", "## Arguments",
                    "## Version history"):
        assert heading in (ROOT / "docs" / "envs" / "patience-golf.md").read_text(encoding="utf-8")
