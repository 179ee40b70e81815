"""Rendering a ScenePlan with Mitsuba 3 (``pip install -e .[studio]``).

The first variant that starts is used: ``cuda_ad_rgb`` on a machine with an NVIDIA GPU, else
the fast CPU variant ``llvm_ad_rgb`` (needs Debian's ``libllvm19``), else ``scalar_rgb``
(slower); all three draw the same pictures. Renders are linear RGB float arrays.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import cv2
import numpy as np

from scorer.errors import UserError
from scorer.studio import meshes, textures
from scorer.studio.scene import OPAQUE_COLOURS, PYRAMID_SIZES, BoardSpec, ScenePlan, kelvin_rgb

_MI = None


def mitsuba():
    """The mitsuba module with its fastest working variant set; a one-line UserError when it
    is missing."""
    global _MI
    if _MI is not None:
        return _MI
    try:
        import mitsuba as mi
    except ImportError as err:
        raise UserError("the studio needs the renderer: pip install -e '.[studio]' "
                        f"(and apt-get install libllvm19 for the fast variant): {err}") from None
    for variant in ("cuda_ad_rgb", "llvm_ad_rgb", "scalar_rgb"):
        try:
            mi.set_variant(variant)
            mi.load_dict({"type": "scene", "s": {"type": "sphere"}})
            break
        except Exception:  # no CUDA device, or no suitable libLLVM
            continue
    else:
        raise UserError("mitsuba is installed but none of its variants starts")
    _MI = mi
    return mi


def placement(translate=(0, 0, 0), yaw_deg=0.0, scale=(1, 1, 1), pre=None) -> np.ndarray:
    """The 4x4 placing a unit mesh: translate @ rot_z(yaw) @ pre @ scale."""
    c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    rot = np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])
    tr = np.eye(4)
    tr[:3, 3] = translate
    sc = np.diag([*scale, 1.0])
    return tr @ rot @ (pre if pre is not None else np.eye(4)) @ sc


def _rgb(value) -> dict:
    return {"type": "rgb", "value": [float(x) for x in value]}


class _Assets:
    """Meshes and textures written to a scratch folder for one render."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._count = 0

    def mesh(self, name: str, mesh) -> str:
        path = self.folder / f"{name}.ply"
        if not path.exists():
            meshes.write_ply(path, mesh)
        return str(path)

    def image(self, name: str, rgb: np.ndarray) -> str:
        path = self.folder / f"{name}.png"
        cv2.imwrite(str(path), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
        return str(path)

    def unique(self, stem: str) -> str:
        self._count += 1
        return f"{stem}_{self._count}"


def _piece_bsdf(colour: str, plan: ScenePlan) -> dict:
    rgb = plan.materials["piece_rgb"][colour]
    gloss = plan.materials["gloss"]
    body = {"type": "twosided", "bsdf": {"type": "roughplastic", "diffuse_reflectance": _rgb(rgb), "alpha": gloss}}
    if colour in OPAQUE_COLOURS:
        return body
    see_through = {"type": "thindielectric", "int_ior": 1.49,
                   "specular_transmittance": _rgb(np.sqrt(np.clip(rgb, 0.02, 1.0)))}
    return {"type": "blendbsdf", "weight": 1.0 - plan.materials["frost"], "bsdf_0": body, "bsdf_1": see_through}


def pyramid_matrix(pips: int, x, y, z, yaw, lying=False) -> np.ndarray:
    """The 4x4 placing the unit pyramid shell (``meshes.pyramid_shell``) as a piece of ``pips``
    standing at (x, y, z), or lying on one face."""
    base, height = PYRAMID_SIZES[pips]
    pre = None
    if lying:  # on one face: turn about x until that face's normal points down
        gamma = math.atan2(height, base / 2)
        beta = math.pi - gamma
        c, s = math.cos(beta), math.sin(beta)
        pre = np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1.0]])
        key = pre @ np.diag([base, base, height, 1.0]) @ np.array(
            [[-.5, -.5, 0, 1], [.5, -.5, 0, 1], [.5, .5, 0, 1], [-.5, .5, 0, 1], [0, 0, 1, 1]]).T
        z = z - key[2].min()
    return placement((x, y, z), yaw, (base, base, height), pre)


