"""Speed of stages 1-2 of the photo reader (load a photo, find the grid) on 12 MP photos.

    .venv/bin/python benchmarks/bench_grid.py [PHOTO_OR_DIR ...] [--runs 7]

Default photos: sample_photos/full (12 MP studio photos) if present; otherwise the real
chessboard photos in tests/data/real_chessboards, enlarged to 12 MP JPEGs in a temporary
folder (the same pixels a phone would hand us, only bigger). Each photo is timed ``--runs``
times: ``load_photo`` at full size, ``find_grid`` on that, their sum, and ``load_photo`` straight
to the grid finder's working size (``long_side=1280``: a JPEG is decoded at a reduced scale)
plus ``find_grid``. Prints medians per photo and over photos, wall clock and this process's
CPU time (on a shared machine CPU time is the steadier number).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.vision.grid import WORKING_LONG_SIDE, NoBoardFound, find_grid  # noqa: E402
from scorer.vision.grid_eval import PHOTO_SUFFIXES  # noqa: E402
from scorer.vision.load import load_photo  # noqa: E402

TWELVE_MP = 12_000_000


def default_photos(workdir: Path) -> list[Path]:
    full = ROOT / "sample_photos" / "full"
    if full.is_dir():
        photos = sorted(p for p in full.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        if photos:
            return photos
    photos = []
    for source in sorted((ROOT / "tests" / "data" / "real_chessboards").glob("*.jpg")):
        image = cv2.imread(str(source))
        height, width = image.shape[:2]
        scale = (TWELVE_MP / (height * width)) ** 0.5
        big = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_CUBIC)
        target = workdir / source.name
        cv2.imwrite(str(target), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
        photos.append(target)
    return photos


def timed(func):
    wall, cpu = time.perf_counter(), time.process_time()
    result = func()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _find(image) -> tuple[float, float]:
    try:
        _, wall, cpu = timed(lambda: find_grid(image))
    except NoBoardFound:
        return float("nan"), float("nan")
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        photos = []
        for path in args.photos:
            photos += sorted(p for p in path.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES) if path.is_dir() else [path]
        photos = photos or default_photos(Path(tmp))
        columns = ("load", "find_grid", "load+find", "load@1280+find")
        per_photo = {name: [] for name in columns}
        print(f"{'photo':24s} {'pixels':>10s}  " + "  ".join(f"{c:>16s}" for c in columns))
        for photo in photos:
            runs = {name: [] for name in columns}
            for _ in range(args.runs):
                image, wall_l, cpu_l = timed(lambda: load_photo(photo))
                wall_f, cpu_f = _find(image)
                small, wall_s, cpu_s = timed(lambda: load_photo(photo, long_side=WORKING_LONG_SIDE))
                wall_g, cpu_g = _find(small)
                runs["load"].append((wall_l, cpu_l))
                runs["find_grid"].append((wall_f, cpu_f))
                runs["load+find"].append((wall_l + wall_f, cpu_l + cpu_f))
                runs["load@1280+find"].append((wall_s + wall_g, cpu_s + cpu_g))
            medians = {name: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r)) for name, r in runs.items()}
            for name in columns:
                per_photo[name].append(medians[name])
            print(
                f"{photo.name:24s} {image.shape[0] * image.shape[1]:>10,d}  "
                + "  ".join(f"{medians[c][0]:7.3f}s ({medians[c][1]:5.3f})" for c in columns)
            )
        print(
            f"{'median over photos':24s} {'':>10s}  "
            + "  ".join(
                f"{statistics.median(w for w, _ in per_photo[c]):7.3f}s ({statistics.median(p for _, p in per_photo[c]):5.3f})"
                for c in columns
            )
        )
        print("wall seconds (CPU seconds of this process); medians of", args.runs, "runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
