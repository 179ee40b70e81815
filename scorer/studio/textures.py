"""Procedural textures (numpy/OpenCV): board prints, wood, vinyl, table tops, cards.

Each function returns an sRGB uint8 image (H, W, 3) in RGB order whose row 0 is the far
(top, +y) edge of the surface and column 0 its left (-x) edge.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

FILES = "abcdefgh"

PALETTES = {  # (light squares, dark squares, border), sRGB
    "white_black": ((236, 234, 228), (28, 28, 30), (236, 234, 228)),
    "cream_green": ((238, 232, 200), (84, 130, 90), (238, 232, 200)),
    "buff_brown": ((232, 214, 176), (150, 96, 60), (120, 80, 50)),
    "white_red": ((240, 236, 230), (170, 40, 40), (60, 60, 62)),
    "white_grey": ((240, 240, 238), (140, 140, 142), (240, 240, 238)),
    "buff_green": ((235, 228, 196), (60, 118, 72), (235, 228, 196)),
    "buff_blue": ((235, 228, 196), (50, 80, 140), (235, 228, 196)),
    "maple_walnut": ((214, 170, 118), (96, 58, 34), (70, 42, 24)),
    "birch_rosewood": ((226, 196, 150), (110, 50, 36), (90, 40, 30)),
    "light_mahogany": ((220, 178, 128), (128, 52, 34), (110, 45, 30)),
}


def _noise(rng: np.random.Generator, shape, scale: float) -> np.ndarray:
    """Smooth value noise in [-1, 1] with features about ``scale`` pixels wide."""
    h, w = shape
    small = rng.standard_normal((max(2, int(h / scale) + 2), max(2, int(w / scale) + 2))).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(big / 2.0, -1, 1)


def _grain(rng: np.random.Generator, h: int, w: int, base, vertical: bool, strength=0.18) -> np.ndarray:
    """Wood grain: stretched noise rings around a base colour."""
    if vertical:
        return np.transpose(_grain(rng, w, h, base, False, strength), (1, 0, 2))
    n = _noise(rng, (h, max(8, w // 8)), 3.0)
    n = cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)
    rings = np.sin(n * 12 + np.linspace(0, rng.uniform(5, 15), h)[:, None]) * 0.5
    fine = _noise(rng, (h, w), 1.5) * 0.3
    shade = 1 + strength * (rings + fine)
    return np.clip(np.asarray(base, np.float32)[None, None, :] * shade[..., None], 0, 255)


def _cloth_weave(rng: np.random.Generator, img: np.ndarray, strength=3.0) -> np.ndarray:
    h, w = img.shape[:2]
    fine = rng.standard_normal((h, w)).astype(np.float32) * strength
    blotch = _noise(rng, (h, w), 60) * strength
    out = img.astype(np.float32) + (fine + blotch)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _curl(img, centre, radius, turns, angle, colour, thickness):
    """A spiral scroll: the bandanna border's curly motif."""
    pts = []
    for t in np.linspace(0, turns * 2 * math.pi, int(40 * turns)):
        r = radius * (1 - t / (turns * 2 * math.pi + 1.0))
        pts.append((centre[0] + r * math.cos(t + angle), centre[1] + r * math.sin(t + angle)))
    cv2.polylines(img, [np.int32(pts)], False, colour, thickness, cv2.LINE_AA)


