"""Naming colour groups: the lightness differences between a photo's groups."""

import cv2
import numpy as np
import pytest

from scorer.board import COLOURS
from scorer.vision.colours import (LIGHTNESS_WEIGHT, balanced_groups, group_colours, group_membership, hidden_name_costs,
                                   naming_odds, placed_names, unsampled_membership, weighed_by_learned_names, white_balance)


def _centre(hue_deg, chroma, lightness):
    """A naming centre: a, b, lightness (parity-averaged and levelled), percent of the light squares."""
    h = np.radians(hue_deg)
    scaled = LIGHTNESS_WEIGHT * lightness
    return [chroma * np.cos(h), chroma * np.sin(h), scaled, scaled]


def test_a_much_lighter_bluish_group_is_cyan_beside_a_blue_one():
    # Both hues lie between cyan and purple; the lighter group passes more light (cyan), so
    # the pair is cyan and blue, not blue and purple.
    names, odds = naming_odds(np.array([_centre(281, 44, 52), _centre(302, 73, 33)]))
    assert names == ["cyan", "blue"]
    assert odds[0]["cyan"] > 0.5


def test_a_washed_out_blue_beside_yellow_stays_blue():
    # Haze shrinks lightness differences: a smaller difference than the names predict is no
    # reason to rename a plainly blue group.
    names, _ = naming_odds(np.array([_centre(98, 24, 70), _centre(287, 20, 55)]))
    assert names == ["yellow", "blue"]


def test_a_pale_blue_group_lighter_than_yellow_and_cyan_ones_is_not_blue(monkeypatch):
    # Group centres and the learned model's costs from a Cycles render (cycles_007830: four
    # players under a warm lamp, the clear pieces reflecting a bluish ambient light). A blue
    # filter passes far less light than a yellow or a cyan one: the palest group is not blue.
    import scorer.vision.colours as colours

    centres = np.array([[-1.4, -26.2, LIGHTNESS_WEIGHT * 38.4, LIGHTNESS_WEIGHT * 41.6],
                        [-18.7, 9.3, LIGHTNESS_WEIGHT * 28.4, LIGHTNESS_WEIGHT * 33.1],
                        [-6.4, 26.3, LIGHTNESS_WEIGHT * 38.4, LIGHTNESS_WEIGHT * 42.0],
                        [6.5, -24.2, LIGHTNESS_WEIGHT * 46.4, LIGHTNESS_WEIGHT * 49.7]])
    # The model's four cheapest names per group as measured; the rest at its floor.
    leaning = [{"cyan": 0.43, "blue": 3.96, "clear": 4.23, "black": 4.29},
               {"green": 0.11, "black": 4.13, "cyan": 4.89, "clear": 5.53},
               {"yellow": 0.07, "orange": 4.31, "black": 5.14, "green": 5.53},
               {"white": 1.69, "clear": 1.76, "blue": 2.12, "black": 4.03}]
    floor = -np.log(colours.LEARNED_NAME_FLOOR)
    learned = [{name: costs.get(name, floor) for name in COLOURS} for costs in leaning]
    names, odds = naming_odds(centres, extra_costs=learned)
    assert names == ["cyan", "green", "yellow", "clear"]
    assert odds[3]["blue"] < 0.2
    # With the old rule (a reversal of up to 10 points free for every pair), it was blue.
    monkeypatch.setattr(colours, "REVERSAL_FREE_SPAN", float("inf"))
    assert naming_odds(centres, extra_costs=learned)[0][3] == "blue"


def test_a_group_darker_than_an_orange_one_over_the_same_cloth_is_not_clear():
    # Group centres and the learned model's four cheapest names as measured on a dim render of
    # a wooden board (trec2's studio_211201: orange and black players, five of the six black
    # pieces on dark squares). Levelled as if translucent, the black group's lightness comes
    # within the margin of the orange group's, and it was named clear; over the same dark cloth
    # its pieces show 46% of the cloth behind them against the orange ones' 96%.
    import scorer.vision.colours as colours

    centres = np.array([[10.3, 18.6, 32.8, 39.2], [6.0, -4.7, 25.8, 33.3]])
    leaning = [{"orange": 0.19, "yellow": 2.47, "red": 5.18, "black": 5.92},
               {"black": 1.41, "clear": 2.14, "blue": 3.57, "cyan": 3.69}]
    floor = -np.log(colours.LEARNED_NAME_FLOOR)
    learned = [{name: costs.get(name, floor) for name in COLOURS} for costs in leaning]
    assert naming_odds(centres, extra_costs=learned)[0] == ["orange", "clear"]
    over_cloth = np.array([[64.3, 95.9], [np.nan, 46.2]])
    names, odds = naming_odds(centres, extra_costs=learned, over_cloth=over_cloth)
    assert names == ["orange", "black"]
    assert odds[1]["clear"] < 0.1


def test_lightness_over_the_cloth_is_taken_square_colour_by_square_colour():
    import scorer.vision.colours as colours

    wb = white_balance(np.array([80.0, 0.0, 0.0]), np.array([30.0, 0.0, 0.0]))
    # (piece, cloth) lightness: group 0 on three light squares (one piece unmeasured) and two dark
    # ones, group 1 on two near-black squares (left out) and one light square (too few there).
    over_cloth = np.array([[60, 80], [64, 80], [np.nan, 80], [27, 30], [30, 30],
                           [12, 20], [14, 20], [30, 80]])
    labels = np.array([0, 0, 0, 0, 0, 1, 1, 1])
    on_dark = np.array([False, False, False, True, True, True, True, False])
    levels = colours.lightness_over_cloth(over_cloth, labels, 2, on_dark, wb)
    assert levels[0] == pytest.approx([77.5, 95.0])
    assert np.isnan(levels[1]).all()
    assert colours.lightness_over_cloth(None, labels, 2, on_dark, wb) is None


def test_the_order_over_the_cloth_averages_the_square_colours_both_groups_stand_on():
    import scorer.vision.colours as colours

    # 30 points darker over light squares, 20 over dark ones: 25 on average, 15 past the margin.
    lighter, darker = np.array([40.0, 70.0]), np.array([70.0, 90.0])
    for name in ("white", "clear"):  # alike, so the cue never chooses between the two
        assert colours.over_cloth_order_cost(lighter, darker, name, "yellow") == pytest.approx(1.5)
        assert colours.over_cloth_order_cost(darker, lighter, "yellow", name) == pytest.approx(1.5)
    assert colours.over_cloth_order_cost(lighter, darker, "black", "yellow") == 0.0
    assert colours.over_cloth_order_cost(lighter, darker, "blue", "yellow") == 0.0
    assert colours.over_cloth_order_cost(np.array([40.0, np.nan]), np.array([np.nan, 90.0]), "clear", "yellow") == 0.0


def test_the_larger_of_the_two_lightness_orders_counts_not_their_sum():
    # A pale grey group 25 points under a yellow one by the levelled lightness and 15 under it
    # over the same cloth: the first order's cost is the larger everywhere, so the odds are as
    # without the second.
    import scorer.vision.colours as colours

    centres = np.array([_centre(92, 40, 70), _centre(0, 2, 45)])
    over_cloth = np.array([[70.0, np.nan], [55.0, np.nan]])
    assert colours.over_cloth_order_cost(over_cloth[0], over_cloth[1], "yellow", "clear") == pytest.approx(0.5)
    assert colours.lightness_order_cost(70, 45, "yellow", "clear") == pytest.approx(1.5)
    plain = naming_odds(centres)
    both = naming_odds(centres, over_cloth=over_cloth)
    assert both[0] == plain[0]
    for with_cue, without in zip(both[1], plain[1]):
        assert with_cue == pytest.approx(without)


def test_group_colours_names_by_each_groups_lightness_over_the_cloth(monkeypatch):
    import scorer.vision.colours as colours

    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    samples, on_dark = _red_and_grey_pieces(0.7, False, np.random.default_rng(5))
    cloth = np.where(on_dark, wb.dark_l, wb.light_l)
    over_cloth = np.column_stack([samples[:, 0], cloth])
    grey = (np.arange(len(samples)) % 2 == 1).astype(int)
    expected = colours.lightness_over_cloth(over_cloth, grey, 2, on_dark, wb)
    passed = []
    naming = colours.naming_odds
    monkeypatch.setattr(colours, "naming_odds", lambda *a, **kw: passed.append(kw["over_cloth"]) or naming(*a, **kw))
    groups = group_colours(samples, wb, players=2, on_dark=on_dark, over_cloth=over_cloth)
    order = np.argsort(passed[0][:, 0])  # the red group (darker over light squares) first
    assert passed[0][order] == pytest.approx(expected)
    assert sorted(groups.names) == ["red", "white"]


# Colour samples (Lab as photographed) of a white and a black player on a red and white board
# seen from straight above under a dim lamp (a scratch render, studio seed 214011): on the red
# squares every piece takes on the red and the dimness. Light squares (90.4, 3.6, 26.8), dark
# (51.8, 43.6, 34.6).
WHITE_ON_LIGHT = [[73.3, 11, 24], [71.4, 11, 23], [74.1, 10, 24], [70.6, 11, 24], [71.0, 11, 24], [68.2, 12, 23],
                  [73.7, 10, 24], [70.6, 10, 23]]
WHITE_ON_DARK = [[60.4, 19, 23], [60.8, 19, 23], [58.0, 22, 24], [60.8, 22, 25], [60.4, 20, 23], [60.4, 17, 23]]
BLACK_ON_LIGHT = [[42.0, 6, 18], [49.8, 6, 20], [50.2, 6, 20], [46.3, 7, 19], [47.1, 5, 19], [51.4, 6, 20], [44.7, 6, 18]]
BLACK_ON_DARK = [[24.7, 30, 21], [24.3, 25, 19], [31.0, 19, 18], [21.6, 28, 20], [27.1, 28, 21], [30.6, 19, 18],
                 [30.6, 22, 20], [23.9, 22, 17]]


