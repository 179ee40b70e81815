"""The ``subdivision`` command line (also ``python -m scorer``).

Each command lives in its own module, which exposes ``add_parser(subparsers)``: it adds its
sub-parser and sets ``func`` (``args -> exit status``) as the parser's default.
Exit status: 0 all well, 1 ``check`` found violations, 2 bad input (one line on stderr).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import logging
import os
import sys

from scorer.board import NotationError
from scorer.errors import UserError, one_line, print_error

COMMAND_MODULES = (
    "scorer.commands.rules",
    "scorer.commands.serve",
    "scorer.commands.read",
    "scorer.commands.studio",
)


class OneLineParser(argparse.ArgumentParser):
    """argparse, with a usage mistake told in one line (the usage is one ``--help`` away);
    each command's sub-parser is one too."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def _installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("subdivision")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="subdivision",
        description="Score and check Subdivision boards, from board text or from a photo.",
    )
    parser.add_argument("--version", action="version", version=f"subdivision {_installed_version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_parser(subparsers)
    parser.command_parsers = subparsers.choices
    return parser


def parse_command_line(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """``parser.parse_args``, but an argument no command takes is blamed on the command given,
    whose ``--help`` lists what it does take."""
    args, extras = parser.parse_known_args(argv)
    if extras:
        parser.command_parsers[args.command].error(f"unrecognized arguments: {' '.join(extras)}")
    return args


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parse_command_line(parser, argv)
    if sys.stdout is None and args.command not in QUIET_COMMANDS:  # started with its standard output closed
        print_error("cannot write the output: standard output is closed")
        return 2
    # a decoder's own log lines (Pillow's, on a damaged TIFF) are not the command's: its one-line error says it
    pil_log = logging.getLogger("PIL")
    if not any(isinstance(handler, logging.NullHandler) for handler in pil_log.handlers):
        pil_log.addHandler(logging.NullHandler())
    if getattr(sys.stdout, "errors", None) == "strict":  # a name the output's encoding cannot write is escaped,
        sys.stdout.reconfigure(errors="backslashreplace")  # not fatal (a surrogateescape locale keeps its bytes)
    try:
        return int(args.func(args) or 0)
    except (UserError, NotationError) as err:
        print_error(err)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        _drop_stdout()
        return 141
    except OSError as err:
        if err.errno not in OUTPUT_ERRNOS:
            raise
        _drop_stdout()  # what could not be written is not tried again at exit
        print_error(f"cannot write the output: {err.strerror}")
        return 2


QUIET_COMMANDS = {"serve", "studio"}  # their work is not their standard output: they run with it closed
OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}  # the output's disk is full or failing


def _drop_stdout() -> None:
    if sys.stdout is not None:  # (a command that runs with it closed has none to drop)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
