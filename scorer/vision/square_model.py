"""The learned square classifier: probabilities over empty / park / 1 / 2 / 3 pips per square,
each pyramid's apparent base size relative to its square, and its colour's name.

A small two-branch CNN (``scripts/train_square_model.py`` trains it on studio photos and
exports it to ONNX) run with OpenCV's dnn module on the views of ``patches.py``; two copies
trained from different random starts are averaged for the colour names (with the earlier,
narrower copies, on renders neither saw, the pair read more boards right than one alone), and
with two more, continued from them on steep and glassy renders, for the classes and sizes
(``MODEL_PATHS``, ``NAME_MODEL_PATHS``). One square cannot tell a 2-pip on small squares from a
3-pip on large ones, so the model regresses log(base side / square side) and
:func:`size_probs` fits the board's square size (in mm, the pyramids' bases being fixed)
over all of a board's pyramids at once. The colour names are
only one more cue for naming a whole group of pieces (``colours.naming_odds``): grouping by
colour stays with the hand-built stage, which knows nothing of any renderer's paints.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from scipy.special import log_ndtr

from scorer.board import COLOURS, PARK, STANDARD_TRIOS, Board, Piece, Square
from scorer.rules import MAX_PLAYERS
from scorer.vision.patches import square_patches
from scorer.vision.squares import LABELS, blends_into_square, disc_window, measure_added_pyramid

DATA = Path(__file__).resolve().parents[1] / "data"
# The colour names come from the committed pair alone (NAME_MODEL_PATHS). The classes and sizes
# are averaged over that pair and two copies of it continued on renders seen 48-62 degrees off
# vertical and glassy ones (``square_model_steep_*``): those copies read the classes and sizes
# better, but their white against clear odds moved, and in the studio those odds are at chance,
# so names from them flip whole groups (docs/photo-reader.md, "Class and size from four model
# copies").
NAME_MODEL_PATHS = (DATA / "square_model_seed0.onnx", DATA / "square_model_seed1.onnx")
MODEL_PATHS = NAME_MODEL_PATHS + (DATA / "square_model_steep_seed0.onnx", DATA / "square_model_steep_seed1.onnx")
BASE_MM = {1: 14.3, 2: 19.8, 3: 25.4}  # Looney Pyramids' base sides by pips
SQUARE_MM = np.geomspace(30.0, 62.0, 143)  # square sizes the size fit tries (travel sets' up, bandanna 44.5)
BANDANNA_MM = 44.5  # the rules' own board, the Looney Labs chessboard bandanna
BANDANNA_SHARE = 0.5  # prior share of boards that are the bandanna; the rest any chessboard in SQUARE_MM
BANDANNA_SPREAD = 0.03  # in log(square size): print and cloth, and the regression's common bias
SIZE_SIGMA = 0.07  # spread of the regressed log(base / square) about its expected value (measured on dev)
# The committed copies' regression shrinks towards the middle size: within a photo it rises
# LEARNED_SIZE_SLOPE times as fast as the truth (0.89 and 0.90 on two halves of 180 renders they
# never saw, seeds 400000, 400100, 400200 and 400300, most of them glassy; 0.83-0.95 on every
# other set measured), the 2-pip's regressing about true. So each size's expected regression
# lies LEARNED_SIZE_SLOPE of the way from the 2-pip's to its own. Measure it again when the
# copies are retrained (docs/photo-reader.md), and LEARNED_LOG_BASE_CAP below: with the steep
# copies in the average (MODEL_PATHS) it was 0.911 against the pair's 0.915 over six other
# render sets (2026-12-03); with the steep pair taught travel sets (2026-12-05, evening) 0.85 and
# 0.9 named the same share of sizes on dev and 30 test-recipe renders (98.94% and 98.99%) and
# on 30 travel-set renders (93.4% both); with all four taught travel sets (2026-12-05, night)
# 0.85, 0.9 and 0.95 named 98.90%, 98.94% and 99.11% of those sizes and 96.89% at 0.9 and 0.95
# on 15 travel-set renders; in whole readings 0.95 read dev, 30 test-recipe and those 15 renders
# the same, 40 fresh ones worse, 30 tilted ones and 15 other travel-set ones better (0.9 kept).
LEARNED_SIZE_SLOPE = 0.9
# Nor does it rise above LEARNED_LOG_BASE_CAP, however large the pieces against the squares.
# Until the steep copies were continued on travel sets' renders (30-39 mm squares, 2026-12-05)
# every copy's 3-pips regressed no higher than about -0.52 (-0.50 to -0.56 on dev's and 40 fresh
# renders' 40-42 mm squares, -0.51 to -0.58 on drawings on 35 and 32 mm squares, where the
# truth is -0.32 and -0.22), as the 2-pips did there. With the steep pair taught them the four
# rose to about -0.43 and the cap was -0.40. Since all four were taught them (2026-12-05, night)
# the 3-pips of 15 travel-set renders they never saw regress -0.417, -0.358 and -0.320 at the
# median where the truth is -0.41, -0.32 and -0.24, so no size is expected to regress higher
# than -0.32, the largest pieces' median, from a sweep on those renders (sizes right after the
# fit: 94.82% at -0.40, 95.65% at -0.36, 96.69% at -0.34 and -0.30, 96.89% at -0.32, 97.10% at
# -0.28, one piece more): on the smallest squares (30 mm) the 2-pips are expected 0.1 below the
# 3-pips (1.4 SIZE_SIGMA), against 0.02 at -0.40.
LEARNED_LOG_BASE_CAP = -0.32
# A piece that melts into its square (squares.blends_into_square) shows a faint outline, and
# its regression spreads wider: in see-through drawings, clear pieces on blue squares 0.21 and
# on grey ones 0.12, cyan on blue 0.09, against 0.03-0.06 for the others; in the studio, the
# pieces that blend in 0.068 against 0.041 (dev, the 40 held out and the 60 finished games),
# glassy clear ones 0.097 against 0.053 (docs/photo-reader.md). Twice the spread lets the stash counts
# settle such a piece's size rather than a clearer one's.
BLENDING_SIZE_SIGMA = 2 * SIZE_SIGMA
# No game has more pyramids of one size than four players' standard stashes: a square size
# under which more would be read is that much less likely.
MAX_PIECES_PER_SIZE = MAX_PLAYERS * STANDARD_TRIOS
# What a square without a pyramid regresses, in the units of a pyramid's (Gaussian density
# over its peak): anywhere over about 1.5 in log(base / square), 1 / 1.5, against the
# Gaussian's peak of 1 / (SIZE_SIGMA sqrt(2 pi)).
NO_PIECE_DENSITY = (1 / 1.5) * SIZE_SIGMA * np.sqrt(2 * np.pi)


# OpenCV 5 runs a network on its new DNN engine unless told otherwise; its classic engine (the
# 4.x one, the only one before 5) ran the committed pair in 102-105 ms a board against
# 116-128 ms on this 2-core CPU (benchmarks/bench_models.py, 2026-12-02; it now times all of
# MODEL_PATHS), outputs the same to 1e-5.
DNN_ENGINE = getattr(cv2.dnn, "ENGINE_CLASSIC", None)


def read_network(path: str | Path, engine: int | None = DNN_ENGINE) -> cv2.dnn.Net:
    """The ONNX network at ``path`` on OpenCV's DNN ``engine`` (None: OpenCV's default, the
    only choice before OpenCV 5)."""
    if engine is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine=engine)


class SquareNetwork:
    """A loaded network that several threads may run at once (the web app reads photos on
    several): a ``cv2.dnn.Net`` keeps its input and working buffers between ``setInput`` and
    ``forward``, so the runs take turns."""

    def __init__(self, net: cv2.dnn.Net):
        self._net = net
        self._turn = threading.Lock()

    def run(self, x: np.ndarray) -> np.ndarray:
        """The network's output for the batch ``x``, as float64 (a copy of OpenCV's buffer)."""
        with self._turn:
            self._net.setInput(x)
            return np.array(self._net.forward(), np.float64)


@functools.lru_cache(maxsize=8)
def load_square_model(path: str | Path) -> SquareNetwork:
    """The ONNX network, loaded once per path (on DNN_ENGINE, :func:`read_network`)."""
    return SquareNetwork(read_network(path))


@dataclass
class SquarePredictions:
    """The model's outputs for N squares."""

    probs: np.ndarray  # (N, len(LABELS)) empty / park / 1 / 2 / 3
    log_base: np.ndarray  # (N,) log(base side / square side), meaningful where a pyramid stands
    colours: np.ndarray  # (N, len(COLOURS)) the pyramid's colour name, meaningful likewise


