"""Naming colour groups: the lightness differences between a photo's groups."""

import numpy as np

from scorer.vision.colours import LIGHTNESS_WEIGHT, naming_odds


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


def test_close_namings_share_the_odds():
    # Two bluish groups barely differing in lightness: blue/purple either way round, and
    # the odds say it is a close call.
    names, odds = naming_odds(np.array([_centre(300, 50, 36), _centre(306, 50, 35)]))
    assert sorted(names) == ["blue", "purple"]
    assert 0.2 < odds[0]["blue"] < 0.8
