"""A pinhole camera recovered from the board's homography, to project points above the board.

The board plane is measured in squares: ``(x, y, 0)`` with ``x`` along the columns and ``y``
along the rows, ``z`` the height above the cloth (in squares too; a 44.5 mm square makes a
large pyramid 1.0 tall). With the principal point at the image centre and square pixels, the
homography fixes the focal length (Zhang's constraints ``r1 . r2 = 0``, ``|r1| = |r2|``);
where a near top-down view leaves it ill-conditioned, a typical phone focal length is used.
A photo cropped off-centre or warped by an editor has its principal point elsewhere: where
the constraints disagree at the centre though the camera looks down at a slant, the principal
point nearest the centre where they agree is taken instead (``camera_from_homography``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# A phone's main camera: about 26 mm equivalent on a 36 mm frame width.
TYPICAL_FOCAL_PER_LONG_SIDE = 0.75
FOCAL_RANGE_PER_LONG_SIDE = (0.35, 4.0)
# A camera's own photo whose board gives no focal length at the photo's centre was taken
# looking straight down (its optical axis over 80 degrees above the board with the typical
# focal length; on 273 renders none under 80, the board's middle 83.9 degrees up or more on
# dev and 122 test-recipe ones). Looking down at a slant, the photo was cropped off-centre or
# warped, and the principal point is looked for within PRINCIPAL_POINT_REACH of the long side
# of the centre (a grid of PRINCIPAL_POINT_STEPS a way), where the constraints agree to
# PRINCIPAL_POINT_AGREEMENT of their size. On dev cropped off-centre
# (``scripts/photo_variants.py``) 97.38% to 97.52% of squares, 82% to 84% of boards; its top
# edge narrowed a fifth 96.31% to 97.15%, 70% to 80% (2026-11-29).
OFF_CENTRE_BELOW_DEG = 80.0
PRINCIPAL_POINT_REACH = 0.4
PRINCIPAL_POINT_STEPS = 33
PRINCIPAL_POINT_AGREEMENT = 0.05


@dataclass(frozen=True)
class BoardCamera:
    """``projection`` (3x4) maps board points ``(x, y, z, 1)`` in squares to image pixels."""

    projection: np.ndarray
    focal: float
    focal_estimated: bool
    camera_centre: np.ndarray  # in board coordinates (squares); z > 0 is above the board
    # Zhang's constraints gave a focal length, but outside FOCAL_RANGE_PER_LONG_SIDE (a lens
    # wider or longer than a phone's), and the typical one stands in: they did not disagree.
    focal_out_of_range: bool = False
    principal_point_moved: bool = False  # off the photo's centre, to where the constraints agree
    axis_elevation_deg: float = 90.0  # the optical axis's angle above the board (90: looking straight down)

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) board points -> (N, 2) image pixels."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        hom = np.hstack([pts, np.ones((len(pts), 1))]) @ self.projection.T
        return hom[:, :2] / hom[:, 2:3]

    def elevation_deg(self, col: float, row: float) -> float:
        """The camera's angle above the board plane, degrees, seen from the middle of square
        (col, row) (90: straight above it)."""
        x, y, z = np.asarray(self.camera_centre, np.float64)[:3]
        return float(np.degrees(np.arctan2(z, np.hypot(x - (col + 0.5), y - (row + 0.5)))))


def _zhang_fit(g1: np.ndarray, g2: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For a homography's first two columns ``g1``, ``g2`` centred on a principal point (each
    (3,) or (3, N) for N principal points): w = 1/f^2 solving Zhang's two constraints
    a1 w + b1 = 0 and a2 w + b2 = 0 in the least-squares sense (not finite where they cannot
    be solved), its residual, and the constraints' size |b1| + |b2|."""
    a1 = g1[0] * g2[0] + g1[1] * g2[1]
    b1 = g1[2] * g2[2]
    a2 = (g1[0] ** 2 + g1[1] ** 2) - (g2[0] ** 2 + g2[1] ** 2)
    b2 = g1[2] ** 2 - g2[2] ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        w = -(a1 * b1 + a2 * b2) / (a1 * a1 + a2 * a2)
        residual = np.abs(a1 * w + b1) + np.abs(a2 * w + b2)
    return w, residual, np.abs(b1) + np.abs(b2)


def _unit_homography(homography: np.ndarray) -> np.ndarray:
    """``homography`` as float64, scaled to a fixed norm of its first two columns (Zhang's fit
    and the camera do not depend on its scale; this keeps their numbers of one size)."""
    H = np.asarray(homography, dtype=np.float64)
    return H / np.linalg.norm(H[:, :2]) * 2.0


def _focal_from_homography(g: np.ndarray) -> float | None:
    """Focal length (px) from a homography already centred on the principal point, or None."""
    w, residual, scale = _zhang_fit(g[:, 0], g[:, 1])
    if not np.isfinite(w) or w <= 0:
        return None
    # Reject when the constraints are too weak (near fronto-parallel views).
    if scale < 1e-12 or residual > 0.5 * scale:
        return None
    return float(1.0 / np.sqrt(w))


