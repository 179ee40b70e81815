"""A pinhole camera recovered from the board's homography, to project points above the board.

The board plane is measured in squares: ``(x, y, 0)`` with ``x`` along the columns and ``y``
along the rows, ``z`` the height above the cloth (in squares too; a 44.5 mm square makes a
large pyramid 1.0 tall). With the principal point at the image centre and square pixels, the
homography fixes the focal length (Zhang's constraints ``r1 . r2 = 0``, ``|r1| = |r2|``);
where a near top-down view leaves it ill-conditioned, a typical phone focal length is used.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# A phone's main camera: about 26 mm equivalent on a 36 mm frame width.
TYPICAL_FOCAL_PER_LONG_SIDE = 0.75
FOCAL_RANGE_PER_LONG_SIDE = (0.35, 4.0)


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


def _focal_from_homography(g: np.ndarray) -> float | None:
    """Focal length (px) from a homography already centred on the principal point, or None."""
    g1, g2 = g[:, 0], g[:, 1]
    a1 = g1[0] * g2[0] + g1[1] * g2[1]
    b1 = g1[2] * g2[2]
    a2 = (g1[0] ** 2 + g1[1] ** 2) - (g2[0] ** 2 + g2[1] ** 2)
    b2 = g1[2] ** 2 - g2[2] ** 2
    # w = 1/f^2 solves a1*w + b1 = 0 and a2*w + b2 = 0 in the least-squares sense.
    denom = a1 * a1 + a2 * a2
    if denom <= 0:
        return None
    w = -(a1 * b1 + a2 * b2) / denom
    if not np.isfinite(w) or w <= 0:
        return None
    # Reject when the constraints are too weak (near fronto-parallel views).
    residual = abs(a1 * w + b1) + abs(a2 * w + b2)
    scale = abs(b1) + abs(b2)
    if scale < 1e-12 or residual > 0.5 * scale:
        return None
    return float(1.0 / np.sqrt(w))


def camera_from_homography(homography: np.ndarray, image_size: tuple[int, int],
                           focal: float | None = None) -> BoardCamera:
    """The camera that sees the board plane through ``homography`` (board squares -> px).

    ``image_size`` is (width, height). ``focal`` (px) overrides the estimate.
    """
    width, height = image_size
    long_side = float(max(width, height))
    cx, cy = width / 2.0, height / 2.0
    H = np.asarray(homography, dtype=np.float64)
    H = H / np.linalg.norm(H[:, :2]) * 2.0
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
                       camera_centre=centre_board, focal_out_of_range=out_of_range)