def predict_patches(patches: np.ndarray, paths: Sequence[str | Path] = MODEL_PATHS,
                    name_paths: Sequence[str | Path] = NAME_MODEL_PATHS) -> SquarePredictions:
    """(N, 6, s, s) views -> the models' outputs for the N squares, each averaged over the
    views and their mirror images (the models were trained on both): the classes and sizes
    over the models in ``paths``, the colour names over those in ``name_paths`` (so a copy
    measured alone needs both: ``predict_patches(x, [path], [path])``). Each model runs once,
    whichever outputs it gives."""
    n, n_labels = len(patches), len(LABELS)
    n_outputs = n_labels + 1 + len(COLOURS)
    both = np.ascontiguousarray(np.concatenate([patches, patches[..., ::-1]]).astype(np.float32))
    outs = {}
    for path in dict.fromkeys(str(p) for p in (*paths, *name_paths)):
        outs[path] = load_square_model(path).run(both).reshape(2, n, n_outputs)
    out = np.concatenate([outs[str(p)] for p in paths]).mean(axis=0)
    colours = np.concatenate([outs[str(p)] for p in name_paths]).mean(axis=0)[:, n_labels + 1:]
    probs = out[:, :n_labels]
    return SquarePredictions(probs / probs.sum(axis=1, keepdims=True), out[:, n_labels],
                             colours / colours.sum(axis=1, keepdims=True))


