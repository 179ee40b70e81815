"""Ground truth of a planned photo: the sidecar JSON the photo reader is measured against.

The board notation is turned (quarter turns, as ``Board.rotated``) so that row 1 is the play
area's edge nearest the bottom of the image and columns run left to right; the play-area
offset, checkerboard size and square names all use that same turned frame. Pixel positions
are OpenCV pixel-centre coordinates (see ``geometry``) of points on the board's top surface
(wrinkles included).
"""

from __future__ import annotations

import numpy as np

from scorer.board import Board, Square
from scorer.studio.geometry import order_corners, rotate_square_coords
from scorer.studio.scene import PYRAMID_SIZES, ScenePlan


def _edge_heights(plan: ScenePlan) -> list[float]:
    """Image y of each play-area edge's midpoint (on the board surface), in the order of the
    edge that becomes row 1 after 0, 1, 2, 3 clockwise quarter turns."""
    spec = plan.checkerboard
    c0, r0 = plan.play_area
    cols, rows = plan.board.cols, plan.board.rows
    # the own-frame edge that becomes the bottom after k clockwise turns: bottom, right, top, left
    midpoints = [(c0 + cols / 2, r0), (c0 + cols, r0 + rows / 2), (c0 + cols / 2, r0 + rows), (c0, r0 + rows / 2)]
    return [float(plan.camera.project(spec.plane_to_world(u, v))[0][1]) for u, v in midpoints]


def image_quarter_turns(plan: ScenePlan) -> int:
    """Clockwise quarter turns that make the play area's edge nearest the image bottom its row 1."""
    return int(np.argmax(_edge_heights(plan)))


def orientation_margin(plan: ScenePlan) -> float:
    """Pixels between the lowest and the next lowest play-area edge (small: a near 45-degree
    turn, where which edge is "row 1" is a close call)."""
    ys = sorted(_edge_heights(plan))
    return ys[-1] - ys[-2]


def _turn(board: Board, k: int) -> Board:
    for _ in range(k % 4):
        board = board.rotated()
    return board


def sidecar(plan: ScenePlan) -> dict:
    """The ground-truth dictionary for ``plan`` (keys as agreed in the team's interfaces)."""
    spec = plan.checkerboard
    cam = plan.camera
    k = image_quarter_turns(plan)
    board = _turn(plan.board, k)
    area_c, area_r = plan.play_area
    n_rows, n_cols = plan.board.rows, plan.board.cols

    # The play area's rectangle in the turned frame of the whole checkerboard.
    u0, v0, _, _ = rotate_square_coords(area_c, area_r, spec.cols, spec.rows, k)
    u1, v1, cols_t, rows_t = rotate_square_coords(area_c + n_cols, area_r + n_rows, spec.cols, spec.rows, k)
    play_area = {"col": int(round(min(u0, u1))), "row": int(round(min(v0, v1))), "rows": board.rows, "cols": board.cols}

    corners_world = spec.plane_to_world(np.array([0, spec.cols, spec.cols, 0]), np.array([0, 0, spec.rows, spec.rows]))
    corners = order_corners(cam.project(corners_world))

    centres = {}
    for square in board.squares():
        # the square's centre in the turned checkerboard frame -> back to the own frame
        ut = play_area["col"] + square.col + 0.5
        vt = play_area["row"] + square.row + 0.5
        u, v, _, _ = rotate_square_coords(ut, vt, cols_t, rows_t, (4 - k) % 4)
        centres[square.name] = [round(float(x), 2) for x in cam.project(spec.plane_to_world(u, v))[0]]

    own_to_turned = {}
    for square in plan.board.squares():
        u, v, _, _ = rotate_square_coords(square.col + 0.5, square.row + 0.5, n_cols, n_rows, k)
        own_to_turned[square.name] = Square(int(u), int(v)).name
    pieces = []
    for piece in plan.pieces:
        base, height = PYRAMID_SIZES[piece.pips]
        foot, tip = cam.project(np.array([[piece.x, piece.y, piece.z], [piece.x, piece.y, piece.z + height]]))
        pieces.append({"square": own_to_turned[piece.square], "piece": f"{_letter(piece.colour)}{piece.pips}",
                       "base_px": [round(float(x), 1) for x in foot], "tip_px": [round(float(x), 1) for x in tip]})
    tokens = [{"square": own_to_turned[t.params["square"]], "kind": t.kind,
               "px": [round(float(x), 1) for x in cam.project([[t.x, t.y, t.z]])[0]]} for t in plan.tokens]

    return {
        "board": board.to_text(),
        "checkerboard": {"rows": rows_t, "cols": cols_t, "corners": [[round(float(x), 2) for x in c] for c in corners]},
        "play_area": play_area,
        "square_centres": centres,
        "players": plan.players,
        "colours": plan.colours,
        "threehouse": plan.threehouse,
        "stage": plan.stage,
        "quarter_turns": k,
        "orientation_margin_px": round(orientation_margin(plan), 1),
        "image_size": [cam.width, cam.height],
        "camera": {**plan.camera_params, **cam.to_dict()},
        "scene": plan.describe(),
        "pieces": pieces,
        "parks": tokens,
        "seed": plan.seed,
    }


def _letter(colour: str) -> str:
    from scorer.board import COLOUR_LETTERS
    return COLOUR_LETTERS[colour]
