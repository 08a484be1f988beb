"""What the command line and the terminal game say of an error: what failed, in words, without
Python's ``[Errno N]`` and without the engine's integer-type ranges."""

from __future__ import annotations

import errno
import re

# The range of the engine's 32-bit fields, as its messages name it: a limit of the type, not
# of the game, so nothing a person at the terminal can act on.
_U32_RANGE = re.compile(r" ?\(action ids lie in 0\.\.4294967295\)| from 0 to 4294967295| in \[0, 4294967295\]")


def error_text(error: BaseException) -> str:
    """What is said of ``error``: for a failed system call, what failed and on which file;
    for any error, its text without the engine's 32-bit ranges."""
    if isinstance(error, OSError) and type(error).__str__ is OSError.__str__ and error.strerror:
        what = error.strerror
        if error.errno == errno.ENOENT:
            what = "no such file or directory"
        names = [n for n in (error.filename, error.filename2) if n is not None]
        text = f"{what}: {' -> '.join(map(str, names))}" if names else what
    else:
        text = str(error)
    return _U32_RANGE.sub("", text)
