"""Photo sharpness and darkness (scorer.vision.quality) on drawn boards and a studio photo."""

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.vision.evaluate import truth_grid
from scorer.vision.quality import BLURRED_SHARPNESS, sharpness


def _board_photo(side_px: int = 60):
    """A tilted 8x8 checkerboard on grey, ``side_px`` px per square, and its grid."""
    size = 8 * side_px
    flat = ((np.indices((size, size)) // side_px).sum(axis=0) % 2 * 180 + 40).astype(np.uint8)
    corners = np.float32([[120, 90], [120 + size, 130], [90 + size, 110 + size], [100, 80 + size]])
    warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [size, 0], [size, size], [0, size]]), corners)
    photo = cv2.warpPerspective(flat, warp, (size + 260, size + 220), flags=cv2.INTER_LINEAR, borderValue=120)
    return photo, truth_grid(8, 8, corners)


def test_a_crisp_board_is_sharp_and_a_blurred_one_is_not():
    photo, grid = _board_photo()
    crisp = sharpness(photo, grid)
    assert crisp > 0.3
    for sigma in (1.0, 4.0, 8.0):
        blurred = sharpness(cv2.GaussianBlur(photo, (0, 0), sigma), grid)
        assert blurred < crisp
    # Judged at 48 px per square: the same blur in squares reads the same at any photo size.
    big, big_grid = _board_photo(side_px=120)
    small_blur = sharpness(cv2.GaussianBlur(photo, (0, 0), 4.0), grid)
    big_blur = sharpness(cv2.GaussianBlur(big, (0, 0), 8.0), big_grid)
    assert small_blur < BLURRED_SHARPNESS and big_blur < BLURRED_SHARPNESS
    assert abs(small_blur - big_blur) < 0.03


def test_a_photo_without_contrast_has_no_sharpness():
    _, grid = _board_photo()
    assert sharpness(np.full((700, 800), 128, np.uint8), grid) is None


@pytest.mark.parametrize("shift", [(-2000, 0), (0, -2000), (2000, 0), (0, 2000)])
def test_a_board_off_the_photo_has_no_sharpness(shift):
    # (a crop of negative end wrapped round to most of the photo, or an empty one was resized: a 500)
    photo, _ = _board_photo()
    corners = np.float32([[120, 90], [600, 130], [570, 590], [100, 560]]) + np.float32(shift)
    assert sharpness(photo, truth_grid(8, 8, corners)) is None


def test_a_sliver_of_a_board_at_the_photos_edge_is_judged_without_a_resize_to_nothing():
    # large squares (shrunk 0.4 times) and one column of pixels in the photo: shrunk, it was none (an OpenCV error)
    photo, grid = _board_photo(side_px=120)
    corners = np.asarray(grid.corners, np.float64)
    sliver = truth_grid(8, 8, (corners - [corners[:, 0].max() + 0.5, 0]).astype(np.float32))
    assert sharpness(photo, sliver) is None


