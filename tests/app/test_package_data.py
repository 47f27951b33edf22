"""The files the apps read besides their code (stylesheets, help pages) are
in the package and are shipped by a non-editable install: each one the code
names exists, and ``[tool.setuptools.package-data]`` in ``pyproject.toml``
takes every file of ``cardtable/app`` that is not Python."""

from __future__ import annotations

import ast
import fnmatch
import tomllib
from importlib import resources
from pathlib import Path

import cardtable.app

APP_FOLDER = Path(cardtable.app.__file__).parent
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def named_files() -> set[str]:
    """The files ``cardtable/app``'s modules name: each ``CSS_PATH`` and each
    ``resources.files(...).joinpath(name)``."""
    names: set[str] = set()
    for module in APP_FOLDER.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and any(
                    isinstance(target, ast.Name) and target.id == "CSS_PATH" for target in node.targets):
                names.add(str(node.value.value))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "joinpath" and node.args and isinstance(node.args[0], ast.Constant):
                names.add(str(node.args[0].value))
    return names


def shipped(path_in_package: str) -> bool:
    """Whether a file of the ``cardtable`` package (path relative to it) matches its package data."""
    patterns = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["cardtable"]
    return any(fnmatch.fnmatch(path_in_package, pattern) for pattern in patterns)


def test_every_file_the_apps_read_is_in_the_package_and_shipped() -> None:
    names = named_files()
    assert {"klondike.tcss", "klondike_help.md"} <= names
    for name in names:
        assert resources.files("cardtable.app").joinpath(name).is_file(), f"{name} is not in cardtable/app"
        assert shipped(f"app/{name}"), f"{name} is not in [tool.setuptools.package-data]"


def test_every_file_of_the_app_folder_that_is_not_code_is_shipped() -> None:
    data = [path.name for path in APP_FOLDER.iterdir()
            if path.is_file() and path.suffix not in (".py", ".pyc")]
    assert data
    assert [name for name in data if not shipped(f"app/{name}")] == []
