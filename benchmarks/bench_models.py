"""Speed of the learned square model on each of OpenCV's DNN engines: median milliseconds to
run every network the reader runs (``square_model.MODEL_PATHS``) over one board's views (64
squares and their mirror images).

    .venv/bin/python benchmarks/bench_models.py [PHOTO] [--runs 40]

The views are cut from PHOTO on its sidecar's grid (default: the first dev photo). The
engines take turns, so a busy machine slows them alike; the largest difference between
their outputs is printed too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.vision.evaluate import photos_in, truth_grid_of  # noqa: E402
from scorer.vision.load import load_photo  # noqa: E402
from scorer.vision.patches import square_patches  # noqa: E402
from scorer.vision.square_model import MODEL_PATHS, read_network  # noqa: E402


def engines() -> dict[str, int | None]:
    """OpenCV's DNN engines that can run ONNX here; ``default`` where there is no choice (4.x)."""
    names = {"default": None}
    for name in ("ENGINE_CLASSIC", "ENGINE_NEW"):
        if hasattr(cv2.dnn, name):
            names[name.removeprefix("ENGINE_").lower()] = getattr(cv2.dnn, name)
    return names


def board_views(photo: Path) -> np.ndarray:
    """The model's input for every square of ``photo``'s checkerboard and its mirror image."""
    truth = json.loads(photo.with_suffix(".json").read_text())
    grid = truth_grid_of(truth)
    image = load_photo(photo)
    scale = image.shape[1] / truth["image_size"][0]
    homography = np.diag([scale, scale, 1.0]) @ grid.homography
    views = square_patches(image, homography, grid.rows, grid.cols)
    return np.ascontiguousarray(np.concatenate([views, views[..., ::-1]]).astype(np.float32))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("photo", nargs="?", type=Path, help="a photo with a sidecar (default: the first dev photo)")
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args(argv)
    photo = args.photo or photos_in(ROOT / "sample_photos" / "dev")[0]
    views = board_views(photo)
    nets = {}
    for name, engine in engines().items():
        nets[name] = [read_network(path, engine) for path in MODEL_PATHS]
    outputs, seconds = {}, {name: [] for name in nets}
    for name, copies in nets.items():  # a first run of each, untimed
        outputs[name] = []
        for net in copies:
            net.setInput(views)
            outputs[name].append(net.forward().copy())
    for _ in range(args.runs):
        for name, copies in nets.items():
            start = time.perf_counter()
            for net in copies:
                net.setInput(views)
                net.forward()
            seconds[name].append(time.perf_counter() - start)
    print(f"{photo.name}: {len(views)} views, {len(MODEL_PATHS)} networks, median of {args.runs} runs")
    first = next(iter(outputs))
    for name in nets:
        gap = max(float(np.abs(a - b).max()) for a, b in zip(outputs[name], outputs[first]))
        print(f"  {name:8s} {1000 * statistics.median(seconds[name]):6.1f} ms   largest difference from {first}: {gap:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
