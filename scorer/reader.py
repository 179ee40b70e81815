"""Read a Subdivision board from a photo: the stages of ``scorer.vision`` put together.

``read_photo(source) -> Reading``: load (EXIF-rotated), find the checkerboard and fit each
square, read each square (empty / park / pyramid size), group the pyramids by colour, find
the play area, and decode the board under the game's constraints. A photo without a board
raises ``NoBoardFound`` (a ``UserError``); when a later stage fails the reading still carries
the grid and a warning naming the stage.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from scorer.board import (COLOUR_LETTERS, COLOURS, PARK, SET_THE_STASH, STANDARD_TRIOS, THREEHOUSE_TRIOS, Board, Piece,
                          Square, content_from_symbol, infer_stash, setup_for, setup_of_area, setups_for_size,
                          stash_name)
from scorer.errors import UserError
from scorer.rules import listed, parse_seats
from scorer.vision.camera import OFF_CENTRE_BELOW_DEG, camera_from_homography
from scorer.vision.colours import (CONFUSED_NAMES, LEARNED_DISPUTE_COST, clear_group_count, colour_groups_for,
                                   colourless_odds, has_colour, placed_names, unsampled_membership, within_names)
from scorer.vision.decode import UNSURE, CellReading, decode, offer
from scorer.vision.grid import (FINE_LONG_SIDE, GRID_UNSURE, MAX_SQUARES, MIN_BOARD_SQUARES, BoardCutOff, GridFit,
                                InvalidCorners, NoBoardFound, better_fit, board_sized, clockwise_from_top_left,
                                find_grid, find_grid_fine, grid_from_corners, sure_board)
from scorer.vision.lighting import glared_squares, local_gain, shadowed_squares, veil_level, without_veil
from scorer.vision.load import downscale, load_photo_scaled
from scorer.vision.playarea import PlayArea, find_play_area
from scorer.vision.quality import PhotoQuality, photo_quality, quality_on_board
from scorer.vision.patches import PATCH_PX
from scorer.vision.square_model import merge_learned, piece_scale_odds, piece_scale_prior, predict_patches, predict_squares
from scorer.vision.squares import (LABELS, LARGE_PIECE_SCALES, PIECE_SCALES, SQUARE_PX, SquaresResult, apex_within_base,
                                   apply_height_cue, blends_into_square, covered_squares, fit_each_scale, hidden_share)

WORK_LONG_SIDE = 1280  # px: the grid finder's working size
READ_LONG_SIDE = 1600  # px: photos are decoded no bigger (JPEGs straight at a reduced scale)
# ...unless the board's squares come out smaller than the square reader's SQUARE_PX at that size
# (a board far off in a large photo): the photo is then decoded again, up to this long side, for
# squares of SQUARE_PX.
FINER_LONG_SIDE = 4096  # (a 12 MP phone photo's own long side: a larger JPEG is decoded whole for it)
FINER_GAIN = 1.1  # ... when that is at least this much larger
# A board not found sure at WORK_LONG_SIDE is looked for again in the photo decoded at up to
# grid.FINE_LONG_SIDE (find_grid_fine), when its long side then is at least this many times
# WORK_LONG_SIDE.
FINE_GRID_GAIN = 1.5
NEARLY_FULL = 0.1  # at most this share of bare-looking squares: the board is taken as full
FAINT_EMPTY = 0.1  # how much likelier a bare look is a faint piece than a gap on such a board
MIN_NAME_ODDS = 0.02  # other names a colour group may have, kept as alternatives
AMBIGUOUS_AREA = ("the play area is ambiguous: check which squares are in play (the number of players, "
                  "--players N, settles most boards; else mark the play area's four corners, --corners with "
                  "--squares its size)")
# The same when the board was marked by hand: what was marked holds more than the play area.
AMBIGUOUS_MARKED_AREA = ("the play area is ambiguous: check which squares are in play (the number of players, "
                         "--players N, settles most boards; else mark the play area itself, which is square: "
                         "--corners with --squares NxN, N its side)")
# The play area's two lowest edges lie within this share of a square of each other in the
# photo (the board turned near 45 degrees): which of them is row 1 is a coin toss.
ROW_ONE_UNSURE = 0.1
ROW_ONE_GUESSED = ("the board is turned near 45 degrees in the photo, so which edge is row 1 is a guess: "
                   "the cell names may be turned a quarter from your view (the score is the same)")
BLOWN = "much of the photo is blown out to white (too bright): with less light on the board, or less exposure, it reads surer"
DARK = "the photo is too dark: with more light on the board (or the flash) it reads surer"
SHADOWED = ("a shadow falls across part of the board: with the shadow off the board (or the light from another "
            "side) it reads surer")
GLARE = ("a reflection of a light (glare) washes out {squares}: with the phone tilted or the light moved so that "
         "the board does not mirror it, they read surer")
COVERED = ("something lies over {squares} (a hand or an arm?): with nothing over the board, they read surer")
FROM_ABOVE = ("seen from straight above, the pieces on black squares at {squares} show no height and may be a size "
              "larger than they look: from a little lower (about 60 degrees above the board) they read surer")
SHADOW_WARN_SQUARES = 6  # squares in shadow (lighting.shadowed_squares) from which the reading says so
# Squares the stash counts settled (moved off their own likeliest value) from which a stash
# inferred for a size both stashes fit is in doubt: the counts are fighting what the photo shows.
STASH_DOUBT_SETTLED = 8
# Pieces beyond ThreeHouse's count of their colour and size, this many in all and in two colours
# or more, rule ThreeHouse out: on dev, test and 40 other renders (2026-12-07), the doubted standard stashes they settled
# (3 of 10 doubts) held 11 and 12, all standard; the real ThreeHouse games doubted, none.
STASH_RULED_OUT = 4
STASH_FIGHTS_COUNTS = "{settled} squares were read against their look to fit the {stash} stash's piece counts"
# Seen from under LOW_VIEW_DEG above the board (at the play area's middle), tall pieces hide
# the smaller ones behind them and sizes read worst: over the renders of 2026-11-27 (the 150
# steep ones, 40 held out, dev and 60 finished games), boards seen 30-40 degrees up were read
# with 8.5% of their squares wrong and 52% of boards wrong, against 3.4-3.7% and 13-24% at 40-60
# degrees; drawings 30-35 degrees up 92.7% of squares right against 96.3% from higher. A reading
# from that low with squares left unsure says so, and how to do better.
LOW_VIEW_DEG = 40.0
LOW_VIEW = ("the photo is taken from low down ({degrees} degrees above the board), where tall pieces hide the "
            "smaller ones behind them: one taken from higher above reads surer")
# A camera's own photo whose board gives no focal length at the photo's centre (``camera.py``)
# was taken looking straight down; looking down at a slant, the photo is not as the camera
# took it: cropped off-centre or its perspective warped by an editor. The camera then takes the
# principal point where Zhang's constraints agree (``BoardCamera.principal_point_moved``), or
# a guess where they agree nowhere; either way the view's angle and the heights the sizes are
# read from are less sure (a render keystoned a fifth read eight sizes a rung too large, five
# at 0.98 or more, before the principal point moved). The reading says so instead of advising
# a higher view. Of 273 renders (dev, the 62 and 60 test-recipe renders of 2026-11-29, 40
# held out, 24 glassy, 16 steep, 10 with a hand, 11 with tokens) none is warned; of dev's 50
# (``scripts/photo_variants.py``) 10 cropped off-centre and 34 and 44 keystoned.
EDITED = ("the photo's perspective does not fit a photo as the camera took it (cropped off-centre, or "
          "warped by an editor?): the pieces' sizes read less surely; the photo as taken reads surer")
ANOTHER_BOARD = ("the photo shows another board too: this reading is of the one in the middle of the photo; "
                 "to read another, mark its corners")
BLURRED = "the photo is blurred (out of focus or shaken): hold the phone still and take it again for a surer reading"
# A board-sized fit this unsure saw at most 12 of its x-corners and its window stood out from
# the next by under 1.6 (grid confidence: half the corners seen of 16, half the margin over 2):
# over 2,036 photos (the real chessboards, dev, 60 variants of them with the shaken and
# blurred ones, the grid cases, 70 fresh renders) every board-sized fit, right or wrong, was
# 0.5 or surer; dev's studio_001000 shaken 81 px (a board no one could read) gave an 8x8 at
# 0.25. In a photo that also looks blurred, too dark or blown out the board counts as not
# found: take it again.
BARELY_FOUND = 0.4
# On blurred photos (Reading.blurred; dev blurred or shaken, 99 readings) squares the decoder
# gave 0.95 or more were right 97.3% of the time (99.8% on the 298 others): no square is
# surer than that.
BLURRED_MAX_CONFIDENCE = 0.973
# A 1-pip read on a square whose base the likely pyramids in front hide by HIDDEN_SHARE or
# more (squares.hidden_share) may be a glimpse of a taller neighbour leaning over it: on 270
# renders of 2026-11-24 (seeds 90000-90119, 91000-91149) 59 such readings were 73% right, and
# 11 of the 18 wrong 1-pips read at 0.95 or more were among them. They are no surer than that.
# (With the pieces drawn at the learned size fit's scale since, 79 such readings, 77% right.)
HIDDEN_SHARE = 0.1
HIDDEN_MAX_CONFIDENCE = 0.73
# The outline fit at a travel set's scales (squares.LARGE_PIECE_SCALES) costs about a tenth of
# a reading (2026-12-05: 12 MP photos 0.64-0.67 s against 0.57 s), so it runs only where the
# learned size fit gives them this much: on 120 studio renders (dev, 30 of the test split's
# recipe, 40 fresh) 6 times, the readings as with them always fitted; on see-through drawings
# with the pieces 1.27 times as large against the squares, 76.69% of squares as always fitted,
# 74.07% at 0.01.
LARGE_SCALE_ODDS = 0.001
# A pyramid with no colour sample of its own (hidden behind other pieces, or so like its
# square that no pixel is its own) joins a colour group on the learned model's odds alone
# (colours.unsampled_membership); where only one group is on the board, mid-game, it joins
# that one whatever the model says. Where the model gives the group's name less than its
# dispute line (colours.LEARNED_DISPUTE_COST), the piece is marked (``colour_disputed``), no
# surer than this, and offered the model's own name: seen on a clear 3-pip melting into a light
# square, read as the one purple piece's colour at 0.97 (drawings, early see-through seed 32).
UNSAMPLED_DISPUTED = math.exp(-LEARNED_DISPUTE_COST)
UNSAMPLED_MAX_CONFIDENCE = 0.75
# A taller pyramid whose base the pieces in front hide by HIDDEN_TALL_SHARE or more shows
# little but its top, and its size rests on that: on the second generator's see-through
# drawings seen 30-35 degrees up (``scripts/drawn_eval.py``, seeds 0-99), 279 such 2- and
# 3-pip readings were 85% right, and 5 of the 6 wrong squares read at 0.95 or more were
# among them; on 120 renders (two sets of the test split's recipe, two glassy) 30, 73% right,
# with the one glassy 3-pip read as a 2-pip at 0.95 or more. They are no surer than a hidden
# 1-pip.
HIDDEN_TALL_SHARE = 0.3
# A black pyramid on a near-black square (one under DARK_SQUARE_SHARE of the light squares'
# lightness) seen so steeply that its apex falls within its base (squares.apex_within_base; for
# this doubt, nearly within it: MELT_REACH below): its shaded faces melt into the square and
# no height shows, so its size rests on its lit faces, which look smaller than the piece. On
# the 270 renders above, 36 such readings were 78% right (all 8 wrong ones a size too small),
# and 7 of the 12 wrong sizes read at 0.95 or more were among them (on the 150 held out: 40
# readings, 95% right). They are no surer than the first.
DARK_SQUARE_SHARE = 0.3
BLENDS_IN_MAX_CONFIDENCE = 0.78
# ... and that error runs one way only, less often seen from lower down: so read, a black
# pyramid on a near-black square is a size larger than it looks this often, which the
# decoding weighs (``sizes_seen_black``) so that the stash counts put a size back where it is
# likeliest missing. (2026-11-29, the 62 renders made with the test split's recipe, dev, 40
# held-out renders, 40 with hues turned, 24 glassy ones and those 62 turned darker, as read
# before, in 5-degree bins: of 197 black pyramids on near-black squares, a size too small 21
# times in 75 from 75 degrees up (the apex falls within the base from about 74), 6 in 44 from
# 60 to 75 and 4 in 78 from 40 to 60, never too large; of the 918 elsewhere, once too small
# and 5 times too large.)
BLACK_FROM_ABOVE_SMALLER = 0.2
BLACK_FROM_HIGH_SMALLER = 0.1
BLACK_FROM_HIGH_DEG = 60.0
# A see-through pyramid (any colour but black and white) on a near-black square seen so
# steeply that its apex falls within its base shows the square through its lower faces, and its
# size rests on the edges and the top that catch the light: it melts in too, read as a 1- or
# 2-pip (it cannot be a size larger than a 3). On 90 glassy renders (2026-12-01: seeds
# 204000-204023 with a clear player, 207000-207029 and 208000-208029, frosting 0-0.3 and 0-0.5)
# 137 such readings were 92% right, the 11 wrong ones all a size too small, among them 5 of
# the 6 wrong pyramids read at 0.95 or more; with the studio's frostier plastic (dev and 30
# renders of the test split's recipe) 58 were all right. Real pieces are glassier than the
# studio's usual ones. Their size odds are left as they are (too few wrong to say how often).
# The melting starts a little before the apex falls within the base: with MELT_REACH the apex
# may lie 1.25 times the base's half side from its middle, an eighth of the side beyond its edge
# (about 70 degrees up, not 74), for black pyramids' doubt as for see-through ones' (not for
# the size odds ``sizes_seen_black`` moves).
# On 80 glassy renders (2026-12-02: seeds 300000-300039 with white and clear players and
# 320000-320039, frosting 0.02-0.2) the see-through readings under 3 pips on near-black squares
# seen from 70-74 degrees were 4 of 18 a size too small (two of them read at 0.95 and 0.98,
# unflagged), from 55-70 degrees 4 of 36; with the studio's frostier plastic (dev, 70 renders
# with default options or the test split's recipe, 29 low views, 40 with white and clear
# players) none of 39 from 70-74 degrees, which are flagged now too (dev's squares flagged
# 20.6% to 20.9%).
MELT_REACH = 1.25
# Any pyramid whose colour in the photo lies within squares.blend_threshold of its square's bare colour
# (``squares.blends_into_square``) melts into the square the same way, seen from any height:
# its outline shows faintly and its size most of all. On drawings of see-through pieces on a
# blue and white board (``scripts/drawn_eval.py``'s games, seeds 0-99), cyan 3-pips on the
# blue squares were read as 2-pips at 0.95-0.999; of the 210 pyramids within 12 units of their
# square 68% were read right, and they held 23 of the 24 wrong readings at 0.95 or more. Studio
# renders (the 300 of dev and three unseen sets): 235 such readings, 86% right; the drawings on
# the usual grey and white board: 128, 92% right. No surer than the first.
# A square a reflection washes out (``lighting.glared_squares``) leaves little to see: of 627
# such readings, 75.1% were right (dev's two glare variants 71% of 513; real reflections on the
# varnished wood boards of 190 unseen renders 93% of 114).
WASHED_OUT_MAX_CONFIDENCE = 0.75
# Squares a hand or an arm lies over (``squares.covered_squares``): under an arm reaching over
# dev's boards from their edge (``scripts/photo_variants.py``'s ``arm_over_board``, and a
# narrower, shorter one kept outside the repo) 26% of 370 such readings were right. On one of
# 100 opaque drawings seen from 35 degrees up, tall pieces leaning over the squares behind them
# hid three squares' corners from the edge, and the reading was sure of them (a mean of 0.95);
# under the arms the means were 0.03 to 0.88.
COVERED_MAX_CONFIDENCE = 0.26
COVER_SEEN_CONFIDENCE = 0.9
# A square whose middle lies outside the photo (a board cut off by the photo's edge) was read
# from the photo's edge pixels: what it holds is a guess of the game's constraints at best.
OUT_OF_PHOTO_MAX_CONFIDENCE = 0.25
CUT_OFF = ("the photo's {edges} edge{s} cut{verb} through the play area: part of it is out of the photo, "
           "so take it again with the whole board in view")
# (the same, where the reader doubts the grid itself: a grid off the board can run past an edge of a
# photo that holds the whole board)
CUT_OFF_UNSURE_GRID = ("the grid found runs past the photo's {edges} edge{s}: part of the play area is out of "
                       "the photo (take it again with the whole board in view), or the grid is off the board "
                       "(check it first)")
# (a board found too small to be one, running to the photo's edge)
CUT_SHORT = (", up to the photo's edge: the rest of the board may be out of the photo, so take it again with the "
             "whole board in view")
NEAR_EDGE = ("the photo's {edges} edge{s} lie{verb} close to the board's edge: if part of the play area is out "
             "of the photo, take it again with the whole board in view")
COLOURLESS = "the photo has no colour (black and white?): the players' colours are guesses, check each one"
# What each of a reading's warnings is about (``Reading.warning_kinds``, the JSON's
# ``warning_kinds``), so that a program acting on them need not parse their words.
WARNING_KINDS = {
    "blurred": "the photo is blurred or shaken (Reading.blurred)",
    "photo": ("the photo is blown out or too dark, a shadow falls across the board, glare washes squares out, "
              "something lies over squares, the photo's edge cuts through the play area or lies close to the "
              "board's edge, its perspective was changed by an editor (cropped off-centre, warped), it "
              "was taken from so low down that squares were left unsure, or from so high above that pieces "
              "on black squares show no height"),
    "grid": "the board's outline is unsure (found, or marked by hand where no square corners were seen)",
    "another_board": "the photo shows more than one board, and the one covering most of its middle was read",
    "play_area": "which squares are in play is ambiguous",
    "row_one": "which edge is row 1 is a guess",
    "stash": "the stash inferred from the parks is unsure",
    "constraints": ("what the game's counts said of the board (a count over a stash, parks the setup does not have, "
                    "piece counts that cannot come from turns)"),
    "settled": "a square the stash counts, the placement rules or the turn order settled (one warning per square)",
    "colourless": "the photo has no colour",
    "colours_told": ("some pieces do not look like the players' colours told, or the board is set up for another "
                     "number of players (another game's colours?)"),
    "colour_check": "a colour group's name is unsure (one warning per such group, in colour_groups' order)",
    "outside": "squares outside the play area look occupied",
    "unsure_squares": "the squares whose confidence is under the unsure line",
    "unsure_board": "nearly every square is unsure: perhaps no Subdivision game is on the board (chess pieces?)",
    "failed": "a stage after the grid failed: the reading has no board",
}
# The decoder's probability for a square's value against the share of squares read right at
# that probability on the dev photos and 154 renders the square model never saw
# (scripts/calibrate_confidence.py: 8830 squares in 12 equal-count bins, made monotone,
# Laplace-smoothed, bins of one probability merged). The table may lower a square's
# confidence, never raise it: on those photos the decoder is underconfident (its mean
# probability 93.1% against 96.1% right), but on harder ones (the test split) it is
# overconfident, and a table fitted on easy photos must not talk a user out of checking a
# square. With this table every share is at least its probability, so all it does today is
# cap a confidence at 0.999; a refit that finds the decoder overconfident somewhere lowers
# it there. Alternatives keep the decoder's odds.
CONFIDENCE_RAW = (0.507, 0.796, 0.939, 0.979, 0.991, 0.996, 0.998, 0.999)
CONFIDENCE_RIGHT = (0.740, 0.824, 0.988, 0.993, 0.998, 0.998, 0.998, 0.999)


def calibrated_confidence(p: float) -> float:
    """How often a square read with decoder probability ``p`` is right (measured on dev and
    on renders the square model never saw), but never more than ``p``."""
    return float(lowered_by_table(p, CONFIDENCE_RAW, CONFIDENCE_RIGHT))


def lowered_by_table(p, raw, right):
    """Decoder probabilities ``p`` (a number or an array) mapped through a calibration table
    (``raw`` probabilities -> share ``right``) where that lowers them, kept where it would
    raise them."""
    return np.minimum(p, np.interp(p, raw, right))


@dataclass(frozen=True)
class ColourGroupReading:
    """One player's pieces as read: the colour name they were given, the odds of that name
    over all the joint namings of the photo's groups, and the likeliest other names (clear or
    white, blue or purple), so that a whole group can be renamed at once."""

    colour: str
    cells: tuple[str, ...]
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()

    @property
    def unsure(self) -> bool:
        """Whether a user should check the name: low odds, or a name often confused."""
        return bool(self.alternatives) and (self.confidence < UNSURE or self.colour in CONFUSED_NAMES)

    def to_dict(self) -> dict:
        return {"colour": self.colour, "cells": list(self.cells), "confidence": round(self.confidence, 3),
                "alternatives": [{"colour": c, "confidence": round(p, 3)} for c, p in self.alternatives],
                "unsure": self.unsure}


def colour_group_readings(board: Board, names: list[str], name_odds: list[dict[str, float]],
                          most: int = 3, told: Sequence[str] | None = None) -> list[ColourGroupReading]:
    """Each named group that has pieces on the decoded ``board``, with up to ``most`` other
    names it might have (odds of at least MIN_NAME_ODDS; white and clear always each other,
    unless the players' colours ``told`` leave the other out)."""
    groups = []
    for k, name in enumerate(names):
        cells = tuple(sq.name for sq, piece in board.pieces() if piece.colour == name)
        if not cells:
            continue
        odds = name_odds[k] if name_odds else {name: 1.0}
        partner = CONFUSED_NAMES.get(name)
        if told is not None and partner not in told:
            partner = None
        others = sorted(((c, p) for c, p in odds.items() if c != name and (p >= MIN_NAME_ODDS or c == partner)),
                        key=lambda cp: -cp[1])
        if partner and partner not in dict(others):
            others.append((partner, 0.0))
        groups.append(ColourGroupReading(name, cells, float(odds.get(name, 1.0)), tuple(others[:most])))
    return groups


@dataclass
class Reading:
    """What was read from one photo.

    ``image``, ``grid`` and the overlay are at the resolution the photo was read at (at most
    READ_LONG_SIDE px); ``to_dict`` gives the corners in the photo's own (EXIF-rotated) pixels.
    """

    file: str | None
    grid: GridFit | None
    play_area: PlayArea | None
    board: Board | None
    cells: list[CellReading] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    warning_kinds: list[str] = field(default_factory=list)  # per warning, what it is about (WARNING_KINDS)
    seconds: float = 0.0
    failed_stage: str | None = None
    squares: SquaresResult | None = field(default=None, repr=False)
    square_scale: float = 1.0  # squares-stage px per reading px
    image: np.ndarray | None = field(default=None, repr=False)
    colour_names: list[str] = field(default_factory=list)
    colour_groups: list[ColourGroupReading] = field(default_factory=list)
    photo_scale: float = 1.0  # photo px per reading px (the photo may be read shrunk, or a small board's larger)
    threehouse: bool | None = None  # the stash the board was read with (None: not got that far)
    stash_inferred: bool = False  # the stash was inferred from the photo, not given
    stash_unsure: bool = False  # inferred, and the other stash fits the parks nearly as well (or the colours outvoted them, or its counts fight the look)
    stash_doubt: str | None = None  # when unsure, why: "7 parks on a 6x6 board (standard for 2 players has 6 parks, ...)"
    colours_told: list[str] | None = None  # the players' colours, when they said them (the pieces named among them)
    quality: PhotoQuality | None = None  # blurred, shaken, blown out or too dark (quality.photo_quality)
    grid_marked: bool = False  # the grid came from corners marked by hand, not the board finder
    grid_unsure: bool = False  # the board finder was unsure of the board's outline (GRID_UNSURE), or found it not square
    # When which edge is row 1 was a close call (ROW_ONE_GUESSED): the clockwise quarter turns
    # (as Board.rotated) that make the other candidate edge row 1.
    row_one_alternative: int | None = None

    def warn(self, kind: str, text: str, *, first: bool = False) -> None:
        """Add a warning of ``kind`` (one of WARNING_KINDS); ``first``: ahead of the others."""
        assert kind in WARNING_KINDS, kind
        at = 0 if first else len(self.warnings)
        self.warnings.insert(at, text)
        self.warning_kinds.insert(at, kind)

    def unwarn(self, kind: str) -> None:
        """Take back the warnings of ``kind`` (what they doubted settled since)."""
        kept = [(warning, said) for warning, said in zip(self.warnings, self.warning_kinds) if said != kind]
        self.warnings, self.warning_kinds = [w for w, _ in kept], [k for _, k in kept]

    def reword(self, kind: str, text: str) -> None:
        """Say the warnings of ``kind`` as ``text`` (its likelier cause known since they were given)."""
        self.warnings = [text if said == kind else warning for warning, said in zip(self.warnings, self.warning_kinds)]

    def to_dict(self) -> dict:
        """The JSON object of ``subdivision read --json``."""
        grid = None
        if self.grid is not None:
            k = self.photo_scale
            grid = {"rows": self.grid.rows, "cols": self.grid.cols,
                    "corners": [[round(float(x) * k, 1), round(float(y) * k, 1)] for x, y in self.grid.corners],
                    "marked": self.grid_marked, "unsure": self.grid_unsure,
                    "another_board": bool(self.grid.another_board)}
        area = None
        if self.play_area is not None:
            area = {**self.play_area.to_dict(), "ambiguous": bool(self.play_area.ambiguous)}
            if self.grid is not None:
                a = self.play_area
                outline = self.grid.outline(a.col, a.row, a.cols, a.rows)
                area["corners"] = [[round(float(x) * self.photo_scale, 1), round(float(y) * self.photo_scale, 1)]
                                   for x, y in clockwise_from_top_left(outline)]
        return {
            "file": self.file,
            "board": self.board.to_text() if self.board is not None else None,
            "grid": grid,
            "play_area": area,
            "cells": [c.to_dict() for c in self.cells],
            "colour_groups": [g.to_dict() for g in self.colour_groups],
            "colours_told": self.colours_told,
            "threehouse": self.threehouse,
            "stash_inferred": self.stash_inferred,
            "stash_unsure": self.stash_unsure,
            "stash_doubt": self.stash_doubt,
            "sharpness": None if self.quality is None or self.quality.sharpness is None
            else round(self.quality.sharpness, 3),
            "blurred": self.blurred,
            "row_one_alternative": self.row_one_alternative,
            "warnings": list(self.warnings),
            "warning_kinds": list(self.warning_kinds),
            "seconds": round(self.seconds, 3),
        }

    @property
    def uncertain(self) -> list[str]:
        return [c.cell for c in self.cells if c.confidence < UNSURE]

    @property
    def blurred(self) -> bool:
        """Whether the photo is too blurred (or shaken) for a sure reading."""
        return self.quality is not None and self.quality.blurred

    def overlay(self, image: np.ndarray | None = None, mark_unsure: bool = True) -> np.ndarray:
        """The photo with the grid, the play area and each square's reading drawn on it
        (``image``: the photo at any size, e.g. full size; default the one read;
        ``mark_unsure``: frame the unsure squares)."""
        from scorer.vision.overlay import draw_reading

        base = image if image is not None else self.image
        if base is None:
            raise ValueError("no image to draw on")
        zoom = 1.0
        if image is not None and self.image is not None:
            zoom = max(image.shape[:2]) / max(self.image.shape[:2])
        return draw_reading(base, self, zoom, mark_unsure)

    def overlay_png(self, image: np.ndarray | None = None, max_side: int = 1600, suffix: str = ".png") -> bytes:
        """The overlay as PNG bytes (shrunk to ``max_side`` px at most); ``suffix`` ".jpg"
        for JPEG bytes instead."""
        drawn = self.overlay(image)
        drawn, _ = downscale(drawn, max_side)
        ok, buf = cv2.imencode(suffix, drawn, [cv2.IMWRITE_JPEG_QUALITY, 92] if suffix == ".jpg" else [])
        if not ok:
            raise RuntimeError(f"{suffix} encoding failed")
        return buf.tobytes()


def _centre_shifts(grid: GridFit) -> dict:
    """Per-square pixel offsets of the refined square centres from the single homography."""
    return {(c, r): tuple(grid.centre_shift(c, r)) for r in range(grid.rows) for c in range(grid.cols)}


def find_board_grid(image: np.ndarray, finer: Callable[[int], np.ndarray] | None = None) -> GridFit:
    """The checkerboard in a photo loaded as :func:`read_photo` loads it, found at
    WORK_LONG_SIDE px; where no sure square board is found there and the photo has more px to
    give (``finer``, as :func:`read_image` takes it), looked for again in it decoded larger
    (:func:`grid.find_grid_fine`: a board far off), the better of the two fits kept. Raises
    ``NoBoardFound``."""
    work, scale = downscale(image, WORK_LONG_SIDE)
    try:
        fit, missed = find_grid(work), None
        fit = fit.scaled(1.0 / scale) if scale != 1.0 else fit
    except NoBoardFound as err:
        fit, missed = None, err
    if finer is not None and (fit is None or not sure_board(fit) or fit.rows != fit.cols):  # boards are square
        fit = better_fit(fit, _found_finer(image, finer))
    if fit is None:
        raise missed
    return fit


def _found_finer(image: np.ndarray, finer: Callable[[int], np.ndarray]) -> GridFit | None:
    """The board found in the photo decoded again at grid.FINE_LONG_SIDE
    (:func:`grid.find_grid_fine`), in ``image``'s px; None where its long side then is under
    FINE_GRID_GAIN times WORK_LONG_SIDE, the photo cannot be decoded again, or no board-sized
    fit is found (a patch there says no more than the working size's answer: in a photo with
    no board, a few tiles or a weave)."""
    decoded = _decoded_again(image, finer, FINE_LONG_SIDE)
    if decoded is None or max(decoded[0].shape[:2]) < FINE_GRID_GAIN * WORK_LONG_SIDE:
        return None
    larger, ratio = decoded
    try:
        fit = find_grid_fine(larger)
    except NoBoardFound:
        return None
    return fit.scaled(1.0 / ratio) if board_sized(fit) else None


# Unsure of this share of the play area's squares or more, the reader says the photo may show
# no Subdivision game: so it said of 7 of the 12 real chess photos (tests/data/real_chessboards;
# the others 22-64% unsure) and of 1 of 316 studio photos (dev and ten render sets outside the
# repository, 2026-12-06: glassy pieces seen from nearly straight above, every square unsure;
# the next most 94%).
NEARLY_ALL_UNSURE = 0.95
# (on a grid marked by hand where no square corners were seen: most likely the marks or the squares
# count, not the game, and the squares' look as glare or a hand over them is the grid's doing too)
MARKED_OFF_THE_SQUARES = ("the reader is unsure of nearly every square ({unsure} of {squares}) and saw no square "
                          "corners near the marked corners: check the corners marked and the number of squares "
                          "({cols}x{rows})")
NOT_A_GAME = ("the reader is unsure of nearly every square ({unsure} of {squares}): check that this is a Subdivision "
              "game (Looney pyramids; chess pieces are not read), or take the photo again in even light, the whole "
              "board in view")
# (the same on a grid that runs past the photo's edge: the cut, or a grid off the board, is the likelier cause)
CUT_OFF_NOT_A_GAME = ("the reader is unsure of nearly every square ({unsure} of {squares}) on a grid that runs past "
                      "the photo's {edges} edge{s}: check the grid drawn on the photo first, or take the photo again "
                      "with the whole board in view")


# With the players' colours told, a group the photo alone would name a colour not told at these
# odds or more is in doubt: the colours told may be another game's (a photo of the next game with
# the last one's colours still set) or the group's look misleads the naming.
TOLD_DOUBTED = 0.9
UNLIKE_TOLD = ("some pieces do not look like any of the colours told ({colours}): check those colours, "
               "or the colours set for this game")
TOLD_COUNT = ("{told} colours told ({colours}), but the board is set up for {players} players: check the "
              "colours set for this game")


def told_colours(colours: Sequence[str] | None, players: int | None = None) -> list[str] | None:
    """The players' colours as told (a sequence of names or letters, ``"red"`` or ``"r"``),
    checked: two to four, each once, as many as ``players`` when that is given too; None when
    not told. UserError (one line) otherwise."""
    if colours is None:
        return None
    if isinstance(colours, str):  # one string would be taken letter by letter
        raise UserError(f"the players' colours: give them as a list of names, not the string {colours!r}")
    try:
        told = parse_seats(colours)
    except ValueError as err:
        raise UserError(f"the players' colours: {err}") from None
    if players is not None and players != len(told):
        raise UserError(f"{players} players, but {len(told)} colours told: {', '.join(told)}")
    return told


def _groups_for_colours_told(reading: Reading, told: list[str], setup, pyramids: int,
                             choices: list[int]) -> tuple[int | None, list[int]]:
    """How many colour groups to make with the players' colours ``told``: as many as told (once
    there are two pieces a player), but no more than the board's ``setup`` has players, and
    the group counts ``choices`` allows no more than that; a setup for another number of
    players than colours told is warned of (another game's colours left set?)."""
    most = len(told)
    if setup is not None and setup.players != len(told):
        reading.warn("colours_told", TOLD_COUNT.format(told=len(told), colours=", ".join(told), players=setup.players))
        most = min(most, setup.players)
    return (most if pyramids >= 2 * most else None), ([k for k in choices if k <= most] or [most])


def unlike_told(untold: dict[str, float], told: Sequence[str]) -> bool:
    """Whether a group's name odds from the photo alone (``untold``) put TOLD_DOUBTED or more
    on colours not ``told``."""
    return sum(p for name, p in untold.items() if name not in told) >= TOLD_DOUBTED


def doubted_by_the_photo(odds: dict[str, float], untold: dict[str, float], told: Sequence[str]) -> dict[str, float]:
    """A group's name odds among the colours ``told`` (``odds``), weighed half and half with the
    odds the photo alone gives (``untold``) where those are :func:`unlike_told`, so that the
    group is flagged with the photo's name offered (its pieces keep the name told); else
    ``odds``."""
    if not unlike_told(untold, told):
        return odds
    return {name: 0.5 * odds.get(name, 0.0) + 0.5 * untold.get(name, 0.0) for name in {**odds, **untold}}


def read_image(image: np.ndarray, *, players: int | None = None, threehouse: bool | None = None,
               area: PlayArea | dict | None = None, grid: GridFit | None = None,
               file: str | None = None, finer: Callable[[int], np.ndarray] | None = None,
               colours: Sequence[str] | None = None) -> Reading:
    """Read a board from a loaded BGR photo. ``grid`` skips the grid finder (e.g. ground truth);
    ``threehouse`` None infers the stash from the play area and its parks (``infer_stash``).
    ``colours``: the players' colours (names or letters, :func:`told_colours`), when the players
    say them: the pieces are named among them alone, in as many groups as colours told where
    the board's setup does not say fewer players (the play area and the stash are still the
    board's, or ``players``').
    ``finer``: the photo decoded again at a given long side (px), for a board whose squares are
    smaller than SQUARE_PX in ``image`` (:func:`finer_photo`, :func:`photo_decoder`); the board
    is then read from that larger image, ``reading.image``, whose px the reading's geometry is
    in, and ``reading.photo_scale`` is ``image``'s px per px of it.

    Row 1 of the board is the play area's edge nearest the bottom of the image; on a board
    turned near 45 degrees that can be another edge than the whole checkerboard's, and then
    the board is read again with the grid turned to match."""
    start = time.perf_counter()
    told = told_colours(colours, players)
    found = grid is None
    # Two helper threads: the whole photo's quality is judged on one while the board is found,
    # and over the board while the board is read; the learned model's networks run on the
    # other (_read_on_grid).
    with ThreadPoolExecutor(max_workers=2) as helpers:
        whole = helpers.submit(photo_quality, image)
        try:
            if found:
                grid = find_board_grid(image, finer)
            if min(grid.rows, grid.cols) < MIN_BOARD_SQUARES:
                cut = found and _at_photo_edge(grid, image.shape)
                least = f"a Subdivision board needs at least {MIN_BOARD_SQUARES}x{MIN_BOARD_SQUARES}"
                only = f"the checkerboard {'found' if found else 'given'} is only {grid.cols}x{grid.rows} squares"
                raise BoardCutOff(f"{only}{CUT_SHORT} ({least})") if cut else NoBoardFound(f"{only}; {least}")
            if found and grid.confidence < BARELY_FOUND and whole.result().problems():
                raise NoBoardFound(f"the checkerboard is barely seen (grid confidence {grid.confidence:.2f})")
        except NoBoardFound as err:
            problems = whole.result().problems() if found else []
            if problems:  # (of its kind: a board cut off says to take it again already)
                again = "" if isinstance(err, BoardCutOff) else ": take it again"
                raise type(err)(f"{err}; the photo looks {' and '.join(problems)}{again}") from None
            raise
        colourless = not has_colour(image)
        given_side = max(image.shape[:2])
        image, grid = finer_photo(image, grid, finer)
        judged = helpers.submit(quality_on_board, whole.result(), image, grid)
        reading = _read_on_grid(image, grid, players=players, threehouse=threehouse, area=area, file=file,
                                colourless=colourless, helpers=helpers, told=told, area_given=area is not None)
        play = reading.play_area
        turns = grid.bottom_turns(play.col, play.row, play.cols, play.rows) if play is not None else 0
        if turns and reading.failed_stage is None:
            again = _read_on_grid(image, grid.turned(turns), players=players, threehouse=threehouse,
                                  area=play.turned(turns, grid.cols, grid.rows), file=file, colourless=colourless,
                                  helpers=helpers, told=told, area_given=area is not None)
            if again.failed_stage is None:
                if play.ambiguous:
                    again.play_area = replace(again.play_area, ambiguous=True)
                    again.warn("play_area", AMBIGUOUS_AREA, first=True)
                reading = again
        # The quality describes the reading's grid: judged again where the reading was turned
        # to match (the same board seen otherwise, so mostly the same answer).
        quality = judged.result() if reading.grid is grid else quality_on_board(whole.result(), image, reading.grid)
    play, final = reading.play_area, reading.grid  # the grid turned to match, when it was
    rect = (play.col, play.row, play.cols, play.rows) if play is not None else None
    if rect is not None and final.bottom_margin(*rect) < ROW_ONE_UNSURE * final.square_side_px():
        # The runner-up edge; or, when the read turned to put the lowest edge at row 1 failed,
        # that edge.
        reading.row_one_alternative = final.bottom_turns(*rect) or final.runner_up_turns(*rect)
        reading.warn("row_one", ROW_ONE_GUESSED)
    _judge_photo_quality(reading, quality)
    grid_doubted = found and (grid.confidence < GRID_UNSURE or _found_short_in_frame(grid, image.shape))
    if play is not None and reading.board is not None:  # (marked too: corners may lie past the photo's edge)
        cut, near = cut_off_edges(final, play, reading.board, image.shape)
        near = near if found else []  # (marks on the board's own edge: the player saw it in the photo)
        for edges, text in ((near, NEAR_EDGE), (cut, CUT_OFF_UNSURE_GRID if grid_doubted else CUT_OFF)):
            if edges:
                reading.warn("photo", text.format(edges=listed(edges), s="s" if len(edges) > 1 else "",
                                                  verb="" if len(edges) > 1 else "s"), first=True)
        if cut:  # nearly every square unsure: the cut said as the likelier cause (a walkthrough was told of chess first)
            reading.reword("unsure_board", CUT_OFF_NOT_A_GAME.format(
                unsure=len(reading.uncertain), squares=reading.board.rows * reading.board.cols, edges=listed(cut),
                s="s" if len(cut) > 1 else ""))
    if found and grid.another_board:  # which board was read: said before what was read on it
        reading.warn("another_board", ANOTHER_BOARD, first=True)
    if grid_doubted:
        reading.grid_unsure = True
        why = (f"grid confidence {grid.confidence:.2f}" if grid.confidence < GRID_UNSURE
               else f"found {grid.cols}x{grid.rows} squares, not square")
        reading.warn("grid", f"unsure of the board's outline ({why}): check "
                             "that the grid drawn on the photo covers the whole checkerboard", first=True)
    if max(image.shape[:2]) != given_side:  # read from the photo decoded larger
        reading.photo_scale = given_side / max(image.shape[:2])
    reading.seconds = time.perf_counter() - start
    return reading


def photo_decoder(source: str | Path | bytes, photo_scale: float) -> Callable[[int], np.ndarray] | None:
    """``read_image``'s ``finer``: the photo ``source``, loaded shrunk by ``photo_scale``,
    decoded again at a given long side; None where it has no more px to give, or cannot be read
    twice (a pipe gives its bytes once)."""
    if photo_scale < FINER_GAIN or not (isinstance(source, bytes) or Path(source).is_file()):
        return None
    return lambda long_side: load_photo_scaled(source, long_side=long_side)[0]


def finer_photo(image: np.ndarray, grid: GridFit,
                finer: Callable[[int], np.ndarray] | None) -> tuple[np.ndarray, GridFit]:
    """The photo and the board's grid in it, decoded again larger (``finer``: the photo at a
    given long side) where the squares are smaller than SQUARE_PX and the photo has more px to
    give, up to FINER_LONG_SIDE; else as they are. A photo that cannot be decoded again (gone,
    changed) is read as it is."""
    side = grid.square_side_px()
    if finer is None or side >= SQUARE_PX:
        return image, grid
    long_side = min(FINER_LONG_SIDE, math.ceil(max(image.shape[:2]) * SQUARE_PX / side))
    if long_side < FINER_GAIN * max(image.shape[:2]):
        return image, grid
    decoded = _decoded_again(image, finer, long_side)
    if decoded is None:
        return image, grid
    larger, ratio = decoded
    return larger, grid.scaled(ratio)


def _decoded_again(image: np.ndarray, finer: Callable[[int], np.ndarray],
                   long_side: int) -> tuple[np.ndarray, float] | None:
    """The photo decoded again at ``long_side`` (``finer``) and its px per px of ``image``;
    None where that gives under FINER_GAIN times ``image``'s px, is not the same photo (gone,
    changed) or cannot be decoded."""
    try:
        larger = finer(long_side)
    except (UserError, MemoryError):
        return None
    ratio = max(larger.shape[:2]) / max(image.shape[:2])
    same_shape = abs(larger.shape[0] / larger.shape[1] - image.shape[0] / image.shape[1]) < 0.01
    if ratio < FINER_GAIN or not same_shape:
        return None
    return larger, ratio


def cut_off_edges(grid: GridFit, play: PlayArea, board: Board, shape: tuple[int, ...]) -> tuple[list[str], list[str]]:
    """The photo's edges (``bottom``, ``top``, ``left``, ``right``) that cut through the play
    area (its side, at its squares' middles, runs past them), and those that lie so close to a
    side of it which is the found checkerboard's own side that the squares half a square beyond
    are out of the photo, unless both of that side's corners hold parks (the default parks sit
    in the play area's corners, so such a side is most likely the play area's own)."""
    height, width = shape[:2]
    last_col, last_row = play.cols - 1, play.rows - 1
    along_cols = play.col + 0.5 + np.arange(play.cols)
    along_rows = play.row + 0.5 + np.arange(play.rows)
    bottom, top = play.row, play.row + play.rows
    left, right = play.col, play.col + play.cols
    sides = [  # (its line, the line half a square beyond, whether that is the grid's side too, its corners)
        (np.c_[along_cols, np.full(play.cols, bottom)], np.c_[along_cols, np.full(play.cols, bottom - 0.5)],
         bottom == 0, [Square(0, 0), Square(last_col, 0)]),
        (np.c_[along_cols, np.full(play.cols, top)], np.c_[along_cols, np.full(play.cols, top + 0.5)],
         top == grid.rows, [Square(0, last_row), Square(last_col, last_row)]),
        (np.c_[np.full(play.rows, left), along_rows], np.c_[np.full(play.rows, left - 0.5), along_rows],
         left == 0, [Square(0, 0), Square(0, last_row)]),
        (np.c_[np.full(play.rows, right), along_rows], np.c_[np.full(play.rows, right + 0.5), along_rows],
         right == grid.cols, [Square(last_col, 0), Square(last_col, last_row)]),
    ]
    cut, near = [], []
    for line, beyond, on_grid_side, corners in sides:
        crossed = _photo_edges_crossed(grid.board_to_image(line), width, height)
        cut += [edge for edge in crossed if edge not in cut]
        if not crossed and on_grid_side and not all(board[square] == PARK for square in corners):
            near += [edge for edge in _photo_edges_crossed(grid.board_to_image(beyond), width, height)
                     if edge not in near]
    return cut, [edge for edge in near if edge not in cut]


def _photo_edges_crossed(xy: np.ndarray, width: int, height: int) -> list[str]:
    """The photo's edges past which any of the image points ``xy`` lie."""
    x, y = xy[:, 0], xy[:, 1]
    past = {"bottom": y >= height, "top": y < 0, "left": x < 0, "right": x >= width}
    return [edge for edge, out in past.items() if np.any(out)]


def _found_short_in_frame(grid: GridFit, shape: tuple[int, ...]) -> bool:
    """Whether the board found is not square though the photo had room for what it lacks:
    a row (or column) more beyond each of its longer sides still lies in the photo. Chessboards and
    the bandanna are square, so such a board was found a row or column short (seen from low
    down, pieces hiding an edge); one cut off by the photo's edge may be right."""
    if grid.rows == grid.cols:
        return False
    if grid.rows < grid.cols:
        beyond = [(c, r) for c in (0, grid.cols) for r in (-1, grid.rows + 1)]
    else:
        beyond = [(c, r) for c in (-1, grid.cols + 1) for r in (0, grid.rows)]
    xy = grid.board_to_image(np.array(beyond, np.float64))
    height, width = shape[:2]
    return bool(np.all(np.isfinite(xy)) and np.all((xy >= 0) & (xy < [width, height])))


def _judge_photo_quality(reading: Reading, quality: PhotoQuality) -> None:
    """Warn about a blurred, blown-out or too dark photo (``quality``, the photo's on the
    reading's grid), and about its view (:func:`_judge_the_view`); on a blurred one no square
    is surer than BLURRED_MAX_CONFIDENCE."""
    reading.quality = quality
    if reading.quality.blurred:
        for cell in reading.cells:
            cell.confidence = min(cell.confidence, BLURRED_MAX_CONFIDENCE)
        reading.warn("blurred", BLURRED, first=True)
    if reading.quality.blown_out:
        reading.warn("photo", BLOWN, first=True)
    if reading.quality.too_dark:
        reading.warn("photo", DARK, first=True)
    _judge_the_view(reading)


def _judge_the_view(reading: Reading) -> None:
    """Warn (EDITED) of a photo whose perspective an editor changed (:func:`looks_edited`):
    its view's angle is then a guess, so no advice on it; else advise a higher view where it
    would help (:func:`_advise_a_higher_view`)."""
    if looks_edited(reading):
        reading.warn("photo", EDITED)
    else:
        _advise_a_higher_view(reading)


def looks_edited(reading: Reading) -> bool:
    """Whether the photo's perspective does not fit a photo as the camera took it, as a photo
    cropped off-centre or warped by an editor does not: the camera's principal point moved off
    the photo's centre (``BoardCamera.principal_point_moved``), or the board gives no focal
    length at all (not ``focal_estimated``, nor one out of range) though the camera, with a
    phone's typical one, looks down at under ``camera.OFF_CENTRE_BELOW_DEG``."""
    if reading.squares is None:
        return False
    camera = reading.squares.camera
    return camera.principal_point_moved or (not camera.focal_estimated and not camera.focal_out_of_range
                                            and camera.axis_elevation_deg < OFF_CENTRE_BELOW_DEG)


def _advise_a_higher_view(reading: Reading) -> None:
    """Warn (LOW_VIEW) when the photo was taken from under LOW_VIEW_DEG above the board and
    squares were left unsure."""
    elevation = view_elevation(reading)
    if elevation is not None and elevation < LOW_VIEW_DEG and reading.uncertain:
        reading.warn("photo", LOW_VIEW.format(degrees=math.floor(elevation)))


def view_elevation(reading: Reading) -> float | None:
    """Degrees above the board the photo was taken from, at the play area's middle (None
    before the squares were read)."""
    play = reading.play_area
    if reading.squares is None or play is None:
        return None
    return reading.squares.camera.elevation_deg(play.col + (play.cols - 1) / 2, play.row + (play.rows - 1) / 2)


def _read_on_grid(image: np.ndarray, grid: GridFit, *, players: int | None, threehouse: bool | None,
                  area: PlayArea | dict | None, file: str | None, colourless: bool, helpers: Executor,
                  told: list[str] | None = None, area_given: bool = False) -> Reading:
    """Every stage after the grid, in the grid's own orientation (``read_image`` times it);
    ``colourless``: the photo has no colour (``colours.has_colour``); ``helpers`` runs the
    learned model's networks meanwhile; ``told``: the players' colours, when they said them;
    ``area_given``: the play area was the caller's, not found (``area`` is also the one found
    when the board is read again turned)."""
    reading = Reading(file=file, grid=grid, play_area=None, board=None, image=image, colours_told=told)
    players_given = players
    stage = "squares"
    try:
        factor = min(1.0, SQUARE_PX / max(grid.square_side_px(), 1.0))
        small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA) if factor < 1.0 else image
        g = grid.scaled(factor) if factor != 1.0 else grid
        camera = camera_from_homography(g.homography, (small.shape[1], small.shape[0]))
        small = without_veil(small, veil_level(small))  # a haze over the whole photo (flare, a smudged lens)
        # The learned model's board-wide size fit weighs the hand-built reader's trial scales
        # for the sizes from any height (that reader's own weighing names the square size far
        # worse, from high up taking the pieces a little large), and for the outlines too
        # where the photo was taken from low down (there its fit often prefers too small a scale).
        # The networks run while the outline fit's first sweeps at every scale run here: those
        # need nothing from the networks.
        running = helpers.submit(predict_squares, small, g.homography, g.rows, g.cols, centres=g.square_centres())
        trials = fit_each_scale(small, g.homography, g.rows, g.cols, camera, scales=PIECE_SCALES,
                                centre_shifts=_centre_shifts(g))
        learned = running.result()
        elevation = camera.elevation_deg((g.cols - 1) / 2, (g.rows - 1) / 2)
        scale_odds = _learned_scale_odds(learned)
        if scale_odds is not None and len(scale_odds) > len(PIECE_SCALES):
            trials.add_scales(LARGE_PIECE_SCALES)
        squares = trials.mixed(scale_prior=piece_scale_prior(scale_odds, elevation), size_prior=scale_odds)
        if shadowed_squares(local_gain(squares.appearance)) >= SHADOW_WARN_SQUARES:
            reading.warn("photo", SHADOWED)
        glared = glared_squares(squares.appearance)
        covered = covered_squares(squares.appearance, explained=glared)
        merge_learned(squares, small, g, learned=learned)  # the learned model's empty / park / pyramid odds
        apply_height_cue(squares)  # flat markers against tall pyramids, from above the base
        reading.squares, reading.square_scale = squares, factor
        stage = "play area"
        probs = np.zeros((g.rows, g.cols, len(LABELS)))
        for (c, r), sq in squares.readings.items():
            probs[r, c] = sq.probs
        play = find_play_area(1.0 - probs[..., 0], probs[..., 1], players=players,
                              threehouse=threehouse, area=area)
        reading.play_area = play
        if play.ambiguous:
            reading.warn("play_area", AMBIGUOUS_AREA)
        inside = [(c, r) for r in range(play.row, play.row + play.rows) for c in range(play.col, play.col + play.cols)
                  if 0 <= c < g.cols and 0 <= r < g.rows]
        read_as_pyramids = [sq for sq in inside if squares.readings[sq].label in ("1", "2", "3")]
        pyramids = [sq for sq in read_as_pyramids if squares.readings[sq].colour_lab is not None]
        hidden = [sq for sq in read_as_pyramids if squares.readings[sq].colour_lab is None]
        n_parks = sum(squares.readings[sq].label == "park" for sq in inside)
        if threehouse is None:
            unwashed = [(c, r) for (c, r) in pyramids if not glared[r, c]]
            threehouse, players = _inferred_stash(reading, play.rows, n_parks, players, squares, unwashed)
        reading.threehouse = bool(threehouse)
        stage = "colours"
        trios = THREEHOUSE_TRIOS if threehouse else STANDARD_TRIOS
        empties = [sq for sq in inside if squares.readings[sq].label == "empty"]
        # A board with none or only a few bare-looking squares is most likely finished and
        # full: a bare look there is likelier a faint piece or marker (clear plastic, a glass
        # stone) than a gap (FAINT_EMPTY).
        nearly_full = len(empties) <= max(1, round(NEARLY_FULL * len(inside)))
        fitting = setups_for_size(play.rows, play.cols, bool(threehouse))
        setup = setup_of_area(play.rows, play.cols, bool(threehouse), players, n_parks,
                              len(inside) - n_parks if nearly_full else None)
        if setup is None and told and len(told) in {s.players for s in fitting}:
            setup = setup_for(len(told), bool(threehouse))  # the board leaves it open: the colours told say
        # The setup says how many players; mid-game with few pieces, let the colours say.
        n_groups = setup.players if setup and len(pyramids) >= 2 * setup.players else None
        choices = sorted({s.players for s in fitting}) or [2, 3, 4]
        if told:
            n_groups, choices = _groups_for_colours_told(reading, told, setup, len(pyramids), choices)
        groups = colour_groups_for(squares, pyramids, players=n_groups, per_player=3 * trios if nearly_full else None,
                                   choices=choices, washed_out=glared, hidden=hidden, told=told)
        placed = placed_names(groups.names, groups.name_odds)  # each group's one name on the board
        doubted = []  # the names of the groups the photo alone names otherwise than told
        if told and groups.untold_odds and not colourless:  # (without colour the photo names nothing)
            doubted = [name for name, untold in zip(placed, groups.untold_odds) if unlike_told(untold, told)]
            groups.name_odds = [doubted_by_the_photo(odds, untold, told)
                                for odds, untold in zip(groups.name_odds, groups.untold_odds)]
        reading.colour_names = placed
        colour_probs = {sq: groups.probs[i] for i, sq in enumerate(pyramids)}
        colour_fit = {sq: float(groups.fit[i]) for i, sq in enumerate(pyramids)} if groups.fit is not None else {}
        stage = "decode"
        table, shown = {}, {}
        for (c, r) in inside:
            sq = squares.readings[(c, r)]
            name = Square(c - play.col, r - play.row).name
            cell = {".": sq.probs[0] * (FAINT_EMPTY if nearly_full else 1.0), "#": sq.probs[1]}
            cp = colour_probs.get((c, r))
            if cp is None:  # no colour sample (hidden behind other pieces)
                cp = unsampled_membership(sq.colour_names, placed)
            cp = cp * colour_fit.get((c, r), 1.0)  # a colour no player has: likelier a park
            placing, odds_shown = dict(cell), dict(cell)
            sizes = [sizes_seen_black(sq.probs[2:5], squares, c, r) if placed_name == "black"
                     else sq.probs[2:5] for placed_name in placed]
            for pips in (1, 2, 3):
                for k, placed_name in enumerate(placed):
                    # Placed under the group's one name; shown with every other its naming might have
                    # had, so that no piece comes out surer than its group's name. Without colour in
                    # the photo every group is asked about (below) and its names are guesses: its
                    # pieces keep the confidence of their size and place alone.
                    p_piece = sizes[k][pips - 1] * cp[k]
                    placing[f"{COLOUR_LETTERS[placed_name]}{pips}"] = p_piece
                    named = groups.name_odds[k].items() if groups.name_odds and not colourless else [(placed_name, 1.0)]
                    for colour, odds in named:
                        value = f"{COLOUR_LETTERS[colour]}{pips}"
                        odds_shown[value] = odds_shown.get(value, 0.0) + p_piece * odds
            table[name], shown[name] = placing, odds_shown
        fits = setup is not None and setup.size == play.rows == play.cols
        stashes_fill = fits and len(placed) == setup.players  # every player's stash and the parks fill the area
        # No bare-looking square at all: every piece has been placed, so each player has
        # exactly its stash (a finished board with gaps, where players had to pass, shows them).
        # Only a few: the stash counts still pull a faint piece out of a bare look, less surely.
        decoded = decode(table, play.rows, play.cols, trios=trios, parks=setup.parks if fits else None,
                         full=stashes_fill and not empties, likely_full=stashes_fill and nearly_full, shown=shown)
        reading.board = decoded.board
        for cell in decoded.cells:
            cell.confidence = calibrated_confidence(cell.confidence)
        _doubt_hidden_pyramids(decoded.cells, squares, play)
        _doubt_unsampled_colours(decoded.cells, squares, play, hidden, told)
        seen_from_above = _doubt_pyramids_that_blend_in(decoded.cells, squares, play)
        if seen_from_above:
            reading.warn("photo", FROM_ABOVE.format(squares=", ".join(seen_from_above)))
        washed_out = _doubt_washed_out(decoded.cells, glared, play)
        if washed_out:
            reading.warn("photo", GLARE.format(squares=", ".join(washed_out)))
        _doubt_squares(decoded.cells, _outside(g, small.shape), play, "out_of_photo", OUT_OF_PHOTO_MAX_CONFIDENCE)
        under_cover = _doubt_covered(decoded.cells, covered, play)
        if under_cover:
            reading.warn("photo", COVERED.format(squares=", ".join(under_cover)))
        reading.cells = decoded.cells
        for warning, kind in zip(decoded.warnings, decoded.warning_kinds):
            reading.warn(kind, warning)
        _settle_a_stash_the_pieces_show(reading, decoded.board)
        _doubt_a_stash_the_counts_fight(reading, decoded.cells, play)
        name_odds = groups.name_odds
        if pyramids and colourless:
            # Lightness alone cannot tell a player's colour: every group is flagged, and the
            # decoding keeps the lightness-only names so each group stays one colour.
            name_odds = [colourless_odds(odds) for odds in name_odds]
            if told:
                name_odds = [within_names(odds, told) for odds in name_odds]
            reading.warn("colourless", COLOURLESS)
        reading.colour_groups = colour_group_readings(decoded.board, placed, name_odds, told=told)
        if any(group.colour in doubted for group in reading.colour_groups):
            reading.warn("colours_told", UNLIKE_TOLD.format(colours=", ".join(told)))
        for group in reading.colour_groups:
            if group.unsure:
                others = " or ".join(c for c, _ in group.alternatives)
                reading.warn("colour_check", f"check a colour: the {len(group.cells)} {group.colour} pieces may be {others} "
                                             f"(odds of {group.colour}: {group.confidence:.0%})")
        outside = [(c, r) for (c, r), sq in squares.readings.items()
                   if not play.contains(c, r) and sq.label != "empty"]
        if outside:
            many = len(outside) > 1
            # a play area the player count given framed too small for the game
            given = f", and the number of players given ({players_given})" if players_given and not area_given else ""
            reading.warn("outside", f"{len(outside)} square{'s' if many else ''} outside the play area "
                                    f"look{'' if many else 's'} occupied: check the play area framed on the photo{given}")
        unsure = reading.uncertain
        squares_in_play = decoded.board.rows * decoded.board.cols
        if len(unsure) >= NEARLY_ALL_UNSURE * squares_in_play:
            reading.warn("unsure_board", NOT_A_GAME.format(unsure=len(unsure), squares=squares_in_play), first=True)
        if unsure:
            reading.warn("unsure_squares", f"unsure about {len(unsure)} square{'s' * (len(unsure) != 1)}: {', '.join(unsure)}")
    except UserError:
        raise
    except Exception as err:  # a later stage failed: keep the grid, say what failed
        reading.failed_stage = stage
        reading.warn("failed", f"reading failed at the {stage} stage: {type(err).__name__}: {err}")
    return reading


