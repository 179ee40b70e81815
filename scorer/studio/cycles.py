"""Rendering a ScenePlan with Blender's Cycles instead of Mitsuba: a second renderer, to measure
the reader on photos whose light transport and materials the square model never saw.

The same plan (geometry, textures, lights, camera) and the same phone processing; what
differs is the renderer and its materials: Blender's Principled BSDF (GGX, with some
subsurface scattering in the translucent pieces, whose walls are tinted see-through
surfaces rather than Mitsuba's thin dielectric), Blender's lights and its OpenImageDenoise.
Needs ``bpy`` (Blender as a Python module, about 0.8 GB, wheels for Python 3.11 only; not
one of the project's extras): ``pip install bpy``, in an environment of its own if its
numpy pin clashes with the project's.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import cv2
import numpy as np

from scorer.errors import UserError
from scorer.studio import meshes, textures
from scorer.studio.render import (PHONE_BODIES, TOKEN_COLOURS, board_surface, bulb_radiance, hand_matrices,
                                  placement, pyramid_matrix, table_surface, token_shape)
from scorer.studio.scene import OPAQUE_COLOURS, ScenePlan, kelvin_rgb

METAL_RGB = {"Cu": (0.95, 0.64, 0.54), "Au": (1.0, 0.78, 0.34), "Al": (0.91, 0.92, 0.92), "Ag": (0.97, 0.96, 0.91)}


def blender():
    """The ``bpy`` module; a one-line UserError when it is missing."""
    try:
        import bpy
    except ImportError as err:
        raise UserError(f"--renderer cycles needs Blender as a Python module: pip install bpy ({err})") from None
    return bpy


class _Scene:
    """Objects and materials added to Blender's (emptied) scene for one render."""

    def __init__(self, bpy, folder: Path):
        self.bpy = bpy
        self.folder = folder
        self.materials: dict[str, object] = {}
        self.textures = 0

    def add(self, name: str, mesh, matrix: np.ndarray, material, smooth: bool = False) -> None:
        """Mesh ``(vertices, faces, uv or None)`` placed by ``matrix`` (Mitsuba's uv: v down the image)."""
        from mathutils import Matrix

        vertices, faces, uv = mesh
        data = self.bpy.data.meshes.new(name)
        data.from_pydata(np.asarray(vertices, float).tolist(), [], np.asarray(faces, int).tolist())
        if uv is not None:
            layer = data.uv_layers.new(name="UVMap")
            loop_vertices = np.zeros(len(data.loops), int)
            data.loops.foreach_get("vertex_index", loop_vertices)
            coords = np.asarray(uv, float)[loop_vertices].copy()
            coords[:, 1] = 1.0 - coords[:, 1]  # Blender's v runs up the image
            layer.data.foreach_set("uv", coords.ravel())
        data.update()
        data.polygons.foreach_set("use_smooth", [smooth] * len(data.polygons))
        obj = self.bpy.data.objects.new(name, data)
        self.bpy.context.scene.collection.objects.link(obj)
        obj.matrix_world = Matrix(np.asarray(matrix, float).tolist())
        data.materials.append(material)

    def material(self, name: str):
        """A new node material and its Principled BSDF."""
        mat = self.bpy.data.materials.new(name)
        mat.use_nodes = True
        return mat, mat.node_tree.nodes["Principled BSDF"]

    def plastic(self, name: str, rgb=None, alpha: float = 0.3, texture: np.ndarray | None = None,
                repeat: float = 1.0, matte: bool = False):
        """Mitsuba's roughplastic (Beckmann ``alpha``) or, ``matte``, its diffuse, as a Principled BSDF."""
        mat, bsdf = self.material(name)
        if texture is not None:
            nodes, links = mat.node_tree.nodes, mat.node_tree.links
            self.textures += 1  # Blender reads the files at render time: one file per texture
            path = self.folder / f"{name}_{self.textures}.png"
            cv2.imwrite(str(path), cv2.cvtColor(texture, cv2.COLOR_RGB2BGR))
            image = nodes.new("ShaderNodeTexImage")
            image.image = self.bpy.data.images.load(str(path))
            image.extension = "REPEAT"
            if repeat != 1.0:
                coords, mapping = nodes.new("ShaderNodeTexCoord"), nodes.new("ShaderNodeMapping")
                mapping.inputs["Scale"].default_value = (repeat, repeat, 1.0)
                links.new(coords.outputs["UV"], mapping.inputs["Vector"])
                links.new(mapping.outputs["Vector"], image.inputs["Vector"])
            links.new(image.outputs["Color"], bsdf.inputs["Base Color"])
        else:
            bsdf.inputs["Base Color"].default_value = (*map(float, rgb), 1.0)
        bsdf.inputs["Roughness"].default_value = 1.0 if matte else math.sqrt(alpha)
        if matte:
            bsdf.inputs["Specular IOR Level"].default_value = 0.0
        return mat

    def piece(self, colour: str, plan: ScenePlan):
        """A piece's plastic: opaque, or a frosted body mixed with a thin, tinted see-through wall."""
        if colour in self.materials:
            return self.materials[colour]
        rgb = np.asarray(plan.materials["piece_rgb"][colour], float)
        mat, body = self.material(f"piece_{colour}")
        body.inputs["Base Color"].default_value = (*rgb, 1.0)
        body.inputs["Roughness"].default_value = math.sqrt(plan.materials["gloss"])
        if colour not in OPAQUE_COLOURS:
            nodes, links = mat.node_tree.nodes, mat.node_tree.links
            body.inputs["Subsurface Weight"].default_value = 0.25
            body.inputs["Subsurface Radius"].default_value = (0.004, 0.004, 0.004)
            see_through = nodes.new("ShaderNodeBsdfTransparent")
            see_through.inputs["Color"].default_value = (*np.sqrt(np.clip(rgb, 0.02, 1.0)), 1.0)
            reflection = nodes.new("ShaderNodeBsdfGlossy")
            reflection.inputs["Roughness"].default_value = 0.05
            fresnel = nodes.new("ShaderNodeFresnel")
            fresnel.inputs["IOR"].default_value = 1.49
            wall, mix = nodes.new("ShaderNodeMixShader"), nodes.new("ShaderNodeMixShader")
            links.new(fresnel.outputs["Fac"], wall.inputs["Fac"])
            links.new(see_through.outputs["BSDF"], wall.inputs[1])
            links.new(reflection.outputs["BSDF"], wall.inputs[2])
            mix.inputs["Fac"].default_value = 1.0 - plan.materials["frost"]
            links.new(body.outputs["BSDF"], mix.inputs[1])
            links.new(wall.outputs["Shader"], mix.inputs[2])
            links.new(mix.outputs["Shader"], nodes["Material Output"].inputs["Surface"])
        self.materials[colour] = mat
        return mat

    def emitter(self, name: str, radiance, one_sided: bool = False) -> object:
        """A surface giving off ``radiance``; ``one_sided``, from its front only (Mitsuba's
        rectangle emitter), its back a black diffuse surface."""
        mat = self.bpy.data.materials.new(name)
        mat.use_nodes = True
        nodes, links = mat.node_tree.nodes, mat.node_tree.links
        nodes.remove(nodes["Principled BSDF"])
        emission = nodes.new("ShaderNodeEmission")
        emission.inputs["Color"].default_value = (*map(float, radiance), 1.0)
        emission.inputs["Strength"].default_value = 1.0
        surface = emission.outputs["Emission"]
        if one_sided:
            back = nodes.new("ShaderNodeBsdfDiffuse")
            back.inputs["Color"].default_value = (0.0, 0.0, 0.0, 1.0)
            sides = nodes.new("ShaderNodeMixShader")
            links.new(nodes.new("ShaderNodeNewGeometry").outputs["Backfacing"], sides.inputs["Fac"])
            links.new(surface, sides.inputs[1])
            links.new(back.outputs["BSDF"], sides.inputs[2])
            surface = sides.outputs["Shader"]
        links.new(surface, nodes["Material Output"].inputs["Surface"])
        return mat


