"""The renderer choice for the studio: Mitsuba 3 vs Blender's Cycles (bpy) on one small scene.

Usage: nice python benchmarks/compare_renderers.py mitsuba|bpy [SPP ...]

The scene: a 0.4 m checkerboard plane, six translucent coloured pyramids at true sizes, a point
lamp and a dim constant background, 1024x768, seen from 45 degrees. Mitsuba: path tracer,
``llvm_ad_rgb``; bpy: Cycles on CPU with its built-in denoiser. ``bpy`` is not a project
dependency (about 0.8 GB): install it into a separate virtual environment to compare.
Prints the wall time of the render call only (scene setup excluded).
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from pathlib import Path

COLOURS = [(0.9, 0.1, 0.1), (0.9, 0.8, 0.1), (0.1, 0.7, 0.2), (0.1, 0.3, 0.9), (0.6, 0.2, 0.8), (0.1, 0.8, 0.9)]
SIZES = [(0.0254, 0.0445), (0.0198, 0.0349), (0.0143, 0.0254)]  # base, height (m)


def place(i):
    base, height = SIZES[i % 3]
    return -0.1 + 0.045 * i, 0.02 * (i % 2), base, height


def mitsuba_seconds(spp: int) -> float:
    import mitsuba as mi
    import numpy as np

    from scorer.studio import meshes

    mi.set_variant("llvm_ad_rgb")
    folder = Path(tempfile.mkdtemp())
    meshes.write_ply(folder / "pyramid.ply", meshes.pyramid_shell(0.0))
    T = mi.ScalarTransform4f
    scene = {
        "type": "scene", "integrator": {"type": "path", "max_depth": 8},
        "sensor": {"type": "perspective", "fov": 50,
                   "to_world": T().look_at(origin=[0, -0.35, 0.45], target=[0, 0, 0], up=[0, 0, 1]),
                   "film": {"type": "hdrfilm", "width": 1024, "height": 768},
                   "sampler": {"type": "independent", "sample_count": spp}},
        "env": {"type": "constant", "radiance": 0.3},
        "lamp": {"type": "point", "position": [0.3, -0.2, 0.6], "intensity": 2.0},
        "board": {"type": "rectangle", "to_world": T().scale([0.2, 0.2, 1]),
                  "bsdf": {"type": "diffuse", "reflectance": {"type": "checkerboard", "color0": 0.2, "color1": 0.8,
                                                               "to_uv": mi.ScalarTransform3f().scale([4, 4])}}},
    }
    for i, c in enumerate(COLOURS):
        x, y, base, height = place(i)
        scene[f"p{i}"] = {
            "type": "ply", "filename": str(folder / "pyramid.ply"), "face_normals": True,
            "to_world": T().translate([x, y, 0]) @ T().scale([base, base, height]),
            "bsdf": {"type": "blendbsdf", "weight": 0.7,
                     "bsdf_0": {"type": "roughplastic", "diffuse_reflectance": {"type": "rgb", "value": c}},
                     "bsdf_1": {"type": "thindielectric", "specular_transmittance": {"type": "rgb", "value": c}}}}
    loaded = mi.load_dict(scene)
    started = time.perf_counter()
    np.array(mi.render(loaded))
    return time.perf_counter() - started


def bpy_seconds(spp: int) -> float:
    import bpy

    bpy.ops.wm.read_factory_settings(use_empty=True)
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    sc.cycles.device = "CPU"
    sc.cycles.samples = spp
    sc.cycles.use_denoising = True
    sc.render.resolution_x, sc.render.resolution_y, sc.render.resolution_percentage = 1024, 768, 100
    bpy.ops.mesh.primitive_plane_add(size=0.4)
    material = bpy.data.materials.new("board")
    material.use_nodes = True
    checker = material.node_tree.nodes.new("ShaderNodeTexChecker")
    checker.inputs["Scale"].default_value = 4
    material.node_tree.links.new(checker.outputs["Color"], material.node_tree.nodes["Principled BSDF"].inputs["Base Color"])
    bpy.context.object.data.materials.append(material)
    for i, c in enumerate(COLOURS):
        x, y, base, height = place(i)
        bpy.ops.mesh.primitive_cone_add(vertices=4, radius1=base / math.sqrt(2), depth=height,
                                        location=(x, y, height / 2), rotation=(0, 0, math.pi / 4))
        m = bpy.data.materials.new(f"p{i}")
        m.use_nodes = True
        p = m.node_tree.nodes["Principled BSDF"]
        p.inputs["Base Color"].default_value = (*c, 1)
        p.inputs["Transmission Weight"].default_value = 0.8
        p.inputs["Roughness"].default_value = 0.2
        bpy.context.object.data.materials.append(m)
    bpy.ops.object.light_add(type="POINT", location=(0.3, -0.2, 0.6))
    bpy.context.object.data.energy = 30
    world = bpy.data.worlds.new("world")
    sc.world = world
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.3
    bpy.ops.object.camera_add(location=(0, -0.35, 0.45))
    camera = bpy.context.object
    sc.camera = camera
    camera.rotation_euler = (math.atan2(0.35, 0.45), 0, 0)
    camera.data.angle = math.radians(50)
    sc.render.filepath = str(Path(tempfile.mkdtemp()) / "bpy.png")
    started = time.perf_counter()
    bpy.ops.render.render(write_still=True)
    return time.perf_counter() - started


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "mitsuba"
    for spp in [int(s) for s in sys.argv[2:]] or [16, 32]:
        seconds = (mitsuba_seconds if which == "mitsuba" else bpy_seconds)(spp)
        print(f"{which} {spp} spp, 1024x768: {seconds:.1f} s")
