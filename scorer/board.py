"""The board model: squares, pieces, parks and the text notation.

A board is an R x C grid (3..12 each way). Squares are named as in the rules: column letter
from the left, row number from the bottom, so ``A1`` is the bottom-left square.

Text notation: one line per row, top row first; whitespace-separated tokens ``.`` (empty),
``#`` (park) or a colour letter followed by the pips (``r3``, ``b1``). Lines starting with
``;`` are comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, NamedTuple, Union

MIN_SIZE = 3
MAX_SIZE = 12
COMMENT = re.compile(r"(?:^|(?<=\s));")  # a ';' at a line's start or after a space starts a comment
# What ends a row: the line breaks (CRLF written again as text on Windows, \r\r\n, too), not the
# other characters str.splitlines also breaks at (\v, \f, \x1c-\x1e: squares' separators here).
LINE_BREAK = re.compile("\r\r\n|\r\n|\r|\n|\u2028|\u2029|\x85")
FILES = "ABCDEFGHIJKL"

COLOUR_NAMES = {
    "r": "red",
    "y": "yellow",
    "o": "orange",
    "g": "green",
    "c": "cyan",
    "b": "blue",
    "p": "purple",
    "x": "clear",
    "k": "black",
    "w": "white",
}
COLOUR_LETTERS = {name: letter for letter, name in COLOUR_NAMES.items()}
COLOURS = tuple(COLOUR_NAMES.values())
PIPS = (1, 2, 3)


class NotationError(ValueError):
    """Board text that does not parse; the message is one line naming where."""


class Square(NamedTuple):
    """A square by 0-based column (from the left) and row (from the bottom).

    A named tuple: hashing and ordering (column, then row) run at C speed, which matters
    for scoring in well under a millisecond.
    """

    col: int
    row: int

    @classmethod
    def parse(cls, name: str) -> "Square":
        """``"B4"`` -> Square(col=1, row=3). Case-insensitive."""
        text = name.strip().upper()
        if len(text) < 2 or text[0] not in FILES or not (text[1:].isascii() and text[1:].isdigit()):
            raise NotationError(f"not a square name: {name!r} (expected a letter and a number, like B4)")
        row = int(text[1:])
        if not 1 <= row <= MAX_SIZE:
            raise NotationError(f"not a square name: {name!r} (rows run 1..{MAX_SIZE})")
        return cls(FILES.index(text[0]), row - 1)

    @property
    def name(self) -> str:
        return f"{FILES[self.col]}{self.row + 1}"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, order=True)
class Piece:
    """A pyramid: a colour name (``"red"``) and its pips (1 small, 2 medium, 3 large)."""

    colour: str
    pips: int

    def __post_init__(self) -> None:
        if self.colour not in COLOUR_LETTERS:
            raise ValueError(f"unknown colour {self.colour!r}; known: {', '.join(COLOURS)}")
        if self.pips not in PIPS:
            raise ValueError(f"pips must be 1, 2 or 3, not {self.pips!r}")

    @classmethod
    def from_symbol(cls, symbol: str) -> "Piece":
        """``"r3"`` (or ``"R3"``) -> Piece("red", 3)."""
        letter = symbol[:1].lower()
        if len(symbol) != 2 or letter not in COLOUR_NAMES or symbol[1] not in "123":
            raise NotationError(f"not a piece: {symbol!r} (expected a colour letter and 1-3, like r3)")
        return cls(COLOUR_NAMES[letter], int(symbol[1]))

    @property
    def symbol(self) -> str:
        return f"{COLOUR_LETTERS[self.colour]}{self.pips}"

    def __str__(self) -> str:
        return self.symbol


class Park:
    """A blocked square (coin, glass stone, token). There is one instance, ``PARK``."""

    _instance = None

    def __new__(cls) -> "Park":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    symbol = "#"

    def __repr__(self) -> str:
        return "PARK"

    def __reduce__(self):
        return (Park, ())


PARK = Park()
EMPTY_SYMBOL = "."
Content = Union[Piece, Park, None]


def content_from_symbol(token: str) -> Content:
    """``"."`` -> None, ``"#"`` -> PARK, ``"r3"`` -> Piece("red", 3)."""
    if token == EMPTY_SYMBOL:
        return None
    if token == PARK.symbol:
        return PARK
    return Piece.from_symbol(token)


def recoloured_content(content: Content, mapping: dict[str, str]) -> Content:
    """A square's content with its piece's colour renamed by ``mapping`` (others stay)."""
    if isinstance(content, Piece):
        return Piece(mapping.get(content.colour, content.colour), content.pips)
    return content


def content_symbol(content: Content) -> str:
    """The notation token of a square's content."""
    if content is None:
        return EMPTY_SYMBOL
    return content.symbol