def _token(scene: _Scene, item) -> None:
    p = item.params
    if item.kind == "coin":
        mat, bsdf = scene.material("coin")
        bsdf.inputs["Base Color"].default_value = (*METAL_RGB[p["metal"]], 1.0)
        bsdf.inputs["Metallic"].default_value = 1.0
        bsdf.inputs["Roughness"].default_value = math.sqrt(0.18)
    elif item.kind == "glass_stone" and p["colour"] not in ("black", "white"):
        mat, bsdf = scene.material("glass")
        bsdf.inputs["Base Color"].default_value = (*TOKEN_COLOURS[p["colour"]], 1.0)
        bsdf.inputs["Transmission Weight"].default_value = 1.0
        bsdf.inputs["Roughness"].default_value = math.sqrt(0.04)
        bsdf.inputs["IOR"].default_value = 1.5
    else:
        alpha = {"glass_stone": 0.05, "chip": 0.3}.get(item.kind, 0.4)
        mat = scene.plastic(item.kind, TOKEN_COLOURS[p["colour"]], alpha)
    name, mesh, matrix = token_shape(item)
    scene.add(item.kind, mesh, matrix, mat, smooth=name == "sphere")


def _clutter(scene: _Scene, item, plan: ScenePlan) -> None:
    p = item.params
    if item.kind == "pyramid":
        matrix = pyramid_matrix(p["pips"], item.x, item.y, item.z, item.yaw, p["lying"])
        scene.add("spare", meshes.pyramid_shell(), matrix, scene.piece(p["colour"], plan))
    elif item.kind == "card":
        scene.add("card", meshes.box(), placement((item.x, item.y, item.z), item.yaw, (0.063, 0.088, 0.0003)),
                  scene.plastic("card", alpha=0.25, texture=textures.playing_card(p["texture_seed"], p["face"])))
    elif item.kind == "phone":
        scene.add("phone", meshes.box(), placement((item.x, item.y, 0.0), item.yaw, (0.072, 0.148, 0.008)),
                  scene.plastic("phone", PHONE_BODIES[p["body"]], 0.2))
        scene.add("screen", meshes.box(), placement((item.x, item.y, 0.008), item.yaw, (0.066, 0.140, 0.0004)),
                  scene.plastic("screen", (0.005, 0.005, 0.006), 0.01))
    elif item.kind == "mug":
        scene.add("mug", meshes.cylinder(), placement((item.x, item.y, 0.0), 0, (0.041, 0.041, 0.095)),
                  scene.plastic("mug", TOKEN_COLOURS.get(p["colour"], (0.7, 0.7, 0.7)), 0.1))
        scene.add("coffee", meshes.cylinder(), placement((item.x, item.y, 0.0951), 0, (0.036, 0.036, 0.0002)),
                  scene.plastic("coffee", (0.03, 0.012, 0.005), 0.01))
    elif item.kind == "hand":
        skin = scene.plastic("skin", p["skin"], 0.45)
        for matrix in hand_matrices(item):
            scene.add("hand", meshes.sphere(), matrix, skin, smooth=True)


