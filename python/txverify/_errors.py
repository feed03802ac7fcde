"""The exceptions of txverify (raised by the compiled module too)."""

from typing import Optional


class Error(Exception):
    """Any failure of txverify: the base of the exceptions below.

    ``message`` is the one-line message the command line prints after
    ``error:``; ``file`` the file (or ``<string>``) it is about, ``line`` and
    ``column`` (1-based) where in it, when known.
    """

    def __init__(
        self,
        message: str,
        file: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column

    def __str__(self) -> str:
        # Placed as the command line places it: FILE:LINE:COLUMN: MESSAGE.
        if self.file is not None and self.line is not None:
            return f"{self.file}:{self.line}:{self.column}: {self.message}"
        return self.message


class InputError(Error):
    """An input cannot be read, parsed or used (the command line's exit 2)."""


class LimitError(Error):
    """A time, size or step limit ran out before an answer (exit 4).

    ``report`` holds the report written all the same, when there is one.
    """

    report: Optional[object] = None


class InternalError(Error):
    """Two independent checks disagree, or a panic was caught: a bug (exit 3)."""
