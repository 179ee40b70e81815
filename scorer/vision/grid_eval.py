"""Measure the board finder (stage 2) against labelled photos.

Two kinds of ground truth: ``labels.json`` lists (real photos of chessboards: ``file``,
``corners_px``, ``squares``) and the studio's sidecars (``<photo>.json`` next to each photo with
``checkerboard.corners`` and ``checkerboard.rows/cols``). Corners are compared as sets in
cyclic order, so a board labelled from another side (rotated by a multiple of 90 degrees)
still matches; errors are in squares (px divided by the local square size).

    python -m scorer.vision.grid_eval /work/shared/real_chessboards sample_photos/dev
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from scorer.errors import UserError
from scorer.vision.grid import GridFit, NoBoardFound, find_grid
from scorer.vision.load import load_photo

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif"}
CORRECT_MAX_ERROR = 0.25  # squares: a grid this close reads every square from its centre


def evaluate_grid(fit: GridFit | None, truth_corners, rows: int, cols: int) -> dict:
    """Compare a fit (or None: not found) with the true outer corners of a rows x cols board.

    Returns ``found``, ``size_ok`` (rows/cols equal up to a 90-degree turn), ``mean_error`` and
    ``max_error`` of the 4 corners in squares (best cyclic alignment; None if not found), and
    ``correct`` (found, right size, every corner within CORRECT_MAX_ERROR squares).
    """
    truth = np.asarray(truth_corners, np.float64).reshape(4, 2)
    if fit is None:
        return {"found": False, "size_ok": False, "mean_error": None, "max_error": None, "correct": False}
    found = np.asarray(fit.corners, np.float64).reshape(4, 2)
    # Size of a square near each true corner: mean of the two edges meeting there.
    counts = [cols, rows, cols, rows]  # truth edge k runs from corner k to k+1
    edge_len = [np.hypot(*(truth[(k + 1) % 4] - truth[k])) / counts[k] for k in range(4)]
    edge_len_alt = [np.hypot(*(truth[(k + 1) % 4] - truth[k])) / counts[(k + 1) % 4] for k in range(4)]
    best = None
    for direction in (1, -1):
        for shift in range(4):
            order = [(shift + direction * k) % 4 for k in range(4)]
            gaps = np.hypot(*(found[order] - truth).T)
            if best is None or gaps.mean() < best[0].mean():
                best = (gaps, order)
    gaps = best[0]
    # Rows and cols may be swapped by a turn; use the mean square size over both readings.
    square = np.array(
        [(edge_len[k] + edge_len[k - 1] + edge_len_alt[k] + edge_len_alt[k - 1]) / 4 for k in range(4)]
    )
    errors = gaps / np.maximum(square, 1e-9)
    size_ok = sorted((fit.rows, fit.cols)) == sorted((rows, cols))
    return {
        "found": True,
        "size_ok": bool(size_ok),
        "mean_error": round(float(errors.mean()), 4),
        "max_error": round(float(errors.max()), 4),
        "correct": bool(size_ok and errors.max() <= CORRECT_MAX_ERROR),
        "rows": fit.rows,
        "cols": fit.cols,
        "confidence": fit.confidence,
    }


def labelled_photos(path: Path) -> list[tuple[Path, np.ndarray, int, int]]:
    """(photo, true corners, rows, cols) for a labels.json file, a directory holding one, or a
    directory of studio photos with JSON sidecars."""
    path = Path(path)
    labels = path if path.is_file() else path / "labels.json"
    items = []
    if labels.is_file():
        for entry in json.loads(labels.read_text()):
            squares = entry.get("squares", [8, 8])
            items.append((labels.parent / entry["file"], np.array(entry["corners_px"], float), int(squares[0]), int(squares[1])))
        return items
    for photo in sorted(p for p in path.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES):
        sidecar = photo.with_suffix(".json")
        if not sidecar.is_file():
            continue
        board = json.loads(sidecar.read_text()).get("checkerboard")
        if not board:
            continue
        items.append((photo, np.array(board["corners"], float), int(board["rows"]), int(board["cols"])))
    return items


def evaluate_photos(items) -> tuple[list[dict], dict]:
    """Run the finder on each labelled photo; per-photo rows and a summary."""
    rows = []
    for photo, truth, n_rows, n_cols in items:
        start = time.perf_counter()
        try:
            fit = find_grid(load_photo(photo))
            error = None
        except NoBoardFound as err:
            fit, error = None, str(err)
        except UserError as err:
            fit, error = None, str(err)
        seconds = time.perf_counter() - start
        result = evaluate_grid(fit, truth, n_rows, n_cols)
        result.update(file=photo.name, seconds=round(seconds, 3))
        if error:
            result["error"] = error
        rows.append(result)
    return rows, summarise(rows)


def summarise(rows: list[dict]) -> dict:
    """Found %, correct %, corner error in squares (mean, median, max over found photos)."""
    n = len(rows)
    found = [r for r in rows if r["found"]]
    errors = [r["mean_error"] for r in found]
    worst = [r["max_error"] for r in found]
    return {
        "photos": n,
        "found_pct": round(100.0 * len(found) / n, 1) if n else 0.0,
        "size_ok_pct": round(100.0 * sum(r["size_ok"] for r in rows) / n, 1) if n else 0.0,
        "correct_pct": round(100.0 * sum(r["correct"] for r in rows) / n, 1) if n else 0.0,
        "mean_corner_error": round(statistics.mean(errors), 3) if errors else None,
        "median_corner_error": round(statistics.median(errors), 3) if errors else None,
        "max_corner_error": round(max(worst), 3) if worst else None,
        "median_seconds": round(statistics.median(r["seconds"] for r in rows), 3) if rows else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure the board finder against labelled photos.")
    parser.add_argument("paths", nargs="+", type=Path, help="labels.json, or a directory with labels.json or studio sidecars")
    parser.add_argument("--json", action="store_true", help="print one JSON object per photo and a summary")
    args = parser.parse_args(argv)
    for path in args.paths:
        items = labelled_photos(path)
        rows, summary = evaluate_photos(items)
        if args.json:
            for row in rows:
                print(json.dumps(row))
            print(json.dumps({"summary": str(path), **summary}))
            continue
        print(f"== {path}")
        for r in rows:
            if r["found"]:
                print(
                    f"{r['file']:28s} {r['cols']}x{r['rows']} mean {r['mean_error']:.3f} max {r['max_error']:.3f} "
                    f"sq  {'ok' if r['correct'] else 'WRONG'}  conf {r['confidence']:.2f}  {r['seconds']:.2f}s"
                )
            else:
                print(f"{r['file']:28s} not found: {r.get('error', '')}")
        print(
            f"found {summary['found_pct']}%  right size {summary['size_ok_pct']}%  "
            f"correct (<= {CORRECT_MAX_ERROR} sq) {summary['correct_pct']}%  corner error mean "
            f"{summary['mean_corner_error']} median {summary['median_corner_error']} max "
            f"{summary['max_corner_error']} sq  median {summary['median_seconds']} s/photo ({summary['photos']} photos)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
