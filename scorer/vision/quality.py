"""Whether a photo is good enough to read surely: blurred (out of focus or shaken), blown
out to white, or too dark. An out-of-focus or shaken photo smears every edge, pieces'
included, and the reader then misses pieces and swaps sizes.

Sharpness is judged at every pixel with some contrast around it: the steepest grey-level
slope over that contrast. A crisp edge climbs its whole step in a pixel or two, a blurred one
over many. A photo's sharpness is a high percentile of that ratio, so the crispest edges in
view (the pieces' silhouettes) count, not a soft-printed cloth's: over the board at the
square reader's scale (:func:`sharpness`), and over the whole photo in its least sharp
direction, which catches a shaken one (:func:`directional_sharpness`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from scorer.vision.grid import GridFit
from scorer.vision.patches import light_square_colour
from scorer.vision.squares import SQUARE_PX

SHARPNESS_WINDOW = 7  # px: the neighbourhood whose grey-level range is a pixel's contrast
SHARPNESS_MIN_RANGE = 30.0  # grey levels: pixels with less contrast around them do not count
SHARPNESS_PERCENTILE = 95
SHARPNESS_MIN_PIXELS = 200
# A perfect step scores 0.5, a smear across the whole window about 0.15. Dev blurred by 0 to 7
# px at 1600 px and the 154 unseen renders: readings under 0.2 had 14% of their squares
# wrong and their squares read at 0.95 or more right only 96.7% of the time (99.8% at 0.2
# or more); no unblurred studio photo (least 0.221) nor real chessboard photo (least 0.289)
# scored under 0.2. Dev blurred by 2 px (read as well as unblurred) had 1 of 50 under it.
BLURRED_SHARPNESS = 0.2


def sharpness(gray: np.ndarray, grid: GridFit) -> float | None:
    """The photo's sharpness over the board (``grid``'s outline) at SQUARE_PX px per
    square: the SHARPNESS_PERCENTILE-th percentile, over pixels with at least
    SHARPNESS_MIN_RANGE grey levels of range around them, of their gradient over that range;
    None when too few pixels have any contrast."""
    corners = np.asarray(grid.corners, np.float64)
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    x1, y1 = np.maximum(np.ceil(corners.max(axis=0)).astype(int) + 1, 0)  # (a board off the photo: nothing)
    gray = gray[y0:y1, x0:x1]
    if gray.size == 0:
        return None
    factor = min(1.0, SQUARE_PX / max(grid.square_side_px(), 1.0))
    if factor < 1.0 and min(gray.shape[:2]) * factor >= 1.0:  # (a sliver of a board at the photo's edge kept as it is)
        gray = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    else:
        factor = 1.0
    board = np.zeros(gray.shape[:2], np.uint8)
    cv2.fillConvexPoly(board, np.round((corners - (x0, y0)) * factor).astype(np.int32), 1)
    grey = gray.astype(np.float32)
    contrast = _contrast(grey)
    counted = (board > 0) & (contrast >= SHARPNESS_MIN_RANGE)
    if counted.sum() < SHARPNESS_MIN_PIXELS:
        return None
    slope = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)) / 8.0
    return float(np.percentile(slope[counted] / contrast[counted], SHARPNESS_PERCENTILE))


def _contrast(grey: np.ndarray) -> np.ndarray:
    """Each pixel's grey-level range over its SHARPNESS_WINDOW neighbourhood."""
    window = np.ones((SHARPNESS_WINDOW, SHARPNESS_WINDOW), np.uint8)
    return cv2.dilate(grey, window) - cv2.erode(grey, window)


# The whole photo is judged too (a read one, and one with no board found), at half the
# reading size (about 48 px per square for a board filling half the photo), and by its least
# sharp direction, so a shaken photo (sharp along the shake, smeared across it) counts as
# blurred. In each direction only the edges facing it count (gradients within FACING of it):
# a striped cloth or a wood grain has no edges facing along its lines, and counting the
# edges that run along them, whose slope that way is nil, called a plain stripe pattern
# fully blurred (0.0; now 0.35). Dev's photos as they are scored 0.222 or more, the 154
# unseen renders 0.208 or more, the real chessboard photos 0.249 or more; under 0.175 fell
# 94% of dev blurred by 5 px (median 0.154), 40% shaken by 15 px sideways (0.181) and 70%
# diagonally (0.170), as many as the measure over every pixel caught at 0.17, where dev's
# least sharp photo scored 0.199.
DIRECTIONAL_BLURRED = 0.175
DIRECTIONS = (0.0, 45.0, 90.0, 135.0)  # degrees
FACING = 67.5  # degrees: an edge's gradient this near a direction faces it (not edges running along it)
FACING_SHARE = 0.05  # a direction faced by fewer of the edge pixels is not judged: no evidence either way
# Share of a photo blown out to white (every channel 250 or more): at most 1.3% in dev, the
# 154 unseen renders, dev's brighter variant and the real chessboards; dev exposed 1.6 times
# too long had a median of 21% (and the board went unfound in 5 of 50), 1.9 times 24% (16).
BLOWN_SHARE = 0.1
# Too dark: the board's light squares under this grey level (of 255). So dark, the 8-bit
# levels and the sensor's noise leave little of the pieces' colours: dev exposed 6.5 stops
# short (light squares at a median of 26, made as scripts/photo_variants.py's underexposed
# variants are) read 93.4% of its squares right and named 91.3% of its pyramids' colours
# (97.5% and 96.5% as rendered; 5 stops short, `underexposed_badly`, light squares at a
# median of 42 and 32 at the least, 96.4% and 95.4%, 20 of 50 photos under this level). Dev's
# darkest light squares as rendered are at 153. Without a board, the photo is too dark when
# even its brighter tenth lies under the same level.
DARK_LEVEL = 40.0