def predict_squares(image_bgr: np.ndarray, homography: np.ndarray, rows: int, cols: int, *,
                    centres: np.ndarray | None = None, paths: Sequence[str | Path] = MODEL_PATHS,
                    name_paths: Sequence[str | Path] = NAME_MODEL_PATHS) -> SquarePredictions:
    """The models' outputs for every square (:func:`predict_patches`), row-major from the
    bottom row (square (col, row) at index ``row * cols + col``)."""
    return predict_patches(square_patches(image_bgr, homography, rows, cols, centres=centres), paths, name_paths)


def square_size_posterior(log_base: np.ndarray, weights: np.ndarray, sigma: float = SIZE_SIGMA) -> np.ndarray:
    """Posterior over SQUARE_MM of one board's square size, from N squares' regressed
    log(base / square) (``log_base``) and how likely each holds a pyramid at all
    (``weights``; a square likelier bare than not is left out of the fit), under
    :func:`square_size_log_prior`."""
    log_base = np.asarray(log_base, np.float64).reshape(-1)
    weights = np.asarray(weights, np.float64).reshape(-1)
    loglik = _size_loglik(log_base, sigma)
    # A piece's likelihood is its likeliest size's: where the regression saturates
    # (LEARNED_LOG_BASE_CAP) two sizes expect (nearly) the same value (at -0.52, every copy's
    # until 2026-12-05, on squares under about 33 mm), and summing over the sizes would
    # count the one regression twice, favouring square sizes too small for the model to tell
    # them apart.
    per_piece = loglik.max(axis=2) - np.log(3.0)  # (S, N)
    # Each square holds a pyramid (its regression then follows the sizes) with probability
    # ``weights``, else its regression says nothing of the square size: a mixture. A square
    # likelier bare than not is left out: the model's regression on bare squares is not noise
    # but one arbitrary value, so the many bare squares of an early board would outvote its
    # few pieces.
    weights = np.where(weights >= 0.5, weights, 0.0)
    with np.errstate(divide="ignore"):
        board = np.logaddexp(np.log(weights)[None, :] + per_piece,
                             np.log1p(-np.minimum(weights, 1.0))[None, :] + np.log(NO_PIECE_DENSITY)).sum(axis=1)
    board = board + _log_prob_within_stashes(weights[None, :, None] * _size_given_square(loglik))
    board = board + square_size_log_prior()
    posterior = np.exp(board - board.max())
    return posterior / posterior.sum()


