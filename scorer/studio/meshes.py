"""Triangle meshes as numpy arrays, and a PLY writer the renderer loads them from.

A mesh is (vertices (N, 3) float, faces (M, 3) int, texcoords (N, 2) float or None).
Texture coordinates follow the textures' convention: (0, 0) is the image's top-left.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

Mesh = tuple[np.ndarray, np.ndarray, "np.ndarray | None"]


def write_ply(path: str | Path, mesh: Mesh) -> Path:
    """Binary little-endian PLY with optional per-vertex u, v."""
    vertices, faces, uv = mesh
    vertices = np.asarray(vertices, np.float32)
    faces = np.asarray(faces, np.int32)
    header = ["ply", "format binary_little_endian 1.0", f"element vertex {len(vertices)}",
              "property float x", "property float y", "property float z"]
    data = vertices
    if uv is not None:
        header += ["property float u", "property float v"]
        data = np.hstack([vertices, np.asarray(uv, np.float32)])
    header += [f"element face {len(faces)}", "property list uchar int vertex_indices", "end_header"]
    face_rec = np.zeros(len(faces), dtype=[("n", "u1"), ("i", "<i4", (3,))])
    face_rec["n"] = 3
    face_rec["i"] = faces
    path = Path(path)
    with open(path, "wb") as out:
        out.write(("\n".join(header) + "\n").encode())
        out.write(np.ascontiguousarray(data, dtype="<f4").tobytes())
        out.write(face_rec.tobytes())
    return path


def pyramid_shell(tip_rounding: float = 0.04) -> Mesh:
    """A hollow square pyramid, open at the base: base [-0.5, 0.5]^2 at z=0, tip at z=1.
    The tip is slightly blunted (pieces made since 2016 have rounded tips)."""
    base = np.array([[-0.5, -0.5, 0], [0.5, -0.5, 0], [0.5, 0.5, 0], [-0.5, 0.5, 0]], float)
    apex = np.array([0, 0, 1.0])
    ring = base + (apex - base) * (1 - tip_rounding)
    top = np.array([0, 0, 1 - tip_rounding * 0.4])
    vertices = np.vstack([base, ring, top])
    faces = []
    for i in range(4):
        j = (i + 1) % 4
        faces += [[i, j, 4 + j], [i, 4 + j, 4 + i], [4 + i, 4 + j, 8]]
    return vertices, np.array(faces), None


def box(uv_top: bool = True) -> Mesh:
    """A closed box [-0.5, 0.5]^2 x [0, 1]; the top face carries the whole texture."""
    corners = np.array([[x, y, z] for z in (0, 1) for y in (-0.5, 0.5) for x in (-0.5, 0.5)], float)
    quads = [(4, 5, 7, 6), (0, 2, 3, 1), (0, 1, 5, 4), (1, 3, 7, 5), (3, 2, 6, 7), (2, 0, 4, 6)]
    vertices, faces, uv = [], [], []
    for qi, quad in enumerate(quads):
        n = len(vertices)
        for k in quad:
            v = corners[k]
            vertices.append(v)
            uv.append((v[0] + 0.5, 0.5 - v[1]) if qi == 0 else (0.002, 0.002))
        faces += [[n, n + 1, n + 2], [n, n + 2, n + 3]]
    return np.array(vertices), np.array(faces), (np.array(uv) if uv_top else None)


def cylinder(segments: int = 40) -> Mesh:
    """A closed cylinder of radius 1 from z=0 to z=1 (coins, chips, discs, mugs)."""
    a = np.linspace(0, 2 * math.pi, segments, endpoint=False)
    ring = np.stack([np.cos(a), np.sin(a)], axis=1)
    bottom = np.hstack([ring, np.zeros((segments, 1))])
    top = np.hstack([ring, np.ones((segments, 1))])
    vertices = np.vstack([bottom, top, [[0, 0, 0], [0, 0, 1]]])
    cb, ct = 2 * segments, 2 * segments + 1
    faces = []
    for i in range(segments):
        j = (i + 1) % segments
        faces += [[i, j, segments + j], [i, segments + j, segments + i], [cb, j, i], [ct, segments + i, segments + j]]
    uv = np.vstack([(ring + 1) / 2 * [1, -1] + [0, 1], (ring + 1) / 2 * [1, -1] + [0, 1], [[0.5, 0.5], [0.5, 0.5]]])
    return vertices, np.array(faces), uv


def sphere(n_lat: int = 16, n_lon: int = 32) -> Mesh:
    """A unit sphere centred at the origin."""
    verts = [[0, 0, -1.0]]
    for i in range(1, n_lat):
        t = -math.pi / 2 + math.pi * i / n_lat
        for j in range(n_lon):
            p = 2 * math.pi * j / n_lon
            verts.append([math.cos(t) * math.cos(p), math.cos(t) * math.sin(p), math.sin(t)])
    verts.append([0, 0, 1.0])
    top = len(verts) - 1
    faces = []
    for j in range(n_lon):
        faces.append([0, 1 + (j + 1) % n_lon, 1 + j])
    for i in range(n_lat - 2):
        r0, r1 = 1 + i * n_lon, 1 + (i + 1) * n_lon
        for j in range(n_lon):
            k = (j + 1) % n_lon
            faces += [[r0 + j, r0 + k, r1 + k], [r0 + j, r1 + k, r1 + j]]
    last = 1 + (n_lat - 2) * n_lon
    for j in range(n_lon):
        faces.append([last + j, last + (j + 1) % n_lon, top])
    return np.array(verts), np.array(faces), None


def height_grid(width: float, height: float, z_of_xy, step: float, thickness: float = 0.0) -> Mesh:
    """A grid over [-w/2, w/2] x [-h/2, h/2] lifted by ``z_of_xy(x, y)``; texcoords span it
    (top-left of the texture at (-w/2, +h/2))."""
    nx = max(2, int(math.ceil(width / step)) + 1)
    ny = max(2, int(math.ceil(height / step)) + 1)
    xs = np.linspace(-width / 2, width / 2, nx)
    ys = np.linspace(-height / 2, height / 2, ny)
    gx, gy = np.meshgrid(xs, ys)
    gz = thickness + np.asarray(z_of_xy(gx, gy), float)
    vertices = np.stack([gx, gy, gz], axis=-1).reshape(-1, 3)
    uv = np.stack([(gx + width / 2) / width, (height / 2 - gy) / height], axis=-1).reshape(-1, 2)
    idx = np.arange(nx * ny).reshape(ny, nx)
    a, b, c, d = idx[:-1, :-1], idx[:-1, 1:], idx[1:, 1:], idx[1:, :-1]
    faces = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([a, c, d], -1).reshape(-1, 3)])
    return vertices, faces, uv
