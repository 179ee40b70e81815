"""subdivision: score Looney Pyramids *Subdivision* boards, from text or from a photo."""

from scorer.board import (
    COLOURS,
    PARK,
    Board,
    NotationError,
    Park,
    Piece,
    Setup,
    Square,
    parse_board,
    setup_for,
)

__all__ = [
    "COLOURS",
    "PARK",
    "Board",
    "NotationError",
    "Park",
    "Piece",
    "Setup",
    "Square",
    "parse_board",
    "setup_for",
]
