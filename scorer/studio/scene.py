"""Scene planning: a seed (and options) -> everything a photo shows, as plain data.

Pure Python: no renderer needed. ``plan_scene`` draws the position (legal random play from
``scorer.rules``), the checkerboard, where the play area sits on it, every piece, park
token, clutter item, the lights, the camera and the post-processing.
"""

from __future__ import annotations

import colorsys
import math
import random
from dataclasses import dataclass, field, replace

import numpy as np

from scorer.board import COLOURS, Board, setup_for
from scorer.rules import random_game
from scorer.studio.geometry import Camera, aim_camera
from scorer.studio.heightfield import HeightField, random_cloth, random_mat
from scorer.studio.post import linear_to_srgb, srgb_to_linear

# Looney Pyramids, metres: pips -> (base width, height).
PYRAMID_SIZES = {1: (0.0143, 0.0254), 2: (0.0198, 0.0349), 3: (0.0254, 0.0445)}
BANDANNA_SQUARE = 0.0445
BANDANNA_SIZE = 0.559  # the whole cloth, 22 inches

BOARD_KINDS = ("bandanna", "printed", "wood", "vinyl", "area_sized")
# Drawn only when asked for, so that every seed's photo stays as it was: a folding travel set,
# whose 30-39 mm squares make the pyramids 1.14-1.48 times as large against them as on the
# bandanna's (the sample corpus has none).
ASKED_BOARD_KINDS = ("travel",)
PRINTED_PALETTES = ["white_black", "cream_green", "buff_brown", "white_red", "white_grey"]  # card boards' prints
TOKEN_KINDS = ("coin", "glass_stone", "chip", "token")
LIGHT_KINDS = ("lamp", "window", "ceiling", "dim", "window_and_lamp")
TABLE_KINDS = ("oak", "dark_wood", "white_laminate", "tablecloth", "slate", "formica")
CLUTTER_KINDS = ("unplayed_pieces", "cards", "phone", "hand", "mug")
STAGES = ("finished", "mid")

# 35 mm-equivalent focal lengths of phone cameras: main, main cropped 2x, tele.
PHONE_FOCALS_MM = (24, 26, 26, 28, 48, 52, 77)
RESOLUTIONS = {  # megapixels -> (long side, short side), 4:3 like phone photos
    2: (1632, 1224), 3: (2016, 1512), 4: (2304, 1728), 8: (3264, 2448), 12: (4032, 3024),
}


@dataclass
class BoardSpec:
    """The physical checkerboard: kind, size, where its squares are, its surface."""

    kind: str
    rows: int
    cols: int
    square: float  # metres
    border: float  # printed/framed margin around the squares, metres
    thickness: float
    style: dict
    surface: HeightField = field(default_factory=HeightField)

    @property
    def half_width(self) -> float:
        return self.cols * self.square / 2

    @property
    def half_height(self) -> float:
        return self.rows * self.square / 2

    def plane_to_world(self, u, v) -> np.ndarray:
        """Board-plane coordinates in square units (u along columns, v along rows, from the
        board's own bottom-left corner) -> world points on the (possibly wrinkled) top surface."""
        u = np.asarray(u, dtype=float)
        v = np.asarray(v, dtype=float)
        x = (u - self.cols / 2) * self.square
        y = (v - self.rows / 2) * self.square
        z = self.thickness + self.surface(x, y)
        return np.stack(np.broadcast_arrays(x, y, z), axis=-1)

    def top_z(self, x, y) -> np.ndarray:
        return self.thickness + self.surface(x, y)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "rows": self.rows, "cols": self.cols,
                "square_mm": round(self.square * 1000, 2), "border_mm": round(self.border * 1000, 1),
                "style": self.style, "surface": self.surface.to_dict()}


@dataclass
class PiecePlacement:
    square: str  # play-area square in the board's own frame
    colour: str
    pips: int
    x: float
    y: float
    z: float
    yaw: float  # degrees


@dataclass
class Item:
    """A token or clutter object: a kind, a place, a turn and kind-specific parameters."""

    kind: str
    x: float
    y: float
    z: float
    yaw: float
    params: dict = field(default_factory=dict)


@dataclass
class Light:
    kind: str  # "point", "area", "sphere"
    position: tuple[float, float, float]
    kelvin: float
    power: float
    size: float = 0.0
    target: tuple[float, float, float] = (0.0, 0.0, 0.0)


