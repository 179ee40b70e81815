"""Reading the user's files with a size limit (no heavy imports: the text commands use it)."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

PHOTO_FORMATS = "JPEG, PNG, WebP, HEIC, TIFF or BMP"  # the photo formats read, as messages name them
PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".tif", ".tiff", ".bmp"}  # their file names' endings
MAX_PHOTO_BYTES = 25_000_000  # the largest photo file taken


STDIN_NAME = "standard input"  # how messages name the FILE argument "-"


def shown_name(name: str) -> str:
    """How messages name a FILE argument: ``STDIN_NAME`` for ``-``."""
    return STDIN_NAME if name == "-" else name


def json_name(name: str) -> str:
    """A file name for JSON output: bytes of it that are not UTF-8 (which Python holds as lone
    surrogates, and strict JSON readers refuse) shown as U+FFFD."""
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = name.encode("utf-8", "replace")
    return raw.decode("utf-8", "replace")


def too_large(name: str, max_bytes: int, size: int | None = None, allowed_for: str = "") -> str:
    """The message for a file over ``max_bytes``, its ``size`` given when known (standard
    input and pipes are read only one byte past the limit); ``allowed_for`` ends it ("for
    board text")."""
    end = f" allowed{' ' + allowed_for if allowed_for else ''}"
    if size is None:
        return f"{name}: file is more than the {max_bytes:,} bytes{end}"
    return f"{name}: file is {size:,} bytes, more than the {max_bytes:,}{end}"


def stdin_given_once(names: list[str], what: str) -> None:
    """A UserError when ``-`` (standard input) is among ``names`` more than once: it holds one ``what``."""
    from scorer.errors import UserError

    if names.count("-") > 1:
        raise UserError(f"standard input (-) holds one {what}: give - once")


def read_stdin(max_bytes: int) -> bytes:
    """Standard input's first ``max_bytes`` + 1 bytes; a UserError when there is none (closed)."""
    from scorer.errors import UserError

    if sys.stdin is None:
        raise UserError("standard input is closed: there is nothing to read")
    return sys.stdin.buffer.read(max_bytes + 1)


def read_at_most(path: str | Path, max_bytes: int) -> bytes:
    """The file's first ``max_bytes`` + 1 bytes (one more than allowed shows it is too long):
    never the whole of /dev/zero or an endless pipe, whose size ``stat()`` gives as 0."""
    with open(path, "rb") as file:
        return file.read(max_bytes + 1)


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: a regular file, or a new one, is written
    beside it under a temporary name and renamed over it, so a write that fails part way (a full
    disk) leaves no file cut short and an old one as it was; anything else (a device) is written
    straight. The OSError is raised again."""
    target = Path(os.path.realpath(path))  # through a link, as a plain write goes
    if target.exists() and not target.is_file():
        target.write_bytes(data)
        return
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        part.write_bytes(data)
        os.replace(part, target)
    except OSError:
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)
        raise
