"""A flat-shaded drawing of pyramids on a checkerboard, for reader tests that need no photos.

Not a photo: the studio makes those. This only places known geometry (camera, checkerboard,
pyramids of the real proportions, coin parks) so that geometry and decoding can be tested
against an exact answer.
"""

from __future__ import annotations

import numpy as np
import cv2

from scorer.board import PARK, Board

BASES = {1: 0.32, 2: 0.45, 3: 0.57}
HEIGHTS = {1: 0.571, 2: 0.784, 3: 1.0}
BGR = {
    "red": (40, 40, 200), "blue": (200, 80, 30), "green": (60, 170, 40), "yellow": (40, 210, 230),
    "orange": (30, 130, 240), "purple": (150, 50, 120), "cyan": (210, 200, 40),
    "black": (25, 25, 25), "white": (235, 235, 235), "clear": (200, 200, 190),
}
OPAQUE = {"black", "white"}  # Looney Pyramids' other eight colours are translucent plastic
# A see-through face passes what is behind it through its colour as a filter, and scatters a
# little of the light falling on it (frosting, reflections) in its own shaded colour.
FILTERS = {name: (0.92, 0.92, 0.9) if name == "clear" else tuple(v / 255 for v in bgr) for name, bgr in BGR.items()}
SCATTER = 0.25


def look_at_camera(width, height, elevation_deg, distance, yaw_deg=0.0, focal=None, target=(4.0, 4.0)):
    """3x4 projection of a camera looking at ``target`` on the board from the given angle."""
    focal = focal or 0.8 * max(width, height)
    e, a = np.radians(elevation_deg), np.radians(yaw_deg)
    tgt = np.array([target[0], target[1], 0.0])
    centre = tgt + distance * np.array([-np.sin(a) * np.cos(e), -np.cos(a) * np.cos(e), np.sin(e)])
    z = tgt - centre
    z /= np.linalg.norm(z)
    x = np.cross(z, [0.0, 0.0, 1.0])
    if np.linalg.norm(x) < 1e-6:
        x = np.array([1.0, 0.0, 0.0])
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    R = np.vstack([x, y, z])
    K = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    return K @ np.column_stack([R, -R @ centre])


def _project(P, pts):
    pts = np.asarray(pts, float)
    hom = np.hstack([pts, np.ones((len(pts), 1))]) @ P.T
    return hom[:, :2] / hom[:, 2:3]


def draw_scene(board: Board, origin=(1, 1), size=(8, 8), width=1200, height=900,
               elevation_deg=55.0, yaw_deg=10.0, distance=14.0, seed=0,
               light=(205, 205, 200), dark=(45, 45, 48), see_through=False, piece_scale=1.0):
    """Draw ``board`` (its play area starting at checkerboard square ``origin``) on a
    ``size`` checkerboard. Returns (image BGR, projection 3x4, outer corners clockwise from
    the one nearest the image's top-left). ``see_through``: the translucent colours let the
    board and the pieces behind them show through (else every piece is drawn opaque).
    ``piece_scale``: the pyramids' size against the squares, 1 on the bandanna's 44.5 mm
    squares (1.27 on a travel set's 35 mm ones, 0.78 on a tournament board's 57 mm)."""
    rng = np.random.default_rng(seed)
    cols, rows = size
    P = look_at_camera(width, height, elevation_deg, distance, yaw_deg, target=(cols / 2, rows / 2))
    H = P[:, [0, 1, 3]]
    img = np.full((height, width, 3), (90, 110, 130), np.uint8)
    px = 40
    tex = np.zeros((rows * px, cols * px, 3), np.uint8)
    for r in range(rows):
        for c in range(cols):
            colour = dark if (r + c) % 2 == 0 else light
            y0 = (rows - 1 - r) * px
            tex[y0:y0 + px, c * px:(c + 1) * px] = colour
    # texture pixel (u, v) -> board (u/px, rows - v/px)
    T = np.array([[1 / px, 0, 0], [0, -1 / px, rows], [0, 0, 1]])
    warped = cv2.warpPerspective(tex, H @ T, (width, height), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full(tex.shape[:2], 255, np.uint8), H @ T, (width, height))
    img[mask > 0] = warped[mask > 0]
    items = []
    for square, content in _contents(board):
        cx, cy = origin[0] + square.col + 0.5, origin[1] + square.row + 0.5
        dist = np.linalg.norm(np.array([cx, cy, 0]) - _centre(P))
        items.append((dist, cx, cy, content))
    sun = np.array([0.3, -0.5, 0.8])
    sun /= np.linalg.norm(sun)
    for _, cx, cy, content in sorted(items, key=lambda t: -t[0]):
        cx += rng.uniform(-0.05, 0.05)
        cy += rng.uniform(-0.05, 0.05)
        if content is PARK:
            ang = np.linspace(0, 2 * np.pi, 32, endpoint=False)
            rad = 0.3
            ring = np.column_stack([cx + rad * np.cos(ang), cy + rad * np.sin(ang), np.full(32, 0.03)])
            cv2.fillPoly(img, [np.round(_project(P, ring)).astype(np.int32)], (150, 170, 185), cv2.LINE_AA)
            continue
        b, h = piece_scale * BASES[content.pips] / 2, piece_scale * HEIGHTS[content.pips]
        base = np.array([[cx - b, cy - b, 0], [cx + b, cy - b, 0], [cx + b, cy + b, 0], [cx - b, cy + b, 0]])
        apex = np.array([cx, cy, h])
        colour = np.array(BGR[content.colour], float)
        faces = []
        for i in range(4):
            tri = np.array([base[i], base[(i + 1) % 4], apex])
            normal = np.cross(tri[1] - tri[0], tri[2] - tri[0])
            normal /= np.linalg.norm(normal)
            mid = tri.mean(axis=0)
            faces.append((np.linalg.norm(mid - _centre(P)), tri, normal))
        for _, tri, normal in sorted(faces, key=lambda t: -t[0]):
            shade = 0.45 + 0.55 * max(0.0, float(normal @ sun))
            pts = np.round(_project(P, tri)).astype(np.int32)
            if see_through and content.colour not in OPAQUE:
                _filter_through(img, pts, np.array(FILTERS[content.colour]), colour * shade)
            else:
                cv2.fillConvexPoly(img, pts, tuple(float(v) for v in np.clip(colour * shade, 0, 255)), cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    noise = rng.normal(0, 3, img.shape)
    img = np.clip(img.astype(float) + noise, 0, 255).astype(np.uint8)
    corners = _project(P, np.array([[0, rows, 0], [cols, rows, 0], [cols, 0, 0], [0, 0, 0]], float))
    return img, P, corners


def _filter_through(img, pts, filt, scattered):
    """Paint a see-through face (image polygon ``pts``): what is behind it times ``filt`` per
    channel, plus SCATTER of its own shaded colour ``scattered``."""
    x, y, w, h = cv2.boundingRect(pts)
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, img.shape[1]), min(y + h, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    alpha = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(alpha, pts - [x0, y0], 255, cv2.LINE_AA)
    alpha = alpha[..., None] / 255.0
    behind = img[y0:y1, x0:x1].astype(float)
    face = behind * filt * (1 - SCATTER) + np.clip(scattered, 0, 255) * SCATTER
    img[y0:y1, x0:x1] = np.clip(behind * (1 - alpha) + face * alpha, 0, 255).astype(np.uint8)


def _centre(P):
    M = P[:, :3]
    return -np.linalg.solve(M, P[:, 3])


def _contents(board: Board):
    for square in board.squares():
        content = board[square]
        if content is not None:
            yield square, content