def _log_prob_within_stashes(piece_odds: np.ndarray) -> np.ndarray:
    """(S,) log-probability that no size has more than MAX_PIECES_PER_SIZE pyramids, given
    (S, N, 3) odds of each square holding a pyramid of each size under each square size: the
    squares taken as independent, each size's count as normal about its mean (its variance
    floored at a quarter of a piece squared)."""
    mean = piece_odds.sum(axis=1)
    spread = np.sqrt((piece_odds * (1.0 - piece_odds)).sum(axis=1) + 0.25)
    return log_ndtr((MAX_PIECES_PER_SIZE + 0.5 - mean) / spread).sum(axis=1)


def _size_given_square(loglik: np.ndarray) -> np.ndarray:
    """(S, N, 3) odds of 1, 2, 3 pips of each pyramid under each square size of SQUARE_MM,
    from :func:`_size_loglik`."""
    given_size = np.exp(loglik - loglik.max(axis=2, keepdims=True))
    return given_size / given_size.sum(axis=2, keepdims=True)


def _size_loglik(log_base: np.ndarray, sigma) -> np.ndarray:
    """(S, N, 3) log-likelihood of each regressed log(base / square) under each square size
    of SQUARE_MM and each pyramid size (``sigma``: one spread, or one per pyramid), each
    size's expected regression drawn towards the 2-pip's by LEARNED_SIZE_SLOPE."""
    log_bases = np.log(np.array([BASE_MM[k] for k in (1, 2, 3)]))
    log_bases = log_bases[1] + LEARNED_SIZE_SLOPE * (log_bases - log_bases[1])
    means = np.minimum(log_bases[None, :] - np.log(SQUARE_MM)[:, None], LEARNED_LOG_BASE_CAP)  # (S, 3)
    sigma = np.broadcast_to(np.asarray(sigma, np.float64), log_base.shape)[None, :, None]
    return -0.5 * ((log_base[None, :, None] - means[:, None, :]) / sigma) ** 2


def size_probs(log_base: np.ndarray, weights: np.ndarray, sigma=SIZE_SIGMA,
               posterior: np.ndarray | None = None) -> np.ndarray:
    """(N, 3) probabilities of 1, 2, 3 pips for N pyramids on one board from their regressed
    log(base / square) (``sigma``: their spread, one or one per pyramid), weighing each
    square size in SQUARE_MM by its posterior (:func:`square_size_posterior`: its prior and
    how well it explains all of them; or ``posterior``, when already computed for these
    squares)."""
    log_base = np.asarray(log_base, np.float64).reshape(-1)
    if posterior is None:
        posterior = square_size_posterior(log_base, weights, sigma)
    return np.einsum("s,snk->nk", posterior, _size_given_square(_size_loglik(log_base, sigma)))


def piece_scale_of(posterior: np.ndarray) -> float:
    """The pyramids' size relative to a bandanna's square (``squares.PIECE_SCALES``' unit)
    that a posterior over SQUARE_MM gives: BANDANNA_MM over its geometric mean."""
    return float(BANDANNA_MM / np.exp(np.dot(posterior, np.log(SQUARE_MM))))