def _pyramid(assets: _Assets, pips: int, x, y, z, yaw, bsdf, lying=False) -> dict:
    m = pyramid_matrix(pips, x, y, z, yaw, lying)
    return {"type": "ply", "filename": assets.mesh("pyramid", meshes.pyramid_shell()), "face_normals": True,
            "to_world": mitsuba().ScalarTransform4f(m.tolist()), "bsdf": bsdf}


def board_surface(spec: BoardSpec) -> tuple:
    """The checkerboard as ``(mesh, matrix, texture_rgb, finish)``: finish ``"cloth"`` (matte)
    or the roughness (Beckmann alpha) of a printed, vinyl or wooden board's plastic finish."""
    st = spec.style
    if spec.kind == "bandanna":
        size = 2 * spec.border + 8 * spec.square
        tex = textures.bandanna(st["texture_seed"], st["variant"], cloth_m=size, square_m=spec.square)
        mesh = meshes.height_grid(size, size, spec.surface, step=0.003, thickness=spec.thickness)
        return mesh, np.eye(4), tex, "cloth"
    kind = "vinyl" if spec.kind == "vinyl" else ("wood" if spec.kind == "wood" else "printed")
    tex = textures.printed_board(st["texture_seed"], st["palette"], spec.rows, spec.cols, spec.square,
                                 spec.border, st.get("labels", False), kind)
    w = spec.cols * spec.square + 2 * spec.border
    h = spec.rows * spec.square + 2 * spec.border
    alpha = {"vinyl": 0.35, "wood": 0.12, "printed": 0.3}[kind]
    if not spec.surface.is_flat:
        return meshes.height_grid(w, h, spec.surface, step=0.005, thickness=spec.thickness), np.eye(4), tex, alpha
    return meshes.box(), placement((0, 0, 0), 0, (w, h, spec.thickness)), tex, alpha


def _board_shapes(assets: _Assets, spec: BoardSpec) -> dict:
    mesh, matrix, tex, finish = board_surface(spec)
    if finish == "cloth":
        bsdf = {"type": "diffuse", "reflectance": {"type": "bitmap", "filename": assets.image("bandanna", tex)}}
        return {"board": {"type": "ply", "filename": assets.mesh("cloth", mesh), "bsdf": bsdf}}
    bsdf = {"type": "roughplastic", "alpha": finish,
            "diffuse_reflectance": {"type": "bitmap", "filename": assets.image("boardtex", tex)}}
    if not spec.surface.is_flat:
        return {"board": {"type": "ply", "filename": assets.mesh("mat", mesh), "bsdf": bsdf}}
    return {"board": {"type": "ply", "filename": assets.mesh("box", mesh), "face_normals": True,
                      "to_world": mitsuba().ScalarTransform4f(matrix.tolist()), "bsdf": bsdf}}


TOKEN_COLOURS = {"red": (0.55, 0.04, 0.04), "blue": (0.03, 0.08, 0.45), "green": (0.04, 0.3, 0.06),
                 "black": (0.02, 0.02, 0.02), "white": (0.8, 0.8, 0.78), "yellow": (0.8, 0.6, 0.03),
                 "wood": (0.45, 0.27, 0.12), "clear": (0.9, 0.92, 0.9)}


def token_shape(item) -> tuple[str, tuple, np.ndarray]:
    """A park marker ``item`` as ``(mesh name, mesh, matrix)``: a coin, chip or round token is
    a cylinder, a glass stone a flattened sphere, a square token a box."""
    p = item.params
    r, h = p["radius"], p["height"]
    if item.kind == "glass_stone":
        return "sphere", meshes.sphere(), placement((item.x, item.y, item.z + h / 2), item.yaw, (r, r, h / 2))
    if item.kind == "token" and p["shape"] == "cube":
        return "box", meshes.box(), placement((item.x, item.y, item.z), item.yaw, (2 * r, 2 * r, h))
    return "cylinder", meshes.cylinder(), placement((item.x, item.y, item.z), item.yaw, (r, r, h))


PHONE_BODIES = {"black": (0.02, 0.02, 0.02), "white": (0.75, 0.75, 0.75), "blue": (0.05, 0.1, 0.3),
                "silver": (0.5, 0.5, 0.52)}


