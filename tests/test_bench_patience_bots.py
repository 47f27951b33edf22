"""benchmarks/patience_bots.py's checkpoint: a row names the expert's budget, revision and commit,
and a row is reused only at the same budget and revision."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from cardtable.bots.patience import ExpertPlayer


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_an_expert_row_is_reused_only_at_the_same_revision(load_benchmark: Callable[[str], ModuleType],
                                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    bots = load_benchmark("patience_bots")
    checkpoint = tmp_path / "expert.jsonl"
    run = ["--players", "expert", "--deals", "2", "--samples", "1", "--max-states", "50", "--workers", "1",
           "--games", "golf", "--checkpoint", str(checkpoint), "--json"]
    assert bots.main(run) == 0
    [row] = _rows(checkpoint)
    assert row["revision"] == ExpertPlayer.revision and row["samples"] == 1 and row["max_states"] == 50
    assert isinstance(row["commit"], str) and row["commit"]
    capsys.readouterr()
    assert bots.main(run) == 0  # the same settings: nothing played again
    assert len(_rows(checkpoint)) == 1
    assert json.loads(capsys.readouterr().out)["games"][0]["expert"]["deals"] == 2
    # another revision of the expert: its row is not counted, and the deals are played again
    monkeypatch.setattr(ExpertPlayer, "revision", ExpertPlayer.revision + 1)
    assert bots.main([*run, "--table"]) == 0
    assert json.loads(capsys.readouterr().out)["games"][0]["expert"]["deals"] == 0
    assert bots.main(run) == 0
    assert [r["revision"] for r in _rows(checkpoint)] == [row["revision"], row["revision"] + 1]  # type: ignore[operator]
