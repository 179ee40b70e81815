"""Write photometric variants of photos with sidecars, to measure how the reader holds up on
photos unlike the studio's (other cameras, other renderers, other light)::

    .venv/bin/python scripts/photo_variants.py sample_photos/dev /tmp/variants
    for v in /tmp/variants/*/; do .venv/bin/subdivision eval "$v"; done

Each photometric variant keeps the geometry (the sidecar is copied unchanged): darker and
brighter (gamma), desaturated and more saturated, a warm cast, blurred and JPEG-compressed,
sensor noise, underexposed by 3 and by 5 stops (noise and all), a lamp's warm pool of light
on one side, a hand's shake (a straight smear, sideways or diagonally, 15 px at 1600 px),
the photographer's hard-edged shadow, a lamp's glare, haze (flare in the lens), every hue turned 12 degrees either way. The variants that move the board
(``MOVED``: half and a third of the size, as from an old phone or a video frame; framed
tightly on the play area, as a player who frames only what is in play; a lens's barrel
distortion left uncorrected, mild and strong; turned 30 degrees; keystoned, its top edge a
fifth and two fifths narrower (a perspective warp, as an editor's tool makes); cropped by hand
off-centre, to the board's left and top edges; cut off through row 1, as a
player framing too high) move the sidecar's pixel positions with the photo. The variants that
cover part of the photo (``OCCLUDED``: a player's arm reaching over the board, a checked
tablecloth around it) keep the geometry but need the board's corners. A folder labelled by a
``labels.json`` (the real chessboards) gets its variants with their labels
moved likewise, for ``grid_eval``. Never tune on variants of the test split.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.vision.evaluate import framed_on_play_area, photos_in, sidecar_for  # noqa: E402
from scorer.vision.load import load_photo  # noqa: E402


def gamma(image: np.ndarray, exponent: float) -> np.ndarray:
    """Darker for exponents above 1, brighter below."""
    return np.clip(255.0 * (image / 255.0) ** exponent, 0, 255).astype(np.uint8)


def saturation(image: np.ndarray, factor: float) -> np.ndarray:
    """Chroma scaled by ``factor`` in HSV."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 1] *= factor
    return cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR)