def _settle_a_stash_the_pieces_show(reading: Reading, board: Board) -> None:
    """Take back the doubt of a standard stash inferred on a close call of the parks where the
    board read holds STASH_RULED_OUT or more pieces beyond the ThreeHouse stash's count of a
    colour and size, in two colours or more: pieces ThreeHouse has not got settle it, whatever a
    park misread said."""
    if not reading.stash_inferred or not reading.stash_unsure or reading.threehouse:
        return
    counts = Counter((piece.colour, piece.pips) for _, piece in board.pieces())
    beyond = Counter()
    for (colour, _), n in counts.items():
        beyond[colour] += max(0, n - THREEHOUSE_TRIOS)
    # (in two colours at least: one colour's alone may be two ThreeHouse players' pieces seen as one colour)
    if sum(beyond.values()) >= STASH_RULED_OUT and sum(n > 0 for n in beyond.values()) >= 2:
        reading.stash_unsure, reading.stash_doubt = False, None
        reading.unwarn("stash")


def _doubt_a_stash_the_counts_fight(reading: Reading, cells: list[CellReading], play: PlayArea) -> None:
    """Mark an inferred stash unsure, and say so, when the other stash fits the play area's size
    too and its piece counts settled STASH_DOUBT_SETTLED squares or more against their look."""
    if not reading.stash_inferred or reading.stash_unsure:
        return
    if len({s.trios for s in setups_for_size(play.rows, play.cols)}) < 2:
        return
    settled = sum(cell.changed_by == "counts" for cell in cells)
    if settled >= STASH_DOUBT_SETTLED:
        reading.stash_unsure = True
        reading.stash_doubt = STASH_FIGHTS_COUNTS.format(settled=settled, stash=stash_name(bool(reading.threehouse)))
        reading.warn("stash", f"unsure of the stash: {reading.stash_doubt}; {SET_THE_STASH}")


