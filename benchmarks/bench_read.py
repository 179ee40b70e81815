"""Speed of the photo reader: median seconds per photo over several runs.

    .venv/bin/python benchmarks/bench_read.py [PHOTO_OR_DIR ...] [--runs 5]

Default photos: sample_photos/full (12 MP studio photos) if present, else the dev split.
Each photo is read ``--runs`` times end to end (decode the file, find the grid, read the
squares, decode the board); the median per photo and the median over photos are printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.reader import read_photo  # noqa: E402
from scorer.vision.grid_eval import PHOTO_SUFFIXES  # noqa: E402
from scorer.vision.load import load_photo  # noqa: E402


def photos_from(args: list[str]) -> list[Path]:
    if not args:
        for default in (ROOT / "sample_photos" / "full", ROOT / "sample_photos" / "dev"):
            if default.is_dir() and any(p.suffix.lower() in PHOTO_SUFFIXES for p in default.iterdir()):
                args = [str(default)]
                break
    photos = []
    for arg in args:
        path = Path(arg)
        if path.is_dir():
            photos += sorted(p for p in path.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        elif path.is_file():
            photos.append(path)
        else:
            sys.exit(f"bench_read: {arg}: no such file or folder")
    return photos


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="*")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--limit", type=int, default=10, help="at most this many photos")
    args = parser.parse_args()
    photos = photos_from(args.photos)[: args.limit]
    if not photos:
        print("no photos found", file=sys.stderr)
        return 2
    medians, cpu_medians = [], []
    for photo in photos:
        image = load_photo(photo)
        times, cpu = [], []
        for _ in range(args.runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            read_photo(photo)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        med = statistics.median(times)
        medians.append(med)
        cpu_medians.append(statistics.median(cpu))
        mp = image.shape[0] * image.shape[1] / 1e6
        print(f"{photo.name}: {image.shape[1]}x{image.shape[0]} ({mp:.1f} MP) median {med:.3f} s wall, "
              f"{cpu_medians[-1]:.3f} s CPU (wall min {min(times):.3f}, max {max(times):.3f}, {args.runs} runs)")
    print(f"median over {len(medians)} photos: {statistics.median(medians):.3f} s wall, "
          f"{statistics.median(cpu_medians):.3f} s CPU per photo (load average now {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