def hue_turned(image: np.ndarray, degrees: float) -> np.ndarray:
    """Every hue turned by ``degrees`` (OpenCV's HSV, in its 2-degree steps): the pieces'
    plastic (or another renderer's palette) a little off the studio's colours, the neutral
    board unchanged."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.int32)
    hsv[..., 0] = (hsv[..., 0] + int(round(degrees / 2))) % 180
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)


def colour_cast(image: np.ndarray, gains_bgr=(0.8, 1.0, 1.15)) -> np.ndarray:
    """Per-channel gains (default: a warm, tungsten-like cast)."""
    return np.clip(image * np.asarray(gains_bgr, np.float64), 0, 255).astype(np.uint8)


def blur_and_compress(image: np.ndarray, sigma: float = 2.5, quality: int = 40) -> np.ndarray:
    """Gaussian blur (px of the photo) then a low-quality JPEG round trip."""
    blurred = cv2.GaussianBlur(image, (0, 0), sigma)
    return cv2.imdecode(cv2.imencode(".jpg", blurred, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def sensor_noise(image: np.ndarray, sigma: float = 10.0, seed: int = 0) -> np.ndarray:
    """Gaussian noise of ``sigma`` grey levels."""
    noise = np.random.default_rng(seed).normal(0, sigma, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def shaken(image: np.ndarray, length: float = 15.0, degrees: float = 0.0) -> np.ndarray:
    """A hand's shake: the photo smeared along a straight line ``length`` px long (at 1600 px
    on the long side, scaled with the photo) at ``degrees`` clockwise from the horizontal as
    seen on screen (image y points down)."""
    size = max(3, int(round(length * max(image.shape[:2]) / 1600.0)) | 1)
    kernel = np.zeros((size, size), np.float32)
    centre = (size - 1) / 2.0
    direction = np.array([np.cos(np.radians(degrees)), np.sin(np.radians(degrees))])
    for t in np.linspace(-centre, centre, 4 * size):
        x, y = np.rint(centre + t * direction).astype(int)
        kernel[y, x] = 1.0
    return cv2.filter2D(image, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REPLICATE)


def _linear(image: np.ndarray) -> np.ndarray:
    return (image / 255.0) ** 2.2


def _encoded(linear: np.ndarray) -> np.ndarray:
    return np.clip(255.0 * np.clip(linear, 0, 1) ** (1 / 2.2) + 0.5, 0, 255).astype(np.uint8)


def underexposed(image: np.ndarray, stops: float = 3.0, sigma: float = 2.0, seed: int = 0) -> np.ndarray:
    """A photo exposed ``stops`` too short in linear light (a bright lamp in view, a dim room
    the camera did not make up for), with ``sigma`` grey levels of sensor noise, which a
    dark photo shows at the same strength as a bright one."""
    dark = 255.0 * (_linear(image) * 2.0 ** -stops) ** (1 / 2.2)
    noise = np.random.default_rng(seed).normal(0, sigma, image.shape)
    return np.clip(np.rint(dark + noise), 0, 255).astype(np.uint8)


def uneven_light(image: np.ndarray, spot=(0.3, 0.25), floor: float = 0.45, peak: float = 1.25,
                 warmth: float = 0.2) -> np.ndarray:
    """A lamp's pool of light: linear-light gain from ``peak`` at ``spot`` (fractions of the
    width and height) falling towards ``floor`` (about 0.55 at the far corner with the
    defaults), the pool warmer than the rest by ``warmth`` (blue down, red up, as a tungsten
    lamp beside daylight)."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    d2 = ((xs - spot[0] * w) ** 2 + (ys - spot[1] * h) ** 2) / (0.5 * np.hypot(w, h)) ** 2
    pool = np.exp(-d2)
    gain = floor + (peak - floor) * pool
    tint = np.stack([1.0 - warmth * pool, np.ones_like(pool), 1.0 + 0.5 * warmth * pool], axis=-1)
    return _encoded(_linear(image) * gain[..., None] * tint)


def cast_shadow(image: np.ndarray, centre=(0.6, 0.78), axes=(0.32, 0.3), light_left: float = 0.3,
                softness: float = 0.01, blue: float = 0.15) -> np.ndarray:
    """The photographer's shadow (head and phone, taking a photo from above under one
    lamp): an ellipse at ``centre`` with half-axes ``axes`` (fractions of the width and
    height) where only ``light_left`` of the linear light reaches, its edge blurred over
    ``softness`` of the long side, and a little bluer (the ambient light, not the lamp)."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.float32)
    cv2.ellipse(mask, (int(centre[0] * w), int(centre[1] * h)), (int(axes[0] * w), int(axes[1] * h)),
                0, 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, softness * max(h, w)))[..., None]
    gain = 1.0 - (1.0 - light_left) * mask
    tint = np.concatenate([1.0 + blue * mask, np.ones_like(mask), 1.0 - 0.5 * blue * mask], axis=-1)
    return _encoded(_linear(image) * gain * tint)


def hazy(image: np.ndarray, veil: float = 0.15, level: float = 0.8) -> np.ndarray:
    """Flare over the whole photo (a lamp or window shining into the lens, a smudge on it):
    ``veil`` of the linear light replaced by a flat ``level``, so blacks lift to veil x level."""
    return _encoded((1.0 - veil) * _linear(image) + veil * level)


def glare(image: np.ndarray, spot=(0.42, 0.4), radius: float = 0.035, strength: float = 0.6) -> np.ndarray:
    """A lamp's reflection on a glossy board: ``strength`` of full white added in linear light
    at ``spot`` (fractions of the width and height), falling off as a Gaussian of ``radius``
    times the diagonal, so its core is blown out and no square colour shows there."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    d2 = ((xs - spot[0] * w) ** 2 + (ys - spot[1] * h) ** 2) / (radius * np.hypot(w, h)) ** 2
    return _encoded(_linear(image) + strength * np.exp(-0.5 * d2)[..., None])


