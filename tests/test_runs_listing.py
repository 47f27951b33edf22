"""``cardtable runs``: the listing's columns line up whatever kinds of run the store holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_helpers import run


def test_a_simulation_and_a_kings_corner_match_line_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "runs.sqlite")
    assert run(capsys, "simulate", "--games", "10", "--record", "0", "--workers", "1", "--no-progress",
               "--variant", "vegas3", "--store", store)[0] == 0
    assert run(capsys, "kings-corner", "match", "--players", "greedy,strategic,random", "--games", "4",
               "--workers", "1", "--quiet", "--store", store)[0] == 0
    code, out, _ = run(capsys, "runs", "--store", store)
    header, *rows = out.splitlines()
    assert code == 0 and header.split() == ["run", "created", "kind", "strategy", "variant", "played", "won",
                                            "net", "status"]
    expected = {  # each cell as a pattern: words start under their heading, figures end under theirs
        "kings-corner": {"kind": "kings-corner", "strategy": "greedy,strategic,random", "played": "4 hands",
                         "won": "-", "net": "-", "status": "finished"},
        "simulate": {"kind": "simulate", "strategy": "priority", "played": "10 games",
                     "won": r"\d+\.\d\d% won", "net": r"net -?\$\d+", "status": "finished"},
    }
    assert len(rows) == 2
    for line, cells in zip(rows, expected.values(), strict=True):
        for heading, pattern in cells.items():
            start = header.index(f" {heading}") + 1
            if heading in ("played", "won", "net"):
                end = start + len(heading)
                assert re.search(f"  ({pattern})$", line[:end]) and line[end:end + 2] == "  ", (heading, line)
            else:
                assert re.match(f"({pattern})( |$)", line[start:]) and line[start - 2:start] == "  ", (heading, line)
