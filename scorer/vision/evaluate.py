"""Measure the whole photo reader against the studio's ground-truth sidecars, stage by stage.

For each photo with a ``<photo>.json`` sidecar (``board``, ``play_area``, ``checkerboard``):
the grid (found, corner error in squares, via ``grid_eval``; when the photo cuts the
checkerboard, right if it lies on the true squares and spans the play area), then every square of the
checkerboard compared through the image (a true square's centre is projected into the photo
and looked up on the read board, so a grid found from another side still compares), split by
the true class (empty, park, each size) plus colour on pyramids; whole boards exactly right or
within one mistake, the first failing stage per board, and seconds per photo.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from scorer.board import COLOURS, MAX_SIZE, MIN_SIZE, PARK, Board, Piece, Square, recoloured_content
from scorer.errors import UserError
from scorer.scoring import score_board
from scorer.vision.grid import GridFit
from scorer.files import PHOTO_SUFFIXES, read_at_most
from scorer.vision.grid_eval import CORRECT_MAX_ERROR, evaluate_grid
from scorer.vision.lattice import project
from scorer.vision.decode import UNSURE
from scorer.vision.load import PhotoError, load_photo_scaled

CLASSES = ("empty", "park", "1", "2", "3")
MAX_CORNER_PX = 1e6  # a sidecar's corner further out than this is no point in a photo


def truth_grid(rows: int, cols: int, corners) -> GridFit:
    """A GridFit from a sidecar's outer corners, oriented like ``find_grid``: row 0 along the
    edge whose midpoint is lowest in the image, column 0 at its left seen from that edge."""
    pts = np.asarray(corners, np.float64).reshape(4, 2)  # clockwise on screen
    mids = [(pts[k] + pts[(k + 1) % 4]) / 2 for k in range(4)]
    k = int(np.argmax([m[1] for m in mids]))
    # Walking clockwise on screen along the bottom edge goes right to left seen from it.
    origin, along, far, up = pts[(k + 1) % 4], pts[k], pts[(k - 1) % 4], pts[(k + 2) % 4]
    if k % 2 == 1:  # the bottom edge is a "rows" edge of the sidecar's board: a quarter turn
        rows, cols = cols, rows
    board = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64)
    H, _ = cv2.findHomography(board, np.array([origin, along, far, up]), 0)
    H = H / H[2, 2]
    grid = np.empty((rows + 1, cols + 1, 2))
    for r in range(rows + 1):
        for c in range(cols + 1):
            p = H @ np.array([c, r, 1.0])
            grid[r, c] = p[:2] / p[2]
    return GridFit(rows=rows, cols=cols, corners=pts, homography=H, intersections=grid, confidence=1.0)


def truth_grid_of(truth: dict) -> GridFit:
    """The sidecar's grid in the frame of its ``board`` and ``play_area``: the studio orients by
    the play area's lowest edge, which on a board turned near 45 degrees can differ from the
    whole checkerboard's (``truth_grid``). The turn that puts most pieces' bases (``pieces``'
    ``base_px``) on their own squares decides; without pieces, the play area's lowest edge."""
    checker = truth["checkerboard"]
    base = truth_grid(int(checker["rows"]), int(checker["cols"]), checker["corners"])
    area = truth["play_area"]
    rect = (int(area["col"]), int(area["row"]), int(area["cols"]), int(area["rows"]))

    def agreement(grid: GridFit) -> tuple[int, bool]:
        on_square = 0
        for piece in truth.get("pieces", []):
            square = Square.parse(piece["square"])
            col, row = square.col + rect[0], square.row + rect[1]
            x, y = _board_point(grid.homography, np.asarray(piece["base_px"], np.float64))
            on_square += int(np.floor(x)) == col and int(np.floor(y)) == row
        return on_square, grid.bottom_turns(*rect) == 0

    turns = [base.turned(k) for k in range(4)]
    fits = [k for k in range(4) if rect[0] + rect[2] <= turns[k].cols and rect[1] + rect[3] <= turns[k].rows]
    return turns[max(fits or [0], key=lambda k: agreement(turns[k]))]


