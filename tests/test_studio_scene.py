"""The studio's scene planning and ground truth, without rendering (fast, no renderer needed)."""

from __future__ import annotations

import colorsys
import json
import math

import numpy as np
import pytest

from scorer.board import Board, Piece
from scorer.cli import main
from scorer.rules import check_position
from scorer.studio.geometry import aim_camera, order_corners
from scorer.studio.post import develop, encode_jpeg, linear_to_srgb
from scorer.studio.scene import ASKED_BOARD_KINDS, BOARD_KINDS, FROST_RANGE, PYRAMID_SIZES, Light, blocks_view, plan_scene
from scorer.studio.truth import sidecar

SEEDS = range(24)


@pytest.fixture(scope="module")
def plans():
    return [plan_scene(seed) for seed in SEEDS]


def test_same_seed_same_photo_plan():
    assert json.dumps(sidecar(plan_scene(5))) == json.dumps(sidecar(plan_scene(5)))
    assert sidecar(plan_scene(5))["camera"] != sidecar(plan_scene(6))["camera"]


def test_positions_come_from_legal_play(plans):
    for plan in plans:
        report = check_position(plan.board, players=plan.players, threehouse=plan.threehouse)
        assert report.violations == [], (plan.seed, report.violations)
        assert set(plan.board.colours()) <= set(plan.colours)


def test_sidecar_board_is_the_position_turned(plans):
    for plan in plans:
        truth = sidecar(plan)
        board = Board.from_text(truth["board"])
        for _ in range((4 - truth["quarter_turns"]) % 4):
            board = board.rotated()
        assert board == plan.board
        area = truth["play_area"]
        assert (area["rows"], area["cols"]) == (plan.board.rows, plan.board.cols)
        cb = truth["checkerboard"]
        assert 0 <= area["col"] <= cb["cols"] - area["cols"] and 0 <= area["row"] <= cb["rows"] - area["rows"]
        assert len(truth["square_centres"]) == area["rows"] * area["cols"]


def test_row_one_is_the_play_area_edge_nearest_the_image_bottom(plans):
    for plan in plans:
        truth = sidecar(plan)
        c = {name: np.array(xy) for name, xy in truth["square_centres"].items()}
        n, m = truth["play_area"]["rows"], truth["play_area"]["cols"]
        files = "ABCDEFGH"[:m]
        edges = {
            "bottom": np.mean([c[f"{f}1"] for f in files], axis=0),
            "top": np.mean([c[f"{f}{n}"] for f in files], axis=0),
            "left": np.mean([c[f"A{r}"] for r in range(1, n + 1)], axis=0),
            "right": np.mean([c[f"{files[-1]}{r}"] for r in range(1, n + 1)], axis=0),
        }
        lowest = max(edges, key=lambda e: edges[e][1])
        # (square centres are half a square inside the edges: near a 45-degree turn, allow a tie)
        tie = 0.01 * truth["image_size"][1]
        assert lowest == "bottom" or abs(edges[lowest][1] - edges["bottom"][1]) < tie, (plan.seed, edges)
        assert truth["orientation_margin_px"] >= 0
        assert edges["right"][0] > edges["left"][0] or edges["bottom"][1] > edges["top"][1]


def test_corners_clockwise_from_top_left_and_in_frame(plans):
    for plan in plans:
        truth = sidecar(plan)
        corners = np.array(truth["checkerboard"]["corners"])
        w, h = truth["image_size"]
        assert (corners >= 0).all() and (corners[:, 0] < w).all() and (corners[:, 1] < h).all()
        assert np.argmin(np.hypot(corners[:, 0], corners[:, 1])) == 0
        edges = np.roll(corners, -1, axis=0) - corners
        cross = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
        assert (cross > 0).all()  # clockwise on screen (y down)


def test_pieces_and_tokens_stay_inside_their_squares(plans):
    for plan in plans:
        spec = plan.checkerboard
        for piece in plan.pieces:
            sq = plan.board[piece.square]
            assert sq == Piece(piece.colour, piece.pips)
            col = (piece.x / spec.square) + spec.cols / 2 - plan.play_area[0]
            row = (piece.y / spec.square) + spec.rows / 2 - plan.play_area[1]
            turn = np.radians(piece.yaw)
            half = PYRAMID_SIZES[piece.pips][0] / 2 * (abs(np.cos(turn)) + abs(np.sin(turn))) / spec.square
            name = piece.square
            c0, r0 = ord(name[0]) - ord("A"), int(name[1:]) - 1
            assert c0 - 0.02 <= col - half and col + half <= c0 + 1.02, (plan.seed, piece)
            assert r0 - 0.02 <= row - half and row + half <= r0 + 1.02, (plan.seed, piece)
        assert sorted(t.params["square"] for t in plan.tokens) == sorted(s.name for s in plan.board.parks())


