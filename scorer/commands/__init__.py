"""One module per ``subdivision`` command; see ``scorer.cli``."""


def add_stash_options(parser) -> None:
    """``--threehouse`` / ``--standard``: the stash size; neither leaves it to the photo reader,
    which infers it from the play area and its parks (boards given as text: standard)."""
    parser.add_argument("--threehouse", action="store_true", default=None,
                        help="ThreeHouse stashes (3 trios a player)")
    parser.add_argument("--standard", dest="threehouse", action="store_false",
                        help="standard stashes (5 trios a player); default for board text, "
                        "inferred from the board for photos")
