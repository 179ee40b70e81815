"""``evaluate.fixes_to_right``: the corrections a player makes on the web page to a right board."""

import json
import shutil
from pathlib import Path

from scorer.board import COLOUR_LETTERS, PARK, Board, Piece
from scorer.vision.evaluate import PhotoResult, evaluate_photo, fixes_to_right, scores_alike, summarise

DEV = Path(__file__).resolve().parents[1] / "sample_photos" / "dev"

WHITE = {f"A{r}": Piece("white", 1 + r % 3) for r in range(1, 6)}
CLEAR = {f"B{r}": Piece("clear", 1 + r % 3) for r in range(1, 6)}


def _cells(truth: dict, read: dict) -> dict:
    return {cell: (truth.get(cell), read.get(cell)) for cell in set(truth) | set(read)}


def _as(pieces: dict, colour: str) -> dict:
    return {cell: Piece(colour, p.pips) for cell, p in pieces.items()}


def test_a_right_reading_needs_no_fix():
    truth = {**WHITE, "C1": PARK, "C2": None}
    assert fixes_to_right(_cells(truth, truth)) == 0


def test_an_empty_board_needs_no_fix_and_a_missed_piece_one():
    assert fixes_to_right({}) == 0
    assert fixes_to_right({"A1": (Piece("red", 1), None), "A2": (None, None)}) == 1


def test_a_wrongly_named_player_is_one_fix_however_many_pieces():
    assert fixes_to_right(_cells(WHITE, _as(WHITE, "clear"))) == 1


def test_two_players_swapped_are_one_fix():
    truth = {**WHITE, **CLEAR}
    assert fixes_to_right(_cells(truth, {**_as(WHITE, "clear"), **_as(CLEAR, "white")})) == 1


def test_the_better_recolouring_is_made_first():
    # the read "clear" pieces are white (5) or yellow (1): white first, then the yellow one by hand
    truth = {**WHITE, "C1": Piece("yellow", 2)}
    read = {**_as(WHITE, "clear"), "C1": Piece("clear", 2)}
    assert fixes_to_right(_cells(truth, read)) == 2


def test_a_recolouring_that_wrongs_more_squares_than_it_rights_is_not_made():
    truth = {**WHITE, "C1": Piece("clear", 2)}
    read = {**WHITE, "C1": Piece("white", 2)}
    assert fixes_to_right(_cells(truth, read)) == 1  # C1 alone, by hand
    truth = {**_as(WHITE, "clear"), "C1": Piece("white", 2)}  # five of six are clear: recolour, then C1
    assert fixes_to_right(_cells(truth, read)) == 2


def test_other_squares_count_one_each_beside_a_recolouring():
    truth = {**WHITE, "C1": PARK, "C2": Piece("red", 3), "C3": None}
    read = {**_as(WHITE, "clear"), "C1": None, "C2": Piece("red", 2), "C3": Piece("red", 1)}
    assert fixes_to_right(_cells(truth, read)) == 4


def test_summary_counts_boards_right_after_one_and_three_fixes():
    grid = {"found": True, "correct": True, "max_error": 0.01}
    results = [PhotoResult("a", 0.1, grid), PhotoResult("b", 0.1, grid, wrong=15, failure="colour", fixes=1),
               PhotoResult("c", 0.1, grid, wrong=3, failure="squares", fixes=3),
               PhotoResult("d", 0.1, {"found": True, "correct": False, "max_error": 1.0}, wrong=20, failure="grid")]
    results[1].score_right = True  # a colour named otherwise
    summary = summarise(results)
    assert summary["boards_exact"] == 0.25 and summary["scores_right"] == 0.5
    assert summary["boards_within_one_fix"] == 0.5 and summary["boards_within_three_fixes"] == 0.75


def test_a_photo_read_right_against_a_sidecar_with_two_players_swapped_and_a_park_taken_away(tmp_path):
    photo = DEV / "studio_001001.jpg"
    assert evaluate_photo(photo).fixes == 0  # read exactly right
    truth = json.loads(photo.with_suffix(".json").read_text())
    red, blue = COLOUR_LETTERS["red"], COLOUR_LETTERS["blue"]
    swap = {red: blue, blue: red}
    rows = truth["board"].splitlines()
    rows[0] = rows[0].replace("#", ".", 1)  # a park read there is now one square to set by hand
    truth["board"] = "\n".join(" ".join(swap.get(t[0], t[0]) + t[1:] for t in row.split()) for row in rows)
    shutil.copy(photo, tmp_path / photo.name)
    (tmp_path / photo.with_suffix(".json").name).write_text(json.dumps(truth))
    result = evaluate_photo(tmp_path / photo.name)
    assert result.failure is not None and result.fixes == 2
    assert result.score_right  # players' names swapped, and a park scores nothing without Private Parks


GAME = (Path(__file__).resolve().parents[1] / "sample_boards" / "rules_game_2p.txt").read_text()


def _pairs(truth: Board, read: Board) -> dict:
    return {sq.name: (truth[sq], read[sq]) for sq in truth.geometry.squares}


def test_a_board_scores_alike_whatever_its_players_are_named():
    truth = Board.from_text(GAME)
    assert scores_alike(truth, truth, _pairs(truth, truth))
    for swap in ({"red": "white"}, {"red": "blue", "blue": "red"}, {"red": "clear", "blue": "white"}):
        read = truth.recoloured(swap)
        assert scores_alike(truth, read, _pairs(truth, read)), swap


def test_a_size_a_missed_piece_or_players_merged_or_split_score_otherwise():
    truth = Board.from_text(GAME)
    size = truth.copy()
    size["B1"] = Piece(size["B1"].colour, 1 + size["B1"].pips % 3)
    missed = truth.copy()
    missed["B1"] = None
    merged = truth.recoloured({"blue": "red"})
    split = truth.copy()
    split["B1"] = Piece("green", truth["B1"].pips)  # a lone piece of a third colour
    for read in (size, missed, merged, split):
        assert not scores_alike(truth, read, _pairs(truth, read))


def test_two_colours_read_for_one_player_score_otherwise_even_with_the_same_totals():
    # red's two lone 1-pips score 2 - 2 = 0; read as a red one and a green one, each scores 0 too,
    # but the green one is red's piece: red read as two players
    truth = Board.from_text(". . .\nr1 . .\n. . r1\n")
    read = Board.from_text(". . .\ng1 . .\n. . r1\n")
    assert not scores_alike(truth, read, _pairs(truth, read))
