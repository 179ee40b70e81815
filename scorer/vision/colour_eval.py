"""Measure the colour stage alone against the studio's sidecars (chesscog style).

For each photo with a sidecar, the reader's own square stage runs on the TRUE grid, and the
colour samples of the squares that truly hold pyramids (true occupancy, whatever the square
reader said) go through :func:`scorer.vision.colours.colour_groups_for` as the reader calls
it. The numbers: grouping (pieces in the group matched to their true colour, best one-to-one
matching of groups to colours), naming (groups named as the colour matched to them), piece
colour (the name a piece gets is its true colour), the group count, and the confusions,
overall and per board kind and per light.

``python -m scorer.vision.colour_eval DIR... [--half even|odd] [--cache DIR]``
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy.optimize import linear_sum_assignment

from scorer.board import STANDARD_TRIOS, THREEHOUSE_TRIOS, Board, Piece, setup_of_area, setups_for_size
from scorer.vision.colours import ColourGroups, colour_groups_for
from scorer.vision.evaluate import load_truth, photos_in, truth_grid_of
from scorer.vision.lighting import glared_squares


@dataclass
class ColourResult:
    """One photo's colour stage against the truth."""

    file: str
    kind: str  # board kind (and bandanna style)
    light: str
    true_colours: list[str]  # per pyramid
    read_colours: list[str]  # the name its group got
    grouped_right: int  # pieces in the group matched to their true colour
    groups_named_right: int
    groups: int
    players: int
    unsampled: int = 0  # true pyramids with no colour sample at all (counted wrong)
    probs_of_truth: list[float] = field(default_factory=list)  # P(true colour) per piece
    seconds: float = 0.0

    @property
    def pieces(self) -> int:
        return len(self.true_colours)

    @property
    def right(self) -> int:
        return sum(t == r for t, r in zip(self.true_colours, self.read_colours))


def square_stage(photo: Path):
    """The reader's squares (``SquaresResult``) for ``photo`` read on its true grid, and the
    sidecar; None for the squares when the reader's square stage failed."""
    from scorer.reader import READ_LONG_SIDE, read_image
    from scorer.vision.load import load_photo_scaled

    truth, grid, _ = load_truth(photo)
    image, k = load_photo_scaled(photo, long_side=READ_LONG_SIDE)
    reading = read_image(image, grid=grid.scaled(1.0 / k) if k != 1.0 else grid,
                         threehouse=bool(truth.get("threehouse", False)), file=str(photo))
    return reading.squares, truth


def true_pyramids(truth: dict, grid=None) -> dict[tuple[int, int], str]:
    """(col, row) on the true grid -> colour name, for every pyramid on the board. With the
    grid, each piece's square comes from where the sidecar says its base is in the photo
    (``pieces``' ``base_px``), which does not depend on which way round the grid is numbered;
    without one (or without ``pieces``), from the board notation and the play area."""
    if grid is not None and truth.get("pieces"):
        inverse = np.linalg.inv(grid.homography)
        out = {}
        for item in truth["pieces"]:
            p = inverse @ np.array([item["base_px"][0], item["base_px"][1], 1.0])
            out[(int(np.floor(p[0] / p[2])), int(np.floor(p[1] / p[2])))] = Piece.from_symbol(item["piece"]).colour
        return out
    board = Board.from_text(truth["board"])
    area = truth["play_area"]
    out = {}
    for sq in board.squares():
        content = board[sq]
        if isinstance(content, Piece):
            out[(sq.col + area["col"], sq.row + area["row"])] = content.colour
    return out


def group_settings(truth: dict, n_pieces: int) -> dict:
    """The players / per_player / choices the reader would pass for this board when its
    earlier stages are right (true play area and parks: ``setup_of_area``)."""
    area = truth["play_area"]
    threehouse = bool(truth.get("threehouse", False))
    trios = THREEHOUSE_TRIOS if threehouse else STANDARD_TRIOS
    board = Board.from_text(truth["board"])
    full = not board.empty_squares()
    rows, cols = int(area["rows"]), int(area["cols"])
    fitting = setups_for_size(rows, cols, threehouse)
    players = int(truth["players"])
    parks = len(board.parks())
    known = setup_of_area(rows, cols, threehouse, None, parks, rows * cols - parks if full else None) is not None
    return {"players": players if known and n_pieces >= 2 * players else None,
            "per_player": 3 * trios if full else None,
            "choices": sorted({s.players for s in fitting}) or [2, 3, 4]}