def arm_over_board(image: np.ndarray, corners, reach: float = 0.75, width: float = 0.3,
                   along: float = 0.35) -> np.ndarray:
    """A player's arm reaching over the board (a sleeve ending in a hand, with its shadow):
    from beyond the board edge nearest the photo's border, at ``along`` of that edge, towards
    the board's centre, ``reach`` of the way there, ``width`` of the edge wide. ``corners``:
    the checkerboard's 4 outer corners in px. Whatever is under it is hidden."""
    h, w = image.shape[:2]
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    edges = [(quad[k], quad[(k + 1) % 4]) for k in range(4)]

    def border_distance(point):
        return min(point[0], point[1], w - 1 - point[0], h - 1 - point[1])
    start, end = min(edges, key=lambda edge: border_distance((edge[0] + edge[1]) / 2))
    entry = start + along * (end - start)
    side = float(np.linalg.norm(end - start))
    direction = (centre - entry) / max(1e-9, float(np.linalg.norm(centre - entry)))
    tip = entry + reach * (centre - entry)
    root = entry - direction * 2.0 * max(w, h)  # well beyond the photo's edge
    thickness = max(3, int(round(width * side)))
    sleeve = np.zeros((h, w), np.float32)
    cv2.line(sleeve, tuple(int(v) for v in root), tuple(int(v) for v in tip), 1.0, thickness)
    hand = np.zeros((h, w), np.float32)
    cv2.ellipse(hand, tuple(int(v) for v in tip), (int(0.55 * thickness), int(0.4 * thickness)),
                float(np.degrees(np.arctan2(direction[1], direction[0]))), 0, 360, 1.0, -1)
    offset = np.float32([[1, 0, 0.15 * thickness], [0, 1, 0.25 * thickness]])  # down and to the right
    shadow = cv2.warpAffine(np.maximum(sleeve, hand), offset, (w, h), borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    soft = max(1.0, 0.004 * max(h, w))
    sleeve, hand, shadow = (cv2.GaussianBlur(m, (0, 0), soft)[..., None] for m in (sleeve, hand, shadow))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    normal = np.array([-direction[1], direction[0]])
    across = ((xs - entry[0]) * normal[0] + (ys - entry[1]) * normal[1]) / (thickness / 2.0)
    shading = np.clip(1.0 - 0.45 * np.clip(across, -1, 1) ** 2 + 0.25 * np.clip(-across, 0, 1), 0.3, 1.3)[..., None]
    linear = _linear(image) * (1.0 - 0.55 * shadow)
    cloth = np.array([0.035, 0.02, 0.015]) * shading  # a navy sleeve, BGR
    skin = np.array([0.12, 0.22, 0.45]) * shading
    linear = linear * (1 - sleeve) + cloth * sleeve
    linear = linear * (1 - hand) + skin * hand
    return _encoded(linear)


def checked_table(image: np.ndarray, corners, period: float = 0.16, turn: float = 20.0, border: float = 0.08,
                  tones=((0.75, 0.75, 0.78), (0.08, 0.06, 0.45))) -> np.ndarray:
    """The table around the board covered by a checked cloth (red and white, checks
    ``period`` of the board's side and turned ``turn`` degrees to its squares), lying in the
    board's plane out to three board-widths, with the photo's own light and shade; the board
    and ``border`` of its side beyond its outer corners are left as they were. ``corners``:
    the checkerboard's 4 outer corners in px."""
    h, w = image.shape[:2]
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    plane = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), quad.astype(np.float32))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    mapped = np.stack([xs, ys, np.ones_like(xs)], axis=-1) @ np.linalg.inv(plane).T
    ahead = mapped[..., 2] > 1e-9  # beyond the plane's horizon the photo stays as it was
    u, v = (mapped[..., k] / np.where(ahead, mapped[..., 2], 1.0) for k in (0, 1))
    reach = np.maximum(np.abs(u - 0.5), np.abs(v - 0.5))  # from the board's centre, in board sides
    cloth = ahead & (reach > 0.5 + border) & (reach < 3.0)
    t = np.radians(turn)
    checks = (np.floor((u * np.cos(t) - v * np.sin(t)) / period) + np.floor((u * np.sin(t) + v * np.cos(t)) / period)) % 2
    linear = _linear(image)
    light = cv2.GaussianBlur(linear.mean(axis=2), (0, 0), max(h, w) / 40.0)
    shade = np.clip(light / max(float(np.median(light)), 1e-3), 0.4, 1.6)[..., None]
    colour = np.where(checks[..., None] == 0, np.array(tones[0]), np.array(tones[1])) * shade
    linear[cloth] = colour[cloth]
    return _encoded(linear)


