"""Stage 2 of the photo reader: finding the checkerboard and fitting every square.

Synthetic warped checkerboards (drawn here with OpenCV: any size 5..8, camera from top-down to
60 degrees, any turn, clutter, occluders, a wrinkled cloth) are fixtures with an exact answer;
the real photos in tests/data/real_chessboards are the check that matters.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.board import PARK, Board, Piece, Square
from scorer.errors import UserError
from scorer.vision.grid import (OTHER_BOARD_SHARE, STRONGEST_CORNERS, ClothOnly, Extent,
                                InvalidCorners, NoBoardFound, _orient, _plane_without_misfits, clockwise_from_top_left,
                                consistent_corners, correction_field, find_grid, grid_from_corners, on_lattice,
                                parse_squares, runs_on, the_photos_board)
from scorer.vision.grid_eval import (evaluate_centres, evaluate_grid, evaluate_photos, labelled_photos, marked_by_hand,
                                     summarise)
from scorer.vision.lattice import (Lattice, NearestPoint, chance_hits, fit_lattices, lattice_score, local_scale,
                                   project)
from scorer.vision.xcorners import detect_xcorners
from scorer.vision.load import load_photo
from synthetic_scene import draw_scene, look_at_camera
from two_boards import photo_with_another_board

REAL = Path(__file__).parent / "data" / "real_chessboards"
GRID_CASES = Path(__file__).parent / "data" / "grid_cases"  # studio renders the finder once missed
SQUARE_PX = 48


def checkerboard_photo(rows, cols, *, elevation, yaw, seed, occluders=0, wrinkle=0.0,
                       border=0.6, size=(1200, 900), distance=None):
    """A warped checkerboard on a cluttered table. Returns (BGR image, true outer corners
    clockwise from the one nearest the image's top-left, true intersections (rows+1, cols+1, 2)
    indexed [y][x] in board squares from the texture's bottom-left)."""
    rng = np.random.default_rng(seed)
    width, height = size
    distance = distance or rng.uniform(1.5, 1.9) * max(rows, cols) + 2
    camera = look_at_camera(width, height, elevation, distance, yaw, target=(cols / 2, rows / 2))
    plane = camera[:, [0, 1, 3]]  # board (x, y) in squares -> image
    # Table: blurred noise plus wood-like stripes.
    table = rng.normal(0, 1, (height // 8, width // 8))
    table = cv2.resize(cv2.GaussianBlur(table, (0, 0), 2), (width, height))
    stripes = np.sin(np.linspace(0, rng.uniform(20, 60), width))[None, :] * 12
    base = np.array(rng.uniform(60, 170, 3))
    image = np.clip(base[None, None, :] + (table * 25 + stripes)[..., None], 0, 255).astype(np.uint8)
    # Board texture with a plain border (a printed cloth or a wooden frame).
    margin = int(border * SQUARE_PX)
    light = np.array(rng.uniform(170, 235, 3))
    dark = np.array(rng.uniform(15, 90, 3))
    tex = np.empty(((rows * SQUARE_PX) + 2 * margin, cols * SQUARE_PX + 2 * margin, 3))
    tex[:] = light * rng.uniform(0.85, 1.0)
    for r in range(rows):
        for c in range(cols):
            y0 = margin + (rows - 1 - r) * SQUARE_PX
            x0 = margin + c * SQUARE_PX
            tex[y0:y0 + SQUARE_PX, x0:x0 + SQUARE_PX] = dark if (r + c) % 2 == 0 else light
    tex = tex.astype(np.uint8)
    ys, xs = np.mgrid[0:rows + 1, 0:cols + 1]
    tex_points = np.stack([margin + xs * SQUARE_PX, margin + (rows - ys) * SQUARE_PX], axis=-1).astype(float)
    if wrinkle:
        # Folds of the cloth: a displacement of up to `wrinkle` squares with a wavelength of
        # 5-9 squares, in the board's own plane (no single homography explains it).
        th, tw = tex.shape[:2]
        gy, gx = np.mgrid[0:th, 0:tw].astype(np.float32)
        field = []
        for _ in range(2):
            wave = np.zeros((th, tw), np.float32)
            for _ in range(2):
                k = 2 * np.pi / (rng.uniform(5, 9) * SQUARE_PX)
                angle = rng.uniform(0, np.pi)
                wave += np.sin(k * (gx * np.cos(angle) + gy * np.sin(angle)) + rng.uniform(0, 2 * np.pi))
            field.append(wave / 2 * wrinkle * SQUARE_PX)
        tex = cv2.remap(tex, gx + field[0], gy + field[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        # A texture feature at q moves to p where p + d(p) = q; iterate p = q - d(p).
        moved = tex_points.copy()
        for _ in range(8):
            xi = np.clip(moved[..., 0].round().astype(int), 0, tw - 1)
            yi = np.clip(moved[..., 1].round().astype(int), 0, th - 1)
            moved = tex_points - np.stack([field[0][yi, xi], field[1][yi, xi]], axis=-1)
        tex_points = moved
    to_board = np.array([[1 / SQUARE_PX, 0, -margin / SQUARE_PX], [0, -1 / SQUARE_PX, rows + margin / SQUARE_PX], [0, 0, 1]])
    warp = plane @ to_board
    warped = cv2.warpPerspective(tex, warp, (width, height), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(tex.shape[:2], 255, np.uint8), warp, (width, height))
    image[mask > 0] = warped[mask > 0]
    truth = project(warp, tex_points.reshape(-1, 2)).reshape(rows + 1, cols + 1, 2)
    # Occluders: hands, pieces and clutter as coloured blobs, some across the board.
    for _ in range(occluders):
        cx, cy = rng.uniform(0, cols), rng.uniform(0, rows)
        centre = project(plane, np.array([[cx, cy]]))[0]
        scale = np.hypot(*(project(plane, np.array([[cx + 1, cy]]))[0] - centre))
        axes = (int(scale * rng.uniform(0.2, 0.6)), int(scale * rng.uniform(0.3, 0.9)))
        cv2.ellipse(image, (int(centre[0]), int(centre[1])), axes, float(rng.uniform(0, 180)), 0, 360,
                    tuple(float(v) for v in rng.uniform(0, 255, 3)), -1, cv2.LINE_AA)
    image = cv2.GaussianBlur(image, (3, 3), 0)
    image = np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    outer = np.array([truth[0, 0], truth[0, cols], truth[rows, cols], truth[rows, 0]])
    return image, clockwise_from_top_left(outer), truth


def _assert_close(fit, truth_corners, rows, cols, tolerance=0.15):
    result = evaluate_grid(fit, truth_corners, rows, cols)
    assert result["found"] and result["size_ok"], result
    assert result["max_error"] <= tolerance, result
    return result


@pytest.mark.parametrize(
    "rows, cols, elevation, yaw",
    [(8, 8, 90, 0), (8, 8, 75, 33), (8, 8, 50, 130), (8, 8, 32, 250), (7, 7, 60, 300), (6, 6, 45, 80),
     (5, 5, 70, 190), (8, 8, 55, 20)],
)
def test_warped_checkerboards_are_found(rows, cols, elevation, yaw):
    image, corners, _ = checkerboard_photo(rows, cols, elevation=elevation, yaw=yaw, seed=rows * 1000 + yaw)
    _assert_close(find_grid(image), corners, rows, cols)


def test_a_board_not_square_is_taken_as_the_square_holding_it_and_called_unsure():
    # Boards in play are square; a window found 6x8 is a board with two rows hidden or out of
    # the photo. Here the board is drawn 6x8 on purpose: the finder reports an 8x8 holding it,
    # unsure of the outline (the reading warns and offers marking the corners).
    from scorer.vision.grid import GRID_UNSURE

    image, corners, truth = checkerboard_photo(6, 8, elevation=55, yaw=20, seed=6 * 1000 + 20)
    fit = find_grid(image)
    assert (fit.rows, fit.cols) == (8, 8) and fit.confidence < GRID_UNSURE
    side = fit.square_side_px()
    assert (_nearest_truth_error(truth, fit.intersections) < 0.25 * side).all()  # every true corner on the fit


@pytest.mark.parametrize("seed", range(4))
def test_occluded_boards_are_found(seed):
    rng = np.random.default_rng(seed)
    image, corners, _ = checkerboard_photo(
        8, 8, elevation=float(rng.uniform(40, 90)), yaw=float(rng.uniform(0, 360)), seed=seed, occluders=14
    )
    _assert_close(find_grid(image), corners, 8, 8, tolerance=0.2)


@pytest.mark.parametrize("seed, size, play, elevation", [(1, 8, 8, 60), (2, 8, 6, 45), (3, 6, 6, 70), (4, 7, 5, 40)])
def test_boards_covered_by_pyramids_are_found(seed, size, play, elevation):
    """A finished game: every play-area square holds a pyramid or a park."""
    rng = np.random.default_rng(seed)
    board = Board(play, play)
    for square in board.squares():
        board[square] = PARK if rng.random() < 0.1 else Piece.from_symbol(f"{'rbgy'[rng.integers(0, 4)]}{rng.integers(1, 4)}")
    offset = (size - play) // 2
    image, _, corners = draw_scene(board, origin=(offset, offset), size=(size, size), elevation_deg=elevation,
                                   yaw_deg=float(rng.uniform(0, 360)), distance=1.9 * size, seed=seed)
    _assert_close(find_grid(image), corners, size, size)


def test_wrinkled_cloth_is_followed_square_by_square():
    """A fold that puts one plane up to a fifth of a square off: every intersection with an
    x-corner is fitted on its own; the outer ring (no x-corners there) is extrapolated and is
    no worse than the plane."""
    image, corners, truth = checkerboard_photo(8, 8, elevation=55, yaw=20, seed=7, wrinkle=0.12)
    fit = find_grid(image)
    _assert_close(fit, corners, 8, 8, tolerance=0.3)
    side = np.median(np.hypot(*np.diff(truth, axis=1).reshape(-1, 2).T))
    ys, xs = np.mgrid[0:9, 0:9]
    plane = project(fit.homography, np.stack([xs, ys], axis=-1).reshape(-1, 2).astype(float)).reshape(9, 9, 2)
    plane_err = _nearest_truth_error(plane, truth) / side
    refined_err = _nearest_truth_error(fit.intersections, truth) / side
    inner = np.zeros((9, 9), bool)
    inner[1:-1, 1:-1] = True
    inner = inner.ravel()
    assert plane_err.max() > 0.12  # the fixture is really folded
    assert np.median(refined_err[inner]) < 0.5 * np.median(plane_err[inner])
    assert np.percentile(refined_err[inner], 90) < 0.04
    assert refined_err[~inner].max() < max(0.3, plane_err[~inner].max() + 0.05)


def test_a_corner_mismeasured_on_its_own_is_left_out_and_a_fold_kept():
    """An x-corner off its neighbours' smooth offsets (a piece's edge beside it) is not
    trusted; a patch of corners moved together (a fold of the cloth) is."""
    ii, jj = np.meshgrid(np.arange(1, 8), np.arange(1, 8), indexing="ij")
    known = np.stack([ii.ravel(), jj.ravel()], axis=1).astype(np.float64)
    scale = np.full(len(known), 50.0)  # px per square
    rng = np.random.default_rng(0)
    offsets = rng.normal(0.0, 0.5, known.shape)  # half a pixel of noise
    lone = 24  # (4, 4)
    offsets[lone] += [10.0, -6.0]  # 0.23 of a square, alone
    assert consistent_corners(known, offsets, scale).tolist() == [k != lone for k in range(len(known))]
    fold = offsets.copy()
    fold[lone] -= [10.0, -6.0]
    fold[:, 1] += 8.0 * np.exp(-((known[:, 0] - 6.0) ** 2) / 2.0)  # a ridge along column 6
    assert consistent_corners(known, fold, scale).all()
    patch = (known[:, 0] >= 5) & (known[:, 0] <= 6) & (known[:, 1] >= 5) & (known[:, 1] <= 6)
    bump = offsets.copy()
    bump[lone] -= [10.0, -6.0]
    bump[patch] += [-12.0, 12.0]  # a 2x2 patch a third of a square off, together
    assert consistent_corners(known, bump, scale).all()
    crease = offsets.copy()
    crease[lone] -= [10.0, -6.0]
    row = known[:, 1] == 3
    crease[row] += [0.0, 12.0]  # a crease: one row of corners a quarter square off
    kept = consistent_corners(known, crease, scale)
    assert kept[row][1:-1].all()  # each with two neighbours moved alike
    followed = correction_field(known, known, crease, scale, trusted=kept)
    assert np.allclose(followed[row], crease[row])  # the board is taken as folded: the crease is followed


def _perspective_plane() -> np.ndarray:
    """Board squares (-1..7) to px of a board seen at a slant: 60 px squares, the far edge shorter."""
    board = np.float32([[-1, -1], [7, -1], [7, 7], [-1, 7]])
    image = np.float32([[100, 700], [660, 700], [560, 200], [200, 200]])
    return cv2.getPerspectiveTransform(board, image)


def test_mismeasured_corners_side_by_side_do_not_tilt_the_plane():
    """Two mismeasured x-corners next to each other (beside the pieces in one part of a
    blurred photo) vouch for each other; far from the well measured ones they would tilt a
    least-squares plane by a good part of a square at the board's far corner."""
    truth = _perspective_plane()
    good = np.array([[i, j] for i in range(3) for j in range(7)], np.float64)  # three columns
    bad = np.array([[5, 6], [6, 6], [6, 2]], np.float64)
    src = np.vstack([good, bad])
    rng = np.random.default_rng(3)
    dst = project(truth, src) + rng.normal(0.0, 0.15, src.shape)  # a quarter of a hundredth of a square
    dst[len(good):len(good) + 2] += [9.0, 7.0]  # the pair: about a quarter of a square off, together
    dst[len(good) + 2] += [-8.0, 5.0]
    far = np.array([[7.0, 7.0], [-1.0, 7.0], [7.0, -1.0], [-1.0, -1.0]])
    side = float(np.median(local_scale(truth, far)))
    least_squares, _ = cv2.findHomography(src, dst, 0)
    assert np.hypot(*(project(least_squares, far) - project(truth, far)).T).max() / side > 0.15
    plane, kept = _plane_without_misfits(src, dst, least_squares)
    assert not kept[len(good):].any()
    assert np.hypot(*(project(plane, far) - project(truth, far)).T).max() / side < 0.03


def test_the_plane_fit_keeps_a_creases_corners():
    """A crease (a row of corners a quarter of a square off, together) is no pair of misfits:
    its middle corners stay in, so the board is taken as folded."""
    truth = _perspective_plane()
    src = np.array([[i, j] for i in range(7) for j in range(7)], np.float64)
    scale = local_scale(truth, src)
    dst = project(truth, src) + np.random.default_rng(4).normal(0.0, 0.15, src.shape)
    row = src[:, 1] == 4
    dst[row, 1] += 0.25 * scale[row]
    plane, kept = _plane_without_misfits(src, dst, truth)
    assert kept[row][2:-2].all()  # two corners at each end are left out, as before this fit
    offsets = dst - project(plane, src)
    assert correction_field(src, src, offsets, local_scale(plane, src), trusted=kept).any()


def test_the_plane_fit_follows_a_fold_at_a_slant():
    """A fold whose ridge runs at a slant to the lattice moves each corner beyond it by a
    different amount (no two neighbours alike): its corners still come back, so the board is
    taken as folded, not as the flat half on one side of the ridge (a review's case)."""
    truth = _perspective_plane()
    src = np.array([[i, j] for i in range(7) for j in range(7)], np.float64)
    normal = np.array([1.0, -2.0]) / np.sqrt(5.0)
    moved = src + 0.3 * np.maximum((src - 3.0) @ normal, 0.0)[:, None] * np.array([0.0, 1.0])
    scale = local_scale(truth, src)
    dst = project(truth, moved) + np.random.default_rng(5).normal(0.0, 0.005, src.shape) * scale[:, None]
    least_squares, _ = cv2.findHomography(src, dst, 0)
    plane, kept = _plane_without_misfits(src, dst, least_squares)
    beyond = (src - 3.0) @ normal > 0.5
    assert kept[beyond].mean() > 0.5
    offsets = dst - project(plane, src)
    assert correction_field(src, src, offsets, local_scale(plane, src), trusted=kept).any()


def test_a_flat_board_takes_its_plane_everywhere():
    """On a flat board (x-corners within their noise of one plane) every intersection, its
    own x-corner's included, is the plane's: a lone x-corner's noise does not bend it."""
    coords = np.array([[i, j] for i in range(3) for j in range(3)], np.float64)
    offsets = np.random.default_rng(1).normal(0.0, 0.3, coords.shape)
    assert not correction_field(coords, coords, offsets, np.full(len(coords), 50.0)).any()
    none = np.zeros(len(coords), bool)  # none trusted: all are, as by default
    assert not correction_field(coords, coords, offsets, np.full(len(coords), 50.0), trusted=none).any()


def _nearest_truth_error(points, truth):
    flat = truth.reshape(-1, 2)
    pts = points.reshape(-1, 2)
    return np.hypot(*(pts[:, None, :] - flat[None, :, :]).transpose(2, 0, 1)).min(axis=1)


def test_orientation_convention(monkeypatch):
    """Row 0 is the edge nearest the image bottom; column 0 at its left; corners clockwise."""
    import scorer.vision.grid as grid_module

    # A 6x8 board, found as it is (not completed to the square holding it), shows whether rows
    # and columns are swapped.
    monkeypatch.setattr(grid_module, "_square_holding", lambda *args: None)
    for yaw in (0, 40, 100, 200, 290):
        image, corners, _ = checkerboard_photo(6, 8, elevation=60, yaw=yaw, seed=yaw)
        fit = find_grid(image)
        grid = fit.intersections
        edges = {
            "bottom": (grid[0, 0] + grid[0, -1]) / 2,
            "top": (grid[-1, 0] + grid[-1, -1]) / 2,
            "left": (grid[0, 0] + grid[-1, 0]) / 2,
            "right": (grid[0, -1] + grid[-1, -1]) / 2,
        }
        assert edges["bottom"][1] == max(e[1] for e in edges.values())
        # Column 0 is at the viewer's left when standing at the bottom edge facing the board.
        facing = edges["top"] - edges["bottom"]
        left = np.array([facing[1], -facing[0]])
        assert np.dot(grid[0, 0] - grid[0, -1], left) > 0
        # Board plane through the homography agrees with the refined grid at the corners.
        assert np.allclose(project(fit.homography, np.array([[0, 0], [fit.cols, fit.rows]], float)),
                           [grid[0, 0], grid[-1, -1]], atol=3)
        # square_quad and square_centre follow the same labelling.
        quad = fit.square_quad(0, 0)
        assert np.allclose(quad[0], grid[0, 0]) and np.allclose(quad[2], grid[1, 1])
        centre = fit.square_centre(fit.cols - 1, fit.rows - 1)
        assert np.hypot(*(centre - grid[-2:, -2:].reshape(-1, 2).mean(axis=0))) < 2
        # Corners: clockwise on screen from the one nearest the top-left.
        c = fit.corners
        assert np.argmin(np.hypot(c[:, 0], c[:, 1])) == 0
        signed_area = sum(c[k, 0] * c[(k + 1) % 4, 1] - c[(k + 1) % 4, 0] * c[k, 1] for k in range(4))
        assert signed_area > 0  # y down: positive shoelace area is clockwise on screen
        assert {fit.rows, fit.cols} == {6, 8}


def test_turned_follows_board_rotated():
    """GridFit.turned(k) relabels squares exactly as Board.rotated does to the notation."""
    image, _, _ = checkerboard_photo(6, 8, elevation=70, yaw=35, seed=21)
    fit = find_grid(image)
    board = Board(fit.rows, fit.cols)
    board[Square(2, 1)] = Piece.from_symbol("r3")
    turned_fit, turned_board = fit.turned(1), board.rotated()
    (square,) = [s for s in turned_board.squares() if turned_board[s] is not None]
    assert (turned_fit.rows, turned_fit.cols) == (fit.cols, fit.rows)
    assert np.allclose(turned_fit.square_centre(square.col, square.row), fit.square_centre(2, 1))
    assert np.allclose(project(turned_fit.homography, np.array([[square.col + 0.5, square.row + 0.5]]))[0],
                       project(fit.homography, np.array([[2.5, 1.5]]))[0])
    back = fit.turned(1).turned(3)
    assert np.allclose(back.intersections, fit.intersections) and np.allclose(back.homography, fit.homography)
    assert fit.bottom_turns() == 0  # find_grid already puts the lowest edge at row 0
    assert fit.turned(1).bottom_turns() == 3
    assert fit.bottom_margin() > 0 and fit.bottom_margin() == pytest.approx(fit.turned(2).bottom_margin())
    runner_up = fit.runner_up_turns()  # the edge that would be row 1 if the call went the other way
    assert runner_up != 0
    assert fit.turned(runner_up).edge_heights()[0] == pytest.approx(np.sort(fit.edge_heights())[-2])


def test_scaled_fit_matches_the_resized_photo():
    image, corners, _ = checkerboard_photo(8, 8, elevation=70, yaw=15, seed=3, size=(1600, 1200))
    fit = find_grid(image)
    half = fit.scaled(0.5)
    assert np.allclose(half.corners, fit.corners * 0.5)
    assert np.allclose(half.square_centre(2, 3), fit.square_centre(2, 3) * 0.5)
    assert np.allclose(half.board_to_image(np.array([[2.5, 3.5]]))[0], half.square_centre(2, 3), atol=1.0)
    assert half.square_side_px() == pytest.approx(fit.square_side_px() * 0.5)


def test_outline_of_a_rectangle_of_squares():
    """GridFit.outline: the refined intersections at a rectangle's corners, carried on by the
    edge squares past the board's edge."""
    image, _, _ = checkerboard_photo(8, 8, elevation=60, yaw=20, seed=5)
    fit = find_grid(image)
    pts = fit.intersections
    assert np.allclose(fit.outline(1, 2, 5, 4), [pts[2, 1], pts[2, 6], pts[6, 6], pts[6, 1]], atol=1e-6)
    past = fit.outline(fit.cols - 1, 0, 2, 1)  # one square past the right edge
    step = fit.square_quad(fit.cols - 1, 0)[1] - fit.square_quad(fit.cols - 1, 0)[0]
    assert np.linalg.norm(past[1] - pts[0, fit.cols] - step) < 0.2 * np.linalg.norm(step)


def test_square_side_of_a_square_on_grid():
    from scorer.vision.evaluate import truth_grid

    fit = truth_grid(6, 8, [[100, 50], [500, 50], [500, 350], [100, 350]])  # 50 px squares
    assert fit.square_side_px() == pytest.approx(50.0)


def checked_cloth(size=(800, 600), check_px=40, narrowing=0.3) -> np.ndarray:
    """A two-tone checked tablecloth filling a photo taken at a slant (its checks
    ``narrowing`` smaller at the top than at the bottom)."""
    width, height = size
    flat = ((np.arange(3 * height)[:, None] // check_px + np.arange(3 * width)[None, :] // check_px) % 2) * 150 + 55
    flat = cv2.cvtColor(flat.astype(np.uint8), cv2.COLOR_GRAY2BGR)
    src = np.float32([[width, height], [2 * width, height], [2 * width, 2 * height], [width, 2 * height]])
    inset = narrowing * width / 2
    dst = np.float32([[inset, 0], [width - inset, 0], [width, height], [0, height]])
    return cv2.warpPerspective(flat, cv2.getPerspectiveTransform(src, dst), (width, height))


@pytest.mark.parametrize("kind", ["blank", "noise", "stripes", "dots"])
def test_no_board_raises_a_user_error(kind):
    rng = np.random.default_rng(0)
    if kind == "blank":
        image = np.full((600, 800, 3), 128, np.uint8)
    elif kind == "noise":
        image = rng.integers(0, 255, (600, 800, 3), dtype=np.uint8)
    elif kind == "stripes":
        image = np.zeros((600, 800, 3), np.uint8)
        image[:, (np.arange(800) // 40) % 2 == 0] = 255
    else:
        image = np.full((600, 800, 3), 200, np.uint8)
        for y in range(20, 600, 50):
            for x in range(20, 800, 50):
                cv2.circle(image, (x, y), 12, (30, 30, 30), -1)
    with pytest.raises(NoBoardFound) as caught:
        find_grid(image)
    assert isinstance(caught.value, UserError) and "\n" not in str(caught.value)


def test_a_board_on_a_checked_tablecloth_is_found():
    """The cloth's checks pass every test of a board but that they go on past eight, and
    its corners fill the x-corner detector's quota: the board is found among the rest."""
    image = checked_cloth((1000, 800), check_px=30)
    board, corners, _ = checkerboard_photo(8, 8, elevation=60, yaw=20, seed=5, size=(1000, 800))
    outline = np.zeros(image.shape[:2], np.uint8)
    border = corners.mean(axis=0) + 1.15 * (corners - corners.mean(axis=0))  # the board's frame as well
    cv2.fillPoly(outline, [np.round(border).astype(np.int32)], 255)
    image[outline > 0] = board[outline > 0]
    _assert_close(find_grid(image), corners, 8, 8)


def test_a_window_of_eight_runs_on_where_the_checks_go_on_past_two_of_its_sides():
    along_i, along_j = np.zeros((11, 12)), np.zeros((12, 11))  # 12 x 12 squares, all table
    a, b = 2, 2  # an 8 x 8 window, squares 2..9 each way
    along_i[a:a + 7, b:b + 8] = along_j[a:a + 8, b:b + 7] = 1.0  # its own squares alternate
    assert not runs_on(along_i, along_j, a, b, 8, 8)  # a board: table all round
    along_j[a - 1, b:b + 7] = 0.9  # the column left of it alternates too
    assert not runs_on(along_i, along_j, a, b, 8, 8)  # one side: a board a square off, at worst
    along_i[a:a + 7, b + 8] = 0.8  # and the row above it
    assert runs_on(along_i, along_j, a, b, 8, 8)  # a cloth
    assert not runs_on(along_i, along_j, a, b, 7, 8)  # a window of 7 may grow to 8: only one side counts
    along_i[a:a + 7, b + 8] = np.nan
    along_i[a, b + 8] = along_i[a + 1, b + 8] = 0.8  # only 2 squares of that row seen
    assert not runs_on(along_i, along_j, a, b, 8, 8)


def test_on_lattice_finds_a_cloths_corners_anywhere_on_its_plane():
    plane = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]),
                                        np.float32([[300, 200], [340, 202], [345, 240], [296, 238]]))
    grown = np.array([[i, j] for i in range(3) for j in range(3)], np.float64)
    cloth = Lattice(plane, grown.astype(int), project(plane, grown), 1, 100.0)
    far = project(plane, np.array([[-4.0, 5.0], [9.0, 3.0]]))  # never grown, on the same plane
    between = project(plane, np.array([[-4.5, 5.0], [9.3, 3.4]]))  # a board's corners at another period
    assert on_lattice(np.vstack([far, between]), cloth).tolist() == [True, True, False, False]


def test_evaluate_grid_matches_corners_up_to_turns():
    image, corners, _ = checkerboard_photo(8, 8, elevation=80, yaw=10, seed=11)
    fit = find_grid(image)
    for shift in range(4):
        result = evaluate_grid(fit, np.roll(corners, shift, axis=0), 8, 8)
        assert result["correct"] and result["max_error"] < 0.15
    far = evaluate_grid(fit, corners + 100, 8, 8)
    assert not far["correct"]
    assert evaluate_grid(None, corners, 8, 8) == {"found": False, "size_ok": False, "mean_error": None,
                                                   "max_error": None, "correct": False}


# --- real photos ---------------------------------------------------------------------------

_LABELS = {entry["file"]: entry for entry in json.loads((REAL / "labels.json").read_text())}
# chess_img_19: a player's arm hides the far rows and one grid corner; the finder stops at the
# 5 rows it can see (an 8x5 window): the square holding it would add three rows in the photo,
# more than MAX_ROWS_COMPLETED, and went a row off. Kept visible as a strict expected failure.
_KNOWN_MISSES = {"chess_img_19.jpg"}


@pytest.mark.parametrize("name", sorted(_LABELS))
def test_real_chessboard_photos(name):
    entry = _LABELS[name]
    fit = find_grid(load_photo(REAL / name))
    result = evaluate_grid(fit, entry["corners_px"], 8, 8)
    if name in _KNOWN_MISSES:
        assert not result["correct"], f"{name} is now found: remove it from _KNOWN_MISSES"
        assert {fit.rows, fit.cols} == {5, 8}  # the part seen, not completed a row off
        pytest.xfail("known miss: an arm hides the far rows and a corner")
    assert result["correct"], result
    assert result["mean_error"] < 0.12, result


@pytest.mark.parametrize("name", ["chess_img_04.jpg", "chess_img_27.jpg", "chess_img_29.jpg"])
def test_a_shaken_photo_is_found_whole(name):
    # A hand's shake, 15 px sideways at 1600 px: at the working size the x-corners smear past
    # the detector's ring and only a 3x3 to 6x3 patch was found; shrunk, the whole board is.
    image = load_photo(REAL / name)
    length = int(round(15 * max(image.shape[:2]) / 1600)) | 1
    shaken = cv2.filter2D(image, -1, np.full((1, length), 1.0 / length), borderType=cv2.BORDER_REPLICATE)
    result = evaluate_grid(find_grid(shaken), _LABELS[name]["corners_px"], 8, 8)
    assert result["correct"] and result["max_error"] < 0.25, result



# Pairs where the pasted board, cleaner than the photo's own (no hands, fewer pieces), was
# once taken for the board the photo is of.
@pytest.mark.parametrize("main, other", [("chess_img_06.jpg", "chess_img_16.jpg"), ("chess_img_08.jpg", "chess_img_27.jpg"),
                                         ("chess_img_38.jpg", "chess_img_04.jpg")])
def test_of_two_boards_in_a_photo_the_one_that_fills_most_of_it_is_found(main, other):
    image, main_corners, other_corners = photo_with_another_board(main, other, share=0.5)
    fit = find_grid(image)
    assert evaluate_grid(fit, main_corners, 8, 8)["correct"], evaluate_grid(fit, main_corners, 8, 8)
    assert fit.another_board
    assert not find_grid(load_photo(REAL / main)).another_board  # the photo alone shows one


def _window_at(x: float, y: float, side: float, score: float, size: int = 8) -> tuple[Extent, Lattice]:
    """An 8x8 (``size``) window whose lattice squares are ``side`` px, its corner at (x, y) px."""
    lattice = Lattice(homography=np.array([[side, 0, x], [0, side, y], [0, 0, 1.0]]), indices=np.zeros((0, 2), int),
                      points=np.zeros((0, 2)), polarity=1, contrast=100.0)
    return Extent(0, 0, size, size, score, 5.0), lattice


def test_the_board_read_is_the_clearest_unless_another_board_covers_more_of_the_photos_middle():
    shape = (1000, 1000)  # its middle: 250..750 each way
    clear_small = _window_at(10, 10, 10, 80.0)  # in a corner
    big = _window_at(200, 200, 40, 80.0 * OTHER_BOARD_SHARE)
    assert the_photos_board([clear_small, big], shape) == (big, True)
    faint_big = _window_at(200, 200, 40, 80.0 * OTHER_BOARD_SHARE - 1)  # too faint to be a board beside the clear one
    assert the_photos_board([clear_small, faint_big], shape) == (clear_small, False)
    same_board = _window_at(5, 5, 12, 60.0)  # overlaps the clearest: another lattice on the same board
    assert the_photos_board([clear_small, same_board], shape) == (clear_small, False)
    patch = _window_at(200, 200, 100, 79.0, size=4)  # smaller than a board each way
    assert the_photos_board([clear_small, patch], shape) == (clear_small, False)
    smaller = _window_at(200, 200, 5, 79.0)  # another board, wholly in the photo, off its middle too
    assert the_photos_board([clear_small, smaller], shape) == (clear_small, True)
    behind = _window_at(87, 10, 10, 79.0)  # another board, a sliver of it behind the clear one's edge (4% of it)
    assert the_photos_board([clear_small, behind], shape) == (clear_small, True)
    # the photo's own board reaching past its edge is read, and the clear one is another
    cut_off = _window_at(700, 700, 40, 79.0)
    assert the_photos_board([clear_small, cut_off], shape) == (cut_off, True)
    # a neighbouring table's board cut off at the edge, off the middle: neither read nor said to be seen
    neighbour = _window_at(900, 900, 40, 79.0)
    assert the_photos_board([clear_small, neighbour], shape) == (clear_small, False)
    # of two whole boards, the one in the middle, though the other fills more of the photo
    centred = _window_at(400, 400, 20, 80.0)
    corner = _window_at(0, 600, 45, 79.0)
    assert the_photos_board([centred, corner], shape) == (centred, True)
    assert the_photos_board([corner, centred], shape) == (centred, True)
    assert the_photos_board([clear_small], shape) == (clear_small, False)


def test_the_photos_own_board_cut_by_its_edge_is_found_beside_a_whole_one():
    # A tight frame: the photo's own board reaches past the photo's left edge by half a square,
    # the cleaner board pasted in stays whole.
    image, main_corners, other_corners = photo_with_another_board("chess_img_03.jpg", "chess_img_01.jpg")
    left = int(main_corners[:, 0].min() + 0.5 * np.linalg.norm(main_corners[1] - main_corners[0]) / 8)
    assert other_corners[:, 0].min() > left
    fit = find_grid(np.ascontiguousarray(image[:, left:]))
    assert evaluate_grid(fit, main_corners - (left, 0), 8, 8)["correct"]  # its corner out of the photo too
    assert fit.another_board

# --- corners marked by hand -------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(_LABELS))
def test_a_board_marked_by_hand_is_fitted_to_its_squares(name):
    # Taps a quarter of a square off, in any order, give the grid to a tenth of a square: on
    # chess_img_19 too, where the finder alone sees only part of the board.
    entry = _LABELS[name]
    image = load_photo(REAL / name)
    rng = np.random.default_rng(sum(map(ord, name)))
    fit = grid_from_corners(image, marked_by_hand(entry["corners_px"], 8, 8, rng, 0.25), 8, 8)
    result = evaluate_grid(fit, entry["corners_px"], 8, 8)
    assert result["correct"] and result["max_error"] < 0.15, result
    assert fit.support >= 20  # snapped to the board's own x-corners, not just the taps


def test_marks_with_no_board_under_them_are_taken_as_they_are():
    blank = np.full((480, 640, 3), 120, np.uint8)
    marks = [[100, 80], [540, 90], [560, 420], [90, 400]]
    fit = grid_from_corners(blank, [marks[2], marks[0], marks[3], marks[1]], 6, 6)
    assert (fit.rows, fit.cols, fit.support) == (6, 6, 0)
    assert np.abs(clockwise_from_top_left(fit.corners) - np.array(marks)).max() < 1e-6


def test_marks_of_another_size_than_the_board_fall_back_to_the_marks():
    # chess_img_27's 8x8 marked as if it were 5x5: the few x-corners near the wrong lattice
    # once gave a degenerate refit with corners of nan; the marks are taken as they are instead.
    image = load_photo(REAL / "chess_img_27.jpg")
    marks = [[579.6, 520.1], [1050.6, 406.0], [1470.7, 714.9], [1004.4, 957.3]]
    fit = grid_from_corners(image, marks, 5, 5)
    assert np.isfinite(fit.intersections).all() and fit.support == 0
    assert np.abs(clockwise_from_top_left(fit.corners) - np.array(marks)).max() < 1e-3


@pytest.mark.parametrize("corners, squares, message", [
    ([[0, 0], [100, 0], [100, 100]], (8, 8), "four outer corners"),
    ([[0, 0], [np.nan, 0], [100, 100], [0, 100]], (8, 8), "four outer corners"),
    ([[10, 10], [300, 10], [60, 60], [10, 300]], (8, 8), "do not outline a board"),
    ([[10, 10], [900, 10], [900, 400], [10, 400]], (8, 8), "outside"),
    # each corner within the slack, but the board they outline wholly or nearly all off the photo (a 500 once)
    ([[650, 100], [790, 100], [790, 240], [650, 240]], (8, 8), "nearly all of the board .* lies outside the photo"),
    ([[-150, 100], [-5, 100], [-5, 245], [-150, 245]], (8, 8), "nearly all of the board .* lies outside the photo"),
    ([[-140, 100], [30, 100], [30, 270], [-140, 270]], (8, 8), "nearly all of the board .* lies outside the photo"),
    ([[10, 10], [40, 10], [40, 40], [10, 40]], (8, 8), "too small"),
    ([[100, 300], [300, 302], [500, 300], [300, 298]], (5, 5), "too small"),  # a sliver: long sides, no breadth
    ([[10, 10], [300, 10], [300, 300], [10, 300]], (10, 10), "3 to 8 squares"),
])
def test_marks_that_cannot_outline_a_board_say_why(corners, squares, message):
    with pytest.raises(InvalidCorners, match=message):
        grid_from_corners(np.zeros((480, 640, 3), np.uint8), corners, *squares)
    assert issubclass(InvalidCorners, UserError)


def test_marks_of_a_board_the_photos_edge_cuts_are_taken_while_a_play_area_of_it_may_be_in_the_photo():
    # 5 of 8 columns and rows in the photo (a 5x5 play area in a corner of the board: 0.39 of it)
    fit = grid_from_corners(np.zeros((480, 640, 3), np.uint8), [[-96, -96], [160, -96], [160, 160], [-96, 160]], 8, 8)
    assert (fit.rows, fit.cols) == (8, 8)


def test_marks_of_a_steep_board_whose_far_squares_are_just_readable_are_taken():
    # the far row (at the foot of the photo) 6.2 px across at the least: readable (a cell past its far
    # edge, 5.1 px, is no square of it)
    fit = grid_from_corners(np.zeros((480, 640, 3), np.uint8), [[40, 100], [600, 100], [390, 280], [250, 280]], 8, 8)
    assert (fit.rows, fit.cols) == (8, 8)


def test_board_sizes_are_written_cols_by_rows():
    assert parse_squares("8x8") == (8, 8) and parse_squares("8 x 6") == (8, 6)
    assert parse_squares("7") == (7, 7) and parse_squares("6\u00d75") == (6, 5)
    for bad in ("", "x", "8x", "axb", "8x8x8", "-8x8", "8.5x8", "\u00b2x\u00b2"):
        with pytest.raises(ValueError, match="COLSxROWS"):
            parse_squares(bad)


def test_fit_lattices_gives_every_lattice_grown_largest_first():
    image, _, _ = checkerboard_photo(8, 8, elevation=70, yaw=20, seed=3)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    lattices = fit_lattices(detect_xcorners(gray).points, gray)
    scores = [lattice_score(lattice) for lattice in lattices]
    assert lattices and scores == sorted(scores, reverse=True)
    assert len(lattices[0]) >= 40  # of the board's 49 inner corners
    assert fit_lattices(np.zeros((3, 2)), gray) == []


def _seed_grids(origins: np.ndarray, spacing: float) -> np.ndarray:
    """(S, 64, 2): an 8x8 patch of lattice points ``spacing`` px apart from each origin."""
    steps = np.stack(np.meshgrid(np.arange(8.0), np.arange(8.0)), axis=-1).reshape(-1, 2) * spacing
    return origins[:, None, :] + steps[None, :, :]


def test_chance_hits_are_what_corners_strewn_at_random_give():
    # 800 corners strewn over a 400 x 400 px photo: 8x8 patches of lattice points put down
    # anywhere find one within 0.12 of a 30 px square about as often as chance_hits says.
    rng = np.random.default_rng(1)
    shape = (400, 400)
    points = rng.uniform(0, 400, (800, 2))
    predicted = _seed_grids(rng.uniform(0, 190, (300, 2)), 30.0)
    tolerance = np.full(predicted.shape[:2], 0.12 * 30.0)
    _, gap = NearestPoint(points, shape).query(predicted.reshape(-1, 2))
    hits = (gap.reshape(tolerance.shape) <= tolerance).sum(axis=1)
    chance = chance_hits(points, shape, predicted, tolerance, np.ones(tolerance.shape, bool), hits)
    assert 8 < chance.mean() < 16  # about 64 x (1 - exp(-0.005 pi 3.6^2)) = 11.8
    assert abs(hits.mean() - chance.mean()) < 0.1 * chance.mean()
    # a board's own corners are no chance: alone in the photo, its patch hits them all and
    # none by chance; beside a strewn corner or two, few; points out of view count for nothing
    board = _seed_grids(np.array([[100.0, 100.0]]), 30.0)
    seen, own = np.ones((1, 64), bool), np.array([64])
    assert chance_hits(board[0], shape, board, tolerance[:1], seen, own)[0] == 0.0
    strewn = np.vstack([board[0], [[115.0, 115.0], [205.0, 160.0]]])
    assert 0.0 < chance_hits(strewn, shape, board, tolerance[:1], seen, own)[0] < 0.5
    assert chance_hits(strewn, shape, board, tolerance[:1], np.zeros((1, 64), bool), own)[0] == 0.0


def test_a_lattice_with_no_checker_edge_leaves_its_corners_to_other_seeds(monkeypatch):
    # The first seed grown makes a lattice askew across the board (here: the board's own,
    # its edges read as showing no checker step at all). Its corners claimed, the board's
    # other seeds counted as grown already and the board was lost; now they grow it.
    import scorer.vision.lattice as lattice_module

    image, _, _ = checkerboard_photo(8, 8, elevation=70, yaw=20, seed=3)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    points = detect_xcorners(gray).points
    grow, calls = lattice_module._grow, []

    def first_shows_no_edge(*args):
        lattice = grow(*args)
        calls.append(lattice)
        return dataclasses.replace(lattice, contrast=0.0) if len(calls) == 1 else lattice
    monkeypatch.setattr(lattice_module, "_grow", first_shows_no_edge)
    lattices = fit_lattices(points, gray)
    assert len(calls) >= 2 and lattices and len(lattices[0]) >= 40
    assert all(lattice.contrast > 0 for lattice in lattices)


_GRID_CASES = labelled_photos(GRID_CASES)


@pytest.mark.parametrize("case", _GRID_CASES, ids=[case[0].name for case in _GRID_CASES])
def test_studio_renders_that_fooled_the_finder(case):
    # 031241: a gingham table cloth and a grainy render; the seed cells were made of grain and
    # cloth corners, and loosely matched by more grain. 031074: a 5x5 board whose 16 corners,
    # once seeds were ranked strictly, lost to a lattice of 17 faint strays at another period,
    # until the finder compared the window of every lattice it grew. 030138: a 6x6 board the
    # size of the play area, its edge rows covered, found 7x6 until boards were taken to be
    # square (``grid.SQUARE_PRIOR``). 090039 (6x6 on a dark table) and 090089 (7x7 on a
    # plain one): boards the size of the play area, found with a row of table on two sides
    # whose edge corners they took in, until corners on the outline counted
    # (``grid.BOUNDARY_CORNER``). 111034: a finished 6x6 board, small in the photo, on a
    # speckled laminate whose grain gave 540 x-corners to the board's 32: taken in where the
    # pieces hide the board's own, they stopped its lattice growing, until the finder looked
    # again among the strongest (``grid.STRONGEST_CORNERS``). Measured as grid_eval
    # measures (the photo loaded and the grid found as the reader does).
    rows, _ = evaluate_photos([case])
    assert rows[0]["correct"], rows[0]


def test_square_centres_follow_the_sidecar_convention():
    """The studio's sidecars name play-area squares with row 1 nearest the image bottom; the
    fit's square_centre must land on those same squares."""
    image, corners, truth = checkerboard_photo(8, 8, elevation=65, yaw=130, seed=5)
    fit = find_grid(image)
    # Sidecar-style truth: squares of a 6x6 play area at offset (1, 2), named from row 0 = the
    # edge nearest the image bottom, as the studio writes them.
    grid = _relabel_bottom_first(truth)
    centres = {f"{'ABCDEFGH'[c]}{r + 1}": grid[r + 2:r + 4, c + 1:c + 3].reshape(-1, 2).mean(axis=0).tolist()
               for r in range(6) for c in range(6)}
    result = evaluate_centres(fit, centres, {"col": 1, "row": 2})
    assert result["centre_error_max"] < 0.1
    shifted = evaluate_centres(fit, centres, {"col": 0, "row": 2})
    assert shifted["centre_error"] > 0.9
    assert evaluate_centres(None, centres, {"col": 1, "row": 2})["centre_error"] is None


def _relabel_bottom_first(truth):
    """Turn a (rows+1, cols+1, 2) intersection grid so that row 0 is the edge lowest in the
    image and column 0 its left end seen from there (independently of grid.py's code)."""
    for _ in range(4):
        bottom = (truth[0, 0] + truth[0, -1]) / 2
        others = [(truth[-1, 0] + truth[-1, -1]) / 2, (truth[0, 0] + truth[-1, 0]) / 2, (truth[0, -1] + truth[-1, -1]) / 2]
        if bottom[1] >= max(o[1] for o in others):
            break
        truth = np.rot90(truth)
    if truth[0, 0][0] > truth[0, -1][0]:
        truth = truth[:, ::-1]
    return truth


def test_labelled_photos_reads_labels_json():
    items = labelled_photos(REAL)
    assert len(items) == 12 and all(photo.is_file() for photo, *_ in items)
    assert all(rows == cols == 8 and corners.shape == (4, 2) for _, corners, rows, cols, _ in items)
    summary = summarise([{"found": True, "size_ok": True, "correct": True, "mean_error": 0.1, "max_error": 0.2,
                          "seconds": 0.5}, {"found": False, "size_ok": False, "correct": False, "mean_error": None,
                                            "max_error": None, "seconds": 0.2}])
    assert summary["found_pct"] == 50.0 and summary["mean_corner_error"] == 0.1


def test_grid_eval_command_rejects_a_bad_path_in_one_line(capsys, tmp_path):
    from scorer.vision.grid_eval import main as grid_eval_main

    (tmp_path / "notes.txt").write_text("not json")
    for bad in (tmp_path / "missing", tmp_path / "notes.txt"):
        with pytest.raises(SystemExit) as exit_info:
            grid_eval_main([str(bad)])
        assert exit_info.value.code == 2
        assert "not a labels.json or a folder of photos" in capsys.readouterr().err


def test_a_window_reaching_past_the_horizon_is_no_board_not_nan_corners():
    # A bad plane fit (a shaken photo's few x-corners) can put a window's far intersections
    # behind the camera; the finder once returned such a 5x5 with every corner NaN.
    grid = np.stack(np.meshgrid(np.arange(6.0), np.arange(6.0)), axis=-1) * 50 + 100
    grid[5, :] = np.nan
    with pytest.raises(NoBoardFound):
        _orient(grid.transpose(1, 0, 2), 0.5, 20)
    assert np.isfinite(_orient(grid[:5].transpose(1, 0, 2), 0.5, 20).corners).all()


def _canned_fit(rows, cols, confidence):
    grid = np.stack(np.meshgrid(np.arange(cols + 1.0), np.arange(rows + 1.0)), axis=-1) * 10 + 20
    return _orient(grid.transpose(1, 0, 2), confidence, 9)


def test_an_unsure_or_small_fit_is_looked_for_again_in_the_photo_shrunk(monkeypatch):
    # Canned fits by the width the finder is handed (640 px, then 320 and 160): the order of
    # the search, where it stops, which fit wins, and how a shrunk fit is mapped back.
    import scorer.vision.grid as grid_module

    def search(canned):
        seen = []

        def at_scale(gray, strongest=None):
            key = gray.shape[1] if strongest is None else (gray.shape[1], strongest)
            seen.append(key)
            fit = canned.get(key)
            if fit is None:
                raise NoBoardFound(f"none at {gray.shape[1]}")
            if isinstance(fit, NoBoardFound):
                raise fit
            return fit
        monkeypatch.setattr(grid_module, "_find_grid_at_scale", at_scale)
        try:
            return grid_module.find_grid_gray(np.full((480, 640), 128, np.uint8)), seen
        except NoBoardFound as err:
            return str(err), seen

    sure, unsure, patch = _canned_fit(8, 8, 1.0), _canned_fit(8, 8, 0.5), _canned_fit(3, 3, 0.95)
    assert search({640: sure}) == (sure, [640])
    # a board found sure when shrunk wins over one of the same size found unsure (completed
    # to a square, perhaps on the wrong side); of two unsure, the finer
    found, seen = search({640: unsure, 320: sure})
    assert seen == [640, 320] and found.confidence == 1.0
    assert np.allclose(found.corners, sure.corners * 2 + 0.5)
    again = [(640, STRONGEST_CORNERS), (320, STRONGEST_CORNERS), (160, STRONGEST_CORNERS)]
    assert search({640: unsure, 320: _canned_fit(8, 8, 0.6)}) == (unsure, [640, 320, 160] + again)
    # a patch of the board gives way to a whole board found at a quarter of the size, mapped
    # back with the shrunk px's centres: x -> 4 x + 1.5
    found, seen = search({640: patch, 160: _canned_fit(7, 6, 0.6)})
    assert seen == [640, 320, 160] + again and {found.rows, found.cols} == {6, 7}
    assert np.allclose(np.sort(found.corners.ravel()), np.sort((_canned_fit(7, 6, 0.6).corners * 4 + 1.5).ravel()))
    # nothing anywhere, even among the strongest corners: the working size's own reason
    assert search({}) == ("none at 640", [640, 320, 160] + again)
    # no sure board at any size: the strongest corners alone are looked among, size by size
    # until a sure board, and the best of all the board-sized fits wins (a larger one over a
    # patch or a smaller board, of equals a sure one over an unsure)
    found, seen = search({640: patch, (320, STRONGEST_CORNERS): sure})
    assert seen == [640, 320, 160] + again[:2] and np.allclose(found.corners, sure.corners * 2 + 0.5)
    found, seen = search({640: patch, (640, STRONGEST_CORNERS): unsure, (160, STRONGEST_CORNERS): _canned_fit(3, 3, 1.0)})
    assert seen == [640, 320, 160] + again and found is unsure
    assert search({640: patch, (640, STRONGEST_CORNERS): _canned_fit(4, 4, 1.0)}) == (patch, [640, 320, 160] + again)
    found, seen = search({640: patch, 320: unsure})  # found only unsure: the second look finds nothing better
    assert seen == [640, 320, 160] + again and (found.rows, found.cols, found.confidence) == (8, 8, 0.5)
    found, seen = search({640: _canned_fit(5, 5, 0.4), (320, STRONGEST_CORNERS): _canned_fit(6, 6, 0.6)})
    assert seen == [640, 320, 160] + again and (found.rows, found.cols) == (6, 6)  # the larger board
    found, seen = search({640: unsure, (640, STRONGEST_CORNERS): sure})  # of the same size, the sure one
    assert seen == [640, 320, 160, (640, STRONGEST_CORNERS)] and found is sure
    assert search({640: sure, (640, STRONGEST_CORNERS): _canned_fit(8, 8, 1.0)}) == (sure, [640])  # sure: no second look
    assert search({640: unsure, (640, STRONGEST_CORNERS): _canned_fit(6, 6, 1.0)})[0] is unsure  # added, not instead
    # a tablecloth seen at some size: no second look (its corners would be the strongest)
    assert search({320: ClothOnly("a tablecloth?")}) == ("none at 640", [640, 320, 160])
    # another board seen at one size is seen, whichever size's fit wins
    found, _ = search({640: dataclasses.replace(unsure, another_board=True), 320: sure})
    assert found.confidence == 1.0 and found.another_board
    assert not search({640: unsure, 320: sure})[0].another_board


def test_a_fit_found_in_the_photo_shrunk_lies_on_the_same_px(monkeypatch):
    # With the working size and half of it made to fail, a clean photo's board is found at a
    # quarter of the size; mapped back it lies on the working size's fit to a fraction of a
    # px on average (a plain x4 would put it 1.5 px up and left).
    import scorer.vision.grid as grid_module

    image = load_photo(REAL / "chess_img_06.jpg")
    sharp = find_grid(image)
    at_scale = grid_module._find_grid_at_scale
    quarter = {}

    def only_a_quarter(gray, strongest=None):
        if not quarter:
            quarter["width"] = gray.shape[1] // 4
        if gray.shape[1] != quarter["width"]:
            raise NoBoardFound("not at this size")
        return at_scale(gray, strongest)
    monkeypatch.setattr(grid_module, "_find_grid_at_scale", only_a_quarter)
    coarse = find_grid(image)
    assert (coarse.rows, coarse.cols) == (sharp.rows, sharp.cols)
    shift = (coarse.intersections - sharp.intersections).reshape(-1, 2).mean(axis=0)
    side = sharp.square_side_px()
    assert np.abs(shift).max() < 0.012 * side, (shift, side)


def test_the_square_window_completing_a_window_is_the_best_scoring_one_that_holds_it():
    from scorer.vision.grid import _square_holding

    scores = {(4, 4): np.arange(16, dtype=float).reshape(4, 4)}  # windows at a, b = 0..3 of 4x4
    colour = np.full((7, 7), np.nan)  # square colours: nothing seen, no side favoured
    none_unseen = np.zeros((4, 4))  # every window's neighbour pairs counted as seen
    # A 4x3 window at (1, 1): 4x4 windows at a = 1 (its columns) and b = 0 or 1 hold it; the better wins.
    assert _square_holding(scores, none_unseen, colour, 50.0, 1, 1, 4, 3) == (5.0, 1, 1, 4, 4)
    assert _square_holding(scores, none_unseen, colour, 50.0, 0, 2, 3, 4) == (2.0, 0, 2, 4, 4)  # the one 4x4 that holds a 3x4 at (0, 2)
    assert _square_holding(scores, none_unseen, colour, 50.0, 1, 1, 5, 3) is None  # no 5x5 table
    # When the lowest windows score best, the lowest that still hold it: a 4x3 at (2, 1) lies in
    # the 4x4s at (2, 0..1), a 3x4 at (1, 2) in those at (0..1, 2).
    low = {(4, 4): -np.arange(16, dtype=float).reshape(4, 4)}
    assert _square_holding(low, none_unseen, colour, 50.0, 2, 1, 4, 3)[1:3] == (2, 0)
    assert _square_holding(low, none_unseen, colour, 50.0, 1, 2, 3, 4)[1:3] == (0, 2)


def test_a_square_is_not_completed_onto_a_plain_row_of_table(monkeypatch):
    # Seen from low down, a grey-print board's far row is hidden under pieces (whose tips lean
    # past its edge, so it stands little apart from beyond), and past its near edge lies a row
    # of table as grey as the dark squares, scoring a little better. A 4x3 window at (1, 2) of
    # a 6x7 map: the 4x4 at b = 1 adds the far row (column 1), the one at b = 2 the table's
    # (column 5). The plain row counts against its square, so the far row's wins.
    from scorer.vision import grid as grid_module
    from scorer.vision.grid import EDGE_WEIGHT, _square_holding

    colour = np.full((6, 7), 100.0)
    pieces = np.array([100.0, 160, 70, 140, 90, 150])
    colour[:, 1], colour[:, 0] = pieces, pieces + 10.0
    colour[:, 5], colour[:, 6] = 40.0, 40.0
    scores = {(4, 4): np.zeros((3, 4))}
    scores[4, 4][1, 2] = 0.4 * EDGE_WEIGHT
    seen = np.zeros((3, 4))
    assert _square_holding(scores, seen, colour, 60.0, 1, 2, 4, 3)[1:3] == (1, 1)
    monkeypatch.setattr(grid_module, "PLAIN_ROW_STEP", 0.0)  # a plain row no evidence either way
    assert _square_holding(scores, seen, colour, 60.0, 1, 2, 4, 3)[1:3] == (1, 2)


def test_a_completed_square_takes_the_side_that_stands_apart_from_beyond():
    # A 4x3 window at (1, 1) of a 6x6 map of square colours: the 4x4 at b = 0 adds row 0 (beyond
    # it nothing), the one at b = 1 adds row 4 (beyond it row 5). Row 4 differs from row 5 by
    # the whole contrast (pieces on a board's last row against the table) and wins over a
    # slightly better score; where row 4 looks like row 5 (table past the edge), it loses,
    # unless 7 of its pairs are out of the photo.
    from scorer.vision.grid import EDGE_WEIGHT, PLAIN_ROW_STEP, _square_holding, beyond_step

    scores = {(4, 4): np.zeros((3, 3))}
    scores[4, 4][1, 0] = 0.4 * EDGE_WEIGHT
    colour = np.full((6, 6), 100.0)
    pieces = np.array([100.0, 160, 70, 140, 90, 150])  # a row under pieces, unlike a border or table
    colour[:, 4], colour[:, 5] = pieces, 40.0
    seen = np.zeros((3, 3))
    assert _square_holding(scores, seen, colour, 60.0, 1, 1, 4, 3)[1:3] == (1, 1)
    colour[:, 4], colour[:, 5] = 100.0, 100.0
    assert _square_holding(scores, seen, colour, 60.0, 1, 1, 4, 3)[1:3] == (1, 0)
    colour[:, 5] = 40.0  # a plain row (a printed border) against the table beyond: worse
    assert _square_holding(scores, seen, colour, 60.0, 1, 1, 4, 3)[1:3] == (1, 0)
    colour[:, 5] = 100.0
    # the pairs of row 4 out of the photo count as no evidence against it (not as the table's)
    assert _square_holding(scores, np.array([[0, 0, 0], [0, 7, 0], [0, 0, 0]]), colour, 60.0, 1, 1, 4, 3)[1:3] == (1, 1)
    # the same along the first axis: a 3x4 window at (1, 1), the 4x4s at a = 0 and a = 1
    colour[:, 4], colour[:, 5] = pieces, 40.0
    scores_t = {(4, 4): scores[4, 4].T}
    assert _square_holding(scores_t, seen, colour.T, 60.0, 1, 1, 3, 4)[1:3] == (1, 1)
    colour[:, 4], colour[:, 5] = 100.0, 100.0
    assert _square_holding(scores_t, seen, colour.T, 60.0, 1, 1, 3, 4)[1:3] == (0, 1)
    assert beyond_step(np.array([100.0, 40, 100]), np.array([40.0, 40, 40]), 60.0) == 1.0
    assert beyond_step(np.array([200.0, 203, 198, 201]), np.array([40.0, 40, 40, 40]), 60.0) == PLAIN_ROW_STEP  # a border
    assert beyond_step(np.array([100.0, 40, 100]), None, 60.0) == 0.5  # beyond the map: no word
    assert beyond_step(np.array([100.0, np.nan, 100]), np.full(3, 70.0), 60.0) == 0.5  # under 3 seen


def test_unseen_pairs_and_rows_seen_count_what_lies_out_of_the_photo():
    # A 5x5 map of square colours whose last row (b = 4) is out of the photo: of the 3x3
    # windows, those reaching it hold 2 pairs along it and 3 across into it unseen.
    from scorer.vision.grid import _rows_seen_added, alternation, unseen_pairs

    colour = np.where((np.add.outer(np.arange(5), np.arange(5)) % 2) == 0, 200.0, 50.0)
    colour[:, 4] = np.nan
    along_i, along_j = alternation(colour, 0, 0, 1, 150.0)
    unseen = unseen_pairs(along_i, along_j, 3)
    assert unseen.shape == (3, 3) and (unseen[:, :2] == 0).all() and (unseen[:, 2] == 5).all()
    # completing a 3x2 window at (0, 2) to the 3x3 at (0, 2) adds row 4, unseen; at (0, 1), row 1
    assert _rows_seen_added(colour, (0.0, 0, 2, 3, 2), (0.0, 0, 2, 3, 3)) == 0
    assert _rows_seen_added(colour, (0.0, 0, 2, 3, 2), (0.0, 0, 1, 3, 3)) == 1
    assert _rows_seen_added(colour, (0.0, 1, 2, 2, 2), (0.0, 0, 1, 3, 3)) == 2  # column 0 and row 1
