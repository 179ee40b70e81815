"""scripts/photo_variants.py: photometric variants of labelled photos for robustness numbers."""

import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "photo_variants.py"
spec = importlib.util.spec_from_file_location("photo_variants", SCRIPT)
photo_variants = importlib.util.module_from_spec(spec)
spec.loader.exec_module(photo_variants)


def _photo():
    rng = np.random.default_rng(0)
    image = np.full((90, 120, 3), (60, 120, 200), np.uint8)
    image[30:60, 40:80] = rng.integers(0, 255, (30, 40, 3), dtype=np.uint8)
    return image


@pytest.mark.parametrize("name", sorted(photo_variants.VARIANTS))
def test_each_variant_keeps_the_geometry_and_changes_the_pixels(name):
    image = _photo()
    out = photo_variants.VARIANTS[name](image)
    assert out.shape == image.shape and out.dtype == np.uint8
    assert np.abs(out.astype(int) - image).mean() > 1.0


def test_variants_darken_brighten_and_desaturate_as_named():
    image = _photo()
    assert photo_variants.gamma(image, 1.5).mean() < image.mean() < photo_variants.gamma(image, 0.65).mean()
    assert _chroma(photo_variants.saturation(image, 0.55)) < 0.6 * _chroma(image)


def _chroma(image):
    return cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[..., 1].mean()


def test_main_writes_each_variant_with_its_sidecar(tmp_path):
    source = tmp_path / "photos"
    source.mkdir()
    cv2.imwrite(str(source / "board.png"), _photo())
    (source / "board.json").write_text(json.dumps({"board": "x"}))
    assert photo_variants.main([str(source), str(tmp_path / "out"), "--variants", "dark", "noisy"]) == 0
    for name in ("dark", "noisy"):
        assert cv2.imread(str(tmp_path / "out" / name / "board.jpg")).shape == (90, 120, 3)
        assert json.loads((tmp_path / "out" / name / "board.json").read_text()) == {"board": "x"}


def test_uneven_light_is_brighter_and_warmer_in_its_pool():
    image = np.full((90, 120, 3), 128, np.uint8)
    out = photo_variants.uneven_light(image).astype(float)  # the pool centred at (36, 22)
    near, far = out[22, 36], out[88, 118]
    assert near.mean() > far.mean() + 30
    assert near[2] - near[0] > far[2] - far[0] + 10  # red over blue: a warm lamp


def test_shrunk_variants_scale_the_sidecars_pixel_positions(tmp_path):
    source = tmp_path / "photos"
    source.mkdir()
    cv2.imwrite(str(source / "board.png"), _photo())
    truth = {"board": "x", "checkerboard": {"rows": 8, "cols": 8, "corners": [[30, 60], [90, 60], [90, 0], [30, 0]]},
             "square_centres": {"A1": [33.0, 57.0]}, "pieces": [{"square": "A1", "base_px": [33, 57], "tip_px": [33, 45]}],
             "parks": [{"square": "B1", "px": [41, 57]}], "image_size": [120, 90]}
    (source / "board.json").write_text(json.dumps(truth))
    assert photo_variants.main([str(source), str(tmp_path / "out"), "--variants", "half_size"]) == 0
    assert cv2.imread(str(tmp_path / "out" / "half_size" / "board.jpg")).shape == (45, 60, 3)
    half = json.loads((tmp_path / "out" / "half_size" / "board.json").read_text())
    # Pixel centres sit on whole numbers: x' = x / 2 - 1/4.
    assert half["checkerboard"]["corners"][0] == [14.75, 29.75] and half["square_centres"]["A1"] == [16.25, 28.25]
    assert half["pieces"][0]["base_px"] == [16.25, 28.25] and half["pieces"][0]["tip_px"] == [16.25, 22.25]
    assert half["parks"][0]["px"] == [20.25, 28.25]
    assert half["image_size"] == [60, 45] and half["board"] == "x"
    assert json.loads((source / "board.json").read_text()) == truth  # the source's sidecar is untouched