NEAR_STEPS = tuple((dc, dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dc, dr) != (0, 0))
NEIGHBOUR_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True)
class Geometry:
    """The squares of a rows x cols board and, for each, its Near and Neighbouring squares."""

    squares: tuple[Square, ...]
    near: dict[Square, tuple[Square, ...]]
    neighbours: dict[Square, tuple[Square, ...]]


def _around(square: Square, steps, rows: int, cols: int) -> tuple[Square, ...]:
    around = (Square(square.col + dc, square.row + dr) for dc, dr in steps)
    return tuple(sq for sq in around if 0 <= sq.col < cols and 0 <= sq.row < rows)


@lru_cache(maxsize=None)
def geometry(rows: int, cols: int) -> Geometry:
    """Adjacency tables for a board size, computed once (boards are 3..12 squares a side)."""
    squares = tuple(Square(col, row) for row in range(rows) for col in range(cols))
    return Geometry(
        squares,
        {sq: _around(sq, NEAR_STEPS, rows, cols) for sq in squares},
        {sq: _around(sq, NEIGHBOUR_STEPS, rows, cols) for sq in squares},
    )


class Board:
    """A rows x cols grid of squares, each empty, a park or a pyramid."""

    def __init__(self, rows: int, cols: int) -> None:
        for what, n in (("rows", rows), ("cols", cols)):
            if not MIN_SIZE <= n <= MAX_SIZE:
                raise NotationError(f"a board has {MIN_SIZE}..{MAX_SIZE} {what}, not {n}")
        self.rows = rows
        self.cols = cols
        self.geometry = geometry(rows, cols)
        self._cells: dict[Square, Piece | Park] = {}

    # --- access -------------------------------------------------------------------------
    def contains(self, square: Square) -> bool:
        return 0 <= square.col < self.cols and 0 <= square.row < self.rows

    def _check(self, square: Square) -> None:
        if not self.contains(square):
            raise KeyError(f"{square.name} is off this {self.cols}x{self.rows} board")

    def __getitem__(self, square: Square | str) -> Content:
        if isinstance(square, str):
            square = Square.parse(square)
        content = self._cells.get(square)
        if content is None:
            self._check(square)
        return content

    def __setitem__(self, square: Square | str, content: Content) -> None:
        if isinstance(square, str):
            square = Square.parse(square)
        self._check(square)
        if content is None:
            self._cells.pop(square, None)
        elif isinstance(content, (Piece, Park)):
            self._cells[square] = content
        else:
            raise TypeError(f"a square holds a Piece, PARK or None, not {content!r}")

    def squares(self) -> Iterator[Square]:
        """Every square, row 1 first, left to right."""
        return iter(self.geometry.squares)

    def contents(self) -> dict[Square, Piece | Park]:
        """Every square that is not empty, with what it holds (a new dict)."""
        return dict(self._cells)

    def pieces(self) -> Iterator[tuple[Square, Piece]]:
        """(square, piece) for every pyramid, in square order."""
        for square in sorted(self._cells):
            content = self._cells[square]
            if isinstance(content, Piece):
                yield square, content

    def parks(self) -> list[Square]:
        return sorted(sq for sq, c in self._cells.items() if c is PARK)

    def empty_squares(self) -> list[Square]:
        """Squares holding neither a pyramid nor a park, row 1 first."""
        cells = self._cells
        return [sq for sq in self.geometry.squares if sq not in cells]

    def colours(self) -> list[str]:
        """Colours on the board, in the order of ``COLOURS``."""
        present = {piece.colour for _, piece in self.pieces()}
        return [c for c in COLOURS if c in present]

    def is_full(self) -> bool:
        return len(self._cells) == self.rows * self.cols

    def near(self, square: Square) -> tuple[Square, ...]:
        """Squares on the board adjacent orthogonally or diagonally (the rules' *Near*)."""
        found = self.geometry.near.get(square)
        return found if found is not None else _around(square, NEAR_STEPS, self.rows, self.cols)

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """Squares on the board adjacent orthogonally (the rules' *Neighboring*)."""
        found = self.geometry.neighbours.get(square)
        return found if found is not None else _around(square, NEIGHBOUR_STEPS, self.rows, self.cols)

    # --- whole-board operations ----------------------------------------------------------
    def copy(self) -> "Board":
        other = Board(self.rows, self.cols)
        other._cells = dict(self._cells)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.rows, self.cols, self._cells) == (other.rows, other.cols, other._cells)

    def __hash__(self) -> int:
        return hash(self.to_text())

    def __repr__(self) -> str:
        return f"Board.from_text({self.to_text()!r})"

    def __str__(self) -> str:
        return self.to_text()

    def map_squares(self, rows: int, cols: int, where) -> "Board":
        """A new rows x cols board whose square ``where(sq)`` holds what ``sq`` holds here."""
        other = Board(rows, cols)
        for square, content in self._cells.items():
            other[where(square)] = content
        return other

    def rotated(self) -> "Board":
        """The board turned a quarter turn clockwise."""
        return self.map_squares(self.cols, self.rows, lambda s: Square(s.row, self.cols - 1 - s.col))

    def mirrored(self) -> "Board":
        """The board flipped left to right."""
        return self.map_squares(self.rows, self.cols, lambda s: Square(self.cols - 1 - s.col, s.row))

    def recoloured(self, mapping: dict[str, str]) -> "Board":
        """The board with colours renamed by ``mapping`` (colours not in it stay)."""
        other = Board(self.rows, self.cols)
        for square, content in self._cells.items():
            other[square] = recoloured_content(content, mapping)
        return other

    # --- notation ------------------------------------------------------------------------
    def to_text(self) -> str:
        """The board in notation: top row first, one line per row, ending in a newline."""
        lines = []
        for row in reversed(range(self.rows)):
            tokens = (content_symbol(self._cells.get(Square(col, row))) for col in range(self.cols))
            lines.append(" ".join(tokens))
        return "\n".join(lines) + "\n"

    def labelled(self) -> str:
        """The board's rows as :meth:`to_text` orders them, top row first, each token padded to
        line up in columns, each row's number on its left and the columns' letters below: for a
        person to find a square by its name (not notation)."""
        width = len(str(self.rows))
        lines = [f"{number:>{width}} " + " ".join(token.ljust(2) for token in line.split()).rstrip()
                 for number, line in zip(range(self.rows, 0, -1), self.to_text().splitlines())]
        lines.append(" " * width + " " + " ".join(FILES[col].ljust(2) for col in range(self.cols)).rstrip())
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> "Board":
        """Parse board notation; raises NotationError with a one-line message naming where."""
        if not isinstance(text, str):
            raise NotationError("board text must be a string")
        text = text.removeprefix("\ufeff")  # a byte-order mark some editors put first
        lines = []
        gaps = []  # per row after the first: the first blank line between it and the row above, or None
        blank = None
        for number, line in enumerate(LINE_BREAK.split(text), start=1):
            tokens = COMMENT.split(line, maxsplit=1)[0].split()
            if tokens:
                if lines:
                    gaps.append(blank)
                lines.append((number, tokens))
                blank = None
            elif lines and not line.strip() and blank is None:
                blank = number
        if any(gaps) and not all(gaps):  # some rows apart, the rest together (all apart: double-spaced)
            raise NotationError(f"a blank line (line {next(g for g in gaps if g)}) splits the rows: "
                                "give one board at a time, its rows together")
        if not lines:
            raise NotationError("the board text has no rows")
        n_rows = len(lines)
        if not MIN_SIZE <= n_rows <= MAX_SIZE:
            raise NotationError(f"a board has {MIN_SIZE}..{MAX_SIZE} rows, this text has {n_rows}")
        n_cols = len(lines[0][1])
        if not MIN_SIZE <= n_cols <= MAX_SIZE:
            raise NotationError(
                f"a board has {MIN_SIZE}..{MAX_SIZE} columns, the top row (line {lines[0][0]}) has {n_cols}"
                + _spacing_hint(lines[0][1])
            )
        board = cls(n_rows, n_cols)
        for index, (number, tokens) in enumerate(lines):
            row = n_rows - 1 - index
            if len(tokens) != n_cols:
                raise NotationError(
                    f"row {row + 1} (line {number}) has {len(tokens)} square{'s' if len(tokens) != 1 else ''}, "
                    f"the top row has {n_cols}" + _spacing_hint(tokens)
                )
            for col, token in enumerate(tokens):
                try:
                    board[Square(col, row)] = content_from_symbol(token)
                except (NotationError, ValueError) as err:
                    raise NotationError(
                        f"square {Square(col, row).name} (line {number}, column {col + 1}): "
                        f"unknown token {token!r}; expected '.', '#' or a colour letter "
                        f"({''.join(COLOUR_NAMES)}) and pips 1-3, like r3"
                    ) from err
        return board


