"""Optional dependencies: imported when a feature needs them, with an error that says how to
install them when they are missing."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["import_optional"]


def import_optional(module: str, needed_by: str, package: str, install: str) -> Any:
    """Imports the optional dependency ``module``; if it is missing, an ``ImportError`` saying
    that ``needed_by`` needs ``package`` and how to install it (``install``)."""
    try:
        return importlib.import_module(module)
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            f"{needed_by} needs {package}, which is not installed; install it with {install}"
        ) from e