@pytest.mark.parametrize("k1", [-0.05, -0.15])
def test_barrel_distortion_moves_the_sidecars_points_where_the_photos_pixels_go(k1):
    spots = np.array([[40.0, 30.0], [360.0, 260.0], [200.0, 150.0], [380.0, 40.0]])
    out, move = photo_variants.barrel_distorted(_spotted(spots), k1)
    assert out.shape == (300, 400, 3)
    moved = _spots_land_where_moved(out, spots, move)
    # barrel: the corners move in towards the centre, the centre stays
    centre = np.array([199.5, 149.5])
    assert np.linalg.norm(moved[0] - centre) < np.linalg.norm(spots[0] - centre) - 3
    assert np.abs(moved[2] - spots[2]).max() < 0.1
    truth = {"checkerboard": {"corners": spots.tolist()}, "square_centres": {"A1": [40.0, 30.0]}}
    sidecar = photo_variants.moved_sidecar(truth, move, (400, 300))
    assert np.allclose(sidecar["checkerboard"]["corners"], moved) and np.allclose(sidecar["square_centres"]["A1"], moved[0])


def _spotted(spots, shape=(300, 400, 3)):
    image = np.zeros(shape, np.uint8)
    for x, y in spots:
        cv2.circle(image, (int(x), int(y)), 4, (255, 255, 255), -1)
    return image


def _spots_land_where_moved(out, spots, mapping):
    """The spots' new positions under a variant's map, each checked against where its pixels went."""
    moved = photo_variants.point_mover(mapping)(spots)
    for (x, y), (mx, my) in zip(spots, moved):
        window = out[int(my) - 12:int(my) + 13, int(mx) - 12:int(mx) + 13, 0].astype(float)
        ys, xs = np.nonzero(window > 60)
        assert len(xs), (x, y)
        seen = np.array([xs.mean() + int(mx) - 12, ys.mean() + int(my) - 12])
        assert np.abs(seen - (mx, my)).max() < 1.0
    return moved


def test_a_keystoned_photo_narrows_its_top_edge_and_moves_the_sidecars_points_with_it():
    spots = np.array([[120.0, 40.0], [360.0, 260.0], [200.0, 150.0], [290.0, 60.0]])  # clear of the grey corners
    out, move = photo_variants.keystoned(_spotted(spots), 0.4)
    assert out.shape == (300, 400, 3)
    moved = _spots_land_where_moved(out, spots, move)
    bottom, top = move(np.array([[0.0, 299.0], [399.0, 299.0]])), move(np.array([[0.0, 0.0], [399.0, 0.0]]))
    assert np.allclose(bottom, [[0, 299], [399, 299]], atol=1e-6)  # the bottom edge stays
    assert np.isclose(top[1, 0] - top[0, 0], 399 - 0.4 * 400)  # the top edge two fifths of the width shorter
    assert moved[1][1] > moved[0][1] and abs(moved[2][0] - 199.5) < 1.0  # order kept, the middle column stays put
    assert tuple(out[0, 0]) == (96, 96, 96)  # the uncovered top corners are plain grey


def test_a_photo_cropped_off_centre_keeps_the_board_with_its_margin_and_the_far_edges():
    spots = np.array([[120.0, 90.0], [300.0, 90.0], [300.0, 240.0], [120.0, 240.0]])  # the board's corners
    out, affine = photo_variants.cropped_off_centre(_spotted(spots), spots, margin=0.1)
    assert out.shape == (300 - 75, 400 - 102, 3)  # cut 0.1 of the board's 180 x 150 px before its left and top
    moved = _spots_land_where_moved(out, spots, affine)
    assert np.allclose(moved[0], [18.0, 15.0])
    near_edge = spots - [110.0, 80.0]  # the margin would reach past the photo's top and left
    out, affine = photo_variants.cropped_off_centre(_spotted(near_edge), near_edge, margin=0.1)
    assert out.shape == (300, 400, 3) and np.allclose(affine, [[1, 0, 0], [0, 1, 0]])