def _spacing_hint(tokens: list[str]) -> str:
    """A hint for a row whose squares run together ('r3,b2' or 'r3b2'), else ''."""
    if any(len(token) > 2 for token in tokens):
        return "; separate the squares with spaces, like '# r3 . b2'"
    return ""


def parse_board(text: str) -> Board:
    """Shorthand for ``Board.from_text``."""
    return Board.from_text(text)


@dataclass(frozen=True)
class Setup:
    """One line of the rules' setup table."""

    players: int
    size: int
    parks: int
    trios: int  # trios per player: 5 for a standard stash, 3 for ThreeHouse

    @property
    def pieces_per_player(self) -> int:
        return 3 * self.trios

    def parks_miss(self, parks_seen: int) -> int:
        """How far a park count is from this setup's."""
        return abs(self.parks - parks_seen)


STANDARD_TRIOS, THREEHOUSE_TRIOS = 5, 3  # trios per player in each stash
SET_THE_STASH = "set the stash (ThreeHouse or standard) if that is wrong"  # how a doubt about the stash ends


def stash_name(threehouse: bool) -> str:
    """``"ThreeHouse"`` or ``"standard"``."""
    return "ThreeHouse" if threehouse else "standard"


SETUPS = {
    (False, 2): Setup(2, 6, 6, STANDARD_TRIOS),
    (False, 3): Setup(3, 7, 4, STANDARD_TRIOS),
    (False, 4): Setup(4, 8, 4, STANDARD_TRIOS),
    (True, 2): Setup(2, 5, 7, THREEHOUSE_TRIOS),
    (True, 3): Setup(3, 6, 9, THREEHOUSE_TRIOS),
    (True, 4): Setup(4, 6, 0, THREEHOUSE_TRIOS),
}


