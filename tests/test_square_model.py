"""The learned square classifier: its views of the squares, the ONNX model, a few studio photos."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.vision.evaluate import truth_grid
from scorer.vision.load import load_photo
from scorer.vision.patches import PATCH_PX, TOP_SPAN, square_patches, upright_affine
from scorer.vision.square_model import MODEL_PATH, LABELS, combined_probs, predict_patches, square_probs, truth_labels

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT / "sample_photos" / "dev"
PX = 40  # synthetic board: px per square


def synthetic_board(rows=8, cols=8, marks=()):
    """A top-down checkerboard (light 200, dark 60) with a 20 px margin; ``marks`` are
    (col, row, bgr) squares that get a disc in their centre. Row 0 at the bottom."""
    image = np.full((rows * PX + 40, cols * PX + 40, 3), 120, np.uint8)
    for r in range(rows):
        for c in range(cols):
            x, y = 20 + c * PX, 20 + (rows - 1 - r) * PX
            image[y:y + PX, x:x + PX] = 60 if (c + r) % 2 == 0 else 200
    for c, r, bgr in marks:
        cv2.circle(image, (20 + c * PX + PX // 2, 20 + (rows - 1 - r) * PX + PX // 2), PX // 4, bgr, -1)
    # board (x, y) -> px: x right, y up
    H = np.array([[PX, 0, 20], [0, -PX, 20 + rows * PX], [0, 0, 1]], np.float64)
    return image, H


def test_top_view_is_centred_on_its_square_row_major_from_the_bottom():
    image, H = synthetic_board(marks=[(2, 0, (0, 0, 255)), (5, 6, (255, 0, 0))])
    patches = square_patches(image, H, 8, 8)
    assert patches.shape == (64, 6, PATCH_PX, PATCH_PX)
    mid = PATCH_PX // 2
    red, blue = patches[0 * 8 + 2], patches[6 * 8 + 5]
    # BGR channels, light squares normalised to 1: a red disc in the centre of square C1.
    assert red[2, mid, mid] > 0.9 and red[0, mid, mid] < 0.1
    assert blue[0, mid, mid] > 0.9 and blue[2, mid, mid] < 0.1
    # Other squares: the centre has the square's own colour, the margin its neighbours'.
    for r in range(8):
        for c in range(8):
            if (c, r) in ((2, 0), (5, 6)):
                continue
            view = patches[r * 8 + c, 1]
            light = (c + r) % 2 == 1
            assert view[mid, mid] == pytest.approx(1.0 if light else 0.3, abs=0.05)
            edge = int(PATCH_PX * 0.25 / TOP_SPAN / 2)  # inside the left neighbour's strip
            if c > 0:
                assert view[mid, edge] == pytest.approx(0.3 if light else 1.0, abs=0.05)


def test_upright_view_points_along_the_lean_and_straight_up_when_looking_down():
    side = 50.0
    M = upright_affine(np.array([100.0, 100.0]), np.array([40.0, 0.0]), side)  # leaning right
    top_mid = M @ np.array([(PATCH_PX - 1) / 2, 0, 1])
    bottom_mid = M @ np.array([(PATCH_PX - 1) / 2, PATCH_PX - 1, 1])
    assert top_mid[0] > 100 + 40 and abs(top_mid[1] - 100) < 1e-6  # up the view = along the lean
    assert bottom_mid[0] < 100
    M = upright_affine(np.array([100.0, 100.0]), np.array([1.0, 0.5]), side)  # top-down camera
    assert (M @ np.array([(PATCH_PX - 1) / 2, 0, 1]))[1] < 100 - 0.5 * side


def test_model_loads_and_gives_probabilities():
    assert MODEL_PATH.exists() and MODEL_PATH.stat().st_size < 20_000_000
    spec = json.loads(MODEL_PATH.with_suffix(".json").read_text())
    assert spec["output"]["labels"] == list(LABELS)
    assert spec["input"]["shape"][1:] == [6, PATCH_PX, PATCH_PX]
    rng = np.random.default_rng(0)
    probs = predict_patches(rng.uniform(0, 1.3, (7, 6, PATCH_PX, PATCH_PX)).astype(np.float32))
    assert probs.shape == (7, len(LABELS))
    assert np.all(probs >= 0) and np.allclose(probs.sum(axis=1), 1.0)


def test_bare_synthetic_board_reads_empty():
    image, H = synthetic_board()
    probs = square_probs(image, H, 8, 8)
    assert probs.shape == (8, 8, len(LABELS))
    assert np.mean(probs.argmax(axis=2) == 0) >= 0.9


@pytest.mark.parametrize("name", ["studio_001000", "studio_001300", "studio_001603"])
def test_studio_photos_on_the_true_grid(name):
    # Development photos (the model was trained on them, with jitter): a regression check
    # that the views, the labels' orientation and the model fit together.
    photo = DEV / f"{name}.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text())
    image = load_photo(photo, long_side=1600)
    from PIL import Image

    with Image.open(photo) as im:
        k = max(image.shape[:2]) / max(im.size)
    checker = truth["checkerboard"]
    grid = truth_grid(checker["rows"], checker["cols"], checker["corners"]).scaled(k)
    labels = truth_labels(truth, grid.rows, grid.cols).reshape(grid.rows, grid.cols)
    probs = square_probs(image, grid.homography, grid.rows, grid.cols, centres=grid.square_centres())
    read = probs.argmax(axis=2)
    # Measured when trained: 95-98% of the squares exactly, 98-100% empty / park / pyramid.
    assert np.mean(read == labels) >= 0.9
    assert np.mean(np.minimum(read, 2) == np.minimum(labels, 2)) >= 0.95


def test_combined_probs_take_occupancy_from_both_and_size_from_the_hand_built_reader():
    learned = np.array([0.05, 0.05, 0.6, 0.2, 0.1])  # a pyramid, the model thinks a 1
    hand = np.array([0.3, 0.1, 0.1, 0.1, 0.4])  # the hand-built reader: a 3, or empty
    p = combined_probs(learned, hand)
    assert p.sum() == pytest.approx(1.0) and np.all(p >= 0)
    assert LABELS[int(np.argmax(p))] == "3"
    assert p[2:] / p[2:].sum() == pytest.approx(hand[2:] / hand[2:].sum())
    assert combined_probs(np.array([0.9, 0.05, 0.03, 0.01, 0.01]), hand).argmax() == 0
