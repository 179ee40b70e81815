"""Stage 5: group the pyramids into players by colour and name each group.

Colours are compared under the photo's own light: the board's light squares are taken as
neutral (white balance), and lightness is measured relative to them. Pyramids are clustered
in that space (2 to 4 groups unless the number of players is given), then each group gets
the standard colour name (red, yellow, orange, green, cyan, blue, purple, clear, black,
white) that fits it best, no two groups sharing a name.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

from scorer.board import COLOURS

# Hue angles (degrees in the Lab a-b plane) of the translucent colours, as seen on a white
# cloth. Achromatic names are decided by lightness instead.
HUES = {"red": 35.0, "orange": 58.0, "yellow": 92.0, "green": 142.0, "cyan": 235.0,
        "blue": 295.0, "purple": 320.0}
HUE_WIDTH = {"cyan": 40.0}  # degrees per cost unit; cyan spans teal to sky blue (25 for the rest)
# Lightness of each translucent colour on a light square, relative to the square (percent):
# a filter passing more of the spectrum is lighter (yellow and cyan pass two primaries, blue
# one). Used loosely (+-LIGHTNESS_MARGIN) alone, and as differences between the groups of
# one photo, which the photo's exposure and the pieces' thickness do not change.
TRANSMITTANCE = {"yellow": 70.0, "cyan": 60.0, "orange": 55.0, "green": 50.0, "red": 42.0,
                 "blue": 36.0, "purple": 36.0}
LIGHTNESS_MARGIN = 20.0  # one group's lightness against its name's, before it costs anything
LIGHTNESS_DIFF_MARGIN = 10.0  # two groups' lightness difference against their names'
# A reversed difference (a blue group lighter than a yellow one) is noise within the margin
# only where the names' lightnesses lie near: the margin shrinks linearly, from
# LIGHTNESS_DIFF_MARGIN for names alike to none for names REVERSAL_FREE_SPAN or more apart.
# Over the true groups of dev and 15 of its photometric variants (976 pairs of translucent
# groups) pairs 20 or more apart came out reversed by 4.5 at most (green against yellow, every
# hue turned 12 degrees: it now costs 0.45), and one 14 apart by 15 (a cast shadow: 1.2 rather
# than 0.5); every group there was still named as before.
# With the full margin a Cycles render's clear player, pale blue from a bluish ambient light in
# its reflections and lighter than the yellow and cyan players, was named blue at 0.97; dev's
# saturated variant named one clear group blue.
REVERSAL_FREE_SPAN = 20.0
# Clear plastic passes more light than any coloured filter and white paint reflects more,
# black less than any: +1 for a name never darker than a translucent colour's group, -1 for
# one never lighter. (The studio's true groups kept to it within 10 points: a black group
# went up to 8 over a green one, a clear one down to 10 under a cyan one.)
LIGHTER_THAN_COLOURS = {"white": 1.0, "clear": 1.0, "black": -1.0}


# Opaque white and frosted clear plastic look alike in many lights. On dev, 154 renders the
# square model never saw and 30 renders each with a clear player, groups named white were
# right 22 times in 41 and groups named clear 35 in 47, some at odds of 1.0; over the 718
# white and clear pieces of dev and the 154, those named at odds of 95% or more were right
# 82% of the time. Such a group is always offered the other name and flagged
# (``reader.ColourGroupReading``), and either name gets at most CONFUSED_MAX_ODDS, the rest
# going to the other, so that its pieces are flagged too.
CONFUSED_NAMES = {"white": "clear", "clear": "white"}
CONFUSED_MAX_ODDS = 0.8
# A photo with one of the two alone (no group named the other) has no group to compare it
# with: on dev and 270 renders (2026-11-24) such a lone group was named right 60 times in 103,
# against 21 in 26 where both were there. Its name gets at most this much.
LONE_CONFUSED_MAX_ODDS = 0.6
# A name the learned model all but rules out for the group's pieces (their mean log-odds of
# it under -3: about 5%) gets at most CONFUSED_MAX_ODDS too, the rest going to the model's own
# choice. Over the colour_eval groups of dev, the 154 unseen renders and dev's photometric
# variants, the 7 groups so named at -4 were all named wrong; a tightly framed photo named a
# clear group black at odds of 1.0 against the model's word. At -3 (2026-12-04) a darkened
# see-through drawing's white group named black (the model's log-odds of black -3.1, of white
# -1.2) is flagged too. Besides it, of dev, its 31 variants, 40 fresh renders (seed 620000),
# 30 tilted 57 degrees (seed 621000) and 10 drawing sets, only dev with every hue turned back
# 12 degrees (`hue_minus_12`) flagged more (15 right squares, a group the model doubts) and
# dev with an arm over the board (one wrong square); no name changed, only odds.
LEARNED_DISPUTE_COST = 3.0
# Black and clear look alike too, where a clear piece shows the dark square under it or the
# light is dim: a group named black gets at most CONFUSED_MAX_ODDS, the rest going to clear,
# unless the learned model all but rules clear out for its pieces (the mean over them of the
# log of its odds of clear under -2: about 14%). Over dev and 266 renders outside the studio's
# sample set (2026-12-06), the three clear groups named black (at 0.83 to 0.985) had that mean
# at -1.1 to -1.7; of the 107 black ones, the nearest was at -2.7, but a dim render of a wooden
# board (tests/test_colours.py, studio_211201) has a black group at -2.14. Drawings darkened
# (`drawn_eval.py --photo dark`) named opaque grey clear groups black at 0.995 with it at -1.9
# to -3.0: a line at -2.5 had flagged more of them (9 wrong squares left unflagged, not 14).
BLACK_CLEAR_DOUBT_COST = 2.0
# The photo's own colours naming a group at these odds or more, and the learned model
# overruling them, the name is capped at CONFUSED_MAX_ODDS (temper_overruled). On dev's
# photos turned 12 degrees of hue each way (the studio's palette against another's; plastic
# and cameras vary) the wrong names were so flagged 78% and 81% of the time against 63% and
# 81%, with 3.0 and 1.4 points more squares flagged; dev, its desaturated variant and the 40
# unseen renders not a square more (the saturated and cast-shadow ones 1.0 and 1.5 points more).
# At 0 (any disagreement) 86% and 81% caught, but the desaturated variant 3.2 points more flagged.
OWN_NAMING_SURE = 0.6
MIN_CHROMA = 15.0  # a coloured piece shows at least this much chroma (dark pieces look tinted)
SPREAD_FLOOR = 4.0  # feature units added to a photo's median within-group distance
# A piece's colour is sometimes nearer another player's group than its own (a dark blue piece
# on a dark square beside black ones): with a Gaussian's thin tails it had no chance of that
# colour, and a clash with the stash counts emptied a plainly occupied square instead.
MEMBERSHIP_TAIL = 0.1  # degrees of freedom of the membership's Student-t (0.001-0.5 read dev alike)
# Each piece's membership also leans on the learned model's odds of each group's name, to
# this power (a cue of the piece itself, where the features put it between two groups). Chosen
# on dev and its photometric variants (0.5 and 1 both read every variant better; 0.5 dev best).
LEARNED_MEMBERSHIP_WEIGHT = 0.5
OUTLIER_SPREADS = 2.0  # samples further than this many spreads from every group fit none
NAMING_TEMPERATURE = 0.5  # name-cost units per nat when weighing the joint namings against each other
LEARNED_NAME_WEIGHT = 1.0  # name-cost units per nat of the learned model's mean log-odds of a name (dev choice)
LEARNED_NAME_FLOOR = 1e-3  # the least probability the model's odds give any name
PARITY_MIN = 3  # pieces needed on each square colour to compare them
# How see-through a group is: how much its pieces' lightness follows the bare cloth's behind
# them, as a fraction of it (``see_through``). A translucent piece shows the square under it;
# an opaque white one keeps its own lightness. How much a
# translucent piece shows depends on the plastic and the light: the studio's frosted pieces
# about 0.2, glassy ones over 0.5 (``scripts/drawn_eval.py --see-through``). So the photo's
# coloured groups, all translucent, set what clear should show. Glossy black pieces mirror the
# square they stand on too much to be called opaque this way; black is left to lightness.
# Spread of one group's measure about what its kind should show, beyond its sampling noise,
# as the naming weighs it (NAMING_TEMPERATURE doubles every cost in the odds, so it acts as
# a spread about 0.14): on dev and four of its variants the coloured groups spread 0.13 about
# their median and the white ones 0.27 about 0 (10th to 90th percentile, halved); 0.13, 0.2
# and 0.27 were tried (dev and its 14 variants, the drawings opaque and see-through) and the
# middle kept. (All measured from the colour samples, before ``see_through`` took every pixel.)
SEE_THROUGH_SPREAD = 0.2
# With no other coloured group measured (a black and white game, or black, white and clear), the
# photo says nothing of how see-through its plastic is. The studio's frosted coloured groups
# show about 0.2 of the squares, less than any glassier plastic: clear is taken to show at
# least this much (its cost one-sided), white nothing, as with a reference. (On dev the
# studio's frosted clear groups measure 0.08-0.38 and its white ones -0.1-0.14, 10th to 90th
# percentile: there the cue is weak. Glassy clear groups measure 0.26-0.57.)
SEE_THROUGH_FLOOR = 0.2
# How much of the board behind shows through a group's pieces, each piece measured on its own
# pixels (``squares.piece_show_through``: their lightness against the cloth where each one's
# sightline lands, which on a slant view is its own square low down and the square behind
# higher up), a second see-through cue that the pieces' different squares and shading do not
# blur. Over the reader's measures on 354 validation renders (dev, the test-recipe,
# black-player, glassy, low-view and dim-room sets and 24 with default options, of 2026-12-01
# and -02; each group the median of its pieces, 10th to 90th percentile), white groups
# measured -0.06 to 0.05, black ones -0.07 to 0.04, clear ones -0.004 to 0.33, the coloured
# ones' medians 0.01-0.07. Only slant views measure it (about a third of the white and clear
# groups). Each piece's measure spreads THROUGH_PIECE_SPREAD about its group's beyond its own
# fit's variance, a group's THROUGH_SPREAD about what its kind shows: white nothing, clear what
# the photo's coloured groups show but at least THROUGH_FLOOR (the coloured groups' measures
# reach down into white's). A piece whose outline takes in the cloth of the square behind
# measures far off its group: pieces further than THROUGH_OUTLIER_SPREADS robust spreads from
# the group's median are left out. A bias shared by a whole group (an outline a size too large
# takes in cloth on every piece) passes that test, so the cue moves a name by at most
# THROUGH_MOST_COST nats. Chosen on those renders, 20 more with a white player and the
# see-through drawings seen 30-35 degrees up (2026-12-02), among 2 or 3 pieces at least, the
# pixels 0.1, 0.15 or 0.2 of the outline's size inside it, and a mean weighed by variance,
# with or without outliers, or a median. The floor against a reference, the cap and the
# board's edge left out came after, from a review, and were measured with the rest
# (docs/photo-reader.md, "The board seen through each piece").
THROUGH_MIN_PIECES = 3
THROUGH_PIECE_SPREAD = 0.04
THROUGH_OUTLIER_SPREADS = 3.0
THROUGH_SPREAD = 0.05
THROUGH_FLOOR = 0.03
THROUGH_MOST_COST = 3.0
MIN_CONTRAST = 20.0  # light and dark squares this far apart (percent of the light ones) to measure it
# The lightness order (white and clear no darker than a translucent colour) compares the groups'
# levelled lightness, which lifts every piece on a dark square by one shift taken over all the
# pyramids: an opaque black group standing mostly on dark squares is lifted as if it were
# translucent (a dim photo's black pieces at 44% of the light squares' lightness, levelled to 55%,
# within 10 points of an orange group, so named clear). Over the same cloth a clear piece shows at
# least what a coloured filter does, whatever the cloth: the order is also weighed on each group's
# pieces as a share of the bare cloth behind them (``lightness_over_cloth``), square colour by
# square colour, and the larger of the two costs counts. Both white and clear take it, so it
# never moves a choice between the two. (Over dev and 114 scratch renders, 30 of the test split's
# recipe and 84 glassy, clear groups' pieces on light squares showed 55-103% of the square behind
# them, black groups' 8-57%.) Cloth darker than CLOTH_MEASURABLE of the light squares
# (near-black squares) is left out, where a small difference in a glossy piece's reflection
# swings the share widely.
OVER_CLOTH_MIN = 2  # pieces of a group on one square colour to compare it there
CLOTH_MEASURABLE = 0.3
# Pieces on one square colour share its light and, from straight above, the glossy faces mirror
# the squares around them: on a red and white board seen from above under a dim lamp, a white and
# a black player's pieces on the red squares all took on its red and its dimness, and the groups
# split by square colour, black pieces with white ones (29 of 30 squares wrong). No players'
# pieces stand almost all on one square colour, so groups that do (``sorted_by_square_colour``:
# two or more of SORTED_MIN_PIECES or more, each with SORTED_SHARE or less of its pieces on the
# other colour, some mostly on light squares and some on dark, with PARITY_MIN pieces or more on
# each) are grouped again, as many groups, with each square colour's pieces moved to the same
# median (``parities_evened``). The new groups are kept when they are as many sizable groups, not
# so sorted, and the learned model's likeliest colours agree with them at least as well
# (``learned_agreement``; without its odds, that holds). (Of 134 renders, dev, 60 of the test
# split's recipe and 24 with a black player in a dim room, that one photo alone so split. On the
# see-through drawings of a green and white board one game's groups split so and read right all
# the same, the learned odds settling each piece's colour, and the groups evened read 30 squares
# worse: that agreement keeps them.) Two players' groups of n pieces each fall so sorted by chance
# about once in 2000 games at n = 6 and at 10 (one piece across allowed), more rarely otherwise.
# Other players' groups need not be so sorted: in a dark photo of see-through blue, purple and
# red pieces the blue and purple ones on the near-black squares made one group and those on the
# white squares another, while the red player's stayed whole (drawings through the dark variant,
# photo-reader.md). With four players, six pairs, a regrouping is tried by chance at most about
# once in 300 games, and kept only as above.
SORTED_MIN_PIECES = 6
SORTED_SHARE = 0.1
# Glassy coloured pieces on strongly coloured dark squares (a white-and-red print) take on the
# squares' colour unevenly, one filter darkening to near black, another turning orange, so evening
# the square colours out by one shift leaves them sorted (a studio render: 14 yellow and 15 green
# pieces grouped as the 14 on red squares and the 15 on white). Then the pieces on each square
# colour are grouped apart and paired by how each light-square group's filter would tint a dark
# square (``paired_across_square_colours``, TINT_SHARES of the way from opaque to clear glass).
TINT_SHARES = (0.0, 0.25, 0.5, 0.75, 1.0)
# The learned names, counted on each square colour apart, check how each square colour's pieces
# were grouped, not which groups were paired across it: that rests on the tint alone, so the
# pairing is taken only where its summed distance is at most PAIRING_MARGIN of the next best
# pairing's (0.27-0.74 on the five games looked at that it read better or the same, 0.93 on one
# it read worse).
PAIRING_MARGIN = 0.8
# Grouping sees chroma c as GROUPING_CHROMA_MAX * c / (c + GROUPING_CHROMA_KNEE): a strong
# colour's hue counts, its exact chroma (thickness, the square under it) hardly.
GROUPING_CHROMA_MAX = 60.0
GROUPING_CHROMA_KNEE = 12.0
# The share of the hand-built lightness difference between white's and clear's costs that
# counts (name_cost): its boundary, near 72% of the light squares, was read off dev's groups,
# and over the studio's other renders white and clear groups straddle it widely, so at full
# strength it overruled the learned model's lean. On the colour stage (colour_eval, true
# grid: dev, the 120 and 150 renders of 2026-11-24 and 48 glassy white or clear ones, 11,082
# pieces) shares of 0, 0.2, 0.35, 0.5 and 1 named 92.85%, 93.08%, 93.30%, 92.97% and 91.99%
# of the pieces right; at 0.35 white/clear mix-ups fell from 506 to 374 (dev's own rose from
# 30 to 38).
WHITE_CLEAR_LIGHTNESS_SHARE = 0.35
LIGHTNESS_WEIGHT = 0.6  # lightness against chroma when grouping (translucent pieces vary in lightness)
# A washed-out photo (a dull camera, hazy or yellow light) shows every piece with less chroma,
# so strong colours drift towards clear, white and black. The naming also tries the groups'
# chroma divided by each of these gains, at CHROMA_GAIN_COST name-cost units per nat of gain
# below 1: only a naming that fits much better at a lower gain takes it. On dev's chroma x0.55
# variant this named 92.1% of the groups right against 84.9% (colour_eval's groups); dev, the
# 154 unseen renders and the other photometric variants named the same but for one more group
# right on the brighter variant (a cost of 1 to 2 alike).
CHROMA_GAINS = (1.0, 0.8, 0.65, 0.5, 0.4)
CHROMA_GAIN_COST = 1.5
# A black-and-white photo's pixels all lie within a unit or two of one a, b (Lab, OpenCV's
# 8-bit scale); of 519 colour photos (dev, the 12 MP set, the 154 unseen renders, 300 training
# renders, the real chessboards) the least colourful still had 0.5% of its pixels over 12
# units away. (A sepia photo's chroma grows with its lightness: it is not caught.)
COLOURLESS_SPREAD = 4.0
# On a close call between stashes (a 6x6's parks half way between a standard game's 6 and
# ThreeHouse's 9), a player count whose colour groups stand apart this many times better than
# the other's settles it (``clear_group_count``). Of 11 close calls on 142 6x6 boards (dev and
# 270 renders), the colours settled 6, all rightly, 3 of them against the parks; any margin
# from 1.4 to 1.9 read them alike.
GROUP_COUNT_MARGIN = 1.5
# Pieces on squares a reflection washes out (``lighting.glared_squares``) look whiter than they
# are: when the others are at least this share of all, the groups' colours and names are taken
# from the others alone. A reflection over more of the board leaves no part trustier: on a
# varnished board under a lamp, 7 of 18 pieces in the reflection, the clear player's other
# pieces, most of them on the dark wood, were named red.
MIN_TRUSTED_SHARE = 0.75
MIN_TRUSTED_PER_GROUP = 2


@dataclass(frozen=True)
class WhiteBalance:
    """Per-channel BGR gains making the board's light squares neutral, and their lightness."""

    gains: np.ndarray
    light_l: float
    dark_l: float
    dark_tint: np.ndarray = field(default_factory=lambda: np.ones(3))  # dark squares' BGR over the light ones'

    @property
    def contrast(self) -> float:
        """How much darker the dark squares are than the light ones, in percent of the light."""
        return 100.0 * (1.0 - self.dark_l / max(self.light_l, 1.0))

    def apply_lab(self, lab: np.ndarray) -> np.ndarray:
        """Lab colours (N, 3) as they would look under neutral light."""
        lab = np.asarray(lab, np.float32).reshape(-1, 1, 3)
        bgr = cv2.cvtColor(lab, cv2.COLOR_Lab2BGR).reshape(-1, 3)
        bgr = np.clip(bgr * self.gains, 0, 1).astype(np.float32).reshape(-1, 1, 3)
        return cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3)