def test_clutter_is_off_the_board(plans):
    for plan in plans:
        spec = plan.checkerboard
        for item in plan.clutter:
            outside_x = abs(item.x) > spec.half_width + 0.01
            outside_y = abs(item.y) > spec.half_height + 0.01
            assert outside_x or outside_y, (plan.seed, item.kind, item.x, item.y)


def test_blocks_view_follows_the_lights_own_shapes():
    eye, board = (0.0, -1.0, 1.0), [(0.0, 0.0, 0.0), (0.1, 0.1, 0.0)]
    window = Light("area", (0.0, -0.5, 0.5), 6500, 10.0, size=0.4)  # facing the board, between it and the eye
    assert blocks_view(window, eye, board)
    assert not blocks_view(Light("area", (1.0, -0.5, 0.5), 6500, 10.0, size=0.4), eye, board)  # beside the sight lines
    assert not blocks_view(Light("area", (0.0, -1.5, 1.5), 6500, 10.0, size=0.4), eye, board)  # behind the eye
    assert blocks_view(Light("sphere", (0.0, -0.5, 0.5), 3000, 2.0, size=0.1), eye, board)
    assert not blocks_view(Light("sphere", (0.3, -0.5, 0.5), 3000, 2.0, size=0.1), eye, board)
    assert not blocks_view(Light("point", (0.0, -0.5, 0.5), 3000, 2.0), eye, board)


@pytest.mark.parametrize("seed, options", [
    (95204, {"megapixels": 2, "spp": 8, "frost": (0.0, 0.3)}),  # a window behind a far camera: rendered black
    (1593, {"megapixels": 2}), (2281, {"megapixels": 2}),  # windows
    (45, {"megapixels": 2}), (2038, {"megapixels": 2}),  # lamps hanging under a camera held high
])
def test_no_light_stands_between_the_camera_and_the_board(seed, options):
    plan = plan_scene(seed, **options)
    spec = plan.checkerboard
    u, v = np.meshgrid(np.linspace(0, spec.cols, 9), np.linspace(0, spec.rows, 9))
    points = spec.plane_to_world(u.ravel(), v.ravel())
    assert not any(blocks_view(light, plan.camera.origin, points) for light in plan.lights)


def test_with_colour_and_frost_fix_those_choices_and_leave_the_rest():
    plain = [plan_scene(seed) for seed in range(40)]
    for plan in plain:
        assert FROST_RANGE[0] <= plan.materials["frost"] <= FROST_RANGE[1]
        if "clear" in plan.colours:  # already there: the same plan as without the option
            assert json.dumps(sidecar(plan_scene(plan.seed, with_colour="clear"))) == json.dumps(sidecar(plan))
    assert sum("clear" in plan.colours for plan in plain) < len(plain)
    for seed in range(40):
        plan = plan_scene(seed, with_colour="clear", frost=(0.1, 0.2))
        assert "clear" in plan.colours and len(set(plan.colours)) == plan.players
        assert set(plan.board.colours()) <= set(plan.colours)
        assert 0.1 <= plan.materials["frost"] <= 0.2


def test_hue_spread_turns_only_the_coloured_batches_and_leaves_the_rest():
    def hue(rgb):
        return colorsys.rgb_to_hsv(*linear_to_srgb(np.asarray(rgb, np.float64)))[0] * 360

    turned_any = False
    for seed in range(12):
        plain, turned = plan_scene(seed), plan_scene(seed, hue_spread=12)
        assert json.dumps(sidecar(plan_scene(seed, hue_spread=0))) == json.dumps(sidecar(plain))
        assert turned.camera == plain.camera and turned.board == plain.board and turned.pieces == plain.pieces
        assert turned.materials["frost"] == plain.materials["frost"]
        for name, rgb in plain.materials["piece_rgb"].items():
            new = turned.materials["piece_rgb"][name]
            if name in ("black", "white", "clear"):
                assert new == rgb
                continue
            step = (hue(new) - hue(rgb) + 180) % 360 - 180
            assert abs(step) <= 12.5
            turned_any |= abs(step) > 1
    assert turned_any


def test_every_board_kind_plans():
    for seed, kind in enumerate(BOARD_KINDS + ASKED_BOARD_KINDS):
        plan = plan_scene(100 + seed, board_kind=kind, players=4 if kind != "area_sized" else 2)
        truth = sidecar(plan)
        assert truth["scene"]["board"]["kind"] == kind
        if kind == "travel":
            assert 30 <= truth["scene"]["board"]["square_mm"] <= 39
        if kind == "area_sized":
            assert truth["checkerboard"]["rows"] == truth["play_area"]["rows"]


def test_order_corners():
    pts = [[90, 10], [10, 12], [12, 88], [95, 80]]
    assert order_corners(pts) == [[10, 12], [90, 10], [95, 80], [12, 88]]


def test_camera_projects_its_target_to_the_image_centre():
    cam = aim_camera((0.1, -0.2, 0.0), 40, 30, 75, 0.8, 60, 400, 300)
    assert np.allclose(cam.project([[0.1, -0.2, 0.0]])[0], [199.5, 149.5])
    k, rt = cam.intrinsics(), cam.world_to_camera()
    p = np.array([0.05, 0.02, 0.01, 1.0])
    q = k @ rt @ p
    assert np.allclose(q[:2] / q[2], cam.project([p[:3]])[0])


