"""Camera model and board-plane geometry shared by the renderer and the ground truth.

World frame: metres, z up, the table top at z = 0. The camera is a pinhole, exactly the
model of Mitsuba's ``perspective`` sensor (``fov_axis="x"``): for a camera at ``origin``
looking at ``target`` with image-up vector ``up``,

    left = normalize(up x forward),  up' = forward x left
    u = W/2 - f * (d . left) / (d . forward),  v = H/2 - f * (d . up') / (d . forward)

with ``d = p - origin`` and ``f = (W/2) / tan(fov_x/2)``. ``(u, v)`` are continuous image
coordinates whose origin is the top-left corner of the image. Ground truth is written in
OpenCV's convention, where the centre of pixel (i, j) is (i, j): ``(u - 0.5, v - 0.5)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: where it is, where it looks, which way is image-up, its field of view."""

    origin: tuple[float, float, float]
    target: tuple[float, float, float]
    up: tuple[float, float, float]
    fov_x_deg: float
    width: int
    height: int

    @property
    def forward(self) -> np.ndarray:
        return _unit(np.subtract(self.target, self.origin))

    @property
    def left(self) -> np.ndarray:
        return _unit(np.cross(self.up, self.forward))

    @property
    def true_up(self) -> np.ndarray:
        return np.cross(self.forward, self.left)

    @property
    def focal_px(self) -> float:
        return (self.width / 2) / math.tan(math.radians(self.fov_x_deg) / 2)

    def intrinsics(self) -> np.ndarray:
        """The 3x3 matrix K in OpenCV's pixel-centre convention (x right, y down)."""
        f = self.focal_px
        return np.array([[f, 0, self.width / 2 - 0.5], [0, f, self.height / 2 - 0.5], [0, 0, 1.0]])

    def world_to_camera(self) -> np.ndarray:
        """The 3x4 [R|t] mapping world points to OpenCV camera coordinates (x right, y down, z ahead)."""
        rot = np.stack([-self.left, -self.true_up, self.forward])
        return np.hstack([rot, -rot @ np.asarray(self.origin, float)[:, None]])

    def project(self, points) -> np.ndarray:
        """World points (N, 3) -> image points (N, 2) in OpenCV pixel-centre coordinates."""
        p = np.atleast_2d(np.asarray(points, dtype=float))
        d = p - np.asarray(self.origin, float)
        depth = d @ self.forward
        f = self.focal_px
        u = self.width / 2 - f * (d @ self.left) / depth
        v = self.height / 2 - f * (d @ self.true_up) / depth
        return np.stack([u - 0.5, v - 0.5], axis=1)

    def depth(self, points) -> np.ndarray:
        """Distance of world points along the viewing direction."""
        p = np.atleast_2d(np.asarray(points, dtype=float))
        return (p - np.asarray(self.origin, float)) @ self.forward

    def to_dict(self) -> dict:
        return {
            "origin": [round(x, 5) for x in self.origin],
            "target": [round(x, 5) for x in self.target],
            "up": [round(x, 5) for x in self.up],
            "fov_x_deg": round(self.fov_x_deg, 4),
            "width": self.width,
            "height": self.height,
            "K": np.round(self.intrinsics(), 4).tolist(),
            "Rt": np.round(self.world_to_camera(), 6).tolist(),
        }


def aim_camera(target, tilt_deg: float, azimuth_deg: float, roll_deg: float, distance: float,
               fov_x_deg: float, width: int, height: int) -> Camera:
    """A camera ``distance`` from ``target``, ``tilt_deg`` from vertical, standing on the table
    side at ``azimuth_deg`` (0 = +x) and turned ``roll_deg`` clockwise about its axis."""
    t, a, r = (math.radians(x) for x in (tilt_deg, azimuth_deg, roll_deg))
    target = np.asarray(target, float)
    origin = target + distance * np.array([math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), math.cos(t)])
    forward = _unit(target - origin)
    away = -np.array([math.cos(a), math.sin(a), 0.0])  # a player's "up the board" direction
    up0 = _unit(away - (away @ forward) * forward)
    # Rodrigues rotation of up0 about forward; a positive roll turns the picture clockwise.
    up = up0 * math.cos(r) + np.cross(forward, up0) * math.sin(r) + forward * (forward @ up0) * (1 - math.cos(r))
    return Camera(tuple(origin.tolist()), tuple(target.tolist()), tuple(up.tolist()), fov_x_deg, width, height)


def order_corners(points) -> list[list[float]]:
    """Four image points ordered clockwise (on screen) from the one nearest the top-left."""
    p = np.asarray(points, dtype=float)
    centre = p.mean(axis=0)
    angles = np.arctan2(p[:, 1] - centre[1], p[:, 0] - centre[0])  # y down: increasing = clockwise
    p = p[np.argsort(angles)]
    start = int(np.argmin(np.hypot(p[:, 0], p[:, 1])))
    return np.roll(p, -start, axis=0).tolist()


def rotate_square_coords(u, v, cols: int, rows: int, quarter_turns: int):
    """Board-plane coordinates (square units) after ``quarter_turns`` clockwise turns of a
    cols x rows board, matching ``Board.rotated``: (u, v) -> (v, cols - u) per turn.
    Returns (u', v', cols', rows')."""
    for _ in range(quarter_turns % 4):
        u, v = v, cols - u
        cols, rows = rows, cols
    return u, v, cols, rows
