"""One module per ``subdivision`` command; see ``scorer.cli``."""
