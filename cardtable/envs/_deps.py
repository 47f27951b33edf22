"""The optional packages the environments stand on, with a clear error when missing."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["INSTALL_HINT", "require"]

#: What to run to get the environments' dependencies.
INSTALL_HINT = 'pip install "cardtable[rl]"'


def require(module: str) -> ModuleType:
    """Import ``module`` (``gymnasium`` or ``pettingzoo``), or raise
    :class:`ModuleNotFoundError` saying how to install it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is not None and error.name.split(".")[0] == module.split(".")[0]:
            raise ModuleNotFoundError(
                f"cardtable.envs needs {module.split('.')[0]}, which is not installed: {INSTALL_HINT}",
                name=error.name) from None
        raise