def cut_through_row_one(image: np.ndarray, truth: dict) -> tuple[np.ndarray, np.ndarray]:
    """The photo cut off through the play area's row 1 (at its squares' mean height), as a
    player framing too high takes it: what is below is lost. Returns the photo and the
    2x3 map of old px to new (unmoved)."""
    row_one = [xy for name, xy in truth["square_centres"].items() if name[1:] == "1"]
    cut = int(round(np.mean([y for _, y in row_one])))
    return np.ascontiguousarray(image[:cut]), np.array([[1.0, 0, 0], [0, 1.0, 0]])


VARIANTS = {
    "dark": lambda image: gamma(image, 1.5),
    "bright": lambda image: gamma(image, 0.65),
    "desaturated": lambda image: saturation(image, 0.55),
    "desaturated_mildly": lambda image: saturation(image, 0.75),
    "saturated": lambda image: saturation(image, 1.4),  # a phone's vivid mode
    "warm": colour_cast,
    "blurred_jpeg": blur_and_compress,
    "noisy": sensor_noise,
    "uneven_light": uneven_light,
    "underexposed": underexposed,  # dev's light squares at a median of 79 of 255
    "underexposed_badly": lambda image: underexposed(image, stops=5.0),  # at 42
    "shaken_sideways": shaken,
    "shaken_diagonally": lambda image: shaken(image, degrees=45.0),
    "cast_shadow": cast_shadow,
    "hue_plus_12": lambda image: hue_turned(image, 12.0),
    "hue_minus_12": lambda image: hue_turned(image, -12.0),
    "glare": glare,
    "hazy": hazy,
    "hazy_slightly": lambda image: hazy(image, veil=0.06),
}
# Variants that move the board in the photo: each gives the new photo and the map of old px
# to new (a 2x3 affine, or a function of (N, 2) points), by which the sidecar's pixel
# positions move too.
MOVED = {
    "half_size": lambda image, truth: shrunk(image, 0.5),
    "third_size": lambda image, truth: shrunk(image, 1 / 3),
    "tight_frame": framed_on_play_area,
    "barrel_mild": lambda image, truth: barrel_distorted(image, -0.05),
    "barrel_strong": lambda image, truth: barrel_distorted(image, -0.15),
    "turned_30": lambda image, truth: turned(image, 30.0),
    "keystone_mild": lambda image, truth: keystoned(image, 0.2),
    "keystone_strong": lambda image, truth: keystoned(image, 0.4),
    "cropped_off_centre": lambda image, truth: cropped_off_centre(image, truth["checkerboard"]["corners"]),
    "cut_through_row_one": cut_through_row_one,
}
PLAY_AREA_VARIANTS = {"tight_frame", "cut_through_row_one"}  # they need a studio sidecar's play area
# Variants that cover part of the photo: each needs the checkerboard's corners in px (the
# studio sidecar's, or the labels'); the photo's geometry and sidecar stay as they were.
OCCLUDED = {
    "arm_over_board": arm_over_board,
    "checked_table": checked_table,
}


def shrunk(image: np.ndarray, factor: float) -> tuple[np.ndarray, np.ndarray]:
    """The photo resized by ``factor`` (area averaging, as a camera bins its pixels), and the
    map of pixel centres (x' = s x + (s - 1) / 2 with s the actual ratio along each axis)."""
    out = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    sx, sy = out.shape[1] / image.shape[1], out.shape[0] / image.shape[0]
    return out, np.array([[sx, 0, (sx - 1) / 2], [0, sy, (sy - 1) / 2]])