def bandanna(seed: int, variant: str, size_px: int = 2048, cloth_m=0.559, square_m=0.0445) -> np.ndarray:
    """The Looney Labs chessboard bandanna: 8x8 squares in black/grey print on white cloth,
    a curly decorative border around the grid."""
    rng = np.random.default_rng(seed)
    white = np.array([238, 236, 230]) + rng.integers(-8, 6, 3)
    img = np.empty((size_px, size_px, 3), np.uint8)
    img[:] = white
    ppm = size_px / cloth_m
    sq = square_m * ppm
    g0 = (size_px - 8 * sq) / 2
    grey = int(rng.integers(110, 150))
    dark = {"grey_squares": (grey, grey, grey + 2), "black_squares": (25, 25, 28), "early_plain": (20, 20, 22)}[variant]
    border_ink = (25, 25, 28) if variant != "black_squares" else (grey, grey, grey + 2)
    for r in range(8):
        for c in range(8):
            if (r + c) % 2 == 0:  # a1 (bottom-left) is dark, as on every chessboard
                x0, y1 = g0 + c * sq, size_px - (g0 + r * sq)
                cv2.rectangle(img, (int(round(x0)), int(round(y1 - sq))), (int(round(x0 + sq)) - 1, int(round(y1)) - 1),
                              dark, -1)
    if variant != "early_plain":
        t = max(2, int(sq * 0.025))
        cv2.rectangle(img, (int(g0), int(g0)), (int(size_px - g0), int(size_px - g0)), border_ink, t, cv2.LINE_AA)
        # Decorative border: a band of scrolls between two frame lines.
        band_in, band_out = g0 - sq * 0.25, g0 - sq * 1.6
        cv2.rectangle(img, (int(band_out), int(band_out)), (int(size_px - band_out), int(size_px - band_out)),
                      border_ink, max(2, int(sq * 0.05)), cv2.LINE_AA)
        cv2.rectangle(img, (int(band_in), int(band_in)), (int(size_px - band_in), int(size_px - band_in)),
                      border_ink, max(1, int(sq * 0.02)), cv2.LINE_AA)
        mid = (band_in + band_out) / 2
        rad = (band_in - band_out) * 0.42
        n = int((size_px - 2 * mid) / (rad * 2.2))
        step = (size_px - 2 * mid) / n
        for i in range(n + 1):
            s = mid + i * step
            for cx, cy, a in ((s, mid, 0.0), (s, size_px - mid, math.pi), (mid, s, math.pi / 2), (size_px - mid, s, -math.pi / 2)):
                _curl(img, (cx, cy), rad, 1.6, a + (i % 2) * math.pi, border_ink, max(2, int(sq * 0.03)))
        for cx in (mid, size_px - mid):
            for cy in (mid, size_px - mid):
                cv2.circle(img, (int(cx), int(cy)), int(rad * 1.2), border_ink, -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), 1.2)  # ink bleeds into cotton
    return _cloth_weave(rng, img)


def printed_board(seed: int, palette: str, rows: int, cols: int, square_m: float, border_m: float,
                  labels: bool, kind: str = "printed", px_per_m: float = 3000.0) -> np.ndarray:
    """A printed, wooden or vinyl board's top: squares, a border, maybe a-h/1-8 labels."""
    rng = np.random.default_rng(seed)
    light, dark, frame = PALETTES[palette]
    w = int(round((cols * square_m + 2 * border_m) * px_per_m))
    h = int(round((rows * square_m + 2 * border_m) * px_per_m))
    sq = square_m * px_per_m
    b = border_m * px_per_m
    img = np.zeros((h, w, 3), np.float32)
    wood = kind == "wood"
    if wood:
        img[:] = _grain(rng, h, w, frame, vertical=False)
    else:
        img[:] = frame
    for r in range(rows):
        for c in range(cols):
            x0, x1 = int(round(b + c * sq)), int(round(b + (c + 1) * sq))
            y0, y1 = int(round(h - b - (r + 1) * sq)), int(round(h - b - r * sq))
            colour = dark if (r + c) % 2 == 0 else light
            if wood:
                img[y0:y1, x0:x1] = _grain(rng, y1 - y0, x1 - x0, colour, vertical=(r + c) % 2 == 1)
            else:
                img[y0:y1, x0:x1] = colour
    img = img.astype(np.uint8)
    if b > 8:
        ink = tuple(int(x) for x in dark) if not wood else (235, 220, 190)
        cv2.rectangle(img, (int(b) - 2, int(b) - 2), (int(w - b) + 1, int(h - b) + 1), ink, max(1, int(sq * 0.02)), cv2.LINE_AA)
    if labels and b > sq * 0.25:
        ink = (40, 40, 40) if not wood else (235, 220, 190)
        scale = b / 55.0
        for c in range(cols):
            x = int(b + (c + 0.5) * sq - 8 * scale)
            cv2.putText(img, FILES[c % 8], (x, int(h - b * 0.3)), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, int(2 * scale)), cv2.LINE_AA)
        for r in range(rows):
            y = int(h - b - (r + 0.5) * sq + 8 * scale)
            cv2.putText(img, str(r + 1), (int(b * 0.3), y), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, int(2 * scale)), cv2.LINE_AA)
    noise = rng.standard_normal(img.shape[:2]).astype(np.float32) * (2.5 if kind != "vinyl" else 1.5)
    return np.clip(img.astype(np.float32) + noise[..., None], 0, 255).astype(np.uint8)