def test_a_blurred_photo_is_read_with_a_warning_and_no_square_sure():
    from scorer.reader import BLURRED, BLURRED_MAX_CONFIDENCE, read_image

    path = Path(__file__).resolve().parents[1] / "sample_photos" / "dev" / "studio_001000.jpg"
    photo = cv2.resize(cv2.imread(str(path)), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    sharp = read_image(photo, threehouse=False)
    assert BLURRED not in sharp.warnings and sharp.quality.sharpness >= BLURRED_SHARPNESS
    blurred = read_image(cv2.GaussianBlur(photo, (0, 0), 3.0), threehouse=False)
    assert BLURRED in blurred.warnings and blurred.quality.sharpness < BLURRED_SHARPNESS
    assert blurred.warning_kinds[blurred.warnings.index(BLURRED)] == "blurred"  # the page's top message says it
    assert max(cell.confidence for cell in blurred.cells) <= BLURRED_MAX_CONFIDENCE
    assert blurred.to_dict()["sharpness"] == round(blurred.quality.sharpness, 3) and blurred.to_dict()["blurred"]


def test_a_shaken_photo_is_blurred_in_its_least_sharp_direction():
    from scorer.vision.quality import DIRECTIONAL_BLURRED, directional_sharpness

    photo, grid = _board_photo(side_px=48)
    shake = np.zeros((15, 15), np.float32)
    np.fill_diagonal(shake, 1.0 / 15)
    shaken = cv2.filter2D(photo, -1, shake)
    assert directional_sharpness(photo) > 0.3
    assert directional_sharpness(shaken) < DIRECTIONAL_BLURRED
    assert sharpness(shaken, grid) > directional_sharpness(shaken)  # edges along the shake stay sharp
    assert directional_sharpness(np.full((100, 100), 90, np.uint8)) is None


def test_a_crisp_striped_cloth_or_wood_grain_is_not_taken_for_a_shaken_photo():
    from scorer.vision.quality import DIRECTIONAL_BLURRED, directional_sharpness

    y, x = np.indices((600, 800))
    stripes = ((x // 40) % 2 * 160 + 50).astype(np.uint8)
    assert directional_sharpness(stripes) > DIRECTIONAL_BLURRED
    # across the other way too: the flat pixels beside an edge face no direction (once, as
    # facing 0 degrees, they made horizontal stripes look smeared along x: 0.0)
    assert directional_sharpness(np.ascontiguousarray(stripes.T[:600, :800])) > DIRECTIONAL_BLURRED
    grain = (128 + 60 * np.sign(np.sin((x + 0.3 * y + 8 * np.sin(y / 50.0)) / 6.0))).astype(np.uint8)
    assert directional_sharpness(grain) > DIRECTIONAL_BLURRED
    shake = np.zeros((15, 15), np.float32)
    shake[:, 7] = 1.0 / 15  # shaken across the stripes: now they are smeared
    assert directional_sharpness(cv2.filter2D(stripes, -1, shake.T)) < DIRECTIONAL_BLURRED


def test_what_kept_a_board_from_being_found_is_put_in_words():
    from scorer.vision.quality import blown_share, photo_quality

    photo, grid = _board_photo()
    colour = cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR)
    assert photo_quality(colour).problems() == []
    assert photo_quality(colour).sharpness is None and photo_quality(colour, grid).sharpness == sharpness(photo, grid)
    assert photo_quality(cv2.GaussianBlur(colour, (0, 0), 8.0)).problems() == ["blurred (out of focus or shaken)"]
    bright = np.clip(colour.astype(np.float32) * 1.6, 0, 255).astype(np.uint8)
    assert blown_share(colour) == 0.0 and blown_share(bright) > 0.2  # the light squares
    assert photo_quality(bright).problems() == ["too bright (much of it blown out to white)"]


def test_blown_out_means_every_channel_at_250_or_more():
    from scorer.vision.quality import blown_share

    image = np.zeros((10, 20, 3), np.uint8)
    image[:5, :4] = 250  # 20 of 200 pixels
    image[5:, :4] = (255, 255, 249)  # one channel short: not blown out
    assert blown_share(image) == 0.1
    assert blown_share(image[::2, ::2]) == 6 / 50  # a strided view, as the reader passes: rows 0, 2, 4 by columns 0, 2
    assert blown_share(image[..., 0]) == 0.2  # grey: the one channel
    assert blown_share(np.zeros((0, 4, 3), np.uint8)) == 0.0


def test_the_whole_photos_quality_judged_first_and_the_boards_after_is_the_same():
    from scorer.vision.quality import board_light_level, bright_level, photo_quality, quality_on_board

    photo, grid = _board_photo()
    colour = cv2.cvtColor(cv2.GaussianBlur(photo, (0, 0), 1.5), cv2.COLOR_GRAY2BGR)
    whole = photo_quality(colour)
    assert whole.sharpness is None and whole.light_level == bright_level(cv2.resize(
        cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
    judged = quality_on_board(whole, colour, grid)
    assert judged.sharpness == sharpness(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), grid) is not None
    assert judged.light_level == board_light_level(colour, grid)
    assert (judged.directional_sharpness, judged.blown_share) == (whole.directional_sharpness, whole.blown_share)


def test_a_shaken_photo_is_read_and_warned_of_and_one_too_shaken_says_why():
    from scorer.reader import BLURRED, read_image
    from scorer.vision.grid import NoBoardFound

    path = Path(__file__).resolve().parents[1] / "sample_photos" / "dev" / "studio_001000.jpg"
    photo = cv2.resize(cv2.imread(str(path)), (1600, 1200), interpolation=cv2.INTER_AREA)

    def shaken(length):
        shake = np.zeros((length, length), np.float32)
        np.fill_diagonal(shake, 1.0 / length)
        return cv2.filter2D(photo, -1, shake)

    # 25 px diagonally: the board is found in the photo shrunk, read, and the reading warns.
    reading = read_image(shaken(25), threehouse=False)
    assert (reading.grid.rows, reading.grid.cols) == (8, 8) and reading.blurred and BLURRED in reading.warnings
    # 81 px: only a patch of the board is found, and the error says the photo looks shaken.
    with pytest.raises(NoBoardFound, match=r"the photo looks blurred \(out of focus or shaken\): take it again"):
        read_image(shaken(81), threehouse=False)


def test_a_board_barely_seen_is_read_in_a_sharp_photo_and_not_in_a_blurred_one(monkeypatch):
    import dataclasses

    import scorer.reader as reader
    from scorer.vision.evaluate import load_truth
    from scorer.vision.grid import NoBoardFound

    path = Path(__file__).resolve().parents[1] / "sample_photos" / "dev" / "studio_001000.jpg"
    _, grid, _ = load_truth(path)
    photo = cv2.imread(str(path))
    barely = dataclasses.replace(grid, confidence=reader.BARELY_FOUND - 0.1)
    monkeypatch.setattr(reader, "find_board_grid", lambda image, finer=None: barely)
    reading = reader.read_image(photo, threehouse=False)  # sharp: read, and warned of
    assert reading.board is not None and reading.grid_unsure
    message = re.escape(f"barely seen (grid confidence {barely.confidence:.2f}); the photo looks blurred")
    with pytest.raises(NoBoardFound, match=message):
        reader.read_image(cv2.GaussianBlur(photo, (0, 0), 6), threehouse=False)


def test_a_photo_too_dark_to_read_surely_is_called_so_on_its_board_or_without_one():
    from scorer.vision.quality import DARK_LEVEL, board_light_level, photo_quality

    photo, grid = _board_photo()  # light squares at 220 of 255, dark ones at 40, a grey table at 120
    colour = cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR)
    assert board_light_level(colour, grid) == pytest.approx(220, abs=3)
    assert not photo_quality(colour, grid).too_dark and not photo_quality(colour).too_dark
    # Exposed for a lamp in view: the board dim, a bright patch beside it.
    dim = (colour * 0.15).astype(np.uint8)
    dim[:40, :40] = 255
    assert board_light_level(dim, grid) < DARK_LEVEL
    assert photo_quality(dim, grid).too_dark and photo_quality(dim, grid).problems() == ["too dark"]
    # Without a board, the photo's brighter tenth says it.
    assert photo_quality(dim).too_dark
    assert not photo_quality((colour * 0.3).astype(np.uint8)).too_dark  # a dim photo whose lights reach 66


def test_a_reading_of_a_photo_too_dark_says_so():
    from scorer.reader import DARK, read_image

    path = Path(__file__).resolve().parents[1] / "sample_photos" / "dev" / "studio_001000.jpg"
    photo = cv2.resize(cv2.imread(str(path)), (1600, 1200), interpolation=cv2.INTER_AREA)
    assert DARK not in read_image(photo, threehouse=False).warnings
    linear = (photo / 255.0) ** 2.2 * 2.0 ** -7  # seven stops short: the light squares near 25
    dark = np.clip(np.rint(255 * linear ** (1 / 2.2)), 0, 255).astype(np.uint8)
    reading = read_image(dark, threehouse=False)
    assert reading.warnings[0] == DARK and reading.warning_kinds[0] == "photo" and reading.quality.too_dark


def test_no_board_found_in_a_photo_too_dark_says_it_looks_too_dark():
    from scorer.reader import read_image
    from scorer.vision.grid import NoBoardFound

    night = np.random.default_rng(0).integers(0, 25, (600, 800, 3), dtype=np.uint8)  # a room at night
    with pytest.raises(NoBoardFound, match=r"the photo looks too dark: take it again"):
        read_image(night, threehouse=False)
