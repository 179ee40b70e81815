"""``subdivision read PHOTO...`` (read boards from photos) and ``subdivision eval DIR``
(measure the reader on photos with ground-truth sidecars)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from scorer.board import stash_name
from scorer.commands import READING_HINTS, add_colours_option, add_stash_options, check_players_fit, with_hints
from scorer.errors import UserError, print_error, to_stderr
from scorer.files import PHOTO_FORMATS, STDIN_NAME, json_name, read_stdin, stdin_given_once, write_whole


def add_parser(subparsers) -> None:
    read = subparsers.add_parser(
        "read",
        help="read boards from photos",
        description="Read a Subdivision board from each photo: grid, parks, pyramids' colours and sizes, "
        "with each square's confidence and alternatives.",
    )
    read.add_argument("photos", nargs="+", metavar="PHOTO", help=f"a photo ({PHOTO_FORMATS}), or - for standard input")
    read.add_argument("--json", action="store_true", help="one JSON object per photo per line")
    read.add_argument("--overlay", metavar="OUT.png", type=overlay_argument,
                      help="write the photo with the reading drawn on it, as PNG or, named .jpg, JPEG "
                      "(several photos: OUT-1.png, ...), shrunk to 1600 px on its long side at most (--corners "
                      "and the JSON's corners are in the photo's own pixels)")
    read.add_argument("--players", type=int, choices=(2, 3, 4), help="number of players (default: from the board)")
    add_stash_options(read)
    add_colours_option(read)
    read.add_argument("--corners", metavar="X,Y,X,Y,X,Y,X,Y", type=corners_argument,
                      help="the checkerboard's four outer corners in the photo (px, any order around the "
                      "board), for a board the finder misses or gets wrong; one PHOTO only (write "
                      "--corners=-3,... when the first number is negative)")
    read.add_argument("--squares", metavar="COLSxROWS", type=squares_argument,
                      help="squares of the board marked with --corners (default 8x8; COLS along the edge "
                      "from the corner nearest the photo's top-left, clockwise)")
    read.set_defaults(func=run_read)

    ev = subparsers.add_parser(
        "eval",
        help="measure the photo reader on photos with ground-truth sidecars",
        description="Run the reader over DIR's photos (each with a .json sidecar) and print stage-by-stage "
        "numbers: grid found, corner error, per-square accuracy by class, boards exactly right, "
        "failures by stage, seconds per photo.",
    )
    ev.add_argument("directory", metavar="DIR", help="folder of photos with sidecars (or their parent, with --split)")
    ev.add_argument("--split", help="read DIR/SPLIT (e.g. dev or test)")
    ev.add_argument("--true-grid", action="store_true",
                    help="use the sidecar's grid instead of finding it (measures the later stages alone)")
    ev.add_argument("--hints", action="store_true", help="tell the reader the number of players (as --players)")
    ev.add_argument("--colours-given", action="store_true",
                    help="tell the reader the players' colours (the sidecars' colours, as --colours)")
    ev.add_argument("--infer-stash", action="store_true",
                    help="do not tell the reader whether the game is ThreeHouse (it infers the stash)")
    ev.add_argument("--limit", type=int, help="only the first N photos")
    ev.add_argument("--json", action="store_true", help="print the summary as JSON")
    ev.add_argument("--verbose", "-v", action="store_true", help="one line per photo")
    ev.set_defaults(func=run_eval)


def corners_argument(text: str) -> list[list[float]]:
    """``--corners``: eight numbers, x and y of four corners."""
    try:
        numbers = [float(part) for part in text.replace(";", ",").split(",")]
    except ValueError:
        numbers = []
    if len(numbers) != 8:
        raise argparse.ArgumentTypeError("give four corners as eight numbers: x,y,x,y,x,y,x,y (photo px)")
    return [numbers[k:k + 2] for k in range(0, 8, 2)]


# How to read a photo whose board was not found, or whose outline the reader is unsure of
# (the web page offers the same).
MARK_CORNERS_HINT = "or mark the checkerboard's four outer corners: --corners X,Y,X,Y,X,Y,X,Y (photo px)"
OVERLAY_SUFFIXES = {".png": ".png", ".jpg": ".jpg", ".jpeg": ".jpg"}  # a file name's suffix -> the encoding
IMAGE_SUFFIXES = {*OVERLAY_SUFFIXES, ".gif", ".webp", ".bmp", ".tif", ".tiff", ".heic"}  # a name of one alone: no name


def overlay_argument(text: str) -> str:
    """``--overlay``: a file name, not an empty one, for a PNG or a JPEG (no suffix: PNG)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("give the file to write the overlay to, e.g. --overlay out.png")
    if text.strip() == "-":  # (not a file named "-.png": the reading itself goes to standard output)
        raise argparse.ArgumentTypeError("the overlay is written to a file, not to standard output: "
                                         "give its name, e.g. --overlay out.png")
    try:
        folder = text.endswith(("/", os.sep)) or Path(text).is_dir()
    except OSError as err:  # a name too long for the file system, ...
        raise argparse.ArgumentTypeError(f"cannot write the overlay to {text}: {err.strerror or err}") from None
    if folder:
        raise argparse.ArgumentTypeError(f"{text} is a folder: give the file to write the overlay to, "
                                         f"e.g. --overlay {Path(text) / 'overlay.png'}")
    name = Path(text).name
    if name.lower() in IMAGE_SUFFIXES:  # ".png" alone: to Python a hidden file's name, with no suffix
        example = Path(text).with_name("overlay" + (name if name.lower() in OVERLAY_SUFFIXES else ".png"))
        raise argparse.ArgumentTypeError(f"give the overlay file a name before {name}, e.g. --overlay {example}")
    suffix = Path(text).suffix.lower()
    if suffix and suffix not in OVERLAY_SUFFIXES:
        raise argparse.ArgumentTypeError(f"the overlay is a PNG or a JPEG: name it .png or .jpg, not {suffix}")
    return text