def _doubt_hidden_pyramids(cells: list[CellReading], squares: SquaresResult, play: PlayArea) -> None:
    """Mark the pyramids whose base (at the size read) the pieces in front hide by
    HIDDEN_SHARE or more (1-pips) or HIDDEN_TALL_SHARE or more (2- and 3-pips), and make them
    no surer than HIDDEN_MAX_CONFIDENCE."""
    for pips, least in ((1, HIDDEN_SHARE), (2, HIDDEN_TALL_SHARE), (3, HIDDEN_TALL_SHARE)):
        read = {_board_square(cell, play): cell for cell in cells if cell.value[-1:] == str(pips)}
        for at, share in hidden_share(squares, list(read), pips=pips).items():
            if share >= least:
                read[at].partly_hidden = True
                read[at].confidence = min(read[at].confidence, HIDDEN_MAX_CONFIDENCE)


def _doubt_unsampled_colours(cells: list[CellReading], squares: SquaresResult, play: PlayArea,
                             unsampled: list[tuple[int, int]], told: list[str] | None = None) -> None:
    """Mark the pyramids on squares ``unsampled`` (read as pyramids with no colour sample of
    their own) whose colour the learned model gives less than UNSAMPLED_DISPUTED, make them no
    surer than UNSAMPLED_MAX_CONFIDENCE, and offer the model's likeliest colour at the same
    size (among the colours ``told``, when told), its share the model's odds of that colour
    times what the confidence leaves."""
    unsampled = set(unsampled)
    for cell in cells:
        content = content_from_symbol(cell.value)
        at = _board_square(cell, play)
        if not isinstance(content, Piece) or at not in unsampled or squares.readings[at].colour_names is None:
            continue
        learned = np.asarray(squares.readings[at].colour_names, np.float64)
        if told:
            learned = np.where(np.isin(COLOURS, told), learned, 0.0)
            if learned.sum() <= 0:  # the model gives the colours told no odds at all: no word on them
                continue
            learned = learned / learned.sum()
        if learned[COLOURS.index(content.colour)] >= UNSAMPLED_DISPUTED:
            continue
        cell.colour_disputed = True
        cell.confidence = min(cell.confidence, UNSAMPLED_MAX_CONFIDENCE)
        likeliest = int(np.argmax(learned))
        offered = f"{COLOUR_LETTERS[COLOURS[likeliest]]}{content.pips}"
        offer(cell, {offered: (1.0 - cell.confidence) * float(learned[likeliest])})