def directional_sharpness(gray: np.ndarray) -> float | None:
    """:func:`sharpness` over a whole photo (no board known) as given, in its least sharp
    direction: the least over DIRECTIONS of the SHARPNESS_PERCENTILE-th percentile of the
    slope over the local range of the pixels whose gradient faces that direction (a
    direction with too few such pixels, FACING_SHARE, is no evidence either way)."""
    grey = gray.astype(np.float32)
    contrast = _contrast(grey)
    counted = contrast >= SHARPNESS_MIN_RANGE
    if counted.sum() < SHARPNESS_MIN_PIXELS:
        return None
    dx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)[counted] / 8.0
    dy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)[counted] / 8.0
    magnitude = np.hypot(dx, dy)
    contrast = contrast[counted]
    scores = []
    for direction in np.radians(DIRECTIONS):
        # a gradient faces the direction when its slope that way is at least cos(FACING) of its
        # whole (a pixel with none, beside an edge, faces no direction)
        along = np.abs(dx * np.cos(direction) + dy * np.sin(direction))
        near = (along >= np.cos(np.radians(FACING)) * magnitude) & (magnitude > 0)
        if near.sum() >= max(SHARPNESS_MIN_PIXELS, FACING_SHARE * len(along)):
            scores.append(float(np.percentile(along[near] / contrast[near], SHARPNESS_PERCENTILE)))
    return min(scores) if scores else None


def board_light_level(image_bgr: np.ndarray, grid: GridFit) -> float:
    """Grey level (0-255) of the board's light squares (``patches.light_square_colour``:
    their corners, which a centred piece leaves bare)."""
    bgr = light_square_colour(image_bgr if image_bgr.ndim == 3 else cv2.cvtColor(image_bgr, cv2.COLOR_GRAY2BGR),
                              grid.homography, grid.rows, grid.cols)
    return float(np.dot(bgr, (0.114, 0.587, 0.299)))


def bright_level(gray: np.ndarray) -> float:
    """Grey level of a photo's brighter tenth (its 90th percentile)."""
    return float(np.percentile(gray, 90))


def blown_share(image_bgr: np.ndarray) -> float:
    """Share of the photo's pixels blown out to white (every channel at 250 or more)."""
    if image_bgr.size == 0:
        return 0.0
    if image_bgr.dtype != np.uint8:
        pixels = image_bgr if image_bgr.ndim == 3 else image_bgr[..., None]
        return float((pixels >= 250).all(axis=2).mean())
    blown = cv2.inRange(image_bgr, (250,) * 4, (255,) * 4)  # every channel
    return cv2.countNonZero(blown) / blown.size


@dataclass(frozen=True)
class PhotoQuality:
    """How good a photo is to read: :func:`sharpness` over the board (None without a board or
    contrast), :func:`directional_sharpness` over the whole photo, :func:`blown_share`, and
    how light it is, ``light_level``: :func:`board_light_level` with a board, else
    :func:`bright_level` (None only in a PhotoQuality made by hand without it)."""

    sharpness: float | None
    directional_sharpness: float | None
    blown_share: float
    light_level: float | None = None

    @property
    def blurred(self) -> bool:
        """Out of focus over the board (under BLURRED_SHARPNESS) or smeared in some direction
        over the whole photo (shaken: under DIRECTIONAL_BLURRED)."""
        return ((self.sharpness is not None and self.sharpness < BLURRED_SHARPNESS)
                or (self.directional_sharpness is not None and self.directional_sharpness < DIRECTIONAL_BLURRED))

    @property
    def blown_out(self) -> bool:
        return self.blown_share >= BLOWN_SHARE

    @property
    def too_dark(self) -> bool:
        """The board's light squares (without a board, the photo's brighter tenth) under DARK_LEVEL."""
        return self.light_level is not None and self.light_level < DARK_LEVEL

    def problems(self) -> list[str]:
        """What is wrong with the photo, in words (for an error that no board was found)."""
        return ((["blurred (out of focus or shaken)"] if self.blurred else [])
                + (["too bright (much of it blown out to white)"] if self.blown_out else [])
                + (["too dark"] if self.too_dark else []))


def photo_quality(image_bgr: np.ndarray, grid: GridFit | None = None) -> PhotoQuality:
    """The photo's :class:`PhotoQuality` (the board's sharpness and light only with its
    ``grid``); the whole photo is judged at half its size."""
    gray = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY) if image_bgr.ndim == 3 else image_bgr
    half = cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA) if min(gray.shape[:2]) >= 2 else gray
    whole = PhotoQuality(sharpness=None, directional_sharpness=directional_sharpness(half),
                         blown_share=blown_share(image_bgr[::2, ::2]), light_level=bright_level(half))
    return whole if grid is None else quality_on_board(whole, image_bgr, grid)


def quality_on_board(whole: PhotoQuality, image_bgr: np.ndarray, grid: GridFit) -> PhotoQuality:
    """``whole``, the photo's :func:`photo_quality` without a board, judged over the board
    ``grid`` too (its sharpness and light): ``photo_quality(image_bgr, grid)``. The whole
    photo's part can then be judged before the board is found."""
    gray = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY) if image_bgr.ndim == 3 else image_bgr
    return replace(whole, sharpness=sharpness(gray, grid), light_level=board_light_level(image_bgr, grid))