def white_balance(light_lab: np.ndarray, dark_lab: np.ndarray) -> WhiteBalance:
    """Gains that turn the light squares' colour grey (von Kries in BGR)."""
    light = np.asarray(light_lab, np.float32).reshape(1, 1, 3)
    bgr = cv2.cvtColor(light, cv2.COLOR_Lab2BGR).reshape(3).astype(np.float64)
    bgr = np.maximum(bgr, 1e-3)
    gains = bgr.mean() / bgr
    gains = np.clip(gains, 0.5, 2.0)
    dark = cv2.cvtColor(np.asarray(dark_lab, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2BGR).reshape(3).astype(np.float64)
    return WhiteBalance(gains=gains, light_l=float(light_lab[0]), dark_l=float(dark_lab[0]),
                        dark_tint=np.maximum(dark, 1e-3) / bgr)


def describe(lab_balanced: np.ndarray, wb: WhiteBalance) -> np.ndarray:
    """Feature vectors (N, 3) for clustering: a, b and lightness scaled to the light squares."""
    lab = np.asarray(lab_balanced, np.float64).reshape(-1, 3)
    rel_l = lab[:, 0] / max(wb.light_l, 1.0) * 100.0
    return np.column_stack([lab[:, 1], lab[:, 2], LIGHTNESS_WEIGHT * rel_l])


def hue_features(features: np.ndarray) -> np.ndarray:
    """Features for grouping with the chroma saturated: a translucent piece's chroma grows
    with its thickness and changes with the square under it, its hue does not, so two
    players of near hues (blue, purple) differ more across than along the chroma axis."""
    a, b = features[:, 0], features[:, 1]
    scale = GROUPING_CHROMA_MAX / (np.hypot(a, b) + GROUPING_CHROMA_KNEE)
    return np.column_stack([a * scale, b * scale, features[:, 2]])


def level_parities(features: np.ndarray, on_dark: np.ndarray | None) -> np.ndarray:
    """Features with the lightness of pieces on dark squares shifted to match those on light
    squares (by the median difference over all pyramids), so that one player's translucent
    pieces do not split into a light-square and a dark-square group."""
    if on_dark is None:
        return features
    on_dark = np.asarray(on_dark, bool)
    if on_dark.sum() < PARITY_MIN or (~on_dark).sum() < PARITY_MIN:
        return features
    out = features.copy()
    # A dark square can darken a translucent piece on it, never lighten it: a negative
    # difference is a mix of players (more white pieces on the dark squares, more black on
    # the light ones), not a shift.
    out[on_dark, 2] += max(0.0, np.median(features[~on_dark, 2]) - np.median(features[on_dark, 2]))
    return out


def naming_centres(features: np.ndarray, labels: np.ndarray, k: int,
                   on_dark: np.ndarray | None) -> np.ndarray:
    """Group centres for naming: mean a, b, the group's lightness averaged over the two
    square parities (not biased by how many of its pieces stand on dark squares), and its
    median lightness with the dark-square pieces levelled to light squares (how light a
    translucent piece looks on a light square)."""
    levelled = level_parities(features, on_dark)
    centres = np.zeros((k, 4))
    for g in range(k):
        member = labels == g
        if not member.any():
            continue
        centres[g, :2] = features[member, :2].mean(axis=0)
        sides = [] if on_dark is None else [np.asarray(on_dark, bool), ~np.asarray(on_dark, bool)]
        parts = [features[member & side, 2] for side in sides]
        parts = [p for p in parts if len(p)]
        centres[g, 2] = np.mean([np.median(p) for p in parts]) if parts else np.median(features[member, 2])
        centres[g, 3] = np.median(levelled[member, 2])
    return centres


def see_through(over_cloth: np.ndarray | None, labels: np.ndarray, k: int, on_dark: np.ndarray | None,
                wb: "WhiteBalance") -> tuple[np.ndarray, np.ndarray]:
    """Per group, how see-through its pieces look and the variance of that measure from the
    group's own sampling: the slope of the pieces' lightness against the bare cloth's behind
    them (``over_cloth``, per piece: both lightnesses, NaN where unmeasured), least squares
    over the group's pieces (a mean slope: one stray piece moves it more than the medians of
    the square colours did); 0 for an opaque piece, 1 for one that shows the cloth wholly.
    NaN where a group has fewer than PARITY_MIN measured pieces on either square colour or
    the squares hardly differ."""
    measure, variance = np.full(k, np.nan), np.full(k, np.nan)
    if over_cloth is None or on_dark is None or wb.contrast < MIN_CONTRAST:
        return measure, variance
    on_dark = np.asarray(on_dark, bool)
    over_cloth = np.asarray(over_cloth, np.float64).reshape(-1, 2)
    measured = ~np.isnan(over_cloth).any(axis=1)
    for g in range(k):
        member = (labels == g) & measured
        if min(np.sum(member & on_dark), np.sum(member & ~on_dark)) < PARITY_MIN:
            continue
        piece, cloth = over_cloth[member, 0], over_cloth[member, 1]
        cloth = cloth - cloth.mean()
        spread = float(np.sum(cloth ** 2))
        if spread < len(cloth) * (0.01 * (wb.light_l - wb.dark_l)) ** 2:  # the cloth behind them all alike
            continue
        measure[g] = float(np.sum(cloth * (piece - piece.mean())) / spread)
        residual = piece - piece.mean() - measure[g] * cloth
        variance[g] = float(np.sum(residual ** 2)) / max(1, len(piece) - 2) / spread
    return measure, variance


def over_cloth_from_samples(samples_lab: np.ndarray, on_dark: np.ndarray, wb: "WhiteBalance") -> np.ndarray:
    """Per piece, its colour sample's lightness and its square's: the pairs
    :func:`see_through` takes from a caller that has colour samples only (the reader always
    measures the pieces' whole pixels, ``SquareReading.over_cloth``)."""
    samples_lab = np.asarray(samples_lab, np.float64).reshape(-1, 3)
    return np.column_stack([samples_lab[:, 0], np.where(np.asarray(on_dark, bool), wb.dark_l, wb.light_l)])


def lightness_over_cloth(over_cloth: np.ndarray | None, labels: np.ndarray, k: int,
                         on_dark: np.ndarray | None, wb: "WhiteBalance") -> np.ndarray | None:
    """Per group and square colour (k x 2: light, dark), the median of its pieces' lightness as
    a percentage of the bare cloth's behind them (``over_cloth``, as :func:`see_through` takes
    it): NaN with fewer than OVER_CLOTH_MIN such pieces, counting only cloth at least
    CLOTH_MEASURABLE of the light squares' lightness. None without the measures."""
    if over_cloth is None or on_dark is None:
        return None
    on_dark = np.asarray(on_dark, bool)
    over_cloth = np.asarray(over_cloth, np.float64).reshape(-1, 2)
    share = 100.0 * over_cloth[:, 0] / np.maximum(over_cloth[:, 1], 1.0)
    usable = ~np.isnan(share) & (over_cloth[:, 1] >= CLOTH_MEASURABLE * wb.light_l)
    out = np.full((k, 2), np.nan)
    for g in range(k):
        for side, where in enumerate((~on_dark, on_dark)):
            member = (labels == g) & where & usable
            if member.sum() >= OVER_CLOTH_MIN:
                out[g, side] = float(np.median(share[member]))
    return out


def group_show_through(show_through: np.ndarray | None, labels: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per group, how much of the board behind shows through its pieces, from each piece's own
    pixels (``show_through``, per piece: ``squares.piece_show_through``'s slope and its
    variance, NaN where unmeasured), and the variance of that measure: the pieces' mean, each
    weighed by the inverse of its variance plus THROUGH_PIECE_SPREAD squared, leaving out
    pieces further than THROUGH_OUTLIER_SPREADS robust spreads (at least THROUGH_PIECE_SPREAD)
    from their median. NaN where fewer than THROUGH_MIN_PIECES pieces are left."""
    measure, variance = np.full(k, np.nan), np.full(k, np.nan)
    if show_through is None:
        return measure, variance
    show_through = np.asarray(show_through, np.float64).reshape(-1, 2)
    measured = ~np.isnan(show_through).any(axis=1)
    for g in range(k):
        values, variances = show_through[(labels == g) & measured].T
        if len(values) < THROUGH_MIN_PIECES:
            continue
        middle = float(np.median(values))
        spread = max(1.4826 * float(np.median(np.abs(values - middle))), THROUGH_PIECE_SPREAD)
        kept = np.abs(values - middle) <= THROUGH_OUTLIER_SPREADS * spread
        if kept.sum() < THROUGH_MIN_PIECES:
            continue
        values, variances = values[kept], variances[kept]
        weight = 1.0 / (variances + THROUGH_PIECE_SPREAD ** 2)
        measure[g] = float(np.sum(weight * values) / np.sum(weight))
        variance[g] = float(1.0 / np.sum(weight))
    return measure, variance


def see_through_costs(centres: np.ndarray, measure: np.ndarray, variance: np.ndarray,
                      spread: float | None = None, floor: float | None = None, *,
                      floored: bool = False, most: float | None = None) -> list[dict[str, float]]:
    """Per group, costs of white and clear (name-cost units, one per nat as the learned
    model's: the squared distance from what the name should show over twice the spread
    squared) from how see-through it looks
    (:func:`see_through`): opaque white should show nothing of the squares, clear as much as
    the photo's other coloured groups show (the median of those measured with chroma
    MIN_CHROMA or more whose cheapest :func:`name_cost`, before any chroma gain, is a
    coloured name: a white group tinted by the room's light is no reference, nor is a group
    for itself); where there is no other, at least ``floor`` (SEE_THROUGH_FLOOR unless given;
    ``floored``: at least that even against a reference). The cheaper of the two costs
    nothing, the other at most ``most`` where given, as do all other names. ``spread``:
    SEE_THROUGH_SPREAD unless given."""
    spread = SEE_THROUGH_SPREAD if spread is None else spread
    floor = SEE_THROUGH_FLOOR if floor is None else floor
    chroma = np.hypot(centres[:, 0], centres[:, 1])
    coloured = (chroma >= MIN_CHROMA) & ~np.isnan(measure) & np.array([_likeliest_a_hue(c) for c in centres], bool)
    costs: list[dict[str, float]] = [{} for _ in range(len(centres))]
    for g in np.flatnonzero(~np.isnan(measure)):
        others = measure[coloured & (np.arange(len(measure)) != g)]  # a group is no reference for itself
        translucent = float(np.median(others)) if len(others) else None
        spread2 = spread ** 2 + variance[g]
        opaque_cost = measure[g] ** 2 / (2 * spread2)
        if translucent is not None:
            clear_cost = (measure[g] - (max(translucent, floor) if floored else translucent)) ** 2 / (2 * spread2)
        else:
            clear_cost = max(0.0, floor - measure[g]) ** 2 / (2 * spread2)
        least = min(opaque_cost, clear_cost)
        costs[g] = {"white": opaque_cost - least, "clear": clear_cost - least}
        if most is not None:
            costs[g] = {name: min(cost, most) for name, cost in costs[g].items()}
    return costs


def _likeliest_a_hue(centre: np.ndarray) -> bool:
    """Whether a group centre's cheapest name (:func:`name_cost`, at its own chroma: no gain
    from CHROMA_GAINS) is a coloured one; not for a centre that is not a number."""
    if not np.all(np.isfinite(centre)):
        return False
    costs = name_cost(centre)
    return min(costs, key=costs.get) in HUES


def dark_only_costs(labels: np.ndarray, k: int, on_dark: np.ndarray | None,
                    wb: "WhiteBalance", centres: np.ndarray | None = None) -> list[dict[str, float]]:
    """Per group, the cost of black (one per nat) for a group whose pieces were all seen on
    dark squares, at least PARITY_MIN of them: ln 2 per piece, the odds that a player's pieces
    all stand on dark squares by chance. A black piece is the plainest thing on a light
    square; a glassy clear one can vanish there (no colour sample) while on a dark square it
    looks black. So, where such a group shows less chroma than a coloured piece does
    (MIN_CHROMA, at its naming centre in ``centres``), does every coloured name: a coloured
    piece shows its colour on a light square, and on a dark one its tint. A group tinted that
    much or more may be such a piece whose light-square pieces went unseen or into another
    group, and its tint then names it: only black costs. None where the square colours hardly
    differ (MIN_CONTRAST, as :func:`see_through`): there clear looks alike on both. White and
    clear cost nothing."""
    costs: list[dict[str, float]] = [{} for _ in range(k)]
    if on_dark is None or wb.contrast < MIN_CONTRAST:
        return costs
    on_dark = np.asarray(on_dark, bool)
    for g in range(k):
        dark, light = int(np.sum((labels == g) & on_dark)), int(np.sum((labels == g) & ~on_dark))
        if light == 0 and dark >= PARITY_MIN:
            cost = dark * float(np.log(2.0))
            untinted = centres is not None and float(np.hypot(*centres[g, :2])) < MIN_CHROMA
            costs[g] = {name: cost for name in (("black", *HUES) if untinted else ("black",))}
    return costs


def summed_costs(*per_group: list[dict[str, float]]) -> list[dict[str, float]]:
    """Per group, the sum of several cues' costs per name."""
    total: list[dict[str, float]] = [{} for _ in per_group[0]] if per_group else []
    for costs in per_group:
        for group, extra in zip(total, costs):
            for name, cost in extra.items():
                group[name] = group.get(name, 0.0) + cost
    return total


