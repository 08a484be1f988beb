"""What the command line and the terminal game say of an error: what failed, in words, without
Python's ``[Errno N]``."""

from __future__ import annotations

import errno


def error_text(error: BaseException) -> str:
    """What is said of ``error``: for a failed system call, what failed and on which file;
    for any other error, its text."""
    if isinstance(error, OSError) and type(error).__str__ is OSError.__str__ and error.strerror:
        what = error.strerror
        if error.errno == errno.ENOENT:
            what = "no such file or directory"
        names = [n for n in (error.filename, error.filename2) if n is not None]
        return f"{what}: {' -> '.join(map(str, names))}" if names else what
    return str(error)
