"""The documentation site: it builds with every warning an error, its links
resolve, its generated pages say what the code says, and the examples its
pages show run and print what they show."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: Pages whose ``console`` blocks, titled files and ``pycon`` blocks are run.
EXAMPLE_PAGES = ["notations.md", "klondike.md"]

_FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
_TITLE = re.compile(r'title="([^"]+)"')


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env["CARDTABLE_DATA"] = str(tmp_path / "data")
    env["NO_MKDOCS_2_WARNING"] = "1"
    env.pop("COLUMNS", None)
    return env


#: The modules of the extras other than ``docs`` (``rl``, ``cluster``, ``bench``), by the name they import as.
_IMPORT_NAMES = {"open_spiel": "pyspiel"}


def _other_extras_modules() -> list[str]:
    """What the extras besides ``docs`` install, as module names."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = set()
    for extra in ("rl", "cluster", "bench"):
        for requirement in extras[extra]:
            name = re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].replace("-", "_")
            names.add(_IMPORT_NAMES.get(name, name))
            names.update(re.findall(r"\[(\w+)\]", requirement))  # dask[distributed]: distributed
    return sorted(names)


def _without_other_extras(tmp_path: Path, env: dict[str, str]) -> dict[str, str]:
    """``env`` in which the modules of the other extras cannot be imported, as after
    ``pip install -e '.[docs]'`` alone."""
    blocked = tmp_path / "not-installed"
    blocked.mkdir()
    for name in _other_extras_modules():
        message = f"No module named {name!r}"
        (blocked / f"{name}.py").write_text(f"raise ModuleNotFoundError({message!r}, name={name!r})\n")
    env["PYTHONPATH"] = os.pathsep.join((str(blocked), env["PYTHONPATH"]))
    return env


def test_the_extras_besides_docs_are_blocked(tmp_path: Path) -> None:
    assert {"gymnasium", "pettingzoo", "dask", "distributed"} <= set(_other_extras_modules())
    env = _without_other_extras(tmp_path, _env(tmp_path))
    done = subprocess.run([sys.executable, "-c", "import gymnasium"], env=env, capture_output=True, text=True)
    assert done.stderr.splitlines()[-1] == "ModuleNotFoundError: No module named 'gymnasium'"


def test_site_builds_strictly(tmp_path: Path) -> None:
    """The site builds with what the ``docs`` extra installs (the README's
    ``pip install -e '.[docs]'``): the other extras are not importable."""
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, env=_without_other_extras(tmp_path, _env(tmp_path)), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "WARNING" not in done.stderr
    # The command-line reference holds every command, nested ones included.
    reference = (site / "cli" / "index.html").read_text()
    for words in ("cardtable deal", "cardtable study winnability", "cardtable kings-corner match", "--max-states"):
        assert words in reference
    # The environments' pages are their docstrings, example and all.
    klondike_env = (site / "envs" / "klondike" / "index.html").read_text()
    assert "OBSERVATION_LAYOUT" in klondike_env and "stall_limit" in klondike_env
    # The app's help pages are included, not copied.
    playing = (site / "playing" / "index.html").read_text()
    assert "ctrl+s" in playing and "pick up the waste card" in playing


def test_strict_build_fails_on_a_broken_link(tmp_path: Path) -> None:
    """The validation settings make a link to a missing page or anchor fail a strict build."""
    config = (ROOT / "mkdocs.yml").read_text()
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[gone](missing.md) and [nowhere](#no-such-anchor)\n")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nvalidation:\n" + config.split("validation:\n", 1)[1].split("\n\n", 1)[0] + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "missing.md" in done.stderr and "no-such-anchor" in done.stderr


def _run_console(block: str, cwd: Path, env: dict[str, str]) -> None:
    commands: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            commands[-1][1].append(line)
    for command, shown in commands:
        words = shlex.split(command)
        assert words[0] == "cardtable", command
        done = subprocess.run([sys.executable, "-m", "cardtable", *words[1:]],
                              cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        printed = [line.rstrip() for line in (done.stdout + done.stderr).splitlines()]
        assert printed == [line.rstrip() for line in shown], command


@pytest.mark.parametrize("page", EXAMPLE_PAGES)
def test_page_examples_run_as_shown(page: str, tmp_path: Path) -> None:
    text = (DOCS / page).read_text()
    env = _env(tmp_path)
    ran = 0
    for language, info, body in _FENCE.findall(text):
        title = _TITLE.search(info)
        if title:
            (tmp_path / title.group(1)).write_text(body)
        elif language == "console":
            _run_console(body, tmp_path, env)
            ran += 1
        elif language == "pycon":
            parser = doctest.DocTestParser()
            test = parser.get_doctest(body, {}, f"{page} example", page, 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            runner.run(test)
            assert runner.failures == 0, f"{page}: a Python example printed something else"
            ran += 1
    assert ran > 0


def test_readme_links_reach_files() -> None:
    """The README is the entry to the site: each of its links into the checkout names a file there."""
    readme = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [target for target in targets if "://" not in target]
    assert "docs/index.md" in local and "LICENSE" in local
    missing = [target for target in local if not (ROOT / target).is_file()]
    assert missing == []