def test_a_turned_photo_holds_all_of_the_old_one_and_moves_the_sidecars_points_with_it():
    spots = np.array([[40.0, 30.0], [360.0, 260.0], [200.0, 150.0], [380.0, 40.0]])
    out, affine = photo_variants.turned(_spotted(spots), 30.0)
    assert out.shape[:2] == (round(300 * np.cos(np.pi / 6) + 400 * 0.5), round(300 * 0.5 + 400 * np.cos(np.pi / 6)))
    moved = _spots_land_where_moved(out, spots, affine)
    assert np.allclose(np.linalg.norm(moved[0] - moved[1]), np.linalg.norm(spots[0] - spots[1]))  # turned, not scaled
    assert tuple(out[0, 0]) == (96, 96, 96)  # the grown canvas's corners are plain grey


def test_a_cast_shadow_takes_light_away_in_linear_light_and_is_a_little_bluer():
    image = np.full((100, 200, 3), 200, np.uint8)
    out = photo_variants.cast_shadow(image, centre=(0.5, 0.5), axes=(0.2, 0.3), light_left=0.3).astype(float)
    inside, outside = out[50, 100], out[5, 5]
    assert outside.tolist() == [200, 200, 200]
    assert 255 * ((200 / 255) ** 2.2 * 0.3) ** (1 / 2.2) - 3 < inside[1] < 255 * ((200 / 255) ** 2.2 * 0.3) ** (1 / 2.2) + 3
    assert inside[0] > inside[1] > inside[2]  # blue over red: the ambient light, not the lamp


def test_a_hue_turn_moves_colours_round_the_wheel_and_leaves_greys():
    image = np.zeros((10, 20, 3), np.uint8)
    image[:, :10] = (0, 0, 200)  # red
    image[:, 10:] = 128
    out = photo_variants.hue_turned(image, 60.0)
    assert out[5, 5].tolist() == [0, 200, 200]  # red turned 60 degrees: yellow
    assert out[5, 15].tolist() == [128, 128, 128]


def test_haze_lifts_black_to_its_veil_and_keeps_white_near_white():
    image = np.zeros((10, 20, 3), np.uint8)
    image[:, 10:] = 255
    out = photo_variants.hazy(image, veil=0.15).astype(float)
    assert out[5, 5].tolist() == [np.floor(255 * (0.15 * 0.8) ** (1 / 2.2))] * 3
    assert 250 <= out[5, 15].min() < 255


def test_glare_washes_out_its_spot_only():
    image = np.full((100, 200, 3), 40, np.uint8)
    out = photo_variants.glare(image, spot=(0.5, 0.5)).astype(float)
    assert out[50, 100].min() > 180 and np.abs(out[5, 5] - 40).max() <= 1


def test_a_shake_smears_along_its_direction_only():
    image = np.zeros((100, 1600, 3), np.uint8)  # 15 px of shake at this size
    image[:, 800:] = 255  # an upright edge: smeared by a sideways shake, not by an upright one
    assert photo_variants.shaken(image, 15, 90.0)[50].tolist() == image[50].tolist()
    across = photo_variants.shaken(image, 15)[50, :, 0]
    assert across[792] == 0 and 0 < across[795] < across[800] < across[806] < 255 and across[807] == 255


def test_labelled_photos_get_variants_with_their_labels_moved(tmp_path):
    # The real chessboards are labelled by a labels.json, not sidecars: each variant folder gets
    # its own, with the corners moved as the photo was (halved here) and its new size.
    source = tmp_path / "real"
    source.mkdir()
    cv2.imwrite(str(source / "board.png"), _photo())
    corners = [[30.0, 10.0], [90.0, 10.0], [90.0, 70.0], [30.0, 70.0]]
    (source / "labels.json").write_text(json.dumps([{"file": "board.png", "corners_px": corners, "squares": [8, 8],
                                                      "width": 120, "height": 90}]))
    out = tmp_path / "out"
    assert photo_variants.main([str(source), str(out), "--variants", "half_size", "dark", "tight_frame",
                                "cut_through_row_one"]) == 0
    half = json.loads((out / "half_size" / "labels.json").read_text())
    assert half[0]["file"] == "board.jpg" and half[0]["squares"] == [8, 8]
    assert (half[0]["width"], half[0]["height"]) == (60, 45)
    assert cv2.imread(str(out / "half_size" / "board.jpg")).shape == (45, 60, 3)
    assert np.allclose(half[0]["corners_px"], np.array(corners) / 2 - 0.25)
    assert json.loads((out / "dark" / "labels.json").read_text())[0]["corners_px"] == corners
    assert not (out / "tight_frame").exists()  # it needs a studio sidecar's play area
    assert not (out / "cut_through_row_one").exists()