def fill_samples(squares, squares_with_pieces) -> int:
    """Give each true pyramid the reader would have missed a colour sample from just above
    its base (as the reader does for a square it later calls a pyramid); returns how many
    are still without one."""
    from scorer.vision.square_model import colour_above_base

    missing = 0
    for c, r in squares_with_pieces:
        reading = squares.readings[(c, r)]
        if reading.colour_lab is None:
            reading.colour_lab = colour_above_base(squares.evidence, squares.camera, c, r)
        missing += reading.colour_lab is None
    return missing


def best_matching(true: list[str], labels: np.ndarray, k: int) -> dict[int, str]:
    """Group index -> true colour, the one-to-one matching covering the most pieces."""
    colours = sorted(set(true))
    counts = np.zeros((k, len(colours)))
    for t, g in zip(true, labels):
        counts[g, colours.index(t)] += 1
    if k <= len(colours):
        cols = linear_sum_assignment(-counts)[1]
        return {g: colours[cols[g]] for g in range(k)}
    rows = linear_sum_assignment(-counts.T)[1]  # more groups than colours: each colour gets one group
    return {int(rows[j]): colours[j] for j in range(len(colours))}


def score_photo(file: str, truth: dict, squares, groups_for=colour_groups_for) -> ColourResult:
    """Run the colour stage on the true pyramids of one photo's squares and compare."""
    scene = truth.get("scene", {})
    board_scene = scene.get("board", {})
    kind = board_scene.get("kind", "?")
    style = (board_scene.get("style") or {}).get("variant")
    kind = f"{kind}/{style}" if style else kind
    light = scene.get("light_setup", "?")
    pieces = true_pyramids(truth, truth_grid_of(truth))
    keys = sorted(pieces)
    missing = fill_samples(squares, keys)
    sampled = [sq for sq in keys if squares.readings[sq].colour_lab is not None]
    hidden = [sq for sq in keys if squares.readings[sq].colour_lab is None]
    true = [pieces[sq] for sq in sampled]
    start = time.perf_counter()
    groups: ColourGroups = groups_for(squares, sampled, **group_settings(truth, len(sampled)),
                                      washed_out=glared_squares(squares.appearance),
                                      hidden=hidden)
    seconds = time.perf_counter() - start
    k = len(groups.names)
    matched = best_matching(true, groups.labels, k) if k else {}
    read = [groups.names[g] for g in groups.labels]
    grouped_right = sum(matched.get(int(g)) == t for g, t in zip(groups.labels, true))
    named_right = sum(groups.names[g] == matched.get(g) for g in range(k))
    p_truth = []
    for i, t in enumerate(true):
        p = sum(groups.probs[i, g] * (groups.name_odds[g].get(t, 0.0) if groups.name_odds else float(groups.names[g] == t))
                for g in range(k))
        p_truth.append(float(p))
    true_all = true + [pieces[sq] for sq in hidden]
    read_all = read + ["none"] * missing
    return ColourResult(file=file, kind=kind, light=light, true_colours=true_all, read_colours=read_all,
                        grouped_right=grouped_right, groups_named_right=named_right, groups=k,
                        players=len(set(pieces.values())), unsampled=missing, probs_of_truth=p_truth,
                        seconds=seconds)


def load_squares(photo: Path, cache: Path | None):
    """:func:`square_stage`, kept in ``cache`` (a folder) between runs when given."""
    if cache is not None:
        path = cache / (photo.stem + ".pkl")
        if path.exists():
            with path.open("rb") as f:
                return pickle.load(f)
    squares, truth = square_stage(photo)
    if cache is not None and squares is not None:
        cache.mkdir(parents=True, exist_ok=True)
        with (cache / (photo.stem + ".pkl")).open("wb") as f:
            pickle.dump((squares, truth), f)
    return squares, truth


def evaluate_colours(photos: list[Path], *, cache: Path | None = None, groups_for=colour_groups_for) -> list[ColourResult]:
    """The colour stage on each photo (see the module's docstring); photos whose square
    stage failed are left out and reported on stderr."""
    results = []
    for photo in photos:
        squares, truth = load_squares(photo, cache)
        if squares is None:
            print(f"{photo}: the square stage failed; left out", file=sys.stderr)
            continue
        results.append(score_photo(str(photo), truth, squares, groups_for))
    return results