@dataclass
class ScenePlan:
    seed: int
    board: Board  # the play area's position, in the checkerboard's own frame
    players: int
    colours: list[str]
    threehouse: bool
    stage: str
    checkerboard: BoardSpec
    play_area: tuple[int, int]  # (col, row) offset of the play area on the checkerboard
    pieces: list[PiecePlacement]
    tokens: list[Item]
    clutter: list[Item]
    table: dict
    lights: list[Light]
    ambient: dict
    camera: Camera
    camera_params: dict
    post: dict
    spp: int
    materials: dict

    def describe(self) -> dict:
        """The scene parameters for the ground-truth sidecar."""
        return {
            "board": self.checkerboard.to_dict(),
            "table": self.table,
            "tokens": sorted({t.kind for t in self.tokens}),
            "clutter": [c.kind for c in self.clutter],
            "lights": [{"kind": l.kind, "kelvin": round(l.kelvin), "power": round(l.power, 3),
                        "position": [round(p, 3) for p in l.position]} for l in self.lights],
            "light_setup": self.ambient["setup"],
            "ambient": {k: v for k, v in self.ambient.items() if k != "setup"},
            "post": self.post,
            "spp": self.spp,
            "piece_colours_rgb": self.materials["piece_rgb"],
        }


def kelvin_rgb(kelvin: float) -> tuple[float, float, float]:
    """Approximate linear RGB of a black body, normalised to green = 1."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * math.log(t - 10) - 305.04)
    lin = srgb_to_linear(np.clip(np.array([r, g, b]) / 255.0, 0.0, 1.0))
    return tuple((lin / max(lin[1], 1e-6)).tolist())



# Linear-RGB base colours of the ten pyramid colours (translucent ones tint what is behind).
PIECE_RGB = {
    "red": (0.75, 0.02, 0.03), "yellow": (0.95, 0.72, 0.02), "orange": (0.95, 0.25, 0.01),
    "green": (0.03, 0.45, 0.06), "cyan": (0.02, 0.55, 0.75), "blue": (0.02, 0.08, 0.65),
    "purple": (0.28, 0.03, 0.50), "clear": (0.92, 0.92, 0.92), "black": (0.015, 0.015, 0.018),
    "white": (0.85, 0.85, 0.83),
}
OPAQUE_COLOURS = ("black", "white")
FROST_RANGE = (0.45, 0.7)  # how milky the translucent pieces are, drawn per photo


def other_makers_colours(rng: random.Random, piece_rgb: dict, spread: float) -> dict:
    """``piece_rgb`` (linear RGB per colour) with each coloured batch's hue turned by a uniform
    draw of up to ``spread`` degrees either way (HSV of the sRGB-encoded colour), as another
    maker's plastic or another renderer's palette; black, white and clear unchanged.
    Drawn from its own ``rng`` so that the rest of a seed's photo stays as it was."""
    out = dict(piece_rgb)
    for name, rgb in piece_rgb.items():
        if name in OPAQUE_COLOURS or name == "clear":
            continue
        h, s, v = colorsys.rgb_to_hsv(*linear_to_srgb(np.asarray(rgb, np.float64)))
        turned = colorsys.hsv_to_rgb((h + rng.uniform(-spread, spread) / 360.0) % 1.0, s, v)
        out[name] = [round(float(c), 4) for c in srgb_to_linear(np.asarray(turned))]
    return out


def _choose(rng: random.Random, value, options):
    return value if value is not None else rng.choice(options)