def _token(assets: _Assets, item) -> dict:
    p = item.params
    if item.kind == "coin":
        bsdf = {"type": "roughconductor", "material": p["metal"], "alpha": 0.18}
    elif item.kind == "glass_stone":
        colour = TOKEN_COLOURS[p["colour"]]
        if p["colour"] in ("black", "white"):
            bsdf = {"type": "roughplastic", "diffuse_reflectance": _rgb(colour), "alpha": 0.05}
        else:
            bsdf = {"type": "roughdielectric", "alpha": 0.04, "int_ior": 1.5, "specular_transmittance": _rgb(colour)}
    elif item.kind == "chip":
        bsdf = {"type": "roughplastic", "diffuse_reflectance": _rgb(TOKEN_COLOURS[p["colour"]]), "alpha": 0.3}
    else:
        bsdf = {"type": "roughplastic", "diffuse_reflectance": _rgb(TOKEN_COLOURS[p["colour"]]), "alpha": 0.4}
    name, mesh, m = token_shape(item)
    return {"type": "ply", "filename": assets.mesh(name, mesh), "face_normals": name != "sphere",
            "to_world": mitsuba().ScalarTransform4f(m.tolist()), "bsdf": bsdf}


def _clutter(assets: _Assets, item, plan: ScenePlan) -> dict[str, dict]:
    mi = mitsuba()
    p = item.params
    out = {}
    T = mi.ScalarTransform4f
    if item.kind == "pyramid":
        out[assets.unique("spare")] = _pyramid(assets, p["pips"], item.x, item.y, item.z, item.yaw,
                                               _piece_bsdf(p["colour"], plan), p["lying"])
    elif item.kind == "card":
        tex = textures.playing_card(p["texture_seed"], p["face"])
        m = placement((item.x, item.y, item.z), item.yaw, (0.063, 0.088, 0.0003))
        out[assets.unique("card")] = {
            "type": "ply", "filename": assets.mesh("box", meshes.box()), "face_normals": True, "to_world": T(m.tolist()),
            "bsdf": {"type": "roughplastic", "alpha": 0.25,
                     "diffuse_reflectance": {"type": "bitmap", "filename": assets.image(assets.unique("cardtex"), tex)}}}
    elif item.kind == "phone":
        body = PHONE_BODIES[p["body"]]
        m = placement((item.x, item.y, 0.0), item.yaw, (0.072, 0.148, 0.008))
        out[assets.unique("phone")] = {"type": "ply", "filename": assets.mesh("box", meshes.box()), "face_normals": True, "to_world": T(m.tolist()),
                                       "bsdf": {"type": "roughplastic", "diffuse_reflectance": _rgb(body), "alpha": 0.2}}
        m = placement((item.x, item.y, 0.008), item.yaw, (0.066, 0.140, 0.0004))
        out[assets.unique("screen")] = {"type": "ply", "filename": assets.mesh("box", meshes.box()), "face_normals": True, "to_world": T(m.tolist()),
                                        "bsdf": {"type": "plastic", "diffuse_reflectance": _rgb((0.005, 0.005, 0.006))}}
    elif item.kind == "mug":
        m = placement((item.x, item.y, 0.0), 0, (0.041, 0.041, 0.095))
        out[assets.unique("mug")] = {"type": "ply", "filename": assets.mesh("cylinder", meshes.cylinder()), "face_normals": True, "to_world": T(m.tolist()),
                                     "bsdf": {"type": "roughplastic", "diffuse_reflectance": _rgb(TOKEN_COLOURS.get(p["colour"], (0.7, 0.7, 0.7))), "alpha": 0.1}}
        m = placement((item.x, item.y, 0.0951), 0, (0.036, 0.036, 0.0002))
        out[assets.unique("coffee")] = {"type": "ply", "filename": assets.mesh("cylinder", meshes.cylinder()), "face_normals": True, "to_world": T(m.tolist()),
                                        "bsdf": {"type": "plastic", "diffuse_reflectance": _rgb((0.03, 0.012, 0.005))}}
    elif item.kind == "hand":
        skin = {"type": "roughplastic", "diffuse_reflectance": _rgb(p["skin"]), "alpha": 0.45}
        sph = assets.mesh("sphere", meshes.sphere())
        for m in hand_matrices(item):
            out[assets.unique("hand")] = {"type": "ply", "filename": sph, "to_world": T(m.tolist()), "bsdf": skin}
    return out


