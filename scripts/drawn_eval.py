"""Read flat-shaded drawings of random legal games: a second generator, unlike the studio's.

    .venv/bin/python scripts/drawn_eval.py --seeds 0 100 [--see-through] [--early] [--squares wood|blue|green|grey-print]
        [--elevation 30 35] [--far] [--photo dark|warm|...] [--colours-given] [--verbose]

Each seed plays a random legal game (2-4 players of random colours, to the end or a random
number of moves) and draws it with ``tests/synthetic_scene.py`` (flat-shaded pyramids of the
real proportions, coin parks, a plain two-tone checkerboard) from a camera 35-85 degrees up
(``--elevation``: another range, the same games and turns) at any turn of the board.
``--see-through`` draws the eight translucent colours as coloured filters over what is
behind them (clear as a nearly colourless one), as real Looney Pyramids look; by default
every piece is drawn opaque. The reader is told nothing but that the stash is standard
(``--colours-given``: and the players' colours).
``--early`` draws games 1-6 moves in instead (standard or ThreeHouse, the play area anywhere
on the checkerboard it fits, the reader told which stash): a photo taken mid-game to check a
placement, where the few pieces must say the play area and the square size. ``--squares``
draws another checkerboard than the grey and white one: ``wood`` (maple and walnut squares,
also ``--wood``: its light squares are far from neutral, which the reader's white balance
takes them for), ``blue`` or ``green`` (a vinyl board's, where pieces of the dark squares'
colour melt into them) or ``grey-print`` (mid-grey on white, as the bandanna is printed).
``--far`` draws a 12 MP photo with the board far off (squares about 30 px at the reader's 1600 px),
read as a photo is read: shrunk to 1600 px, and decoded larger again for its small squares.
``--photo`` passes each drawing through one of ``scripts/photo_variants.py``'s photometric
variants (darker, a warm cast, blurred, noisy, ...) before it is read (with ``--far``, the 12 MP
photo; the blur, JPEG blocks and noise are in the photo's own pixels, so they weigh about 1.7
times as much on the 1200 px drawings as on dev's 2016 px photos, and less on the far ones).
A reading is compared with the game under the four turns of the board (a drawing has no
"bottom edge" to number row 1 from that the reader could be wrong about), counting the
squares that differ and how many of those the reading did not flag as unsure (all of them on
a board not read or read with a play area of the wrong size), and again leaving out the
boards whose play area the reading warns is ambiguous.
Nothing was tuned on these drawings.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

from scorer.board import Board, Square  # noqa: E402
from scorer.errors import UserError  # noqa: E402
from scorer.reader import READ_LONG_SIDE, read_image  # noqa: E402
from scorer.rules import random_game  # noqa: E402
from scorer.vision.load import downscale  # noqa: E402
from photo_variants import VARIANTS as PHOTO_VARIANTS  # noqa: E402
from synthetic_scene import BGR, draw_scene  # noqa: E402


EARLY_SEEDS = 1000  # --early draws its games from seeds offset by this, apart from the others'
SQUARE_COLOURS = {  # other checkerboards than synthetic_scene's grey and white, BGR
    "wood": {"light": (120, 172, 215), "dark": (35, 60, 98)},  # maple and walnut
    "blue": {"light": (235, 235, 230), "dark": (140, 90, 40)},
    "green": {"light": (200, 230, 235), "dark": (70, 125, 60)},  # and cream
    "grey-print": {"light": (238, 238, 236), "dark": (120, 120, 122)},
}
ELEVATION = (35.0, 85.0)  # the camera's degrees above the board, unless told otherwise
# --far: a 12 MP photo with the board far off (a phone's usual field of view), its squares
# about 30 px across at the reader's READ_LONG_SIDE and 76 px in the photo itself
FAR_PHOTO, FAR_DISTANCE = (4032, 3024), 42.0


@dataclass
class DrawnResult:
    seed: int
    colours: list[str]
    squares: int
    wrong: int  # squares that differ under the best of the four turns; all of them when no board was read
    unflagged: int = 0  # of those, read at a confidence the reading does not flag as unsure (all, unread)
    area_warned: bool = False  # the reading warns that which squares are in play is uncertain
    unread: bool = False  # the reader refused the photo with its one-line error (no board found, one too small)


def tokens(board: Board) -> np.ndarray:
    """The board's notation as a rows x cols array of tokens, top row first."""
    return np.array([line.split() for line in board.to_text().strip().split("\n")])