def setup_for(players: int, threehouse: bool = False) -> Setup:
    """The board size, park count and stash for ``players`` (2-4)."""
    try:
        return SETUPS[(bool(threehouse), int(players))]
    except KeyError:
        raise ValueError(f"Subdivision is played by 2, 3 or 4 players, not {players}") from None


def setups_for_size(rows: int, cols: int, threehouse: bool | None = None) -> list[Setup]:
    """The setup lines whose board is rows x cols (square boards only), of one stash when
    ``threehouse`` is given."""
    return [s for s in SETUPS.values() if s.size == rows == cols
            and (threehouse is None or (s.trios == THREEHOUSE_TRIOS) == bool(threehouse))]


# Park markers the colours may outvote: a clear show of more players' colours than the setup
# the parks fit has players is taken over this many markers read as something else (odd
# tokens taken for pyramids), so a 6x6's 6 parks and three colours read as three-player
# ThreeHouse (9 parks), warned. One player's pieces seen as two colours is rarer than three
# markers missed (docs/photo-reader.md, "The stash").
COLOURS_OVER_PARKS = 3
SETUP_PARKS_MARGIN = 5  # mid-game, parks this much nearer one setup's count than the other's pick it


def setup_of_area(rows: int, cols: int, threehouse: bool, players: int | None, parks_seen: int,
                  pieces_seen: int | None = None) -> Setup | None:
    """The setup-table line a play area follows: the one for ``players`` when given, else the
    only one for its size and stash, else (ThreeHouse 6x6 is for 3 players with 9 parks or 4
    with none) the one its parks fit clearly better: parks are placed before the first move,
    so they tell at any stage. ``pieces_seen`` (a full board's pieces) counts too, and then
    the nearer always wins. None when it stays open."""
    if players:
        return setup_for(players, threehouse)
    fitting = setups_for_size(rows, cols, threehouse)
    if len(fitting) < 2:
        return fitting[0] if fitting else None

    def miss(setup: Setup) -> int:
        pieces = 0 if pieces_seen is None else abs(setup.pieces_per_player * setup.players - pieces_seen)
        return setup.parks_miss(parks_seen) + pieces

    best, second = sorted(fitting, key=miss)[:2]
    if pieces_seen is not None or miss(second) - miss(best) >= SETUP_PARKS_MARGIN:
        return best
    return None