def _look_at(origin, forward, up) -> np.ndarray:
    """A 4x4 whose -z axis points along ``forward`` and +y along ``up`` (Blender's cameras look
    down their -z)."""
    forward = np.asarray(forward, float) / np.linalg.norm(forward)
    right = np.cross(forward, up)
    right /= np.linalg.norm(right)
    matrix = np.eye(4)
    matrix[:3, 0], matrix[:3, 1], matrix[:3, 2], matrix[:3, 3] = right, np.cross(right, forward), -forward, origin
    return matrix


def _lights(scene: _Scene, plan: ScenePlan) -> None:
    """Mitsuba's emitters with the same radiance: an area light or a bulb as an emitting
    surface, a point light as a Blender point light of power 4 pi I."""
    bpy = scene.bpy
    world = bpy.data.worlds.new("world")
    bpy.context.scene.world = world
    world.use_nodes = True
    ambient = np.array(kelvin_rgb(plan.ambient["kelvin"])) * plan.ambient["radiance"]
    world.node_tree.nodes["Background"].inputs["Color"].default_value = (*map(float, ambient), 1.0)
    for i, light in enumerate(plan.lights):
        colour = np.array(kelvin_rgb(light.kelvin))
        if light.kind == "point":
            data = bpy.data.lights.new(f"light{i}", "POINT")
            data.color = tuple(map(float, colour / colour.max()))
            data.energy = float(4 * math.pi * light.power * colour.max())
            data.shadow_soft_size = 0.01
            obj = bpy.data.objects.new(f"light{i}", data)
            obj.location = light.position
            bpy.context.scene.collection.objects.link(obj)
        elif light.kind == "area":
            # Mitsuba's look_at frame: the panel's front (+z) faces the target
            forward = np.subtract(light.target, light.position)
            forward = forward / np.linalg.norm(forward)
            right = np.cross((0.0, 0.0, 1.0), forward)
            right /= np.linalg.norm(right)
            matrix = np.eye(4)
            matrix[:3, 0], matrix[:3, 1] = right * light.size / 2, np.cross(forward, right) * light.size * 0.6
            matrix[:3, 2], matrix[:3, 3] = forward, light.position
            panel = (np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0.0]]),
                     np.array([[0, 1, 2], [0, 2, 3]]), None)
            scene.add(f"light{i}", panel, matrix, scene.emitter(f"light{i}", colour * light.power, one_sided=True))
        else:
            scene.add(f"light{i}", meshes.sphere(), placement(light.position, 0, (light.size,) * 3),
                      scene.emitter(f"light{i}", colour * bulb_radiance(light)), smooth=True)


