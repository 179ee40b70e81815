"""Stage 3-4: what stands on each square (empty, park marker, 1-, 2- or 3-pip pyramid).

The board is a known plane (the grid's homography) seen by a camera recovered from it
(``camera.py``), so every hypothesis about a square has a predicted outline in the photo: a
flat disc for a park marker, or for a pyramid the hull of its base (0.32 / 0.45 / 0.57 of a
square) and its apex (0.57 / 0.78 / 1.0 squares up). Tall pieces lean over the squares
behind them; their outline still starts at their own base, so a pyramid belongs to the
square its base stands on.

Each pixel gets foreground evidence (log-odds that it is not bare cloth) from its colour
against the expected checker colour there, estimated from the board itself (square corners,
which a centred piece leaves visible, and the empty squares outside the play area). The
labels of all squares are then fitted together: the union of the chosen outlines should
cover the foreground and nothing else (coordinate ascent, nearest squares first, since
nothing hides them). Each square's scores over its labels become a probability table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from scorer.vision.camera import BoardCamera
from scorer.vision.lattice import median_square_side

LABELS = ("empty", "park", "1", "2", "3")
HYPOTHESIS_LABEL = {"park": "park", "park_small": "park", "park_large": "park", "1": "1", "2": "2", "3": "3"}
HYPOTHESES = tuple(HYPOTHESIS_LABEL)
PIECE_BASE = {1: 0.32, 2: 0.45, 3: 0.57}  # base side / square side (bandanna: 44.5 mm squares)
PIECE_HEIGHT = {1: 0.571, 2: 0.784, 3: 1.0}  # apex height / square side
PARK_RADII = {"park": 0.30, "park_small": 0.21, "park_large": 0.42}  # coins, glass stones, chips
PARK_HEIGHT = 0.04
TEXTURE_PX = 16  # pixels per square in the rectified board texture
SQUARE_PX = 48  # px per square (across) the square reader works at (the photo is shrunk to it)
PIECE_SCALES = (0.78, 0.86, 0.96, 1.07, 1.19)  # pyramid size / 44.5 mm-square size tried (nearest for 35.5-57 mm squares)
LARGE_PIECE_SCALES = (1.32, 1.46)  # a travel set's 30-35.5 mm squares, tried where the learned size fit says so
SCALE_TEMPERATURE = 0.1  # board fit (square areas) -> scale weights (dev choice)
# The outline fit's defaults: what a pyramid's and a park marker's outline must explain (per
# square area) before it beats an empty square, how far an outline may slide off the square's
# centre (squares) and what sliding costs (per squared square).
PIECE_PRIOR, PARK_PRIOR = 0.02, 0.1
MAX_OFFSET, OFFSET_COST = 0.3, 0.8
SWEEPS = 3  # at most, over all the squares
FIT_TEMPERATURE = 0.1  # score per square area -> probabilities
SMOOTH = 0.03  # blur (in squares) before comparing colours: averages out cloth grain
# How far in from an outline's edge a piece's pixels count for how see-through it looks
# (``SquareReading.over_cloth``), as a share of the outline's size (the root of its area):
# a fitted outline a little off takes in cloth at its rim, which an opaque piece would seem to
# show through. (About 2 px for a 1-pip at SQUARE_PX.)
INNER_MARGIN = 0.1
CORNER_OUTLIER, CORNER_TOLERANCE = 2.0, 10.0  # a square's corner patch left out as covered (_bare_corner_colours)


# --- the board's own appearance -----------------------------------------------------------

@dataclass(frozen=True)
class CheckerAppearance:
    """Expected Lab colour of bare cloth anywhere on the board, from a smooth fit per parity."""

    light_coef: np.ndarray  # (6, 3) quadratic surface in (x, y) per Lab channel
    dark_coef: np.ndarray
    dark_parity: int  # (col + row) % 2 of the dark squares
    noise: float  # robust spread (Lab units) of bare-cloth pixels around the fit
    square_lab: np.ndarray  # (rows, cols, 3) corner-patch medians per square
    square_bare: np.ndarray  # (rows, cols) bool: square's corners look like bare cloth
    rows: int
    cols: int
    square_seen: np.ndarray | None = None  # (rows, cols) bool: square mostly in the photo (None: all)

    @property
    def seen(self) -> np.ndarray:
        """(rows, cols) bool: the squares mostly in the photo (all of them where not recorded)."""
        return self.square_seen if self.square_seen is not None else np.ones((self.rows, self.cols), bool)

    def expected(self, x: np.ndarray, y: np.ndarray, parity: np.ndarray) -> np.ndarray:
        """Expected Lab at board points (x, y) in squares on squares of the given parity."""
        feats = _quad_features(x, y, self.rows, self.cols)
        light = feats @ self.light_coef
        dark = feats @ self.dark_coef
        return np.where((parity == self.dark_parity)[..., None], dark, light)

    @property
    def light_lab(self) -> np.ndarray:
        """Mean fitted Lab of the light squares."""
        return self._mean(self.light_coef)

    @property
    def dark_lab(self) -> np.ndarray:
        return self._mean(self.dark_coef)

    def _mean(self, coef):
        ys, xs = np.mgrid[0:self.rows, 0:self.cols]
        feats = _quad_features(xs.ravel() + 0.5, ys.ravel() + 0.5, self.rows, self.cols)
        return (feats @ coef).mean(axis=0)


def _quad_features(x, y, rows, cols):
    u = np.asarray(x, float) / cols - 0.5
    v = np.asarray(y, float) / rows - 0.5
    return np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=-1)


def to_lab(image_bgr: np.ndarray) -> np.ndarray:
    """Float Lab (L 0..100, a and b around 0) of a BGR uint8 image (8-bit conversion: fast)."""
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    return lab


def board_lab(image_bgr: np.ndarray, region: tuple[int, int, int, int], smooth: float = 0.0) -> np.ndarray:
    """Lab of the image inside ``region`` (x0, y0, x1, y1), zero elsewhere (never looked at);
    ``smooth`` (px) blurs first, so that cloth grain and noise average out."""
    x0, y0, x1, y1 = region
    lab = np.zeros(image_bgr.shape[:2] + (3,), np.float32)
    crop = image_bgr[y0:y1, x0:x1]
    if smooth > 0.3:
        crop = cv2.GaussianBlur(crop, (0, 0), smooth)
    lab[y0:y1, x0:x1] = to_lab(crop)
    return lab


def square_side_px(camera: BoardCamera, rows: int, cols: int) -> float:
    """Median side of a square in the image, px."""
    pts = camera.project(np.array([[c, r, 0.0] for r in range(rows + 1) for c in range(cols + 1)]))
    return median_square_side(pts.reshape(rows + 1, cols + 1, 2))


def rectify(image: np.ndarray, homography: np.ndarray, rows: int, cols: int,
            px: int = TEXTURE_PX, flags=cv2.INTER_AREA, border=cv2.BORDER_REPLICATE) -> np.ndarray:
    """Top-down view of the checkerboard: ``px`` pixels per square, row 0 at the bottom
    (off the image: its edge repeated, or zero with ``border=cv2.BORDER_CONSTANT``)."""
    return cv2.warpPerspective(image, homography @ _texture_to_board(rows, px), (cols * px, rows * px),
                               flags=flags | cv2.WARP_INVERSE_MAP, borderMode=border, borderValue=0)


def _texture_to_board(rows: int, px: int) -> np.ndarray:
    """Texture pixel (u, v) -> board point (u / px, rows - v / px)."""
    return np.array([[1.0 / px, 0, 0], [0, -1.0 / px, rows], [0, 0, 1]])


def _robust_fit(x, y, values, rows, cols, iters=3):
    feats = _quad_features(x, y, rows, cols)
    weights = np.ones(len(values))
    coef = np.zeros((6, 3))
    for _ in range(iters):
        w = np.sqrt(weights)[:, None]
        # Few samples: fall back to a plane or a constant.
        n_terms = 6 if weights.sum() >= 14 else (3 if weights.sum() >= 5 else 1)
        sol, *_ = np.linalg.lstsq(feats[:, :n_terms] * w, values * w, rcond=None)
        coef = np.zeros((6, 3))
        coef[:n_terms] = sol
        resid = np.linalg.norm(values - feats @ coef, axis=1)
        scale = 1.4826 * np.median(resid[weights > 0.5]) + 1.0
        weights = (resid < 2.5 * scale).astype(float)
        if weights.sum() < 3:
            weights = np.ones(len(values))
    return coef, weights > 0.5


def checker_appearance(image_lab: np.ndarray, homography: np.ndarray, rows: int, cols: int,
                       region: tuple[int, int, int, int] | None = None) -> CheckerAppearance:
    """Fit the light and dark squares' colour over the board from their visible corners;
    squares mostly off the photo, or outside ``region`` (x0, y0, x1, y1: the part of
    ``image_lab`` that holds Lab values, as :func:`board_lab` leaves it), do not count."""
    px = TEXTURE_PX
    top = rectify(image_lab, homography, rows, cols, px, cv2.INTER_LINEAR)
    x0, y0, x1, y1 = region or (0, 0, image_lab.shape[1], image_lab.shape[0])
    in_view = np.zeros(image_lab.shape[:2], np.uint8)
    in_view[y0:y1, x0:x1] = 1
    seen = rectify(in_view, homography, rows, cols, px, cv2.INTER_NEAREST, border=cv2.BORDER_CONSTANT)
    m = max(1, round(0.06 * px))  # stay off the printed lines
    k = max(2, round(0.22 * px))  # corner patch size
    near, far = slice(m, m + k), slice(px - m - k, px - m)
    corners = [(near, near), (near, far), (far, near), (far, far)]
    patches = np.zeros((rows, cols, len(corners), k * k, 3))
    visible = np.zeros((rows, cols), bool)
    for row in range(rows):
        v0 = (rows - 1 - row) * px
        for col in range(cols):
            u0 = col * px
            cell, cell_seen = top[v0:v0 + px, u0:u0 + px], seen[v0:v0 + px, u0:u0 + px]
            patches[row, col] = [cell[ys, xs].reshape(-1, 3) for ys, xs in corners]
            visible[row, col] = np.mean([cell_seen[ys, xs].mean() for ys, xs in corners]) > 0.5
    ys, xs = np.mgrid[0:rows, 0:cols]
    parity = (xs + ys) % 2
    if min(np.sum(visible & (parity == p)) for p in (0, 1)) < 3:  # too little in view to leave any out
        visible[:] = True
    square_lab, spread = _bare_corner_colours(patches, parity, visible)
    lum = square_lab[..., 0]
    dark_parity = int(np.median(lum[(parity == 1) & visible]) < np.median(lum[(parity == 0) & visible]))
    coefs = {}
    bare = np.zeros((rows, cols), bool)
    for p in (0, 1):
        sel = (parity == p) & visible
        coef, inliers = _robust_fit(xs[sel] + 0.5, ys[sel] + 0.5, square_lab[sel], rows, cols)
        coefs[p] = coef
        bare[sel] = inliers
    noise = float(np.median(spread[bare])) * 1.4826 + 0.5 if bare.any() else 3.0
    return CheckerAppearance(
        light_coef=coefs[1 - dark_parity], dark_coef=coefs[dark_parity], dark_parity=dark_parity,
        noise=noise, square_lab=square_lab, square_bare=bare, rows=rows, cols=cols, square_seen=visible,
    )


def _bare_corner_colours(patches: np.ndarray, parity: np.ndarray, visible: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per square, the median Lab of its corner patches (``patches``: rows x cols x corners x
    pixels x 3) and their pixels' median distance from it. A corner that a tall piece in front
    leans over (steep views) is left out: a square keeps the corners nearer the median corner
    of its square colour (over the ``visible`` squares) than CORNER_OUTLIER times its nearest
    corner's distance, or than CORNER_TOLERANCE."""
    rows, cols = patches.shape[:2]
    corner_lab = np.median(patches, axis=3)  # (rows, cols, corners, 3)
    square_lab, spread = np.zeros((rows, cols, 3)), np.zeros((rows, cols))
    reference = {p: np.median(corner_lab[(parity == p) & visible].reshape(-1, 3), axis=0) for p in (0, 1)}
    for row in range(rows):
        for col in range(cols):
            off = colour_distance(corner_lab[row, col], reference[parity[row, col]])
            keep = off <= max(CORNER_OUTLIER * off.min(), CORNER_TOLERANCE)
            pix = patches[row, col][keep].reshape(-1, 3)
            med = np.median(pix, axis=0)
            square_lab[row, col] = med
            spread[row, col] = np.median(colour_distance(pix, med))
    return square_lab, spread


