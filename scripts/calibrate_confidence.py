"""Refit the reader's confidence calibration (``CONFIDENCE_RAW`` / ``CONFIDENCE_RIGHT`` in
``scorer/reader.py``) on photos with sidecars, after any change to the reader or its model::

    .venv/bin/python scripts/calibrate_confidence.py sample_photos/dev /tmp/holdout --bins 12

(``/tmp/holdout``: the studio's renders that the square model was not trained on; the table
in the reader used 154 of them, seeds 30701-30781 and 31213-31285.)

Runs the whole reader (its own grid, as a user gets it) on every photo, takes each play-area
square's decoder probability and whether the square was read right, and prints the table to
paste: the share of squares read right in each of ``--bins`` equal-count bins of the
probability, made monotone. Never run it on the test split.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer import reader  # noqa: E402
from scorer.vision.decode import UNSURE  # noqa: E402
from scorer.vision.evaluate import evaluate_photo, photos_in  # noqa: E402


def decoder_probabilities(photos: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """Each play-area square's decoder probability (the reader run with its calibration
    switched off) and whether the square was read right."""
    table = reader.CONFIDENCE_RAW, reader.CONFIDENCE_RIGHT
    reader.CONFIDENCE_RAW = reader.CONFIDENCE_RIGHT = (0.0, 1.0)
    try:
        raw, right = [], []
        for folder in photos:
            for photo in photos_in(folder):
                for square in evaluate_photo(photo).squares:
                    if square.in_play and square.confidence is not None:
                        raw.append(square.confidence)
                        right.append(bool(square.right))
    finally:
        reader.CONFIDENCE_RAW, reader.CONFIDENCE_RIGHT = table
    return np.array(raw), np.array(right, np.float64)


def monotone_bins(raw: np.ndarray, right: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """(bin centres, share right) over ``bins`` equal-count bins of ``raw``, the shares pooled
    with their neighbours until they never fall (pool adjacent violators), each share with
    one right and one wrong square added (Laplace), so that no bin claims certainty."""
    order = np.argsort(raw)
    groups = [g for g in np.array_split(order, bins) if len(g)]
    blocks = [[float(np.mean(raw[g])), float(np.sum(right[g])), len(g)] for g in groups]
    pooled: list[list[float]] = []
    for block in blocks:
        pooled.append(block)
        while len(pooled) > 1 and pooled[-2][1] / pooled[-2][2] > pooled[-1][1] / pooled[-1][2]:
            last = pooled.pop()
            prev = pooled[-1]
            prev[0] = (prev[0] * prev[2] + last[0] * last[2]) / (prev[2] + last[2])
            prev[1] += last[1]
            prev[2] += last[2]
    merged: list[list[float]] = []
    for block in pooled:  # bins of one probability (the table's top, where raw ties) become one
        if merged and block[0] - merged[-1][0] < 1e-3:
            last = merged[-1]
            last[0] = (last[0] * last[2] + block[0] * block[2]) / (last[2] + block[2])
            last[1] += block[1]
            last[2] += block[2]
        else:
            merged.append(block)
    centres = np.array([b[0] for b in merged])
    shares = np.array([(b[1] + 1) / (b[2] + 2) for b in merged])  # Laplace: no bin claims certainty
    return centres, np.maximum.accumulate(shares)  # smoothing a small bin must not break the order


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", type=Path, nargs="+", help="folders of photos with sidecars")
    parser.add_argument("--bins", type=int, default=8)
    args = parser.parse_args(argv)
    if any("test" in p.parts for p in args.photos):
        raise SystemExit("never calibrate on the test split")
    raw, right_a = decoder_probabilities(args.photos)
    centres, shares = monotone_bins(raw, right_a, args.bins)
    print(f"{len(raw)} squares, {100 * right_a.mean():.2f}% read right")
    print("CONFIDENCE_RAW = (" + ", ".join(f"{c:.3f}" for c in centres) + ")")
    print("CONFIDENCE_RIGHT = (" + ", ".join(f"{s:.3f}" for s in shares) + ")")
    new = reader.lowered_by_table(raw, centres, shares)
    flagged = new < UNSURE
    print(f"with it: mean confidence {100 * new.mean():.2f}%, flagged {100 * flagged.mean():.2f}% of squares, "
          f"{100 * flagged[right_a == 0].mean():.2f}% of the wrong ones")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