def hand_matrices(item) -> list[np.ndarray]:
    """The 4x4s placing the unit sphere (``meshes.sphere``) as the parts of a hand ``item``:
    palm, forearm, four fingers and thumb."""
    c, s = math.cos(math.radians(item.yaw)), math.sin(math.radians(item.yaw))
    # (dx, dy, half-length, half-width, half-height, turn) in the hand's frame: fingers point
    # along +x to the fingertips at (0, 0)
    parts = [(-0.135, 0.0, 0.05, 0.043, 0.015, 0.0), (-0.33, 0.0, 0.16, 0.038, 0.028, 0.0)]
    for k, off in enumerate((-0.027, -0.009, 0.009, 0.027)):
        length = (0.030, 0.040, 0.042, 0.037)[k]  # little finger .. index finger
        parts.append((-0.085 + length - (0.042 - length), off, length, 0.0085, 0.008, 0.0))
    parts.append((-0.1, 0.052, 0.032, 0.011, 0.01, 40.0))  # thumb
    return [placement((item.x + c * dx - s * dy, item.y + s * dx + c * dy, az * 0.9), item.yaw + turn, (ax, ay, az))
            for dx, dy, ax, ay, az, turn in parts]


def _lights(plan: ScenePlan) -> dict:
    mi = mitsuba()
    out = {"ambient": {"type": "constant", "radiance": _rgb(np.array(kelvin_rgb(plan.ambient["kelvin"])) * plan.ambient["radiance"])}}
    for i, light in enumerate(plan.lights):
        colour = np.array(kelvin_rgb(light.kelvin))
        if light.kind == "point":
            out[f"light{i}"] = {"type": "point", "position": list(light.position), "intensity": _rgb(colour * light.power)}
        elif light.kind == "area":
            to_world = mi.ScalarTransform4f().look_at(origin=list(light.position), target=list(light.target), up=[0, 0, 1])
            to_world = to_world @ mi.ScalarTransform4f().scale([light.size / 2, light.size * 0.6, 1])
            out[f"light{i}"] = {"type": "rectangle", "to_world": to_world,
                                "emitter": {"type": "area", "radiance": _rgb(colour * light.power)}}
        else:
            out[f"light{i}"] = {"type": "sphere", "center": list(light.position), "radius": light.size,
                                "emitter": {"type": "area", "radiance": _rgb(colour * bulb_radiance(light))}}
    return out


def bulb_radiance(light) -> float:
    """The radiance of a ``"sphere"`` light's surface: ``power`` sets its irradiance at the
    board's centre, whatever its size and distance."""
    d2 = sum(c * c for c in light.position)
    return light.power * 0.25 * d2 / (math.pi * light.size ** 2)


def table_surface(plan: ScenePlan) -> tuple:
    """The table as ``(mesh, texture_rgb, glossy)``: a 6 m plane just under the board, its
    texture repeated every metre; a laminate, formica or dark wood top is glossy (roughplastic,
    alpha 0.25), the others matte."""
    mesh = meshes.height_grid(6.0, 6.0, lambda x, y: np.full_like(x, -0.0002), step=6.0)
    texture = textures.table_top(plan.table["texture_seed"], plan.table["kind"])
    return mesh, texture, plan.table["kind"] in ("white_laminate", "formica", "dark_wood")


