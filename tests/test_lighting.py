"""scorer.vision.lighting: a haze over the photo taken off; a shadow across the board measured on
its own cloth; a reflection (glare) washing out squares found."""

import cv2
import numpy as np
import pytest

from scorer.board import Board
from scorer.vision.camera import camera_from_homography
from scorer.vision.evaluate import truth_grid
from scorer.vision.lighting import VEIL_FLOOR, glared_squares, local_gain, shadowed_squares, veil_level, without_veil
from scorer.vision.squares import CheckerAppearance, board_evidence
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
    return local_gain(board_evidence(image, grid.homography, grid.rows, grid.cols, camera)[0])


def _shadow_side(image, side, share):
    """The part of the photo ``share`` of the way in from its ``side`` ("left" or "bottom")."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), bool)
    if side == "left":
        mask[:, :int(share * w)] = True
    else:
        mask[int((1 - share) * h):, :] = True
    return mask


def _square_centres(grid):
    """(8, 8, 2) photo px of each square's centre, row 0 at the bottom."""
    return grid.board_to_image(np.array([[c + 0.5, r + 0.5] for r in range(8) for c in range(8)])).reshape(8, 8, 2)


@pytest.mark.parametrize("side, share", [("left", 0.45), ("bottom", 0.4), ("left", 0.62)])
def test_a_shadow_across_the_board_is_measured_on_its_cloth(side, share):
    # The shadow over a part of the board, from one side or from below; over most of it
    # (0.62 of the photo's width), the lit part is the reference and the shadow is what is found.
    img, grid = _scene()
    mask = _shadow_side(img, side, share)
    shaded = _shaded(img, mask)
    gain = _gain(shaded, grid)
    centres = _square_centres(grid)
    side_px = np.median(np.hypot(*np.diff(centres[0], axis=0).T))
    if side == "left":
        depth = int(share * img.shape[1]) - centres[..., 0]
    else:
        depth = centres[..., 1] - int((1 - share) * img.shape[0])
    deep, lit = depth > 1.5 * side_px, depth < -1.5 * side_px
    assert deep.sum() >= 6 and lit.sum() >= 3
    assert np.allclose(gain[deep], SHADOW_LEFT, atol=0.08)
    assert np.all(gain[lit] == 1.0)
    assert shadowed_squares(gain) >= deep.sum()


def test_an_evenly_lit_board_has_no_shadow():
    img, grid = _scene()
    gain = _gain(img, grid)
    assert np.all(gain == 1.0) and shadowed_squares(gain) == 0


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
    grey = img.mean(axis=2)
    light_cloth = _shadow_side(img, "left", 0.45) & (grey > 120)
    gain = _gain(_shaded(img, light_cloth), grid)
    assert shadowed_squares(gain) == 0


def test_a_reading_of_a_board_half_in_shadow_says_so():
    from scorer.reader import SHADOWED, read_image

    img, grid = _scene()
    shaded = _shaded(img, _shadow_side(img, "left", 0.45))
    area = {"row": 1, "col": 1, "rows": 6, "cols": 6}
    plain, in_shadow = read_image(img, grid=grid, area=area), read_image(shaded, grid=grid, area=area)
    assert SHADOWED in in_shadow.warnings and SHADOWED not in plain.warnings
    assert in_shadow.warning_kinds[in_shadow.warnings.index(SHADOWED)] == "photo"
    assert in_shadow.board.to_text() == plain.board.to_text() == Board.from_text(POSITION).to_text()


def _hazy(image, veil):
    linear = (image / 255.0) ** 2.2
    return np.clip(255.0 * ((1 - veil) * linear + veil) ** (1 / 2.2) + 0.5, 0, 255).astype(np.uint8)


def test_a_haze_over_the_photo_is_measured_on_its_darkest_pixels_and_taken_off():
    img, _ = _scene()
    assert veil_level(img) < VEIL_FLOOR and without_veil(img, veil_level(img)) is img
    hazy = _hazy(img, 0.25)
    assert veil_level(hazy) == pytest.approx(0.25, abs=0.03)
    clear = without_veil(hazy, veil_level(hazy))
    dark = img.mean(axis=2) < 60  # the dark squares, which the haze lifted most
    assert np.abs(hazy[dark].astype(float) - img[dark]).mean() > 60
    assert np.abs(clear[dark].astype(float) - img[dark]).mean() < 12


def test_a_hazy_photo_reads_its_colours_as_a_clear_one(monkeypatch):
    import scorer.reader as reader

    img, grid = _scene()
    area = {"row": 1, "col": 1, "rows": 6, "cols": 6}
    hazy = _hazy(img, 0.2)
    assert reader.read_image(hazy, grid=grid, area=area).board.to_text() == Board.from_text(POSITION).to_text()
    # Left veiled, the blue pieces read as clear: the haze is what the reading took off.
    monkeypatch.setattr(reader, "without_veil", lambda image, veil: image)
    assert "blue" not in reader.read_image(hazy, grid=grid, area=area).board.colours()


