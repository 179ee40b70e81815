"""Errors a user can cause; the CLI prints their message on one line and exits with status 2."""

import sys


class UserError(Exception):
    """Bad input from the user (file, photo, option); ``str(err)`` is a one-line message."""


MESSAGE_CHARS = 300  # an error message quoting what the user sent is cut here


def one_line(message: object, limit: int = MESSAGE_CHARS) -> str:
    """``message`` on one line and at most ``limit`` characters: a message that quotes a
    5 MB option value or a multi-line token must not repeat it."""
    text = " ".join(str(message).split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def print_error(message: object) -> None:
    """The CLI's one line on stderr for a user's mistake."""
    print(f"subdivision: error: {one_line(message)}", file=sys.stderr)
