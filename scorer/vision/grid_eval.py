"""Measure the board finder (stage 2) against labelled photos.

Two kinds of ground truth: ``labels.json`` lists (real photos of chessboards: ``file``,
``corners_px``, ``squares``) and the studio's sidecars (``<photo>.json`` next to each photo with
``checkerboard.corners`` and ``checkerboard.rows/cols``). Corners are compared as sets in
cyclic order, so a board labelled from another side (rotated by a multiple of 90 degrees)
still matches; errors are in squares (px divided by the local square size).

    python -m scorer.vision.grid_eval /work/shared/real_chessboards sample_photos/dev
    python -m scorer.vision.grid_eval tests/data/real_chessboards --marked 0.25  # corners marked by hand
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from scorer.board import Square
from scorer.errors import UserError
from scorer.files import PHOTO_SUFFIXES
from scorer.reader import READ_LONG_SIDE, find_board_grid, photo_decoder
from scorer.vision.grid import GridFit, NoBoardFound, grid_from_corners
from scorer.vision.load import load_photo_scaled

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


def evaluate_centres(fit: GridFit | None, square_centres: dict, play_area: dict) -> dict:
    """Square-centre error of a fit against a studio sidecar's ``square_centres`` (play-area
    square name -> px) placed on the checkerboard by ``play_area`` (``col``, ``row`` offsets).

    This also checks the orientation convention: a fit whose row 0 or column 0 differs from the
    sidecar's puts the centres on the wrong squares. Returns ``centre_error`` (median) and
    ``centre_error_max`` in squares, None when not found or the play area does not fit.
    """
    empty = {"centre_error": None, "centre_error_max": None}
    if fit is None or not square_centres:
        return empty
    errors = []
    for name, xy in square_centres.items():
        square = Square.parse(name)
        col, row = play_area.get("col", 0) + square.col, play_area.get("row", 0) + square.row
        if not (0 <= col < fit.cols and 0 <= row < fit.rows):
            return empty
        quad = fit.square_quad(col, row)
        side = np.mean(np.hypot(*(np.roll(quad, -1, axis=0) - quad).T))
        errors.append(np.hypot(*(fit.square_centre(col, row) - np.asarray(xy, float))) / side)
    return {"centre_error": round(float(np.median(errors)), 4), "centre_error_max": round(float(np.max(errors)), 4)}


def labelled_photos(path: Path) -> list[tuple[Path, np.ndarray, int, int, dict]]:
    """(photo, true corners, rows, cols, sidecar) for a labels.json file, a directory holding
    one, or a directory of studio photos with JSON sidecars (the sidecar is {} for labels)."""
    path = Path(path)
    labels = path if path.is_file() else path / "labels.json"
    items = []
    if labels.is_file():
        for entry in json.loads(labels.read_text()):
            squares = entry.get("squares", [8, 8])
            items.append((labels.parent / entry["file"], np.array(entry["corners_px"], float), int(squares[0]),
                          int(squares[1]), {}))
        return items
    for photo in sorted(p for p in path.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES):
        sidecar = photo.with_suffix(".json")
        if not sidecar.is_file():
            continue
        truth = json.loads(sidecar.read_text())
        board = truth.get("checkerboard")
        if not board:
            continue
        items.append((photo, np.array(board["corners"], float), int(board["rows"]), int(board["cols"]), truth))
    return items


def marked_by_hand(corners, rows: int, cols: int, rng: np.random.Generator, off: float) -> np.ndarray:
    """True outer corners (clockwise from the top-left, ``cols`` squares along the first edge)
    as a finger might tap them: each moved up to ``off`` of a square in x and in y (the square
    measured along the two edges meeting there), in a random order."""
    corners = np.asarray(corners, np.float64).reshape(4, 2)
    counts = [cols, rows, cols, rows]  # edge k runs from corner k to k + 1
    edges = [np.hypot(*(corners[(k + 1) % 4] - corners[k])) / counts[k] for k in range(4)]
    side = np.array([(edges[k] + edges[k - 1]) / 2 for k in range(4)])
    taps = corners + rng.uniform(-off, off, size=(4, 2)) * side[:, None]
    return taps[rng.permutation(4)]


def evaluate_photos(items, marked: float | None = None, seed: int = 0) -> tuple[list[dict], dict]:
    """Run the finder on each labelled photo; per-photo rows and a summary. ``marked``: fit
    the grid from the true corners as tapped by hand instead (:func:`marked_by_hand`, that
    far off, ``grid.grid_from_corners``)."""
    rng = np.random.default_rng(seed)
    rows = []
    for photo, truth, n_rows, n_cols, sidecar in items:
        start = time.perf_counter()
        try:
            image, photo_px = load_photo_scaled(photo, long_side=READ_LONG_SIDE)  # as the reader loads it
            if marked is None:
                fit = find_board_grid(image, photo_decoder(photo, photo_px))  # as the reader finds it
            else:
                taps = marked_by_hand(truth, n_rows, n_cols, rng, marked)
                fit = grid_from_corners(image, taps / photo_px, n_rows, n_cols)
            fit = fit.scaled(photo_px) if photo_px != 1.0 else fit
            error = None
        except NoBoardFound as err:
            fit, error = None, str(err)
        except UserError as err:
            fit, error = None, str(err)
        seconds = time.perf_counter() - start
        result = evaluate_grid(fit, truth, n_rows, n_cols)
        if sidecar.get("square_centres"):
            result.update(evaluate_centres(fit, sidecar["square_centres"], sidecar.get("play_area", {})))
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
    centres = [r["centre_error"] for r in rows if r.get("centre_error") is not None]
    centre_summary = {}
    if any("centre_error" in r for r in rows):
        centre_summary = {
            "centres_compared_pct": round(100.0 * len(centres) / n, 1) if n else 0.0,
            "median_centre_error": round(statistics.median(centres), 4) if centres else None,
            "max_centre_error": round(max(r["centre_error_max"] for r in rows if r.get("centre_error_max") is not None), 4)
            if centres else None,
        }
    return {
        "photos": n,
        "found_pct": round(100.0 * len(found) / n, 1) if n else 0.0,
        "size_ok_pct": round(100.0 * sum(r["size_ok"] for r in rows) / n, 1) if n else 0.0,
        "correct_pct": round(100.0 * sum(r["correct"] for r in rows) / n, 1) if n else 0.0,
        "mean_corner_error": round(statistics.mean(errors), 3) if errors else None,
        "median_corner_error": round(statistics.median(errors), 3) if errors else None,
        "max_corner_error": round(max(worst), 3) if worst else None,
        "median_seconds": round(statistics.median(r["seconds"] for r in rows), 3) if rows else None,
        **centre_summary,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure the board finder against labelled photos.")
    parser.add_argument("paths", nargs="+", type=Path, help="labels.json, or a directory with labels.json or studio sidecars")
    parser.add_argument("--json", action="store_true", help="print one JSON object per photo and a summary")
    parser.add_argument("--marked", type=float, metavar="OFF",
                        help="measure grids fitted to corners marked by hand instead of the finder's: the true "
                        "corners, each moved up to OFF of a square at random (e.g. 0.25)")
    parser.add_argument("--seed", type=int, default=0, help="random seed of --marked (default 0)")
    args = parser.parse_args(argv)
    for path in args.paths:
        try:
            items = labelled_photos(path)
        except (OSError, ValueError, KeyError, TypeError) as err:  # missing path, not labels JSON
            parser.error(f"{path}: not a labels.json or a folder of photos with sidecars ({type(err).__name__}: {err})")
        rows, summary = evaluate_photos(items, args.marked, args.seed)
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
        if "median_centre_error" in summary:
            print(
                f"play-area square centres (compared on {summary['centres_compared_pct']}% of photos): "
                f"error median {summary['median_centre_error']} max {summary['max_centre_error']} sq"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