def on_near_black_square(squares: SquaresResult, col: int, row: int) -> bool:
    """Whether square (col, row) is a dark one under DARK_SQUARE_SHARE of the light squares'
    lightness, where a black piece's shaded faces melt into it."""
    appearance = squares.appearance
    return bool(appearance.dark_lab[0] < DARK_SQUARE_SHARE * appearance.light_lab[0]
                and (col + row) % 2 == appearance.dark_parity)


def melts_in_from_above(squares: SquaresResult, col: int, row: int, pips: int) -> bool:
    """Whether a black or see-through ``pips`` pyramid on square (col, row) would melt into
    it: a near-black square (:func:`on_near_black_square`) seen so steeply that the piece's
    apex falls within MELT_REACH times its base's half side of the base's middle
    (``squares.apex_within_base``)."""
    return on_near_black_square(squares, col, row) and apex_within_base(squares.camera, col, row, pips,
                                                                         reach=MELT_REACH)


def sizes_seen_black(sizes: np.ndarray, squares: SquaresResult, col: int, row: int) -> np.ndarray:
    """A black pyramid's odds of 1, 2 and 3 pips on square (col, row) from the square
    reader's (``sizes``): on a near-black square, a share of each size's odds moves to the
    next size up, the size it would look one smaller than: BLACK_FROM_ABOVE_SMALLER where its
    apex falls within its base (``squares.apex_within_base``, tested at each size; the doubt's
    :func:`melts_in_from_above` reaches a little lower),
    BLACK_FROM_HIGH_SMALLER seen from BLACK_FROM_HIGH_DEG up. Elsewhere ``sizes`` as they are."""
    seen = np.array(sizes, dtype=np.float64)
    if not on_near_black_square(squares, col, row):
        return seen
    high = squares.camera.elevation_deg(col, row) >= BLACK_FROM_HIGH_DEG
    for pips in (2, 1):  # the larger first, so that no odds move twice
        if apex_within_base(squares.camera, col, row, pips):
            share = BLACK_FROM_ABOVE_SMALLER
        else:
            share = BLACK_FROM_HIGH_SMALLER if high else 0.0
        moved = share * seen[pips - 1]
        seen[pips - 1] -= moved
        seen[pips] += moved
    return seen