def scene_dict(plan: ScenePlan, folder: Path, *, integrator: dict | None = None, spp: int | None = None,
               width: int | None = None, height: int | None = None, clutter: bool = True,
               objects: bool = True) -> dict:
    """The Mitsuba scene description of ``plan`` (assets written under ``folder``)."""
    mi = mitsuba()
    assets = _Assets(folder)
    cam = plan.camera
    width = width or cam.width
    height = height or cam.height
    scene = {
        "type": "scene",
        "integrator": integrator or {"type": "aov", "aovs": "albedo:albedo,nn:sh_normal",
                                     "integrator": {"type": "path", "max_depth": 6}},
        "sensor": {
            "type": "perspective", "fov": cam.fov_x_deg, "fov_axis": "x", "near_clip": 0.01, "far_clip": 100.0,
            "to_world": mi.ScalarTransform4f().look_at(origin=list(cam.origin), target=list(cam.target), up=list(cam.up)),
            "film": {"type": "hdrfilm", "width": width, "height": height, "pixel_format": "rgb",
                     "rfilter": {"type": "box"}},  # OIDN needs uncorrelated pixel noise
            "sampler": {"type": "independent", "sample_count": spp or plan.spp},
        },
    }
    table_mesh, table_tex, glossy = table_surface(plan)
    scene["table"] = {"type": "ply", "filename": assets.mesh("table", table_mesh),
                      "bsdf": {"type": "roughplastic" if glossy else "diffuse",
                               **({"alpha": 0.25} if glossy else {}),
                               ("diffuse_reflectance" if glossy else "reflectance"): {
                                   "type": "bitmap", "filename": assets.image("tabletex", table_tex),
                                   "to_uv": mi.ScalarTransform3f().scale([6, 6])}}}
    scene.update(_board_shapes(assets, plan.checkerboard))
    for i, piece in enumerate(plan.pieces if objects else ()):
        scene[f"piece{i}"] = _pyramid(assets, piece.pips, piece.x, piece.y, piece.z, piece.yaw,
                                      _piece_bsdf(piece.colour, plan))
    for i, token in enumerate(plan.tokens if objects else ()):
        scene[f"token{i}"] = _token(assets, token)
    if clutter and objects:
        for item in plan.clutter:
            scene.update(_clutter(assets, item, plan))
    scene.update(_lights(plan))
    return scene


def _channels(sensor) -> dict[str, np.ndarray]:
    bitmap = sensor.film().bitmap(raw=False)
    return {name: np.array(b, dtype=np.float32) for name, b in bitmap.split()}


def render_linear(plan: ScenePlan, *, spp: int | None = None, denoise: bool = True) -> np.ndarray:
    """Render ``plan`` to a linear RGB float32 image (H, W, 3), denoised with OIDN when available."""
    mi = mitsuba()
    with tempfile.TemporaryDirectory(prefix="studio_") as tmp:
        scene = mi.load_dict(scene_dict(plan, Path(tmp), spp=spp))
        mi.render(scene)
        ch = _channels(scene.sensors()[0])
    colour = _pick(ch, "integrator", "<root>")  # the aov integrator names the inner render "integrator"
    if denoise:
        try:
            import pyoidn
        except ImportError:
            pyoidn = None
        if pyoidn is not None:
            albedo = np.clip(_pick(ch, "albedo"), 0, 1).astype(np.float32)
            normal = np.clip(_pick(ch, "nn"), -1, 1).astype(np.float32)
            colour = pyoidn.denoise(np.ascontiguousarray(colour, np.float32), albedo, normal, hdr=True,
                                    quality="balanced")
        else:
            colour = cv2.bilateralFilter(colour.astype(np.float32), 5, 0.1, 3)
    return np.asarray(colour, np.float32)


def _pick(channels: dict, *names) -> np.ndarray:
    for name in names:
        if name in channels:
            arr = channels[name]
            return arr[..., :3] if arr.ndim == 3 else arr
    raise KeyError(f"render lacks channel {names}; has {sorted(channels)}")


def render_aov(plan: ScenePlan, aovs: str, *, spp: int = 16, width: int | None = None,
               height: int | None = None, clutter: bool = False, objects: bool = True) -> dict[str, np.ndarray]:
    """Render only arbitrary output variables (e.g. ``"uv:uv,dd:depth"``) of ``plan``;
    ``objects=False`` leaves out pieces, tokens and clutter (the bare board and table)."""
    mi = mitsuba()
    with tempfile.TemporaryDirectory(prefix="studio_") as tmp:
        integrator = {"type": "aov", "aovs": aovs}
        scene = mi.load_dict(scene_dict(plan, Path(tmp), integrator=integrator, spp=spp,
                                        width=width, height=height, clutter=clutter, objects=objects))
        mi.render(scene)
        return _channels(scene.sensors()[0])
