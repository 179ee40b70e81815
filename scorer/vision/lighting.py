"""What the light did to the photo: a haze over all of it taken off, a shadow across the board found.

A haze over the whole photo (flare from a lamp or window shining into the lens, a smudge on
it) adds light in the lens, to the pieces and the cloth alike: even the darkest pixels are
lifted, and the reader took red and blue pieces so veiled for white and clear. It is taken off
every pixel (``veil_level``, ``without_veil``).

A shadow cast across the board (the photographer's head and phone, a lamp's arm) takes light
away from part of it. The checkerboard is its own light meter: near every square the photo
shows bare light and dark cloth; where both look darker (or lighter) than over the rest of the
board by one common factor, less (or more) light falls there (``local_gain``). The reading
says so when a shadow spans several squares; it does not undo it. Dividing the gain out of the
photo was tried (2026-11-27): on dev's shadowed variants it read 95.89% and 96.78% of squares
against 95.80% and 97.06% left as they were.

A lamp's or window's reflection on glossy cloth or varnish (glare) adds light that depends on
the surface's slant, washing out the flat cloth but not the pieces' faces in the same way: it is
not undone, but the squares it washes out are found (``glared_squares``), so that the reading
can say so and the colour stage can leave their pieces out.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorer.vision.squares import CheckerAppearance

NEIGHBOURHOOD = 1  # squares each side whose bare corners say a square's local light
MIN_LOG_GAIN = 0.5  # |log gain| that counts (a shadow letting through under 61% of the light), else 1
MAX_MISFIT = 0.35  # share by which the dark cloth may differ from what the light cloth's gain predicts
MISFIT_FLOOR = 0.01  # linear light allowed on top (near-black cloth: noise and compression swamp ratios)
MIN_CHANGED_AROUND = 2  # of a square's 8 neighbours, those that must share its change for it to count
VEIL_PERCENTILE = 0.5  # percent: the darkest 0.5% of the photo's pixels say how veiled it is
VEIL_FLOOR = 0.04  # linear light (grey level 59 of 255) under which the darkest pixels count as black
GLARE_LIFT = 0.5  # of the light and dark cloth's difference: dark cloth lifted this far is washed out
GLARE_NEIGHBOUR_LIFT = 0.1  # ... when the light cloth beside it is lifted this much too (same units)


def _linear_bgr(lab: np.ndarray) -> np.ndarray:
    """Lab (L 0..100) -> linear-light BGR (0..1), any leading shape."""
    shape = lab.shape
    bgr = cv2.cvtColor(np.asarray(lab, np.float32).reshape(-1, 1, 3), cv2.COLOR_Lab2BGR).reshape(shape)
    return np.clip(bgr, 0.0, 1.0).astype(np.float64) ** 2.2


def _bare_cloth(appearance: CheckerAppearance) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Each square's bare cloth in linear-light BGR (rows, cols, 3; row 0 at the bottom),
    which squares are dark and which are in view; None when no light or no dark square is."""
    rows, cols = appearance.rows, appearance.cols
    ys, xs = np.mgrid[0:rows, 0:cols]
    is_dark = (xs + ys) % 2 == appearance.dark_parity
    seen = appearance.seen
    if not (seen & is_dark).any() or not (seen & ~is_dark).any():
        return None
    return _linear_bgr(appearance.square_lab), is_dark, seen


def local_gain(appearance: CheckerAppearance) -> np.ndarray:
    """(rows, cols, 3) linear-light BGR gain of the light near each square (row 0 at the
    bottom) against the board's usual light (the median bare light and dark cloth of the
    squares in view): the light cloth's gain among the squares around it, where that gain
    is at least MIN_LOG_GAIN from 1, also explains the dark cloth there (MAX_MISFIT), and at
    least MIN_CHANGED_AROUND neighbours share the change; else 1. When every such square is
    lighter than the usual light, the shadow is what covers most of the board: the gains are
    then taken against the lit squares' light, so the shadow is what is found."""
    rows, cols = appearance.rows, appearance.cols
    cloth = _bare_cloth(appearance)
    if cloth is None:
        return np.ones((rows, cols, 3))
    linear, is_dark, seen = cloth
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
    changed = (gain != 1.0).any(axis=2)
    if changed.any() and np.all(gain[changed].mean(axis=1) > 1.0):
        # Only squares lighter than the usual light: the shadow covers most of the board and
        # is the usual light. The lit squares become the reference.
        lit = np.median(gain[changed], axis=0)
        gain = np.where(changed[..., None], gain, 1.0) / lit
        gain[changed] = 1.0
    return gain


def shadowed_squares(gain: np.ndarray) -> int:
    """How many squares :func:`local_gain` finds in a shadow (or out of one)."""
    return int((gain != 1.0).any(axis=2).sum())


def veil_level(image_bgr: np.ndarray) -> float:
    """Linear light that even the photo's darkest pixels show (the VEIL_PERCENTILE of each
    pixel's darkest channel, every 4th row and column): near 0 in a clear photo, whose
    shadows, black squares or dark pieces reach black; a haze of flare or a smudged lens
    lifts it over the whole photo."""
    darkest = image_bgr[::4, ::4].min(axis=2)
    return (float(np.percentile(darkest, VEIL_PERCENTILE)) / 255.0) ** 2.2


def without_veil(image_bgr: np.ndarray, veil: float) -> np.ndarray:
    """The photo with ``veil`` of linear light taken off every channel when it is over
    VEIL_FLOOR (a paler scene than that without any black is rare); else the photo itself."""
    if veil <= VEIL_FLOOR:
        return image_bgr
    linear = (image_bgr.astype(np.float32) / 255.0) ** 2.2 - veil
    return np.clip(255.0 * np.clip(linear, 0.0, 1.0) ** (1 / 2.2) + 0.5, 0, 255).astype(np.uint8)


def glared_squares(appearance: CheckerAppearance) -> np.ndarray:
    """(rows, cols) bool (row 0 at the bottom): squares a reflection of a lamp or window
    (glare) washes out. Glare adds light: where a dark square's bare cloth is lifted over
    GLARE_LIFT of the way to the board's usual light cloth and the light squares beside it
    are lifted too (over GLARE_NEIGHBOUR_LIFT on average, in the same units: a white marker or
    piece over a dark square's corners lifts it alone), that square and its light neighbours
    are washed out."""
    rows, cols = appearance.rows, appearance.cols
    glared = np.zeros((rows, cols), bool)
    cloth = _bare_cloth(appearance)
    if cloth is None:
        return glared
    linear, is_dark, seen = cloth[0].mean(axis=2), cloth[1], cloth[2]
    usual_light, usual_dark = np.median(linear[~is_dark & seen]), np.median(linear[is_dark & seen])
    contrast = usual_light - usual_dark
    if contrast <= 0:
        return glared
    lift = np.where(is_dark, linear - usual_dark, linear - usual_light) / contrast
    for r, c in zip(*np.nonzero(is_dark & seen & (lift >= GLARE_LIFT))):
        beside = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                  if 0 <= r + dr < rows and 0 <= c + dc < cols and seen[r + dr, c + dc]]
        if beside and np.mean([lift[p] for p in beside]) >= GLARE_NEIGHBOUR_LIFT:
            glared[r, c] = True
            for p in beside:
                glared[p] = True
    return glared
