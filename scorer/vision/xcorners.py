"""X-corner (saddle point) detection: where four checkerboard squares meet.

A ChESS-style detector (Bennett & Lasenby 2014): on a ring of 16 samples around each pixel an
x-corner shows two dark and two light quarters opposite each other, so the sum of the opposite
samples minus the sum of the perpendicular ones is large, while an edge (where the samples
opposite each other differ) and a blob (ring unlike its centre) are penalised. It is rotation
invariant and needs no knowledge of the square size beyond "more than about 2.5 ring radii".
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class XCorners:
    """Detected x-corners: ``points`` (N, 2) float32 px (x, y), ``strength`` (N,) descending."""

    points: np.ndarray
    strength: np.ndarray

    def __len__(self) -> int:
        return len(self.points)


def _ring_offsets(radius: float) -> list[tuple[int, int]]:
    angles = np.arange(16) * (2 * np.pi / 16)
    return [(int(round(radius * np.cos(a))), int(round(radius * np.sin(a)))) for a in angles]


def xcorner_response(gray: np.ndarray, radius: float = 4.0) -> np.ndarray:
    """ChESS response map (float32, same shape as ``gray``); high at x-corners, <= 0 elsewhere."""
    image = gray.astype(np.float32)
    pad = int(np.ceil(radius)) + 1
    padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    height, width = image.shape
    samples = [
        padded[pad + dy : pad + dy + height, pad + dx : pad + dx + width]
        for dx, dy in _ring_offsets(radius)
    ]
    # OpenCV's arithmetic (vectorised, on every core) in the order of the plain NumPy expression
    # |s0 + s8 - s4 - s12| + ... - sum |s_n - s_n+8| - 16 |ring mean - local mean|: the same values.
    zero = np.zeros_like(image)
    sum_response = zero
    for n in range(4):
        opposite = cv2.subtract(cv2.subtract(cv2.add(samples[n], samples[n + 8]), samples[n + 4]), samples[n + 12])
        sum_response = cv2.add(sum_response, cv2.absdiff(opposite, zero))
    diff_response = zero
    for n in range(8):
        diff_response = cv2.add(diff_response, cv2.absdiff(samples[n], samples[n + 8]))
    ring_sum = samples[0]
    for sample in samples[1:]:
        ring_sum = cv2.add(ring_sum, sample)
    centre_gap = cv2.absdiff(ring_sum / 16.0, cv2.blur(image, (3, 3)))
    return cv2.subtract(cv2.subtract(sum_response, diff_response), 16.0 * centre_gap)


MAX_POINTS = 700  # the strongest x-corners kept


def detect_xcorners(
    gray: np.ndarray,
    *,
    radius: float = 4.0,
    max_points: int = MAX_POINTS,
    min_relative: float = 0.04,
) -> XCorners:
    """Local maxima of the x-corner response, strongest first, refined to sub-pixel.

    ``gray`` is a uint8 or float image (the working resolution). Maxima below ``min_relative``
    of the strongest one are dropped; at most ``max_points`` are kept.
    """
    blurred = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)
    response = xcorner_response(blurred, radius)
    peak = float(response.max()) if response.size else 0.0
    if peak <= 0:
        return XCorners(np.zeros((0, 2), np.float32), np.zeros(0, np.float32))
    dilated = cv2.dilate(response, np.ones((5, 5), np.uint8))
    mask = (response >= dilated) & (response > peak * min_relative)
    ys, xs = np.nonzero(mask)
    strength = response[ys, xs]
    order = np.argsort(-strength)[:max_points]
    points = np.stack([xs[order], ys[order]], axis=1).astype(np.float32)
    strength = strength[order].astype(np.float32)
    if len(points):
        points = refine_saddles(blurred, points)
    return XCorners(points, strength)


def refine_saddles(image: np.ndarray, points: np.ndarray, half_window: int = 2) -> np.ndarray:
    """Sub-pixel saddle positions: fit a quadratic to the neighbourhood and take its stationary
    point (kept only when it moves less than one pixel)."""
    height, width = image.shape
    offsets = np.arange(-half_window, half_window + 1)
    dy, dx = np.meshgrid(offsets, offsets, indexing="ij")
    design = np.stack(
        [dx.ravel() ** 2, dx.ravel() * dy.ravel(), dy.ravel() ** 2, dx.ravel(), dy.ravel(), np.ones(dx.size)],
        axis=1,
    ).astype(np.float64)
    pinv = np.linalg.pinv(design)
    xi = np.clip(np.round(points[:, 0]).astype(int), half_window, width - half_window - 1)
    yi = np.clip(np.round(points[:, 1]).astype(int), half_window, height - half_window - 1)
    patches = np.stack(
        [image[yi + oy, xi + ox] for oy, ox in zip(dy.ravel(), dx.ravel())], axis=1
    ).astype(np.float64)
    a, b, c, d, e, _ = (pinv @ patches.T)
    det = 4 * a * c - b * b
    with np.errstate(divide="ignore", invalid="ignore"):
        sx = (b * e - 2 * c * d) / det
        sy = (b * d - 2 * a * e) / det
    ok = (det < 0) & (np.abs(sx) < 1) & (np.abs(sy) < 1)
    refined = np.stack([xi + np.where(ok, sx, 0.0), yi + np.where(ok, sy, 0.0)], axis=1)
    return refined.astype(np.float32)