def agreeing_principal_point(homography: np.ndarray,
                             image_size: tuple[int, int]) -> tuple[np.ndarray, float] | None:
    """The principal point nearest the photo's centre (px) where Zhang's two constraints agree
    (to PRINCIPAL_POINT_AGREEMENT of their size) on a focal length within
    FOCAL_RANGE_PER_LONG_SIDE, and that focal length; a grid of PRINCIPAL_POINT_STEPS a way
    within PRINCIPAL_POINT_REACH of the long side. None where they agree nowhere."""
    width, height = image_size
    long_side = float(max(width, height))
    H = _unit_homography(homography)
    offsets = np.linspace(-PRINCIPAL_POINT_REACH, PRINCIPAL_POINT_REACH, PRINCIPAL_POINT_STEPS) * long_side
    dx, dy = (v.ravel() for v in np.meshgrid(offsets, offsets))
    px, py = width / 2.0 + dx, height / 2.0 + dy

    def centred(h: np.ndarray) -> np.ndarray:
        return np.stack([h[0] - px * h[2], h[1] - py * h[2], np.full_like(px, h[2])])
    w, residual, scale = _zhang_fit(centred(H[:, 0]), centred(H[:, 1]))
    with np.errstate(divide="ignore", invalid="ignore"):
        focal = 1.0 / np.sqrt(w)
    lo, hi = FOCAL_RANGE_PER_LONG_SIDE
    agree = (np.isfinite(w) & (w > 0) & (residual <= PRINCIPAL_POINT_AGREEMENT * scale)
             & (focal >= lo * long_side) & (focal <= hi * long_side))
    if not agree.any():
        return None
    nearest = np.flatnonzero(agree)[np.argmin(np.hypot(dx, dy)[agree])]
    return np.array([px[nearest], py[nearest]]), float(focal[nearest])


def camera_from_homography(homography: np.ndarray, image_size: tuple[int, int],
                           focal: float | None = None) -> BoardCamera:
    """The camera that sees the board plane through ``homography`` (board squares -> px).

    ``image_size`` is (width, height). ``focal`` (px) overrides the estimate. Where the
    constraints give no focal length at the photo's centre yet the camera, with the typical
    one, looks down at under OFF_CENTRE_BELOW_DEG, the principal point moves to where they
    agree (:func:`agreeing_principal_point`), if anywhere.
    """
    camera = _camera_at(homography, image_size, focal, None)
    if (focal is None and not camera.focal_estimated and not camera.focal_out_of_range
            and camera.axis_elevation_deg < OFF_CENTRE_BELOW_DEG):
        found = agreeing_principal_point(homography, image_size)
        if found is not None:
            return _camera_at(homography, image_size, found[1], found[0])
    return camera


def _camera_at(homography: np.ndarray, image_size: tuple[int, int], focal: float | None,
               principal_point: np.ndarray | None) -> BoardCamera:
    """:func:`camera_from_homography` with the principal point at ``principal_point`` (px;
    None: the photo's centre, the focal length then estimated unless given)."""
    width, height = image_size
    long_side = float(max(width, height))
    cx, cy = (width / 2.0, height / 2.0) if principal_point is None else principal_point
    H = _unit_homography(homography)
    centre = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], dtype=np.float64)
    g = centre @ H
    estimated = out_of_range = False
    if focal is None:
        f = _focal_from_homography(g)
        lo, hi = FOCAL_RANGE_PER_LONG_SIDE
        if f is not None and lo * long_side <= f <= hi * long_side:
            focal, estimated = f, True
        else:
            focal, out_of_range = TYPICAL_FOCAL_PER_LONG_SIDE * long_side, f is not None
    elif principal_point is not None:
        estimated = True  # where the constraints agree
    K = np.array([[focal, 0, cx], [0, focal, cy], [0, 0, 1]], dtype=np.float64)
    m = np.linalg.inv(K) @ H
    scale = (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1])) / 2.0
    m = m / scale
    if m[2, 2] < 0:  # the board must lie in front of the camera
        m = -m
    r1, r2, t = m[:, 0], m[:, 1], m[:, 2]
    r3 = np.cross(r1, r2)
    r3 /= np.linalg.norm(r3)
    R = np.column_stack([r1, r2, r3])
    # Nearest rotation (orthonormalise); keeps r3's orientation.
    u, _, vt = np.linalg.svd(R)
    Rn = u @ vt
    if np.linalg.det(Rn) < 0:
        Rn = u @ np.diag([1, 1, -1]) @ vt
    centre_board = -Rn.T @ t
    if centre_board[2] < 0:  # z must point from the cloth towards the camera
        r3 = -r3
        centre_board = centre_board.copy()
        centre_board[2] = -centre_board[2]
    # Keep the plane columns exactly as measured so that z=0 reproduces the homography.
    projection = K @ np.column_stack([m[:, 0], m[:, 1], r3, t])
    return BoardCamera(projection=projection, focal=float(focal), focal_estimated=estimated,
                       camera_centre=centre_board, focal_out_of_range=out_of_range,
                       principal_point_moved=principal_point is not None,
                       axis_elevation_deg=float(np.degrees(np.arcsin(min(1.0, abs(r3[2]))))))