def squares_argument(text: str) -> tuple[int, int]:
    """``--squares``: COLSxROWS (or one number for a square board) -> (cols, rows)."""
    from scorer.vision.grid import parse_squares

    try:
        return parse_squares(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _overlay_path(base: str, index: int, total: int) -> Path:
    path = Path(base)
    if not path.suffix:
        path = path.with_name(path.name + ".png")
    if total == 1:
        return path
    return path.with_name(f"{path.stem}-{index + 1}{path.suffix}")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # either missing: not the same file
        return False


def run_read(args) -> int:
    from scorer.reader import read_photo
    from scorer.vision.grid import BoardCutOff, NoBoardFound
    from scorer.vision.load import MAX_BYTES

    if args.corners is not None and len(args.photos) != 1:
        raise UserError("--corners marks the board in one photo: give one PHOTO")
    if args.squares is not None and args.corners is None:
        raise UserError("--squares is the size of a board marked with --corners: give the corners too")
    check_players_fit(args.players, args.colours, "--colours")
    stdin_given_once(args.photos, "photo")
    cols, rows = args.squares or (8, 8)
    n = len(args.photos)
    overlays = [_overlay_path(args.overlay, index, n) for index in range(n)] if args.overlay else []
    for out in overlays:
        if any(name != "-" and _same_file(out, Path(name)) for name in args.photos):
            raise UserError(f"--overlay {args.overlay} would write over the photo {out}: give another file name")
    status = 0
    for index, name in enumerate(args.photos):
        source = read_stdin(MAX_BYTES) if name == "-" else name
        try:
            reading = read_photo(source, players=args.players, threehouse=args.threehouse,
                                 corners=args.corners, rows=rows, cols=cols, colours=args.colours)
            reading.file = name
        except UserError as err:
            if name == "-":
                message = f"{STDIN_NAME}: {str(err).removeprefix('photo: ')}"
            else:
                message = str(err) if str(err).startswith(str(name)) else f"{name}: {err}"
            if isinstance(err, NoBoardFound) and not isinstance(err, BoardCutOff) and args.corners is None:
                message += f"; {MARK_CORNERS_HINT}"
            print_error(message)
            status = 2
            continue
        if args.json:
            print(json.dumps({**reading.to_dict(), "file": json_name(name)}))
        else:
            _print_reading(name, reading)
        sys.stdout.flush()
        if overlays:  # after the reading is out: a folder that cannot be written loses nothing read
            out = overlays[index]
            try:
                write_whole(out, reading.overlay_png(suffix=OVERLAY_SUFFIXES[out.suffix.lower()]))
            except OSError as err:
                print_error(f"{name}: cannot write the overlay to {out}: {err.strerror or err}")
                status = 2
    return status


def _print_reading(name: str, reading) -> None:
    d = reading.to_dict()
    area = d["play_area"]
    # sizes as --squares gives them, columns x rows; where the play area lies, counted from 1
    # everything but the board is a comment (;), so that the output, saved, is board text
    print(f"; {name}: {d['grid']['cols']}x{d['grid']['rows']} checkerboard, play area "
          + (f"{area['cols']}x{area['rows']} (its A1 on the checkerboard's column {area['col'] + 1}, "
             f"row {area['row'] + 1} from the bottom left)" if area else "unknown")
          + ("" if d["threehouse"] is None else
             f", {stash_name(d['threehouse'])} stash{' (inferred)' if d['stash_inferred'] else ''}")
          + f" ({d['seconds']:.2f} s)")
    if d["board"]:
        print(d["board"], end="")
    for warning, kind in zip(with_hints(d["warnings"], d["warning_kinds"], READING_HINTS), d["warning_kinds"], strict=True):
        hint = f", {MARK_CORNERS_HINT}" if kind == "grid" and not d["grid"].get("marked") else ""
        print(f"; warning: {warning}{hint}")


def _holds_photos(folder: Path) -> bool:
    """Whether ``folder`` is a folder holding photos with sidecars (False where it cannot be read)."""
    from scorer.vision.evaluate import photos_in

    try:
        return folder.is_dir() and bool(photos_in(folder))
    except OSError:
        return False


def run_eval(args) -> int:
    from scorer.vision.evaluate import evaluate_photo, format_summary, load_truth, photos_in, summarise

    directory = Path(args.directory)
    if args.split:
        directory = directory / args.split
    try:
        folder = directory.is_dir()
    except OSError as err:  # a name too long for the file system, ...
        raise UserError(f"{directory}: not a folder ({err.strerror or err})") from None
    if not folder:
        raise UserError(f"{directory}: not a folder")
    if args.limit is not None and args.limit < 1:  # photos[:-1] would quietly drop the last one
        raise UserError(f"--limit must be at least 1, not {args.limit}")
    try:
        photos = photos_in(directory)
    except OSError as err:  # a folder that may not be listed
        raise UserError(f"{directory}: cannot be read ({err.strerror or err})") from None
    if args.limit:
        photos = photos[: args.limit]
    if not photos:
        splits = sorted(d.name for d in directory.iterdir() if _holds_photos(d))
        hint = (f"; give --split with one of its folders that have them: {', '.join(splits)}"
                if splits and not args.split else "")
        raise UserError(f"{directory}: no photos with .json sidecars{hint}")
    for photo in photos:  # a broken sidecar stops the run before any photo is read, not after
        load_truth(photo)
    results = []
    for photo in photos:
        result = evaluate_photo(photo, use_true_grid=args.true_grid, hints=args.hints,
                                infer_stash=args.infer_stash, colours_given=args.colours_given)
        results.append(result)
        if args.verbose:
            error = result.grid["max_error"]
            scores = ", scores right" if result.failure and result.score_right else ""
            to_stderr(f"{photo.name}: {result.failure or 'exact'}{scores}, wrong {result.wrong_in_play} in play "
                      f"({result.wrong} all), grid " + ("not found" if error is None else f"error {error:.3f} squares")
                      + f", {result.seconds:.2f} s")
    summary = summarise(results)
    title = (f"{directory}" + (" (true grid)" if args.true_grid else "") + (" (players given)" if args.hints else "")
             + (" (colours given)" if args.colours_given else "")
             + (" (stash inferred)" if args.infer_stash else ""))
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary, title))
    return 0
