"""scorer.vision.lighting: a shadow across the board measured on its own cloth and evened out."""

import cv2
import numpy as np
import pytest

from scorer.board import Board
from scorer.vision.camera import camera_from_homography
from scorer.vision.evaluate import truth_grid
from scorer.vision.lighting import evened, local_gain, shadowed_squares
from scorer.vision.squares import CheckerAppearance, board_appearance
from synthetic_scene import draw_scene

POSITION = """\
# r1 . b2 . #
. b3 r2 . . .
r3 . # . b1 .
. b2 . # r2 .
. . r1 b3 . .
# . . . b1 #
"""
SHADOW_LEFT = 0.3  # linear light the shadow lets through


def _scene(**cloth):
    img, _, corners = draw_scene(Board.from_text(POSITION), elevation_deg=70, yaw_deg=8, width=1200, height=900, **cloth)
    return img, truth_grid(8, 8, corners)


def _shaded(image, mask, share=SHADOW_LEFT):
    linear = (image / 255.0) ** 2.2
    linear[mask] *= share
    return np.clip(255.0 * linear ** (1 / 2.2) + 0.5, 0, 255).astype(np.uint8)


def _gain(image, grid):
    camera = camera_from_homography(grid.homography, (image.shape[1], image.shape[0]))
    return local_gain(board_appearance(image, grid.homography, grid.rows, grid.cols, camera))


def _left_of(image, x):
    mask = np.zeros(image.shape[:2], bool)
    mask[:, :x] = True
    return mask


def _square_centres_x(grid):
    centres = grid.board_to_image(np.array([[c + 0.5, r + 0.5] for r in range(8) for c in range(8)]))
    return centres[:, 0].reshape(8, 8)


def _light_square_level(image, grid, squares):
    """Median grey level of the light squares' corners among ``squares`` ((col, row) pairs)."""
    grey = image.mean(axis=2)
    levels = []
    for c, r in squares:
        for dx, dy in [(0.12, 0.12), (0.88, 0.12), (0.12, 0.88), (0.88, 0.88)]:
            x, y = grid.board_to_image(np.array([[c + dx, r + dy]]))[0]
            levels.append(grey[int(round(y)), int(round(x))])
    return float(np.median(levels))


def test_a_shadow_across_the_board_is_measured_on_its_cloth_and_divided_out():
    img, grid = _scene()
    edge = int(0.45 * img.shape[1])
    shaded = _shaded(img, _left_of(img, edge))
    gain = _gain(shaded, grid)
    x = _square_centres_x(grid)
    side = np.median(np.diff(np.sort(x[0])))
    deep, lit = x < edge - 1.5 * side, x > edge + 1.5 * side
    assert deep.sum() >= 8 and lit.sum() >= 8
    assert np.allclose(gain[deep], SHADOW_LEFT, atol=0.08)
    assert np.all(gain[lit] == 1.0)
    assert shadowed_squares(gain) >= deep.sum()
    out = evened(shaded, grid.homography, gain)
    light = [(c, r) for r in range(8) for c in range(8) if (c + r) % 2 == 1]  # draw_scene's light parity
    in_shadow = [sq for sq in light if deep[sq[1], sq[0]]]
    in_light = [sq for sq in light if lit[sq[1], sq[0]]]
    before = _light_square_level(shaded, grid, in_shadow) / _light_square_level(shaded, grid, in_light)
    after = _light_square_level(out, grid, in_shadow) / _light_square_level(out, grid, in_light)
    assert before < 0.7 and after == pytest.approx(1.0, abs=0.08)


def test_an_evenly_lit_board_is_left_as_it_is():
    img, grid = _scene()
    gain = _gain(img, grid)
    assert np.all(gain == 1.0) and shadowed_squares(gain) == 0
    assert evened(img, grid.homography, gain) is img


def _appearance_shaded(block):
    """A neutral 8x8 board's appearance (dark squares at 0.25 of white, light at 0.8, in sRGB)
    with the squares in ``block`` (rows, cols slices) at SHADOW_LEFT of the light."""
    ys, xs = np.mgrid[0:8, 0:8]
    dark = (xs + ys) % 2 == 0
    shaded = np.zeros((8, 8), bool)
    shaded[block] = True
    srgb = np.where(dark, 0.25, 0.8) * np.where(shaded, SHADOW_LEFT ** (1 / 2.2), 1.0)
    lab = cv2.cvtColor(np.repeat(srgb[..., None], 3, axis=2).astype(np.float32), cv2.COLOR_BGR2Lab)
    flat = np.zeros((6, 3))
    return CheckerAppearance(light_coef=flat, dark_coef=flat, dark_parity=0, noise=1.0, square_lab=lab,
                             square_bare=np.ones((8, 8), bool), rows=8, cols=8)


def test_a_few_odd_squares_are_not_taken_for_a_shadow():
    # A 2x3 patch of dark corners (pieces over them, say) sways the medians of two squares'
    # neighbourhoods, each with only one such neighbour: left alone. A shadow spans squares.
    assert shadowed_squares(local_gain(_appearance_shaded((slice(3, 5), slice(3, 6))))) == 0
    gain = local_gain(_appearance_shaded((slice(2, 5), slice(2, 5))))
    assert shadowed_squares(gain) >= 5 and np.allclose(gain[3, 3], SHADOW_LEFT, atol=0.02)


def test_the_dark_cloth_must_darken_with_the_light_cloth():
    # Only the light squares dimmed (a print fading, a cloth of another colour) is no shadow:
    # one gain must explain both square colours. (Grey dark squares: on near-black ones noise
    # and compression leave too little to tell by.)
    img, grid = _scene(dark=(95, 95, 100))
    edge = int(0.45 * img.shape[1])
    grey = img.mean(axis=2)
    light_cloth = _left_of(img, edge) & (grey > 120)
    gain = _gain(_shaded(img, light_cloth), grid)
    assert shadowed_squares(gain) == 0


def test_a_reading_of_a_board_half_in_shadow_evens_it_and_says_so():
    from scorer.reader import SHADOWED, read_image

    img, grid = _scene()
    shaded = _shaded(img, _left_of(img, int(0.45 * img.shape[1])))
    area = {"row": 1, "col": 1, "rows": 6, "cols": 6}
    plain, in_shadow = read_image(img, grid=grid, area=area), read_image(shaded, grid=grid, area=area)
    assert SHADOWED in in_shadow.warnings and SHADOWED not in plain.warnings
    assert in_shadow.warning_kinds[in_shadow.warnings.index(SHADOWED)] == "photo"
    assert in_shadow.board.to_text() == plain.board.to_text() == Board.from_text(POSITION).to_text()