def test_underexposed_is_stops_darker_in_linear_light():
    image = np.full((90, 120, 3), 200, np.uint8)
    for stops in (3.0, 5.0):
        out = photo_variants.underexposed(image, stops=stops, sigma=0.0)
        expected = 255 * ((200 / 255) ** 2.2 * 2 ** -stops) ** (1 / 2.2)  # 78 and 42
        assert np.abs(out.astype(float) - expected).max() <= 0.5
    noisy = photo_variants.underexposed(image).astype(float)
    assert 1.0 < noisy.std() < 3.0  # the sensor's 2 grey levels stay as they are, not darkened


def test_an_arm_over_the_board_comes_in_from_the_nearest_photo_edge_and_hides_part_of_it():
    image = np.full((300, 400, 3), 200, np.uint8)
    corners = [[100.0, 20.0], [300.0, 20.0], [300.0, 220.0], [100.0, 220.0]]  # top edge nearest the border
    out = photo_variants.arm_over_board(image, corners).astype(int)
    changed = np.abs(out - image).max(axis=2) > 40
    assert changed[0].any() and changed[40:80, 100:300].any()  # from beyond the top edge onto the board
    assert not changed[200:, :].any() and not changed[:, :60].any()  # the far side and beyond it untouched
    assert changed[20:220, 100:300].mean() < 0.35  # only part of the board hidden
    # From the bottom edge, its shadow falls down and right, not round onto the top of the photo.
    from_below = photo_variants.arm_over_board(image, [[100.0, 80.0], [300.0, 80.0], [300.0, 280.0], [100.0, 280.0]])
    assert np.abs(from_below[:40].astype(int) - image[:40]).max() <= 2
    truth = {"board": "x", "checkerboard": {"corners": corners}}
    covered, mapping = photo_variants.variant_of("arm_over_board", image, truth)
    assert mapping is None and np.array_equal(covered, out)


def test_a_checked_tablecloth_covers_the_table_and_leaves_the_board():
    image = np.full((300, 400, 3), 128, np.uint8)
    corners = [[150.0, 100.0], [250.0, 100.0], [250.0, 200.0], [150.0, 200.0]]
    out = photo_variants.checked_table(image, corners)
    assert np.array_equal(out[95:205, 145:255], image[95:205, 145:255])  # the board and its border
    table = out[:60].astype(int)
    assert np.ptp(table.mean(axis=2)) > 80  # light and dark checks
    assert (np.abs(table - 128).max(axis=2) > 40).mean() > 0.9  # all over the table
    covered, mapping = photo_variants.variant_of("checked_table", image, {"checkerboard": {"corners": corners}})
    assert mapping is None and np.array_equal(covered, out)


def test_a_photo_cut_through_row_one_loses_what_lies_below_it():
    image = np.arange(100 * 80 * 3, dtype=np.uint32).reshape(100, 80, 3).astype(np.uint8)
    truth = {"square_centres": {"A1": [20.0, 60.0], "B1": [40.0, 64.0], "A2": [20.0, 40.0], "B2": [40.0, 44.0]}}
    out, mapping = photo_variants.cut_through_row_one(image, truth)
    assert out.shape == (62, 80, 3) and np.array_equal(out, image[:62])
    assert np.array_equal(mapping, [[1, 0, 0], [0, 1, 0]])