def sizes_it_may_be(piece: Piece, doubt: float, from_above: bool) -> dict[str, float]:
    """The other sizes a pyramid that melts into its square may be, with the odds ``doubt`` its
    reading lost shared among them: seen from above on a black square it looks a size smaller
    than it is, never larger, so the next size up takes them all (a 3-pip, with none larger, is
    offered none); one melting into a square of its own colour shows too little outline to size
    either way, so its neighbouring sizes share them."""
    if from_above:
        sizes = [piece.pips + 1] if piece.pips < 3 else []
    else:
        sizes = [pips for pips in (piece.pips - 1, piece.pips + 1) if 1 <= pips <= 3]
    return {Piece(piece.colour, pips).symbol: doubt / len(sizes) for pips in sizes}


def _doubt_pyramids_that_blend_in(cells: list[CellReading], squares: SquaresResult, play: PlayArea) -> list[str]:
    """Mark the pyramids that melt into the square under them, and make them no surer than
    BLENDS_IN_MAX_CONFIDENCE: black ones, and see-through ones read smaller than 3 pips, on
    near-black squares seen from so steeply above that no height shows (DARK_SQUARE_SHARE,
    ``squares.apex_within_base``), and any whose colour lies within ``squares.blend_threshold``
    of their square's (``squares.blends_into_square``). Returns the names of the cells read
    under 3 pips that were doubted for being seen from above (FROM_ABOVE: they may be a size
    larger). The odds taken off each such reading go to the sizes it may be instead, among its
    alternatives (:func:`sizes_it_may_be`), so that the likely fix is one tap."""
    from_above_names = []
    for cell in cells:
        content = content_from_symbol(cell.value)
        if not isinstance(content, Piece):
            continue
        col, row = _board_square(cell, play)
        from_above = (content.colour == "black" or (content.colour != "white" and content.pips < 3)) \
            and melts_in_from_above(squares, col, row, content.pips)
        if from_above or blends_into_square(squares, col, row):
            cell.blends_in = True
            doubt = cell.confidence - BLENDS_IN_MAX_CONFIDENCE
            if doubt > 0:
                cell.confidence = BLENDS_IN_MAX_CONFIDENCE
                offer(cell, sizes_it_may_be(content, doubt, from_above))
        if from_above and content.pips < 3:
            from_above_names.append(cell.cell)
    return from_above_names