def plan_position(rng: random.Random, players: int, threehouse: bool, stage: str,
                  colours: list[str]) -> Board:
    """A position from legal random play: finished, or stopped part-way through."""
    setup = setup_for(players, threehouse)
    total = setup.pieces_per_player * players
    moves = None if stage == "finished" else rng.randint(max(3, total // 5), max(4, (total * 4) // 5))
    return random_game(rng, colours, threehouse=threehouse, moves=moves)


def plan_checkerboard(rng: random.Random, kind: str, area: int) -> BoardSpec:
    """A physical board that holds an ``area`` x ``area`` play area."""
    if kind == "bandanna":
        variant = rng.choice(["grey_squares", "grey_squares", "black_squares", "early_plain"])
        spec = BoardSpec("bandanna", 8, 8, BANDANNA_SQUARE, (BANDANNA_SIZE - 8 * BANDANNA_SQUARE) / 2,
                         0.0008, {"variant": variant, "texture_seed": rng.randrange(1 << 30)})
        spec.surface = random_cloth(rng, BANDANNA_SIZE / 2, rng.random())
        return spec
    if kind == "area_sized":
        square = rng.uniform(0.040, 0.050)
        palette = rng.choice(["white_black", "cream_green", "buff_brown", "white_grey"])
        return BoardSpec(kind, area, area, square, rng.uniform(0.0, 0.012), rng.uniform(0.0005, 0.002),
                         {"palette": palette, "texture_seed": rng.randrange(1 << 30)})
    if kind == "printed":
        square = rng.uniform(0.040, 0.055)
        palette = rng.choice(PRINTED_PALETTES)
        return BoardSpec(kind, 8, 8, square, rng.uniform(0.012, 0.03), rng.uniform(0.002, 0.004),
                         {"palette": palette, "labels": rng.random() < 0.6, "texture_seed": rng.randrange(1 << 30)})
    if kind == "wood":
        square = rng.uniform(0.042, 0.057)
        return BoardSpec(kind, 8, 8, square, rng.uniform(0.018, 0.04), rng.uniform(0.012, 0.02),
                         {"palette": rng.choice(["maple_walnut", "birch_rosewood", "light_mahogany"]),
                          "labels": rng.random() < 0.4, "texture_seed": rng.randrange(1 << 30)})
    if kind == "travel":
        square = rng.uniform(0.030, 0.039)
        return BoardSpec(kind, 8, 8, square, rng.uniform(0.008, 0.02), rng.uniform(0.003, 0.008),
                         {"palette": rng.choice(PRINTED_PALETTES),
                          "labels": rng.random() < 0.5, "texture_seed": rng.randrange(1 << 30)})
    if kind == "vinyl":
        square = rng.uniform(0.050, 0.057)
        spec = BoardSpec(kind, 8, 8, square, rng.uniform(0.015, 0.03), 0.0012,
                         {"palette": rng.choice(["buff_green", "buff_brown", "white_black", "buff_blue"]),
                          "labels": True, "texture_seed": rng.randrange(1 << 30)})
        spec.surface = random_mat(rng, spec.half_width + spec.border)
        return spec
    raise ValueError(f"unknown board kind {kind!r}; known: {', '.join(BOARD_KINDS + ASKED_BOARD_KINDS)}")


def _turned_to_fit(yaw: float, base: float, square: float) -> float:
    """``yaw`` (degrees), turned back as far as a pyramid of ``base`` needs to stand inside a
    ``square`` (a 1 mm margin), as a player squares up a large piece on a small board. On the
    studio's usual boards every turn fits; on a travel set's 30 mm squares a 3-pip turns about
    6 degrees at most."""
    fit = (square / 2 - 0.001) / (base / 2)  # |cos| + |sin| of the furthest turn that fits
    if fit >= math.sqrt(2):
        return yaw
    most = max(0.0, math.degrees(math.asin(fit / math.sqrt(2))) - 45.0)
    turn = yaw % 90.0
    off = min(turn, 90.0 - turn)  # degrees from square to the grid
    if off <= most:
        return yaw
    return yaw + (most - off) if turn <= 45.0 else yaw + (off - most)


def plan_pieces(rng: random.Random, board: Board, spec: BoardSpec, offset: tuple[int, int]) -> list[PiecePlacement]:
    """Every pyramid placed in its square with a small offset and turn."""
    placements = []
    careful = rng.random()  # how neatly these players place their pieces
    for square, piece in board.pieces():
        base = PYRAMID_SIZES[piece.pips][0]
        yaw = _turned_to_fit(rng.gauss(0, 6 + 20 * careful) if rng.random() < 0.85 else rng.uniform(0, 90),
                             base, spec.square)
        half = base / 2 * (abs(math.cos(math.radians(yaw))) + abs(math.sin(math.radians(yaw))))
        slack = max(0.0, spec.square / 2 - half - 0.001)  # the footprint stays inside its square
        dx, dy = (rng.uniform(-1, 1) * slack * (0.3 + 0.7 * careful) for _ in range(2))
        u = offset[0] + square.col + 0.5
        v = offset[1] + square.row + 0.5
        x = (u - spec.cols / 2) * spec.square + dx
        y = (v - spec.rows / 2) * spec.square + dy
        z = float(spec.top_z(x, y)) - 0.0003
        placements.append(PiecePlacement(square.name, piece.colour, piece.pips, x, y, z, yaw))
    return placements


def plan_tokens(rng: random.Random, board: Board, spec: BoardSpec, offset: tuple[int, int], kind: str) -> list[Item]:
    tokens = []
    mixed = rng.random() < 0.15
    for square in board.parks():
        k = rng.choice(TOKEN_KINDS) if mixed else kind
        u = offset[0] + square.col + 0.5 + rng.uniform(-0.12, 0.12)
        v = offset[1] + square.row + 0.5 + rng.uniform(-0.12, 0.12)
        x = (u - spec.cols / 2) * spec.square
        y = (v - spec.rows / 2) * spec.square
        z = float(spec.top_z(x, y))
        params = {"square": square.name}
        if k == "coin":
            params.update(radius=rng.choice([0.0095, 0.0106, 0.0121, 0.0128]), height=rng.uniform(0.0015, 0.0022),
                          metal=rng.choice(["Cu", "Au", "Al", "Ag"]))
        elif k == "glass_stone":
            params.update(radius=rng.uniform(0.008, 0.0105), height=rng.uniform(0.005, 0.0075),
                          colour=rng.choice(["black", "white", "green", "clear", "blue"]))
        elif k == "chip":
            params.update(radius=0.0195, height=0.0033,
                          colour=rng.choice(["red", "blue", "green", "black", "white", "yellow"]))
        else:
            params.update(radius=rng.uniform(0.007, 0.01), height=rng.uniform(0.008, 0.016),
                          shape=rng.choice(["cube", "disc"]), colour=rng.choice(["wood", "red", "blue", "black", "white"]))
        tokens.append(Item(k, x, y, z, rng.uniform(0, 360), params))
    return tokens


def plan_clutter(rng: random.Random, spec: BoardSpec, board: Board, colours: list[str],
                 kinds: list[str], threehouse: bool) -> list[Item]:
    """Objects beside the board, never on its squares."""
    items = []
    hx = spec.half_width + spec.border + 0.015
    hy = spec.half_height + spec.border + 0.015
    occupied: list[tuple[float, float, float]] = []

    def ring_spot(radius):
        for _ in range(60):
            side = rng.randrange(4)
            along = rng.uniform(-1.0, 1.0)
            out = rng.uniform(radius, radius + 0.12)
            if side == 0:
                x, y = hx + out, along * (hy + 0.05)
            elif side == 1:
                x, y = -hx - out, along * (hy + 0.05)
            elif side == 2:
                x, y = along * (hx + 0.05), hy + out
            else:
                x, y = along * (hx + 0.05), -hy - out
            if all(math.hypot(x - ox, y - oy) > radius + orad for ox, oy, orad in occupied):
                occupied.append((x, y, radius))
                return x, y
        return None

    for kind in kinds:
        if kind == "unplayed_pieces":
            per_player = setup_for(len(colours), threehouse).pieces_per_player
            for colour in rng.sample(colours, k=min(len(colours), rng.randint(1, 3))):
                left = per_player - sum(1 for _, p in board.pieces() if p.colour == colour)
                count = max(1, min(left if left > 0 else rng.randint(1, 4), 6))
                spot = ring_spot(0.06)
                if spot is None:
                    continue
                for _ in range(count):
                    pips = rng.choice([1, 2, 3])
                    px = spot[0] + rng.uniform(-0.04, 0.04)
                    py = spot[1] + rng.uniform(-0.04, 0.04)
                    lying = rng.random() < 0.2
                    items.append(Item("pyramid", px, py, 0.0, rng.uniform(0, 360),
                                      {"colour": colour, "pips": pips, "lying": lying}))
        elif kind == "cards":
            spot = ring_spot(0.07)
            if spot:
                for i in range(rng.randint(1, 4)):
                    items.append(Item("card", spot[0] + rng.uniform(-0.02, 0.02), spot[1] + rng.uniform(-0.02, 0.02),
                                      0.0003 * (i + 1), rng.uniform(0, 360),
                                      {"texture_seed": rng.randrange(1 << 30), "face": rng.choice(["front", "back"])}))
        elif kind == "phone":
            spot = ring_spot(0.09)
            if spot:
                items.append(Item("phone", spot[0], spot[1], 0.0, rng.uniform(0, 360),
                                  {"body": rng.choice(["black", "white", "blue", "silver"])}))
        elif kind == "mug":
            spot = ring_spot(0.05)
            if spot:
                items.append(Item("mug", spot[0], spot[1], 0.0, 0.0,
                                  {"colour": rng.choice(["white", "red", "blue", "black", "green"])}))
        elif kind == "hand":
            side = rng.randrange(4)
            along = rng.uniform(-0.6, 0.6)
            reach = rng.uniform(0.03, 0.09)  # how far past the board's outer edge the fingertips are
            if side == 0:
                x, y, yaw = hx + reach, along * hy, 180.0
            elif side == 1:
                x, y, yaw = -hx - reach, along * hy, 0.0
            elif side == 2:
                x, y, yaw = along * hx, hy + reach, 270.0
            else:
                x, y, yaw = along * hx, -hy - reach, 90.0
            items.append(Item("hand", x, y, 0.0, yaw + rng.gauss(0, 15),
                              {"skin": rng.choice([(0.62, 0.42, 0.32), (0.45, 0.28, 0.18), (0.25, 0.14, 0.09),
                                                   (0.7, 0.52, 0.42)])}))
    return items


def plan_lights(rng: random.Random, setup: str) -> tuple[list[Light], dict]:
    lights: list[Light] = []
    ambient = {"setup": setup}
    if setup in ("lamp", "window_and_lamp"):
        a = rng.uniform(0, 2 * math.pi)
        r = rng.uniform(0.2, 0.7)
        lights.append(Light("point", (r * math.cos(a), r * math.sin(a), rng.uniform(0.5, 1.1)),
                            rng.uniform(2400, 3500), rng.uniform(1.5, 4.0)))
    if setup in ("window", "window_and_lamp"):
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(1.2, 2.5)
        lights.append(Light("area", (d * math.cos(a), d * math.sin(a), rng.uniform(0.6, 1.4)),
                            rng.uniform(5500, 8000), rng.uniform(8.0, 20.0), size=rng.uniform(0.8, 1.5)))
    if setup == "ceiling":
        lights.append(Light("sphere", (rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(1.3, 1.8)),
                            rng.uniform(2700, 5000), rng.uniform(15.0, 35.0), size=rng.uniform(0.08, 0.2)))
    if setup == "dim":
        lights.append(Light("sphere", (rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(1.0, 1.8)),
                            rng.uniform(2200, 3200), rng.uniform(1.5, 4.0), size=rng.uniform(0.1, 0.3)))
    ambient["kelvin"] = rng.uniform(3000, 7000)
    ambient["radiance"] = rng.uniform(0.04, 0.25) if setup != "dim" else rng.uniform(0.005, 0.03)
    return lights, ambient


def area_light_axes(light: Light) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A window's rectangle as the renderer builds it (Mitsuba's ``look_at`` from its position
    to its target, up +z, then scaled): its normal and its two half-extent vectors."""
    normal = np.subtract(light.target, light.position)
    normal = normal / np.linalg.norm(normal)
    left = np.cross([0.0, 0.0, 1.0], normal)
    left = left / np.linalg.norm(left)
    return normal, left * light.size / 2, np.cross(normal, left) * light.size * 0.6


def blocks_view(light: Light, eye, points) -> bool:
    """Whether ``light``'s own shape (a window's rectangle, a lamp's sphere; a point light has
    none) crosses a sight line from ``eye`` to any of ``points`` (N, 3)."""
    eye = np.asarray(eye, float)
    ends = np.asarray(points, float).reshape(-1, 3)
    centre = np.asarray(light.position, float)
    if light.kind == "area":
        normal, half_u, half_v = area_light_axes(light)
        denom = (ends - eye) @ normal
        with np.errstate(divide="ignore", invalid="ignore"):  # a sight line parallel to the window: no hit
            t = ((centre - eye) @ normal) / denom
            hits = eye + t[:, None] * (ends - eye) - centre
        inside = ((np.abs(hits @ half_u) <= half_u @ half_u) & (np.abs(hits @ half_v) <= half_v @ half_v))
        return bool(np.any((denom != 0) & (t > 0) & (t < 1) & inside))
    if light.kind == "sphere":
        d = ends - eye
        t = np.clip(((centre - eye) @ d.T) / np.einsum("ij,ij->i", d, d), 0.0, 1.0)
        return bool(np.any(np.linalg.norm(eye + t[:, None] * d - centre, axis=1) <= light.size))
    return False


def lights_out_of_view(lights: list[Light], eye, spec: BoardSpec, seed: int) -> list[Light]:
    """``lights`` with each one whose shape stands between the camera at ``eye`` and the board
    (a window behind the photographer, seen from its unlit back, left only black; a lamp
    hanging under a camera held high) moved to a new bearing and a little further out from
    the board, until it is out of the way, drawn from a generator of its own, so that plans
    without such a light stay as they were."""
    u, v = np.meshgrid(np.linspace(0, spec.cols, 5), np.linspace(0, spec.rows, 5))
    points = spec.plane_to_world(u.ravel(), v.ravel())
    out = []
    for i, light in enumerate(lights):
        rng = random.Random(f"light {i} of plan {seed}")
        while blocks_view(light, eye, points):
            bearing = rng.uniform(0, 2 * math.pi)
            reach = max(math.hypot(light.position[0], light.position[1]), 0.25) * rng.uniform(1.05, 1.25)
            light = replace(light, position=(reach * math.cos(bearing), reach * math.sin(bearing), light.position[2]))
        out.append(light)
    return out


def plan_camera(rng: random.Random, spec: BoardSpec, megapixels: int, tilt: float | None,
                portrait: bool | None) -> tuple[Camera, dict]:
    """A phone held over the table: tilt from vertical, side, roll, lens, framing."""
    long_side, short_side = RESOLUTIONS[megapixels]
    portrait = rng.random() < 0.35 if portrait is None else portrait
    width, height = (short_side, long_side) if portrait else (long_side, short_side)
    if tilt is None:
        tilt = rng.choice([rng.uniform(0, 15), rng.uniform(15, 40), rng.uniform(30, 60)])
    azimuth = rng.uniform(0, 360)
    if rng.random() < 0.6:
        roll = rng.gauss(0, 6) + (90 * rng.randrange(4) if rng.random() < 0.3 else 0)
    else:
        roll = rng.uniform(-180, 180)
    focal = rng.choice(PHONE_FOCALS_MM)
    diag_mm = math.hypot(36, 24)
    sensor_w_mm = diag_mm * width / math.hypot(width, height)
    fov_x = math.degrees(2 * math.atan(sensor_w_mm / 2 / focal))
    fill = rng.uniform(0.5, 0.92)
    target = np.array([rng.gauss(0, 0.02), rng.gauss(0, 0.02), spec.thickness])
    corners = [spec.plane_to_world(u, v) for u, v in ((0, 0), (spec.cols, 0), (spec.cols, spec.rows), (0, spec.rows))]
    distance = 0.6
    for _ in range(25):
        cam = aim_camera(target, tilt, azimuth, roll, distance, fov_x, width, height)
        px = cam.project(np.array(corners))
        span = max((px[:, 0].max() - px[:, 0].min()) / width, (px[:, 1].max() - px[:, 1].min()) / height)
        margin = min(px[:, 0].min(), px[:, 1].min(), width - px[:, 0].max(), height - px[:, 1].max())
        if margin < 0.03 * min(width, height):
            fill *= 0.97
        distance *= span / fill
    cam = aim_camera(target, tilt, azimuth, roll, distance, fov_x, width, height)
    params = {"tilt_deg": round(tilt, 2), "azimuth_deg": round(azimuth, 2), "roll_deg": round(roll, 2),
              "focal_mm_35": focal, "distance_m": round(float(distance), 4), "megapixels": megapixels,
              "orientation": "portrait" if portrait else "landscape"}
    return cam, params


def plan_post(rng: random.Random, light_setup: str, megapixels: int) -> dict:
    scale = RESOLUTIONS[megapixels][0] / 2016
    dim = light_setup == "dim"
    return {
        "exposure": round(rng.uniform(0.75, 1.15), 3),
        "white_balance_error": [round(rng.gauss(1, 0.05), 3), 1.0, round(rng.gauss(1, 0.05), 3)],
        "wb_correction": round(rng.uniform(0.55, 1.0), 3),  # share of the light's colour cast undone
        "defocus_px": round(rng.choice([0, 0, rng.uniform(0.3, 1.2), rng.uniform(1.0, 3.0)]) * scale, 3),
        "motion_px": round((rng.uniform(2, 9) if rng.random() < 0.2 else 0.0) * scale, 3),
        "motion_angle_deg": round(rng.uniform(0, 180), 1),
        "noise": round(rng.uniform(0.004, 0.012) * (3.0 if dim else 1.0), 4),
        "vignette": round(rng.uniform(0.0, 0.35), 3),
        "sharpen": round(rng.uniform(0.0, 0.6), 3),
        "jpeg_quality": rng.randint(70, 88),
    }


def plan_scene(seed: int, *, players: int | None = None, threehouse: bool | None = None,
               stage: str | None = None, board_kind: str | None = None, token_kind: str | None = None,
               light: str | None = None, table: str | None = None, clutter: list[str] | None = None,
               megapixels: int = 3, tilt: float | None = None, portrait: bool | None = None,
               spp: int = 8, colours: list[str] | None = None, area_offset: tuple[int, int] | None = None,
               with_colour: str | None = None, frost: tuple[float, float] | None = None,
               hue_spread: float | None = None) -> ScenePlan:
    """Everything in one photo, drawn from ``seed``; any keyword fixes that choice.
    ``with_colour`` puts a player of that colour among the drawn ones; ``frost`` is the range
    the translucent pieces' frosting is drawn from (0 glassy, 1 milky; default ``FROST_RANGE``);
    ``hue_spread``: each coloured batch's hue turned by up to this many degrees
    (:func:`other_makers_colours`)."""
    rng = random.Random(seed)
    players = players or rng.choice([2, 2, 3, 3, 4])
    threehouse = (rng.random() < 0.3) if threehouse is None else threehouse
    stage = _choose(rng, stage, ["finished", "finished", "mid"])
    if colours is None:
        colours = rng.sample(COLOURS, players) if rng.random() < 0.7 else rng.sample(["red", "yellow", "green", "blue", "black"], players)
        if with_colour is not None and with_colour not in colours:
            colours[rng.randrange(players)] = with_colour
    position = plan_position(rng, players, threehouse, stage, list(colours))
    area = position.rows
    kind = _choose(rng, board_kind, ["bandanna", "bandanna", "bandanna", "printed", "wood", "vinyl", "area_sized"])
    spec = plan_checkerboard(rng, kind, area)
    if area_offset is None:
        area_offset = (rng.randint(0, spec.cols - area), rng.randint(0, spec.rows - area))
    pieces = plan_pieces(rng, position, spec, area_offset)
    tokens = plan_tokens(rng, position, spec, area_offset, _choose(rng, token_kind, TOKEN_KINDS))
    if clutter is None:
        clutter = [k for k in CLUTTER_KINDS if rng.random() < {"unplayed_pieces": 0.45, "hand": 0.2}.get(k, 0.25)]
    clutter_items = plan_clutter(rng, spec, position, list(colours), clutter, threehouse)
    table_spec = {"kind": _choose(rng, table, TABLE_KINDS), "texture_seed": rng.randrange(1 << 30)}
    light_setup = _choose(rng, light, ["lamp", "window", "ceiling", "dim", "window_and_lamp"])
    lights, ambient = plan_lights(rng, light_setup)
    camera, camera_params = plan_camera(rng, spec, megapixels, tilt, portrait)
    lights = lights_out_of_view(lights, camera.origin, spec, seed)
    post = plan_post(rng, light_setup, megapixels)
    piece_rgb = {}
    for name, rgb in PIECE_RGB.items():  # each set of pieces is a slightly different batch
        jitter = np.clip(np.array(rgb) * (1 + np.array([rng.gauss(0, 0.08) for _ in range(3)])), 0.0, 0.97)
        piece_rgb[name] = [round(float(c), 4) for c in jitter]
    if hue_spread:
        piece_rgb = other_makers_colours(random.Random(seed + 7919), piece_rgb, hue_spread)
    materials = {"piece_rgb": piece_rgb, "frost": round(rng.uniform(*(frost or FROST_RANGE)), 3),
                 "gloss": round(rng.uniform(0.05, 0.2), 3)}
    return ScenePlan(seed, position, players, list(colours), threehouse, stage, spec, area_offset,
                     pieces, tokens, clutter_items, table_spec, lights, ambient, camera, camera_params,
                     post, spp, materials)
