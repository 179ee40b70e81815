"""scripts/calibrate_confidence.py: the table mapping decoder probabilities to how often
squares read at them were right."""

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from scorer import reader
from scorer.vision.evaluate import SquareOutcome

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "calibrate_confidence.py"
spec = importlib.util.spec_from_file_location("calibrate_confidence", SCRIPT)
calibrate_confidence = importlib.util.module_from_spec(spec)
spec.loader.exec_module(calibrate_confidence)


def test_bins_are_monotone_smoothed_and_ties_merged():
    raw = np.array([0.5] * 10 + [0.8] * 10 + [0.9] * 10 + [0.999] * 30)
    right = np.array([0] * 5 + [1] * 5 + [1] * 9 + [0] + [0] * 3 + [1] * 7 + [1] * 30, np.float64)
    centres, shares = calibrate_confidence.monotone_bins(raw, right, 6)
    # 0.8 (90% right) and 0.9 (70%) fall out of order and are pooled; the three bins of
    # 0.999 are one; no bin claims certainty (one right and one wrong square added).
    assert np.allclose(centres, [0.5, 0.85, 0.999])
    assert np.allclose(shares, [6 / 12, 17 / 22, 31 / 32])
    assert np.all(np.diff(centres) > 0) and np.all(np.diff(shares) >= 0)


def test_a_small_smoothed_bin_does_not_break_the_order():
    # Two tied bins merged (20 of 20 right: 21/22 smoothed), then 10 of 10 at a higher
    # probability (11/12 smoothed, less): kept at 21/22.
    raw = np.array([0.99] * 20 + [0.995] * 10)
    centres, shares = calibrate_confidence.monotone_bins(raw, np.ones(30), 3)
    assert np.allclose(centres, [0.99, 0.995])
    assert np.allclose(shares, [21 / 22, 21 / 22])


def test_decoder_probabilities_are_read_with_the_table_off_and_it_is_put_back(monkeypatch, tmp_path):
    table = reader.CONFIDENCE_RAW, reader.CONFIDENCE_RIGHT
    seen = []

    def evaluate(photo):
        seen.append((reader.CONFIDENCE_RAW, reader.CONFIDENCE_RIGHT))
        # one outside the play area, one not read
        return SimpleNamespace(squares=[SquareOutcome("1", True, True, True, "1", reader.calibrated_confidence(0.42)),
                                        SquareOutcome("1", True, False, None, "empty", reader.calibrated_confidence(0.97)),
                                        SquareOutcome("empty", False, True, None, "empty", 0.5),
                                        SquareOutcome("2", True, False, None, "none", None)])

    monkeypatch.setattr(calibrate_confidence, "photos_in", lambda folder: [folder / "a.jpg"])
    monkeypatch.setattr(calibrate_confidence, "evaluate_photo", evaluate)
    raw, right = calibrate_confidence.decoder_probabilities([tmp_path])
    assert seen == [((0.0, 1.0), (0.0, 1.0))]
    assert raw.tolist() == [0.42, 0.97] and right.tolist() == [1.0, 0.0]
    assert (reader.CONFIDENCE_RAW, reader.CONFIDENCE_RIGHT) == table

    monkeypatch.setattr(calibrate_confidence, "evaluate_photo", lambda photo: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        calibrate_confidence.decoder_probabilities([tmp_path])
    assert (reader.CONFIDENCE_RAW, reader.CONFIDENCE_RIGHT) == table