def test_groups_that_follow_the_square_colour_are_grouped_again_with_it_taken_off(monkeypatch):
    import scorer.vision.colours as colours

    samples = np.array(WHITE_ON_LIGHT + WHITE_ON_DARK + BLACK_ON_LIGHT + BLACK_ON_DARK, np.float64)
    on_dark = np.array([False] * 8 + [True] * 6 + [False] * 7 + [True] * 8)
    white = np.arange(len(samples)) < 14
    wb = white_balance(np.array([90.4, 3.6, 26.8]), np.array([51.8, 43.6, 34.6]))
    groups = group_colours(samples, wb, players=2, on_dark=on_dark)
    assert len(set(groups.labels[white])) == 1 and len(set(groups.labels[~white])) == 1  # by player
    assert (groups.probs.argmax(axis=1) == groups.labels).all()  # memberships from the same features
    # Where the learned model's likeliest colours follow the square colours too, the groups stay.
    name_probs = np.full((len(samples), len(COLOURS)), 0.01)
    name_probs[on_dark, COLOURS.index("red")] = name_probs[~on_dark, COLOURS.index("white")] = 0.9
    kept = group_colours(samples, wb, players=2, on_dark=on_dark, name_probs=name_probs)
    assert set(kept.labels[on_dark]).isdisjoint(kept.labels[~on_dark])
    # Grouped once only, the groups were the pieces on each square colour, whites with blacks.
    monkeypatch.setattr(colours, "sorted_by_square_colour", lambda labels, k, on_dark: False)
    once = group_colours(samples, wb, players=2, on_dark=on_dark)
    assert set(once.labels[on_dark]).isdisjoint(once.labels[~on_dark])


# Colour samples (Lab as photographed) of glassy green and yellow pieces on a white and red
# printed board (a scratch render, studio seed 760010, frost 0.02-0.2), with the learned model's
# likeliest colour of each: over the red squares the green filter turns near black and the
# yellow one orange, so no one shift evens the square colours out. Light squares
# (83.9, 3.6, 20.8), dark (43.1, 41.5, 30.6).
GLASSY_GREEN_ON_LIGHT = [[45.3, -6, 17], [44.7, -8, 20], [41.2, -6, 18], [42.4, -6, 19], [43.1, -7, 16],
                         [36.5, -7, 21], [42.7, -6, 20], [43.9, -7, 17], [36.5, -8, 16], [40.4, -8, 19]]
GLASSY_GREEN_ON_DARK = [[22.7, 10, 16], [20.0, 12, 16], [15.7, 14, 16], [21.2, 10, 16], [16.9, 17, 17]]
GLASSY_YELLOW_ON_LIGHT = [[51.4, 1, 26], [54.1, 1, 26], [51.2, 1, 23], [51.4, 1, 25], [49.0, 0, 26]]
GLASSY_YELLOW_ON_DARK = [[27.5, 27, 26], [29.0, 23, 26], [34.5, 19, 22], [26.7, 23, 26], [31.4, 24, 25],
                         [25.1, 29, 28], [23.5, 25, 26], [26.3, 23, 24], [23.5, 23, 26]]
GLASSY_LEARNED = (["green"] * 10 + ["black"] * 5 + ["black", "yellow", "black", "yellow", "yellow"]
                  + ["orange", "orange", "black", "orange", "black", "black", "orange", "black", "orange"])


def test_glassy_groups_sorted_by_square_colour_are_paired_across_it_by_their_filters_tint():
    samples = np.array(GLASSY_GREEN_ON_LIGHT + GLASSY_GREEN_ON_DARK + GLASSY_YELLOW_ON_LIGHT + GLASSY_YELLOW_ON_DARK,
                       np.float64)
    on_dark = np.array([False] * 10 + [True] * 5 + [False] * 5 + [True] * 9)
    green = np.arange(len(samples)) < 15
    wb = white_balance(np.array([83.9, 3.6, 20.8]), np.array([43.1, 41.5, 30.6]))
    name_probs = np.full((len(samples), len(COLOURS)), 0.3 / (len(COLOURS) - 1))
    name_probs[np.arange(len(samples)), [COLOURS.index(name) for name in GLASSY_LEARNED]] = 0.7
    groups = group_colours(samples, wb, players=2, on_dark=on_dark, name_probs=name_probs)
    assert len(set(groups.labels[green])) == 1 and len(set(groups.labels[~green])) == 1  # by player
    assert set(groups.labels[green]) != set(groups.labels[~green])
    assert (groups.probs.argmax(axis=1) == groups.labels).all()  # memberships on each square colour apart
    # Named from the pieces on the light squares, not the black and orange the red squares make.
    assert [groups.names[groups.labels[0]], groups.names[groups.labels[-1]]] == ["green", "yellow"]


def test_once_paired_a_dark_square_pieces_learned_odds_do_not_weigh_its_membership():
    samples = np.array(GLASSY_GREEN_ON_LIGHT + GLASSY_GREEN_ON_DARK + GLASSY_YELLOW_ON_LIGHT + GLASSY_YELLOW_ON_DARK,
                       np.float64)
    on_dark = np.array([False] * 10 + [True] * 5 + [False] * 5 + [True] * 9)
    wb = white_balance(np.array([83.9, 3.6, 20.8]), np.array([43.1, 41.5, 30.6]))
    name_probs = np.full((len(samples), len(COLOURS)), 0.3 / (len(COLOURS) - 1))
    name_probs[np.arange(len(samples)), [COLOURS.index(name) for name in GLASSY_LEARNED]] = 0.7
    paired = group_colours(samples, wb, players=2, on_dark=on_dark, name_probs=name_probs)
    # The green pieces on the red squares still likeliest black, but nearly as likely yellow.
    leaning = name_probs.copy()
    leaning[10:15] = 0.3 / (len(COLOURS) - 2)
    leaning[10:15, COLOURS.index("black")], leaning[10:15, COLOURS.index("yellow")] = 0.36, 0.34
    again = group_colours(samples, wb, players=2, on_dark=on_dark, name_probs=leaning)
    assert (again.labels == paired.labels).all() and again.names == paired.names
    assert np.allclose(again.probs, paired.probs)


def test_pairing_across_the_square_colours_never_gives_a_player_more_pieces_than_the_stash():
    from scorer.vision.colours import paired_across_square_colours

    samples = np.array(GLASSY_GREEN_ON_LIGHT + GLASSY_GREEN_ON_DARK + GLASSY_YELLOW_ON_LIGHT + GLASSY_YELLOW_ON_DARK,
                       np.float64)
    on_dark = np.array([False] * 10 + [True] * 5 + [False] * 5 + [True] * 9)
    wb = white_balance(np.array([83.9, 3.6, 20.8]), np.array([43.1, 41.5, 30.6]))
    labels = paired_across_square_colours(samples, wb, on_dark, 2, per_player=15)
    assert sorted(np.bincount(labels)) == [14, 15]
    # With 16 green pieces on the light squares, joined to either dark group they are more than
    # a player of two with 35 pieces between them can have (19): the groups are held to that.
    more = np.vstack([samples, GLASSY_GREEN_ON_LIGHT[:6]])
    assert np.bincount(paired_across_square_colours(more, wb, np.concatenate([on_dark, [False] * 6]), 2)).max() <= 19
    assert paired_across_square_colours(samples[:11], wb, on_dark[:11], 2) is None  # one piece on a dark square


def test_a_filter_over_the_dark_squares_tints_a_look_towards_their_colour():
    from scorer.vision.colours import tinted_looks

    wb = white_balance(_lab([0.85] * 3), _lab([0.1, 0.1, 0.6]))  # white and red squares (BGR)
    looks = tinted_looks(np.array([0.2, 0.7, 0.7]), wb)  # a yellow piece, opaque to clear glass
    assert looks[0, 0] < looks[-1, 0]  # redder (a, hue-saturated) through more of the filter
    assert looks[0, 2] > looks[-1, 2]  # and darker
    grey = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))  # a neutral board darkens, its hue the same
    plain = tinted_looks(np.array([0.2, 0.7, 0.7]), grey)
    hues = np.degrees(np.arctan2(plain[:, 1], plain[:, 0]))
    assert np.ptp(hues) < 2.0 and plain[0, 2] > plain[-1, 2]


def test_learned_agreement_is_the_share_of_pieces_whose_likeliest_colour_is_their_groups():
    from scorer.vision.colours import learned_agreement

    probs = np.full((6, len(COLOURS)), 0.01)
    for i, name in enumerate(["red", "red", "blue", "blue", "blue", "red"]):
        probs[i, COLOURS.index(name)] = 0.9
    assert learned_agreement(probs, np.array([0, 0, 1, 1, 1, 0])) == pytest.approx(1.0)
    assert learned_agreement(probs, np.array([0, 0, 0, 1, 1, 1])) == pytest.approx(4 / 6)
    probs[5] = np.nan  # no odds for that piece
    assert learned_agreement(probs, np.array([0, 0, 0, 1, 1, 1])) == pytest.approx(4 / 5)
    assert learned_agreement(None, np.array([0, 1])) == 0.0
    assert learned_agreement(np.full((2, len(COLOURS)), np.nan), np.array([0, 1])) == 0.0
    # Counted on each square colour apart, names that follow the square colour agree with any groups.
    names = ["red"] * 4 + ["white"] * 4
    by_square = np.full((8, len(COLOURS)), 0.01)
    by_square[np.arange(8), [COLOURS.index(name) for name in names]] = 0.9
    on_dark = np.array([True] * 4 + [False] * 4)
    by_player = np.array([0, 0, 1, 1] * 2)
    assert learned_agreement(by_square, by_player) == pytest.approx(0.5)
    assert learned_agreement(by_square, by_player, on_dark) == pytest.approx(1.0)
    # ... and names that differ within a square colour count there.
    by_square[[1, 5], COLOURS.index("blue")] = 0.95
    assert learned_agreement(by_square, by_player, on_dark) == pytest.approx(6 / 8)
    assert learned_agreement(by_square, np.array([0, 1, 0, 0, 0, 1, 0, 0]), on_dark) == pytest.approx(1.0)