@dataclass(frozen=True)
class StashGuess:
    """Standard or ThreeHouse stashes, inferred from the play area's size and its parks."""

    threehouse: bool
    close: bool  # a setup of the other stash fits the parks nearly as well, or the colours outvoted them
    parks_seen: int
    size: int
    # the player counts the colours may settle: on a close call, the setups' in it; else the
    # parks' setup's and those of the other stash with more players, COLOURS_OVER_PARKS or
    # fewer parks off the count
    contenders: tuple[int, ...] = ()
    colours_seen: int | None = None  # the number of colours that settled the call

    def why(self) -> str | None:
        """What leaves the stash in doubt on a close call (``close``): the parks (and colours)
        seen and what the setups in the running set up, "7 parks on a 6x6 board (standard
        for 2 players has 6 parks, ThreeHouse for 3 players 9)"; else None."""
        if not self.close:
            return None
        seen = f"{self.parks_seen} parks" + (f" and {self.colours_seen} colours" if self.colours_seen else "")
        setups = [s for s in setups_for_size(self.size, self.size) if s.players in self.contenders]
        said = f"{seen} on a {self.size}x{self.size} board"
        if not setups:
            return said
        first, *rest = setups
        has = [f"{stash_name(first.trios == THREEHOUSE_TRIOS)} for {first.players} players has "
               + (f"{first.parks} parks" if first.parks else "none")]
        has += [f"{stash_name(s.trios == THREEHOUSE_TRIOS)} for {s.players} players {s.parks or 'none'}" for s in rest]
        return f"{said} ({', '.join(has)})"

    def doubt(self) -> str | None:
        """A one-line warning when the other stash fits nearly as well or the colours
        outvoted the parks (``close``), else None."""
        why = self.why()
        return None if why is None else f"unsure of the stash: {why}, read as {stash_name(self.threehouse)}; {SET_THE_STASH}"


def infer_stash(size: int, parks_seen: int, players: int | None = None, colours_seen: int | None = None) -> StashGuess:
    """Standard or ThreeHouse, from the play area's size (5x5 is only ThreeHouse, 7x7 and 8x8
    only standard) and, on a 6x6, the parks seen: 6 for a standard two-player game, 9 for
    ThreeHouse with three players, none for ThreeHouse with four. Parks are placed before the
    first move, so they count mid-game too. ``players`` narrows the choice unless no setup of
    that many fits the size. Other sizes give standard. ``colours_seen`` (the players the
    pieces' colours clearly show) settles a close call between setups of different player
    counts (``StashGuess.contenders``), but not for fewer players than the setup the parks fit
    best: the call stays marked close. More players than that setup has outvote the parks
    even where the call is not close, for a setup of the other stash at most
    COLOURS_OVER_PARKS parks off the count (a 6x6's 6 parks and 3 colours: three-player
    ThreeHouse's 9), marked close."""
    fitting = setups_for_size(size, size)
    fitting = [s for s in fitting if s.players == players] or fitting
    if not fitting:
        return StashGuess(False, False, parks_seen, size)
    best = min(fitting, key=lambda s: s.parks_miss(parks_seen))
    rivals = [s for s in fitting if s.parks_miss(parks_seen) <= best.parks_miss(parks_seen) + 1]
    if not any(s.trios != best.trios for s in rivals):
        # More players' colours than the parks' setup has, shown clearly, outvote a few
        # markers taken for pieces (COLOURS_OVER_PARKS).
        more = [s for s in fitting if s.trios != best.trios and s.players > best.players
                and s.parks_miss(parks_seen) <= COLOURS_OVER_PARKS]
        contenders = tuple(sorted({best.players} | {s.players for s in more})) if more else ()
        by_colours = [s for s in more if s.players == colours_seen]
        if not by_colours:
            return StashGuess(best.trios == THREEHOUSE_TRIOS, False, parks_seen, size, contenders)
        best = min(by_colours, key=lambda s: s.parks_miss(parks_seen))
        return StashGuess(best.trios == THREEHOUSE_TRIOS, True, parks_seen, size, contenders, colours_seen)
    contenders = tuple(sorted({s.players for s in rivals}))
    # Fewer colours than the parks' setup has players are likelier two players' pieces seen as
    # one colour (blue and purple, cyan and clear) than the parks misread: they do not outvote it.
    by_colours = [s for s in rivals if s.players == colours_seen
                  and (s.players >= best.players or s.parks_miss(parks_seen) == best.parks_miss(parks_seen))]
    if by_colours:
        best = min(by_colours, key=lambda s: s.parks_miss(parks_seen))
    return StashGuess(best.trios == THREEHOUSE_TRIOS, True, parks_seen, size, contenders,
                      colours_seen if by_colours else None)
