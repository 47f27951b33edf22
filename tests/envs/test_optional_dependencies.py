"""The core install needs neither Gymnasium nor PettingZoo; without them the environments say how to get them."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "cardtable"
OPTIONAL = ("gymnasium", "pettingzoo")

#: Makes Gymnasium and PettingZoo impossible to import, as on a core install.
BLOCK = textwrap.dedent("""
    import sys
    from importlib.abc import MetaPathFinder

    class Missing(MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("gymnasium", "pettingzoo"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Missing())
""")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)


def _modules_outside_envs() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if not name.startswith("cardtable.envs") and not name.endswith("__main__"):
            names.append(name)
    return names


def test_no_module_outside_the_environments_imports_gymnasium_or_pettingzoo() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        if "envs" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(name.split(".")[0] in OPTIONAL for name in names), path


def test_every_other_module_imports_without_them() -> None:
    modules = _modules_outside_envs()
    assert "cardtable.klondike.game" in modules and len(modules) > 40
    code = BLOCK + textwrap.dedent(f"""
        import importlib
        for name in {modules!r}:
            importlib.import_module(name)
        loaded = [m for m in sys.modules if m.split(".")[0] in ("gymnasium", "pettingzoo")]
        assert not loaded, loaded
        print("ok")
    """)
    result = _python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_the_environments_say_how_to_install_what_they_need() -> None:
    result = _python(BLOCK + "import cardtable.envs\n")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "ModuleNotFoundError: cardtable.envs needs gymnasium, which is not installed: pip install \"cardtable[rl]\"")


def test_a_policy_strategy_without_them_is_a_one_line_error() -> None:
    code = BLOCK + textwrap.dedent("""
        from cardtable.cli import main
        sys.exit(main(["simulate", "--strategy", "somewhere:policy", "--games", "2", "--no-store"]))
    """)
    result = _python(code)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "policies need the environments" in lines[0]
    assert 'pip install "cardtable[rl]"' in lines[0]
    code = BLOCK + textwrap.dedent("""
        from cardtable.cli import main
        sys.exit(main(["kings-corner", "match", "--players", "somewhere:policy,greedy", "--games", "2"]))
    """)
    result = _python(code)
    assert result.returncode == 2 and 'pip install "cardtable[rl]"' in result.stderr