def _camera(bpy, plan: ScenePlan) -> None:
    from mathutils import Matrix

    cam = plan.camera
    data = bpy.data.cameras.new("camera")
    data.sensor_fit = "HORIZONTAL"
    data.angle_x = math.radians(cam.fov_x_deg)
    data.clip_start, data.clip_end = 0.01, 100.0
    obj = bpy.data.objects.new("camera", data)
    bpy.context.scene.collection.objects.link(obj)
    obj.matrix_world = Matrix(_look_at(cam.origin, cam.forward, cam.true_up).tolist())
    scene = bpy.context.scene
    scene.camera = obj
    scene.render.resolution_x, scene.render.resolution_y = cam.width, cam.height
    scene.render.resolution_percentage = 100


def render_linear(plan: ScenePlan, *, spp: int | None = None) -> np.ndarray:
    """Render ``plan`` with Cycles on the CPU (its denoiser on) to a linear RGB float32 image (H, W, 3)."""
    bpy = blender()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    settings = bpy.context.scene
    settings.render.engine = "CYCLES"
    settings.cycles.device = "CPU"
    settings.cycles.samples = spp or plan.spp
    settings.cycles.use_denoising = True
    settings.cycles.max_bounces = 8
    settings.view_settings.view_transform = "Standard"
    settings.render.image_settings.file_format = "OPEN_EXR"
    settings.render.image_settings.color_depth = "32"
    with tempfile.TemporaryDirectory(prefix="cycles_") as tmp:
        scene = _Scene(bpy, Path(tmp))
        table, texture, glossy = table_surface(plan)
        scene.add("table", table, np.eye(4), scene.plastic("table", alpha=0.25, texture=texture, repeat=6.0,
                                                           matte=not glossy))
        mesh, matrix, texture, finish = board_surface(plan.checkerboard)
        cloth = finish == "cloth"
        scene.add("board", mesh, matrix, scene.plastic("board", alpha=0.3 if cloth else finish, texture=texture,
                                                       matte=cloth), smooth=not plan.checkerboard.surface.is_flat)
        for piece in plan.pieces:
            scene.add("piece", meshes.pyramid_shell(), pyramid_matrix(piece.pips, piece.x, piece.y, piece.z, piece.yaw),
                      scene.piece(piece.colour, plan))
        for token in plan.tokens:
            _token(scene, token)
        for item in plan.clutter:
            _clutter(scene, item, plan)
        _lights(scene, plan)
        _camera(bpy, plan)
        out = Path(tmp) / "render.exr"
        settings.render.filepath = str(out)
        bpy.ops.render.render(write_still=True)
        image = bpy.data.images.load(str(out))
        pixels = np.empty(image.size[0] * image.size[1] * 4, np.float32)
        image.pixels.foreach_get(pixels)
        width, height = image.size
    return np.ascontiguousarray(pixels.reshape(height, width, 4)[::-1, :, :3])