def table_top(seed: int, kind: str, size_px: int = 1024) -> np.ndarray:
    """A tileable-enough table surface covering about one metre."""
    rng = np.random.default_rng(seed)
    if kind in ("oak", "dark_wood"):
        base = (190, 145, 95) if kind == "oak" else (85, 55, 35)
        base = np.array(base) + rng.integers(-15, 15, 3)
        img = np.zeros((size_px, size_px, 3), np.float32)
        planks = int(rng.integers(4, 8))
        pw = size_px // planks
        for i in range(planks):
            shade = rng.uniform(0.85, 1.12)
            img[:, i * pw:(i + 1) * pw] = _grain(rng, size_px, pw, np.clip(base * shade, 0, 255), vertical=True, strength=0.22)
            img[:, i * pw:i * pw + 2] *= 0.5
        return img.astype(np.uint8)
    if kind == "white_laminate":
        img = np.full((size_px, size_px, 3), 232, np.float32) + rng.integers(-10, 6, 3)
        img += (_noise(rng, (size_px, size_px), 40) * 5)[..., None]
        return np.clip(img, 0, 255).astype(np.uint8)
    if kind == "formica":
        base = np.array([rng.integers(150, 230), rng.integers(150, 220), rng.integers(130, 210)], np.float32)
        img = np.full((size_px, size_px, 3), 0, np.float32) + base
        speck = rng.random((size_px, size_px)) < 0.02
        img[speck] *= 0.6
        return np.clip(cv2.GaussianBlur(img, (0, 0), 0.8), 0, 255).astype(np.uint8)
    if kind == "tablecloth":
        colour = np.array([(180, 40, 40), (40, 70, 150), (60, 120, 70), (200, 170, 60)][int(rng.integers(4))], np.float32)
        period = int(rng.integers(40, 110))
        yy, xx = np.mgrid[0:size_px, 0:size_px]
        a = ((xx // period) % 2).astype(np.float32)
        b = ((yy // period) % 2).astype(np.float32)
        mix = (a + b) / 2
        white = np.array([240, 238, 232], np.float32)
        img = white * (1 - mix[..., None]) + (colour * 0.6 + white * 0.4) * mix[..., None]
        img *= (1 + rng.standard_normal((size_px, size_px, 1)).astype(np.float32) * 0.04)
        return np.clip(img, 0, 255).astype(np.uint8)
    if kind == "slate":
        base = float(rng.integers(45, 80))
        img = base + _noise(rng, (size_px, size_px), 80) * 12 + _noise(rng, (size_px, size_px), 6) * 6
        return np.clip(np.repeat(img[..., None], 3, axis=2) + rng.integers(-4, 4, 3), 0, 255).astype(np.uint8)
    raise ValueError(f"unknown table kind {kind!r}")


def playing_card(seed: int, face: str, size=(352, 252)) -> np.ndarray:
    """A card: a white face with a coloured symbol and corner marks, or a patterned back."""
    rng = np.random.default_rng(seed)
    h, w = size
    colour = [(200, 30, 30), (30, 30, 30), (30, 90, 180), (40, 140, 60)][int(rng.integers(4))]
    img = np.full((h, w, 3), 245, np.uint8)
    if face == "back":
        img[:] = colour
        for i in range(-h, w, 14):
            cv2.line(img, (i, 0), (i + h, h), (240, 240, 240), 2, cv2.LINE_AA)
        cv2.rectangle(img, (10, 10), (w - 11, h - 11), (245, 245, 245), 6)
    else:
        for _ in range(int(rng.integers(1, 6))):
            cx, cy = int(rng.integers(50, w - 50)), int(rng.integers(60, h - 60))
            cv2.circle(img, (cx, cy), int(rng.integers(12, 30)), colour, -1, cv2.LINE_AA)
        cv2.putText(img, str(int(rng.integers(2, 10))), (12, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, colour, 3, cv2.LINE_AA)
    return img
