"""The learned square classifier: probabilities over empty / park / 1 / 2 / 3 pips per square.

A small two-branch CNN (``scripts/train_square_model.py`` trains it on studio photos and
exports it to ONNX) run with OpenCV's dnn module on the views of ``patches.py``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from scorer.board import PARK, Board, Square
from scorer.vision.patches import square_patches
from scorer.vision.squares import LABELS, disc_window

MODEL_PATH = Path(__file__).resolve().parents[1] / "data" / "square_model.onnx"


@functools.lru_cache(maxsize=4)
def load_square_model(path: str | Path = MODEL_PATH) -> cv2.dnn.Net:
    """The ONNX network, loaded once per path."""
    return cv2.dnn.readNetFromONNX(str(path))


def predict_patches(patches: np.ndarray, path: str | Path = MODEL_PATH) -> np.ndarray:
    """(N, 6, s, s) views -> (N, len(LABELS)) probabilities."""
    net = load_square_model(str(path))
    net.setInput(np.ascontiguousarray(patches, np.float32))
    probs = np.asarray(net.forward(), np.float64).reshape(len(patches), len(LABELS))
    return probs / probs.sum(axis=1, keepdims=True)


def square_probs(image_bgr: np.ndarray, homography: np.ndarray, rows: int, cols: int, *,
                 centres: np.ndarray | None = None, path: str | Path = MODEL_PATH) -> np.ndarray:
    """(rows, cols, len(LABELS)) probabilities of every square (row 0 nearest the image bottom)."""
    patches = square_patches(image_bgr, homography, rows, cols, centres=centres)
    return predict_patches(patches, path).reshape(rows, cols, len(LABELS))


HAND_WEIGHT = 1.0  # exponent of the hand-built reader's empty / park / pyramid odds (held-out dev choice)
PYRAMIDS = slice(2, 5)  # LABELS "1", "2", "3"


def combined_probs(learned: np.ndarray, hand: np.ndarray, hand_weight: float = HAND_WEIGHT) -> np.ndarray:
    """Empty / park / pyramid from the learned model (times the hand-built reader's odds to the
    power ``hand_weight``), the pyramid's size from the hand-built reader, which fits the pieces'
    scale over the whole board (a single square cannot tell a 2 on small squares from a 3)."""
    learned = np.asarray(learned, np.float64)
    hand = np.maximum(np.asarray(hand, np.float64), 1e-6)
    def grouped(p):
        return np.array([p[0], p[1], p[PYRAMIDS].sum()])
    occupancy = grouped(learned) * grouped(hand) ** hand_weight
    occupancy /= occupancy.sum()
    return np.concatenate([occupancy[:2], occupancy[2] * hand[PYRAMIDS] / hand[PYRAMIDS].sum()])


def merge_learned(squares, image_bgr: np.ndarray, grid, path: str | Path = MODEL_PATH) -> None:
    """Replace each square's probabilities in a ``squares.SquaresResult`` (read on
    ``image_bgr`` with ``grid``) by :func:`combined_probs`; a square that becomes a pyramid
    without a colour sample gets one from the foreground pixels just above its base."""
    learned = square_probs(image_bgr, grid.homography, grid.rows, grid.cols,
                           centres=grid.square_centres(), path=path)
    for (c, r), reading in squares.readings.items():
        reading.probs = combined_probs(learned[r, c], reading.probs)
        if reading.label in LABELS[PYRAMIDS] and reading.colour_lab is None:
            reading.colour_lab = colour_above_base(squares.evidence, squares.camera, c, r)


def colour_above_base(evidence, camera, col: int, row: int) -> np.ndarray | None:
    """Median Lab of the foreground pixels (log-odds > 0.5) within a quarter square of the
    point 0.35 squares above square (col, row)'s centre, or None when there are too few."""
    base, above, side = camera.project(np.array([[col + 0.5, row + 0.5, 0.0], [col + 0.5, row + 0.5, 0.35],
                                                 [col + 0.75, row + 0.5, 0.0]]))
    disc = disc_window(evidence.logodds.shape, above - np.array(evidence.origin), np.linalg.norm(side - base))
    if disc is None:
        return None
    rows, cols, inside = disc
    mask = inside & (evidence.logodds[rows, cols] > 0.5)
    if mask.sum() < 4:
        return None
    return np.median(evidence.lab[rows, cols][mask], axis=0)


def truth_labels(truth: dict, rows: int, cols: int) -> np.ndarray:
    """Index in LABELS of every square of a studio sidecar's checkerboard (``truth_grid``'s
    orientation), row-major, row 0 at the bottom."""
    board = Board.from_text(truth["board"])
    area = truth["play_area"]
    out = np.zeros(rows * cols, np.int64)
    for r in range(rows):
        for c in range(cols):
            if area["row"] <= r < area["row"] + area["rows"] and area["col"] <= c < area["col"] + area["cols"]:
                content = board[Square(c - area["col"], r - area["row"])]
                if content is PARK:
                    out[r * cols + c] = 1
                elif content is not None:
                    out[r * cols + c] = 1 + content.pips
    return out
