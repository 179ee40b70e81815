"""Fit an integer lattice to detected x-corners: which corners are one checkerboard's.

Seeds are parallelograms of x-corners (a corner, two neighbours and the fourth point, which
may be hidden under a piece) whose sides are checker edges with the right light/dark
polarity. Each seed's homography predicts the rest of the lattice, which is grown ring by ring
and refitted robustly as it goes; a corner off the plane stays when it follows the smooth fold
its neighbours show (a wrinkled cloth). A corner joins only if the lattice segments around it
are edges whose dark side alternates as a checkerboard's does, which keeps clutter out. The
lattice with the most corners (weighted towards bigger squares: a fabric weave is no board)
wins. Lattice coordinates are integers
(i, j) of inner corners; square (i, j) spans corners (i, j)..(i+1, j+1); orientation and
origin stay arbitrary until the board's extent is decided.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

MATCH_TOLERANCE = 0.25  # of the local square size
SEED_TOLERANCE = 0.12  # of the local square size, when ranking seed cells (a looser one lets
                       # the weak corners of grain and cloth texture vouch for any seed)
NEIGHBOUR_POOL = 2  # seed cells take their corners from the strongest NEIGHBOUR_POOL x max_seed_corners
OUTLIER_TOLERANCE = 0.2  # a corner this far off the plane fit is dropped, unless it is
FOLD_TOLERANCE = 0.08  # ... this close to the smooth fold its neighbours predict
PLANE_TOLERANCE = 0.12  # RANSAC threshold of the plane fit, in squares
MAX_SPAN = 12  # lattice lines each way; a board has at most 9
MIN_CORNERS = 6
MIN_SQUARE_PX = 7.0  # smaller squares cannot be read anyway; fabric and wallpaper live there
EDGE_OFFSET = 0.14  # how far either side of a lattice segment to sample, in squares
MIN_EDGE_CONTRAST = 6.0  # grey levels


@dataclass(frozen=True)
class Lattice:
    """Inner corners of a checkerboard in lattice coordinates.

    ``homography`` maps lattice (i, j) to image px; ``indices`` (M, 2) int lattice coordinates
    and ``points`` (M, 2) the matched x-corners in px; ``polarity`` is +1 when square (0, 0)
    is the lighter colour, else -1; ``contrast`` the median light-dark difference of its edges;
    ``clean_sides`` (M,) how many of the four lattice segments at each corner are clean checker
    edges (4 at an inner corner in plain view, 2 where the board's edge meets a square).
    """

    homography: np.ndarray
    indices: np.ndarray
    points: np.ndarray
    polarity: int
    contrast: float
    clean_sides: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.indices)


def project(homography: np.ndarray, coords: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to (..., 2) points; nan where a point falls behind the camera."""
    coords = np.asarray(coords, dtype=np.float64)
    shape = coords.shape
    flat = coords.reshape(-1, 2)
    mapped = flat @ homography[:, :2].T + homography[:, 2]
    w = mapped[:, 2:3]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = mapped[:, :2] / np.where(w > 1e-9, w, np.nan)
    return out.reshape(shape)


def median_square_side(intersections: np.ndarray) -> float:
    """Median length (px) of the square sides in a (rows + 1, cols + 1, 2) grid of image points."""
    sides = np.concatenate([np.linalg.norm(np.diff(intersections, axis=0), axis=2).ravel(),
                            np.linalg.norm(np.diff(intersections, axis=1), axis=2).ravel()])
    return float(np.median(sides))


def _project_many(homographies: np.ndarray, coords: np.ndarray) -> np.ndarray:
    """(S, 3, 3) homographies applied to the same (P, 2) points: (S, P, 2), nan behind the camera."""
    mapped = coords @ homographies[:, :, :2].transpose(0, 2, 1) + homographies[:, None, :, 2]
    w = mapped[..., 2:3]
    with np.errstate(divide="ignore", invalid="ignore"):
        return mapped[..., :2] / np.where(w > 1e-9, w, np.nan)


def _cell_sides(homography: np.ndarray, coords: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The image vectors (N, 2) of the two sides from each lattice coordinate (N, 2): along x, along y."""
    coords = np.asarray(coords, np.float64)
    base = project(homography, coords)
    return project(homography, coords + [1.0, 0.0]) - base, project(homography, coords + [0.0, 1.0]) - base


def local_scale(homography: np.ndarray, coords: np.ndarray) -> np.ndarray:
    """Shorter side (px) of the lattice cell at each lattice coordinate (N, 2)."""
    dx, dy = _cell_sides(homography, coords)
    return np.minimum(np.hypot(dx[:, 0], dx[:, 1]), np.hypot(dy[:, 0], dy[:, 1]))


def narrowest_breadth(homography: np.ndarray, coords: np.ndarray) -> np.ndarray:
    """Breadth (px) of the lattice cell at each lattice coordinate (N, 2) across its longer
    side: its area over that side, so a sliver with long sides has little (its sides alone
    do not show it)."""
    dx, dy = _cell_sides(homography, coords)
    area = np.abs(dx[:, 0] * dy[:, 1] - dx[:, 1] * dy[:, 0])
    return area / np.maximum(np.maximum(np.hypot(dx[:, 0], dx[:, 1]), np.hypot(dy[:, 0], dy[:, 1])), 1e-12)


class NearestPoint:
    """O(1) nearest-detected-point lookups through a Voronoi label image."""

    def __init__(self, points: np.ndarray, shape: tuple[int, int]):
        self.points = np.asarray(points, np.float64)
        height, width = shape
        seeds = np.full((height, width), 255, np.uint8)
        xi = np.clip(np.round(self.points[:, 0]).astype(int), 0, width - 1)
        yi = np.clip(np.round(self.points[:, 1]).astype(int), 0, height - 1)
        seeds[yi, xi] = 0
        _, labels = cv2.distanceTransformWithLabels(seeds, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
        # Label k (1-based) is the k-th zero pixel in row-major order; map it to our index.
        order = np.full(labels.max() + 1, -1, np.int64)
        flat = yi * width + xi
        ranks = np.searchsorted(np.unique(flat), flat)
        order[ranks + 1] = np.arange(len(flat))
        self.labels = order[labels]
        self.shape = shape

    def query(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Index of the nearest point to each (N, 2) position and its distance (inf off-image)."""
        xy = np.asarray(xy, np.float64).reshape(-1, 2)
        height, width = self.shape
        finite = np.isfinite(xy).all(axis=1)
        xi = np.round(np.nan_to_num(xy[:, 0], nan=-1)).astype(np.int64)
        yi = np.round(np.nan_to_num(xy[:, 1], nan=-1)).astype(np.int64)
        inside = finite & (xi >= 0) & (yi >= 0) & (xi < width) & (yi < height)
        index = np.full(len(xy), -1, np.int64)
        index[inside] = self.labels[yi[inside], xi[inside]]
        gap = np.full(len(xy), np.inf)
        ok = index >= 0
        gap[ok] = np.hypot(*(self.points[index[ok]] - xy[ok]).T)
        return index, gap


def _sample(gray: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Bilinear-ish (nearest) grey values at (..., 2) positions; nan off-image."""
    height, width = gray.shape
    flat = xy.reshape(-1, 2)
    inside = (flat[:, 0] > -0.5) & (flat[:, 1] > -0.5) & (flat[:, 0] < width - 0.5) & (flat[:, 1] < height - 0.5)
    values = np.full(len(flat), np.nan)
    pick = flat[inside]
    values[inside] = gray[(pick[:, 1] + 0.5).astype(np.int64), (pick[:, 0] + 0.5).astype(np.int64)]
    return values.reshape(xy.shape[:-1])


_TS = np.array([0.15, 0.3, 0.7, 0.85])  # near the ends: a piece stands mid-square


def segment_contrast(gray: np.ndarray, start: np.ndarray, end: np.ndarray, side: np.ndarray) -> np.ndarray:
    """Signed edge contrast of segments start->end: grey(start + side) - grey(start - side)
    sampled at four points along the segment (median); nan where fewer than three of them
    agree in sign (no clean edge). All arguments (N, 2); ``side`` is the offset to the '+' side."""
    along = start[:, None, :] + _TS[None, :, None] * (end - start)[:, None, :]
    plus = _sample(gray, along + side[:, None, :])
    minus = _sample(gray, along - side[:, None, :])
    diff = plus - minus
    middle = np.median(diff, axis=1)
    agree = (np.sign(diff) == np.sign(middle)[:, None]).sum(axis=1)
    return np.where(np.isfinite(middle) & (agree >= 3), middle, np.nan)


def corner_edges(gray: np.ndarray, homography: np.ndarray, coords: np.ndarray) -> np.ndarray:
    """(N, 4) contrasts of the four lattice segments at each corner, sign-normalised so that a
    checkerboard whose square (0, 0) is light gives positive values (nan: no clean edge)."""
    coords = np.asarray(coords, np.float64)
    n = len(coords)
    parity = np.where((coords.sum(axis=1).astype(int) % 2) == 0, 1.0, -1.0)
    # Segments (k = 0..3): to i+1, from i-1, to j+1, from j-1; the '+' side of a segment
    # starting at (a, b) is square (a, b), whose colour goes with (-1)^(a+b).
    starts = np.concatenate([coords, coords - [1, 0], coords, coords - [0, 1]])
    steps = np.repeat(np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]), n, axis=0)
    normals = steps[:, ::-1]
    mapped = project(homography, np.concatenate([starts, starts + steps, starts + steps / 2,
                                                 starts + steps / 2 + normals * EDGE_OFFSET]))
    p0, p1, mid, side = np.split(mapped, 4)
    values = segment_contrast(gray, p0, p1, side - mid).reshape(4, n).T
    signs = np.array([1.0, -1.0, 1.0, -1.0])
    return values * parity[:, None] * signs[None, :]


def _seed_cells(points: np.ndarray, gray: np.ndarray, max_seed_corners: int, neighbours: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate cells (S, 4, 2) [lattice (0,0), (1,0), (0,1), (1,1)], their polarity and contrast."""
    lookup_pts = points[:NEIGHBOUR_POOL * max_seed_corners]  # weak grain corners would crowd out the board's
    n = len(lookup_pts)
    head = points[:max_seed_corners]
    dist = np.hypot(*(head[:, None, :] - lookup_pts[None, :, :]).transpose(2, 0, 1))
    dist[np.arange(len(head)), np.arange(len(head))] = np.inf
    k = min(neighbours, n - 1)
    near = np.argsort(dist, axis=1)[:, :k]
    ia, ib = np.triu_indices(k, 1)
    origin = np.repeat(head[:, None, :], len(ia), axis=1).reshape(-1, 2)
    a_idx = near[:, ia].reshape(-1)
    b_idx = near[:, ib].reshape(-1)
    u = lookup_pts[a_idx] - origin
    v = lookup_pts[b_idx] - origin
    lu = np.hypot(u[:, 0], u[:, 1])
    lv = np.hypot(v[:, 0], v[:, 1])
    sine = np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]) / np.maximum(lu * lv, 1e-9)
    ok = (lu >= MIN_SQUARE_PX) & (lv >= MIN_SQUARE_PX) & (lu / np.maximum(lv, 1e-9) > 0.3) & (lu / np.maximum(lv, 1e-9) < 3.3) & (sine > 0.35)
    return origin[ok], lookup_pts[a_idx[ok]], lookup_pts[b_idx[ok]]


def _cell_contrast(gray: np.ndarray, p00: np.ndarray, p10: np.ndarray, p01: np.ndarray, p11: np.ndarray,
                   complete: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Polarity (+1 light square (0,0), -1 dark, 0 not a checker cell) and weakest clean edge.
    A complete cell (four detected corners) needs four clean sides; a cell whose fourth corner
    is only predicted (hidden under a piece) needs three, and none of the wrong polarity."""
    u = p10 - p00
    v = p01 - p00
    values = np.stack(
        [
            segment_contrast(gray, p00, p10, v * EDGE_OFFSET),
            segment_contrast(gray, p00, p01, u * EDGE_OFFSET),
            -segment_contrast(gray, p01, p11, v * EDGE_OFFSET),
            -segment_contrast(gray, p10, p11, u * EDGE_OFFSET),
        ],
        axis=1,
    )
    values = np.nan_to_num(values)
    plus = (values > MIN_EDGE_CONTRAST).sum(axis=1)
    minus = (values < -MIN_EDGE_CONTRAST).sum(axis=1)
    need = np.where(complete, 4, 3)
    polarity = np.where((plus >= need) & (minus == 0), 1, np.where((minus >= need) & (plus == 0), -1, 0))
    clean = np.where(np.abs(values) > MIN_EDGE_CONTRAST, np.abs(values), np.inf)
    weakest = np.where(np.isfinite(clean.min(axis=1)), clean.min(axis=1), 0.0)
    return polarity, weakest


_UNIT_CELL = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], np.float64)


def offset_field(coords: np.ndarray, known: np.ndarray, offsets: np.ndarray, *, sigma: float = 1.5,
                 leave_one_out: bool = False) -> np.ndarray:
    """Smooth offsets (px) at lattice ``coords`` (T, 2) from offsets measured at ``known``
    lattice points (K, 2): a locally linear fit around each coordinate, Gaussian-weighted by
    lattice distance, fading to 0 far from any measurement, so that a fold of the cloth keeps
    its slope out to where nothing was measured. ``leave_one_out`` ignores a measurement at
    the coordinate itself (to test each measurement against its neighbours)."""
    coords = np.asarray(coords, np.float64).reshape(-1, 2)
    if not len(known):
        return np.zeros_like(coords)
    delta = np.asarray(known, np.float64)[None, :, :] - coords[:, None, :]  # (T, K, 2)
    w = np.exp(-(delta**2).sum(axis=2) / (2 * sigma**2))
    if leave_one_out:
        w[np.abs(delta).sum(axis=2) < 1e-9] = 0.0
    design = np.concatenate([np.ones(delta.shape[:2] + (1,)), delta], axis=2)  # (T, K, 3)
    weighted = (w[:, :, None] * design).transpose(0, 2, 1)  # (T, 3, K)
    normal = weighted @ design
    normal += np.diag([0.05, 2.0, 2.0])  # pull to "no offset, no slope" where data is thin
    rhs = weighted @ np.asarray(offsets, np.float64)
    return np.linalg.solve(normal, rhs)[:, 0, :]


def _cell_homography(cell: np.ndarray) -> np.ndarray:
    return cv2.getPerspectiveTransform(_UNIT_CELL.astype(np.float32), cell.astype(np.float32)).astype(np.float64)


def _grow(points: np.ndarray, nearest: NearestPoint, gray: np.ndarray, cell: np.ndarray, cell_idx: np.ndarray, polarity: int) -> Lattice | None:
    """Grow a lattice from a 4-point seed cell by ring-wise prediction and refitting."""
    homography = _cell_homography(cell)
    assigned: dict[tuple[int, int], int] = {
        (int(c[0]), int(c[1])): int(i) for c, i in zip(_UNIT_CELL, cell_idx) if i >= 0
    }
    ring = 2
    rejected: set[tuple[int, int, int]] = set()  # (i, j, point) pairs whose edges failed
    for _ in range(30):
        keys = np.array(list(assigned.keys()))
        lo = np.maximum(keys.min(axis=0) - ring, keys.max(axis=0) - MAX_SPAN)
        hi = np.minimum(keys.max(axis=0) + ring, keys.min(axis=0) + MAX_SPAN)
        ii, jj = np.meshgrid(np.arange(lo[0], hi[0] + 1), np.arange(lo[1], hi[1] + 1), indexing="ij")
        coords = np.stack([ii.ravel(), jj.ravel()], axis=1)
        taken_keys = np.array([i * 4096 + j for i, j in assigned], np.int64)
        coords = coords[~np.isin(coords[:, 0] * 4096 + coords[:, 1], taken_keys)]
        added = 0
        if len(coords):
            predicted = project(homography, coords)
            scale = local_scale(homography, coords)
            index, gap = nearest.query(predicted)
            hit = (index >= 0) & (gap <= MATCH_TOLERANCE * scale)
            taken = set(assigned.values())
            hit &= ~np.isin(index, np.fromiter(taken, np.int64, len(taken)))
            if rejected:
                hit &= np.array([(int(c[0]), int(c[1]), int(m)) not in rejected for c, m in zip(coords, index)], bool)
            chosen = np.zeros(0, int)
            if hit.any():
                edges = corner_edges(gray, homography, coords[hit]) * polarity
                good = (edges > MIN_EDGE_CONTRAST).sum(axis=1)
                bad = (edges < -MIN_EDGE_CONTRAST).sum(axis=1)
                keep = (good >= 2) & (good > bad)
                for k in np.flatnonzero(hit)[~keep]:
                    rejected.add((int(coords[k][0]), int(coords[k][1]), int(index[k])))
                chosen = np.flatnonzero(hit)[keep]
                chosen = chosen[np.argsort(gap[chosen] / scale[chosen])]
            for k in chosen:
                m = int(index[k])
                if m in taken:
                    continue
                taken.add(m)
                assigned[(int(coords[k][0]), int(coords[k][1]))] = m
                added += 1
        if added:
            homography = _refit(assigned, points, homography)
            if homography is None:
                return None
        elif ring == 2:
            ring = 3
        else:
            break
    keys = np.array(list(assigned.keys()), int)
    edges = corner_edges(gray, homography, keys.astype(np.float64)) * polarity
    positive = edges[edges > 0]
    contrast = float(np.median(positive)) if positive.size else 0.0
    clean_sides = (edges > MIN_EDGE_CONTRAST).sum(axis=1)
    return Lattice(homography, keys, points[list(assigned.values())], polarity, contrast, clean_sides)


def side_px(cells: np.ndarray) -> np.ndarray:
    """Shorter side (px) of each seed cell (S, 4, 2)."""
    u = cells[:, 1] - cells[:, 0]
    v = cells[:, 2] - cells[:, 0]
    return np.minimum(np.hypot(u[:, 0], u[:, 1]), np.hypot(v[:, 0], v[:, 1]))


def lattice_score(lattice: Lattice) -> float:
    """Corners found, weighted towards bigger squares (a fine fabric weave is no board)."""
    scale = float(np.median(local_scale(lattice.homography, lattice.indices.astype(np.float64))))
    return len(lattice) * np.sqrt(min(scale, 40.0))


def _refit(assigned: dict[tuple[int, int], int], points: np.ndarray, previous: np.ndarray) -> np.ndarray | None:
    """Refit the lattice homography and drop the corners that disagree with their neighbours
    (in place). The plane is fitted loosely (a wrinkled cloth is not flat); a corner is an
    outlier when it is off the smooth offset field its neighbours predict."""
    src = np.array(list(assigned.keys()), np.float64)
    dst = points[list(assigned.values())]
    if len(src) < 8:
        refit, _ = cv2.findHomography(src, dst, 0)
        return refit if refit is not None else previous
    typical = float(np.median(local_scale(previous, src)))
    refit, _ = cv2.findHomography(src, dst, cv2.RANSAC, max(1.0, PLANE_TOLERANCE * typical))
    if refit is None:
        return None
    offsets = dst - project(refit, src)
    expected = offset_field(src, src, offsets, leave_one_out=True)
    scale = local_scale(refit, src)
    off_plane = ~(np.hypot(*offsets.T) <= OUTLIER_TOLERANCE * scale)
    off_fold = ~(np.hypot(*(offsets - expected).T) <= FOLD_TOLERANCE * scale)
    bad = off_plane & off_fold
    if bad.any() and (~bad).sum() >= 6:
        for key in src[bad]:
            assigned.pop((int(key[0]), int(key[1])), None)
        refit2, _ = cv2.findHomography(src[~bad], dst[~bad], 0)
        if refit2 is not None:
            refit = refit2
    return refit


def chance_hits(points: np.ndarray, shape: tuple[int, ...], predicted: np.ndarray, tolerance: np.ndarray,
                in_view: np.ndarray, hits: np.ndarray) -> np.ndarray:
    """(S,) how many of each seed's predicted lattice points (S, P, 2) in view (``in_view``,
    (S, P)) would find one of the ``points`` within ``tolerance`` (S, P) px by chance: the
    points in the box those in view span, less the seed's own ``hits`` (S,) (a board's own
    corners are no chance), taken as strewn evenly over the box. A textured table (slate,
    granite) strews hundreds of x-corners, and a large seed cell's tolerance then catches some
    wherever it is predicted: its hits say no more than a small board's fewer ones."""
    height, width = shape[:2]
    any_seen = in_view.any(axis=1)[:, None]
    low = np.where(any_seen, np.where(in_view[..., None], predicted, np.inf).min(axis=1), 0.0)
    high = np.where(any_seen, np.where(in_view[..., None], predicted, -np.inf).max(axis=1), 0.0)
    low, high = np.clip(low, 0, [width, height]), np.clip(high, 0, [width, height])
    x, y = np.asarray(points, np.float64).T
    inside = ((x >= low[:, :1]) & (x <= high[:, :1]) & (y >= low[:, 1:]) & (y <= high[:, 1:])).sum(axis=1)
    density = np.maximum(inside - hits, 0) / np.maximum(np.prod(high - low, axis=1), 1.0)
    chance = 1.0 - np.exp(-density[:, None] * np.pi * tolerance ** 2)
    return np.sum(np.where(in_view, chance, 0.0), axis=1)


