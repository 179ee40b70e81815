"""One module per ``subdivision`` command; see ``scorer.cli``."""


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