def covers_play_area(fit: GridFit, truth: GridFit, area: dict) -> bool:
    """Whether a grid found on part of a checkerboard (a photo cut inside the board's edges)
    lies on the true grid ``truth`` and spans the whole play area ``area``: 9 in 10 of its
    intersections within CORRECT_MAX_ERROR squares of a true one, neighbouring ones one
    true square apart, and those on the true grid reaching every edge of the play area."""
    board = project(np.linalg.inv(truth.homography), fit.intersections.reshape(-1, 2))
    board = board.reshape(fit.intersections.shape)
    nearest = np.round(board)
    on_grid = np.hypot(*np.moveaxis(board - nearest, -1, 0)) <= CORRECT_MAX_ERROR
    if on_grid.mean() < 0.9:
        return False
    for axis in (0, 1):  # neighbours along the found rows and columns: one true square apart
        step = np.abs(np.diff(nearest, axis=axis)).sum(axis=-1)
        both = on_grid[1:] & on_grid[:-1] if axis == 0 else on_grid[:, 1:] & on_grid[:, :-1]
        if (step[both] != 1).any():
            return False
    low, high = nearest[on_grid].min(axis=0), nearest[on_grid].max(axis=0)
    return bool(low[0] <= area["col"] and low[1] <= area["row"]
                and high[0] >= area["col"] + area["cols"] and high[1] >= area["row"] + area["rows"])


