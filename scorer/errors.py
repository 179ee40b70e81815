"""Errors a user can cause; the CLI prints their message on one line and exits with status 2."""

import sys
import unicodedata


class UserError(Exception):
    """Bad input from the user (file, photo, option); ``str(err)`` is a one-line message."""


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")  # embeddings, overrides, isolates
MESSAGE_CHARS = 300  # an error message quoting what the user sent is cut here


def one_line(message: object, limit: int = MESSAGE_CHARS) -> str:
    """``message`` on one line and at most ``limit`` characters, its control characters and bidi
    overrides escaped: a message that quotes a 5 MB option value or a multi-line token must not
    repeat it. The middle goes, so that both the file it names and the advice at its end stay."""
    text = " ".join(str(message).split())
    # a control character in what the user sent (an escape in a file name) or a bidi override or isolate
    # shown as its code, not acted on by the terminal (a zero-width joiner in an emoji, a right-to-left mark, kept)
    text = "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) == "Cc" or c in BIDI_CONTROLS else c for c in text)
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "\u2026" + text[len(text) - (limit - 1 - head):]


def print_error(message: object) -> None:
    """The CLI's one line on stderr for a user's mistake."""
    to_stderr(f"subdivision: error: {one_line(message)}")


def to_stderr(line: str) -> None:
    """``line`` on stderr; nowhere where stderr is closed (Python then sets it to None, and
    print would write to stdout, into a JSON stream)."""
    if sys.stderr is not None:
        print(line, file=sys.stderr)
