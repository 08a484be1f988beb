"""A game record as the API takes it: its JSON text, the record as a dict, or the path of a
file holding it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

Record = str | dict[str, Any] | os.PathLike[str]


def record_text(record: Record) -> str:
    """The JSON text of ``record`` (read from the file, for a path)."""
    if isinstance(record, os.PathLike):
        return Path(record).read_text(encoding="utf-8")
    if isinstance(record, dict):
        return json.dumps(record)
    return record
