"""Stage 2 of the photo reader: find the checkerboard and fit every square.

``find_grid(image_bgr) -> GridFit`` (or raises :class:`NoBoardFound`):

1. x-corners (where four squares meet) are detected at a working resolution
   (:mod:`scorer.vision.xcorners`), and at half and a quarter of it when the board found
   there is unsure or too small (a shaken photo's smeared corners show again when shrunk);
2. an integer lattice is fitted to them (:mod:`scorer.vision.lattice`): seeds of four corners
   whose sides are checker edges, grown ring by ring, so pieces hiding corners only thin it out;
3. the board's extent comes from the checker itself: every lattice square's colour is compared
   with its neighbours' (a board square alternates, the table and the border do not) and the
   window of squares (3..8 each way) that best explains the alternation and the corners wins;
4. each intersection is then corrected by its own x-corner (a wrinkled cloth is not one
   plane): a smooth per-intersection correction field, extrapolated to the outer border.

Board coordinates (the convention shared with the square reader and the studio's sidecars):
a point (x, y) on the board plane is in square units, 0 <= x <= cols, 0 <= y <= rows; x runs
along the columns and y along the rows. Row 0 is the board edge nearest the bottom of the
image (the edge whose midpoint on the board projects lowest in the image, the studio's rule)
and column 0 is at the left as seen from that edge, looking into the picture. Square
(col, row) spans (col..col+1, row..row+1), so square (0, 0) is ``A1``. ``corners`` lists the 4
outer corners in image px, clockwise on screen starting from the one nearest the image's
top-left (the sidecar convention). The studio orients by the play area's edges, which can
differ from the whole board's on a board turned near 45 degrees: ``fit.turned(
fit.bottom_turns(col, row, cols, rows))`` relabels a fit by a play area's lowest edge.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
from scipy.sparse.csgraph import connected_components

from scorer.errors import UserError
from scorer.vision.lattice import (FOLD_TOLERANCE, MIN_SQUARE_PX, Lattice, fit_lattices, local_scale, narrowest_breadth,
                                   median_square_side, offset_field, project)
from scorer.vision.load import downscale
from scorer.vision.xcorners import MAX_POINTS, detect_xcorners

WORKING_LONG_SIDE = 1280
MIN_SQUARES = 3
MAX_SQUARES = 8  # chessboards and the bandanna are 8x8; the studio renders 5x5..8x8
CHECKER_THRESHOLD = 0.5  # neighbouring board squares must step by this (of the contrast)
CORNER_WEIGHT = 0.5
HALF_SEEN_CORNER = 0.5  # weight of a corner with only two clean checker edges (see choose_extent)
FULL_SIZE_PRIOR = 1.0  # most boards are 8x8: worth about two neighbour pairs of evidence per side
SQUARE_PRIOR = 1.0  # boards are square: a covered edge row should not make a 6x6 board 7x6
SQUARE_COMPLETION = 1.0  # else a square holding the best, not square, window wins only when this near its score
# Rows in the photo that a window a board's full side long is completed by, however much
# lower the square scores (above 0; rows out of the photo are not counted): three rows of
# board hidden are likelier a patch of it found, or a lattice of something else (an arm over
# chess_img_19's far rows hides three, and the square holding them went a row off).
MAX_ROWS_COMPLETED = 2
# A window found not square is completed to the square holding it (choose_extent). Of the
# squares holding it, each side one adds counts up to this much more as its outermost added
# row stands apart from the row beyond (beyond_step): pieces on a board's near row against the
# table, not a row of table past its far edge (a steep drawing's near row was left out for the
# table's without it; the 867 photos were found alike with it and without, measured as it
# was added).
EDGE_WEIGHT = 2.0
PLAIN_ROW = 0.1  # a row whose neighbouring squares step less than this (of the contrast) is a border or table
# A plain outermost row counts against the square adding it (beyond_step): on a grey-print
# board seen from low down, a row of brown table past the near edge is as grey as the dark
# squares, and the square was completed onto it rather than over the far row its pieces hide.
PLAIN_ROW_STEP = -1.0
# An x-corner on a window's outline is where the board's edge meets the table or border:
# it counts this much of one inside. At 0 (inside only), a board the size of the play area on
# a dark or plain table grew a row of table on each side whose edge corners it took in; at 1
# a board's inner ring could pass for its edge. 0.25-0.75 read alike, so the middle.
BOUNDARY_CORNER = 0.5
# A checked tablecloth passes every test of a board but one: its squares go on. Over the real
# chessboards, dev, the grid cases and dev shaken two ways (the board's corners smeared, a
# gingham cloth's larger checks not), the rings just outside the boards found stepped by 0.28
# at most on any side and 0.19 on a second; the two gingham cloths taken for boards by 0.5 to
# 1.64 on two to four sides.
RUN_ON_STEP = 0.5
RUN_ON_SIDES = 2
PATTERN_RETRIES = 2  # times the finder looks again without the corners of the checked cloths found
PATTERN_MAX_POINTS = 4 * MAX_POINTS  # x-corners it looks among then: a cloth's and the board's
PATTERN_TOLERANCE = 0.15  # squares: a corner this near a cloth lattice's point is the cloth's
SAMPLE_PX = 16  # rectified px per square when reading square colours
CONSENSUS_TOLERANCE = 0.04  # squares: x-corners this near one plane agree on it
CONSENSUS_MIN = 10
CONSENSUS_SHARE = 0.5
FOLD_GROUP = 3  # x-corners off the plane together that make a fold, not a pair of misfits
CONSENSUS_GAIN = 0.7  # its capped squared residuals at most this share of the least-squares plane's
FLAT_RMS = 0.035  # x-corners this close to one plane (rms, in squares): a flat board
MIN_BOARD_SQUARES = 5  # the smallest play area (ThreeHouse, 2 players): a smaller find is a patch
# A photo can hold more than one board (a club's or a tournament's tables): the board it is of
# sits in its middle, those behind off to a side. Another board's window whose score is at
# least this share of the best one's is a rival (the_photos_board).
OTHER_BOARD_SHARE = 0.5
APART_OVERLAP = 0.05  # outlines overlapping by at most this share of the smaller lie apart (one board behind another)
STRONGEST_CORNERS = (MAX_SQUARES - 1) ** 2  # x-corners the finder looks among again when it found no sure board
# Confidence under which a fit is unsure: the finder looks for the board again in the photo
# shrunk (COARSE_FACTORS) and the reader warns. Chosen at 0.75 on 1099 renders and photos
# (8 of 11 wrong grids caught, 0.8% of the right ones flagged); once corners on a window's
# outline counted (BOUNDARY_CORNER) the wrong grids' confidence rose with the right
# ones': over the real chessboards, dev and 13 of its variants, the grid cases and the 270
# renders of 2026-11-24 (987 grids), 0.8 catches 6 of the 11 wrong (0.75: 3; before the
# change, at 0.75, 12 of 18) and flags 8 of the 976 right (0.75: 4; 0.85: 12).
GRID_UNSURE = 0.8
COARSE_FACTORS = (2, 4)
# A board far off in a large photo, seen from low down, has squares too small at the working
# size for the x-corner detector's ring (20-24 px across and half that high): the reader
# looks for it again in the photo decoded at up to this long side (find_grid_fine) where the
# working size found no sure square board.
FINE_LONG_SIDE = 2 * WORKING_LONG_SIDE


class NoBoardFound(UserError):
    """No checkerboard could be found in the photo."""


class BoardCutOff(NoBoardFound):
    """No board: the checkerboard found is too small to be one and runs to the photo's edge
    (the rest of it may be out of the photo: marking corners there cannot help)."""


class ClothOnly(NoBoardFound):
    """No board: the only checker pattern found runs on past a board's size (a tablecloth)."""