def read_drawing(seed: int, see_through: bool = False, early: bool = False, squares: str | None = None,
                 elevation: tuple[float, float] = ELEVATION, far: bool = False,
                 photo: str | None = None, piece_scale: float = 1.0, colours_given: bool = False) -> DrawnResult:
    """Draw seed's random game and read it back (``see_through``: translucent pieces drawn as
    filters over what is behind them; ``early``: 1-6 moves into a standard or ThreeHouse
    game, its play area anywhere it fits, the reader told which stash; ``squares``: a name in
    SQUARE_COLOURS, another checkerboard than the grey and white one; ``elevation``: the
    camera's range of degrees above the board, the seed's place in ELEVATION mapped onto it,
    so the same seed draws the same game and turn; ``far``: the board far off in a 12 MP
    photo, read as ``read_photo`` reads one, shrunk to READ_LONG_SIDE and decoded larger again
    for the board's small squares; ``photo``: a name in PHOTO_VARIANTS, the photometric variant
    the drawing is passed through before it is read; ``piece_scale``: the pyramids' size
    against the squares, 1 on the bandanna's, ``synthetic_scene.draw_scene``'s); ``colours_given``:
    the reader told the players' colours, as a player would tell them."""
    rng = random.Random(seed + EARLY_SEEDS if early else seed)
    players = rng.choice([2, 3, 4])
    threehouse = early and rng.random() < 0.3
    colours = rng.sample(sorted(BGR), players)
    moves = rng.randint(1, 6) if early else rng.choice([None, None, rng.randint(6, 30)])
    board = random_game(rng, colours, threehouse=threehouse, moves=moves)
    if early:
        origin = rng.choice([(0, 0), (1, 1), (0, 1)]) if board.rows < 8 else (0, 0)
    else:
        origin = (0, 0) if board.rows == 8 else (1, 1)
    width, height = FAR_PHOTO if far else (1200, 900)
    image, _, _ = draw_scene(board, origin=origin, size=(8, 8), width=width, height=height,
                             elevation_deg=_mapped(rng.uniform(*ELEVATION), ELEVATION, elevation),
                             yaw_deg=rng.uniform(0, 360), seed=seed, see_through=see_through, piece_scale=piece_scale,
                             **({"distance": FAR_DISTANCE} if far else {}), **SQUARE_COLOURS.get(squares, {}))
    if photo is not None:
        image = PHOTO_VARIANTS[photo](image)
    finer = None
    if far:
        full = image
        image = downscale(full, READ_LONG_SIDE)[0]

        def finer(long_side: int) -> np.ndarray:
            return downscale(full, long_side)[0]
    truth = tokens(board)
    wrong = truth.size
    try:
        reading = read_image(image, threehouse=threehouse, finer=finer, colours=colours if colours_given else None)
    except UserError:  # the message a user would see instead of a board
        reading = None
    unflagged, area_warned = wrong, False
    if reading is not None and reading.board is not None:
        got = tokens(reading.board)
        unsure = np.isin(cell_names(reading.board), reading.uncertain)
        turns = [(np.rot90(got, k), np.rot90(unsure, k)) for k in range(4)]
        best = min((t for t in turns if t[0].shape == truth.shape), key=lambda t: int((t[0] != truth).sum()), default=None)
        if best is not None:  # else a play area of the wrong size: every square wrong, none flagged
            wrong = int((best[0] != truth).sum())
            unflagged = int(((best[0] != truth) & ~best[1]).sum())
        area_warned = bool(reading.play_area is not None and reading.play_area.ambiguous)
    return DrawnResult(seed, colours, truth.size, wrong, unflagged, area_warned,
                       unread=reading is None)


def _mapped(value: float, source: tuple[float, float], target: tuple[float, float]) -> float:
    """``value`` in the range ``source`` moved to the same place in the range ``target``."""
    if tuple(source) == tuple(target):
        return value
    return target[0] + (value - source[0]) / (source[1] - source[0]) * (target[1] - target[0])


