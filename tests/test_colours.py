"""Naming colour groups: the lightness differences between a photo's groups."""

import cv2
import numpy as np

from scorer.vision.colours import LIGHTNESS_WEIGHT, group_colours, naming_odds, white_balance


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
