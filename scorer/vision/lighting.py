"""Even out a shadow cast across the board (the photographer's head and phone, a lamp's arm).

The checkerboard is its own light meter. Near every square the photo shows bare light and
dark cloth; where both look darker (or lighter) than over the rest of the board by one
common factor, less (or more) light falls there, on the pieces as on the cloth. Dividing
that gain out, in linear light, lets every later stage see each piece as it would look in
the board's usual light. Only a gain is undone: a reflection of a lamp on glossy cloth
(glare) adds light that depends on the surface's slant, so it washes out the flat cloth
but not the pieces' faces in the same way, and subtracting it from the pieces darkened
them into black (tried on dev's one such render, studio_001730).
"""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.squares import CheckerAppearance, _texture_to_board

NEIGHBOURHOOD = 1  # squares each side whose bare corners say a square's local light
MIN_LOG_GAIN = 0.5  # |log gain| corrected (a shadow letting through under 61% of the light), else left
MAX_MISFIT = 0.35  # share by which the dark cloth may differ from what the light cloth's gain predicts
MISFIT_FLOOR = 0.01  # linear light allowed on top (near-black cloth: noise and compression swamp ratios)
MIN_CHANGED_AROUND = 2  # of a square's 8 neighbours, those that must share its change for it to count
MAP_PX = 8  # pixels per square of the gain map before it is warped onto the photo


def _linear_bgr(lab: np.ndarray) -> np.ndarray:
    """Lab (L 0..100) -> linear-light BGR (0..1), any leading shape."""
    shape = lab.shape
    bgr = cv2.cvtColor(np.asarray(lab, np.float32).reshape(-1, 1, 3), cv2.COLOR_Lab2BGR).reshape(shape)
    return np.clip(bgr, 0.0, 1.0).astype(np.float64) ** 2.2


def local_gain(appearance: CheckerAppearance) -> np.ndarray:
    """(rows, cols, 3) linear-light BGR gain of the light near each square (row 0 at the
    bottom) against the board's usual light (the median bare light and dark cloth of the
    squares in view): the light cloth's gain among the squares around it, where that gain
    is at least MIN_LOG_GAIN from 1, also explains the dark cloth there (MAX_MISFIT), and at
    least MIN_CHANGED_AROUND neighbours share the change; else 1."""
    rows, cols = appearance.rows, appearance.cols
    linear = _linear_bgr(appearance.square_lab)
    ys, xs = np.mgrid[0:rows, 0:cols]
    is_dark = (xs + ys) % 2 == appearance.dark_parity
    seen = appearance.square_seen if appearance.square_seen is not None else np.ones((rows, cols), bool)
    if not (seen & is_dark).any() or not (seen & ~is_dark).any():
        return np.ones((rows, cols, 3))
    usual_light = np.maximum(np.median(linear[~is_dark & seen], axis=0), 1e-4)
    usual_dark = np.median(linear[is_dark & seen], axis=0)
    gain = np.ones((rows, cols, 3))
    for r in range(rows):
        for c in range(cols):
            window = (slice(max(0, r - NEIGHBOURHOOD), r + NEIGHBOURHOOD + 1),
                      slice(max(0, c - NEIGHBOURHOOD), c + NEIGHBOURHOOD + 1))
            near, near_dark, near_seen = linear[window], is_dark[window], seen[window]
            if not (near_seen & near_dark).any() or not (near_seen & ~near_dark).any():
                continue
            g = np.median(near[near_seen & ~near_dark], axis=0) / usual_light
            dark = np.median(near[near_seen & near_dark], axis=0)
            if (abs(np.log(max(float(np.mean(g)), 1e-4))) >= MIN_LOG_GAIN
                    and np.all(np.abs(g * usual_dark - dark) <= MAX_MISFIT * dark + MISFIT_FLOOR)):
                gain[r, c] = g
    changed = (gain != 1.0).any(axis=2)
    around = cv2.filter2D(changed.astype(np.float32), -1, np.ones((3, 3), np.float32),
                          borderType=cv2.BORDER_CONSTANT) - changed
    gain[changed & (around < MIN_CHANGED_AROUND)] = 1.0  # one odd square: likelier pieces over its neighbours' corners
    return gain


def evened(image_bgr: np.ndarray, homography: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """The photo with each square's gain (:func:`local_gain`) divided out in linear light,
    the gain varying smoothly from square centre to square centre and carried on past the
    board's edge (pieces stand up from the edge squares); the photo itself when every gain
    is 1."""
    if np.all(gain == 1.0):
        return image_bgr
    rows, cols = gain.shape[:2]
    texture = cv2.resize(gain[::-1].astype(np.float32), (cols * MAP_PX, rows * MAP_PX), interpolation=cv2.INTER_LINEAR)
    h, w = image_bgr.shape[:2]
    on_photo = cv2.warpPerspective(texture, homography @ _texture_to_board(rows, MAP_PX), (w, h),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    linear = (image_bgr.astype(np.float32) / 255.0) ** 2.2 / np.maximum(on_photo, 0.05)
    return np.clip(255.0 * np.clip(linear, 0.0, 1.0) ** (1 / 2.2) + 0.5, 0, 255).astype(np.uint8)


def shadowed_squares(gain: np.ndarray) -> int:
    """How many squares' light :func:`evened` changes."""
    return int((gain != 1.0).any(axis=2).sum())