def test_groups_sorted_by_square_colour_are_told_from_players_pieces():
    from scorer.vision.colours import parities_evened, sorted_by_square_colour

    on_dark = np.array([False, True] * 10)
    by_square = on_dark.astype(int)
    assert sorted_by_square_colour(by_square, 2, on_dark)
    assert not sorted_by_square_colour(np.arange(20) // 10, 2, on_dark)  # each player on both colours
    almost = by_square.copy()
    almost[[0, 1]] = [1, 0]  # one piece of each of 10 on the other colour: 10%
    assert sorted_by_square_colour(almost, 2, on_dark)
    almost[[2, 3]] = [1, 0]  # two of 10: 20%
    assert not sorted_by_square_colour(almost, 2, on_dark)
    few = np.array([0, 1] * 4 + [2] * 12)  # two groups of 4: too few to tell from chance
    assert not sorted_by_square_colour(few, 3, on_dark)
    assert not sorted_by_square_colour(by_square, 2, None)
    # Nearly every piece on light squares: two groups there are not sorted by square colour.
    mostly_light = np.array([False] * 18 + [True] * 2)
    assert not sorted_by_square_colour(np.arange(20) // 10, 2, mostly_light)
    # Two sizable groups both on light squares, the dark squares' pieces in a small third one.
    light_two = np.array([False] * 14 + [True] * 3)
    assert not sorted_by_square_colour(np.array([0] * 7 + [1] * 7 + [2] * 3), 3, light_two)
    # Two sorted groups, one on each colour, and a third player's on both: sorted all the same.
    with_mixed = np.array([False] * 10 + [True] * 10 + [False, True] * 5)
    assert sorted_by_square_colour(np.arange(30) // 10, 3, with_mixed)
    both_light = np.array([False] * 20 + [False, True] * 5)  # the two sorted groups on one colour
    assert not sorted_by_square_colour(np.arange(30) // 10, 3, both_light)
    on_dark = np.array([False, True] * 8)
    features = np.column_stack([np.where(on_dark, 30.0, 10.0), np.arange(16.0), np.where(on_dark, 20.0, 50.0)])
    evened = parities_evened(features, on_dark)
    assert np.median(evened[on_dark], axis=0) == pytest.approx(np.median(evened[~on_dark], axis=0))
    assert np.median(evened, axis=0) == pytest.approx(np.median(features, axis=0))


def test_pyramids_with_no_colour_sample_count_towards_the_names():
    # Group centres, learned costs and cues from a glassy 4-player ThreeHouse render on a
    # black and white bandanna (studio_204008, seed 204008 with --with-colour clear --frost
    # 0.0,0.3): the clear pieces on the white squares gave no colour sample, and the group
    # holding the ones on black squares (with some yellow ones) was named green. The learned
    # model calls the four hidden ones clear or white.
    centres = np.array([[-0.5, 0.6, 7.0, 10.5], [10.7, -26.9, 14.7, 19.5],
                        [-7.6, 51.1, 46.0, 46.0], [-3.2, 10.2, 15.2, 25.2]])
    learned = [{"red": 5.88, "yellow": 5.76, "orange": 5.19, "green": 5.57, "cyan": 5.94, "blue": 5.84,
                "purple": 5.27, "clear": 4.39, "black": 0.1, "white": 6.2},
               {"red": 6.78, "yellow": 6.74, "orange": 6.8, "green": 6.75, "cyan": 6.0, "blue": 0.02,
                "purple": 5.86, "clear": 5.71, "black": 6.01, "white": 6.27},
               {"red": 6.91, "yellow": 0.0, "orange": 6.91, "green": 6.91, "cyan": 6.91, "blue": 6.91,
                "purple": 6.79, "clear": 6.89, "black": 6.91, "white": 6.91},
               {"red": 6.29, "yellow": 3.0, "orange": 5.78, "green": 5.79, "cyan": 5.77, "blue": 5.77,
                "purple": 5.34, "clear": 3.07, "black": 3.94, "white": 4.52}]
    cues = [{"white": 0.0, "clear": 0.78}, {"white": 0.8, "clear": 0.0}, {}, {"black": 6.24}]
    hidden = np.full((4, len(COLOURS)), 0.001)
    hidden[:, COLOURS.index("clear")] = [0.557, 0.456, 0.713, 0.607]
    hidden[:, COLOURS.index("white")] = [0.434, 0.541, 0.285, 0.389]
    assert naming_odds(centres, extra_costs=learned, cue_costs=cues)[0] == ["black", "blue", "yellow", "green"]
    names, odds = naming_odds(centres, extra_costs=learned, cue_costs=cues, hidden_probs=hidden,
                              hidden_weight=4 / 31)  # 4 groups of 31 sampled pieces
    assert names == ["black", "blue", "yellow", "clear"] and odds[3]["clear"] >= 0.5
    # No hidden pyramid, or no weight: no change.
    for probs, weight in ((hidden[:0], 1.0), (hidden, 0.0)):
        assert naming_odds(centres, extra_costs=learned, cue_costs=cues, hidden_probs=probs,
                           hidden_weight=weight)[0][3] == "green"


def test_hidden_name_costs_favour_the_namings_that_hold_the_hidden_pieces_colour():
    names = ["red", "blue", "clear"]
    combos = np.array([[0, 1], [0, 2], [2, 1]])
    probs = np.zeros((2, len(COLOURS)))
    probs[:, COLOURS.index("clear")] = 0.9
    probs[:, COLOURS.index("red")] = 0.1
    costs = hidden_name_costs(probs, names, combos, weight=0.5)
    assert costs[1] < costs[2] < costs[0]  # red and clear, clear and blue, red and blue
    assert costs[0] == pytest.approx(-0.5 * 2 * np.log(0.05))  # red's 0.1 shared evenly by two groups
    assert not hidden_name_costs(None, names, combos, weight=1.0).any()
    unknown = np.vstack([probs, np.full(len(COLOURS), np.nan)])  # a row of NaN: no learned odds
    assert hidden_name_costs(unknown, names, combos, weight=0.5) == pytest.approx(costs)
    with pytest.raises(ValueError):
        hidden_name_costs(probs[:, :5], names, combos, weight=0.5)


def test_a_grey_group_darker_than_a_red_and_a_yellow_one_is_black_not_clear(monkeypatch):
    # Group centres like those of a black, a red and a yellow player in an over-exposed photo
    # (dev's brightened variant): the light squares clip, so the black pieces come out at half
    # their lightness. Clear plastic passes more light than a red or yellow filter, so a group
    # much darker than the yellow one is not clear.
    import scorer.vision.colours as colours

    centres = np.array([_centre(60, 5.3, 48), _centre(35, 32, 58), _centre(92, 45, 86)])
    names, odds = naming_odds(centres)
    assert names == ["black", "red", "yellow"]
    monkeypatch.setattr(colours, "LIGHTER_THAN_COLOURS", {})
    names_unordered, odds_unordered = naming_odds(centres)
    assert names_unordered[0] == "clear"
    assert odds[0]["black"] > odds_unordered[0]["black"]


def test_a_washed_out_photo_keeps_its_colours_and_its_clear_pieces(monkeypatch):
    # Group centres from dev's chroma x0.55 variant (colour_eval): at full chroma alone the
    # faint blue would be clear; tried at lower chroma gains it is blue again.
    import scorer.vision.colours as colours

    blue_and_yellow = np.array([[2.1, -10.3, 29.9, 33.4], [-2.1, 12.4, 39.3, 40.8]])
    assert naming_odds(blue_and_yellow)[0] == ["blue", "yellow"]
    # A nearly grey group stays clear beside washed-out orange and yellow ones.
    clear_orange_yellow = np.array([[-0.8, -1.4, 40.8, 43.4], [6.7, 10.7, 37.1, 40.7], [-3.1, 15.3, 40.6, 44.3]])
    assert naming_odds(clear_orange_yellow)[0] == ["clear", "orange", "yellow"]
    # Only the gain of 1 would name the faint blue group a neutral colour.
    monkeypatch.setattr(colours, "CHROMA_GAINS", (1.0,))
    assert naming_odds(blue_and_yellow)[0][0] == "clear"


def test_close_namings_share_the_odds():
    # Two bluish groups barely differing in lightness: blue/purple either way round, and
    # the odds say it is a close call.
    names, odds = naming_odds(np.array([_centre(300, 50, 36), _centre(306, 50, 35)]))
    assert sorted(names) == ["blue", "purple"]
    assert 0.2 < odds[0]["blue"] < 0.8


def test_near_hues_group_by_hue_whatever_their_chroma():
    # Blue and purple pieces whose chroma varies twofold with thickness (and square): the
    # players differ in hue by 15 degrees, far less than in chroma, yet group by hue.
    light = cv2.cvtColor(np.full((1, 1, 3), 0.85, np.float32), cv2.COLOR_BGR2Lab)[0, 0]
    dark = cv2.cvtColor(np.full((1, 1, 3), 0.3, np.float32), cv2.COLOR_BGR2Lab)[0, 0]
    wb = white_balance(light, dark)
    rng = np.random.default_rng(5)
    samples, truth = [], []
    for name, hue in (("blue", 296.0), ("purple", 311.0)):
        for chroma in rng.permutation(np.linspace(27, 60, 9)):
            h = np.radians(hue + rng.normal(0, 1.5))
            samples.append([35.0 + rng.normal(0, 3), chroma * np.cos(h), chroma * np.sin(h)])
            truth.append(name)
    groups = group_colours(np.array(samples), wb, players=2)
    assert sorted(groups.names) == ["blue", "purple"]
    assert [groups.names[k] for k in groups.labels] == truth


# --- the reader's colour block and the stage-isolated colour evaluation -------------------

from types import SimpleNamespace  # noqa: E402

from scorer.vision.colour_eval import best_matching, score_photo, summarise, true_pyramids  # noqa: E402
from scorer.vision.colours import ColourGroups, colour_groups_for  # noqa: E402


def _lab(bgr):
    return cv2.cvtColor(np.array([[bgr]], np.float32), cv2.COLOR_BGR2Lab)[0, 0].astype(np.float64)


def _squares(pieces, dark_parity=1):
    """A stand-in for the square stage: appearance plus a colour sample per pyramid square.
    ``pieces``: (col, row) -> BGR of the piece on a light square; on dark squares a
    translucent piece is taken darker."""
    readings = {}
    light, dark = _lab([0.85, 0.85, 0.85]), _lab([0.3, 0.3, 0.3])
    for (c, r), bgr in pieces.items():
        on_dark = (c + r) % 2 == dark_parity
        sample = _lab([v * (0.55 if on_dark else 1.0) for v in bgr])
        readings[(c, r)] = SimpleNamespace(colour_lab=sample, colour_names=None,
                                           over_cloth=(sample[0], (dark if on_dark else light)[0]), show_through=None)
    ys, xs = np.mgrid[0:8, 0:8]
    square_lab = np.where(((xs + ys) % 2 == dark_parity)[..., None], dark, light)  # bare cloth, no glare
    appearance = SimpleNamespace(light_lab=light, dark_lab=dark, dark_parity=dark_parity, square_lab=square_lab,
                                 seen=np.ones((8, 8), bool), rows=8, cols=8)
    return SimpleNamespace(readings=readings, appearance=appearance)


RED, YELLOW = (0.08, 0.1, 0.75), (0.1, 0.7, 0.8)  # BGR


def test_colour_groups_for_groups_and_names_pieces_on_both_square_colours():
    pieces = {(c, r): (RED if c < 4 else YELLOW) for c in range(8) for r in range(3)}
    groups = colour_groups_for(_squares(pieces), sorted(pieces), players=2)
    names = [groups.names[k] for k in groups.labels]
    assert names == ["red" if c < 4 else "yellow" for c, r in sorted(pieces)]


def test_colour_groups_for_names_groups_with_the_hidden_pyramids_learned_odds_too():
    # A pale colourless player beside a red one, on light squares: named white from its three
    # samples. Six more pyramids gave no colour sample, and the learned model calls each clear.
    light = [(c, r) for r in range(8) for c in range(8) if (c + r) % 2 == 0]
    pieces = {sq: RED for sq in light[:8]}
    pieces.update({sq: [0.75] * 3 for sq in light[8:11]})
    squares = _squares(pieces)
    clear = np.full(len(COLOURS), 0.01)
    clear[COLOURS.index("clear")] = 0.91
    hidden = light[11:17]
    for sq in hidden:
        squares.readings[sq] = SimpleNamespace(colour_lab=None, colour_names=clear, over_cloth=None, show_through=None)
    keys = sorted(pieces)
    pale = keys.index(light[8])
    alone = colour_groups_for(squares, keys, players=2)
    told = colour_groups_for(squares, keys, players=2, hidden=hidden)
    assert told.labels.tolist() == alone.labels.tolist()  # the groups are the samples' alone
    assert alone.names[alone.labels[pale]] == "white" and told.names[told.labels[pale]] == "clear"


def test_best_matching_pairs_groups_with_the_colours_they_mostly_hold():
    true = ["red", "red", "red", "blue", "blue", "white"]
    assert best_matching(true, np.array([1, 1, 0, 0, 0, 2]), 3) == {0: "blue", 1: "red", 2: "white"}
    # More groups than colours: each colour gets the group holding most of it, once.
    matched = best_matching(["red", "red", "blue"], np.array([0, 1, 2]), 3)
    assert sorted(matched.values()) == ["blue", "red"] and matched[2] == "blue"


def _truth(board_text):
    return {"board": board_text, "play_area": {"row": 0, "col": 0, "rows": 5, "cols": 5},
            "checkerboard": {"rows": 5, "cols": 5, "corners": [[0, 0], [500, 0], [500, 500], [0, 500]]},
            "players": 2, "scene": {"board": {"kind": "printed"}, "light_setup": "lamp"}}


def test_score_photo_counts_grouping_naming_and_pieces_against_the_truth():
    board = "r1 r2 y1 . .\nr3 y2 . . .\n. . . . .\n. . . . .\n. . . . .\n"
    truth = _truth(board)
    pieces = true_pyramids(truth)  # row 1 of the notation is its last line: the image bottom
    assert pieces == {(0, 4): "red", (1, 4): "red", (2, 4): "yellow", (0, 3): "red", (1, 3): "yellow"}
    squares = _squares({sq: (0.5, 0.5, 0.5) for sq in pieces})
    order = sorted(pieces)  # (0,3) red, (0,4) red, (1,3) yellow, (1,4) red, (2,4) yellow

    def stub(sq, keys, **settings):  # groups: {red x2, yellow}, {red, yellow}, named red, yellow
        assert keys == order and settings["per_player"] is None
        labels = np.array([0, 0, 0, 1, 1])
        return ColourGroups(labels=labels, centres=np.zeros((2, 3)), names=["red", "yellow"],
                            probs=np.eye(2)[labels], spread=1.0, name_odds=[{"red": 1.0}, {"yellow": 1.0}])

    result = score_photo("x.jpg", truth, squares, stub)
    assert result.pieces == 5 and result.right == 3  # (1,3) yellow read red; (1,4) red read yellow
    assert result.grouped_right == 3 and result.groups_named_right == 2
    summary = summarise([result])
    assert summary["piece_accuracy"] == 0.6
    assert summary["confusion"] == {"yellow->red": 1, "red->yellow": 1}
    assert summary["mean_p_truth"] == 0.6


def test_learned_name_odds_settle_a_close_naming_and_missing_odds_change_nothing():
    from scorer.vision.colours import learned_name_costs, naming_odds

    # A group between blue and purple (hue 307 degrees): a close call on colour alone.
    hue = np.radians(307.0)
    centres = np.array([[40.0 * np.cos(hue), 40.0 * np.sin(hue), 0.6 * 36.0, 0.6 * 36.0]])
    alone_names, alone_odds = naming_odds(centres)
    assert 0.3 < alone_odds[0]["purple"] < 0.7
    labels = np.zeros(6, int)
    says_purple = np.full((6, len(COLOURS)), 0.01)
    says_purple[:, COLOURS.index("purple")] = 0.91
    names, odds = naming_odds(centres, extra_costs=learned_name_costs(says_purple, labels, 1))
    assert names == ["purple"] and odds[0]["purple"] > 0.9
    blue = np.full((6, len(COLOURS)), 0.01)
    blue[:, COLOURS.index("blue")] = 0.91
    assert naming_odds(centres, extra_costs=learned_name_costs(blue, labels, 1))[0] == ["blue"]
    unknown = np.full((6, len(COLOURS)), np.nan)
    assert learned_name_costs(unknown, labels, 1) == [{}]
    assert naming_odds(centres, extra_costs=learned_name_costs(unknown, labels, 1)) == (alone_names, alone_odds)


def _grey_group_the_model_calls_white_beside_red(lightness):
    """naming_odds for a grey group of 6 pieces at ``lightness`` (percent of the light squares)
    that the learned model calls white, and a plainly red group it has no word on."""
    from scorer.vision.colours import learned_name_costs

    centres = np.array([[0.0, 0.0, 0.6 * lightness, 0.6 * lightness], [45.0, 30.0, 0.6 * 42.0, 0.6 * 42.0]])
    says_white = np.full((6, len(COLOURS)), 0.001)
    says_white[:, COLOURS.index("white")] = 0.99
    return naming_odds(centres, extra_costs=learned_name_costs(says_white, np.zeros(6, int), 1) + [{}])


def test_white_and_clear_are_never_named_with_more_than_the_measured_odds():
    from scorer.vision.colours import CONFUSED_MAX_ODDS, LONE_CONFUSED_MAX_ODDS, temper_confused

    # A bright, grey group that everything says is white, beside a clearly red one: white
    # alone, with no clear group to compare it with, gets the lone cap.
    names, odds = _grey_group_the_model_calls_white_beside_red(95.0)
    assert names == ["white", "red"]
    assert odds[0]["white"] == pytest.approx(LONE_CONFUSED_MAX_ODDS) and LONE_CONFUSED_MAX_ODDS < CONFUSED_MAX_ODDS
    assert odds[0]["clear"] >= 1.0 - LONE_CONFUSED_MAX_ODDS - 1e-9
    assert sum(odds[0].values()) == pytest.approx(1.0)
    assert odds[1]["red"] > 0.8
    assert temper_confused({"red": 0.95, "white": 0.05}) == {"red": 0.95, "white": 0.05}  # other names untouched
    assert temper_confused({"clear": 0.5, "white": 0.5}) == {"clear": 0.5, "white": 0.5}
    assert temper_confused({"white": 0.9, "clear": 0.1}, 0.6) == pytest.approx({"white": 0.6, "clear": 0.4})


@pytest.mark.parametrize("lightness, leaning, named", [(62.0, "white", "white"), (76.0, "clear", "clear")])
def test_the_learned_models_lean_settles_white_or_clear_near_the_lightness_boundary(lightness, leaning, named):
    from scorer.vision.colours import learned_name_costs

    # A lone grey group a little on the other side of the hand-built lightness boundary
    # between white and clear (the studio's, measured on dev) from the name the learned model
    # leans to (0.6 against 0.25): the boundary is no sharper than the model's lean.
    centres = np.array([[0.0, 0.0, 0.6 * lightness, 0.6 * lightness], [45.0, 30.0, 0.6 * 42.0, 0.6 * 42.0]])
    other = "clear" if leaning == "white" else "white"
    probs = np.full((6, len(COLOURS)), 0.15 / (len(COLOURS) - 2))
    probs[:, COLOURS.index(leaning)], probs[:, COLOURS.index(other)] = 0.6, 0.25
    names, odds = naming_odds(centres, extra_costs=learned_name_costs(probs, np.zeros(6, int), 1) + [{}])
    assert names == [named, "red"]
    assert 0.5 < odds[0][named] < 0.7  # still a close call, flagged


def test_white_beside_clear_keeps_the_higher_cap():
    from scorer.vision.colours import CONFUSED_MAX_ODDS

    # A bright opaque-looking group and a dim one on a photo with both: the pair compare.
    centres = np.array([[0.0, 0.0, 0.6 * 95.0, 0.6 * 95.0], [0.0, 0.0, 0.6 * 40.0, 0.6 * 40.0],
                        [45.0, 30.0, 0.6 * 42.0, 0.6 * 42.0]])
    names, odds = naming_odds(centres)
    assert sorted(names[:2]) == ["clear", "white"]
    assert max(odds[0][names[0]], odds[1][names[1]]) == pytest.approx(CONFUSED_MAX_ODDS)


def test_a_name_the_learned_model_all_but_rules_out_is_never_sure():
    from scorer.vision.colours import CONFUSED_MAX_ODDS, temper_disputed

    # A dark grey group the hand-built naming calls black, whose pieces the model says are white.
    names, odds = _grey_group_the_model_calls_white_beside_red(20.0)
    assert names == ["black", "red"]
    assert odds[0]["black"] == pytest.approx(CONFUSED_MAX_ODDS) and odds[0]["white"] > 0.19
    assert sum(odds[0].values()) == pytest.approx(1.0)
    # The model agreeing, or no word from it, leaves the odds alone.
    assert temper_disputed({"black": 0.99, "white": 0.01}, "black", {"black": 0.1, "white": 6.9}) == {"black": 0.99, "white": 0.01}
    assert temper_disputed({"black": 0.99, "white": 0.01}, "black", {}) == {"black": 0.99, "white": 0.01}


def _dark_grey_group_beside_red(model_says: dict[str, float]):
    """naming_odds for a dark grey group of 6 pieces (20% of the light squares' lightness)
    whose pieces the learned model gives ``model_says`` (name: odds, the rest shared), and a
    plainly red group it has no word on."""
    from scorer.vision.colours import learned_name_costs

    centres = np.array([[0.0, 0.0, 0.6 * 20.0, 0.6 * 20.0], [45.0, 30.0, 0.6 * 42.0, 0.6 * 42.0]])
    says = np.full((6, len(COLOURS)), (1.0 - sum(model_says.values())) / (len(COLOURS) - len(model_says)))
    for name, p in model_says.items():
        says[:, COLOURS.index(name)] = p
    return naming_odds(centres, extra_costs=learned_name_costs(says, np.zeros(6, int), 1) + [{}])


def test_black_is_never_sure_where_the_learned_model_leaves_clear_open():
    from scorer.vision.colours import CONFUSED_MAX_ODDS, temper_black_doubted

    # The model leaning black but giving clear 15%: black, flagged, clear offered.
    names, odds = _dark_grey_group_beside_red({"black": 0.8, "clear": 0.15})
    assert names == ["black", "red"]
    assert odds[0]["black"] == pytest.approx(CONFUSED_MAX_ODDS) and odds[0]["clear"] > 0.19
    assert sum(odds[0].values()) == pytest.approx(1.0)
    # The model ruling clear out (2%), or no word from it: black as sure as the rest makes it.
    names, odds = _dark_grey_group_beside_red({"black": 0.97, "clear": 0.02})
    assert names == ["black", "red"] and odds[0]["black"] > 0.95
    assert temper_black_doubted({"black": 0.99, "clear": 0.01}, "black", {}) == {"black": 0.99, "clear": 0.01}
    # Another name is not touched, whatever the model's odds of clear.
    assert temper_black_doubted({"white": 0.99, "clear": 0.01}, "white", {"clear": 0.5}) == {"white": 0.99, "clear": 0.01}


def _blue_group_the_model_calls(name):
    """naming_odds for a plainly blue group of 8 pieces that the learned model calls ``name``,
    beside a plainly red one it has no word on."""
    from scorer.vision.colours import learned_name_costs

    says = np.full((8, len(COLOURS)), 0.001)
    says[:, COLOURS.index(name)] = 0.99
    centres = np.array([_centre(295, 50, 36), _centre(35, 54, 42)])
    return naming_odds(centres, extra_costs=learned_name_costs(says, np.zeros(8, int), 1) + [{}])


def test_a_name_the_learned_model_chose_against_the_photos_own_colours_is_never_sure():
    from scorer.vision.colours import CONFUSED_MAX_ODDS, OWN_NAMING_SURE

    # The photo's own colours say blue (at odds of OWN_NAMING_SURE or more); the model, which
    # has only seen the studio's palette, says cyan and wins the naming, but not surely.
    own_names, own_odds = naming_odds(np.array([_centre(295, 50, 36), _centre(35, 54, 42)]))
    assert own_names == ["blue", "red"] and own_odds[0]["blue"] >= OWN_NAMING_SURE
    names, odds = _blue_group_the_model_calls("cyan")
    assert names == ["cyan", "red"]
    assert odds[0]["cyan"] == pytest.approx(CONFUSED_MAX_ODDS) and odds[0]["blue"] > 0.19
    assert sum(odds[0].values()) == pytest.approx(1.0)
    # The two agreeing, the name stands as sure as they make it.
    names, odds = _blue_group_the_model_calls("blue")
    assert names == ["blue", "red"] and odds[0]["blue"] > 0.95


def test_a_black_and_white_photo_has_no_colour_and_leaves_every_name_open():
    from scorer.vision.colours import colourless_odds, has_colour

    rng = np.random.default_rng(3)
    photo = rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)
    photo[:60, :, :] = (40, 60, 200)  # a red table edge among the noise
    grey = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert has_colour(photo)
    assert not has_colour(grey)
    assert not has_colour(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY))
    odds = colourless_odds({"black": 0.9, "blue": 0.08, "purple": 0.02})
    assert set(odds) == set(COLOURS) and np.allclose(list(odds.values()), 1.0 / len(COLOURS))
    assert list(odds)[:3] == ["black", "blue", "purple"]  # in the lightness-only naming's order


def test_a_piece_between_two_groups_keeps_a_real_chance_of_the_other():
    # Squared distances to two group centres, in spreads: a piece twice as far from the other
    # group as from its own keeps about 1 chance in 9 of it (a Gaussian gave it e^-6), so a
    # clash with the stash counts can move it there rather than empty a plainly occupied square.
    spread = 5.0
    d2 = (np.array([[0.5, 1.0], [2.0, 4.0], [1.0, 8.0], [4.0, 0.5]]) * spread) ** 2
    probs = group_membership(d2, spread)
    assert np.allclose(probs.sum(axis=1), 1.0)
    assert probs[0, 0] > 0.8 and probs[2, 0] > 0.99 and probs[3, 1] > 0.99  # near one group: sure of it
    assert 0.08 < probs[1, 1] < 0.2
    assert probs[1, 1] > np.exp(-(4.0 ** 2 - 2.0 ** 2) / 2)  # far more than a Gaussian's odds
    # the odds keep their order: the nearer the other group, the likelier it
    assert probs[0, 1] > probs[1, 1] > probs[2, 1]


def test_each_group_is_placed_under_one_distinct_name_its_odds_favour():
    # The odds' caps can favour another name than the joint naming's: the pieces take it
    assert placed_names(["clear", "red", "white"], [{"cyan": 0.53, "clear": 0.47}, {"red": 1.0}, {}]) == \
        ["cyan", "red", "white"]
    # two groups whose likeliest name is the same share it out: the likeliest pair of names wins
    assert placed_names(["purple", "red"], [{"red": 0.52, "purple": 0.36}, {"red": 0.39, "orange": 0.36, "purple": 0.2}]) \
        == ["red", "orange"]  # 0.52 x 0.36 against 0.36 x 0.39 for purple and red
    assert placed_names(["red", "purple"], [{"red": 0.9, "purple": 0.1}, {"red": 0.6, "purple": 0.4}]) == ["red", "purple"]
    assert placed_names(["red", "blue"], []) == ["red", "blue"]


def test_the_learned_odds_of_a_pieces_own_colour_lean_its_membership():
    probs = np.array([[0.7, 0.3], [0.7, 0.3], [0.99, 0.01]])
    name_probs = np.full((3, len(COLOURS)), 0.01)
    name_probs[0, COLOURS.index("blue")] = 0.9  # the model sees the first piece as blue
    name_probs[1] = np.nan  # no odds for the second
    name_probs[2, COLOURS.index("blue")] = 0.9  # nor can it move a piece the features are sure of
    weighed = weighed_by_learned_names(probs, name_probs, ["black", "blue"], weight=0.5)
    assert np.allclose(weighed.sum(axis=1), 1.0)
    assert weighed[0, 1] > 0.7  # from 0.3: sqrt(90) times the odds of blue
    assert np.allclose(weighed[1], probs[1])
    assert weighed[2, 0] > 0.9


def test_a_piece_with_no_colour_sample_leans_on_the_learned_odds_of_each_groups_name():
    names = ["red", "blue", "yellow"]
    assert np.allclose(unsampled_membership(None, names), 1 / 3)
    learned = np.full(len(COLOURS), 0.01)
    learned[COLOURS.index("blue")] = 0.9
    odds = unsampled_membership(learned, names)
    assert odds.sum() == pytest.approx(1.0)
    assert odds.argmax() == 1 and odds[0] == pytest.approx(odds[2])
    assert odds[1] < 0.9  # tempered: the hidden piece may still belong to another player
    assert np.allclose(unsampled_membership(np.full(len(COLOURS), np.nan), names), 1 / 3)  # no odds at all


def _red_and_grey_pieces(grey, grey_see_through, rng):
    """Lab samples of 16 red (translucent: darker on dark squares) and 16 grey pieces, half of
    each on dark squares; the grey ones darker there too when ``grey_see_through``."""
    samples, on_dark = [], []
    for i in range(16):
        dark = i % 2 == 1
        red = np.array(RED) * (0.55 if dark else 1.0)
        level = grey * (0.55 if dark and grey_see_through else 1.0)
        samples += [_lab(red * rng.uniform(0.95, 1.05)), _lab([level * rng.uniform(0.97, 1.03)] * 3)]
        on_dark += [dark, dark]
    return np.array(samples), np.array(on_dark)


@pytest.mark.parametrize("grey, see_through, named, by_lightness_alone", [
    (0.55, False, "white", "clear"),  # a dull opaque piece: as light on dark squares as on light ones
    (0.8, True, "clear", "white"),  # a bright piece that shows the square under it, as the red ones do
])
def test_white_or_clear_follows_whether_the_square_shows_through(monkeypatch, grey, see_through, named,
                                                                 by_lightness_alone):
    import scorer.vision.colours as colours

    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    samples, on_dark = _red_and_grey_pieces(grey, see_through, np.random.default_rng(3))
    assert group_colours(samples, wb, players=2, on_dark=on_dark).names == ["red", named]
    monkeypatch.setattr(colours, "see_through_costs", lambda centres, measure, variance, **_: [{} for _ in centres])
    assert group_colours(samples, wb, players=2, on_dark=on_dark).names == ["red", by_lightness_alone]


def test_see_through_follows_all_of_a_pieces_pixels_not_its_colour_sample():
    # A glassy clear piece's colour sample is the few pixels unlike the cloth (edges,
    # reflections): darker than a light square, lighter than a dark one, as white's would be.
    # All of its pixels together follow the cloth behind them; a white piece's do not.
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    samples, on_dark = _red_and_grey_pieces(0.7, False, np.random.default_rng(5))
    light_l, dark_l = wb.light_l, wb.dark_l
    cloth = np.where(on_dark, dark_l, light_l)
    grey = np.arange(len(samples)) % 2 == 1
    shows = np.where(grey, 0.1 * samples[:, 0] + 0.9 * cloth, 0.6 * samples[:, 0] + 0.4 * cloth)
    hides = np.where(grey, samples[:, 0], 0.6 * samples[:, 0] + 0.4 * cloth)
    named = {}
    for kind, piece_l in (("glassy", shows), ("opaque", hides)):
        groups = group_colours(samples, wb, players=2, on_dark=on_dark, over_cloth=np.column_stack([piece_l, cloth]))
        named[kind] = groups.names[groups.labels[1]]
    assert named == {"glassy": "clear", "opaque": "white"}
    from scorer.vision.colours import see_through
    labels = grey.astype(int)
    measure, variance = see_through(np.column_stack([shows, cloth]), labels, 2, on_dark, wb)
    assert measure[1] == pytest.approx(0.9, abs=0.01) and 0.4 < measure[0] < 0.9  # red: 0.4 and its own darkening
    # Pieces whose pixels were not measured are left out; too few left on one square colour, no word.
    grey_on_dark = np.flatnonzero((labels == 1) & on_dark)
    some = np.column_stack([shows, cloth])
    some[grey_on_dark[:4]] = np.nan
    assert see_through(some, labels, 2, on_dark, wb)[0][1] == pytest.approx(0.9, abs=0.01)
    some[grey_on_dark[:-2]] = np.nan
    measure = see_through(some, labels, 2, on_dark, wb)[0]
    assert np.isnan(measure[1]) and not np.isnan(measure[0])


def test_piece_show_through_is_its_slope_against_the_board_behind_each_of_its_pixels():
    from scorer.vision.squares import piece_show_through

    # A piece 20 px wide and 30 tall; the sightlines of its upper 12 rows of pixels land on
    # the light square behind it (L 90), the others' on its own dark one (L 30). Its faces
    # are lit unevenly across and down; a glassy piece adds 0.3 of the cloth behind.
    ys, xs = np.mgrid[0:30, 0:20]
    xs, ys = xs.ravel().astype(float), ys.ravel().astype(float)
    behind = np.where(ys < 12, 90.0, 30.0)
    shading = 40.0 + 1.5 * xs - 0.5 * ys
    cloth = (30.0, 90.0)
    assert piece_show_through(shading + 0.3 * behind, behind, xs, ys, cloth)[0] == pytest.approx(0.3, abs=1e-9)
    assert piece_show_through(shading, behind, xs, ys, cloth)[0] == pytest.approx(0.0, abs=1e-9)
    rng = np.random.default_rng(0)
    slopes = [piece_show_through(shading + 0.3 * behind + rng.normal(0, 3, len(xs)), behind, xs, ys, cloth)
              for _ in range(200)]
    spread = np.std([slope for slope, _ in slopes])
    assert np.mean([slope for slope, _ in slopes]) == pytest.approx(0.3, abs=0.005)
    assert np.sqrt(np.median([variance for _, variance in slopes])) == pytest.approx(spread, rel=0.2)
    # Seen from high above, every sightline lands on the piece's own square: no word.
    assert piece_show_through(shading, np.full(len(xs), 30.0), xs, ys, cloth) is None
    few = np.where((ys == 0) & (xs < 5), 90.0, 30.0)  # 5 px on the light square: under THROUGH_MIN_PIXELS
    assert piece_show_through(shading + 0.3 * few, few, xs, ys, cloth) is None
    column = xs == 4  # one column of pixels: the shading across the piece is not fixed
    assert piece_show_through(shading[column], behind[column], xs[column], ys[column], cloth) is None


def test_group_show_through_weighs_each_piece_by_how_surely_it_was_measured():
    from scorer.vision.colours import THROUGH_MIN_PIECES, THROUGH_PIECE_SPREAD, group_show_through

    n = THROUGH_MIN_PIECES
    sure = np.linspace(0.1, 0.3, n)
    rows = [[v, 0.0] for v in sure] + [[np.nan, np.nan]]  # group 0: sure pieces, one unmeasured
    rows += [[0.0, 0.0]] * (n - 1) + [[0.04, 1.0]]  # group 1: one piece measured unsurely
    rows += [[0.5, 0.0]] * (n - 1) + [[np.nan, np.nan]]  # group 2: one piece too few
    labels = np.repeat([0, 1, 2], [n + 1, n, n])
    measure, variance = group_show_through(np.array(rows), labels, 3)
    assert measure[0] == pytest.approx(0.2) and variance[0] == pytest.approx(THROUGH_PIECE_SPREAD ** 2 / n)
    assert 0.0 < measure[1] < 0.002  # the unsure piece hardly counts
    assert np.isnan(measure[2]) and np.isnan(variance[2])
    assert np.isnan(group_show_through(None, labels, 3)[0]).all()
    # A piece far off the others (its outline took in the cloth behind it) is left out...
    stray = np.array([[0.01 * i, 0.0] for i in range(n + 1)] + [[0.4, 0.0]])
    assert group_show_through(stray, np.zeros(n + 2, int), 1)[0][0] == pytest.approx(0.005 * n)
    # ...unless too few would be left.
    few_left = np.array([[0.0, 0.0]] * (n - 1) + [[0.4, 0.0]])
    assert np.isnan(group_show_through(few_left, np.zeros(n, int), 1)[0][0])


def test_show_through_costs_hold_clear_to_the_floor_and_cap_the_cue():
    from scorer.vision.colours import THROUGH_FLOOR, THROUGH_MOST_COST, THROUGH_SPREAD, see_through_costs

    centres = np.array([[0.5, 0.2, 40.0, 40.0], [30.0, 20.0, 30.0, 30.0]])  # a grey group and a red one
    glassy_grey_over_dull_red = np.array([0.3, -0.05]), np.array([0.0, 0.0])
    loose = see_through_costs(centres, *glassy_grey_over_dull_red, spread=THROUGH_SPREAD, floor=THROUGH_FLOOR)
    assert loose[0]["clear"] > 0 == loose[0]["white"]  # red's -0.05 as clear's target: white nearer
    held = see_through_costs(centres, *glassy_grey_over_dull_red, spread=THROUGH_SPREAD, floor=THROUGH_FLOOR,
                             floored=True, most=THROUGH_MOST_COST)
    assert held[0]["clear"] == 0 < held[0]["white"] == THROUGH_MOST_COST  # at least the floor; capped


@pytest.mark.parametrize("grey_shows, red_shows, named", [
    (0.3, 0.3, "clear"),
    (0.0, 0.3, "white"),
    (0.3, -0.05, "clear"),  # red's measure under the floor: clear is held to show at least that
])
def test_white_or_clear_follows_the_board_showing_through_a_piece(grey_shows, red_shows, named):
    # Grey pieces as light on dark squares as on light ones (white, by the colour samples),
    # whose own pixels show the board behind them as much as the red pieces' do, or not at all.
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    samples, on_dark = _red_and_grey_pieces(0.7, False, np.random.default_rng(5))
    grey = np.arange(len(samples)) % 2 == 1
    show_through = np.column_stack([np.where(grey, grey_shows, red_shows), np.full(len(samples), 0.0004)])
    show_through[::4] = np.nan  # some pieces' sightlines all land on their own square
    groups = group_colours(samples, wb, players=2, on_dark=on_dark, show_through=show_through)
    assert groups.names[groups.labels[1]] == named and groups.names[groups.labels[0]] == "red"


def test_a_piece_by_piece_show_through_moves_a_name_only_so_far():
    # Grey pieces darker on dark squares, as the red ones are (clear, by the colour samples),
    # whose own pixels show nothing of the board behind: one cue against the other, the
    # second capped at THROUGH_MOST_COST nats.
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    samples, on_dark = _red_and_grey_pieces(0.8, True, np.random.default_rng(5))
    grey = np.arange(len(samples)) % 2 == 1
    show_through = np.column_stack([np.where(grey, 0.0, 0.3), np.full(len(samples), 0.0004)])
    groups = group_colours(samples, wb, players=2, on_dark=on_dark, show_through=show_through)
    assert groups.names[groups.labels[1]] == "clear"


def test_colour_groups_for_passes_each_pieces_show_through(monkeypatch):
    import scorer.vision.colours as colours

    squares = _squares({(0, 0): RED, (1, 0): RED, (0, 1): (0.8, 0.8, 0.8), (1, 1): (0.8, 0.8, 0.8)})
    squares.readings[(1, 0)].show_through = (0.25, 0.001)
    squares.readings[(1, 1)].show_through = (0.0, 0.002)
    passed = {}
    monkeypatch.setattr(colours, "group_colours", lambda *args, **kwargs: passed.update(kwargs))
    colours.colour_groups_for(squares, [(0, 0), (1, 0), (0, 1), (1, 1)], players=2)
    assert np.array_equal(passed["show_through"], [[np.nan, np.nan], [0.25, 0.001], [np.nan, np.nan], [0.0, 0.002]],
                          equal_nan=True)


def test_over_cloth_measures_inside_a_pieces_outline_not_the_cloth_at_its_rim():
    from scorer.vision.squares import Evidence, SquareReading, _Mask, _sample_colours

    # Two squares, light (L 90) and dark (L 30); on each a piece drawn 14 px across inside
    # an outline 18 px across, so the outline's 2 px rim is bare cloth. The opaque piece's
    # faces are half lit, half shaded (L 85 and 35, the same on both squares); the glassy
    # one shows the cloth at 0.9 of its lightness.
    def measured(piece):
        cloth = np.zeros((24, 48))
        cloth[:, :24], cloth[:, 24:] = 90.0, 30.0
        lab = np.zeros((24, 48, 3))
        lab[..., 0] = cloth
        for x0 in (5, 29):
            body = lab[5:19, x0:x0 + 14, 0]
            lab[5:19, x0:x0 + 14, 0] = piece(body)
        expected = np.zeros_like(lab)
        expected[..., 0] = cloth
        ev = Evidence(logodds=np.ones((24, 48), np.float32), origin=(0, 0), on_board=np.ones((24, 48), bool),
                      lab=lab, expected=expected)
        outline = _Mask(x0=0, y0=0, mask=np.ones((18, 18), bool))
        readings = {sq: SquareReading(col=sq[0], row=0, probs=np.zeros(5), scores=np.zeros(5)) for sq in ((0, 0), (1, 0))}
        chosen = {(0, 0): ("2", outline, 3, 3), (1, 0): ("2", outline, 27, 3)}
        _sample_colours(readings, chosen, ev, np.ones((24, 48), np.int32))
        (light_piece, light_cloth), (dark_piece, dark_cloth) = readings[(0, 0)].over_cloth, readings[(1, 0)].over_cloth
        return (light_piece - dark_piece) / (light_cloth - dark_cloth)

    def opaque(body):
        faces = np.full(body.shape, 85.0)
        faces[body.shape[0] // 2:] = 35.0
        return faces

    assert abs(measured(opaque)) < 0.05
    assert measured(lambda body: 0.9 * body) == pytest.approx(0.9, abs=0.02)


def test_show_through_measures_a_piece_against_the_cloth_behind_its_pixels():
    from scorer.vision.squares import Evidence, SquareReading, _Mask, _sample_colours

    # A piece seen at a slant over a dark square (L 30): the sightlines of its upper pixels
    # land on the light square behind it (L 90). Its faces are lit unevenly; a glassy piece
    # adds 0.3 of the cloth behind each pixel, an opaque one nothing.
    def measured(shows, board_from_row=0):
        behind = np.where(np.arange(40)[:, None] < 20, 90.0, 30.0) * np.ones((40, 40))
        lab, expected = np.zeros((40, 40, 3)), np.zeros((40, 40, 3))
        lab[..., 0], expected[..., 0] = behind, behind
        ys, xs = np.mgrid[3:37, 8:32]
        lab[3:37, 8:32, 0] = 30.0 + 0.8 * xs - 0.3 * ys + shows * behind[3:37, 8:32]
        on_board = np.zeros((40, 40), bool)
        on_board[board_from_row:] = True
        ev = Evidence(logodds=np.ones((40, 40), np.float32), origin=(0, 0), on_board=on_board,
                      lab=lab, expected=expected)
        readings = {(0, 0): SquareReading(col=0, row=0, probs=np.zeros(5), scores=np.zeros(5))}
        _sample_colours(readings, {(0, 0): ("3", _Mask(x0=0, y0=0, mask=np.ones((34, 24), bool)), 8, 3)}, ev,
                        np.ones((40, 40), np.int32))
        return readings[(0, 0)].show_through

    assert measured(0.3)[0] == pytest.approx(0.3, abs=1e-6)
    assert measured(0.0)[0] == pytest.approx(0.0, abs=1e-6)
    # The board's far edge at row 18: the sightlines landing on the light square's last two
    # rows meet cloth that fades into what lies beyond, and are left out.
    assert measured(0.3, board_from_row=18) is None and measured(0.3, board_from_row=14) is not None


def test_without_a_coloured_group_clear_shows_at_least_the_floor():
    from scorer.vision.colours import SEE_THROUGH_FLOOR, see_through_costs

    centres = np.array([[0.5, 0.2, 40.0, 40.0], [0.3, -0.4, 10.0, 10.0]])  # two greys: no translucent reference
    costs = see_through_costs(centres, np.array([0.5, 0.0]), np.array([0.001, 0.001]))
    assert costs[0]["clear"] == 0 < costs[0]["white"]  # shows the squares by half: clear, however glassy
    assert costs[1]["white"] == 0 < costs[1]["clear"]  # shows nothing: white
    at_floor = see_through_costs(centres, np.array([SEE_THROUGH_FLOOR, 0.3]), np.array([0.001, 0.001]))
    assert at_floor[0]["clear"] == 0 and at_floor[1]["clear"] == 0  # at or past the floor, clear costs nothing
    # With a coloured group, it sets what clear shows: past it costs too.
    coloured = np.vstack([centres, [[30.0, 20.0, 30.0, 30.0]]])  # a red group showing the squares by a quarter
    costs = see_through_costs(coloured, np.array([0.25, 0.0, 0.25]), np.array([0.001] * 3))
    assert costs[0]["clear"] == 0 < costs[0]["white"] and costs[1]["white"] == 0 < costs[1]["clear"]
    costs = see_through_costs(coloured, np.array([0.9, 0.0, 0.25]), np.array([0.001] * 3))
    assert costs[0]["clear"] == 0 and costs[0]["white"] > 0


def test_a_tinted_white_group_is_no_reference_for_how_see_through_clear_is():
    # studio_207005 (glassy pieces in a dim room): the white group, bluish under the room's
    # light, had chroma enough to count among the coloured groups, and the median of its
    # measure and the purple group's put clear halfway to opaque: it was named clear.
    from scorer.vision.colours import see_through_costs

    centres = np.array([[6.6, -14.0, 38.2, 40.9], [33.9, -15.3, 18.2, 22.7], [5.8, 1.3, 10.4, 13.7]])
    measure, variance = np.array([-0.11, 0.23, 0.03]), np.array([0.0068, 0.0005, 0.0009])
    tinted_white = see_through_costs(centres, measure, variance)[0]
    assert tinted_white["white"] == 0 and tinted_white["clear"] > 0.8  # 0.18 with itself in the median
    # (A sanity check: the others' median, here purple's alone, is the reference.)
    glassy = see_through_costs(centres, np.array([0.23, 0.23, 0.03]), variance)[0]
    assert glassy["clear"] == 0 < glassy["white"]


def test_clear_is_held_to_what_coloured_groups_show_not_to_a_white_group_tinted_by_the_light():
    # A glassy render with a white and a clear player and nothing else, in a dim room on a
    # buff and brown vinyl board (studio_520007): the white group, bluish under the room's
    # light (chroma 25), opaque by its measure, counted as a coloured group and set what clear
    # should show; the clear group, showing the squares by half, was then named white.
    from scorer.vision.colours import see_through_costs

    centres = np.array([[8.0, -23.5, 41.5, 46.9], [3.7, -8.2, 42.5, 41.8]])
    measure, variance = np.array([-0.25, 0.52]), np.array([0.029, 0.0035])
    costs = see_through_costs(centres, measure, variance)
    assert costs[1]["clear"] == 0 < costs[1]["white"] and costs[0]["white"] == 0 < costs[0]["clear"]
    red = np.vstack([centres, [[45.0, 30.0, 25.0, 30.0]]])
    # Beside a red group showing the squares a little, the red group alone is the reference
    # (with the tinted white one in the median, clear would be held to nearly nothing)...
    costs = see_through_costs(red, np.append(measure, 0.15), np.append(variance, 0.001))
    assert costs[1]["clear"] == 0 < costs[1]["white"]
    # ...and a red group showing nothing (opaque coloured plastic) still is one: white nearer.
    costs = see_through_costs(red, np.append(measure, -0.1), np.append(variance, 0.001))
    assert costs[1]["white"] == 0 < costs[1]["clear"]
    # A centre that is not a number (no pieces) is no reference.
    from scorer.vision.colours import _likeliest_a_hue
    assert _likeliest_a_hue(red[2]) and not _likeliest_a_hue(np.full(4, np.nan))


def test_a_white_player_beside_a_black_one_is_named_white_when_the_squares_do_not_show_through(monkeypatch):
    # seeds 15 and 741 of scripts/drawn_eval.py --see-through: a black and white game, no
    # coloured group to say how see-through clear would be; the learned model leaning clear.
    import scorer.vision.colours as colours

    rng = np.random.default_rng(1)
    wb = white_balance(_lab([0.8] * 3), _lab([0.25] * 3))
    black = [_lab([0.06 * rng.uniform(0.9, 1.1)] * 3) for _ in range(14)]
    white = [_lab([0.55 * rng.uniform(0.97, 1.03)] * 3) for _ in range(14)]  # shaded: as light on both squares
    samples, on_dark = np.array(black + white), np.array([i % 2 == 1 for i in range(28)])
    lean = np.full((28, len(COLOURS)), 0.02)
    lean[:14, COLOURS.index("black")] = 0.8
    lean[14:, COLOURS.index("clear")] = 0.5
    lean[14:, COLOURS.index("white")] = 0.3
    assert sorted(group_colours(samples, wb, players=2, on_dark=on_dark, name_probs=lean).names) == ["black", "white"]
    monkeypatch.setattr(colours, "SEE_THROUGH_FLOOR", 0.0)  # clear may show nothing: the measure near 0 hardly counts
    assert sorted(group_colours(samples, wb, players=2, on_dark=on_dark, name_probs=lean).names) == ["black", "clear"]


def test_a_grey_group_seen_only_on_dark_squares_is_clear_not_black(monkeypatch):
    # Glassy clear pieces (seed 239 of scripts/drawn_eval.py --see-through): on a dark square
    # one looks black, on a light one it gives no colour sample at all. A black player's nine
    # pieces all on dark squares by chance would be odds of 1 in 512.
    import scorer.vision.colours as colours

    rng = np.random.default_rng(0)
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    red = [_lab(np.array(RED) * (0.55 if i % 2 else 1.0) * rng.uniform(0.95, 1.05)) for i in range(12)]
    grey = [_lab([0.22 * rng.uniform(0.95, 1.05)] * 3) for _ in range(9)]
    samples, on_dark = np.array(red + grey), np.array([i % 2 == 1 for i in range(12)] + [True] * 9)
    assert group_colours(samples, wb, players=2, on_dark=on_dark).names == ["red", "clear"]
    monkeypatch.setattr(colours, "dark_only_costs", lambda labels, k, on_dark, wb, centres=None: [{} for _ in range(k)])
    assert group_colours(samples, wb, players=2, on_dark=on_dark).names == ["red", "black"]


def test_a_glassy_clear_group_with_a_warm_tint_seen_only_on_dark_squares_is_named_clear(monkeypatch):
    # A glassy clear player under a warm lamp on a black-and-white board (a render of the
    # studio, seed 500021): on the dark squares its pieces look dark with a faint warm tint,
    # on the light squares they give no colour sample; the tint's hue is orange's, its chroma
    # less than any coloured piece shows. Costing only black, that group was named orange.
    import scorer.vision.colours as colours

    rng = np.random.default_rng(0)
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    red = [_lab(np.array(RED) * (0.55 if i % 2 else 1.0) * rng.uniform(0.95, 1.05)) for i in range(12)]
    glassy = [_lab(np.array([0.18, 0.21, 0.25]) * rng.uniform(0.95, 1.05)) for _ in range(9)]
    samples, on_dark = np.array(red + glassy), np.array([i % 2 == 1 for i in range(12)] + [True] * 9)
    assert group_colours(samples, wb, players=2, on_dark=on_dark).names == ["red", "clear"]
    only_black = colours.dark_only_costs
    monkeypatch.setattr(colours, "dark_only_costs",
                        lambda labels, k, on_dark, wb, centres=None: only_black(labels, k, on_dark, wb))
    assert group_colours(samples, wb, players=2, on_dark=on_dark).names == ["red", "orange"]


def test_only_a_group_never_seen_on_a_light_square_costs_black():
    from scorer.vision.colours import PARITY_MIN, dark_only_costs, summed_costs

    labels = np.array([0] * PARITY_MIN + [1] * PARITY_MIN + [1] + [2] * (PARITY_MIN - 1))
    on_dark = np.array([True] * PARITY_MIN + [True] * PARITY_MIN + [False] + [True] * (PARITY_MIN - 1))
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    costs = dark_only_costs(labels, 3, on_dark, wb)
    assert costs[0] == {"black": pytest.approx(PARITY_MIN * np.log(2))} and costs[1] == {} and costs[2] == {}
    assert dark_only_costs(labels, 3, None, wb) == [{}, {}, {}]
    # squares hardly differing, clear looks alike on both: nothing to tell
    assert dark_only_costs(labels, 3, on_dark, white_balance(_lab([0.85] * 3), _lab([0.8] * 3))) == [{}, {}, {}]
    assert summed_costs(costs, [{"black": 1.0, "clear": 2.0}, {}, {}])[0] == {
        "black": pytest.approx(PARITY_MIN * np.log(2) + 1.0), "clear": 2.0}


def test_a_group_never_seen_on_a_light_square_and_hardly_tinted_costs_every_coloured_name():
    from scorer.vision.colours import HUES, MIN_CHROMA, PARITY_MIN, dark_only_costs

    labels = np.array([0] * PARITY_MIN + [1] * PARITY_MIN + [2] * PARITY_MIN + [2])
    on_dark = np.array([True] * (3 * PARITY_MIN) + [False])
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    # naming centres (a, b, lightness, lit lightness): faintly warm, plainly orange, and a
    # faint group also seen on a light square
    faint = 0.9 * MIN_CHROMA / np.sqrt(2)
    centres = np.array([[faint, faint, 10.0, 25.0], [0.8 * MIN_CHROMA, 0.8 * MIN_CHROMA, 10.0, 25.0],
                        [faint, faint, 10.0, 25.0]])
    costs = dark_only_costs(labels, 3, on_dark, wb, centres)
    cost = pytest.approx(PARITY_MIN * np.log(2))
    assert costs[0] == {name: cost for name in ("black", *HUES)}
    assert "white" not in costs[0] and "clear" not in costs[0]
    assert costs[1] == {"black": cost}  # tinted as a coloured piece is: that piece might be orange
    assert costs[2] == {}


def test_a_board_with_one_pyramid_names_its_colour():
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    groups = group_colours(np.array([_lab(RED)]), wb)
    assert groups.names == ["red"] and groups.labels.tolist() == [0]


def test_pieces_all_alike_leave_a_group_empty_without_a_nan_centre():
    # A colourless photo (or a marked blank board) can give every pyramid one sample: the
    # capacity-limited groups then leave one empty, whose centre once came out NaN and made
    # the decoder fail ("matrix contains invalid numeric entries").
    features = np.tile([0.3, -0.3, -0.9], (8, 1))
    labels, centres = balanced_groups(features, np.array([0, 1, 2, 1, 2, 2, 2, 1]), 3, capacity=4)
    assert np.isfinite(centres).all() and centres.shape == (3, 3)
    assert sorted(np.bincount(labels, minlength=3).tolist()) == [0, 4, 4]
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    groups = group_colours(np.tile(_lab([0.5] * 3), (8, 1)), wb, players=3)
    assert np.isfinite(groups.centres).all() and np.isfinite(groups.probs).all()


def test_black_and_white_players_stay_two_groups_when_more_white_pieces_stand_on_dark_squares():
    # Opaque pieces look alike on either square, but the squares' medians differ by a player:
    # on the light squares most pieces are black, on the dark ones most are white.
    wb = white_balance(_lab([0.85] * 3), _lab([0.2] * 3))
    rng = np.random.default_rng(5)
    white_on = [True] * 9 + [False] * 6
    black_on = [False] * 9 + [True] * 6
    samples = [_lab([0.9 * rng.uniform(0.97, 1.03)] * 3) for _ in white_on] + \
              [_lab([0.05 * rng.uniform(0.9, 1.1)] * 3) for _ in black_on]
    on_dark = np.array(white_on + black_on)
    groups = group_colours(np.array(samples), wb, on_dark=on_dark)
    assert len(groups.names) == 2
    whites, blacks = set(groups.labels[:15]), set(groups.labels[15:])
    assert len(whites) == len(blacks) == 1 and whites != blacks


def test_pieces_a_reflection_washes_out_neither_set_the_groups_colours_nor_their_names():
    # Red and blue players; four of their pieces under a lamp's reflection look almost white.
    # Trusted, those four pull the groups' colours towards white; left out, the groups are the
    # red and blue pieces' own, and the washed pieces join the group nearest them, their
    # colours no sign that they are not pyramids at all.
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    red = [_lab((0.08, 0.1, 0.75 + 0.02 * i)) for i in range(6)]
    blue = [_lab((0.7 + 0.02 * i, 0.12, 0.06)) for i in range(6)]
    washed = [_lab((0.8, 0.82, 0.9)), _lab((0.83, 0.84, 0.92)), _lab((0.85, 0.8, 0.88)), _lab((0.82, 0.83, 0.86))]
    samples = np.array(red + blue + washed, np.float64)
    trusted = np.array([True] * 12 + [False] * 4)
    groups = group_colours(samples, wb, players=2, trusted=trusted)
    assert sorted(groups.names) == ["blue", "red"]
    assert len(set(groups.labels[:6])) == 1 and len(set(groups.labels[6:12])) == 1
    assert groups.labels[0] != groups.labels[6]
    assert groups.probs.shape == (16, 2) and groups.labels.shape == (16,)
    assert np.all(groups.fit[12:] == 1.0)  # a washed colour fitting no group makes no piece a park
    alone = group_colours(samples[:12], wb, players=2)
    assert np.allclose(sorted(groups.centres.tolist()), sorted(alone.centres.tolist()))
    trusting = group_colours(samples, wb, players=2)
    assert not np.allclose(sorted(trusting.centres.tolist()), sorted(alone.centres.tolist()), atol=1.0)


def _red_and_blue(red_washed, blue_washed, per_player=15):
    """Samples of a red and a blue player, ``per_player`` pieces each, the first
    ``red_washed`` and ``blue_washed`` of each under a reflection (near white), and which
    samples are trusted."""
    red = [_lab((0.08, 0.1, 0.75 + 0.01 * (i % 10))) for i in range(per_player)]
    blue = [_lab((0.7 + 0.01 * (i % 10), 0.12, 0.06)) for i in range(per_player)]
    white = _lab((0.85, 0.86, 0.92))
    red[:red_washed] = [white] * red_washed
    blue[:blue_washed] = [white] * blue_washed
    trusted = [i >= red_washed for i in range(per_player)] + [i >= blue_washed for i in range(per_player)]
    return np.array(red + blue), np.array(trusted)


@pytest.mark.parametrize("players, per_player", [(2, 15), (None, 15), (None, None)])
def test_a_reflection_over_one_players_pieces_keeps_the_others_together(players, per_player):
    # 1 red and 6 blue pieces washed out: 14 red and 9 blue trusted. The groups' capacity
    # comes from all 30 pieces (a finished board's 15 each), so no red piece is pushed into
    # the blue group; with the player count free, the washed pieces make no group of their own.
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    samples, trusted = _red_and_blue(1, 6)
    groups = group_colours(samples, wb, players=players, per_player=per_player, trusted=trusted)
    assert sorted(groups.names) == ["blue", "red"]
    red_group, blue_group = groups.labels[1], groups.labels[15 + 6]
    assert np.all(groups.labels[1:15] == red_group) and np.all(groups.labels[21:] == blue_group)
    assert red_group != blue_group


def test_a_player_whose_pieces_are_all_in_a_reflection_keeps_its_group():
    # Three players: 6 red and 6 blue pieces trusted, the green player's only 2 washed out.
    # Fitting three groups to the trusted alone would split red or blue; the groups are then
    # fitted to every piece, and the washed pair keeps a group of its own.
    wb = white_balance(_lab([0.85] * 3), _lab([0.3] * 3))
    samples, trusted = _red_and_blue(0, 0, per_player=6)
    white = _lab((0.85, 0.86, 0.92))
    samples = np.vstack([samples, [white, white]])
    trusted = np.concatenate([trusted, [False, False]])
    groups = group_colours(samples, wb, players=3, trusted=trusted)
    assert len(set(groups.labels[:6])) == 1 and len(set(groups.labels[6:12])) == 1
    assert len({groups.labels[0], groups.labels[6], groups.labels[12]}) == 3 and groups.labels[12] == groups.labels[13]


# --- the players' colours told ---------------------------------------------------------------

def test_colours_told_name_each_group_among_them_alone():
    from scorer.vision.colours import within_names

    # The grey group the photo alone calls white at the lone cap is certainly clear when the
    # players say they are clear and red; the odds stay among the colours told.
    centres = np.array([[0.0, 0.0, 0.6 * 95.0, 0.6 * 95.0], [45.0, 30.0, 0.6 * 42.0, 0.6 * 42.0]])
    names, odds = naming_odds(centres)
    assert names == ["white", "red"] and odds[0]["white"] < 0.95
    names, odds = naming_odds(centres, told=["red", "clear"])
    assert names == ["clear", "red"]
    assert set(odds[0]) <= {"red", "clear"} and odds[0]["clear"] == pytest.approx(1.0)
    assert all(sum(group.values()) == pytest.approx(1.0) for group in odds)
    # Blue and purple told, both groups bluish: the close call stays close, between them.
    names, odds = naming_odds(np.array([_centre(300, 50, 36), _centre(306, 50, 35)]), told=["purple", "blue"])
    assert sorted(names) == ["blue", "purple"] and set(odds[0]) <= {"blue", "purple"} and 0.2 < odds[0]["blue"] < 0.8
    # More groups than colours told: no naming among them.
    assert naming_odds(centres, told=["red"]) == ([], [])
    assert within_names({"white": 0.6, "clear": 0.4}, ["clear", "red"]) == {"clear": 1.0}
    assert within_names({"white": 1.0}, ["clear", "red"]) == {"clear": 0.5, "red": 0.5}


def test_colour_groups_for_keeps_the_odds_the_photo_alone_gives_when_colours_are_told():
    pieces = {(c, r): (RED if c < 4 else YELLOW) for c in range(8) for r in range(3)}
    groups = colour_groups_for(_squares(pieces), sorted(pieces), players=2, told=["red", "yellow"])
    assert sorted(groups.names) == ["red", "yellow"] and groups.untold_odds is not None
    assert [max(o, key=o.get) for o in groups.untold_odds] == groups.names
    told_wrong = colour_groups_for(_squares(pieces), sorted(pieces), players=2, told=["blue", "green"])
    assert sorted(told_wrong.names) == ["blue", "green"]  # named among the colours told, whatever they look
    assert sorted(max(o, key=o.get) for o in told_wrong.untold_odds) == ["red", "yellow"]
    assert colour_groups_for(_squares(pieces), sorted(pieces), players=2).untold_odds is None