@dataclass(frozen=True)
class GridFit:
    """A checkerboard found in a photo (image px of the image given to :func:`find_grid`).

    ``intersections[r, c]`` is the refined image position of board point (c, r), shape
    (rows + 1, cols + 1, 2). ``homography`` maps board (x, y) to image px (one plane, least
    squares over all intersections); the refined intersections follow a wrinkled cloth.
    ``confidence`` in [0, 1]; ``support`` the number of intersections seen as x-corners.
    """

    rows: int
    cols: int
    corners: np.ndarray
    homography: np.ndarray
    intersections: np.ndarray
    confidence: float
    support: int = 0
    another_board: bool = False  # another board was seen in the photo besides this one (the_photos_board)

    def square_quad(self, col: int, row: int) -> np.ndarray:
        """Image px of square (col, row)'s corners: (col,row), (col+1,row), (col+1,row+1), (col,row+1)."""
        if not (0 <= col < self.cols and 0 <= row < self.rows):
            raise IndexError(f"square ({col}, {row}) is off a {self.cols}x{self.rows} board")
        grid = self.intersections
        return np.array([grid[row, col], grid[row, col + 1], grid[row + 1, col + 1], grid[row + 1, col]])

    def square_side_px(self) -> float:
        """Median side of a square in the image, px (over the refined intersections)."""
        return median_square_side(self.intersections)

    def square_centre(self, col: int, row: int) -> np.ndarray:
        """Image px of square (col, row)'s centre (where its diagonals cross)."""
        return _diagonal_crossing(self.square_quad(col, row))

    def centre_shift(self, col: int, row: int) -> np.ndarray:
        """Image px from where the single homography puts square (col, row)'s centre to its
        refined centre (:meth:`square_centre`): how far a wrinkle or the lens moved it."""
        return self.square_centre(col, row) - project(self.homography, np.array([[col + 0.5, row + 0.5]]))[0]

    def square_centres(self) -> np.ndarray:
        """(rows, cols, 2) image px of every square's centre."""
        return np.array([[self.square_centre(c, r) for c in range(self.cols)] for r in range(self.rows)])

    def board_to_image(self, points: np.ndarray) -> np.ndarray:
        """Map board-plane points (N, 2) to image px through the refined (per-square) fit."""
        points = np.asarray(points, np.float64).reshape(-1, 2)
        out = np.empty_like(points)
        for k, (x, y) in enumerate(points):
            col = int(np.clip(np.floor(x), 0, self.cols - 1))
            row = int(np.clip(np.floor(y), 0, self.rows - 1))
            quad = self.square_quad(col, row).astype(np.float32)
            local = cv2.getPerspectiveTransform(_UNIT_SQUARE, quad)
            out[k] = project(local, np.array([[x - col, y - row]]))[0]
        return out

    def outline(self, col: float, row: float, cols: float, rows: float) -> np.ndarray:
        """Image px of the corners of the rectangle of squares (col, row, cols, rows):
        (col, row), (col + cols, row), (col + cols, row + rows), (col, row + rows), through the
        refined fit (a rectangle past the board's edge is carried on by its edge squares)."""
        return self.board_to_image(np.array([[col, row], [col + cols, row], [col + cols, row + rows], [col, row + rows]],
                                            np.float64))

    def edge_heights(self, col: int = 0, row: int = 0, cols: int | None = None, rows: int | None = None) -> np.ndarray:
        """Image y (px) of the midpoints of the bottom, right, top and left edges of the
        rectangle of squares (col, row, cols, rows) (default: the whole board)."""
        cols = self.cols - col if cols is None else cols
        rows = self.rows - row if rows is None else rows
        midpoints = np.array(
            [[col + cols / 2, row], [col + cols, row + rows / 2], [col + cols / 2, row + rows], [col, row + rows / 2]]
        )
        return self.board_to_image(midpoints)[:, 1]

    def bottom_turns(self, col: int = 0, row: int = 0, cols: int | None = None, rows: int | None = None) -> int:
        """Clockwise quarter turns (as ``Board.rotated``) that make the lowest-lying edge of the
        rectangle (see :meth:`edge_heights`) its bottom edge: the edge whose midpoint on the
        board projects lowest in the image (the studio's rule). 0: the bottom edge already is;
        1: the right edge; 2: the top; 3: the left."""
        return int(np.argmax(self.edge_heights(col, row, cols, rows)))

    def bottom_margin(self, col: int = 0, row: int = 0, cols: int | None = None, rows: int | None = None) -> float:
        """How much lower (px) the lowest edge lies than the next lowest: a few px on a board
        turned near 45 degrees, where which edge is row 1 is a coin toss worth a warning."""
        heights = np.sort(self.edge_heights(col, row, cols, rows))
        return float(heights[-1] - heights[-2])

    def runner_up_turns(self, col: int = 0, row: int = 0, cols: int | None = None, rows: int | None = None) -> int:
        """Clockwise quarter turns (as :meth:`bottom_turns`) that would make the next-lowest
        edge the bottom one: the other reading of row 1 when :meth:`bottom_margin` is small."""
        return int(np.argsort(self.edge_heights(col, row, cols, rows), kind="stable")[-2])

    def turned(self, quarter_turns: int) -> "GridFit":
        """The same fit relabelled after ``quarter_turns`` clockwise quarter turns of the board,
        as ``Board.rotated``: board point (u, v) becomes (v, cols - u)."""
        fit = self
        for _ in range(quarter_turns % 4):
            grid = fit.intersections[:, ::-1].transpose(1, 0, 2)
            to_old = np.array([[0.0, -1.0, fit.cols], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
            fit = GridFit(
                rows=fit.cols,
                cols=fit.rows,
                corners=fit.corners,
                homography=fit.homography @ to_old,
                intersections=np.ascontiguousarray(grid),
                confidence=fit.confidence,
                support=fit.support,
                another_board=fit.another_board,
            )
        return fit

    def scaled(self, factor: float, offset: float = 0.0) -> "GridFit":
        """The same fit for the image resized by ``factor``, each px position x becoming
        ``factor * x + offset``."""
        scale = np.array([[factor, 0.0, offset], [0.0, factor, offset], [0.0, 0.0, 1.0]])
        return GridFit(
            rows=self.rows,
            cols=self.cols,
            corners=self.corners * factor + offset,
            homography=scale @ self.homography,
            intersections=self.intersections * factor + offset,
            confidence=self.confidence,
            support=self.support,
            another_board=self.another_board,
        )

    def to_dict(self) -> dict:
        """JSON-ready summary: rows, cols, corners (px), confidence."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "confidence": round(float(self.confidence), 3),
        }


_UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)


def _diagonal_crossing(quad: np.ndarray) -> np.ndarray:
    p0, p1, p2, p3 = np.asarray(quad, np.float64)
    d1 = p2 - p0
    d2 = p3 - p1
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-9:
        return quad.mean(axis=0)
    t = ((p1[0] - p0[0]) * d2[1] - (p1[1] - p0[1]) * d2[0]) / denom
    return p0 + t * d1


# --- stage entry point -------------------------------------------------------------------


def find_grid(image_bgr: np.ndarray) -> GridFit:
    """Find the checkerboard in a BGR (or grey) photo; raise :class:`NoBoardFound` if none."""
    if image_bgr is None or image_bgr.size == 0:
        raise NoBoardFound("empty image: no board to find")
    gray = image_bgr if image_bgr.ndim == 2 else cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    gray, scale = working_gray(gray)
    fit = find_grid_gray(gray)
    return fit.scaled(1.0 / scale) if scale != 1.0 else fit


def working_gray(gray: np.ndarray) -> tuple[np.ndarray, float]:
    """Shrink a grey photo to about WORKING_LONG_SIDE px (1280..1600 for a 12 MP photo):
    first by a whole factor (OpenCV's fast path), then exactly if still much too big.
    Returns the image and its scale (working px per original px)."""
    height, width = gray.shape[:2]
    factor = max(height, width) // WORKING_LONG_SIDE
    scale = 1.0
    if factor >= 2:
        gray = cv2.resize(gray, (width // factor, height // factor), interpolation=cv2.INTER_AREA)
        scale = (width // factor) / width
    if max(gray.shape[:2]) > 1.25 * WORKING_LONG_SIDE:
        gray, extra = downscale(gray, WORKING_LONG_SIDE)
        scale *= extra
    return gray, scale


def stretch_contrast(gray: np.ndarray) -> np.ndarray:
    """Spread the 1st..99th percentile of grey levels over 0..255 (dim or washed-out photos
    then meet the same edge thresholds as well-lit ones)."""
    low, high = np.percentile(gray[::4, ::4], (1, 99))
    if high - low < 1:
        return gray
    scaled = (gray.astype(np.float32) - low) * (255.0 / (high - low))
    return np.clip(scaled, 0, 255).astype(np.uint8)


def find_grid_gray(gray: np.ndarray) -> GridFit:
    """:func:`find_grid` on a grey image already at working resolution.

    A shaken or blurred photo smears the x-corners past what the detector's ring can see at
    this size, and the finder then returns a patch of the board (or nothing). Shrunk by 2 and
    by 4 the smear fits inside the ring again: a fit less sure than GRID_UNSURE or with fewer
    than MIN_BOARD_SQUARES along either side is looked for at those sizes in turn, until a fit
    is neither. The largest fit of a board's size wins; of equals a sure one (an unsure fit can
    be a window completed to a square on another lattice, or on the wrong side), then the
    finest, its corners sharper.

    Where no size gave a sure board (and no tablecloth was seen), the finder looks again among
    the STRONGEST_CORNERS strongest x-corners alone, at each size in turn, adds the fits of a
    board's size they give to those found before and takes the best, ranked as above (of
    equals, the first look's): a textured table (a speckled laminate, granite) strews strong
    x-corners around a small board whose own corners the pieces mostly hide, and taken into
    its lattice where the board's are missing they stop it growing (or it stops a row short,
    unsure)."""
    gray = stretch_contrast(gray)
    fits, errors = _fits_by_size(gray)
    seen = any(fit.another_board for fit in fits)  # another board seen at any size, in either look
    if not any(map(sure_board, fits)) and not any(isinstance(err, ClothOnly) for err in errors):
        fits += [fit for fit in _fits_by_size(gray, STRONGEST_CORNERS)[0] if board_sized(fit)]
    if not fits:
        raise errors[0]
    fit = max(fits, key=_fit_rank)  # the first of equals
    seen = seen or any(f.another_board for f in fits)
    return fit if fit.another_board == seen else replace(fit, another_board=seen)


def _fit_rank(fit: GridFit) -> tuple:
    """How a fit ranks among those found at several sizes: board-sized, larger, sure."""
    return board_sized(fit), fit.rows * fit.cols, sure_board(fit)


def find_grid_fine(image_bgr: np.ndarray) -> GridFit:
    """The finder's look at one size (no coarser sizes, no second look among the strongest
    x-corners) at the photo's own size, up to FINE_LONG_SIDE: for a board too far off to be
    found at the working size (:func:`better_fit` weighs the two); raises :class:`NoBoardFound`."""
    gray = image_bgr if image_bgr.ndim == 2 else cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    gray, scale = downscale(gray, FINE_LONG_SIDE)
    fit = _find_grid_at_scale(stretch_contrast(gray))
    return fit.scaled(1.0 / scale) if scale != 1.0 else fit


def better_fit(fit: GridFit | None, other: GridFit | None) -> GridFit | None:
    """The better of two fits of one board found at two sizes (board-sized, larger, sure, as
    :func:`find_grid_gray` ranks its sizes' fits; ``fit`` of equals), saying another board was
    seen where either does; None where neither is one."""
    if fit is None or other is None:
        return fit or other
    best = other if _fit_rank(other) > _fit_rank(fit) else fit
    seen = fit.another_board or other.another_board
    return best if best.another_board == seen else replace(best, another_board=seen)


def _fits_by_size(gray: np.ndarray, strongest: int | None = None) -> tuple[list[GridFit], list[NoBoardFound]]:
    """The fits found at the working size and, while none is a sure board, in the photo shrunk
    by each of COARSE_FACTORS (from the ``strongest`` x-corners alone, when given), and the
    errors of the sizes that found none."""
    fits, errors = [], []
    height, width = gray.shape[:2]
    for factor in (1,) + COARSE_FACTORS:
        if fits and sure_board(fits[-1]):
            break
        if factor > 1 and min(height, width) // factor < MIN_BOARD_SQUARES * MIN_SQUARE_PX:  # no board fits in
            break
        whole = gray[: height // factor * factor, : width // factor * factor]
        small = gray if factor == 1 else cv2.resize(whole, (width // factor, height // factor),
                                                    interpolation=cv2.INTER_AREA)
        try:
            fit = _find_grid_at_scale(small, strongest)
        except NoBoardFound as err:
            errors.append(err)
            continue
        # a small px's centre lies at factor * x + (factor - 1) / 2 in the working image
        fits.append(fit if factor == 1 else fit.scaled(factor, offset=(factor - 1) / 2.0))
    return fits, errors


def board_sized(fit: GridFit) -> bool:
    """Whether a fit is at least MIN_BOARD_SQUARES along each side (else a patch of a board)."""
    return min(fit.rows, fit.cols) >= MIN_BOARD_SQUARES


def sure_board(fit: GridFit) -> bool:
    """Whether a fit is board-sized and at least GRID_UNSURE sure."""
    return fit.confidence >= GRID_UNSURE and board_sized(fit)


def _find_grid_at_scale(gray: np.ndarray, strongest: int | None = None) -> GridFit:
    """The board's grid in ``gray`` (at one scale), from its x-corners (the ``strongest`` of
    them alone, when given); raises :class:`NoBoardFound` (:class:`ClothOnly` where the only
    checker pattern found runs on like a tablecloth's)."""
    points = detect_xcorners(gray).points[:strongest]
    cloths: list[Lattice] = []  # the checked cloths' lattices found so far
    kept: list[tuple[Extent, Lattice]] = []  # every board-like (window, lattice) of any attempt
    for attempt in range(PATTERN_RETRIES + 1):
        lattices = fit_lattices(points, gray)
        # The board-like windows of every lattice: the largest lattice can be a table cloth's
        # pattern, or a few corners strewn across the board at another period.
        found = [(window, lattice) for lattice in lattices if (window := choose_extent(gray, lattice)) is not None]
        new_cloths = [lattice for window, lattice in found if window.runs_on]
        cloths += new_cloths
        kept += [(window, lattice) for window, lattice in found if not window.runs_on]
        if not new_cloths or attempt == PATTERN_RETRIES:
            break
        # A checked cloth's corners can outnumber the board's and fill the detector's quota,
        # leaving the board's lattice ungrown: look again among the corners no cloth explains.
        if attempt == 0:
            points = detect_xcorners(gray, max_points=PATTERN_MAX_POINTS).points
        points = points[~np.any([on_lattice(points, cloth) for cloth in cloths], axis=0)][:MAX_POINTS]
    best, another = the_photos_board(kept, gray.shape) if kept else (None, False)
    if best is None:
        if cloths:
            raise ClothOnly("no checkerboard found in the photo (only a checked pattern that runs on past "
                            f"{MAX_SQUARES} squares: a tablecloth?)")
        if not lattices:
            raise NoBoardFound("no checkerboard found in the photo (no grid of square corners)")
        raise NoBoardFound("no checkerboard found in the photo (no alternating squares)")
    return replace(_fit_window(gray, best[1], best[0]), another_board=another)


def window_outline(window: Extent, lattice: Lattice) -> np.ndarray:
    """Image px of a lattice window's four outer corners."""
    i0, j0, i1, j1 = window.i0, window.j0, window.i0 + window.width, window.j0 + window.height
    return project(lattice.homography, np.array([[i0, j0], [i1, j0], [i1, j1], [i0, j1]], np.float64))


def the_photos_board(windows: list[tuple[Extent, Lattice]],
                     shape: tuple[int, ...]) -> tuple[tuple[Extent, Lattice], bool]:
    """Of the (window, lattice) pairs found in an image of ``shape``, the board the photo is
    of, and whether another board was seen.

    A rival board is a window at least MIN_BOARD_SQUARES each way, scoring at least
    OTHER_BOARD_SHARE of the most board-like window (highest score), whose outline lies apart
    from that one's (overlapping it by at most APART_OVERLAP of the smaller outline: not
    another lattice on the same board). A photo is taken of its board: the rival that covers
    most of the photo's middle (the middle half of it each way) is read where it covers more
    of it than the most board-like one, whole or reaching past the photo's edge. Another
    board is seen where a rival lies wholly in the photo (a neighbouring table's board cut
    off at its edge cannot be marked and read), or where a rival is read over a most
    board-like window of a board's size."""
    top = max(windows, key=lambda pair: pair[0].score)
    top_outline = window_outline(*top).astype(np.float32)
    if not np.isfinite(top_outline).all() or abs(float(cv2.contourArea(top_outline))) <= 0.0:
        return top, False
    height, width = shape[:2]
    middle = np.array([[width / 4, height / 4], [3 * width / 4, height / 4], [3 * width / 4, 3 * height / 4],
                       [width / 4, 3 * height / 4]], np.float32)
    top_area, top_middle = abs(float(cv2.contourArea(top_outline))), cv2.intersectConvexConvex(middle, top_outline)[0]
    seen, rivals = False, []
    for pair in windows:
        window, _ = pair
        if (pair is top or min(window.width, window.height) < MIN_BOARD_SQUARES
                or window.score < OTHER_BOARD_SHARE * top[0].score):
            continue
        outline = window_outline(*pair).astype(np.float32)
        if not np.isfinite(outline).all():
            continue
        area = abs(float(cv2.contourArea(outline)))
        if area <= 0.0 or cv2.intersectConvexConvex(top_outline, outline)[0] > APART_OVERLAP * min(area, top_area):
            continue
        seen = seen or bool((outline >= 0).all() and (outline <= (width - 1, height - 1)).all())
        rivals.append((float(cv2.intersectConvexConvex(middle, outline)[0]), pair))
    covering, rival = max(rivals, key=lambda item: item[0], default=(0.0, None))
    if rival is None or covering <= top_middle:
        return top, seen
    return rival, seen or min(top[0].width, top[0].height) >= MIN_BOARD_SQUARES


def on_lattice(points: np.ndarray, lattice: Lattice, tolerance: float = PATTERN_TOLERANCE) -> np.ndarray:
    """(N,) whether each image point lies on one of the lattice's corners, anywhere on its
    plane (within ``tolerance`` squares each way), not only where it was grown."""
    if not len(points):
        return np.zeros(0, bool)
    mapped = np.c_[points, np.ones(len(points))] @ np.linalg.inv(lattice.homography).T
    ahead = mapped[:, 2] > 1e-9
    coords = mapped[:, :2] / np.where(ahead, mapped[:, 2], 1.0)[:, None]
    return ahead & np.all(np.abs(coords - np.round(coords)) <= tolerance, axis=1)


# --- extent ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Extent:
    """A window of lattice squares: columns i0..i0+width-1, rows j0..j0+height-1."""

    i0: int
    j0: int
    width: int
    height: int
    score: float
    margin: float
    runs_on: bool = False  # the pattern goes on past it (:func:`runs_on`): a checked cloth, not a board


def square_colours(gray: np.ndarray, lattice: Lattice, i_range: tuple[int, int], j_range: tuple[int, int]) -> np.ndarray:
    """(ni, nj) grey level of lattice squares i0..i1-1, j0..j1-1 (nan: not visible).

    The median over the square's four corner patches: a piece stands in the middle of its
    square, so the corners are what stays visible.
    """
    i0, i1 = i_range
    j0, j1 = j_range
    ni, nj = i1 - i0, j1 - j0
    to_lattice = np.array([[1.0 / SAMPLE_PX, 0, i0], [0, 1.0 / SAMPLE_PX, j0], [0, 0, 1]])
    warp = lattice.homography @ to_lattice
    rectified = cv2.warpPerspective(
        gray.astype(np.float32), warp, (ni * SAMPLE_PX, nj * SAMPLE_PX),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0,
    )
    blocks = rectified.reshape(nj, SAMPLE_PX, ni, SAMPLE_PX).transpose(2, 0, 1, 3)  # (ni, nj, py, px)
    centre = (SAMPLE_PX - 1) / 2.0
    yy, xx = np.mgrid[0:SAMPLE_PX, 0:SAMPLE_PX]
    near = np.minimum(np.abs(yy - centre), np.abs(xx - centre)) / SAMPLE_PX
    far = np.maximum(np.abs(yy - centre), np.abs(xx - centre)) / SAMPLE_PX
    patches = (near >= 0.17) & (far <= 0.38)
    samples = blocks[:, :, patches]
    valid = (samples >= 0).mean(axis=2) > 0.9
    colour = np.where(valid, np.median(samples, axis=2), np.nan)
    # Squares that project beyond the horizon or shrink to nothing are not visible.
    ii, jj = np.meshgrid(np.arange(i0, i1), np.arange(j0, j1), indexing="ij")
    coords = np.stack([ii.ravel() + 0.5, jj.ravel() + 0.5], axis=1)
    scale = local_scale(lattice.homography, coords).reshape(ni, nj)
    core_scale = np.median(local_scale(lattice.homography, lattice.indices.astype(np.float64)))
    colour[~(scale > 0.25 * core_scale)] = np.nan
    return colour


def alternation(colour: np.ndarray, i0: int, j0: int, polarity: int, contrast: float) -> tuple[np.ndarray, np.ndarray]:
    """Signed checker steps between neighbouring squares, in units of the board's contrast.

    ``along_i[a, b]`` compares square (a, b) with (a + 1, b), ``along_j[a, b]`` with (a, b + 1);
    about +1 between two squares of a board, about 0 on a plain table; nan where not visible.
    """
    ni, nj = colour.shape
    ii, jj = np.meshgrid(np.arange(i0, i0 + ni), np.arange(j0, j0 + nj), indexing="ij")
    sign = np.where(((ii + jj) % 2) == 0, 1.0, -1.0) * polarity
    unit = checker_unit(contrast)
    along_i = sign[:-1, :] * (colour[:-1, :] - colour[1:, :]) / unit
    along_j = sign[:, :-1] * (colour[:, :-1] - colour[:, 1:]) / unit
    return along_i, along_j


def checker_unit(contrast: float) -> float:
    """Grey levels per unit of checker step: the board's contrast, at least 4."""
    return max(contrast, 4.0)


def _integral(values: np.ndarray) -> np.ndarray:
    table = np.zeros((values.shape[0] + 1, values.shape[1] + 1))
    table[1:, 1:] = values.cumsum(0).cumsum(1)
    return table


def _boxes(table: np.ndarray, width: int, height: int, na: int, nb: int) -> np.ndarray:
    """(na, nb) sums of values[a:a+width, b:b+height] for every a < na, b < nb, read from
    the integral table of values."""
    return (
        table[width : width + na, height : height + nb]
        - table[:na, height : height + nb]
        - table[width : width + na, :nb]
        + table[:na, :nb]
    )


def choose_extent(gray: np.ndarray, lattice: Lattice) -> Extent | None:
    """The window of lattice squares that is the board (3..8 squares each way), or None.

    Score of a window: over neighbouring square pairs inside it, the checker step minus a
    threshold (a board's pairs step by about 1, a table's by about 0), plus a bonus for
    x-corners inside it (BOUNDARY_CORNER of one on its outline) and a penalty for x-corners
    outside it.
    """
    lo = lattice.indices.min(axis=0)
    hi = lattice.indices.max(axis=0)
    i_range = (int(lo[0]) - MAX_SQUARES + 1, int(hi[0]) + MAX_SQUARES)
    j_range = (int(lo[1]) - MAX_SQUARES + 1, int(hi[1]) + MAX_SQUARES)
    colour = square_colours(gray, lattice, i_range, j_range)
    along_i, along_j = alternation(colour, i_range[0], j_range[0], lattice.polarity, lattice.contrast)
    gain_i = _integral(np.where(np.isfinite(along_i), np.clip(along_i, -1.0, 1.2), 0.0) - CHECKER_THRESHOLD)
    gain_j = _integral(np.where(np.isfinite(along_j), np.clip(along_j, -1.0, 1.2), 0.0) - CHECKER_THRESHOLD)
    ni, nj = colour.shape
    corner_grid = np.zeros((ni + 1, nj + 1))
    # A corner with only two clean edges counts half: the junctions the board's own edge makes
    # with the table can line up with the lattice too, one row outside the board (but pieces
    # leaning over a far corner also leave it two).
    sides = lattice.clean_sides if lattice.clean_sides is not None else np.full(len(lattice), 4)
    for (i, j), clean in zip(lattice.indices, sides):
        a, b = i - i_range[0], j - j_range[0]
        if 0 <= a <= ni and 0 <= b <= nj:
            corner_grid[a, b] += 1.0 if clean >= 3 else HALF_SEEN_CORNER
    corners = _integral(corner_grid)
    total = float(corner_grid.sum())
    candidates, scores = [], {}
    for width in range(MIN_SQUARES, min(MAX_SQUARES, ni) + 1):
        for height in range(MIN_SQUARES, min(MAX_SQUARES, nj) + 1):
            na, nb = ni - width + 1, nj - height + 1
            steps = _boxes(gain_i, width - 1, height, na, nb) + _boxes(gain_j, width, height - 1, na, nb)
            inside = _boxes(corners[1:, 1:], width - 1, height - 1, na, nb)
            on_or_inside = _boxes(corners, width + 1, height + 1, na, nb)
            score = steps + CORNER_WEIGHT * (inside + BOUNDARY_CORNER * (on_or_inside - inside) - (total - on_or_inside))
            score += FULL_SIZE_PRIOR * ((width == MAX_SQUARES) + (height == MAX_SQUARES))
            score += SQUARE_PRIOR * (width == height)
            scores[width, height] = score
            for a, b in zip(*np.unravel_index(np.argsort(-score, axis=None)[:3], score.shape)):
                candidates.append((float(score[a, b]), int(a), int(b), width, height))
    if not candidates:
        return None
    candidates.sort(key=lambda c: -c[0])
    best = candidates[0]
    # A window holding none of the lattice's corners (on its outline or inside) is only squares
    # that happen to alternate somewhere along the lattice's lines (noise, a texture): the
    # lattice grown is no sign of a board there.
    if best[0] <= 0 or not _holds_corners(corner_grid, *best[1:]):
        return None
    # Boards are square: a window a board's full side long (no board has more) and not square
    # is the part seen of the square holding it, the rest hidden (pieces along an edge row, an
    # arm) or out of the photo, when that rest shows at most MAX_ROWS_COMPLETED rows in the
    # photo. Otherwise (a shorter window can be a patch of anything that alternates over a
    # few squares) it is completed only where the square scores nearly as well.
    if best[3] != best[4]:
        unseen = unseen_pairs(along_i, along_j, max(best[3:]))
        square = _square_holding(scores, unseen, colour, lattice.contrast, *best[1:])
        if square is not None and square[0] > 0 and (
                square[3] == MAX_SQUARES and _rows_seen_added(colour, best, square) <= MAX_ROWS_COMPLETED
                or square[0] >= best[0] - SQUARE_COMPLETION):
            best = square
    # A completed square's rival is the window it holds; its score, lower, is what the
    # finder weighs against other lattices' windows.
    rival = next((c for c in candidates if c[1:] != best[1:]), None)
    margin = best[0] - rival[0] if rival else best[0]
    return Extent(best[1] + i_range[0], best[2] + j_range[0], best[3], best[4], float(best[0]), float(margin),
                  runs_on(along_i, along_j, *best[1:]))


def _holds_corners(corner_grid: np.ndarray, a: int, b: int, width: int, height: int) -> bool:
    """Whether the window (a, b, width, height) of ``corner_grid`` (the lattice's corners by
    lattice point, as :func:`choose_extent` counts them) holds any of them, outline included."""
    return bool(corner_grid[a:a + width + 1, b:b + height + 1].any())


def runs_on(along_i: np.ndarray, along_j: np.ndarray, a: int, b: int, width: int, height: int) -> bool:
    """Whether the checker pattern goes on past the window (a, b, width, height) of the
    alternation maps (:func:`alternation`) where it already spans MAX_SQUARES: on RUN_ON_SIDES
    or more of its sides, the ring of squares just outside steps by RUN_ON_STEP or more (the
    median along that side, of 3 or more seen). No board has more squares a side: that is a
    checked tablecloth or floor."""
    rings = []
    if width == MAX_SQUARES:
        rings += [along_j[i, max(0, b):b + height - 1] for i in (a - 1, a + width) if 0 <= i < along_j.shape[0]]
    if height == MAX_SQUARES:
        rings += [along_i[max(0, a):a + width - 1, j] for j in (b - 1, b + height) if 0 <= j < along_i.shape[1]]
    steps = [np.median(ring[np.isfinite(ring)]) for ring in rings if np.isfinite(ring).sum() >= 3]
    return sum(step >= RUN_ON_STEP for step in steps) >= RUN_ON_SIDES


def _square_holding(scores: dict, unseen: np.ndarray, colour: np.ndarray, contrast: float, a: int, b: int,
                    width: int, height: int) -> tuple | None:
    """The square window, max(width, height) squares a side, that holds the window (a, b,
    width, height) and is likeliest the board: (score, a, b, side, side), or None when none
    fits. ``unseen``: per square window of that side, its neighbour pairs not seen
    (:func:`unseen_pairs`). Of the windows that hold it, the best-scoring wins, with a pair
    out of the photo counted as no evidence against it (not as a pair of the table's) and up
    to EDGE_WEIGHT more for each side it adds, as its outermost added row stands apart from
    the row beyond it (:func:`beyond_step`, half where unseen), and EDGE_WEIGHT times
    PLAIN_ROW_STEP (a loss) where that row is plain: pieces covering a board's last row
    differ from the table past the board's edge, while rows of table beyond a board's edge
    look alike, and a printed border is plain. The score returned is the square's own,
    out-of-photo pairs and all."""
    side = max(width, height)
    table = scores.get((side, side))
    if table is None:
        return None
    na, nb = table.shape
    a_range = range(max(0, a + width - side), min(a, na - 1) + 1)
    b_range = range(max(0, b + height - side), min(b, nb - 1) + 1)
    options = []
    for x in a_range:
        for y in b_range:
            added = _sides_added(colour, a, width, x, side, y) + _sides_added(colour.T, b, height, y, side, x)
            bonus = EDGE_WEIGHT * sum(beyond_step(row, outside, contrast) for row, outside in added)
            # the table charges each unseen pair CHECKER_THRESHOLD, as a pair of the table's: undone
            options.append((float(table[x, y]) + CHECKER_THRESHOLD * float(unseen[x, y]) + bonus,
                            float(table[x, y]), x, y))
    if not options:
        return None
    _, score, x, y = max(options)
    return score, x, y, side, side


def unseen_pairs(along_i: np.ndarray, along_j: np.ndarray, side: int) -> np.ndarray:
    """Per square window ``side`` squares a side of the alternation maps (:func:`alternation`),
    how many of its neighbour pairs are not seen (nan: out of the photo)."""
    ni, nj = along_j.shape[0], along_i.shape[1]  # the squares' map
    na, nb = ni - side + 1, nj - side + 1
    return _boxes(_integral(~np.isfinite(along_i)), side - 1, side, na, nb) + \
        _boxes(_integral(~np.isfinite(along_j)), side, side - 1, na, nb)


def _rows_added(low: int, size: int, start: int, side: int) -> tuple[range, range]:
    """Along one axis, the rows that start..start+side-1 adds to low..low+size-1: those
    before it and those after it."""
    return range(start, low), range(low + size, start + side)


def _rows_seen_added(colour: np.ndarray, window: tuple, square: tuple) -> int:
    """How many of the rows (or columns) the ``square`` window (score, a, b, side, side) adds
    to ``window`` show any square in the photo (``colour`` not nan)."""
    _, a, b, width, height = window
    _, x, y, side, _ = square
    rows = [colour[i, y:y + side] for added in _rows_added(a, width, x, side) for i in added]
    rows += [colour[x:x + side, j] for added in _rows_added(b, height, y, side) for j in added]
    return sum(bool(np.isfinite(row).any()) for row in rows)


def _sides_added(colour: np.ndarray, low: int, size: int, x: int, side: int, y: int) -> list:
    """Along the first axis of ``colour``: the outermost rows that the window x..x+side-1
    adds to low..low+size-1, over y..y+side-1, each with the row just beyond it (None
    past the map)."""
    before, after = _rows_added(low, size, x, side)
    ends = ([(before[0], before[0] - 1)] if before else []) + ([(after[-1], after[-1] + 1)] if after else [])
    return [(colour[row, y:y + side], colour[beyond, y:y + side] if 0 <= beyond < len(colour) else None)
            for row, beyond in ends]


def beyond_step(row: np.ndarray, outside: np.ndarray | None, contrast: float) -> float:
    """How far a row of squares stands apart from the row just beyond it, from PLAIN_ROW_STEP
    to 1: the median step between them in units of the board's contrast, at most 1; 0.5
    where either is not seen; PLAIN_ROW_STEP for a plain row (its neighbouring squares'
    median step under PLAIN_ROW of the contrast), a printed border or the table, so that
    adding it counts against the square: a board's row alternates, and pieces on it seldom
    hide that wholly (a row of same-coloured pieces can)."""
    along = np.abs(np.diff(row))
    along = along[np.isfinite(along)]
    if len(along) >= 3 and np.median(along) < PLAIN_ROW * checker_unit(contrast):
        return PLAIN_ROW_STEP
    if outside is None:
        return 0.5
    steps = np.abs(row - outside)
    steps = steps[np.isfinite(steps)]
    if len(steps) < 3:
        return 0.5
    return float(min(1.0, np.median(steps) / checker_unit(contrast)))


# --- a board marked by hand -----------------------------------------------------------------


class InvalidCorners(UserError):
    """Corners given by hand that cannot outline a checkerboard."""


MARKED_ROUNDING = 0.45  # marks this near (in squares) a lattice's points choose its window
MARKED_SNAP = (0.35, 0.2)  # without one, x-corners this near (squares) are taken, in two rounds
MARKED_MIN_SNAPPED = 8  # fewer snapped x-corners: the marks are taken as they are
MARKED_MAX_SHIFT = 0.6  # a fit moving a mark further (squares) than this is not trusted
MARKED_MIN_SQUARE_PX = 6.0  # at working resolution: smaller squares cannot be read
# How far outside the photo a marked corner may lie, in its longer side: a board the photo's edge
# cuts off has corners out of it (the finder's own grid, offered to the player to move, among them)
MARKED_SLACK = 0.25
# of the marked outline's area in the photo: less leaves too little of the board to read (a 5x5 play
# area of an 8x8, all in the photo, is 0.39 of it)
MARKED_MIN_INSIDE = 0.25


def parse_squares(text: str) -> tuple[int, int]:
    """"COLSxROWS" ("8x8", "8 x 6", "8"; x or the multiplication sign) -> (cols, rows);
    ValueError for anything else. Whether the reader can read that size is
    :func:`grid_from_corners`' call."""
    parts = [part.strip() for part in str(text).lower().replace("\u00d7", "x").split("x")]
    if len(parts) > 2 or not all(part.isascii() and part.isdigit() and len(part) <= 3 for part in parts):
        shown = str(text) if len(str(text)) <= 20 else str(text)[:20] + "..."
        raise ValueError(f"squares as COLSxROWS, e.g. 8x8, not {shown!r}")
    return int(parts[0]), int(parts[-1])


def grid_from_corners(image_bgr: np.ndarray, corners, rows: int = 8, cols: int = 8) -> GridFit:
    """The grid of a checkerboard whose four outer corners were marked by hand (image px,
    in any order around the board; the edge from the corner nearest the image's top-left
    clockwise to the next has ``cols`` squares). The marks need only be within about 0.4 of a
    square: when a lattice of x-corners grown as :func:`find_grid` grows them has all four
    marks near its points, its plane places the board (however much of it is hidden), else the
    marks' own plane does; every inner intersection is then snapped to an x-corner near it and
    the plane refitted. With too few x-corners near, or a fit far from the marks, the marks are
    taken as they are (``support`` 0). Raises :class:`InvalidCorners` for corners that do not
    outline a board of that many squares."""
    points = np.asarray(corners, np.float64)
    if points.shape != (4, 2) or not np.isfinite(points).all():
        raise InvalidCorners("give the board's four outer corners, each as x, y in image pixels")
    if not (MIN_SQUARES <= rows <= MAX_SQUARES and MIN_SQUARES <= cols <= MAX_SQUARES):
        raise InvalidCorners(f"a marked board has {MIN_SQUARES} to {MAX_SQUARES} squares each way, not {cols}x{rows}")
    if image_bgr is None or image_bgr.size == 0:
        raise NoBoardFound("empty image: no board to find")
    height, width = image_bgr.shape[:2]
    slack = MARKED_SLACK * max(width, height)
    if (points < -slack).any() or (points[:, 0] > width + slack).any() or (points[:, 1] > height + slack).any():
        raise InvalidCorners("a corner lies outside the photo")
    ordered = clockwise_from_top_left(points)
    edges = np.roll(ordered, -1, axis=0) - ordered
    following = np.roll(edges, -1, axis=0)
    if not (edges[:, 0] * following[:, 1] - edges[:, 1] * following[:, 0] > 0).all():
        raise InvalidCorners("the four corners do not outline a board (one lies inside the others)")
    photo = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    inside, _ = cv2.intersectConvexConvex(ordered.astype(np.float32), photo)
    if inside < MARKED_MIN_INSIDE * cv2.contourArea(ordered.astype(np.float32)):
        raise InvalidCorners("nearly all of the board the corners outline lies outside the photo: "
                             "mark the board's corners in it, or take it again with the whole board in view")
    gray = image_bgr if image_bgr.ndim == 2 else cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    gray, scale = working_gray(gray)
    gray = stretch_contrast(gray)
    ordered = ordered * scale
    board = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32)
    marked = cv2.getPerspectiveTransform(board, ordered.astype(np.float32))
    ii, jj = np.meshgrid(np.arange(cols + 1), np.arange(rows + 1), indexing="ij")
    coords = np.stack([ii.ravel(), jj.ravel()], axis=1).astype(np.float64)
    squares = coords[(coords[:, 0] < cols) & (coords[:, 1] < rows)]  # each square's corner at its origin
    if not (narrowest_breadth(marked, squares) >= MARKED_MIN_SQUARE_PX).all():
        raise InvalidCorners(f"the corners outline squares too small to read ({cols}x{rows} squares)")
    detected = detect_xcorners(gray)
    start = marked
    for lattice in fit_lattices(detected.points, gray):
        marked_on_lattice = _marked_on_lattice(lattice, ordered, rows, cols)
        if marked_on_lattice is not None:
            start = cv2.getPerspectiveTransform(board, marked_on_lattice.astype(np.float32))
            break
    try:
        fit = _snapped_fit(start, marked, coords, detected.points.astype(np.float64), rows, cols)
        moved = np.linalg.norm(fit.corners[:, None, :] - ordered[None, :, :], axis=2).min(axis=1)
        trusted = np.isfinite(fit.intersections).all() and moved.max() <= MARKED_MAX_SHIFT * fit.square_side_px()
    except NoBoardFound:  # a degenerate refit
        trusted = False
    if not trusted:
        fit = _as_marked(marked, coords, rows, cols)
    return fit.scaled(1.0 / scale) if scale != 1.0 else fit