def square_size_log_prior() -> np.ndarray:
    """Log prior over SQUARE_MM: the bandanna (BANDANNA_SHARE) or any chessboard, uniform in
    log size. It only matters on a board with few pyramids, whose sizes alone cannot say
    whether they are 2s on small squares or 3s on large ones."""
    log_mm = np.log(SQUARE_MM)
    uniform = np.full(len(SQUARE_MM), 1.0 / len(SQUARE_MM))
    peak = np.exp(-0.5 * ((log_mm - np.log(BANDANNA_MM)) / BANDANNA_SPREAD) ** 2)
    return np.log(BANDANNA_SHARE * peak / peak.sum() + (1 - BANDANNA_SHARE) * uniform)


# Exponent of the hand-built reader's empty / park / pyramid odds, chosen on dev and on seven
# photometric variants of it (scripts/photo_variants.py): 0.1 read the variants best (92.4% of
# squares on average against 92.3% at 0, 92.2% at 0.25) and dev within 0.1 pp of 0; it keeps a
# little of the hand-built reader, which knows nothing of the studio's look, when the model wavers.
HAND_WEIGHT = 0.1
# Exponent of the hand-built reader's size odds against the learned ones, seen from high up (dev
# choice, 2026-11-25; since 2026-12-01 those odds are mixed over the scales by the learned
# size fit's odds, ``piece_scale_odds``, so they are no longer wholly independent of it).
HAND_SIZE_WEIGHT = 1.0
# Seen from low down, the pieces in front hide the bases and lower faces of those behind, and
# the hand-built reader's outline fit (squares.read_squares) names about 60-70% of the sizes
# right at 30-40 degrees above a square against 90-95% from over 50 degrees, while the learned
# size stays at 92-99%. So its size odds count HAND_SIZE_WEIGHT_LOW below the first of
# HAND_SIZE_RAMP_DEG, HAND_SIZE_WEIGHT above the second, and in between a straight ramp. Chosen
# on per-piece odds (2026-11-25: drawings 30-35 and 35-85 degrees up, opaque and see-through,
# seeds 0-99; dev; the 150 renders of seed 91000; 40 renders tilted 52-60 degrees): every set
# named sizes better, e.g. steep opaque drawings 210 to 142 of 3870 wrong; a low weight of 0 or
# 0.5 and ramps of 35-50 or 45-55 degrees did nearly as well.
HAND_SIZE_WEIGHT_LOW = 0.25
HAND_SIZE_RAMP_DEG = (40.0, 50.0)
PYRAMIDS = slice(2, 5)  # LABELS "1", "2", "3"


def combined_probs(learned: np.ndarray, hand: np.ndarray, learned_size: np.ndarray, *,
                   hand_weight: float = HAND_WEIGHT, hand_size_weight: float = HAND_SIZE_WEIGHT) -> np.ndarray:
    """Empty / park / pyramid from the learned model times the hand-built reader's odds to the
    power ``hand_weight``; the pyramid's size from the learned board-wide fit (``learned_size``,
    1 / 2 / 3 pips, from :func:`size_probs`) times the hand-built reader's to ``hand_size_weight``."""
    learned = np.asarray(learned, np.float64)
    hand = np.maximum(np.asarray(hand, np.float64), 1e-6)
    def grouped(p):
        return np.array([p[0], p[1], p[PYRAMIDS].sum()])
    occupancy = grouped(learned) * grouped(hand) ** hand_weight
    occupancy /= occupancy.sum()
    size = np.maximum(np.asarray(learned_size, np.float64), 1e-6) * (hand[PYRAMIDS] / hand[PYRAMIDS].sum()) ** hand_size_weight
    return np.concatenate([occupancy[:2], occupancy[2] * size / size.sum()])


