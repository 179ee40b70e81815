"""Draw a reading over its photo: grid, play area, each square's value, unsure squares, and
squares the photo does not show (glare, a hand over them) crossed out."""

from __future__ import annotations

import cv2
import numpy as np

from scorer.board import Square
from scorer.vision.decode import UNSURE

# BGR used to draw each colour's readings.
DRAW_BGR = {
    "r": (40, 40, 230), "y": (0, 220, 255), "o": (0, 140, 255), "g": (40, 200, 40),
    "c": (230, 220, 0), "b": (230, 90, 20), "p": (200, 60, 160), "x": (200, 200, 200),
    "k": (30, 30, 30), "w": (255, 255, 255),
}
UNSURE_BGR = (0, 0, 255)
UNSEEN_BGR = (0, 165, 255)  # a square glare washes out or a hand lies over: crossed out
GRID_BGR = (0, 255, 255)
AREA_BGR = (255, 0, 255)


def draw_reading(image: np.ndarray, reading, zoom: float = 1.0, mark_unsure: bool = True) -> np.ndarray:
    """A copy of ``image`` (BGR) with ``reading`` drawn on it; ``zoom`` is image px per
    reading px (the photo at full size when the reading was made on it shrunk);
    ``mark_unsure``: frame the unsure squares (off where the page draws its own marks, which
    follow the player's corrections)."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    grid = reading.grid
    if grid is None:
        return out
    if zoom != 1.0:
        grid = grid.scaled(zoom)
    scale = max(out.shape[:2]) / 1000.0
    thick = max(1, int(round(1.5 * scale)))
    pts = grid.intersections
    for r in range(grid.rows + 1):
        cv2.polylines(out, [np.round(pts[r, :]).astype(np.int32)], False, GRID_BGR, thick, cv2.LINE_AA)
    for c in range(grid.cols + 1):
        cv2.polylines(out, [np.round(pts[:, c]).astype(np.int32)], False, GRID_BGR, thick, cv2.LINE_AA)
    area = reading.play_area
    if area is not None:
        outline = grid.outline(area.col, area.row, area.cols, area.rows)
        cv2.polylines(out, [np.round(outline).astype(np.int32)], True, AREA_BGR, 2 * thick, cv2.LINE_AA)
    squares = reading.squares
    for cell in reading.cells:
        sq = Square.parse(cell.cell)
        col, row = sq.col + area.col, sq.row + area.row
        if not (0 <= col < grid.cols and 0 <= row < grid.rows):
            continue
        centre = grid.square_centre(col, row)
        quad = grid.square_quad(col, row)
        value = cell.value
        if squares is not None and value not in (".",):
            poly = squares.readings[(col, row)].outline
            if poly is not None:
                colour = DRAW_BGR.get(value[0], (255, 255, 255)) if value != "#" else (160, 160, 160)
                cv2.polylines(out, [np.round(poly / reading.square_scale * zoom).astype(np.int32)], True,
                              colour, thick, cv2.LINE_AA)
        if mark_unsure and cell.confidence < UNSURE:
            inner = centre + 0.85 * (quad - centre)
            cv2.polylines(out, [np.round(inner).astype(np.int32)], True, UNSURE_BGR, 2 * thick, cv2.LINE_AA)
        if cell.washed_out or cell.covered:
            corners = np.round(centre + 0.7 * (quad - centre)).astype(np.int32)
            for a, b in ((0, 2), (1, 3)):
                cv2.line(out, tuple(int(v) for v in corners[a]), tuple(int(v) for v in corners[b]), UNSEEN_BGR, thick,
                         cv2.LINE_AA)
        if value != ".":
            text = value
            font_scale = 0.5 * scale
            (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thick)
            org = (int(centre[0] - w / 2), int(centre[1] + h / 2))
            ink = DRAW_BGR.get(value[0], (255, 255, 255))
            halo = (255, 255, 255) if sum(ink) < 200 else (0, 0, 0)
            cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, font_scale, halo, 3 * thick + 1, cv2.LINE_AA)
            cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, font_scale, ink, thick, cv2.LINE_AA)
    return out