def summarise(results: list[ColourResult]) -> dict:
    """Totals over photos: piece, grouping and naming accuracy, group count, confusions."""
    pieces = sum(r.pieces for r in results)
    groups = sum(r.groups for r in results)
    confusion = Counter((t, g) for r in results for t, g in zip(r.true_colours, r.read_colours) if t != g)
    p = [x for r in results for x in r.probs_of_truth]
    return {
        "photos": len(results),
        "pieces": pieces,
        "piece_accuracy": sum(r.right for r in results) / pieces if pieces else None,
        "grouping_accuracy": sum(r.grouped_right for r in results) / pieces if pieces else None,
        "naming_accuracy": sum(r.groups_named_right for r in results) / groups if groups else None,
        "group_count_right": sum(r.groups == r.players for r in results) / len(results) if results else None,
        "photos_all_right": sum(r.right == r.pieces for r in results) / len(results) if results else None,
        "mean_p_truth": float(np.mean(p)) if p else None,
        "log_loss": float(-np.mean(np.log(np.clip(p, 1e-4, 1.0)))) if p else None,
        "unsampled": sum(r.unsampled for r in results),
        "confusion": {f"{t}->{g}": n for (t, g), n in confusion.most_common()},
        "median_ms": float(np.median([r.seconds for r in results]) * 1000) if results else None,
    }


def format_report(results: list[ColourResult], title: str) -> str:
    """Readable totals, then per board kind and per light."""
    def pct(x):
        return "n/a" if x is None else f"{100 * x:.1f}%"

    def line(name, rs):
        s = summarise(rs)
        return (f"  {name:<24} photos {s['photos']:>3} pieces {s['pieces']:>4}  piece {pct(s['piece_accuracy']):>6}"
                f"  grouping {pct(s['grouping_accuracy']):>6}  naming {pct(s['naming_accuracy']):>6}"
                f"  count {pct(s['group_count_right']):>6}  all-right {pct(s['photos_all_right']):>6}")

    s = summarise(results)
    out = [f"{title}", line("all", results),
           f"  P(true colour) mean {s['mean_p_truth']:.3f}, log loss {s['log_loss']:.3f}; "
           f"unsampled pieces {s['unsampled']}; colour stage median {s['median_ms']:.1f} ms"
           if results else "  no photos"]
    for key in ("kind", "light"):
        out.append(f"  by {key}:")
        for value in sorted({getattr(r, key) for r in results}):
            out.append("  " + line(value, [r for r in results if getattr(r, key) == value]))
    out.append("  confusions (true->read): " + (", ".join(f"{k} {v}" for k, v in s.get("confusion", {}).items()) or "none"))
    bad = [r for r in results if r.right < r.pieces]
    for r in bad:
        wrong = Counter(f"{t}->{g}" for t, g in zip(r.true_colours, r.read_colours) if t != g)
        out.append(f"    {Path(r.file).name}: {r.kind}, {r.light}: {r.pieces - r.right}/{r.pieces} wrong "
                   f"({', '.join(f'{k} {v}' for k, v in wrong.items())})")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure the colour stage alone (true grid, true occupancy).")
    parser.add_argument("dirs", nargs="+", type=Path, help="folders of photos with studio sidecars")
    parser.add_argument("--half", choices=("even", "odd", "both"), default="both",
                        help="only the even- or odd-indexed photos of each folder (sorted by name), or both halves apart")
    parser.add_argument("--cache", type=Path, help="keep the square stage's output here between runs "
                        "(made by the code of its day: empty it after changing the square stage)")
    parser.add_argument("--json", action="store_true", help="print the summaries as JSON")
    args = parser.parse_args(argv)
    for d in args.dirs:
        if not d.is_dir():
            parser.error(f"{d}: not a folder")
        photos = photos_in(d)
        halves = {"even": photos[0::2], "odd": photos[1::2]}
        chosen = [args.half] if args.half != "both" else ["even", "odd"]
        for half in chosen:
            results = evaluate_colours(halves[half], cache=args.cache / d.name if args.cache else None)
            title = f"{d} ({half}-indexed photos)"
            if args.json:
                print(json.dumps({"title": title, **summarise(results)}))
            else:
                print(format_report(results, title))
    return 0


if __name__ == "__main__":
    sys.exit(main())