def hand_size_weight(elevation_deg: float) -> float:
    """Exponent of the hand-built reader's size odds for a square the camera sees from
    ``elevation_deg`` above the board (:meth:`BoardCamera.elevation_deg`): HAND_SIZE_WEIGHT_LOW
    from low down, HAND_SIZE_WEIGHT from high up, a ramp over HAND_SIZE_RAMP_DEG."""
    return HAND_SIZE_WEIGHT_LOW + _high_view_share(elevation_deg) * (HAND_SIZE_WEIGHT - HAND_SIZE_WEIGHT_LOW)


def _high_view_share(elevation_deg: float) -> float:
    """0 below the first of HAND_SIZE_RAMP_DEG, 1 above the second, a straight ramp between."""
    lo, hi = HAND_SIZE_RAMP_DEG
    return float(np.clip((elevation_deg - lo) / (hi - lo), 0.0, 1.0))


def piece_scale_odds(learned: SquarePredictions, scales: Sequence[float]) -> np.ndarray | None:
    """Odds of each of ``scales`` (the hand-built reader's trial piece scales,
    ``squares.PIECE_SCALES``, with ``LARGE_PIECE_SCALES`` or not) from the learned board-wide
    size fit over all squares (:func:`square_size_posterior`): the posterior mass of the
    square sizes in SQUARE_MM whose piece scale (BANDANNA_MM / size) lies nearest each. None
    where no square likelier holds a pyramid than not: the fit would be its prior over square
    sizes alone, which says nothing of this board.

    The learned fit names the square size far better than the outline fit does, from any
    height: over 194 renders (dev, 2 x 30 with the test split's recipe, 84 glassy) its
    posterior's geometric mean was off by 0.021 in log size on average (bias -0.009), the
    outline fit's own weighing by 0.081 (bias -0.044: pieces taken a little large, so read a
    size small)."""
    occupied = learned.probs[:, PYRAMIDS].sum(axis=1)
    if not np.any(occupied >= 0.5):
        return None
    posterior = square_size_posterior(learned.log_base, occupied)
    log_scales = np.log(np.asarray(scales, np.float64))
    nearest = np.argmin(np.abs(np.log(BANDANNA_MM / SQUARE_MM)[:, None] - log_scales[None, :]), axis=1)
    odds = np.bincount(nearest, weights=posterior, minlength=len(log_scales))
    if not np.all(np.isfinite(odds)) or odds.sum() <= 0:
        return None
    return odds / odds.sum()


def piece_scale_prior(odds: np.ndarray | None, elevation_deg: float) -> np.ndarray | None:
    """The learned odds over the outline fit's scales (:func:`piece_scale_odds`; None: none)
    as the odds that choose its scale, counted as the hand-built sizes are discounted (:func:`hand_size_weight`): wholly for a board seen
    from under the first of HAND_SIZE_RAMP_DEG above it (``elevation_deg``), not at all (None)
    from the second up, raised to a power falling along the ramp between. From low down the
    outline fit alone often takes too small a scale (``squares.scale_weights``); from high up
    it sees the bases whole and is left to choose its outlines (the sizes' mixture over the
    scales is weighed by the learned odds whole from any height, ``squares.read_squares_any_scale``'s
    ``size_prior``)."""
    weight = 1.0 - _high_view_share(elevation_deg)
    return None if odds is None or not weight > 0.0 else odds ** weight