def test_develop_and_jpeg():
    plan = plan_scene(3)
    rng = np.random.default_rng(0)
    linear = rng.random((60, 80, 3)).astype(np.float32)
    a = develop(linear, plan.post, (1.0, 1.0, 0.8), seed=1)
    b = develop(linear, plan.post, (1.0, 1.0, 0.8), seed=1)
    assert a.dtype == np.uint8 and a.shape == (60, 80, 3) and (a == b).all()
    assert encode_jpeg(a, 80)[:2] == b"\xff\xd8"


def test_cli_rejects_bad_options(capsys, tmp_path):
    assert main(["studio", "--seed", "1", "--out", str(tmp_path), "--clutter", "piano"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("subdivision: error: unknown clutter piano") and "\n" not in err
    assert main(["studio", "--seed", "1", "--out", str(tmp_path), "--tilt", "89"]) == 2
    capsys.readouterr()
    for both in (["--threehouse", "--standard"], ["--portrait", "--landscape"]):  # one wins silently no more
        with pytest.raises(SystemExit) as exit_info:
            main(["studio", "--seed", "1", "--out", str(tmp_path), *both])
        assert exit_info.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
    for frost in ("0.7,0.2", "a,b", "0.3", "0.2,1.5"):
        assert main(["studio", "--seed", "1", "--out", str(tmp_path), "--frost", frost]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("subdivision: error: --frost must be LOW,HIGH") and "\n" not in err
    for spread in ("-1", "181"):
        assert main(["studio", "--seed", "1", "--out", str(tmp_path), "--hue-spread", spread]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("subdivision: error: --hue-spread must be between 0 and 180") and "\n" not in err
    for options, message in ((["--seed", "-1", "--out", str(tmp_path)], "--seed must be 0 or more, not -1"),
                             (["--seed", "1", "--out", " "], "--out must name a folder"),
                             (["--seed", "1", "--out", str(tmp_path), "--spp", str(2**32)], "--spp must be at most 4096"),
                             (["--seed", "1", "--out", str(tmp_path), "--prefix", "nodir/"], "--prefix 'nodir/': a file")):
        assert main(["studio", *options]) == 2  # refused before anything is rendered
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"subdivision: error: {message}") and "\n" not in err
    (tmp_path / "a_file").write_text("")
    assert main(["studio", "--seed", "1", "--out", str(tmp_path / "a_file")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("subdivision: error: --out ") and "cannot make the folder" in err and "\n" not in err


def test_cli_without_the_renderer_says_how_to_install_it(capsys, tmp_path, monkeypatch):
    import sys

    from scorer.studio import render

    monkeypatch.setattr(render, "_MI", None)
    monkeypatch.setitem(sys.modules, "mitsuba", None)  # as if not installed
    assert main(["studio", "--seed", "1", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "pip install -e '.[studio]'" in err and "\n" not in err
    assert not list(tmp_path.iterdir())


def test_cli_a_photo_that_cannot_be_written_is_one_line(capsys, tmp_path, monkeypatch):
    from scorer.studio import photo, render

    def refused(seed, out, name, **_):
        raise PermissionError(13, "Permission denied", f"{out}/{name}.jpg")

    monkeypatch.setattr(render, "mitsuba", lambda: None)  # no rendering: the write fails first
    monkeypatch.setattr(photo, "write_photo", refused)
    assert main(["studio", "--seed", "7", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"subdivision: error: {tmp_path}/studio_000007.jpg: cannot write the photo "
                                       "(Permission denied)\n")

def test_cli_without_blender_says_how_to_install_it(capsys, tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "bpy", None)  # as if not installed
    assert main(["studio", "--seed", "1", "--out", str(tmp_path), "--renderer", "cycles"]) == 2
    err = capsys.readouterr().err.strip()
    assert "pip install bpy" in err and "\n" not in err
    assert not list(tmp_path.iterdir())


def test_an_unknown_renderer_is_refused_before_rendering():
    from scorer.studio.photo import make_photo
    from scorer.studio.scene import plan_scene

    with pytest.raises(ValueError, match="unknown renderer 'blender'"):
        make_photo(plan_scene(1), renderer="blender")


def test_a_large_pyramid_on_a_travel_sets_small_square_is_turned_to_fit_inside_it():
    for seed in range(6):
        plan = plan_scene(900 + seed, board_kind="travel", players=4, stage="finished")
        square = plan.checkerboard.square
        for piece in plan.pieces:
            base = PYRAMID_SIZES[piece.pips][0]
            yaw = math.radians(piece.yaw)
            half = base / 2 * (abs(math.cos(yaw)) + abs(math.sin(yaw)))
            assert half <= square / 2 - 0.001 + 1e-9