# --- per-pixel evidence -------------------------------------------------------------------

@dataclass(frozen=True)
class Evidence:
    """Foreground log-odds over a region of the working image (``origin`` = its top-left)."""

    logodds: np.ndarray  # float32 (h, w); 0 where unknown (off the board)
    origin: tuple[int, int]
    on_board: np.ndarray  # bool (h, w)
    lab: np.ndarray  # the region's Lab pixels
    expected: np.ndarray  # expected bare-cloth Lab there

    @functools.cached_property
    def cloth_bounds(self) -> tuple[np.ndarray, tuple[float, float]]:
        """The board less its outer rim, where the expected cloth fades into what lies beyond it
        (sightlines landing there are left out of :func:`piece_show_through`), and the bare
        cloth's dark and light lightness."""
        board_l = self.expected[..., 0][self.on_board]
        cloth = (float(np.percentile(board_l, 5)), float(np.percentile(board_l, 95))) if board_l.size else (0.0, 0.0)
        inside_board = cv2.erode(self.on_board.astype(np.uint8), np.ones((5, 5), np.uint8),
                                 borderType=cv2.BORDER_CONSTANT, borderValue=0).astype(bool)
        return inside_board, cloth


def expected_texture(appearance: CheckerAppearance, px: int = TEXTURE_PX) -> np.ndarray:
    """Rectified (row 0 at the bottom) float image of the bare board: Lab and a trust weight
    (1 inside squares, lower beside the printed lines where a slightly-off grid mixes both)."""
    rows, cols = appearance.rows, appearance.cols
    v, u = np.mgrid[0:rows * px, 0:cols * px].astype(np.float64)
    bx = (u + 0.5) / px
    by = rows - (v + 0.5) / px
    parity = (np.floor(bx).astype(np.int64) + np.floor(by).astype(np.int64)) % 2
    lab = appearance.expected(bx, by, parity)
    fx, fy = bx - np.floor(bx), by - np.floor(by)
    edge = np.minimum(np.minimum(fx, 1 - fx), np.minimum(fy, 1 - fy))
    trust = np.where(edge < 0.06, 0.3, 1.0)
    return np.dstack([lab, trust]).astype(np.float32)


def colour_distance(lab: np.ndarray, reference: np.ndarray, *, brighter_weight: float = 30.0,
                    darker_weight: float = 18.0) -> np.ndarray:
    """How far Lab colours are from the reference cloth colour: chroma difference plus the
    lightness as a log ratio (a shadow, a moderate darkening, counts less than a dark piece)."""
    d_ab = lab[..., 1:] - reference[..., 1:]
    ratio = np.log((lab[..., 0] + 4.0) / np.maximum(reference[..., 0] + 4.0, 1.0))  # a fit can dip below 0
    l_term = np.where(ratio > 0, brighter_weight * ratio, darker_weight * ratio)
    return np.sqrt(l_term ** 2 + d_ab[..., 0] ** 2 + d_ab[..., 1] ** 2)


