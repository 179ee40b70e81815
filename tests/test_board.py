"""The board model and its text notation."""

import pytest
from hypothesis import given, strategies as st

from scorer.board import (
    COLOUR_NAMES,
    PARK,
    Board,
    NotationError,
    Piece,
    Square,
    setup_for,
)

TOKENS = [".", "#"] + [f"{letter}{pips}" for letter in COLOUR_NAMES for pips in "123"]


@st.composite
def boards(draw, min_size=3, max_size=12):
    rows = draw(st.integers(min_size, max_size))
    cols = draw(st.integers(min_size, max_size))
    lines = [" ".join(draw(st.lists(st.sampled_from(TOKENS), min_size=cols, max_size=cols))) for _ in range(rows)]
    return Board.from_text("\n".join(lines))


def test_square_names_follow_the_rules():
    assert Square.parse("A1") == Square(0, 0)
    assert Square.parse("b4") == Square(1, 3)
    assert Square(11, 11).name == "L12"
    with pytest.raises(NotationError):
        Square.parse("Z1")
    with pytest.raises(NotationError):
        Square.parse("A13")
    for name in ("A\u00b2", "A\u0661", "A\uff11"):  # superscript, Arabic-Indic and fullwidth digits
        with pytest.raises(NotationError):
            Square.parse(name)


def test_text_rows_run_top_first_and_a1_is_bottom_left():
    board = Board.from_text("; comment\nr3 . .\n. # .\nb1 . g2\n")
    assert board["A1"] == Piece("blue", 1)
    assert board["A3"] == Piece("red", 3)
    assert board["B2"] is PARK
    assert board["C1"] == Piece("green", 2)
    assert board["C3"] is None
    assert board.to_text() == "r3 . .\n. # .\nb1 . g2\n"


def test_a_byte_order_mark_before_the_text_is_not_a_token():
    # Some editors save UTF-8 with one; the files a player pastes from keep it.
    assert Board.from_text("\ufeffr3 . .\n. # .\nb1 . g2\n") == Board.from_text("r3 . .\n. # .\nb1 . g2\n")
    with pytest.raises(NotationError):
        Board.from_text("r3 \ufeff. .\n. # .\nb1 . g2\n")  # only first


@given(boards())
def test_notation_round_trips(board):
    assert Board.from_text(board.to_text()) == board


@given(boards())
def test_rotating_four_times_and_mirroring_twice_give_the_board_back(board):
    assert board.rotated().rotated().rotated().rotated() == board
    assert board.mirrored().mirrored() == board
    assert sorted(p for _, p in board.rotated().pieces()) == sorted(p for _, p in board.pieces())


def test_near_and_neighbours():
    board = Board(3, 3)
    assert len(board.near(Square.parse("B2"))) == 8
    assert sorted(sq.name for sq in board.near(Square.parse("A1"))) == ["A2", "B1", "B2"]
    assert sorted(sq.name for sq in board.neighbours(Square.parse("A1"))) == ["A2", "B1"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("r3 . .\n. z2 .\n. . .", ["B2", "line 2", "column 2", "'z2'"]),
        ("r3 . .\n. r4 .\n. . .", ["B2", "'r4'"]),
        ("r3 . .\n. .\n. . .", ["row 2", "line 2", "2 squares"]),
        ("r3 . .\n.\n. . .", ["row 2", "has 1 square,"]),
        (". .\n. .", ["3..12 rows"]),
        ("\n".join([". " * 13] * 3), ["columns", "13"]),
        ("; only a comment\n", ["no rows"]),
        ("r3,.,.\n. . .\n. . .", ["top row (line 1) has 1", "separate the squares with spaces"]),
        ("r3 . .\n.b2.\n. . .", ["row 2", "has 1 square,", "separate the squares with spaces"]),
        ("r3 . .\n. . .\n. . .\n\nb3 . .\n. . .\n. . .", ["blank line (line 4)", "one board at a time"]),
        ("r3 . .\n  \n; a note\n. . .\n. . .", ["blank line (line 2)"]),
    ],
)
def test_bad_text_gets_one_line_naming_where(text, expected):
    with pytest.raises(NotationError) as info:
        Board.from_text(text)
    message = str(info.value)
    assert "\n" not in message
    for part in expected:
        assert part in message


def test_blank_lines_around_the_rows_and_comments_between_them_are_not_rows():
    board = Board.from_text("\n\n; red to move\nr3 . .\n; the middle row\n. b2 .\n. . x1\n\n\n; read at 0.5 s\n")
    assert board.to_text() == "r3 . .\n. b2 .\n. . x1\n"


def test_only_line_breaks_end_a_row_not_other_control_characters():
    # str.splitlines would also break at a vertical tab or form feed: here they separate squares
    assert Board.from_text("r3\x0b.\x0c.\r\n. b2 .\r. . x1").to_text() == "r3 . .\n. b2 .\n. . x1\n"
    # CRLF written again as text on Windows, and Unicode's line and paragraph separators, end rows
    for text in ("r3 . .\r\r\n. b2 .\r\r\n. . x1\r\r\n", "r3 . .\u2028. b2 .\u2029. . x1\x85"):
        assert Board.from_text(text).to_text() == "r3 . .\n. b2 .\n. . x1\n"


def test_a_double_spaced_board_is_one_board():
    assert Board.from_text("r3 . .\n\n. b2 .\n \n. . x1\n\n").to_text() == "r3 . .\n. b2 .\n. . x1\n"


def test_a_semicolon_after_a_space_starts_a_comment():
    board = Board.from_text("; red to move\nr3 . #  ; top row\n. b2 . ;\n. . x1\t;x\n")
    assert board.to_text() == "r3 . #\n. b2 .\n. . x1\n"
    with pytest.raises(NotationError, match="unknown token '#;b2'"):  # a ';' between squares is no comment
        Board.from_text("r3 . #;b2\n. b2 .;r1\n. . x1;.")


def test_colour_letters_are_read_in_either_case_and_written_lower_case():
    board = Board.from_text("R3 . #\n. b2 .\n. . X1\n")
    assert board[Square.parse("A3")] == Piece("red", 3) and board[Square.parse("C1")] == Piece("clear", 1)
    assert board.to_text() == "r3 . #\n. b2 .\n. . x1\n"


def test_setup_table():
    assert (setup_for(2).size, setup_for(2).parks, setup_for(2).trios) == (6, 6, 5)
    assert (setup_for(3).size, setup_for(3).parks) == (7, 4)
    assert (setup_for(4).size, setup_for(4).parks) == (8, 4)
    assert (setup_for(2, True).size, setup_for(2, True).parks, setup_for(2, True).trios) == (5, 7, 3)
    assert (setup_for(3, True).size, setup_for(3, True).parks) == (6, 9)
    assert (setup_for(4, True).size, setup_for(4, True).parks) == (6, 0)
    for threehouse in (False, True):
        for players in (2, 3, 4):
            s = setup_for(players, threehouse)
            assert s.size**2 - s.parks == players * s.pieces_per_player
    with pytest.raises(ValueError):
        setup_for(5)


def test_the_labelled_board_names_rows_and_columns_beside_the_notation():
    board = Board.from_text("# r3 .\nx2 . b1\nb3 . #\n")
    assert board.labelled() == "3 #  r3 .\n2 x2 .  b1\n1 b3 .  #\n  A  B  C\n"
    tall = Board(10, 3)
    tall[Square.parse("A10")] = Piece("red", 1)
    assert tall.labelled().splitlines()[0] == "10 r1 .  ." and tall.labelled().splitlines()[-1] == "   A  B  C"
