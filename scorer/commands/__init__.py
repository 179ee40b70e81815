"""One module per ``subdivision`` command; see ``scorer.cli``."""

import argparse

from scorer.errors import UserError
from scorer.rules import parse_seats


def add_stash_options(parser, note: str | None = None) -> None:
    """``--threehouse`` / ``--standard``: the stash size; with neither it is inferred from the
    play area's size and its parks (``scorer.board.infer_stash``), for photos by the reader.
    ``note``: what the stash is for in this command, added to the help."""
    stash = parser.add_mutually_exclusive_group()
    stash.add_argument("--threehouse", action="store_true", default=None,
                       help="ThreeHouse stashes (3 trios a player)" + (f"; {note}" if note else ""))
    stash.add_argument("--standard", dest="threehouse", action="store_false",
                       help="standard stashes (5 trios a player); with neither option the stash is "
                       "inferred from the board's size and parks")


def colour_list(text: str) -> list[str]:
    """``"red,b,green"`` -> ``["red", "blue", "green"]``: 2 to 4 colour names or letters, each
    once (``scorer.rules.parse_seats``), for ``--seats`` and ``--colours``."""
    try:
        return parse_seats(text.split(","))
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_colours_option(parser, note: str | None = None) -> None:
    """``--colours``: the players' colours, for the photo reader to name the pieces among them."""
    parser.add_argument("--colours", type=colour_list, metavar="COLOURS",
                        help="the players' colours, as names or letters: white,purple or w,p (a photo's pieces "
                        "are then named among them)" + (f"; {note}" if note else ""))


def check_players_fit(players: int | None, colours: list[str] | None, option: str) -> None:
    """UserError when ``--players`` and the colours named by ``option`` disagree on how many play."""
    if colours and players and players != len(colours):
        raise UserError(f"--players {players} but {option} names {len(colours)}: {','.join(colours)}")


# What answers a reading's doubt on the command line, by its warning's kind
# (``scorer.reader.WARNING_KINDS``); the web page answers them with buttons.
STASH_OPTIONS_HINT = "the stash is set with --threehouse or --standard"
COLOURS_HINT = "tell the players' colours and the pieces are named among them: --colours NAME,NAME,..."
SEATS_HINT = "tell the players' colours, in their order of play, and the pieces are named among them: --seats NAME,NAME,..."


READING_HINTS = {"colour_check": COLOURS_HINT, "stash": STASH_OPTIONS_HINT}  # read's and score's


def with_hints(warnings: list[str], kinds: list[str], hints: dict[str, str]) -> list[str]:
    """A reading's warnings, each of a kind in ``hints`` ending with that hint (the option that
    answers it); warnings without a kind are left as they are."""
    kinds = list(kinds)[:len(warnings)] + [""] * (len(warnings) - len(kinds))
    return [f"{warning}; {hints[kind]}" if kind in hints else warning for warning, kind in zip(warnings, kinds)]