def framed_on_play_area(image: np.ndarray, truth: dict, margin: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    """The photo as a player framing only the play area would take it: turned so that the
    play area's bottom edge is level, and cut ``margin`` squares outside the play area (the
    sidecar ``truth`` says where it is). Returns the new photo and the 2x3 affine map from
    the old photo's px to the new one's."""
    grid, area = truth_grid_of(truth), truth["play_area"]
    frame = grid.outline(area["col"] - margin, area["row"] - margin, area["cols"] + 2 * margin, area["rows"] + 2 * margin)
    height, width = image.shape[:2]
    dx, dy = frame[1] - frame[0]
    level = cv2.getRotationMatrix2D((width / 2, height / 2), float(np.degrees(np.arctan2(dy, dx))), 1.0)
    turned = cv2.warpAffine(image, level, (width, height), borderMode=cv2.BORDER_REPLICATE)
    framed = cv2.transform(frame[None], level)[0]
    x0, y0 = np.maximum(np.floor(framed.min(axis=0)), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(framed.max(axis=0)), [width, height]).astype(int)
    level[:, 2] -= [x0, y0]
    return np.ascontiguousarray(turned[y0:y1, x0:x1]), level


def _class_of(content) -> str:
    if content is None:
        return "empty"
    if content is PARK:
        return "park"
    return str(content.pips)


def _board_point(H: np.ndarray, xy) -> np.ndarray:
    p = np.linalg.inv(H) @ np.array([xy[0], xy[1], 1.0])
    return p[:2] / p[2]


class SquareOutcome(NamedTuple):
    """One square of the checkerboard as read, against its sidecar."""

    truth_class: str  # CLASSES
    in_play: bool
    right: bool
    colour_right: bool | None  # a pyramid's colour read right (None: no pyramid there)
    read_class: str
    confidence: float | None  # the reading's, None where nothing was read there
    mixup: tuple[str, str] | None = None  # (true colour, colour read) of a pyramid read as one of another colour
    colour: str | None = None  # the true pyramid's colour (None: no pyramid there)


@dataclass
class PhotoResult:
    file: str
    seconds: float
    grid: dict
    squares: list[SquareOutcome] = field(default_factory=list)
    wrong: int = 0
    wrong_in_play: int = 0
    failure: str | None = None  # first failing stage, None when the board is exactly right
    warnings: list[str] = field(default_factory=list)
    stash: tuple[bool, bool] | None = None  # when inferred: (right, warned of a close call)
    fixes: int | None = None  # web-page corrections to a right board (None: no grid, a wrong one or a wrong stash)
    score_right: bool = False  # each player's total as the true board's, a colour's name aside


def sidecar_for(photo: Path) -> Path | None:
    side = photo.with_suffix(".json")
    return side if side.exists() else None


def photos_in(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES and sidecar_for(p))


MAX_SIDECAR_BYTES = 10_000_000  # a studio sidecar is about 10 kB


def load_truth(photo: Path) -> tuple[dict, GridFit, Board]:
    """The photo's studio sidecar, its checkerboard's grid and its board; a one-line
    UserError naming the sidecar when it is not one."""
    sidecar = sidecar_for(photo)
    try:
        if not sidecar.is_file():  # a folder, or a pipe that would wait for a writer
            raise ValueError("it is not a regular file")
        data = read_at_most(sidecar, MAX_SIDECAR_BYTES)
        if len(data) > MAX_SIDECAR_BYTES:
            raise ValueError(f"it is over {MAX_SIDECAR_BYTES:,} bytes")
        truth = json.loads(data.decode("utf-8"))
        if not isinstance(truth, dict):
            raise ValueError("it is not a JSON object")
        area = truth["play_area"]
        for key in ("row", "col", "rows", "cols"):
            area[key] = int(area[key])
        board = Board.from_text(truth["board"])
        if (board.cols, board.rows) != (area["cols"], area["rows"]):
            raise ValueError(f"its board is {board.cols}x{board.rows} squares, its play area {area['cols']}x{area['rows']}")
        checker = truth["checkerboard"]
        for key in ("rows", "cols"):
            if not MIN_SIZE <= int(checker[key]) <= MAX_SIZE:
                raise ValueError(f"its checkerboard has {checker[key]} {key}, not {MIN_SIZE}..{MAX_SIZE}")
        try:
            corners = np.asarray(checker["corners"], np.float64)
        except (ValueError, TypeError):
            corners = np.empty(0)
        if corners.shape != (4, 2) or not np.isfinite(corners).all() or np.abs(corners).max() > MAX_CORNER_PX:
            raise ValueError("its checkerboard corners are not four [x, y] points in a photo")
        if abs(cv2.contourArea(corners.astype(np.float32))) < 1.0:
            raise ValueError("its checkerboard corners enclose no area")
        colours = truth.get("colours", [])
        if not isinstance(colours, list) or not all(isinstance(c, str) and c in COLOURS for c in colours):
            raise ValueError(f"its colours are not colour names: {str(colours)[:60]}")
        if len(set(colours)) < len(colours) or len(colours) == 1 or len(colours) > 4:
            raise ValueError(f"its colours are not 2 to 4 different players' colours: {str(colours)[:60]}")
        players, threehouse = truth.get("players"), truth.get("threehouse", False)
        if players is not None and (type(players) is not int or not 2 <= players <= 4):
            raise ValueError(f"its players are not 2, 3 or 4: {str(players)[:20]}")
        if players is not None and colours and len(colours) != players:
            raise ValueError(f"it names {len(colours)} colours for {players} players")
        if type(threehouse) is not bool:
            raise ValueError(f"its threehouse is not true or false: {str(threehouse)[:20]}")
        if not (0 <= area["col"] <= int(checker["cols"]) - area["cols"] and 0 <= area["row"] <= int(checker["rows"]) - area["rows"]):
            raise ValueError("its play area runs off its checkerboard")
        return truth, truth_grid_of(truth), board
    except (ValueError, KeyError, TypeError, IndexError, OverflowError, RecursionError, OSError) as err:
        # JSON, UTF-8, notation and schema alike; a folder or an unreadable file by the name
        detail = " ".join(str(err).split())[:120] or type(err).__name__
        raise UserError(f"{sidecar}: not a studio sidecar ({type(err).__name__}: {detail})") from None


def evaluate_photo(photo: Path, *, use_true_grid: bool = False, hints: bool = False,
                   infer_stash: bool = False, colours_given: bool = False) -> PhotoResult:
    """Read one photo and compare it with its sidecar (``colours_given``: the reader told the
    players' colours, the sidecar's ``colours``, as a player would tell them)."""
    from scorer.reader import photo_decoder, read_image

    truth, t_grid, t_board = load_truth(photo)
    checker, area = truth["checkerboard"], truth["play_area"]
    t_rows, t_cols = int(checker["rows"]), int(checker["cols"])
    start = time.perf_counter()
    from scorer.reader import READ_LONG_SIDE

    kwargs = {"threehouse": None if infer_stash else bool(truth.get("threehouse", False))}
    if hints:
        kwargs["players"] = truth.get("players")
    if colours_given:
        kwargs["colours"] = truth.get("colours") or None  # (a sidecar naming none: nothing told)
    try:
        image, k = load_photo_scaled(photo, long_side=READ_LONG_SIDE)  # as read_photo reads it; photo px per read px
        reading = read_image(image, grid=t_grid.scaled(1.0 / k) if use_true_grid else None, file=str(photo),
                             finer=photo_decoder(photo, k), **kwargs)
        k *= reading.photo_scale  # a small board is read from the photo decoded larger
        image = reading.image
    except UserError as err:
        # A photo that cannot be loaded, or no board found: every square of it counts as misread.
        seconds = time.perf_counter() - start
        result = PhotoResult(str(photo), seconds, evaluate_grid(None, checker["corners"], t_rows, t_cols),
                             failure="load" if isinstance(err, PhotoError) else "grid", warnings=[str(err)])
        for r in range(t_rows):
            for c in range(t_cols):
                in_play = (area["row"] <= r < area["row"] + int(area["rows"])
                           and area["col"] <= c < area["col"] + int(area["cols"]))
                content = t_board[Square(c - area["col"], r - area["row"])] if in_play else None
                result.squares.append(SquareOutcome(_class_of(content), in_play, False,
                                                    False if isinstance(content, Piece) else None, "none", None,
                                                    colour=content.colour if isinstance(content, Piece) else None))
                result.wrong += 1
                result.wrong_in_play += in_play
        return result
    seconds = time.perf_counter() - start
    grid = reading.grid.scaled(k) if k != 1.0 else reading.grid  # in photo px, like the sidecar
    result = PhotoResult(str(photo), seconds, evaluate_grid(grid, checker["corners"], t_rows, t_cols),
                         warnings=list(reading.warnings))
    if infer_stash and reading.threehouse is not None:
        result.stash = (reading.threehouse == bool(truth.get("threehouse", False)), reading.stash_unsure)
    corners = np.asarray(checker["corners"], np.float64)
    cut_off = ((corners < 0) | (corners > [image.shape[1] * k, image.shape[0] * k])).any()
    if not result.grid["correct"] and cut_off:  # only part of the checkerboard is in the photo
        result.grid["correct"] = covers_play_area(grid, t_grid, area)
    # Truth squares in the sidecar's orientation (row 0 nearest the image bottom), compared
    # through the image so that a grid read from another side still lines up.
    t_area_rows, t_area_cols = int(area["rows"]), int(area["cols"])
    read_board, play = reading.board, reading.play_area
    confidence = {cell.cell: cell.confidence for cell in reading.cells}
    stages = []  # first failing stage of each wrong square
    on_read_board: dict[str, tuple] = {}  # read cell name -> (truth, read), for true squares on the read board
    off_read_board = 0  # wrong squares that land off it (each a square to set by hand)
    for r in range(t_grid.rows):
        for c in range(t_grid.cols):
            in_play = area["row"] <= r < area["row"] + t_area_rows and area["col"] <= c < area["col"] + t_area_cols
            content = t_board[Square(c - area["col"], r - area["row"])] if in_play else None
            p = t_grid.homography @ np.array([c + 0.5, r + 0.5, 1.0])
            xy = p[:2] / p[2]
            got, got_in_play, confidence_read = None, False, None
            if read_board is not None and play is not None:
                bx, by = _board_point(grid.homography, xy)
                gc, gr = int(np.floor(bx)) - play.col, int(np.floor(by)) - play.row
                if 0 <= gc < read_board.cols and 0 <= gr < read_board.rows:
                    got, got_in_play = read_board[Square(gc, gr)], True
                    confidence_read = confidence.get(Square(gc, gr).name, 1.0)
            cls, got_cls = _class_of(content), _class_of(got)
            right = got == content
            if got_in_play:
                on_read_board[Square(gc, gr).name] = (content, got)
            elif not right:
                off_read_board += 1
            colour_right, mixup = None, None
            if isinstance(content, Piece):
                colour_right = isinstance(got, Piece) and got.colour == content.colour
                if isinstance(got, Piece) and not colour_right:
                    mixup = (content.colour, got.colour)
            result.squares.append(SquareOutcome(cls, in_play, right, colour_right, got_cls, confidence_read, mixup,
                                                content.colour if isinstance(content, Piece) else None))
            if right:
                continue
            result.wrong += 1
            result.wrong_in_play += in_play
            if in_play != got_in_play:
                stages.append(0)
            elif cls in ("empty", "park") or got_cls in ("empty", "park"):
                stages.append(1)
            elif cls != got_cls:
                stages.append(2)
            else:
                stages.append(3)
    if result.grid["correct"] and (result.stash is None or result.stash[0]):  # a wrong stash: read again
        result.fixes = fixes_to_right(on_read_board) + off_read_board
    if result.grid["correct"] and read_board is not None and off_read_board == 0:
        result.score_right = scores_alike(t_board, read_board, on_read_board)
    if not result.grid["correct"]:
        result.failure = "grid"
    elif reading.failed_stage:
        result.failure = reading.failed_stage
    elif stages and result.stash is not None and not result.stash[0]:
        result.failure = "stash"
    elif stages:
        result.failure = ("play area", "squares", "size", "colour")[min(stages)]
    return result


def _recoloured(read: dict[str, object], old: str, new: str) -> dict[str, object]:
    """``read`` (cell name -> content) with every ``old`` piece made ``new`` and every
    ``new`` one ``old``: a player's colour changed on the web page's score card."""
    swap = {old: new, new: old}
    return {cell: recoloured_content(got, swap) for cell, got in read.items()}


def fixes_to_right(cells: dict[str, tuple]) -> int:
    """The corrections a player makes on the web page to turn a reading into the true board,
    ``cells`` mapping each read cell name to (truth, read): one per colour changed for all its
    pieces at once (an unsure group's one-tap rename, or a player's colour on the score card),
    made while one rights more squares than it wrongs, the best first; then one per square
    still wrong."""
    truth = {cell: want for cell, (want, _) in cells.items()}
    read = {cell: got for cell, (_, got) in cells.items()}

    def right(board):
        return sum(board[c] == truth[c] for c in truth)

    fixes = 0
    while True:
        on_board = {got.colour for got in read.values() if isinstance(got, Piece)}
        options = [_recoloured(read, old, new) for old in sorted(on_board) for new in COLOURS if new != old]
        best = max(options, key=right, default=read)
        if right(best) <= right(read):
            return fixes + len(truth) - right(read)
        read, fixes = best, fixes + 1


def scores_alike(truth: Board, read: Board, cells: dict[str, tuple]) -> bool:
    """Whether ``read`` scores as ``truth`` does: every player's total the same, a colour's
    name aside. Each colour read stands for the true colour most of its pyramids are (``cells``:
    read cell name -> (truth, read)); two colours read as one player, or one player read as
    two, score differently."""
    votes = Counter((got.colour, want.colour) for want, got in cells.values()
                    if isinstance(want, Piece) and isinstance(got, Piece))
    player_of: dict[str, str] = {}
    for (colour_read, colour), _ in votes.most_common():
        player_of.setdefault(colour_read, colour)
    totals_read: dict[str, int] = {}
    for colour_read, score in score_board(read).players.items():
        player = player_of.get(colour_read, colour_read)
        if player in totals_read:
            return False
        totals_read[player] = score.total
    return totals_read == {colour: score.total for colour, score in score_board(truth).players.items()}


def summarise(results: list[PhotoResult]) -> dict:
    """The numbers ``subdivision eval`` prints."""
    n = len(results)
    if n == 0:
        return {"photos": 0}
    found = [r for r in results if r.grid["found"]]
    errors = [r.grid["max_error"] for r in found if r.grid["max_error"] is not None]
    out = {
        "photos": n,
        "grid_found": len(found) / n,
        "grid_correct": sum(r.grid["correct"] for r in results) / n,
        "corner_error_squares": {
            "median": statistics.median(errors) if errors else None,
            "mean": statistics.fmean(errors) if errors else None,
            "max": max(errors) if errors else None,
        },
    }
    squares = [s for r in results for s in r.squares]
    play = [s for s in squares if s.in_play]

    def acc(items):
        return (sum(s.right for s in items) / len(items)) if items else None

    out["square_accuracy_all"] = acc(squares)
    out["square_accuracy_play_area"] = acc(play)
    out["squares_in_play"] = len(play)
    out["by_class"] = {}
    for cls in CLASSES:
        items = [s for s in play if s.truth_class == cls]
        out["by_class"][cls] = {"n": len(items), "accuracy": acc(items),
                                "class_accuracy": (sum(s.read_class == cls for s in items) / len(items)) if items else None}
    out["confusion"] = {cls: {} for cls in CLASSES}  # true class -> class read -> squares
    for sq in play:
        row = out["confusion"].setdefault(sq.truth_class, {})
        row[sq.read_class] = row.get(sq.read_class, 0) + 1
    colour = [s for s in play if s.colour_right is not None]
    out["colour_accuracy"] = (sum(bool(s.colour_right) for s in colour) / len(colour)) if colour else None
    mixups: dict[str, int] = {}  # "clear as white" -> pyramids
    for sq in play:
        if sq.mixup:
            key = " as ".join(sq.mixup)
            mixups[key] = mixups.get(key, 0) + 1
    out["colour_mixups"] = dict(sorted(mixups.items(), key=lambda item: (-item[1], item[0])))
    by_colour: dict[str, list] = {}  # true colour -> its pyramids' squares
    for sq in play:
        if sq.colour is not None:
            by_colour.setdefault(sq.colour, []).append(sq)
    out["pyramids_by_colour"] = {colour: {"n": len(items), "accuracy": acc(items)}
                                 for colour, items in sorted(by_colour.items(), key=lambda item: (acc(item[1]), item[0]))}
    wrong = [s for s in play if not s.right and s.confidence is not None]
    out["wrong_flagged"] = (sum(s.confidence < UNSURE for s in wrong) / len(wrong)) if wrong else None
    read = [s for s in play if s.confidence is not None]
    out["flagged"] = (sum(s.confidence < UNSURE for s in read) / len(read)) if read else None
    out["mean_confidence"] = float(np.mean([s.confidence for s in read])) if read else None
    out["accuracy_of_read"] = (sum(bool(s.right) for s in read) / len(read)) if read else None
    out["boards_exact"] = sum(r.failure is None for r in results) / n
    out["boards_within_one"] = sum(r.failure is None or (r.grid["correct"] and r.wrong <= 1) for r in results) / n

    def right_after(most: int) -> float:
        return sum(r.failure is None or (r.fixes is not None and r.fixes <= most) for r in results) / n

    out["boards_within_one_fix"] = right_after(1)
    out["boards_within_three_fixes"] = right_after(3)
    out["scores_right"] = sum(r.failure is None or r.score_right for r in results) / n
    failures: dict[str, int] = {}
    for r in results:
        if r.failure:
            failures[r.failure] = failures.get(r.failure, 0) + 1
    out["failures_by_stage"] = failures
    stashes = [r.stash for r in results if r.stash is not None]
    if stashes:
        out["stash"] = {"inferred": len(stashes), "right": sum(right for right, _ in stashes),
                        "warned": sum(warned for _, warned in stashes),
                        "wrong_warned": sum(warned and not right for right, warned in stashes)}
    secs = [r.seconds for r in results]
    out["seconds"] = {"median": statistics.median(secs), "mean": statistics.fmean(secs), "max": max(secs)}
    return out


MIXUPS_SHOWN = 6  # kinds of colour mix-up the report lists, commonest first


def format_summary(summary: dict, title: str) -> str:
    """A readable report of :func:`summarise`'s numbers."""
    if summary.get("photos", 0) == 0:
        return f"{title}: no photos with sidecars"

    def pct(x):
        return "n/a" if x is None else f"{100 * x:.2f}%"

    ce = summary["corner_error_squares"]
    lines = [
        f"{title}: {summary['photos']} photos",
        f"  grid found            {pct(summary['grid_found'])} (correct within {CORRECT_MAX_ERROR} sq: {pct(summary['grid_correct'])})",
        "  corner error (squares) " + (f"median {ce['median']:.3f}, mean {ce['mean']:.3f}, max {ce['max']:.3f}" if ce["median"] is not None else "n/a"),
        f"  per-square accuracy   play area {pct(summary['square_accuracy_play_area'])} of {summary['squares_in_play']}, whole checkerboard {pct(summary['square_accuracy_all'])}",
    ]
    for cls, v in summary["by_class"].items():
        lines.append(f"    {cls:<6} {pct(v['accuracy']):>8}  (n={v['n']}; class alone {pct(v['class_accuracy'])})")
    lines.append(f"    colour {pct(summary['colour_accuracy']):>8}  (pyramids whose colour was read right)")
    mixups = list(summary["colour_mixups"].items())
    lines.append("  colours mixed up      " + (", ".join(f"{k} {v}" for k, v in mixups[:MIXUPS_SHOWN])
                                             + (f", {len(mixups) - MIXUPS_SHOWN} more kinds" if len(mixups) > MIXUPS_SHOWN else "")
                                             if mixups else "none")
                 + " (pyramids read as pyramids of another colour)")
    if summary.get("pyramids_by_colour"):
        lines.append("  pyramids by colour    " + ", ".join(f"{colour} {pct(v['accuracy'])} of {v['n']}"
                                                          for colour, v in summary["pyramids_by_colour"].items())
                     + " (read exactly right, worst first)")
    read_as = sorted({got for row in summary["confusion"].values() for got in row},
                     key=lambda c: CLASSES.index(c) if c in CLASSES else len(CLASSES))
    lines.append("  read as (rows: truth) " + "".join(f"{c:>7}" for c in read_as))
    for cls, row in summary["confusion"].items():
        lines.append(f"    {cls:<19}" + "".join(f"{row.get(c, 0):>7}" for c in read_as))
    lines.append(f"  flagged as unsure     {pct(summary['flagged'])} of the squares read, "
                 f"{pct(summary['wrong_flagged'])} of the wrong ones")
    if summary.get("mean_confidence") is not None:
        lines.append(f"  confidence            mean {pct(summary['mean_confidence'])} against "
                     f"{pct(summary['accuracy_of_read'])} of those squares right")
    lines.append(f"  boards exactly right  {pct(summary['boards_exact'])}")
    lines.append(f"  within one mistake    {pct(summary['boards_within_one'])}")
    lines.append(f"  right after fixes     {pct(summary['boards_within_one_fix'])} after one at most, "
                 f"{pct(summary['boards_within_three_fixes'])} after three (a colour changed for all its "
                 "pieces counts one, each other square one)")
    lines.append(f"  scores right          {pct(summary['scores_right'])} (every player's total, a colour's name aside, without Private Parks)")
    fails = ", ".join(f"{k} {v}" for k, v in sorted(summary["failures_by_stage"].items())) or "none"
    lines.append(f"  failures by stage     {fails}")
    if "stash" in summary:
        st = summary["stash"]
        lines.append(f"  stash inferred        right on {st['right']} of {st['inferred']} boards; "
                     f"{st['warned']} close call{'' if st['warned'] == 1 else 's'} warned of, "
                     f"{st['wrong_warned']} of them wrong")
    s = summary["seconds"]
    lines.append(f"  seconds per photo     median {s['median']:.2f}, mean {s['mean']:.2f}, max {s['max']:.2f}")
    return "\n".join(lines)
