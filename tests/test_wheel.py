"""The wheel: ``python -m build`` makes an sdist and a wheel from a copy of
the checkout, the wheel holds the package data and the compiled solver core,
and, installed into a fresh virtual environment, it deals, solves and
simulates from a scratch folder without the checkout on the path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".ruff_cache", ".pytest_cache",
    ".hypothesis", "*.so", "site")


def _run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{command}: {done.stderr[-2000:]}"
    return done


def test_wheel_builds_installs_and_plays(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=_NOT_SOURCE)
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)])
    (wheel,) = dist.glob("cardtable-*.whl")
    (sdist,) = dist.glob("cardtable-*.tar.gz")
    assert sdist.stat().st_size > 0

    names = zipfile.ZipFile(wheel).namelist()
    for shipped in ("cardtable/py.typed", "cardtable/app/klondike.tcss", "cardtable/app/kings_corner.tcss",
                    "cardtable/app/klondike_help.md", "cardtable/app/kings_corner_help.md",
                    "cardtable/patience/presets/freecell.json"):
        assert shipped in names
    assert any(name.startswith("cardtable/solver/_ccore.") and name.endswith((".so", ".pyd")) for name in names)
    assert any(name.endswith("/licenses/LICENSE") for name in names)

    # A fresh environment holding only the wheel; its dependencies are reached
    # through a path file naming this interpreter's site-packages (added after
    # the environment's own, and without running that folder's path files, so
    # an editable install of the checkout there is never imported).
    # The checkout stays off the path throughout: with it on PYTHONPATH, pip
    # would take its metadata for an installed cardtable.
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env["CARDTABLE_DATA"] = str(tmp_path / "data")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], env=env)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index",
          "--ignore-installed", str(wheel)], env=env, cwd=tmp_path)
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     env=env).stdout.strip())
    dependencies = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_cardtable_test_dependencies.pth").write_text("\n".join(sorted(dependencies)) + "\n")

    scratch = tmp_path / "scratch"
    scratch.mkdir()

    def cardtable(*words: str) -> str:
        return _run([str(python), "-m", "cardtable", *words], cwd=scratch, env=env).stdout

    where = _run([str(python), "-c", "import cardtable; print(cardtable.__file__)"], cwd=scratch, env=env).stdout
    assert Path(where.strip()).is_relative_to(venv)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert wheel.name.startswith(f"cardtable-{version}-")
    assert cardtable("--version").strip() == f"cardtable {version}"
    assert len(cardtable("deal", "--seed", "1").split()) == 52
    assert cardtable("solve", "--seed", "1").startswith(("won", "unwinnable"))
    summary = cardtable("simulate", "--games", "100", "--no-store", "--record", "0").splitlines()
    assert summary[0].startswith("priority on seed-002")
    assert "games played       100" in summary
    assert any(line.startswith("net winnings") for line in summary)
    # --no-store kept nothing, and nothing was written beside the scratch folder's own files.
    assert not (tmp_path / "data").exists()
    assert list(scratch.iterdir()) == []