def turned(image: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """The photo turned ``degrees`` anticlockwise on screen about its centre, the canvas grown
    to hold it all and the new corners a plain grey (a phone held at a slant, its photo
    straightened by hand), and the 2x3 affine map of old px to new."""
    h, w = image.shape[:2]
    affine = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), degrees, 1.0)
    cos, sin = abs(affine[0, 0]), abs(affine[0, 1])
    new_w, new_h = int(round(h * sin + w * cos)), int(round(h * cos + w * sin))
    affine[:, 2] += [(new_w - w) / 2, (new_h - h) / 2]
    out = cv2.warpAffine(image, affine, (new_w, new_h), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(96, 96, 96))
    return out, affine


def cropped_off_centre(image: np.ndarray, corners, margin: float = 0.08) -> tuple[np.ndarray, np.ndarray]:
    """The photo cropped by hand to the board's left and top edges (``margin`` of the board's
    extent outside them) and kept to the photo's right and bottom edges, so that the photo's
    centre is no longer where the lens pointed (the reader's camera takes it as the principal
    point), and the 2x3 affine map of old px to new."""
    corners = np.asarray(corners, np.float64)
    low, high = corners.min(axis=0), corners.max(axis=0)
    x0, y0 = np.maximum(np.floor(low - margin * (high - low)), 0).astype(int)
    return np.ascontiguousarray(image[y0:, x0:]), np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0]])


def keystoned(image: np.ndarray, squeeze: float) -> tuple[np.ndarray, object]:
    """The photo warped as an editor's perspective tool warps it: by a homography that makes
    its top edge ``squeeze`` of its width shorter (longer where negative) and keeps the bottom
    edge, so that it is no longer a photo a camera with its principal point at the centre
    takes, as the reader's camera assumes; the uncovered top corners a plain grey, and the map
    of old px to new."""
    height, width = image.shape[:2]
    inset = squeeze * width / 2
    source = np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])
    target = np.float32([[inset, 0], [width - 1 - inset, 0], [width - 1, height - 1], [0, height - 1]])
    homography = cv2.getPerspectiveTransform(source, target)
    out = cv2.warpPerspective(image, homography, (width, height), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(96, 96, 96))

    def move(points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), homography).reshape(-1, 2)

    return out, move


def barrel_distorted(image: np.ndarray, k1: float, focal: float = 0.75) -> tuple[np.ndarray, object]:
    """The photo as a lens with radial distortion ``k1`` (negative: barrel; OpenCV's model,
    focal length ``focal`` times the long side, centred) would have taken it, with nothing
    corrected, and the map of old px to new. At the corners of a 4:3 photo -0.05 moves points
    3.5% of their distance to the centre inwards, about a phone's main lens uncorrected;
    -0.15 10%, a cheap wide lens."""
    height, width = image.shape[:2]
    f = focal * max(width, height)
    camera = np.array([[f, 0, (width - 1) / 2], [0, f, (height - 1) / 2], [0, 0, 1]])
    distortion = np.array([k1, 0, 0, 0, 0], np.float64)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    seen = np.stack([xs.ravel(), ys.ravel()], axis=1)[:, None, :]
    source = cv2.undistortPoints(seen, camera, distortion, P=camera).reshape(height, width, 2)
    out = cv2.remap(image, source[..., 0], source[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def move(points: np.ndarray) -> np.ndarray:
        xy = (np.asarray(points, np.float64) - camera[:2, 2]) / f
        return xy * (1 + k1 * (xy ** 2).sum(axis=1, keepdims=True)) * f + camera[:2, 2]

    return out, move


def point_mover(mapping):
    """A function of (N, 2) points from a variant's map of old px to new (a 2x3 affine, or
    already such a function)."""
    if callable(mapping):
        return mapping
    affine = np.asarray(mapping, np.float64)
    return lambda points: np.asarray(points, np.float64) @ affine[:, :2].T + affine[:, 2]


def moved_sidecar(truth: dict, mapping, image_size: tuple[int, int]) -> dict:
    """A studio sidecar with the pixel positions evaluation uses (the checkerboard's corners,
    the square centres, the pieces' bases and tips, the parks) moved by ``mapping`` (a 2x3
    affine, or a function of (N, 2) points); ``image_size`` (w, h). The render's own records
    (``camera``, ``orientation_margin_px``) stay as rendered."""
    out = json.loads(json.dumps(truth))
    mapping = point_mover(mapping)

    def moved(xy):
        return [float(v) for v in mapping(np.asarray([xy], np.float64))[0]]
    if "checkerboard" in out:
        out["checkerboard"]["corners"] = [moved(c) for c in out["checkerboard"]["corners"]]
    out["square_centres"] = {name: moved(xy) for name, xy in out.get("square_centres", {}).items()}
    for piece in out.get("pieces", []):
        piece.update({key: moved(piece[key]) for key in ("base_px", "tip_px") if key in piece})
    for park in out.get("parks", []):
        if "px" in park:
            park["px"] = moved(park["px"])
    out["image_size"] = list(image_size)
    return out


def variant_of(name: str, image: np.ndarray, truth: dict | None = None) -> tuple[np.ndarray, object]:
    """The variant ``name`` of a photo and its map of old px to new (None: nothing moved).
    ``truth``: the studio sidecar, which ``tight_frame`` and the OCCLUDED variants need (these
    only its ``checkerboard`` corners)."""
    if name in MOVED:
        return MOVED[name](image, truth)
    if name in OCCLUDED:
        return OCCLUDED[name](image, truth["checkerboard"]["corners"]), None
    return VARIANTS[name](image), None


def write_variant(path: Path, image: np.ndarray) -> None:
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])