def _doubt_washed_out(cells: list[CellReading], glared: np.ndarray, play: PlayArea) -> list[str]:
    """Mark the cells on squares a reflection washes out (``glared``, rows x cols of the
    whole checkerboard, ``lighting.glared_squares``) and make them no surer than
    WASHED_OUT_MAX_CONFIDENCE; their names."""
    return _doubt_squares(cells, glared, play, "washed_out", WASHED_OUT_MAX_CONFIDENCE)


def _doubt_covered(cells: list[CellReading], covered: np.ndarray, play: PlayArea) -> list[str]:
    """Mark the cells on squares something lies over (``covered``, rows x cols of the whole
    checkerboard, ``squares.covered_squares``) and make them no surer than
    COVERED_MAX_CONFIDENCE, unless the reading sees what is on them plainly (their mean
    confidence COVER_SEEN_CONFIDENCE or more: tall pieces seen from low down, leaning over the
    corners behind them); their names."""
    hidden = [cell.confidence for cell in cells if covered[_board_square(cell, play)[::-1]]]
    if not hidden or np.mean(hidden) >= COVER_SEEN_CONFIDENCE:
        return []
    return _doubt_squares(cells, covered, play, "covered", COVERED_MAX_CONFIDENCE)


def _marked_off_the_squares(reading: Reading, rows: int, cols: int) -> None:
    """On a grid marked by hand that no square corner bears out, say that nearly every square
    unsure is the marks' doing (MARKED_OFF_THE_SQUARES), not another game's, and drop what the
    squares' look said of glare, a shadow or something over them (the marks off the squares make them so)."""
    said = [(text, kind) for text, kind in zip(reading.warnings, reading.warning_kinds)
            if not (kind == "photo" and text.startswith((GLARE.split("{")[0], COVERED.split("{")[0], SHADOWED)))]
    squares = reading.board.rows * reading.board.cols if reading.board is not None else rows * cols
    reading.warnings, reading.warning_kinds = [text for text, _ in said], [kind for _, kind in said]
    reading.reword("unsure_board", MARKED_OFF_THE_SQUARES.format(unsure=len(reading.uncertain), squares=squares,
                                                                 cols=cols, rows=rows))
    for cell in reading.cells:
        cell.washed_out = cell.covered = False