@dataclass
class ColourGroups:
    """Pyramids grouped by colour: ``names[k]`` is group k's colour name."""

    labels: np.ndarray  # (N,) group index per pyramid
    centres: np.ndarray  # (K, 3) in feature space
    names: list[str]
    probs: np.ndarray  # (N, K) probability of each group per pyramid
    spread: float
    fit: np.ndarray | None = None  # (N,) 1 where a sample lies among the groups (or is washed out), towards 0 far out
    name_odds: list[dict[str, float]] = field(default_factory=list)  # per group: P(each name)
    # with the players' colours told: per group, its name odds had they not been told
    untold_odds: list[dict[str, float]] | None = None


def _kmeans(features: np.ndarray, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, float]:
    if len(features) == 1:  # OpenCV takes a single row of features for that many one-number samples
        return np.zeros(1, np.int32), features.astype(np.float64).reshape(1, -1), 0.0
    data = features.astype(np.float32)
    cv2.setRNGSeed(seed)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 0.05)
    compact, labels, centres = cv2.kmeans(data, k, None, criteria, 6, cv2.KMEANS_PP_CENTERS)
    return labels.ravel(), centres.astype(np.float64), float(compact)


def balanced_groups(features: np.ndarray, labels: np.ndarray, k: int, capacity: int,
                    rounds: int = 10, on_dark: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Refine a clustering so that no group holds more than ``capacity`` pyramids.

    Players take turns, so their piece counts are (nearly) equal: two similar colours
    cannot merge into one group of twice the size. Alternates an optimal assignment of
    pieces to capacity-limited groups with recomputing the group centres (with ``on_dark``,
    each group's centre on each square colour apart, :func:`parity_distances`).
    """
    n = len(features)

    def overall(_):  # an empty group's centre once the groups are settled: all the pieces' mean
        return features.mean(axis=0)

    if k < 2 or capacity * k < n:
        return labels, _group_means(features, labels, k, overall)
    for _ in range(rounds):
        if on_dark is None:
            centres = _group_means(features, labels, k, lambda g: features[np.random.default_rng(g).integers(n)])
            d2 = ((features[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        else:
            d2 = parity_distances(features, labels, k, on_dark)
        slots = np.repeat(np.arange(k), capacity)
        new = slots[linear_sum_assignment(d2[:, slots])[1]]
        if np.array_equal(new, labels):
            break
        labels = new
    return labels, _group_means(features, labels, k, overall)


def _group_means(features: np.ndarray, labels: np.ndarray, k: int, empty) -> np.ndarray:
    """(k, D) mean feature of each group; group g with no member takes ``empty(g)``, never a NaN."""
    return np.array([features[labels == g].mean(axis=0) if (labels == g).any() else empty(g) for g in range(k)])


def _capacity(pieces: int, k: int, per_player: int | None) -> int:
    """The most pyramids one of ``k`` players can have of ``pieces`` on the board: a finished
    board's ``per_player`` each, else an even share and one more."""
    return pieces // k if per_player and pieces == k * per_player else -(-pieces // k) + 1


def _stash_group_count(pieces: int, per_player: int | None, choices) -> int | None:
    """Of ``choices``, the player count whose full stashes (``per_player`` pyramids each: a
    finished board) make ``pieces``; None where none does."""
    exact = [k for k in sorted(set(choices)) if k >= 2 and per_player and k * per_player == pieces]
    return exact[0] if exact else None


def choose_groups(features: np.ndarray, players: int | None = None, *, choices=(2, 3, 4),
                  per_player: int | None = None, pieces: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Cluster pyramid features into player groups; returns (labels, centres).

    With ``players`` the group count is fixed. Otherwise it is one of ``choices`` (the
    setups that fit the play area): a finished board's piece count (``per_player`` pieces
    each) decides when it can, else the count whose groups stand furthest apart relative to
    their own spread. ``pieces``: how many pyramids the board holds, when ``features`` are
    only some of them (default: as many as the features).
    """
    n = len(features)
    pieces = n if pieces is None else pieces
    if n == 0:
        return np.zeros(0, int), np.zeros((0, 3))
    if players is not None:
        k = max(1, min(players, n))
        labels, centres, _ = _kmeans(features, k)
        if k >= 2 and n >= 2 * k:
            labels, centres = balanced_groups(features, labels, k, _capacity(pieces, k, per_player))
        return labels, centres
    ks = [k for k in sorted(set(choices)) if 2 <= k <= n] or [min(n, 2)]
    exact = _stash_group_count(pieces, per_player, ks)
    if exact is not None:
        ks = [exact]
    if ks[0] < 2:
        labels, centres, _ = _kmeans(features, ks[0])
        return labels, centres
    scored = separation_scores(features, ks)
    _, labels, centres = max(scored.values(), key=lambda entry: entry[0])
    k = len(centres)
    if k >= 2 and n >= 2 * k:
        labels, centres = balanced_groups(features, labels, k, _capacity(pieces, k, per_player))
    return labels, centres


def separation_scores(features: np.ndarray, ks) -> dict[int, tuple[float, np.ndarray, np.ndarray]]:
    """For each group count k (2 or more, at most the samples), k-means' (score, labels,
    centres), the score being how far apart its two nearest groups stand relative to the
    groups' own spread."""
    scored = {}
    for k in ks:
        labels, centres, _ = _kmeans(features, k)
        d = np.linalg.norm(features - centres[labels], axis=1)
        spread = float(np.median(d)) + 3.0
        sep = min(np.linalg.norm(centres[i] - centres[j]) for i, j in itertools.combinations(range(k), 2))
        scored[k] = (sep / spread, labels, centres)
    return scored


def name_cost(centre: np.ndarray) -> dict[str, float]:
    """How badly each colour name fits a group centre (feature space); lower is better.

    Saturation (chroma relative to lightness) separates the strongly coloured translucent
    pieces from clear, white and black ones, which are told apart by lightness.
    """
    a, b, l_scaled = centre[:3]
    rel_l = l_scaled / LIGHTNESS_WEIGHT
    lit_l = _lit_lightness(centre)
    chroma = float(np.hypot(a, b))
    sat = chroma / max(rel_l, 20.0)
    hue = float(np.degrees(np.arctan2(b, a)) % 360)
    costs = {}
    for name, h in HUES.items():
        dh = abs((hue - h + 180) % 360 - 180)
        costs[name] = (dh / HUE_WIDTH.get(name, 25.0) + max(0.0, 0.45 - sat) * 6.0
                       + max(0.0, MIN_CHROMA - chroma) / 5.0
                       + max(0.0, abs(lit_l - TRANSMITTANCE[name]) - LIGHTNESS_MARGIN) / 10.0)
    # Lightness relative to the light squares: opaque white stays bright (its shaded faces
    # pull the median down a little), clear lets the dark squares through, black is dark.
    # In the studio's photos clear groups sit at 50-76% of the light squares' lightness and
    # white ones mostly above 70% (shaded faces pull them down): the boundary is near 72%.
    costs["black"] = sat * 5.0 + max(0.0, rel_l - 35.0) / 5.0
    costs["white"] = sat * 5.0 + max(0.0, 74.0 - rel_l) / 5.0
    costs["clear"] = 0.8 + max(0.0, sat - 0.25) * 6.0 + max(0.0, rel_l - 70.0) / 5.0 + max(0.0, 38.0 - rel_l) / 5.0
    # Between white and clear the nearer keeps its cost and the other comes closer to it.
    nearer = min(costs["white"], costs["clear"])
    for name in ("white", "clear"):
        costs[name] = nearer + WHITE_CLEAR_LIGHTNESS_SHARE * (costs[name] - nearer)
    return costs


def _lit_lightness(centre: np.ndarray) -> float:
    """A group centre's lightness on a light square, percent of the square's."""
    return float(centre[3] if len(centre) > 3 else centre[2]) / LIGHTNESS_WEIGHT


def lightness_order_cost(lit_i: float, lit_j: float, name_i: str, name_j: str) -> float:
    """How badly two groups' lightness difference fits their names (``lit_*``: each group's
    lightness on a light square, :func:`_lit_lightness`): two translucent names predict how
    much lighter one group is than the other (a cyan group lighter than a blue one, a yellow
    one than a red one), whatever the exposure. Against a translucent colour, white and clear
    are no darker and black no lighter (:data:`LIGHTER_THAN_COLOURS`); other pairs cost nothing."""
    for light, other, lit_light, lit_other in ((name_i, name_j, lit_i, lit_j), (name_j, name_i, lit_j, lit_i)):
        if other in TRANSMITTANCE and light in LIGHTER_THAN_COLOURS:
            darker_by = (lit_other - lit_light) * LIGHTER_THAN_COLOURS[light]
            return max(0.0, darker_by - LIGHTNESS_DIFF_MARGIN) / 10.0
    if name_i not in TRANSMITTANCE or name_j not in TRANSMITTANCE:
        return 0.0
    seen = lit_i - lit_j
    expected = TRANSMITTANCE[name_i] - TRANSMITTANCE[name_j]
    if expected < 0:
        seen, expected = -seen, -expected
    # Haze, glare and thick pieces shrink the differences, nothing widens or reverses them: a
    # smaller difference than expected is free, a wider or reversed one is not (beyond the margins).
    reversal_margin = LIGHTNESS_DIFF_MARGIN * max(0.0, 1.0 - expected / REVERSAL_FREE_SPAN)
    return (max(0.0, seen - expected - LIGHTNESS_DIFF_MARGIN) + max(0.0, -seen - reversal_margin)) / 10.0


def over_cloth_order_cost(over_cloth_i: np.ndarray, over_cloth_j: np.ndarray, name_i: str, name_j: str) -> float:
    """:func:`lightness_order_cost` for white or clear against a translucent colour, on the two
    groups' lightness over the cloth (rows of :func:`lightness_over_cloth`), each averaged over
    the square colours both were measured on; 0 where they share none, and for other pairs of
    names."""
    lighter_pair = any(LIGHTER_THAN_COLOURS.get(a, 0.0) > 0 and b in TRANSMITTANCE
                       for a, b in ((name_i, name_j), (name_j, name_i)))
    shared = ~np.isnan(over_cloth_i) & ~np.isnan(over_cloth_j)
    if not lighter_pair or not shared.any():
        return 0.0
    return lightness_order_cost(float(over_cloth_i[shared].mean()), float(over_cloth_j[shared].mean()), name_i, name_j)


def name_groups(centres: np.ndarray) -> list[str]:
    """Distinct colour names for the group centres (the cheapest joint assignment)."""
    return naming_odds(centres)[0]


def learned_name_costs(name_probs: np.ndarray, labels: np.ndarray, k: int,
                       weight: float = LEARNED_NAME_WEIGHT) -> list[dict[str, float]]:
    """Per group, the cost of each name from the learned model's per-piece odds over COLOURS
    (``name_probs``, N x len(COLOURS); rows of NaN for pieces it has none for): ``weight``
    times the mean negative log-probability over the group's pieces."""
    costs: list[dict[str, float]] = []
    for g in range(k):
        rows = name_probs[(labels == g) & ~np.isnan(name_probs).any(axis=1)]
        if len(rows) == 0:
            costs.append({})
            continue
        mean_log = np.log(np.maximum(rows, LEARNED_NAME_FLOOR)).mean(axis=0)
        costs.append({name: -weight * float(mean_log[i]) for i, name in enumerate(COLOURS)})
    return costs


def hidden_name_costs(hidden_probs: np.ndarray | None, names: list[str], combos: np.ndarray,
                      weight: float) -> np.ndarray:
    """Per joint naming (``combos``: rows of indices into ``names``, one per group), the cost of
    the pyramids that gave no colour sample (a glassy clear piece can show nothing but its
    edges): ``weight`` times the sum over them of the negative log of the odds that each is of
    its group's colour, its group unknown: the mean over the groups of the learned model's odds
    (``hidden_probs``, rows over COLOURS; NaN rows skipped) of each group's name, the even odds
    :func:`unsampled_membership` starts from. Zeros without such pyramids."""
    if hidden_probs is None:
        return np.zeros(len(combos))
    probs = np.asarray(hidden_probs, np.float64)
    if probs.ndim != 2 or probs.shape[1] != len(COLOURS):
        raise ValueError(f"hidden_probs must be (N, {len(COLOURS)}), not {probs.shape}")
    probs = probs[~np.isnan(probs).any(axis=1)]
    if len(probs) == 0:
        return np.zeros(len(combos))
    by_name = probs[:, [COLOURS.index(name) for name in names]]  # (hidden, names)
    either = by_name[:, combos].mean(axis=2)  # (hidden, combos): the mean odds of the combo's names
    return -weight * np.log(np.maximum(either, LEARNED_NAME_FLOOR)).sum(axis=0)


def naming_odds(centres: np.ndarray, temperature: float | None = None,
                extra_costs: list[dict[str, float]] | None = None,
                cue_costs: list[dict[str, float]] | None = None,
                hidden_probs: np.ndarray | None = None,
                hidden_weight: float = 0.0,
                over_cloth: np.ndarray | None = None,
                told: Sequence[str] | None = None) -> tuple[list[str], list[dict[str, float]]]:
    """The cheapest joint naming of the groups, and for each group the probability of each
    name over all joint namings, each tried at every chroma gain of CHROMA_GAINS (costs as
    negative log-odds at ``temperature``), white and clear capped by :func:`temper_confused`
    (at LONE_CONFUSED_MAX_ODDS when the naming has one of them alone),
    so a close call between two namings (clear or white, blue or purple) shows in the
    confidence.
    ``extra_costs``: per group, more cost per name from the learned model
    (:func:`learned_name_costs`), which may also dispute a name (:func:`temper_disputed`) and
    is not taken on trust where it overrules the photo's own colours (:func:`temper_overruled`);
    ``cue_costs``: per group, more cost per name from other cues (:func:`see_through_costs`,
    :func:`dark_only_costs`); ``hidden_probs``: the learned model's odds over COLOURS for the
    pyramids that gave no colour sample, each weighing ``hidden_weight`` (:func:`hidden_name_costs`;
    none without it); ``over_cloth``: per group, its lightness over the cloth on each square
    colour (:func:`lightness_over_cloth`), weighed by :func:`over_cloth_order_cost` (the larger of
    that and the lightness order's cost counts). ``told``: the players' colours, when the
    players said them: each group is named one of them (no more groups than names told), the
    odds shared among them alone."""
    temperature = NAMING_TEMPERATURE if temperature is None else temperature
    centres = np.asarray(centres, np.float64)
    k = len(centres)
    names = list(name_cost(centres[0])) if k else []
    allowed = [i for i, name in enumerate(names) if told is None or name in told]
    if k == 0 or k > len(allowed):
        return [], []
    combos = np.array(list(itertools.permutations(allowed, k)), int)  # (P, k) name indices
    # The groups' lightness differences and the extra costs do not depend on the chroma gain.
    lit = [_lit_lightness(c) for c in centres]
    order = np.zeros(len(combos))
    for i, j in itertools.combinations(range(k), 2):
        table = np.array([[lightness_order_cost(lit[i], lit[j], a, b) for b in names] for a in names])
        if over_cloth is not None:
            on_cloth = [[over_cloth_order_cost(over_cloth[i], over_cloth[j], a, b) for b in names] for a in names]
            table = np.maximum(table, np.array(on_cloth))
        order += table[combos[:, i], combos[:, j]]
    def per_name(costs):
        return np.array([[group.get(name, 0.0) for name in names] for group in costs]) if costs else np.zeros((k, len(names)))
    learned, cues = per_name(extra_costs), per_name(cue_costs)
    own_by_gain = []  # the photo's own colours and cues, without the learned model
    for gain in CHROMA_GAINS:
        seen_as = centres.copy()
        seen_as[:, :2] /= gain
        own = np.array([[own[name] for name in names] for own in map(name_cost, seen_as)]) + cues  # (k, names)
        own_by_gain.append(own[np.arange(k), combos].sum(axis=1) + order + CHROMA_GAIN_COST * np.log(1.0 / gain))
    own_totals = np.concatenate(own_by_gain)
    learned_totals = learned[np.arange(k), combos].sum(axis=1)
    learned_totals += hidden_name_costs(hidden_probs, names, combos, hidden_weight)
    totals = own_totals + np.tile(learned_totals, len(CHROMA_GAINS))
    combos = np.tile(combos, (len(CHROMA_GAINS), 1))
    best = [names[n] for n in combos[int(np.argmin(totals))]]
    lone = sum(name in CONFUSED_NAMES for name in best) == 1
    cap = LONE_CONFUSED_MAX_ODDS if lone else CONFUSED_MAX_ODDS
    odds = [temper_confused(dict(zip(names, p)), cap) for p in _marginal_odds(totals, combos, len(names), temperature)]
    if extra_costs:
        odds = [temper_black_doubted(temper_disputed(group, name, extra), name, extra)
                for group, name, extra in zip(odds, best, extra_costs)]
        own_best = [names[n] for n in combos[int(np.argmin(own_totals))]]
        own_odds = [dict(zip(names, p)) for p in _marginal_odds(own_totals, combos, len(names), temperature)]
        odds = [temper_overruled(group, name, own, mine) for group, name, own, mine in zip(odds, best, own_best, own_odds)]
    if told is not None:  # the caps and disputes above may have moved odds to names not told
        odds = [within_names(group, told) for group in odds]
    return best, odds


def within_names(odds: dict[str, float], told: Sequence[str]) -> dict[str, float]:
    """``odds`` over the names ``told`` alone, summing to 1 (shared equally if none had any)."""
    kept = {name: p for name, p in odds.items() if name in told}
    total = sum(kept.values())
    if total <= 0:
        return {name: 1.0 / len(told) for name in told}
    return {name: p / total for name, p in kept.items()}


def _marginal_odds(totals: np.ndarray, combos: np.ndarray, n_names: int, temperature: float) -> list[list[float]]:
    """Per group, the probability of each name over the joint namings ``combos`` (P x k name
    indices) whose costs are ``totals`` (negative log-odds at ``temperature``)."""
    weights = np.exp(-(totals - totals.min()) / temperature)
    weights /= weights.sum()
    return [np.bincount(combos[:, i], weights, n_names).tolist() for i in range(combos.shape[1])]


def temper_overruled(odds: dict[str, float], name: str, own_name: str, own_odds: dict[str, float]) -> dict[str, float]:
    """A group's name odds with ``name`` capped at CONFUSED_MAX_ODDS when the photo's own
    colours (the naming without the learned model) name the group otherwise, ``own_name``,
    at odds of OWN_NAMING_SURE or more: the excess moved to ``own_name``. The model has seen
    only the studio's colours; where it overrules the photo, neither is taken on trust."""
    if own_name == name or own_odds.get(own_name, 0.0) < OWN_NAMING_SURE:
        return odds
    return _capped(odds, name, own_name)


def temper_disputed(odds: dict[str, float], name: str, learned_costs: dict[str, float]) -> dict[str, float]:
    """A group's name odds with ``name`` capped at CONFUSED_MAX_ODDS when the learned model's
    cost of it (``learned_costs``, :func:`learned_name_costs`) is over LEARNED_DISPUTE_COST,
    the excess moved to the name the model likes best."""
    others = {other: cost for other, cost in learned_costs.items() if other != name}
    if learned_costs.get(name, 0.0) <= LEARNED_DISPUTE_COST or not others:
        return odds
    return _capped(odds, name, min(others, key=others.get))


def temper_black_doubted(odds: dict[str, float], name: str, learned_costs: dict[str, float]) -> dict[str, float]:
    """A group's name odds with black capped at CONFUSED_MAX_ODDS, the excess moved to clear,
    when it is named black and the learned model's cost of clear for it (``learned_costs``,
    :func:`learned_name_costs`) is under BLACK_CLEAR_DOUBT_COST."""
    clear_cost = learned_costs.get("clear")
    if name != "black" or clear_cost is None or clear_cost >= BLACK_CLEAR_DOUBT_COST:
        return odds
    return _capped(odds, "black", "clear")


def temper_confused(odds: dict[str, float], cap: float = CONFUSED_MAX_ODDS) -> dict[str, float]:
    """A group's name odds with white and clear each capped at ``cap``, the excess moved to
    the other name of the pair."""
    for name, partner in CONFUSED_NAMES.items():
        odds = _capped(odds, name, partner, cap)
    return odds


def _capped(odds: dict[str, float], name: str, to: str, cap: float = CONFUSED_MAX_ODDS) -> dict[str, float]:
    """``odds`` with ``name`` at most ``cap``, any excess moved to ``to``."""
    excess = odds.get(name, 0.0) - cap
    if excess <= 0:
        return odds
    return {**odds, name: cap, to: odds.get(to, 0.0) + excess}


def has_colour(image_bgr: np.ndarray) -> bool:
    """Whether a photo shows any colour: False for a black-and-white one, where 99.5% of the
    pixels (every 4th row and column) lie within COLOURLESS_SPREAD of the median a, b."""
    if image_bgr.ndim < 3 or image_bgr.shape[2] < 3:
        return False
    lab = cv2.cvtColor(np.ascontiguousarray(image_bgr[::4, ::4, :3]), cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    a, b = lab[:, 1], lab[:, 2]
    spread = np.hypot(a - np.median(a), b - np.median(b))
    return bool(np.percentile(spread, 99.5) >= COLOURLESS_SPREAD)


def colourless_odds(odds: dict[str, float]) -> dict[str, float]:
    """A group's name odds in a photo without colour (:func:`has_colour`): every colour equally
    likely, listed in the order the lightness-only naming had them."""
    order = sorted(COLOURS, key=lambda name: -odds.get(name, 0.0))
    return {name: 1.0 / len(COLOURS) for name in order}


def grouping_features(samples_lab: np.ndarray, wb: WhiteBalance,
                      on_dark: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Pyramid colour samples (Lab, as photographed) -> their description under neutral light
    (``describe``) and the features they are grouped by (hue features, levelled between
    pieces on light and on dark squares)."""
    raw = describe(wb.apply_lab(samples_lab), wb)
    return raw, level_parities(hue_features(raw), on_dark)


def sorted_by_square_colour(labels: np.ndarray, k: int, on_dark: np.ndarray | None) -> bool:
    """Whether two or more groups of SORTED_MIN_PIECES or more each stand almost wholly on one
    square colour (all but SORTED_SHARE of their pieces), some on the light squares and some on
    the dark, with PARITY_MIN pieces or more, of all the pieces, on each square colour (other
    groups may stand on both): as no players' pieces do, such groups follow what the squares
    do to the pieces' look, not the pieces' colours."""
    if on_dark is None:
        return False
    on_dark = np.asarray(on_dark, bool)
    if min(on_dark.sum(), (~on_dark).sum()) < PARITY_MIN:
        return False
    shares = [float(on_dark[labels == g].mean()) for g in _sizable_groups(labels, k)]
    sorted_shares = [share for share in shares if min(share, 1.0 - share) <= SORTED_SHARE]
    return len(sorted_shares) >= 2 and min(sorted_shares) < 0.5 < max(sorted_shares)


def _sizable_groups(labels: np.ndarray, k: int) -> list[int]:
    """The groups of SORTED_MIN_PIECES pieces or more."""
    return [g for g in range(k) if np.sum(labels == g) >= SORTED_MIN_PIECES]


def _regrouping_kept(new_labels: np.ndarray, labels: np.ndarray, k: int, on_dark: np.ndarray,
                     name_probs: np.ndarray | None, per_square_colour: bool = False) -> bool:
    """Whether groups found again for groups sorted by square colour replace them: as many
    sizable groups, not so sorted, and the learned model's likeliest colours agreeing with them
    at least as well (:func:`learned_agreement`); with ``per_square_colour``, agreeing better
    on each square colour apart (there, names that follow the square colours agree with any
    groups alike)."""
    if len(_sizable_groups(new_labels, k)) != len(_sizable_groups(labels, k)) \
            or sorted_by_square_colour(new_labels, k, on_dark):
        return False
    if per_square_colour:
        return learned_agreement(name_probs, new_labels, on_dark) > learned_agreement(name_probs, labels, on_dark)
    return learned_agreement(name_probs, new_labels) >= learned_agreement(name_probs, labels)


def learned_agreement(name_probs: np.ndarray | None, labels: np.ndarray, on_dark: np.ndarray | None = None) -> float:
    """The share of the pieces with learned odds (``name_probs``, rows over COLOURS; NaN rows:
    none) whose likeliest colour is the one most of their group's pieces have (with ``on_dark``,
    most of their group's pieces on the same square colour: the model may see one filter as
    another colour over the dark squares); 0 without any."""
    if name_probs is None:
        return 0.0
    probs = np.asarray(name_probs, np.float64)
    known = ~np.isnan(probs).any(axis=1)
    if not known.any():
        return 0.0
    likeliest = probs[known].argmax(axis=1)
    grouped = np.asarray(labels)[known]
    if on_dark is not None:
        grouped = 2 * grouped + np.asarray(on_dark, bool)[known]
    agree = sum(int(np.bincount(likeliest[grouped == g]).max()) for g in np.unique(grouped))
    return agree / int(known.sum())


def parities_evened(features: np.ndarray, on_dark: np.ndarray) -> np.ndarray:
    """Features with the pieces on each square colour moved, every feature alike, so that their
    median matches all the pieces' median: what the square under a piece adds to its look (its
    light, its colour mirrored in a glossy piece's faces) taken off."""
    on_dark = np.asarray(on_dark, bool)
    out = np.array(features, np.float64)
    middle = np.median(out, axis=0)
    for side in (on_dark, ~on_dark):
        if side.any():
            out[side] += middle - np.median(out[side], axis=0)
    return out


def tinted_looks(look_bgr: np.ndarray, wb: WhiteBalance, shares=TINT_SHARES) -> np.ndarray:
    """Grouping features (``hue_features``) of a piece whose look on a light square is
    ``look_bgr`` (balanced, 0-1), as it would look on a dark one through each of ``shares`` of
    a filter: the look times the dark squares' colour over the light ones' to that power (0: an
    opaque piece, 1: clear glass letting the square show through)."""
    looks = np.array([np.asarray(look_bgr, np.float64) * wb.dark_tint ** t for t in shares], np.float32)
    lab = cv2.cvtColor(np.clip(looks, 0, 1).reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return hue_features(describe(lab, wb))


def paired_across_square_colours(samples_lab: np.ndarray, wb: WhiteBalance, on_dark: np.ndarray,
                                 k: int, per_player: int | None = None) -> np.ndarray | None:
    """Group labels from the pieces on each square colour grouped apart, ``k`` groups each (as
    many pieces in one as a player may have on the whole board), and each light-square group
    joined to the dark-square group its look would take through a filter over the dark squares
    (:func:`tinted_looks`; the pairing of least summed feature distance), the joined groups
    then held to as many pieces as a player may have (:func:`balanced_groups` on each square
    colour apart). None where a square colour has fewer than ``k`` pieces or a group none, or
    where the next best pairing is nearly as near (PAIRING_MARGIN)."""
    on_dark = np.asarray(on_dark, bool)
    if min(on_dark.sum(), (~on_dark).sum()) < k:
        return None
    balanced = wb.apply_lab(samples_lab)
    feats = hue_features(describe(balanced, wb))
    light, dark = np.flatnonzero(~on_dark), np.flatnonzero(on_dark)
    light_labels, _ = choose_groups(feats[light], k, per_player=per_player, pieces=len(feats))
    dark_labels, dark_centres = choose_groups(feats[dark], k, per_player=per_player, pieces=len(feats))
    if np.bincount(light_labels, minlength=k).min() == 0 or np.bincount(dark_labels, minlength=k).min() == 0:
        return None
    bgr = cv2.cvtColor(balanced.astype(np.float32).reshape(-1, 1, 3), cv2.COLOR_Lab2BGR).reshape(-1, 3)
    cost = np.zeros((k, k))
    for g in range(k):
        looks = tinted_looks(bgr[light[light_labels == g]].mean(axis=0), wb)
        cost[g] = np.sqrt(((looks[:, None, :] - dark_centres[None, :, :]) ** 2).sum(axis=2)).min(axis=0)
    (best, dark_of), (runner_up, _) = sorted((float(cost[np.arange(k), list(perm)].sum()), perm)
                                             for perm in itertools.permutations(range(k)))[:2]
    if best > PAIRING_MARGIN * runner_up:
        return None
    light_group_of = {h: g for g, h in enumerate(dark_of)}
    labels = np.zeros(len(on_dark), int)
    labels[light] = light_labels
    labels[dark] = [light_group_of[g] for g in dark_labels]
    return balanced_groups(feats, labels, k, _capacity(len(feats), k, per_player), on_dark=on_dark)[0]


def parity_distances(features: np.ndarray, labels: np.ndarray, k: int, on_dark: np.ndarray) -> np.ndarray:
    """(N, k) squared feature distance of each piece to each group's pieces on its own square
    colour (their mean; all the group's pieces where none stand on it, all the pieces' where
    the group has none): the memberships of groups that look unlike themselves across the
    square colours."""
    on_dark = np.asarray(on_dark, bool)
    d2 = np.zeros((len(features), k))
    for side in (on_dark, ~on_dark):
        for g in range(k):
            candidates = ((labels == g) & side, labels == g, np.ones(len(features), bool))
            members = next(m for m in candidates if m.any())
            d2[side, g] = ((features[side] - features[members].mean(axis=0)) ** 2).sum(axis=1)
    return d2


def group_colours(samples_lab: np.ndarray, wb: WhiteBalance, players: int | None = None,
                  per_player: int | None = None, choices=(2, 3, 4),
                  on_dark: np.ndarray | None = None, name_probs: np.ndarray | None = None,
                  trusted: np.ndarray | None = None, over_cloth: np.ndarray | None = None,
                  hidden_probs: np.ndarray | None = None, show_through: np.ndarray | None = None,
                  told: Sequence[str] | None = None) -> ColourGroups:
    """Group pyramid colour samples (Lab, as photographed) into named player colours.

    Groups that stand almost all on one square colour (:func:`sorted_by_square_colour`) are
    grouped again with what the square colour adds taken off (:func:`parities_evened`), or,
    where that is not kept and no piece is washed out (``trusted``), grouped on each square
    colour apart and paired across it (:func:`paired_across_square_colours`; their naming
    centres and learned name odds then from their pieces on the light squares).
    ``on_dark``: per sample, whether the piece stands on a dark square (translucent pieces
    take on the square's lightness, opaque ones keep their own). ``over_cloth``: per sample,
    the lightness of all the piece's own pixels and of the bare cloth behind them (NaN:
    unmeasured), for :func:`see_through`; without it, each sample's lightness and its
    square's (:func:`over_cloth_from_samples`). ``name_probs``: per sample,
    the learned model's odds over COLOURS (NaN rows: none), one more cue for the names.
    ``trusted``: per sample, whether its colour is as the piece looks (False: washed out by a
    reflection). Where :func:`_trusted_for_grouping` allows, the groups are fitted to the
    trusted alone (as many as ``players`` or a full stash says, else as their colours show) and
    named from them; the others join the nearest group, their colours no sign that they are not
    pyramids (``fit`` 1). ``hidden_probs``: the learned model's odds over COLOURS for the
    pyramids with no colour sample, one more cue for the names (:func:`hidden_name_costs`).
    ``show_through``: per sample, how much of the board behind shows through the piece's own
    pixels and that measure's variance (``squares.piece_show_through``; NaN: unmeasured), for
    :func:`group_show_through`. ``told``: the players' colours, when they said them: the
    groups are named among them alone (:func:`naming_odds`)."""
    samples_lab = np.asarray(samples_lab, np.float64).reshape(-1, 3)
    if len(samples_lab) == 0:
        return ColourGroups(np.zeros(0, int), np.zeros((0, 3)), [], np.zeros((0, 0)), 1.0)
    raw, feats = grouping_features(samples_lab, wb, on_dark)
    labels, centres = choose_groups(feats, players, per_player=per_player, choices=choices)
    k = len(centres)
    paired = False
    if sorted_by_square_colour(labels, k, on_dark):
        evened = parities_evened(feats, on_dark)
        evened_labels, evened_centres = choose_groups(evened, k, per_player=per_player, choices=choices)
        if _regrouping_kept(evened_labels, labels, k, on_dark, name_probs):
            feats, labels, centres = evened, evened_labels, evened_centres
        elif trusted is None or np.all(trusted):
            across = paired_across_square_colours(samples_lab, wb, on_dark, k, per_player)
            if across is not None and _regrouping_kept(across, labels, k, on_dark, name_probs, per_square_colour=True):
                labels, centres, paired = across, _group_means(feats, across, k, lambda g: feats.mean(axis=0)), True
    n = len(feats)
    count_known = players is not None or _stash_group_count(n, per_player, choices) is not None
    own = _trusted_for_grouping(trusted, labels if count_known else None, len(centres))
    if own is None:
        own = np.ones(n, bool)
    else:
        # As many groups as the stash or the players say, else as the trusted colours show.
        trusted_labels, centres = choose_groups(feats[own], len(centres) if count_known else None, choices=choices,
                                                per_player=per_player, pieces=n)
        labels = ((feats[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
        labels[own] = trusted_labels
    k = len(centres)
    on_dark_own = None if on_dark is None else np.asarray(on_dark, bool)[own]
    # Paired across the square colours, a group's looks on the dark squares are its filter over
    # them, not its colour: its naming centre and learned name odds come from its pieces on the
    # light squares alone (the see-through cues still compare both square colours).
    named = own & ~np.asarray(on_dark, bool) if paired else own
    named |= own & ~np.isin(labels, labels[named])  # a group with no piece on the light squares: all of it
    if name_probs is not None:
        name_probs = np.array(name_probs, np.float64)
        if paired:
            name_probs[~named] = np.nan
    extra = learned_name_costs(name_probs[named], labels[named], k) if name_probs is not None else None
    naming = naming_centres(raw[named], labels[named], k, None if on_dark is None else np.asarray(on_dark, bool)[named])
    if over_cloth is None and on_dark is not None:
        over_cloth = over_cloth_from_samples(samples_lab, on_dark, wb)
    over_cloth_own = None if over_cloth is None else np.asarray(over_cloth, np.float64).reshape(-1, 2)[own]
    show_through_own = None if show_through is None else np.asarray(show_through, np.float64).reshape(-1, 2)[own]
    cues = summed_costs(see_through_costs(naming, *see_through(over_cloth_own, labels[own], k, on_dark_own, wb)),
                        see_through_costs(naming, *group_show_through(show_through_own, labels[own], k),
                                          spread=THROUGH_SPREAD, floor=THROUGH_FLOOR, floored=True,
                                          most=THROUGH_MOST_COST),
                        dark_only_costs(labels[own], k, on_dark_own, wb, naming))
    # A hidden pyramid weighs what one piece of a group of average size weighs in its learned
    # costs (their mean over the group's pieces with learned odds).
    with_odds = int(own.sum()) if name_probs is None else int(np.isfinite(name_probs[own]).all(axis=1).sum())
    hidden_weight = LEARNED_NAME_WEIGHT * k / max(1, with_odds)
    naming_cues = dict(extra_costs=extra, cue_costs=cues, hidden_probs=hidden_probs, hidden_weight=hidden_weight,
                       over_cloth=lightness_over_cloth(over_cloth_own, labels[own], k, on_dark_own, wb))
    names, name_odds = naming_odds(naming, told=told, **naming_cues)
    untold_odds = None if told is None else naming_odds(naming, **naming_cues)[1]
    d2 = parity_distances(feats, labels, k, on_dark) if paired else ((feats[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    within = d2[np.arange(len(feats)), labels][own]
    spread = float(np.sqrt(np.median(within))) + SPREAD_FLOOR
    probs = group_membership(d2, spread)
    if name_probs is not None:
        probs = weighed_by_learned_names(probs, name_probs, names)
    nearest = np.sqrt(d2.min(axis=1))
    # How well each sample fits any group at all: a park marker (a coin, a glass stone) that
    # was taken for a pyramid usually fits none.
    fit = np.exp(-np.maximum(0.0, nearest - OUTLIER_SPREADS * spread) ** 2 / (2 * spread ** 2))
    fit[~own] = 1.0  # a washed-out colour fitting no group says nothing of what the piece is
    return ColourGroups(labels=labels, centres=centres, names=names, probs=probs, spread=spread, fit=fit,
                        name_odds=name_odds, untold_odds=untold_odds)


def _trusted_for_grouping(trusted: np.ndarray | None, labels: np.ndarray | None, k: int) -> np.ndarray | None:
    """Which samples the groups are fitted to (None: all of them): the ``trusted`` when they
    are MIN_TRUSTED_SHARE of all and, where the group count is known, each of the ``k`` groups
    ``labels`` found among all the samples holds MIN_TRUSTED_PER_GROUP of them (a player whose
    pieces all lie in a reflection keeps its group)."""
    if trusted is None:
        return None
    own = np.asarray(trusted, bool)
    if own.all() or own.sum() < MIN_TRUSTED_SHARE * len(own):
        return None
    if labels is not None and np.bincount(labels[own], minlength=k).min() < MIN_TRUSTED_PER_GROUP:
        return None
    return own


def group_membership(d2: np.ndarray, spread: float, tail: float = MEMBERSHIP_TAIL) -> np.ndarray:
    """(N, K) probability that each sample belongs to each group, from its squared feature
    distances ``d2`` to the groups' centres: a Student-t of ``tail`` degrees of freedom in 3
    dimensions with scale ``spread``, so the odds between two groups fall off as a power of
    the distance ratio, not exponentially in the squared distance."""
    z = -(tail + 3) / 2 * np.log1p(d2 / (tail * spread ** 2))
    z -= z.max(axis=1, keepdims=True)
    probs = np.exp(z)
    return probs / probs.sum(axis=1, keepdims=True)


def placed_names(names: list[str], name_odds: list[dict[str, float]]) -> list[str]:
    """The one name each group's pieces are given on the board: the distinct names likeliest
    together under the groups' odds (after their caps, so not always the joint naming's
    ``names``); ``names`` when there are no odds."""
    if not name_odds:
        return list(names)
    odds = [o or {name: 1.0} for name, o in zip(names, name_odds)]
    candidates = sorted(set(names).union(*odds))
    cost = np.array([[-np.log(max(o.get(c, 0.0), 1e-9)) for c in candidates] for o in odds])
    rows, cols = linear_sum_assignment(cost)
    return [candidates[j] for j in cols[np.argsort(rows)]]


def weighed_by_learned_names(probs: np.ndarray, name_probs: np.ndarray, names: list[str],
                             weight: float = LEARNED_MEMBERSHIP_WEIGHT) -> np.ndarray:
    """Group memberships ``probs`` (N, K) times each piece's learned odds of each group's name
    (``name_probs``, N x len(COLOURS); NaN rows: no odds, left as they are) to the power
    ``weight``, renormalised: a piece the model sees as blue leans to the blue group."""
    columns = [COLOURS.index(name) for name in names]
    learned = np.maximum(name_probs[:, columns], LEARNED_NAME_FLOOR)
    learned = np.where(np.isnan(learned), 1.0, learned)
    weighed = probs * learned ** weight
    return weighed / weighed.sum(axis=1, keepdims=True)


def unsampled_membership(name_probs: np.ndarray | None, names: list[str]) -> np.ndarray:
    """(K,) probability that a pyramid with no colour sample of its own (hidden behind other
    pieces) belongs to each of the groups named ``names``: even odds leaning on the learned
    model's odds of each name (``name_probs`` over COLOURS, or None), as
    :func:`weighed_by_learned_names` leans a sampled piece's. On dev and its photometric
    variants this read 10 more of their 750 boards right than even odds alone."""
    even = np.full((1, len(names)), 1.0 / max(1, len(names)))
    if name_probs is None or not names:
        return even[0]
    return weighed_by_learned_names(even, np.asarray(name_probs, np.float64)[None, :], names)[0]


def _pyramid_samples(squares, pyramids: list[tuple[int, int]]):
    """The colour samples (Lab), white balance, dark-square flags and learned name odds of
    the pyramids on squares ``pyramids`` of a ``squares.SquaresResult``."""
    appearance = squares.appearance
    wb = white_balance(appearance.light_lab, appearance.dark_lab)
    samples = np.array([squares.readings[sq].colour_lab for sq in pyramids], np.float64).reshape(-1, 3)
    on_dark = np.array([(c + r) % 2 == appearance.dark_parity for (c, r) in pyramids], bool)
    return samples, wb, on_dark, learned_odds(squares, pyramids)


def learned_odds(squares, keys: list[tuple[int, int]]) -> np.ndarray:
    """(N, len(COLOURS)) the learned model's name odds of the pyramids on squares ``keys``
    (rows of NaN where it has none)."""
    unknown = np.full(len(COLOURS), np.nan)
    return np.array([unknown if squares.readings[sq].colour_names is None else squares.readings[sq].colour_names
                     for sq in keys], np.float64).reshape(-1, len(COLOURS))


def colour_groups_for(squares, pyramids: list[tuple[int, int]], *, players: int | None = None,
                      per_player: int | None = None, choices=(2, 3, 4),
                      washed_out: np.ndarray | None = None, hidden: list[tuple[int, int]] = (),
                      told: Sequence[str] | None = None) -> ColourGroups:
    """:func:`group_colours` for the pyramids on squares ``pyramids`` ((col, row) keys of a
    ``squares.SquaresResult`` whose readings carry a ``colour_lab``), white-balanced on the
    board's own squares and told which pyramids stand on dark squares; ``washed_out``: rows
    x cols, the squares a reflection washes out (``lighting.glared_squares``), whose pieces'
    colours are not trusted; ``hidden``: the squares of the pyramids with no colour sample,
    whose learned name odds count towards the names; ``told``: the players' colours, when
    they said them."""
    samples, wb, on_dark, name_probs = _pyramid_samples(squares, pyramids)
    trusted = None if washed_out is None else np.array([not washed_out[r, c] for (c, r) in pyramids], bool)
    unmeasured = (np.nan, np.nan)
    over_cloth = np.array([squares.readings[sq].over_cloth or unmeasured for sq in pyramids], np.float64).reshape(-1, 2)
    show_through = np.array([squares.readings[sq].show_through or unmeasured for sq in pyramids],
                            np.float64).reshape(-1, 2)
    return group_colours(samples, wb, players=players, per_player=per_player, choices=choices, on_dark=on_dark,
                         name_probs=name_probs, trusted=trusted, over_cloth=over_cloth,
                         hidden_probs=learned_odds(squares, list(hidden)), show_through=show_through, told=told)


def clear_group_count(squares, pyramids: list[tuple[int, int]], counts,
                      margin: float = GROUP_COUNT_MARGIN) -> int | None:
    """Of the player counts ``counts``, the one the colours of the pyramids on ``pyramids``
    show clearly: its groups stand apart (``separation_scores``) ``margin`` times better than
    any other count's. None when none does, or with too few pieces to tell."""
    ks = sorted(k for k in set(counts) if k >= 2)
    if len(ks) < 2 or len(pyramids) < 2 * max(ks):
        return None
    samples, wb, on_dark, _ = _pyramid_samples(squares, pyramids)
    scores = {k: entry[0] for k, entry in separation_scores(grouping_features(samples, wb, on_dark)[1], ks).items()}
    best = max(scores, key=scores.get)
    if all(scores[best] >= margin * scores[k] for k in ks if k != best):
        return best
    return None