def write_labelled_variants(folder: Path, out: Path, variants: list[str]) -> int:
    """Variants of a folder of photos labelled in a ``labels.json`` (the real chessboards:
    ``file``, the grid's ``corners_px``, ``width`` and ``height``), each with its own
    labels.json. Tight framing and the cut through row 1 need a studio sidecar's play area
    and are left out."""
    entries = json.loads((folder / "labels.json").read_text())
    for name in variants:
        if name in PLAY_AREA_VARIANTS:
            print(f"{name}: needs a studio sidecar's play area; left out")
            continue
        target = out / name
        target.mkdir(parents=True, exist_ok=True)
        labels = []
        for entry in entries:
            truth = {"checkerboard": {"corners": entry["corners_px"]}}
            image, mapping = variant_of(name, load_photo(folder / entry["file"]), truth)
            corners = entry["corners_px"]
            if mapping is not None:
                corners = np.round(point_mover(mapping)(corners), 2).tolist()
            file = f"{Path(entry['file']).stem}.jpg"
            write_variant(target / file, image)
            labels.append({**entry, "file": file, "corners_px": corners, "width": image.shape[1],
                           "height": image.shape[0]})
        (target / "labels.json").write_text(json.dumps(labels, indent=1))
        print(f"{target}: {len(labels)} photos", flush=True)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", type=Path, help="folder of photos with sidecars, or with a labels.json")
    parser.add_argument("out", type=Path, help="folder to write one subfolder per variant into")
    every = sorted(VARIANTS) + sorted(MOVED) + sorted(OCCLUDED)
    parser.add_argument("--variants", nargs="+", choices=every, default=every)
    args = parser.parse_args(argv)
    if "test" in args.photos.parts:
        print("note: variants of the test split are for measuring only, never for tuning")
    if (args.photos / "labels.json").is_file():
        return write_labelled_variants(args.photos, args.out, args.variants)
    photos = photos_in(args.photos)
    for name in args.variants:
        folder = args.out / name
        folder.mkdir(parents=True, exist_ok=True)
        for photo in photos:
            truth = json.loads(sidecar_for(photo).read_text())
            out, mapping = variant_of(name, load_photo(photo), truth)
            if mapping is not None:
                truth = moved_sidecar(truth, mapping, (out.shape[1], out.shape[0]))
            (folder / f"{photo.stem}.json").write_text(json.dumps(truth, indent=1))
            write_variant(folder / f"{photo.stem}.jpg", out)
        print(f"{folder}: {len(photos)} photos", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
