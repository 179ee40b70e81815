"""The rules of Subdivision as pure functions: placement, stashes, turns, passes, game end.

Placement (the rules' *Placement* section): a player places one pyramid from their stash on
an empty square that is not a park, where

- a 3-pip may not be Near a 3-pip of its own colour, and
- a 1-pip must be Near a 1-pip or a 3-pip of another colour.

A player with no legal move passes; the game ends when the board is full or every player
passes in turn. A stash holds 5 trios (5 pyramids of each size) or, for ThreeHouse, 3.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from scorer.board import COLOURS, PARK, PIPS, Board, Piece, Square, setup_for

STANDARD_TRIOS = 5
THREEHOUSE_TRIOS = 3
DEFAULT_COLOURS = ("red", "blue", "green", "yellow")

Stash = dict[int, int]  # pips -> pyramids of that size still in hand


def full_stash(trios: int = STANDARD_TRIOS) -> Stash:
    """A fresh stash: ``trios`` pyramids of each size."""
    return {pips: trios for pips in PIPS}


def placed_counts(board: Board, colour: str) -> Stash:
    """How many pyramids of each size ``colour`` has on the board."""
    counts = {pips: 0 for pips in PIPS}
    for _, piece in board.pieces():
        if piece.colour == colour:
            counts[piece.pips] += 1
    return counts


def remaining_stash(board: Board, colour: str, trios: int = STANDARD_TRIOS) -> Stash:
    """What ``colour`` still holds: a full stash less its pieces on the board (never below 0)."""
    placed = placed_counts(board, colour)
    return {pips: max(0, trios - placed[pips]) for pips in PIPS}


def _stash_count(stash: Mapping, pips: int) -> int:
    """Look up a stash keyed by int pips or by their string (as in JSON)."""
    if pips in stash:
        return int(stash[pips])
    return int(stash.get(str(pips), 0))


# --- placement ---------------------------------------------------------------------------

RULE_OCCUPIED = "occupied"
RULE_PARK = "park"
RULE_OFF_BOARD = "off_board"
RULE_THREE_NEAR_THREE = "three_near_three"
RULE_ONE_UNSUPPORTED = "one_unsupported"
RULE_NOT_IN_STASH = "not_in_stash"


def placement_problem(
    board: Board, piece: Piece, square: Square | str, stash: Mapping | None = None
) -> tuple[str, str] | None:
    """``(rule, message)`` saying why placing ``piece`` on ``square`` is illegal, or None.

    ``stash`` is what the piece's owner still holds (pips -> count); None means a standard
    5-trio stash less the owner's pieces already on the board.
    """
    if isinstance(square, str):
        square = Square.parse(square)
    if not board.contains(square):
        return RULE_OFF_BOARD, f"{square.name} is off this {board.cols}x{board.rows} board"
    here = board[square]
    if here is PARK:
        return RULE_PARK, f"{square.name} is a park"
    if here is not None:
        return RULE_OCCUPIED, f"{square.name} already holds {here.symbol}"
    if stash is None:
        stash = remaining_stash(board, piece.colour)
    if _stash_count(stash, piece.pips) <= 0:
        return RULE_NOT_IN_STASH, f"{piece.colour} has no {piece.pips}-pip left"
    if piece.pips == 3:
        for other in board.near(square):
            near = board[other]
            if isinstance(near, Piece) and near.pips == 3 and near.colour == piece.colour:
                return (
                    RULE_THREE_NEAR_THREE,
                    f"a {piece.colour} 3-pip on {square.name} would be Near the {piece.colour} 3-pip on {other.name}",
                )
    elif piece.pips == 1 and not _has_support(board, square, piece.colour):
        return (
            RULE_ONE_UNSUPPORTED,
            f"a {piece.colour} 1-pip on {square.name} needs a 1-pip or 3-pip of another colour Near it",
        )
    return None


def _has_support(board: Board, square: Square, colour: str) -> bool:
    """Whether a 1-pip or 3-pip of a colour other than ``colour`` is Near ``square``."""
    for other in board.near(square):
        near = board[other]
        if isinstance(near, Piece) and near.pips != 2 and near.colour != colour:
            return True
    return False


def move_violation(board: Board, piece: Piece, square: Square | str, stash: Mapping | None = None) -> str | None:
    """A one-line reason why placing ``piece`` on ``square`` is illegal, or None if it is legal.

    ``stash``: what the owner still holds (pips -> count); None means a standard stash less
    the owner's pieces on the board.
    """
    problem = placement_problem(board, piece, square, stash)
    return None if problem is None else problem[1]


def legal_moves(board: Board, colour: str, pips: int, stash: Mapping | None = None) -> list[Square]:
    """Every square where ``colour`` may place a ``pips`` pyramid now, in square order."""
    piece = Piece(colour, pips)
    if stash is None:
        stash = remaining_stash(board, colour)
    if _stash_count(stash, pips) <= 0:
        return []
    return [sq for sq in board.empty_squares() if placement_problem(board, piece, sq, stash) is None]


def all_legal_moves(board: Board, colour: str, stash: Mapping | None = None) -> dict[int, list[Square]]:
    """``{pips: squares}`` for each size, for ``colour``."""
    if stash is None:
        stash = remaining_stash(board, colour)
    return {pips: legal_moves(board, colour, pips, stash) for pips in PIPS}


def has_legal_move(board: Board, colour: str, stash: Mapping | None = None) -> bool:
    """Whether ``colour`` can place anything; a player who cannot must pass."""
    return any(all_legal_moves(board, colour, stash).values())


# --- default parks and random play -------------------------------------------------------

def default_parks(players: int, threehouse: bool = False) -> list[Square]:
    """Park squares for a setup, laid out symmetrically.

    Standard stash: the corners plus C3 and D4 for two players (Abstract Play's default), the
    four corners for three or four. ThreeHouse (the rules leave the pattern to the players):
    5x5 for two, corners + C1, C3, C5 (7 parks, mirror-symmetric both ways); 6x6 for three,
    corners + the centre 2x2 + C6 (9 parks; 9 cannot be placed with full symmetry on 6x6);
    6x6 for four, none.
    """
    setup = setup_for(players, threehouse)
    n = setup.size
    corners = [Square(0, 0), Square(n - 1, 0), Square(0, n - 1), Square(n - 1, n - 1)]
    if not threehouse:
        extra = ["C3", "D4"] if players == 2 else []
    elif players == 2:
        extra = ["C1", "C3", "C5"]
    elif players == 3:
        extra = ["C3", "C4", "D3", "D4", "C6"]
    else:
        corners, extra = [], []
    parks = sorted(set(corners) | {Square.parse(name) for name in extra})
    assert len(parks) == setup.parks, (players, threehouse, parks)
    return parks


def _player_colours(players: int | Sequence[str]) -> list[str]:
    if isinstance(players, int):
        if not 1 <= players <= len(COLOURS):
            raise ValueError(f"players must be 1..{len(COLOURS)}, not {players}")
        colours = list(DEFAULT_COLOURS) + [c for c in COLOURS if c not in DEFAULT_COLOURS]
        return colours[:players]
    colours = list(players)
    unknown = [c for c in colours if c not in COLOURS]
    if unknown or len(set(colours)) != len(colours) or not colours:
        raise ValueError(f"players must be distinct colour names from {', '.join(COLOURS)}: {colours}")
    return colours


@dataclass
class GameRecord:
    """A game played out: the final board and each turn as (colour, piece or None, square or None)."""

    board: Board
    colours: list[str]
    trios: int
    turns: list[tuple[str, Piece | None, Square | None]] = field(default_factory=list)
    finished: bool = False

    @property
    def placements(self) -> list[tuple[Piece, Square]]:
        return [(piece, sq) for _, piece, sq in self.turns if piece is not None]


def play_random_game(
    rng: random.Random,
    players: int | Sequence[str],
    threehouse: bool = False,
    parks: Iterable[Square | str] | None = None,
    moves: int | None = None,
    board: Board | None = None,
) -> GameRecord:
    """Random legal play; see ``random_game``. Returns the board and the turns taken."""
    colours = _player_colours(players)
    trios = THREEHOUSE_TRIOS if threehouse else STANDARD_TRIOS
    if board is None:
        if isinstance(players, int) or 2 <= len(colours) <= 4:
            setup = setup_for(len(colours), threehouse)
            board = Board(setup.size, setup.size)
            if parks is None:
                parks = default_parks(len(colours), threehouse)
        else:
            raise ValueError("give a board for games of other than 2-4 players")
    else:
        board = board.copy()
    for park in parks or ():
        board[park] = PARK
    stashes = {c: remaining_stash(board, c, trios) for c in colours}
    record = GameRecord(board, colours, trios)
    passes_in_a_row = 0
    placed = 0
    turn = 0
    while (moves is None or placed < moves) and passes_in_a_row < len(colours):
        colour = colours[turn % len(colours)]
        turn += 1
        options = {p: sq for p, sq in all_legal_moves(board, colour, stashes[colour]).items() if sq}
        if not options:
            record.turns.append((colour, None, None))
            passes_in_a_row += 1
            continue
        passes_in_a_row = 0
        pips = rng.choice(sorted(options))
        square = rng.choice(options[pips])
        piece = Piece(colour, pips)
        board[square] = piece
        stashes[colour][pips] -= 1
        record.turns.append((colour, piece, square))
        placed += 1
    record.finished = passes_in_a_row >= len(colours) or not any(
        has_legal_move(board, c, stashes[c]) for c in colours
    )
    return record


def random_game(
    rng: random.Random,
    players: int | Sequence[str],
    threehouse: bool = False,
    parks: Iterable[Square | str] | None = None,
    moves: int | None = None,
) -> Board:
    """A position reached by random legal play.

    ``players``: a count (colours red, blue, green, yellow in seat order) or a list of colour
    names. ``parks``: park squares (default ``default_parks``). ``moves``: placements to make
    (None: play to the end). Each turn the player picks a size uniformly among the sizes it
    can legally place, then a square uniformly; a player with no legal move passes.
    """
    return play_random_game(rng, players, threehouse, parks, moves).board