def cell_names(board: Board) -> np.ndarray:
    """The board's cell names laid out as :func:`tokens` lays out its contents."""
    return np.array([[Square(c, board.rows - 1 - i).name for c in range(board.cols)] for i in range(board.rows)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", nargs=2, type=int, default=(0, 100), metavar=("FIRST", "END"),
                        help="seeds FIRST to END-1 (default 0 100)")
    parser.add_argument("--see-through", action="store_true",
                        help="draw the translucent colours as filters over the board (else opaque)")
    parser.add_argument("--early", action="store_true",
                        help="games 1-6 moves in, standard or ThreeHouse, the play area anywhere")
    parser.add_argument("--squares", choices=sorted(SQUARE_COLOURS),
                        help="another checkerboard than the grey and white one")
    parser.add_argument("--wood", action="store_const", dest="squares", const="wood",
                        help="a wooden chessboard (maple and walnut squares): --squares wood")
    parser.add_argument("--elevation", nargs=2, type=float, default=ELEVATION, metavar=("LOW", "HIGH"),
                        help="the camera's degrees above the board (default 35 85; 30 35 for steep views)")
    parser.add_argument("--far", action="store_true",
                        help="the board far off in a 12 MP photo (squares about 30 px at the reader's 1600 px)")
    parser.add_argument("--photo", choices=sorted(PHOTO_VARIANTS), metavar="VARIANT",
                        help="pass each drawing through this photometric variant of scripts/photo_variants.py "
                             f"before reading it ({', '.join(sorted(PHOTO_VARIANTS))})")
    parser.add_argument("--piece-scale", type=float, default=1.0, metavar="S",
                        help="the pyramids' size against the squares (default 1, the bandanna's 44.5 mm squares; "
                             "1.27 on 35 mm squares, 0.78 on 57 mm)")
    parser.add_argument("--colours-given", action="store_true",
                        help="tell the reader the players' colours (as subdivision read --colours)")
    parser.add_argument("--verbose", "-v", action="store_true", help="one line per drawing")
    args = parser.parse_args(argv)
    if not 0.3 <= args.piece_scale <= 3:
        parser.error(f"--piece-scale {args.piece_scale:g}: need 0.3 to 3")
    if args.seeds[1] <= args.seeds[0]:
        parser.error(f"--seeds {args.seeds[0]} {args.seeds[1]}: END must be greater than FIRST")
    low, high = args.elevation
    if not 0 < low <= high <= 90:
        parser.error(f"--elevation {low:g} {high:g}: need 0 < LOW <= HIGH <= 90")
    results = []
    for seed in range(*args.seeds):
        result = read_drawing(seed, args.see_through, args.early, args.squares, (low, high), args.far, args.photo,
                              args.piece_scale, args.colours_given)
        results.append(result)
        if args.verbose:
            print(f"seed {seed}: {len(result.colours)} players ({', '.join(result.colours)}), wrong {result.wrong}"
                  + (f" ({result.unflagged} not flagged unsure)" if result.unflagged else "")
                  + (" (play area warned ambiguous)" if result.area_warned else "")
                  + (" (no board read: the reader says so)" if result.unread else ""))
    squares = sum(r.squares for r in results)
    wrong = sum(r.wrong for r in results)
    exact = sum(r.wrong == 0 for r in results)
    unflagged = sum(r.unflagged for r in results)
    warned = sum(r.unflagged for r in results if not r.area_warned)
    silent = sum(r.unflagged for r in results if not (r.area_warned or r.unread))
    unread = sum(r.unread for r in results)

    def flagged(left: int) -> float:  # percent of the wrong squares, ``left`` of them not flagged
        return 100 * (1 - left / wrong) if wrong else 100

    print(f"{len(results)} drawings: squares {100 * (1 - wrong / max(1, squares)):.2f}% right, "
          f"boards exact {exact} ({100 * exact / max(1, len(results)):.0f}%); "
          f"wrong squares flagged unsure {flagged(unflagged):.1f}% "
          f"({flagged(warned):.1f}% with those on boards whose play area the reading warns is ambiguous, "
          f"{flagged(silent):.1f}% with those too and the {unread} board{'s' if unread != 1 else ''} not read, "
          f"where the reader says so)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