def _already_grown(cell_index: np.ndarray, claimed: dict[int, tuple[int, int, int]]) -> bool:
    """Whether two of a seed cell's corners are neighbours in one lattice already grown (the
    seed is part of it). Corners merely taken by a lattice of another period, one that
    strayed across the board, do not count: the board's own seeds must still grow."""
    taken = [claimed[m] for m in cell_index.tolist() if m in claimed]
    return any(a[0] == b[0] and max(abs(a[1] - b[1]), abs(a[2] - b[2])) == 1
               for a, b in itertools.combinations(taken, 2))


def fit_lattices(
    points: np.ndarray,
    gray: np.ndarray,
    *,
    max_seed_corners: int = 150,
    neighbours: int = 8,
    grow_seeds: int = 4,
) -> list[Lattice]:
    """Lattices of x-corners each consistent with one checkerboard, grown from the best
    ``grow_seeds`` seed cells, largest first (by :func:`lattice_score`); empty if none.

    ``points`` (N, 2) x-corners strongest first; ``gray`` the image they came from.
    """
    points = np.asarray(points, np.float64)
    if len(points) < MIN_CORNERS:
        return []
    gray = gray.astype(np.float32)
    nearest = NearestPoint(points, gray.shape)
    origin, pa, pb = _seed_cells(points, gray, max_seed_corners, neighbours)
    if not len(origin):
        return []
    guess = pa + pb - origin
    d_idx, d_gap = nearest.query(guess)
    side = np.minimum(np.hypot(*(pa - origin).T), np.hypot(*(pb - origin).T))
    complete = (d_idx >= 0) & (d_gap <= 0.2 * side)
    p11 = np.where(complete[:, None], points[np.maximum(d_idx, 0)], guess)
    polarity, contrast = _cell_contrast(gray, origin, pa, pb, p11, complete)
    ok = polarity != 0
    if not ok.any():
        return []
    cells = np.stack([origin, pa, pb, p11], axis=1)[ok]
    polarity, contrast, complete = polarity[ok], contrast[ok], complete[ok]
    # Quick score: how many of the 8x8 lattice points around each seed were detected.
    offsets = np.stack(np.meshgrid(np.arange(-3, 5), np.arange(-3, 5), indexing="ij"), axis=-1).reshape(-1, 2).astype(np.float64)
    homographies = np.stack([_cell_homography(cell) for cell in cells])  # (S, 3, 3)
    predicted = _project_many(homographies, offsets)  # (S, P, 2)
    step_i = _project_many(homographies, offsets + [1.0, 0.0]) - predicted
    step_j = _project_many(homographies, offsets + [0.0, 1.0]) - predicted
    scale = np.minimum(np.hypot(step_i[..., 0], step_i[..., 1]), np.hypot(step_j[..., 0], step_j[..., 1]))
    _, gap = nearest.query(predicted.reshape(-1, 2))
    gap = gap.reshape(scale.shape)
    tolerance = SEED_TOLERANCE * np.nan_to_num(scale)
    hits = np.sum(gap <= tolerance, axis=1)
    chance = chance_hits(points, gray.shape, predicted, tolerance, np.isfinite(gap), hits)
    rank = (hits - chance) * np.sqrt(np.minimum(side_px(cells), 40.0)) + contrast / 255.0
    order = np.argsort(-rank)
    cell_index = nearest.query(cells.reshape(-1, 2))[0].reshape(-1, 4)
    cell_index[~complete, 3] = -1  # the fourth corner of an incomplete cell is only predicted
    lattices: list[Lattice] = []
    grown = 0
    claimed: dict[int, tuple[int, int, int]] = {}  # point -> (lattice grown, i, j)
    for s in order:
        if grown >= grow_seeds:
            break
        if _already_grown(cell_index[s], claimed):
            continue
        if lattices and rank[s] < 0.5 * max(rank[order[0]], 0.0):
            break  # the rest are much weaker seeds (or below chance, where even the best is no better)
        grown += 1
        lattice = _grow(points, nearest, gray, cells[s], cell_index[s], int(polarity[s]))
        if lattice is None or lattice.contrast <= 0:
            continue  # a lattice none of whose corners shows a checker edge leaves them to other seeds
        for m, (i, j) in zip(nearest.query(lattice.points)[0].tolist(), lattice.indices.tolist()):
            claimed.setdefault(m, (grown, i, j))
        if len(lattice) >= MIN_CORNERS:
            lattices.append(lattice)
    return sorted(lattices, key=lattice_score, reverse=True)