def evidence_map(image_lab: np.ndarray, homography: np.ndarray, appearance: CheckerAppearance,
                 region: tuple[int, int, int, int], *, threshold_sigmas: float = 2.5) -> Evidence:
    """Log-odds that each pixel of ``region`` (x0, y0, x1, y1) shows something on the cloth.

    Colour difference from the expected cloth: chroma (a, b) directly, lightness as a log
    ratio, so that a shadow (a moderate darkening of the same colour) counts less than a dark
    piece. A pixel counts as the piece's only when it is at least half as different as the
    strongest pixel around it (a blurred edge mixes piece and cloth).
    """
    x0, y0, x1, y1 = region
    rows = appearance.rows
    lab = image_lab[y0:y1, x0:x1]
    h, w = lab.shape[:2]
    px = TEXTURE_PX
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    to_region = shift @ homography @ _texture_to_board(rows, px)
    tex = expected_texture(appearance, px)
    warped = cv2.warpPerspective(tex, to_region, (w, h), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    expected, trust = warped[..., :3], warped[..., 3]
    on_board = trust > 0.05
    dist = colour_distance(lab, expected).astype(np.float32)
    sigma = max(appearance.noise, 1.5)
    local_max = cv2.dilate(dist, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    threshold = np.maximum(threshold_sigmas * sigma, 0.5 * local_max)
    logodds = np.clip((dist - threshold) / sigma, -3.0, 3.0).astype(np.float32)
    logodds *= np.clip(trust, 0.0, 1.0)
    logodds[~on_board] = 0.0
    return Evidence(logodds=logodds, origin=(x0, y0), on_board=on_board, lab=lab, expected=expected)


# --- outlines of hypotheses ---------------------------------------------------------------

@functools.cache
def _unit_circle(n: int) -> tuple[np.ndarray, np.ndarray]:
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    cos, sin = np.cos(ang), np.sin(ang)
    cos.flags.writeable = sin.flags.writeable = False  # shared by every call
    return cos, sin


def _outline_points(label: str, cx: np.ndarray, cy: np.ndarray, scale: float) -> np.ndarray:
    """(S, K, 3) board points whose image hull is hypothesis ``label``'s outline at each centre."""
    cx, cy = np.asarray(cx, np.float64)[:, None], np.asarray(cy, np.float64)[:, None]
    if label.startswith("park"):
        cos, sin = _unit_circle(16)
        x, y = cx + PARK_RADII[label] * cos, cy + PARK_RADII[label] * sin
        return np.concatenate([np.stack([x, y, np.full_like(x, z)], axis=-1) for z in (0.0, PARK_HEIGHT)], axis=1)
    pips = int(label)
    half = PIECE_BASE[pips] * scale / 2 * 1.06  # between side and diagonal: any turn
    cos, sin = _unit_circle(8)
    x, y = cx + half * cos, cy + half * sin
    base = np.stack([x, y, np.zeros_like(x)], axis=-1)
    apex = np.stack([cx, cy, np.full_like(cx, PIECE_HEIGHT[pips] * scale)], axis=-1)
    return np.concatenate([base, apex], axis=1)


def outlines(camera: BoardCamera, label: str, cx, cy, scale: float = 1.0) -> list[np.ndarray]:
    """Image polygons (N, 2) of hypothesis ``label`` centred at each board point (cx[i], cy[i]),
    pyramids ``scale`` times their bandanna size, in one projection."""
    pts = _outline_points(label, cx, cy, scale)
    img = camera.project(pts.reshape(-1, 3)).astype(np.float32).reshape(len(pts), -1, 2)
    return [cv2.convexHull(poly).reshape(-1, 2) for poly in img]


def outline(camera: BoardCamera, label: str, cx: float, cy: float, scale: float = 1.0) -> np.ndarray:
    """Image polygon (N, 2) of a hypothesis centred at board point (cx, cy)."""
    return outlines(camera, label, [cx], [cy], scale)[0]


@dataclass
class _Mask:
    x0: int
    y0: int
    mask: np.ndarray  # bool

    @property
    def area(self) -> int:
        return int(self.mask.sum())


def _rasterise(poly: np.ndarray, shape: tuple[int, int], origin: tuple[int, int]) -> _Mask | None:
    h, w = shape
    pts = poly - np.array(origin, dtype=np.float32)
    x0 = int(np.floor(pts[:, 0].min()))
    y0 = int(np.floor(pts[:, 1].min()))
    x1 = int(np.ceil(pts[:, 0].max())) + 1
    y1 = int(np.ceil(pts[:, 1].max())) + 1
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx1 <= cx0 or cy1 <= cy0:
        return None
    buf = np.zeros((cy1 - cy0, cx1 - cx0), np.uint8)
    shifted = np.round((pts - [cx0, cy0]) * 4).astype(np.int32)
    cv2.fillPoly(buf, [shifted], 1, lineType=cv2.LINE_8, shift=2)
    return _Mask(cx0, cy0, buf.astype(bool))


# --- fitting all squares together ---------------------------------------------------------

@dataclass
class SquareReading:
    """One checkerboard square's evidence: probabilities over LABELS and its piece's pixels."""

    col: int
    row: int
    probs: np.ndarray  # over LABELS
    scores: np.ndarray  # raw log-likelihood gains over LABELS
    offset: tuple[float, float] = (0.0, 0.0)
    outline: np.ndarray | None = None  # image polygon of the chosen label (working image)
    colour_lab: np.ndarray | None = None  # robust colour of the visible piece pixels
    colour_pixels: int = 0
    over_cloth: tuple[float, float] | None = None  # mean lightness of the piece's own inner pixels, and of the cloth behind them
    show_through: tuple[float, float] | None = None  # piece_show_through of its own inner pixels: slope, variance
    colour_names: np.ndarray | None = None  # the learned model's odds over board.COLOURS

    @property
    def label(self) -> str:
        return LABELS[int(np.argmax(self.probs))]


@dataclass
class SquaresResult:
    readings: dict[tuple[int, int], SquareReading]
    appearance: CheckerAppearance
    evidence: Evidence
    camera: BoardCamera
    coverage: np.ndarray = field(repr=False, default=None)  # how many outlines cover each pixel
    piece_scale: float = 1.0
    objective: float = 0.0  # evidence explained by the chosen outlines, per square area


def board_region(camera: BoardCamera, rows: int, cols: int, image_shape) -> tuple[int, int, int, int]:
    """Pixel box holding the board and everything up to a large pyramid's height above it."""
    pts = []
    for z in (0.0, 1.05):
        pts.append(camera.project(np.array([[0, 0, z], [cols, 0, z], [cols, rows, z], [0, rows, z]], float)))
    pts = np.vstack(pts)
    h, w = image_shape[:2]
    x0 = int(max(0, np.floor(pts[:, 0].min()) - 2))
    y0 = int(max(0, np.floor(pts[:, 1].min()) - 2))
    x1 = int(min(w, np.ceil(pts[:, 0].max()) + 2))
    y1 = int(min(h, np.ceil(pts[:, 1].max()) + 2))
    return x0, y0, x1, y1


def board_evidence(image_bgr: np.ndarray, homography: np.ndarray, rows: int, cols: int,
                   camera: BoardCamera) -> tuple[CheckerAppearance, Evidence]:
    """The board's bare-cloth appearance in the working image (:func:`checker_appearance`, on
    the board's region blurred by SMOOTH squares) and the foreground evidence against it
    (:func:`evidence_map`)."""
    region = board_region(camera, rows, cols, image_bgr.shape)
    lab = board_lab(image_bgr, region, SMOOTH * square_side_px(camera, rows, cols))
    appearance = checker_appearance(lab, homography, rows, cols, region)
    return appearance, evidence_map(lab, homography, appearance, region)


def read_squares(image_bgr: np.ndarray, homography: np.ndarray, rows: int, cols: int,
                 camera: BoardCamera, *, centre_shifts: dict | None = None,
                 piece_scale: float = 1.0, temperature: float = FIT_TEMPERATURE, iterations: int = SWEEPS,
                 piece_prior: float = PIECE_PRIOR, park_prior: float = PARK_PRIOR, max_offset: float = MAX_OFFSET,
                 offset_cost: float = OFFSET_COST, evidence: Evidence | None = None,
                 appearance: CheckerAppearance | None = None) -> SquaresResult:
    """Read every square of the checkerboard in ``image_bgr`` (the working image).

    ``centre_shifts`` maps (col, row) to a pixel offset of that square from the homography
    (a wrinkled cloth). ``piece_scale`` is the pyramids' size relative to a 44.5 mm square.
    Each outline slides up to ``max_offset`` squares off the centre (pieces are seldom
    centred), at ``offset_cost`` per squared square of offset. ``temperature`` turns score per
    square-area into probabilities. ``iterations``: sweeps over the squares at most.
    """
    if appearance is None or evidence is None:
        appearance, evidence = board_evidence(image_bgr, homography, rows, cols, camera)
    fit = _OutlineFit(evidence, rows, cols, camera, centre_shifts=centre_shifts, piece_scale=piece_scale,
                      piece_prior=piece_prior, park_prior=park_prior, max_offset=max_offset, offset_cost=offset_cost)
    fit.sweep(iterations)
    return fit.result(appearance, temperature)


class _OutlineFit:
    """Every square's outline hypotheses at one piece scale, and the one chosen for each so far.

    A sweep refits each square, nearest the camera first, against the evidence the outlines
    chosen for the others leave it; sweeps stop early once one changes no square's label. The
    park markers' outlines do not depend on the scale: fits of one board at several scales,
    on the same evidence, camera and ``centre_shifts``, may share them (``park_cache``, filled
    by the first; nothing changes them once drawn), and with them each park outline's best
    place on a square no other outline covers any of (the same evidence there at every scale)."""

    def __init__(self, ev: Evidence, rows: int, cols: int, camera: BoardCamera, *, centre_shifts: dict | None = None,
                 piece_scale: float = 1.0, piece_prior: float = PIECE_PRIOR, park_prior: float = PARK_PRIOR,
                 max_offset: float = MAX_OFFSET, offset_cost: float = OFFSET_COST,
                 park_cache: _ParkCache | None = None):
        self.ev, self.camera, self.piece_scale, self.piece_prior = ev, camera, piece_scale, piece_prior
        self.park_prior = park_prior
        E = ev.logodds
        shape = E.shape
        origin = ev.origin
        centre_shifts = centre_shifts or {}
        self.park_cache = park_cache = _ParkCache() if park_cache is None else park_cache

        self.squares = squares = [(c, r) for r in range(rows) for c in range(cols)]
        self.hyps = hyps = {}
        self.square_area, self.reach = square_area, reach = {}, {}
        centres = np.array(squares, np.float64) + 0.5
        pyramids = {label: outlines(camera, label, centres[:, 0], centres[:, 1], piece_scale)
                    for label in HYPOTHESES if label[0].isdigit()}
        parks = {}
        corners = np.array([[[c, r, 0], [c + 1, r, 0], [c + 1, r + 1, 0], [c, r + 1, 0]] for c, r in squares], float)
        quads = camera.project(corners.reshape(-1, 3)).reshape(len(squares), 4, 2).astype(np.float32)
        for i, (c, r) in enumerate(squares):
            shift = np.asarray(centre_shifts.get((c, r), (0.0, 0.0)), dtype=np.float32)
            square_area[(c, r)] = max(1.0, abs(cv2.contourArea(quads[i])))
            side = np.sqrt(square_area[(c, r)])
            reach[(c, r)] = max(1, int(round(max_offset * side)))
            per = {}
            for label in HYPOTHESES:
                if label in pyramids:
                    hyp = _hypothesis(pyramids[label][i] + shift, shape, origin)
                else:
                    if (label, i) not in park_cache.outlines:
                        if label not in parks:  # every square's outline of this park marker at once
                            parks[label] = outlines(camera, label, centres[:, 0], centres[:, 1])
                        park_cache.outlines[(label, i)] = _hypothesis(parks[label][i] + shift, shape, origin)
                    hyp = park_cache.outlines[(label, i)]
                if hyp is not None:
                    per[label] = hyp
            hyps[(c, r)] = per

        self.penalties = {}
        for sq in squares:
            R = reach[sq]
            gy, gx = np.mgrid[-R:R + 1, -R:R + 1].astype(np.float32)
            self.penalties[sq] = offset_cost * (gx ** 2 + gy ** 2)  # per square area: area / side^2 = 1
        # Outlines may run off the evidence map (a board filling the frame, a tall piece at its
        # edge): pad it with "no evidence" on each side by as much as they reach beyond it.
        masks = [m for per in hyps.values() for _, m, _ in per.values()]
        margin = max(reach.values()) + 2
        self.top = top = margin + max([0] + [-m.y0 for m in masks])
        self.left = left = margin + max([0] + [-m.x0 for m in masks])
        bottom = margin + max([0] + [m.y0 + m.mask.shape[0] - shape[0] for m in masks])
        right = margin + max([0] + [m.x0 + m.mask.shape[1] - shape[1] for m in masks])
        self.E_pad = E_pad = cv2.copyMakeBorder(E, top, bottom, left, right, cv2.BORDER_CONSTANT, value=0.0)
        self.cover = np.zeros(E_pad.shape, np.int16)

        self.chosen: dict[tuple[int, int], tuple] = {sq: ("empty", None, 0, 0) for sq in squares}
        cam = camera.camera_centre
        order = sorted(squares, key=lambda s: (s[0] + 0.5 - cam[0]) ** 2 + (s[1] + 0.5 - cam[1]) ** 2)
        self.scores = {sq: np.zeros(len(LABELS)) for sq in squares}
        self.best_shift: dict[tuple[int, int], dict] = {sq: {} for sq in squares}
        # Each hypothesis's last fit and the other outlines' cover of its window then: a later
        # sweep finding that cover unchanged has the same place and score without refitting.
        self.last_fit: dict[tuple, tuple[np.ndarray, tuple]] = {}
        # Squares with no foreground anywhere a piece of theirs could reach stay empty.
        positive = cv2.integral(np.maximum(E_pad, 0).astype(np.float64))
        quiet = set()
        for sq in squares:
            if "3" not in hyps[sq]:
                continue
            m = hyps[sq]["3"][1]
            R = reach[sq]
            ya, xa = m.y0 + top - R, m.x0 + left - R
            yb, xb = ya + m.mask.shape[0] + 2 * R, xa + m.mask.shape[1] + 2 * R
            ya, xa = max(ya, 0), max(xa, 0)
            yb, xb = min(yb, E_pad.shape[0]), min(xb, E_pad.shape[1])
            total = positive[yb, xb] - positive[ya, xb] - positive[yb, xa] + positive[ya, xa]
            if total < 0.02 * square_area[sq]:
                quiet.add(sq)
                self.scores[sq] = np.array([0.0] + [-1.0] * (len(LABELS) - 1))
        self.order = [sq for sq in order if sq not in quiet]
        self.settled = False  # True once a sweep changes no square's label

    def _window(self, m: _Mask, R: int):
        return (slice(m.y0 + self.top - R, m.y0 + self.top + m.mask.shape[0] + R),
                slice(m.x0 + self.left - R, m.x0 + self.left + m.mask.shape[1] + R))

    def _place(self, m: _Mask, dx: int, dy: int, sign: int):
        y, x = m.y0 + self.top + dy, m.x0 + self.left + dx
        self.cover[y:y + m.mask.shape[0], x:x + m.mask.shape[1]] += sign * m.mask

    def sweep(self, times: int = 1) -> None:
        """Refit every square, ``times`` times over or until a sweep changes no square's label."""
        for _ in range(times):
            if self.settled:
                return
            changed = 0
            for sq in self.order:
                changed += self._refit(sq)
            self.settled = changed == 0
            if self.settled:
                self.last_fit.clear()  # no sweep follows

    def _refit(self, sq) -> bool:
        label, m0, dx0, dy0 = self.chosen[sq]
        if m0 is not None:
            self._place(m0, dx0, dy0, -1)
        area = self.square_area[sq]
        R = self.reach[sq]
        best_shift = self.best_shift[sq]
        sc = np.full(len(LABELS), -np.inf)
        sc[0] = 0.0
        for lab_name in HYPOTHESES:
            li = LABELS.index(HYPOTHESIS_LABEL[lab_name])
            if lab_name not in self.hyps[sq]:
                continue
            poly, m, tmpl = self.hyps[sq][lab_name]
            ys, xs = self._window(m, R)
            covered = self.cover[ys, xs]
            any_covered = covered.any()
            park = lab_name.startswith("park")
            placed = self.park_cache.places.get((lab_name, sq)) if park else None
            if placed is None or any_covered:
                last = self.last_fit.get((sq, lab_name))
                if last is not None and np.array_equal(last[0], covered):
                    placed = last[1]
                else:
                    win = np.where(covered == 0, self.E_pad[ys, xs], 0.0) if any_covered else self.E_pad[ys, xs]
                    if win.shape[0] < tmpl.shape[0] or win.shape[1] < tmpl.shape[1]:
                        sc[li] = -np.inf
                        continue
                    total = cv2.matchTemplate(win, tmpl, cv2.TM_CCORR) - self.penalties[sq]
                    ky, kx = divmod(int(np.argmax(total)), total.shape[1])
                    placed = (kx - R, ky - R, float(total[ky, kx]))
                    self.last_fit[(sq, lab_name)] = (covered.copy(), placed)
                if park and not any_covered:
                    self.park_cache.places[(lab_name, sq)] = placed
            value = placed[2] / area - (self.park_prior if park else self.piece_prior)
            best_shift[lab_name] = (placed[0], placed[1], value)
            if value > sc[li]:
                sc[li] = value
        self.scores[sq] = sc
        best_h = max(best_shift, key=lambda h: best_shift[h][2]) if best_shift else None
        if best_h is None or best_shift[best_h][2] <= 0.0:
            new = ("empty", None, 0, 0)
        else:
            dx, dy, _ = best_shift[best_h]
            new = (best_h, self.hyps[sq][best_h][1], dx, dy)
        self.chosen[sq] = new
        if new[1] is not None:
            self._place(new[1], new[2], new[3], +1)
        return new[0] != label

    def result(self, appearance: CheckerAppearance, temperature: float, colours: bool = True) -> SquaresResult:
        """The readings as fitted so far; ``colours``: with the chosen pieces' colour samples."""
        ev = self.ev
        readings = {}
        for sq in self.squares:
            sc = np.where(np.isfinite(self.scores[sq]), self.scores[sq], -10.0)
            z = (sc - sc.max()) / temperature
            probs = np.exp(z)
            probs /= probs.sum()
            label, m, dx, dy = self.chosen[sq]
            reading = SquareReading(col=sq[0], row=sq[1], probs=probs, scores=sc)
            if m is not None:
                side = np.sqrt(self.square_area[sq])
                reading.offset = (dx / side, dy / side)
                reading.outline = self.hyps[sq][label][0] + np.array([dx, dy], np.float32)
            readings[sq] = reading
        shape = ev.logodds.shape
        cover_core = self.cover[self.top:self.top + shape[0], self.left:self.left + shape[1]].copy()
        if colours:
            _sample_colours(readings, self.chosen, ev, cover_core)
        mean_area = float(np.mean(list(self.square_area.values())))
        n_pieces = sum(1 for v in self.chosen.values() if v[1] is not None)
        objective = float(ev.logodds[cover_core > 0].sum()) / mean_area - self.piece_prior * n_pieces
        return SquaresResult(readings=readings, appearance=appearance, evidence=ev, camera=self.camera,
                             coverage=cover_core, piece_scale=self.piece_scale, objective=objective)


@dataclass
class _ParkCache:
    """What fits of one board at several scales share of the park markers (:class:`_OutlineFit`):
    each marker's outline per square (keyed by marker and square index) and, on a square whose
    window no other outline covers, its best place there: (dx, dy, correlation less the offset
    penalty), keyed by marker and square."""

    outlines: dict = field(default_factory=dict)
    places: dict = field(default_factory=dict)


def _hypothesis(poly: np.ndarray, shape: tuple[int, int], origin: tuple[int, int]):
    """An outline polygon in the working image, its mask on the evidence map (which it may run
    off) and that mask as a float template; None when it lies wholly off a wide margin."""
    m = _rasterise(poly, (shape[0] + 4000, shape[1] + 4000), (origin[0] - 2000, origin[1] - 2000))
    if m is None:
        return None
    m.x0 -= 2000
    m.y0 -= 2000
    template = m.mask.astype(np.float32)
    for array in (poly, m.mask, template):
        array.flags.writeable = False  # park outlines are shared by fits at several scales
    return poly, m, template


def read_squares_any_scale(image_bgr: np.ndarray, homography: np.ndarray, rows: int, cols: int,
                           camera: BoardCamera, *, scales=PIECE_SCALES, centre_shifts: dict | None = None,
                           temperature: float = FIT_TEMPERATURE, iterations: int = SWEEPS,
                           scale_prior: np.ndarray | None = None, size_prior: np.ndarray | None = None,
                           **kwargs) -> SquaresResult:
    """:func:`read_squares` over the pieces' possible scales, mixed by how well each explains the photo.

    Pyramids have one size, squares do not (40-57 mm, a travel set's down to 30): relative to
    the square the pieces may be smaller or larger than on the 44.5 mm bandanna, which shifts
    every size by a rung. The board is read at each scale; every square's probabilities are
    the mixture over scales, weighted by how well that scale's outlines fit the whole board
    (:func:`scale_weights`), so an unclear scale spreads a size's probability instead of
    picking one rung for all.
    The weights come from one sweep of the fit at each scale; the best-fitting scale's fit is
    then swept on, to ``iterations`` sweeps in all (at least 1), and gives the outlines and
    colour samples. ``scale_prior``: odds of each of ``scales`` from elsewhere (the learned
    model's board-wide size fit, ``square_model.piece_scale_prior``), which the weights are
    multiplied by. ``size_prior``: such odds that weigh the mixture of the squares'
    probabilities (and ``piece_scale``) in their place, the best-fitting scale's outlines and
    colour samples kept (``square_model.piece_scale_odds``: the learned fit names the square
    size far better than the outlines do, but from high up the outlines are left to fit
    themselves). The whole of each square's probabilities is mixed so, empty and park too,
    and a scale the odds favour but whose outlines were not kept can make a square a pyramid
    with no colour sample (``square_model.merge_learned`` then takes one above its base).
    Where the reader passes the learned odds, its size evidence counts twice, here and in
    ``square_model.combined_probs``. ``kwargs``: the outline fit's settings, as
    :func:`read_squares` takes them.
    """
    _check_mixing(iterations, len(scales), scale_prior, size_prior)
    trials = fit_each_scale(image_bgr, homography, rows, cols, camera, scales=scales, centre_shifts=centre_shifts, **kwargs)
    return trials.mixed(temperature=temperature, iterations=iterations, scale_prior=scale_prior, size_prior=size_prior)


def _check_mixing(iterations: int, n_scales: int, scale_prior: np.ndarray | None, size_prior: np.ndarray | None) -> None:
    if iterations < 1:
        raise ValueError(f"the scales are weighed after one sweep: iterations must be at least 1, not {iterations}")
    for name, prior in (("scale_prior", scale_prior), ("size_prior", size_prior)):
        if prior is not None and len(prior) != n_scales:
            raise ValueError(f"{name} has {len(prior)} odds for {n_scales} scales")


@dataclass
class ScaleTrials:
    """One board's outline fit at each trial piece scale, each swept once
    (:func:`fit_each_scale`); :meth:`mixed` weighs them into the reading."""

    appearance: CheckerAppearance
    fits: list[_OutlineFit]
    used: bool = False
    fit_at: Callable[[float], _OutlineFit] | None = None  # a new fit, swept once, at another scale

    def add_scales(self, scales) -> None:
        """Fit at ``scales`` too, each swept once, set up as the first fits were."""
        if self.used or self.fit_at is None:
            raise RuntimeError("scales are added before the trials are mixed, to trials that fit_each_scale made")
        self.fits = self.fits + [self.fit_at(s) for s in scales]

    def mixed(self, *, temperature: float = FIT_TEMPERATURE, iterations: int = SWEEPS,
              scale_prior: np.ndarray | None = None, size_prior: np.ndarray | None = None) -> SquaresResult:
        """The scales weighed and mixed, the best-fitting one swept on, as
        :func:`read_squares_any_scale` says. Once only: it sweeps that fit further."""
        _check_mixing(iterations, len(self.fits), scale_prior, size_prior)
        if self.used:
            raise RuntimeError("these trials were mixed already, and their best fit swept on")
        self.used = True
        fits, appearance = self.fits, self.appearance
        trials = [fit.result(appearance, temperature, colours=False) for fit in fits]
        weights = scale_weights(trials, prior=scale_prior)
        mixture = weights if size_prior is None else scale_weights(trials, prior=size_prior)
        k = int(np.argmax(weights))
        fits[k].sweep(iterations - 1)
        best = trials[k] = fits[k].result(appearance, temperature)
        for sq, reading in best.readings.items():
            reading.probs = sum(w * trial.readings[sq].probs for w, trial in zip(mixture, trials))
        best.piece_scale = float(np.exp(sum(w * np.log(t.piece_scale) for w, t in zip(mixture, trials))))
        return best


def fit_each_scale(image_bgr: np.ndarray, homography: np.ndarray, rows: int, cols: int, camera: BoardCamera, *,
                   scales=PIECE_SCALES, centre_shifts: dict | None = None, **kwargs) -> ScaleTrials:
    """The first step of :func:`read_squares_any_scale`: the outline fit at each of ``scales``,
    swept once. It needs nothing from the learned model, so the reader runs that meanwhile
    and weighs the scales with it after (:meth:`ScaleTrials.mixed`)."""
    appearance, evidence = board_evidence(image_bgr, homography, rows, cols, camera)
    parks = _ParkCache()

    def fit_at(scale: float) -> _OutlineFit:
        fit = _OutlineFit(evidence, rows, cols, camera, centre_shifts=centre_shifts, piece_scale=scale,
                          park_cache=parks, **kwargs)
        fit.sweep()
        return fit

    return ScaleTrials(appearance, [fit_at(s) for s in scales], fit_at=fit_at)


def scale_weights(trials: list[SquaresResult], temperature: float = SCALE_TEMPERATURE,
                  prior: np.ndarray | None = None) -> np.ndarray:
    """Weight of each trial scale: softmax of the board's fit (sum over squares of the best
    label's score, per square area) over ``temperature``, times ``prior`` (odds per trial)
    where given.

    Seen from low down (30-35 degrees up) the fit alone often prefers too small a scale: the
    pyramids in front hide the lower parts of those behind, and small outlines slid onto what
    shows of each explain a crowded board about as well as the true ones (drawings of seeds
    0-29, 30-35 degrees up: 13 of 30 boards weighed 0.78-0.86 most, none from 35-85 degrees
    up, their true scale 1.0), which reads the pyramids a size too large throughout."""
    fit = np.array([sum(float(r.scores.max()) for r in t.readings.values()) for t in trials])
    z = (fit - fit.max()) / temperature
    if prior is not None:
        z = z + np.log(np.maximum(np.asarray(prior, np.float64), 1e-300))
        z -= z.max()
    w = np.exp(z)
    return w / w.sum()


def _sample_colours(readings, chosen, ev: Evidence, cover: np.ndarray) -> None:
    """Robust colour of each chosen pyramid from the pixels only it explains, and what
    :func:`_cloth_measures` takes from its outline."""
    E = ev.logodds
    bounds = ev.cloth_bounds
    for sq, (label, m, dx, dy) in chosen.items():
        if m is None or label == "empty":
            continue
        clipped = _on_evidence(m, dx, dy, E.shape)
        if clipped is None:
            continue
        sl, sub_mask = clipped
        own = sub_mask & (cover[sl] == 1)
        _cloth_measures(readings[sq], ev, sl, sub_mask, own, m.area, *bounds)
        strong = own & (E[sl] > 0.5)
        use = strong if strong.sum() >= 12 else own
        if use.sum() < 4:
            continue
        pix = ev.lab[sl][use]
        readings[sq].colour_lab = np.median(pix, axis=0)
        readings[sq].colour_pixels = int(use.sum())


def _on_evidence(m: _Mask, dx: int, dy: int, shape: tuple[int, int]):
    """The slices of the evidence map (``shape``) that mask ``m``, moved (dx, dy) px, covers,
    and the part of the mask within it; None when it lies wholly off the map."""
    h, w = shape
    y0, x0 = m.y0 + dy, m.x0 + dx
    ys0, xs0 = max(0, y0), max(0, x0)
    ys1, xs1 = min(h, y0 + m.mask.shape[0]), min(w, x0 + m.mask.shape[1])
    if ys1 <= ys0 or xs1 <= xs0:
        return None
    return (slice(ys0, ys1), slice(xs0, xs1)), m.mask[ys0 - y0:ys1 - y0, xs0 - x0:xs1 - x0]


def _cloth_measures(reading: SquareReading, ev: Evidence, sl, outline_mask: np.ndarray, own: np.ndarray,
                    area: int, inside_board: np.ndarray, cloth: tuple[float, float]) -> None:
    """Set a pyramid's ``over_cloth`` (the mean lightness of its own pixels, ``own``, inside
    its outline's rim, and of the bare cloth behind them) and ``show_through`` (how much of
    that cloth shows through them, :func:`piece_show_through`) from its outline's mask at
    ``sl`` of the evidence map (the part of it on the map; ``area``: the whole outline's, which
    sizes the rim). Every pixel counts, however like the cloth, but only inside the outline, as
    one a little off takes in cloth at its rim."""
    rim = max(1, int(round(INNER_MARGIN * np.sqrt(area))))
    inner = cv2.erode(outline_mask.astype(np.uint8), np.ones((2 * rim + 1, 2 * rim + 1), np.uint8),
                      borderType=cv2.BORDER_CONSTANT, borderValue=0).astype(bool)
    seen = own & inner & ev.on_board[sl]
    if seen.sum() < 4:
        return
    reading.over_cloth = (float(ev.lab[sl][seen][:, 0].mean()), float(ev.expected[sl][seen][:, 0].mean()))
    landed = seen & inside_board[sl]
    ys, xs = np.nonzero(landed)
    reading.show_through = piece_show_through(ev.lab[sl][landed][:, 0], ev.expected[sl][landed][:, 0], xs, ys, cloth)


def measure_added_pyramid(squares: SquaresResult, col: int, row: int, pips: int, shift=(0.0, 0.0)) -> None:
    """Give square (col, row)'s reading, a ``pips`` pyramid that a later stage found where the
    outline fit chose none, the ``over_cloth`` and ``show_through`` the fit gives its own
    pieces: from that pyramid's outline at the squares' piece scale, centred on the square
    (moved ``shift`` image px, as the fit's ``centre_shifts``), over the pixels no chosen
    outline covers. A player's pieces the fit missed (white ones on mid-grey squares, faint
    clear ones) then count towards how see-through their group looks."""
    ev = squares.evidence
    if squares.coverage is None or not np.all(np.isfinite(shift)):
        return
    poly = outline(squares.camera, str(pips), col + 0.5, row + 0.5, squares.piece_scale)
    hypothesis = _hypothesis(poly + np.asarray(shift, np.float32), ev.logodds.shape, ev.origin)
    clipped = None if hypothesis is None else _on_evidence(hypothesis[1], 0, 0, ev.logodds.shape)
    if clipped is None:
        return
    sl, sub_mask = clipped
    _cloth_measures(squares.readings[(col, row)], ev, sl, sub_mask, sub_mask & (squares.coverage[sl] == 0),
                    hypothesis[1].area, *ev.cloth_bounds)


THROUGH_MIN_PIXELS = 8  # a piece's inner pixels whose sightlines land on each square colour, for piece_show_through


def piece_show_through(lightness: np.ndarray, behind: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                       cloth: tuple[float, float]) -> tuple[float, float] | None:
    """How much of the board behind shows through one piece, from its own pixels: the slope of
    their lightness against the bare cloth's where each pixel's sightline meets the board
    (``behind``), with a linear shading across the piece (``xs``, ``ys``) fitted alongside, and
    that slope's variance (for independent noise). 0 for opaque plastic, 1 were the piece not
    there. ``cloth``: the board's dark and light cloth lightness. None unless the sightlines
    land on both square colours (within a quarter of their difference), THROUGH_MIN_PIXELS or
    more on each (a view from high above sees only the piece's own square through it), or where
    the pixels do not fix the fit (in one line)."""
    behind = np.asarray(behind, np.float64)
    dark, light = cloth
    quarter = 0.25 * (light - dark)
    if quarter <= 0 or min(np.sum(behind > light - quarter), np.sum(behind < dark + quarter)) < THROUGH_MIN_PIXELS:
        return None
    design = np.column_stack([np.ones_like(behind), behind - behind.mean(), xs - np.mean(xs), ys - np.mean(ys)])
    coef, _res, rank, _sv = np.linalg.lstsq(design, np.asarray(lightness, np.float64), rcond=None)
    if rank < 4:
        return None
    residual = lightness - design @ coef
    covariance = np.linalg.pinv(design.T @ design) * float(np.sum(residual ** 2)) / (len(behind) - 4)
    return float(coef[1]), float(covariance[1, 1])


HEIGHT_PROBE = 0.5  # squares from the base, on the board, where the probe's sightline lands
HEIGHT_BARE, HEIGHT_COVERED, HEIGHT_SIGMA = 0.3, 0.8, 0.2  # foreground share at the probe; its spread
# Park markers are flat (coins, glass stones, chips) or blocks: a wooden cube up to 16 mm tall and
# 18 mm wide on a 44.5 mm square (the studio's tokens: 8-16 mm), 0.36 of a square tall, its
# back 0.2 behind its middle, which stands up to 0.1 off the square's. Its top reaches the
# probe's sightline (HEIGHT_PROBE behind the base) where the probe looks lower than this.
BLOCK_MARKER_REACH = 0.36 * HEIGHT_PROBE / (HEIGHT_PROBE - 0.2 - 0.1)
HEIGHT_MISLED = 0.1  # the probe may show something else (a shadow, a piece behind): each hypothesis keeps this much
_PROBE_HEIGHTS = np.linspace(0.0, 1.6, 81)


def height_probe(camera: BoardCamera, evidence: Evidence, base: np.ndarray, side: float,
                 occluders: list[np.ndarray] = ()) -> tuple[float, float] | None:
    """Look above a piece's base (board point ``base``) along the camera's vertical, at the
    height whose sightline meets the board HEIGHT_PROBE squares behind the base (beyond a coin's
    or glass stone's rim; a large chip's rim may reach it): (that height in squares, foreground
    share there), or None when the view is too straight down to reach it within 1.6 squares or
    the point lies inside one of ``occluders`` (image outlines of other squares' pyramids: seen
    from low down the one in front reaches over it). A pyramid taller than that height covers
    the point; a flat token leaves it bare (or showing whatever lies behind)."""
    pts = camera.project(np.column_stack([np.full_like(_PROBE_HEIGHTS, base[0]),
                                          np.full_like(_PROBE_HEIGHTS, base[1]), _PROBE_HEIGHTS]))
    to_board = np.linalg.inv(camera.projection[:, [0, 1, 3]])
    hom = np.column_stack([pts, np.ones(len(pts))]) @ to_board.T
    reach = np.linalg.norm(hom[:, :2] / hom[:, 2:3] - base, axis=1)
    i = int(np.searchsorted(reach, HEIGHT_PROBE))
    if i == 0 or i >= len(reach) or np.any(np.diff(reach[:i + 1]) < 0):
        return None
    t = (HEIGHT_PROBE - reach[i - 1]) / max(reach[i] - reach[i - 1], 1e-9)
    height = _PROBE_HEIGHTS[i - 1] + t * (_PROBE_HEIGHTS[i] - _PROBE_HEIGHTS[i - 1])
    point = pts[i - 1] + t * (pts[i] - pts[i - 1])
    if any(cv2.pointPolygonTest(np.asarray(poly, np.float32), (float(point[0]), float(point[1])), False) >= 0
           for poly in occluders):
        return None
    disc = disc_window(evidence.logodds.shape, point - np.array(evidence.origin), 0.07 * side)
    if disc is None or disc[2].sum() < 3:
        return None
    share = float(np.mean(1.0 / (1.0 + np.exp(-evidence.logodds[disc[0], disc[1]][disc[2]]))))
    return float(height), share


def disc_window(shape: tuple[int, ...], centre, radius: float):
    """(row slice, column slice, bool mask) of the pixels of an image of ``shape`` within
    ``radius`` of ``centre`` (x, y), or None when the disc lies outside the image."""
    x, y = centre
    h, w = shape[:2]
    x0, x1 = max(0, int(x - radius)), min(w, int(x + radius) + 1)
    y0, y1 = max(0, int(y - radius)), min(h, int(y + radius) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    yy, xx = np.mgrid[y0:y1, x0:x1]
    return slice(y0, y1), slice(x0, x1), (xx - x) ** 2 + (yy - y) ** 2 <= radius ** 2


def _share_fit(share: float, expected):
    """How well a probe's foreground share fits the share ``expected`` (HEIGHT_SIGMA spread)."""
    return np.exp(-((share - np.asarray(expected, np.float64)) ** 2) / (2 * HEIGHT_SIGMA ** 2))


def apply_height_cue(result: SquaresResult) -> None:
    """Weigh each square's flat (empty, park) against tall (a pyramid) readings by
    :func:`height_probe`: the foreground share expected there is HEIGHT_COVERED where the
    hypothesis is taller than the probe (85% of the apex, whose tip is thin) and HEIGHT_BARE
    elsewhere, with HEIGHT_SIGMA spread; a park's is either where a block marker reaches the
    probe (BLOCK_MARKER_REACH), and every hypothesis keeps HEIGHT_MISLED of its odds. Squares
    whose probe point the outline of a pyramid read within two squares covers (seen from low
    down, the one in front) are left as they are. The sizes keep their odds among themselves."""
    camera = result.camera
    to_board = np.linalg.inv(camera.projection[:, [0, 1, 3]])
    rows = 1 + max(r for _, r in result.readings)
    cols = 1 + max(c for c, _ in result.readings)
    side = square_side_px(camera, rows, cols)
    heights = np.array([0.0, PARK_HEIGHT] + [PIECE_HEIGHT[k] * result.piece_scale for k in (1, 2, 3)])
    pyramids = {sq: reading.outline for sq, reading in result.readings.items()
                if reading.outline is not None and reading.probs[2:].sum() > 0.5}
    for (c, r), reading in result.readings.items():
        at = camera.project(np.array([[c + 0.5, r + 0.5, 0.0]]))[0] + np.array(reading.offset) * side
        q = to_board @ np.array([at[0], at[1], 1.0])
        others = [poly for (oc, orow), poly in pyramids.items()
                  if (oc, orow) != (c, r) and abs(oc - c) <= 2 and abs(orow - r) <= 2]
        probe = height_probe(camera, result.evidence, q[:2] / q[2], side, others)
        if probe is None:
            continue
        height, share = probe
        covered = 1.0 / (1.0 + np.exp(-(0.85 * heights - height) / 0.05))
        odds = _share_fit(share, HEIGHT_BARE + (HEIGHT_COVERED - HEIGHT_BARE) * covered)
        if height < BLOCK_MARKER_REACH:  # a marker may be flat or a block that reaches the probe
            odds[1] = 0.5 * (odds[1] + _share_fit(share, HEIGHT_COVERED))
        odds = (1.0 - HEIGHT_MISLED) * odds + HEIGHT_MISLED
        p = reading.probs
        tall = float((p[2:] * odds[2:]).sum() / max(p[2:].sum(), 1e-12))
        new = np.concatenate([p[:2] * odds[:2], p[2:] * tall])
        reading.probs = new / new.sum()


def pyramid_outline(camera: BoardCamera, centre, pips: int, scale: float = 1.0) -> np.ndarray:
    """(K, 2) convex outline in the photo of a ``pips`` pyramid standing on board point
    ``centre`` (x, y in squares), its size times ``scale``, its square base turned square to
    the board. :func:`outline` draws a fitting hypothesis instead, its base an octagon between
    side and diagonal for any turn: in :func:`hidden_share` that hides less (on the 270 renders
    of 2026-11-24, 44 1-pips over the 0.1 line instead of 59, 9 of the wrong sure ones instead of 11)."""
    x, y = centre
    solid = np.vstack([_base_corners(x, y, PIECE_BASE[pips] * scale / 2), [x, y, PIECE_HEIGHT[pips] * scale]])
    return cv2.convexHull(camera.project(solid).astype(np.float32)).reshape(-1, 2)


def _base_corners(x: float, y: float, half: float) -> np.ndarray:
    """(4, 3) board points: the corners of a square base of half side ``half`` centred on (x, y), in turn."""
    return np.array([[x - half, y - half, 0], [x + half, y - half, 0], [x + half, y + half, 0], [x - half, y + half, 0]])


def apex_within_base(camera: BoardCamera, col: int, row: int, pips: int, reach: float = 1.0) -> bool:
    """Whether a ``pips`` pyramid standing in the middle of square (col, row) is seen so
    steeply from above that its outline shows no height, only the base: the camera is at
    least atan(2 height / base side) above the base's middle (about 74 degrees for every
    size), where the apex projects about within the base (exactly, from 74.5-76 degrees for
    a camera 8-25 squares away). ``reach``: the apex within that many times the base's half
    side of its middle instead (1.25: about 70 degrees, a little height showing)."""
    return camera.elevation_deg(col, row) >= float(np.degrees(np.arctan2(2 * PIECE_HEIGHT[pips],
                                                                         reach * PIECE_BASE[pips])))


# A piece whose colour in the photo lies within BLEND_DE (Lab units) of its own square's bare
# colour melts into the square: its outline shows faintly, and its size most of all (reader.py
# and square_model.py measure what that costs).
BLEND_DE = 12.0
# ... in a photo exposed as the studio's are (their light squares mostly at a lightness of
# 65-100). Less light shrinks every Lab difference, about as L + 16 shrinks (L*, a* and b* go as
# the cube root of the light), so in a darker photo the threshold shrinks with it: five stops
# short (light squares near 17), BLEND_DE counted most pieces as melting into their squares.
BLEND_LIGHT_L = 65.0


def colour_against_square(result: SquaresResult, col: int, row: int) -> float | None:
    """How far (Lab units) the colour sampled from the piece on square (col, row) lies from
    the square's own bare colour there; None where no colour was sampled. Small for a piece
    that melts into its square: translucent plastic of the square's own colour, clear on a
    light square, white on white."""
    reading = result.readings.get((col, row))
    if reading is None or reading.colour_lab is None:
        return None
    parity = np.array([(col + row) % 2])
    bare = result.appearance.expected(np.array([col + 0.5]), np.array([row + 0.5]), parity)[0]
    return float(np.linalg.norm(reading.colour_lab - bare))


def blend_threshold(appearance: CheckerAppearance) -> float:
    """BLEND_DE for this photo's exposure: as much less as its light squares' L + 16 is under
    BLEND_LIGHT_L + 16."""
    return BLEND_DE * min(1.0, (float(appearance.light_lab[0]) + 16.0) / (BLEND_LIGHT_L + 16.0))


def blends_into_square(result: SquaresResult, col: int, row: int) -> bool:
    """Whether the piece on square (col, row) is within :func:`blend_threshold` of its
    square's colour."""
    against = colour_against_square(result, col, row)
    return against is not None and against < blend_threshold(result.appearance)


def hidden_share(result: SquaresResult, squares, pips: int = 1, reach: int = 2) -> dict[tuple[int, int], float]:
    """For each (col, row) in ``squares``: the share of a ``pips`` pyramid's base, standing
    in the middle of that square, that the likely pyramids of the squares around it (up to
    ``reach`` away) hide from the camera; 0 seen whole, 1 hidden. Each neighbour hides the
    share its outline covers, expected over its size odds; neighbours hide independently (an
    approximation: pieces in one line behind each other hide the same strip).
    In an oblique view a tall piece leans over the squares behind it, and a glimpse of its
    side there can pass for a small pyramid."""
    camera, scale = result.camera, result.piece_scale
    half = PIECE_BASE[pips] * scale / 2
    outlines = {}
    shares = {}
    for c, r in squares:
        corners = _base_corners(c + 0.5, r + 0.5, half)
        base = cv2.convexHull(camera.project(corners).astype(np.float32))  # in the same turning sense as the outlines
        area = float(cv2.contourArea(base))
        seen = 1.0
        for dc in range(-reach, reach + 1):
            for dr in range(-reach, reach + 1):
                other = result.readings.get((c + dc, r + dr))
                if (dc, dr) == (0, 0) or other is None or area <= 0:
                    continue
                hides = 0.0
                for k in (1, 2, 3):
                    p = float(other.probs[1 + k])
                    if p < 0.01:
                        continue
                    key = (c + dc, r + dr, k)
                    if key not in outlines:
                        outlines[key] = pyramid_outline(camera, (c + dc + 0.5, r + dr + 0.5), k, scale)
                    covered, _ = cv2.intersectConvexConvex(base, outlines[key])
                    hides += p * min(1.0, covered / area)
                seen *= 1.0 - min(1.0, hides)
        shares[(c, r)] = 1.0 - seen
    return shares


COVERED_MIN_SQUARES = 3  # squares in one patch without bare corners, from the board's edge, that make a cover


def covered_squares(appearance: CheckerAppearance, explained: np.ndarray | None = None) -> np.ndarray:
    """(rows, cols) bool (row 0 at the bottom): squares something reaching in over the board's
    edge lies over (a hand, an arm, a sleeve, a player leaning in): a patch of
    COVERED_MIN_SQUARES or more squares in view, side by side, whose corners show no bare cloth,
    touching the checkerboard's edge. A pyramid or a marker leaves its square's corners bare; a
    tall piece leaning over the corners behind it hides one or two squares' corners, not a patch
    from the edge (none of dev's photos or 190 other renders had one of more than 2).
    ``explained``: squares whose corners something else accounts for (glare washing them out:
    ``lighting.glared_squares``), left out."""
    covered = ~np.asarray(appearance.square_bare, bool) & appearance.seen
    if explained is not None:
        covered &= ~np.asarray(explained, bool)
    count, patches = cv2.connectedComponents(covered.astype(np.uint8), connectivity=4)
    out = np.zeros_like(covered)
    for patch in range(1, count):
        member = patches == patch
        at_edge = member[0].any() or member[-1].any() or member[:, 0].any() or member[:, -1].any()
        if at_edge and member.sum() >= COVERED_MIN_SQUARES:
            out |= member
    return out
