"""squares.covered_squares and the reading: a hand or an arm over the board's edge is found and said."""

import importlib.util
from pathlib import Path

import cv2
import numpy as np

from scorer.board import Board
from scorer.reader import COVERED_MAX_CONFIDENCE, read_image
from scorer.vision.evaluate import truth_grid
from scorer.vision.squares import CheckerAppearance, covered_squares
from synthetic_scene import draw_scene

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "photo_variants.py"
spec = importlib.util.spec_from_file_location("photo_variants", SCRIPT)
photo_variants = importlib.util.module_from_spec(spec)
spec.loader.exec_module(photo_variants)

POSITION = """\
# r1 . b2 . #
. b3 r2 . . .
r3 . # . b1 .
. b2 . # r2 .
. . r1 b3 . .
# . . . b1 #
"""


def _appearance(hidden):
    """An 8x8 board's appearance whose squares ``hidden`` ((row, col) pairs) show no bare corners."""
    bare = np.ones((8, 8), bool)
    for r, c in hidden:
        bare[r, c] = False
    flat = np.zeros((6, 3))
    return CheckerAppearance(light_coef=flat, dark_coef=flat, dark_parity=0, noise=1.0,
                             square_lab=np.zeros((8, 8, 3)), square_bare=bare, rows=8, cols=8)


def test_a_patch_without_bare_corners_from_the_edge_is_covered():
    found = covered_squares(_appearance([(0, 3), (1, 3), (1, 4)]))
    assert found[0, 3] and found[1, 3] and found[1, 4] and found.sum() == 3


def test_squares_glare_washes_out_are_no_cover():
    hidden = [(0, 3), (1, 3), (1, 4)]
    glared = np.zeros((8, 8), bool)
    glared[1, 3] = glared[1, 4] = True
    assert not covered_squares(_appearance(hidden), explained=glared).any()


def test_a_pieces_hidden_corners_are_no_cover():
    # Two squares at the edge (a tall piece leaning over the corners behind it), or a patch
    # inside the board away from its edge, are not something reaching in over the edge.
    assert not covered_squares(_appearance([(0, 3), (1, 3)])).any()
    assert not covered_squares(_appearance([(3, 3), (3, 4), (4, 3), (4, 4)])).any()
    # Diagonal neighbours are not one patch.
    assert not covered_squares(_appearance([(0, 0), (1, 1), (2, 2)])).any()


def test_a_reading_says_which_squares_an_arm_over_the_board_hides():
    img, _, corners = draw_scene(Board.from_text(POSITION), elevation_deg=70, yaw_deg=8, width=1200, height=900)
    grid = truth_grid(8, 8, corners)
    area = {"row": 1, "col": 1, "rows": 6, "cols": 6}
    plain = read_image(img, grid=grid, area=area)
    assert not any("lies over" in w for w in plain.warnings) and not any(c.covered for c in plain.cells)
    arm = photo_variants.arm_over_board(img, corners)
    covered = read_image(arm, grid=grid, area=area)
    hidden = [c for c in covered.cells if c.covered]
    assert len(hidden) >= 3
    assert all(c.confidence <= COVERED_MAX_CONFIDENCE and c.cell in covered.uncertain and c.to_dict()["covered"]
               for c in hidden)
    warning = next(w for w in covered.warnings if "lies over" in w)
    assert covered.warning_kinds[covered.warnings.index(warning)] == "photo"
    assert all(c.cell in warning for c in hidden)
    # The arm reaches in from the board's edge: the covered cells include play-area edge cells.
    assert any(c.cell[0] in "AF" or c.cell[1:] in ("1", "6") for c in hidden)


def test_squares_the_reading_sees_plainly_are_not_taken_for_a_cover():
    # Tall pieces seen from low down hide the corners of the squares behind them; where the
    # reading is sure of what stands there, no hand is over them.
    from scorer.reader import _doubt_covered
    from scorer.vision.decode import CellReading
    from scorer.vision.playarea import PlayArea

    play = PlayArea(col=0, row=0, cols=3, rows=3)
    covered = np.zeros((3, 3), bool)
    covered[0, :] = True  # A1, B1, C1

    def cells(confidence):
        return [CellReading(cell=name, value="r3", confidence=confidence, alternatives=[])
                for name in ("A1", "B1", "C1", "A2")]

    sure = cells(0.97)
    assert _doubt_covered(sure, covered, play) == [] and not any(c.covered for c in sure)
    unsure = cells(0.6)
    assert _doubt_covered(unsure, covered, play) == ["A1", "B1", "C1"]
    assert [c.covered for c in unsure] == [True, True, True, False]
    assert unsure[0].confidence == COVERED_MAX_CONFIDENCE and unsure[3].confidence == 0.6


def test_the_overlay_crosses_out_the_squares_the_photo_does_not_show():
    from scorer.vision.overlay import UNSEEN_BGR

    img, _, corners = draw_scene(Board.from_text(POSITION), elevation_deg=70, yaw_deg=8, width=1200, height=900)
    grid = truth_grid(8, 8, corners)
    area = {"row": 1, "col": 1, "rows": 6, "cols": 6}

    def crossed(image):
        drawn = read_image(image, grid=grid, area=area).overlay().astype(int)
        return int((np.abs(drawn - np.array(UNSEEN_BGR)).max(axis=2) <= 12).sum())

    plain, under_arm = crossed(img), crossed(photo_variants.arm_over_board(img, corners))
    assert plain <= 10 and under_arm > 10 * max(plain, 10)  # an antialiased pixel or two can blend to it
