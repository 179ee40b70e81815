"""Fixed-size views of each square for the learned square classifier (``square_model.py``).

Two views per square, stacked as six channels (BGR, BGR) of ``size`` x ``size`` px:

- ``top``: the board plane seen straight down (through the homography), the square plus a
  quarter square of margin on every side, row 0 of the board at the bottom of the patch;
- ``upright``: an image-space crop standing on the square's centre and reaching up along
  the camera's vertical (the direction a tall piece leans in the photo), 1.5 squares wide,
  from 0.6 of a square below the centre to 1.3 pyramid-heights above it, so the apex of a
  3-pip pyramid is inside it at any tilt.

Colours are white-balanced by the board's own light squares (each channel divided by the
light squares' median there), so the lamp's colour and the exposure matter less.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.camera import camera_from_homography
from scorer.vision.lattice import median_square_side, project

PATCH_PX = 32  # side of each view, px
TOP_SPAN = 1.5  # squares across the top-down view (the square and a margin of 0.25 each side)
UP_WIDTH, UP_BELOW, UP_ABOVE = 1.5, 0.6, 1.3  # upright view: squares wide, squares below, heights above
MIN_LEAN = 0.2  # below this (squares of lean per square of height) the view is straight down
WB_PX = 16  # px per square of the rectified board used for the white balance


def square_side_px(homography: np.ndarray, rows: int, cols: int) -> float:
    """Median side of a square in the image, px (single homography)."""
    ys, xs = np.mgrid[0:rows + 1, 0:cols + 1]
    return median_square_side(project(homography, np.stack([xs, ys], -1).astype(np.float64)))


def light_square_colour(image_bgr: np.ndarray, homography: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """BGR of the board's light squares: the median of their corners (which a centred piece
    leaves bare), on the lighter of the two checker parities."""
    px = WB_PX
    to_board = np.array([[1.0 / px, 0, 0], [0, -1.0 / px, rows], [0, 0, 1]])
    top = cv2.warpPerspective(image_bgr, homography @ to_board, (cols * px, rows * px),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    m, k = 2, 4
    samples = {0: [], 1: []}
    for row in range(rows):
        v0 = (rows - 1 - row) * px
        for col in range(cols):
            cell = top[v0:v0 + px, col * px:(col + 1) * px]
            corners = [cell[m:m + k, m:m + k], cell[m:m + k, px - m - k:px - m],
                       cell[px - m - k:px - m, m:m + k], cell[px - m - k:px - m, px - m - k:px - m]]
            samples[(col + row) % 2].append(np.concatenate([c.reshape(-1, 3) for c in corners]))
    medians = {p: np.median(np.concatenate(s), axis=0) for p, s in samples.items()}
    light = max(medians.values(), key=lambda bgr: float(bgr.sum()))
    return np.maximum(light.astype(np.float64), 8.0)


def square_patches(image_bgr: np.ndarray, homography: np.ndarray, rows: int, cols: int, *,
                   centres: np.ndarray | None = None, size: int = PATCH_PX,
                   light_bgr: np.ndarray | None = None) -> np.ndarray:
    """(rows * cols, 6, size, size) float32 views of every square, in row-major order
    (square (col, row) at index ``row * cols + col``; row 0 nearest the image bottom).

    ``homography`` maps board squares to image px; ``centres`` (rows, cols, 2), when given,
    are the refined image centres of the squares (a wrinkled cloth), else the homography's.
    Values are around 0..1.3 (1 = the light squares' colour).
    """
    H = np.asarray(homography, np.float64)
    side = square_side_px(H, rows, cols)
    # Shrink first so that bilinear sampling does not alias (about two photo px per patch px).
    factor = min(1.0, 2.0 * size / (TOP_SPAN * max(side, 1e-6)))
    if factor < 1.0:
        image = cv2.resize(image_bgr, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        H = np.diag([factor, factor, 1.0]) @ H
        side *= factor
        centres = None if centres is None else np.asarray(centres, np.float64) * factor
    else:
        image = image_bgr
    if light_bgr is None:
        light_bgr = light_square_colour(image, H, rows, cols)
    camera = camera_from_homography(H, (image.shape[1], image.shape[0]))
    ys, xs = np.mgrid[0:rows, 0:cols]
    board_centres = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5], 1).astype(np.float64)
    plane_centres = project(H, board_centres)
    img_centres = plane_centres if centres is None else np.asarray(centres, np.float64).reshape(-1, 2)
    heights = camera.project(np.hstack([board_centres, np.ones((len(board_centres), 1))]))
    out = np.empty((rows * cols, 6, size, size), np.float32)
    step = TOP_SPAN / size
    for i, ((bx, by), centre, plane, apex) in enumerate(zip(board_centres, img_centres, plane_centres, heights)):
        # Top-down: patch px (u, v) -> board (bx - span/2 + (u + 0.5) step, by + span/2 - (v + 0.5) step),
        # shifted in the image so the square's centre lands on its refined centre.
        to_board = np.array([[step, 0, bx - TOP_SPAN / 2 + 0.5 * step],
                             [0, -step, by + TOP_SPAN / 2 - 0.5 * step], [0, 0, 1]])
        shift = np.array([[1, 0, centre[0] - plane[0]], [0, 1, centre[1] - plane[1]], [0, 0, 1]])
        top = cv2.warpPerspective(image, shift @ H @ to_board, (size, size),
                                  flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
        up = cv2.warpAffine(image, upright_affine(centre, apex - plane, side, size), (size, size),
                            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
        out[i, :3] = top.transpose(2, 0, 1)
        out[i, 3:] = up.transpose(2, 0, 1)
    gains = (1.0 / light_bgr).astype(np.float32)
    out *= np.concatenate([gains, gains])[None, :, None, None]
    return out


def upright_affine(centre: np.ndarray, lean: np.ndarray, side: float, size: int = PATCH_PX) -> np.ndarray:
    """2x3 map from upright-view px to image px (for ``WARP_INVERSE_MAP``).

    ``lean`` is the image offset of the point one square above the centre; ``side`` the
    square's side in px. The view's "up" is the lean's direction (the image's up when the
    camera looks nearly straight down).
    """
    length = float(np.hypot(*lean))
    d = np.asarray(lean, np.float64) / length if length > MIN_LEAN * side else np.array([0.0, -1.0])
    e = np.array([-d[1], d[0]])  # the view's "right"
    above = max(UP_ABOVE * length, 0.8 * side)
    below = UP_BELOW * side
    width = UP_WIDTH * side
    # image = centre + e * ((u + 0.5) / size - 0.5) * width + d * (above - (v + 0.5) / size * (above + below))
    a_u = e * width / size
    a_v = -d * (above + below) / size
    t = np.asarray(centre, np.float64) + e * (0.5 / size - 0.5) * width + d * (above - 0.5 / size * (above + below))
    return np.column_stack([a_u, a_v, t]).astype(np.float64)