def _at_photo_edge(grid: GridFit, shape: tuple[int, ...]) -> bool:
    """Whether a corner of ``grid`` lies within half a square of an edge of an image of
    ``shape`` (or past it): the board may run on out of the photo."""
    return bool(_off_image(grid.corners, shape, margin=0.5 * grid.square_side_px()).any())


def _outside(grid: GridFit, shape: tuple[int, ...]) -> np.ndarray:
    """Which squares of ``grid`` (rows x cols of the whole checkerboard) have their middles
    outside an image of ``shape``."""
    return _off_image(grid.square_centres(), shape)


def _off_image(xy: np.ndarray, shape: tuple[int, ...], margin: float = 0.0) -> np.ndarray:
    """Which image points ``xy`` (..., 2) lie outside an image of ``shape``, or within ``margin``
    px of its edge pixels' middles."""
    height, width = shape[:2]
    x, y = xy[..., 0], xy[..., 1]
    return (x < margin) | (y < margin) | (x > width - 1 - margin) | (y > height - 1 - margin)


def _doubt_squares(cells: list[CellReading], where: np.ndarray, play: PlayArea, flag: str,
                   most: float) -> list[str]:
    """Set the CellReading attribute ``flag`` on the cells on squares ``where`` marks (rows x
    cols of the whole checkerboard) and make them no surer than ``most``; their names."""
    marked = []
    for cell in cells:
        col, row = _board_square(cell, play)
        if where[row, col]:
            setattr(cell, flag, True)
            cell.confidence = min(cell.confidence, most)
            marked.append(cell.cell)
    return marked