def _marked_on_lattice(lattice: Lattice, ordered: np.ndarray, rows: int, cols: int) -> np.ndarray | None:
    """Where the lattice puts the board corners the marks (clockwise, working px) stand for:
    each mark within MARKED_ROUNDING of a lattice point, the four making a cols x rows
    rectangle (cols along the first edge); None when they do not."""
    at = project(np.linalg.inv(lattice.homography), ordered)
    if not np.isfinite(at).all():
        return None
    nearest = np.round(at)
    if np.abs(at - nearest).max() > MARKED_ROUNDING:
        return None
    first, second = nearest[1] - nearest[0], nearest[3] - nearest[0]
    if (np.abs(first).sum() != cols or np.abs(second).sum() != rows or np.count_nonzero(first) != 1
            or np.count_nonzero(second) != 1 or np.count_nonzero(first * second) != 0
            or not np.array_equal(nearest[2], nearest[1] + second)):
        return None
    marked = project(lattice.homography, nearest)
    return marked if np.isfinite(marked).all() else None


def _snapped_fit(start: np.ndarray, marked: np.ndarray, coords: np.ndarray, detected: np.ndarray,
                 rows: int, cols: int) -> GridFit:
    """The plane ``start`` (board -> working px) with each inner intersection snapped to a
    detected x-corner near it (two rounds, MARKED_SNAP squares), refitted robustly, corrected
    as a cloth is; the ``marked`` plane as it is when too few x-corners are near."""
    homography = start
    inner = coords[(coords[:, 0] > 0) & (coords[:, 0] < cols) & (coords[:, 1] > 0) & (coords[:, 1] < rows)]
    src = dst = np.zeros((0, 2))
    for tolerance in MARKED_SNAP:
        src, dst = _snap(homography, inner, detected, tolerance)
        if len(src) < MARKED_MIN_SNAPPED:
            return _as_marked(marked, coords, rows, cols)
        side = float(np.median(local_scale(homography, src)))
        refit, inliers = cv2.findHomography(src, dst, cv2.RANSAC, 0.1 * side)
        keep = np.zeros(len(src), bool) if refit is None else inliers.ravel().astype(bool)
        if keep.sum() < MARKED_MIN_SNAPPED:
            return _as_marked(marked, coords, rows, cols)
        src, dst = src[keep], dst[keep]
        homography, _ = cv2.findHomography(src, dst, 0)
        if homography is None:
            return _as_marked(marked, coords, rows, cols)
    offsets = dst - project(homography, src)
    refined = project(homography, coords) + correction_field(coords, src, offsets, local_scale(homography, coords))
    return _orient(refined.reshape(cols + 1, rows + 1, 2), 1.0, int(len(src)))


