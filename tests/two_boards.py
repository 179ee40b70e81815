"""A real chessboard photo with a second real board in it, for tests of which board is read.

A club's or a tournament's photo shows the tables behind the one it is of. Here another of
``tests/data/real_chessboards``' boards, cut out with a margin and shrunk, is pasted into a
corner of the photo clear of its own board, as a board further off would be seen.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

REAL = Path(__file__).parent / "data" / "real_chessboards"
LABELS = {entry["file"]: entry for entry in json.loads((REAL / "labels.json").read_text())}


def photo_with_another_board(main: str, other: str, share: float = 0.5,
                             margin: float = 40.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Photo ``main`` with board ``other`` pasted in, shrunk so that its cut-out's longer side
    is ``share`` of the main board's extent, in the photo's corner farthest from the main
    board that leaves all of it in view (ValueError where none does). Returns the BGR image and
    the true outer corners of the main board and of the pasted one (px)."""
    image = cv2.imread(str(REAL / main))
    pasted = cv2.imread(str(REAL / other))
    main_corners = np.asarray(LABELS[main]["corners_px"], np.float64)
    other_corners = np.asarray(LABELS[other]["corners_px"], np.float64)
    x0, y0 = np.maximum(other_corners.min(axis=0) - margin, 0).astype(int)
    x1, y1 = (other_corners.max(axis=0) + margin).astype(int)
    cut = pasted[y0:y1, x0:x1]
    scale = share * np.ptp(main_corners, axis=0).max() / max(cut.shape[:2])
    cut = cv2.resize(cut, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    height, width = image.shape[:2]
    h, w = cut.shape[:2]
    centre = main_corners.mean(axis=0)
    spots = sorted(((left, top) for left in (0, width - w) for top in (0, height - h) if left >= 0 and top >= 0),
                   key=lambda spot: -np.hypot(spot[0] + w / 2 - centre[0], spot[1] + h / 2 - centre[1]))
    for left, top in spots:  # the photo's corners, farthest from its board first
        rectangle = np.array([[left, top], [left + w, top], [left + w, top + h], [left, top + h]], np.float32)
        if cv2.intersectConvexConvex(rectangle, main_corners.astype(np.float32))[0] <= 0.0:
            break
    else:
        raise ValueError(f"board {other} pasted at {share} would cover some of {main}'s board")
    image = image.copy()
    image[top:top + cut.shape[0], left:left + cut.shape[1]] = cut
    return image, main_corners, (other_corners - (x0, y0)) * scale + (left, top)