def _board_square(cell: CellReading, play: PlayArea) -> tuple[int, int]:
    """The (col, row) on the whole checkerboard (the squares' keys) of a play-area cell."""
    square = Square.parse(cell.cell)
    return square.col + play.col, square.row + play.row


def _inferred_stash(reading: Reading, size: int, parks_seen: int, players: int | None,
                    squares: SquaresResult, pyramids: list[tuple[int, int]]) -> tuple[bool, int | None]:
    """ThreeHouse or not, from the play area's size and the parks read in it (``infer_stash``),
    a close call, or a call more players' colours could overturn, settled by the number of
    colours when they show it clearly (``clear_group_count``), with a warning when the other
    stash fits the parks nearly as well or the colours outvoted them;
    and the players: ``players``, or the number of colours that settled the call."""
    guess = infer_stash(size, parks_seen, players)
    if len(guess.contenders) > 1:
        colours_seen = clear_group_count(squares, pyramids, guess.contenders)
        if colours_seen is not None:
            guess = infer_stash(size, parks_seen, players, colours_seen)
    reading.stash_inferred = True
    reading.stash_unsure = guess.close
    reading.stash_doubt = guess.why()
    doubt = guess.doubt()
    if doubt:
        reading.warn("stash", doubt)
    return guess.threehouse, players or guess.colours_seen


def _learned_scale_odds(learned) -> np.ndarray | None:
    """The learned size fit's odds (``piece_scale_odds``; None: no say) of PIECE_SCALES and,
    where it gives a travel set's small squares (LARGE_PIECE_SCALES) LARGE_SCALE_ODDS or
    more, of those too (the outline fit is then run at them as well); else of PIECE_SCALES
    alone, scaled up to make one, as the others would weigh next to nothing."""
    odds = piece_scale_odds(learned, PIECE_SCALES + LARGE_PIECE_SCALES)
    if odds is None or odds[len(PIECE_SCALES):].max() >= LARGE_SCALE_ODDS:
        return odds
    return odds[:len(PIECE_SCALES)] / odds[:len(PIECE_SCALES)].sum()


def warm_up() -> None:
    """Load the learned model's networks and run each once on an 8x8 board's worth of blank
    views (OpenCV sets a network up on its first run), so that the first photo a server reads
    is as quick as the rest."""
    predict_patches(np.zeros((64, 6, PATCH_PX, PATCH_PX), np.float32))


def read_photo(source: str | Path | bytes, *, players: int | None = None, threehouse: bool | None = None,
               area: PlayArea | dict | None = None, corners=None, rows: int = 8, cols: int = 8,
               colours: Sequence[str] | None = None) -> Reading:
    """Read a board from a photo (path or bytes): see :class:`Reading`. ``corners``: the
    checkerboard's four outer corners marked by hand (the photo's own px, EXIF-rotated, any
    order around the board; ``rows`` x ``cols`` squares, ``grid.grid_from_corners``) instead
    of the board finder's, for a board it misses or gets wrong; ``colours``: the players'
    colours, when they say them (:func:`read_image`)."""
    start = time.perf_counter()
    told_colours(colours, players)  # a wrong option is said before the photo is decoded
    image, photo_scale = load_photo_scaled(source, long_side=READ_LONG_SIDE)
    file = str(source) if isinstance(source, (str, Path)) else None
    grid = None
    if corners is not None:
        if not MIN_BOARD_SQUARES <= min(rows, cols) <= max(rows, cols) <= MAX_SQUARES:
            raise InvalidCorners(f"a board marked by hand has {MIN_BOARD_SQUARES} to {MAX_SQUARES} squares each way, "
                                 f"not {cols}x{rows}")
        grid = grid_from_corners(image, np.asarray(corners, np.float64) / photo_scale, rows, cols)
    reading = read_image(image, players=players, threehouse=threehouse, area=area, grid=grid, file=file,
                         finer=photo_decoder(source, photo_scale), colours=colours)
    if grid is not None:
        reading.grid_marked = True
        reading.warnings = [AMBIGUOUS_MARKED_AREA if text == AMBIGUOUS_AREA else text for text in reading.warnings]
        if grid.support == 0:
            if "unsure_board" in reading.warning_kinds:
                _marked_off_the_squares(reading, rows, cols)
            reading.warn("grid", "no square corners were seen near the marked corners, so the grid follows "
                                 "the marks as they are: check that it lies on the squares", first=True)
    reading.photo_scale *= photo_scale  # the photo's px per px of the image read (decoded larger for a small board)
    reading.seconds = time.perf_counter() - start
    return reading