def _glared(image, centre, radius, strength=0.6):
    """A lamp's reflection: ``strength`` of linear light added about ``centre`` (px), falling
    off as a Gaussian of ``radius`` px, so its core is blown out."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    spot = strength * np.exp(-0.5 * ((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / radius ** 2)
    linear = (image / 255.0) ** 2.2 + spot[..., None]
    return np.clip(255.0 * np.clip(linear, 0, 1) ** (1 / 2.2) + 0.5, 0, 255).astype(np.uint8)


def _glare_found(image, grid):
    camera = camera_from_homography(grid.homography, (image.shape[1], image.shape[0]))
    return glared_squares(board_evidence(image, grid.homography, grid.rows, grid.cols, camera)[0])


def test_a_reflection_washing_out_squares_is_found_where_it_is():
    img, grid = _scene()
    assert not _glare_found(img, grid).any()
    centres = _square_centres(grid)
    spot = centres[3, 4]
    side_px = np.median(np.hypot(*np.diff(centres[0], axis=0).T))
    found = _glare_found(_glared(img, spot, 0.8 * side_px), grid)
    near = np.hypot(*(centres - spot).transpose(2, 0, 1)) < 1.1 * side_px
    assert found[3, 4] or found[near].sum() >= 2
    assert np.all(~found[np.hypot(*(centres - spot).transpose(2, 0, 1)) > 2.5 * side_px])


def _appearance_lifted(lifted, lift, neighbours_lift=0.0):
    """A neutral 8x8 board's appearance (dark squares at 0.05 linear, light at 0.6) with the
    dark squares ``lifted`` ((row, col) pairs) ``lift`` of the way to the light cloth, and their
    light neighbours lifted ``neighbours_lift`` (same units)."""
    ys, xs = np.mgrid[0:8, 0:8]
    dark = (xs + ys) % 2 == 0
    linear = np.where(dark, 0.05, 0.6)
    for r, c in lifted:
        linear[r, c] += lift * 0.55
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= rr < 8 and 0 <= cc < 8:
                linear[rr, cc] = min(1.0, 0.6 + neighbours_lift * 0.55)
    srgb = linear ** (1 / 2.2)
    lab = cv2.cvtColor(np.repeat(srgb[..., None], 3, axis=2).astype(np.float32), cv2.COLOR_BGR2Lab)
    flat = np.zeros((6, 3))
    return CheckerAppearance(light_coef=flat, dark_coef=flat, dark_parity=0, noise=1.0, square_lab=lab,
                             square_bare=np.ones((8, 8), bool), rows=8, cols=8)


def test_glare_lifts_the_light_cloth_beside_the_dark_not_the_dark_alone():
    # A white marker over a dark square's corners lifts that square alone; a reflection lifts
    # the light cloth around it too (here blown out to white).
    assert not glared_squares(_appearance_lifted([(4, 4)], 0.9)).any()
    found = glared_squares(_appearance_lifted([(4, 4)], 0.9, neighbours_lift=0.5))
    assert found[4, 4] and found[3, 4] and found[5, 4] and found[4, 3] and found[4, 5] and found.sum() == 5
    # Under half the way to the light cloth, a dark square is not washed out.
    assert not glared_squares(_appearance_lifted([(4, 4)], 0.4, neighbours_lift=0.5)).any()


def test_a_reading_says_which_squares_glare_washes_out():
    from scorer.reader import WASHED_OUT_MAX_CONFIDENCE, read_image

    img, grid = _scene()
    area = {"row": 1, "col": 1, "rows": 6, "cols": 6}
    centres = _square_centres(grid)
    side_px = np.median(np.hypot(*np.diff(centres[0], axis=0).T))
    plain = read_image(img, grid=grid, area=area)
    glared = read_image(_glared(img, centres[3, 4], 0.8 * side_px), grid=grid, area=area)
    assert not any("glare" in w for w in plain.warnings) and not any(c.washed_out for c in plain.cells)
    washed = [c.cell for c in glared.cells if c.washed_out]
    assert washed and all(c.to_dict().get("washed_out") is True for c in glared.cells if c.washed_out)
    assert all(c.confidence <= WASHED_OUT_MAX_CONFIDENCE and c.cell in glared.uncertain
               for c in glared.cells if c.washed_out)
    assert "D3" in washed  # the spot's square, board row 3 and column 4, is the play area's D3
    warning = next(w for w in glared.warnings if "glare" in w)
    assert glared.warning_kinds[glared.warnings.index(warning)] == "photo"
    assert all(name in warning for name in washed)