def _as_marked(marked: np.ndarray, coords: np.ndarray, rows: int, cols: int) -> GridFit:
    """The grid of the marks' own plane, nothing snapped (``support`` 0)."""
    return _orient(project(marked, coords).reshape(cols + 1, rows + 1, 2), 1.0, 0)


def _snap(homography: np.ndarray, coords: np.ndarray, detected: np.ndarray,
          tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """The lattice points ``coords`` whose projection has a detected x-corner within
    ``tolerance`` squares, and those x-corners (each used once at most)."""
    if not len(detected):
        return np.zeros((0, 2)), np.zeros((0, 2))
    predicted = project(homography, coords)
    side = local_scale(homography, coords)
    distance = np.linalg.norm(predicted[:, None, :] - detected[None, :, :], axis=2)
    nearest = np.argmin(distance, axis=1)
    near = distance[np.arange(len(coords)), nearest] < tolerance * side
    _, first = np.unique(nearest[near], return_index=True)
    chosen = np.flatnonzero(near)[first]
    return coords[chosen], detected[nearest[chosen]]


# --- per-intersection refinement and orientation ------------------------------------------


def _fit_window(gray: np.ndarray, lattice: Lattice, window: Extent) -> GridFit:
    i0, j0, width, height = window.i0, window.j0, window.width, window.height
    inside = (
        (lattice.indices[:, 0] >= i0) & (lattice.indices[:, 0] <= i0 + width)
        & (lattice.indices[:, 1] >= j0) & (lattice.indices[:, 1] <= j0 + height)
    )
    if lattice.clean_sides is not None:
        # A corner on the board's outer line shows only two clean edges, and may be where the
        # table's pattern meets the board rather than the grid line: measure with the others.
        on_border = (
            (lattice.indices[:, 0] == i0) | (lattice.indices[:, 0] == i0 + width)
            | (lattice.indices[:, 1] == j0) | (lattice.indices[:, 1] == j0 + height)
        )
        trusted = inside & ~(on_border & (lattice.clean_sides < 3))
        if trusted.sum() >= 6:
            inside = trusted
    src = lattice.indices[inside].astype(np.float64)
    dst = lattice.points[inside]
    homography, kept = _plane_without_misfits(src, dst, lattice.homography)
    ii, jj = np.meshgrid(np.arange(i0, i0 + width + 1), np.arange(j0, j0 + height + 1), indexing="ij")
    coords = np.stack([ii.ravel(), jj.ravel()], axis=1).astype(np.float64)
    predicted = project(homography, coords)
    scale = local_scale(homography, coords)
    field_ = correction_field(coords, src, dst - project(homography, src), scale, trusted=kept)
    refined = (predicted + field_).reshape(width + 1, height + 1, 2)  # [i - i0, j - j0]
    support = int(len(src))
    inner = max(1, (width - 1) * (height - 1))
    coverage = min(1.0, support / min(inner, 16))
    certainty = float(np.clip(window.margin / 2.0, 0.0, 1.0))
    return _orient(refined, round(0.5 * coverage + 0.5 * certainty, 3), support)


def _plane_without_misfits(src: np.ndarray, dst: np.ndarray, homography: np.ndarray,
                           rounds: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The least-squares plane (homography) of x-corners at lattice ``src``, px ``dst``, refitted
    up to ``rounds`` times without those off on their own (:func:`consistent_corners`) while 6
    or more are kept, and which were kept; ``homography`` as it is for fewer than 6."""
    kept = np.ones(len(src), bool)
    if len(src) < 6:
        return homography, kept
    kept = _tight_consensus(src, dst, homography)
    for round_ in range(rounds + 1):
        refit, _ = cv2.findHomography(src[kept], dst[kept], 0)
        if refit is not None:
            homography = refit
        if round_ == rounds:
            break
        consistent = consistent_corners(src[kept], dst[kept] - project(homography, src[kept]),
                                        local_scale(homography, src[kept]))
        if consistent.all() or consistent.sum() < 6:
            break
        kept[np.flatnonzero(kept)[~consistent]] = False
    return homography, kept


def _tight_consensus(src: np.ndarray, dst: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The x-corners to start the plane fit from. Mismeasured x-corners that cluster (beside
    the pieces in one part of a blurred photo) vouch for each other and tilt the least-squares
    plane. So: all of them, unless most lie on one plane within CONSENSUS_TOLERANCE (RANSAC)
    that fits them clearly better than the least-squares plane of all (residuals capped at
    the tolerance, summed in squares); then those, and the others that moved as a fold
    moves (:func:`_moving_together`)."""
    everything = np.ones(len(src), bool)
    if len(src) < CONSENSUS_MIN:
        return everything
    side = local_scale(homography, src)
    plane, _ = cv2.findHomography(src, dst, cv2.RANSAC, CONSENSUS_TOLERANCE * float(np.median(side)),
                                  maxIters=2000, confidence=0.999)
    least_squares, _ = cv2.findHomography(src, dst, 0)
    if plane is None or least_squares is None:
        return everything
    on = np.hypot(*(dst - project(plane, src)).T) <= CONSENSUS_TOLERANCE * side
    if on.sum() >= 6:
        refit, _ = cv2.findHomography(src[on], dst[on], 0)
        plane = refit if refit is not None else plane
    offsets = dst - project(plane, src)
    off = np.hypot(*offsets.T) / side
    on = off <= CONSENSUS_TOLERANCE
    off_least_squares = np.hypot(*(dst - project(least_squares, src)).T) / side
    cost = float(np.sum(np.fmin(off, CONSENSUS_TOLERANCE) ** 2))
    cost_least_squares = float(np.sum(np.fmin(off_least_squares, CONSENSUS_TOLERANCE) ** 2))
    if on.sum() < max(CONSENSUS_MIN, CONSENSUS_SHARE * len(src)) or cost > CONSENSUS_GAIN * cost_least_squares:
        return everything
    return on | _moving_together(src, offsets, side, ~on)


def _moving_together(known: np.ndarray, offsets: np.ndarray, scale: np.ndarray, among: np.ndarray) -> np.ndarray:
    """Which of the x-corners ``among`` moved as a fold moves a band of corners: those in a
    group of FOLD_GROUP or more of them linked through lattice neighbours whose offsets agree
    within FOLD_TOLERANCE, and those within it of the smooth offset field of the others among
    them (a fold at a slant to the lattice, whose offsets change from corner to corner) with
    two or more neighbours among them. Two mismeasured corners beside the same piece make no fold."""
    linked = _neighbours_alike(known, offsets, scale) & among[:, None] & among[None, :]
    _, group = connected_components(linked, directed=False)
    together = among & (np.bincount(group)[group] >= FOLD_GROUP)
    inside = np.flatnonzero(among)
    if len(inside) >= FOLD_GROUP:
        field = offset_field(known[inside], known[inside], offsets[inside], leave_one_out=True)
        smooth = np.hypot(*(offsets[inside] - field).T) <= FOLD_TOLERANCE * np.asarray(scale, np.float64)[inside]
        together[inside[smooth & (_lattice_neighbours(known[inside]).sum(axis=1) >= 2)]] = True
    return together


def consistent_corners(known: np.ndarray, offsets: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Which x-corners (lattice ``known``, px ``offsets`` from the plane fit, px per square
    ``scale``) are not off on their own: within FOLD_TOLERANCE of the smooth offset field their
    neighbours predict, or of the offsets of two or more lattice neighbours (one step away,
    diagonals too). A fold of the cloth, even a crease one row wide, moves neighbouring corners
    together; a corner off on its own (or beside one other) is mismeasured (a piece's edge
    beside it, glare) and would bend the grid around it."""
    if len(known) < 6:
        return np.ones(len(known), bool)
    scale = np.asarray(scale, np.float64)
    expected = offset_field(known, known, offsets, leave_one_out=True)
    smooth = np.hypot(*(offsets - expected).T) <= FOLD_TOLERANCE * scale
    return smooth | (_neighbours_alike(known, offsets, scale).sum(axis=1) >= 2)


def _neighbours_alike(known: np.ndarray, offsets: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """[a, b]: x-corners a and b are lattice neighbours (diagonals too) whose offsets agree
    within FOLD_TOLERANCE of a's square."""
    apart = np.hypot(*(offsets[:, None, :] - offsets[None, :, :]).transpose(2, 0, 1))
    return _lattice_neighbours(known) & (apart <= FOLD_TOLERANCE * np.asarray(scale, np.float64)[:, None])


def _lattice_neighbours(known: np.ndarray) -> np.ndarray:
    """[a, b]: lattice points a and b are one step apart, diagonals included."""
    return np.abs(known[:, None, :] - known[None, :, :]).max(axis=2) == 1


def correction_field(coords: np.ndarray, known: np.ndarray, offsets: np.ndarray, scale: np.ndarray,
                     trusted: np.ndarray | None = None) -> np.ndarray:
    """Per-intersection correction (px) from the plane fit. On a flat board (the x-corners
    ``trusted``, a boolean mask, by default all, sit on the plane within their own noise) none:
    the plane is the best guess everywhere, better than a lone x-corner's own measurement. On a
    folded cloth every intersection with its own x-corner, trusted or not, takes that
    measurement, and the others the smooth, locally linear offset field of all of them, which
    keeps a fold's slope out to the border."""
    if not len(known):
        return np.zeros_like(coords)
    typical = float(np.median(scale)) if len(scale) else 1.0
    flat = offsets if trusted is None or not np.any(trusted) else offsets[np.asarray(trusted, bool)]
    rms = float(np.sqrt(np.mean((flat**2).sum(axis=1)))) / max(typical, 1e-9)
    if rms <= FLAT_RMS:
        return np.zeros_like(coords)
    exact = np.abs(known[None, :, :] - coords[:, None, :]).sum(axis=2) < 1e-9
    has = exact.any(axis=1)
    field = offset_field(coords, known, offsets)
    field[has] = offsets[np.argmax(exact[has], axis=1)]
    return field


def _orient(refined: np.ndarray, confidence: float, support: int) -> GridFit:
    """Label intersections ``refined[i, j]`` (lattice i, j) in board coordinates: seen from
    above (x to the right when y points up the picture), then turned so that row 0 is the
    edge nearest the bottom."""
    grid = refined.transpose(1, 0, 2)  # [j, i]: x along the lattice's i, y along its j
    dx = grid[0, -1] - grid[0, 0]
    dy = grid[-1, 0] - grid[0, 0]
    if dx[0] * dy[1] - dx[1] * dy[0] > 0:  # mirrored: seen from above, x runs the other way
        grid = grid[:, ::-1]
    fit = _grid_fit(grid, confidence, support)
    return fit.turned(fit.bottom_turns())


def _grid_fit(grid: np.ndarray, confidence: float, support: int) -> GridFit:
    """A GridFit from intersections [row, col] in board order, with its least-squares plane."""
    rows, cols = grid.shape[0] - 1, grid.shape[1] - 1
    if not np.isfinite(grid).all():  # a window reaching past the horizon of a bad plane fit
        raise NoBoardFound("no checkerboard found in the photo (degenerate grid)")
    board_pts = np.stack(np.meshgrid(np.arange(cols + 1), np.arange(rows + 1)), axis=-1).reshape(-1, 2)
    homography, _ = cv2.findHomography(board_pts.astype(np.float64), grid.reshape(-1, 2), 0)
    if homography is None:
        raise NoBoardFound("no checkerboard found in the photo (degenerate grid)")
    homography = homography / homography[2, 2]
    outer = np.array([grid[0, 0], grid[0, cols], grid[rows, cols], grid[rows, 0]])
    return GridFit(rows, cols, clockwise_from_top_left(outer), homography, np.ascontiguousarray(grid),
                   confidence, support)


def clockwise_from_top_left(points: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise on screen (y down), starting from the one nearest (0, 0)."""
    points = np.asarray(points, np.float64)
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    ordered = points[np.argsort(angles)]  # increasing angle with y down = clockwise on screen
    start = int(np.argmin(np.hypot(ordered[:, 0], ordered[:, 1])))
    return np.roll(ordered, -start, axis=0)