def merge_learned(squares, image_bgr: np.ndarray, grid, learned: SquarePredictions | None = None) -> None:
    """Replace each square's probabilities in a ``squares.SquaresResult`` (read on
    ``image_bgr`` with ``grid``) by :func:`combined_probs` (the hand-built size odds weighed
    by how high the camera sees the square from, :func:`hand_size_weight`; the learned size
    held less surely, BLENDING_SIZE_SIGMA, for a piece whose colour sample blends into its
    square), and give each the model's colour name odds; a square that becomes a pyramid
    without a colour sample gets one from the foreground pixels just above its base (after
    the size fit: judging its spread by that colour too read the drawings a little worse).
    The squares' ``piece_scale`` becomes the learned size fit's (:func:`piece_scale_of`),
    which the later stages draw the pieces at. ``learned``: the model's outputs for this
    image and grid (:func:`predict_squares`), when already computed."""
    if learned is None:
        learned = predict_squares(image_bgr, grid.homography, grid.rows, grid.cols,
                                  centres=grid.square_centres())
    where = list(squares.readings)
    index = np.array([r * grid.cols + c for c, r in where])
    occupied = learned.probs[index][:, PYRAMIDS].sum(axis=1)
    posterior = square_size_posterior(learned.log_base[index], occupied)
    sigma = np.array([BLENDING_SIZE_SIGMA if blends_into_square(squares, c, r) else SIZE_SIGMA for c, r in where])
    sizes = size_probs(learned.log_base[index], occupied, sigma=sigma, posterior=posterior)
    scale = piece_scale_of(posterior)
    if np.isfinite(scale):  # else (a model output not a number) the hand-built fit's stays
        squares.piece_scale = scale
    for i, (c, r), reading, size in zip(index, where, squares.readings.values(), sizes):
        reading.probs = combined_probs(learned.probs[i], reading.probs, size,
                                       hand_size_weight=hand_size_weight(squares.camera.elevation_deg(c, r)))
        reading.colour_names = learned.colours[i]
        if reading.label in LABELS[PYRAMIDS] and reading.colour_lab is None:
            reading.colour_lab = colour_above_base(squares.evidence, squares.camera, c, r)
            if reading.over_cloth is None:
                measure_added_pyramid(squares, c, r, int(reading.label), grid.centre_shift(c, r))


def colour_above_base(evidence, camera, col: int, row: int) -> np.ndarray | None:
    """Median Lab of the foreground pixels (log-odds > 0.5) within a quarter square of the
    point 0.35 squares above square (col, row)'s centre, or None when there are too few."""
    base, above, side = camera.project(np.array([[col + 0.5, row + 0.5, 0.0], [col + 0.5, row + 0.5, 0.35],
                                                 [col + 0.75, row + 0.5, 0.0]]))
    disc = disc_window(evidence.logodds.shape, above - np.array(evidence.origin), np.linalg.norm(side - base))
    if disc is None:
        return None
    rows, cols, inside = disc
    mask = inside & (evidence.logodds[rows, cols] > 0.5)
    if mask.sum() < 4:
        return None
    return np.median(evidence.lab[rows, cols][mask], axis=0)


def truth_targets(truth: dict, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Index in LABELS of every square of a studio sidecar's checkerboard (``truth_grid_of``'s
    orientation), row-major, row 0 at the bottom; log(base side / square side) of the
    pyramids (NaN elsewhere, and everywhere when the sidecar gives no square size); and the
    index in COLOURS of each pyramid's colour (-1 elsewhere)."""
    board = Board.from_text(truth["board"])
    area = truth["play_area"]
    square_mm = truth.get("scene", {}).get("board", {}).get("square_mm")
    labels = np.zeros(rows * cols, np.int64)
    log_base = np.full(rows * cols, np.nan)
    colours = np.full(rows * cols, -1, np.int64)
    for r in range(rows):
        for c in range(cols):
            if area["row"] <= r < area["row"] + area["rows"] and area["col"] <= c < area["col"] + area["cols"]:
                content = board[Square(c - area["col"], r - area["row"])]
                i = r * cols + c
                if content is PARK:
                    labels[i] = 1
                elif isinstance(content, Piece):
                    labels[i] = 1 + content.pips
                    colours[i] = COLOURS.index(content.colour)
                    if square_mm:
                        log_base[i] = np.log(BASE_MM[content.pips] / float(square_mm))
    return labels, log_base, colours
