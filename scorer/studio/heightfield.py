"""Cloth and mat surfaces that are not flat: a sum of wrinkles, folds and gentle waves."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Ridge:
    """A wrinkle or fold: a raised (or sunken) line segment with a smooth cross-section."""

    x: float
    y: float
    angle: float  # radians, direction of the ridge line
    half_length: float
    width: float
    amplitude: float


@dataclass(frozen=True)
class Wave:
    """A long gentle undulation (cloth laid loosely, a mat that remembers being rolled)."""

    kx: float
    ky: float
    phase: float
    amplitude: float


@dataclass(frozen=True)
class HeightField:
    """Surface height above the board's rest plane (metres), a smooth function of (x, y)."""

    ridges: tuple[Ridge, ...] = ()
    waves: tuple[Wave, ...] = ()
    extra: dict = field(default_factory=dict)

    @property
    def is_flat(self) -> bool:
        return not self.ridges and not self.waves

    def __call__(self, x, y) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        z = np.zeros(np.broadcast(x, y).shape)
        for r in self.ridges:
            c, s = math.cos(r.angle), math.sin(r.angle)
            along = (x - r.x) * c + (y - r.y) * s
            across = -(x - r.x) * s + (y - r.y) * c
            taper = np.clip(1.0 - (np.abs(along) / r.half_length) ** 2, 0.0, 1.0)
            z += r.amplitude * taper * np.exp(-((across / r.width) ** 2))
        for w in self.waves:
            z += w.amplitude * np.sin(w.kx * x + w.ky * y + w.phase)
        return z

    def to_dict(self) -> dict:
        return {"ridges": len(self.ridges), "waves": len(self.waves),
                "max_height_mm": round(1000 * float(self.extra.get("max_height", 0.0)), 2)}


def random_cloth(rng: random.Random, half_size: float, strength: float) -> HeightField:
    """Wrinkles and folds of a cloth laid on a table; ``strength`` 0 (ironed) .. 1 (crumpled)."""
    ridges = []
    for _ in range(int(round(2 + 10 * strength * rng.random()))):
        ridges.append(Ridge(
            x=rng.uniform(-half_size, half_size), y=rng.uniform(-half_size, half_size),
            angle=rng.uniform(0, math.pi), half_length=rng.uniform(0.04, 0.25),
            width=rng.uniform(0.004, 0.02), amplitude=rng.uniform(0.0008, 0.0045) * (0.4 + strength),
        ))
    if rng.random() < 0.5:  # a fold line across the whole cloth, from being kept folded
        ridges.append(Ridge(x=0.0, y=0.0, angle=rng.choice([0.0, math.pi / 2]) + rng.gauss(0, 0.03),
                            half_length=half_size * 1.6, width=rng.uniform(0.002, 0.005),
                            amplitude=rng.choice([-1, 1]) * rng.uniform(0.0008, 0.002)))
    waves = [Wave(kx=rng.gauss(0, 12), ky=rng.gauss(0, 12), phase=rng.uniform(0, 2 * math.pi),
                  amplitude=rng.uniform(0.0003, 0.0015) * strength) for _ in range(3)]
    return _with_extent(HeightField(tuple(ridges), tuple(waves)), half_size)


def random_mat(rng: random.Random, half_size: float) -> HeightField:
    """A vinyl mat's gentle waves from being rolled up."""
    axis = rng.choice([(1, 0), (0, 1)])
    k = rng.uniform(6, 14)
    waves = (Wave(kx=k * axis[0], ky=k * axis[1], phase=rng.uniform(0, 6.3), amplitude=rng.uniform(0.0005, 0.002)),)
    return _with_extent(HeightField((), waves), half_size)


def _with_extent(field_: HeightField, half_size: float) -> HeightField:
    g = np.linspace(-half_size, half_size, 64)
    z = field_(g[:, None], g[None, :])
    lift = max(0.0, -float(z.min()))  # keep the cloth above the table it lies on
    return HeightField(field_.ridges, field_.waves + ((Wave(0.0, 0.0, math.pi / 2, lift),) if lift else ()),
                       {"max_height": float(z.max()) + lift})
