"""One photo end to end: plan -> render -> develop -> JPEG + ground-truth sidecar."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from scorer.studio.post import develop, encode_jpeg
from scorer.studio.render import render_linear
from scorer.studio.scene import ScenePlan, kelvin_rgb, plan_scene
from scorer.studio.truth import sidecar


def dominant_light_rgb(plan: ScenePlan) -> np.ndarray:
    """The colour a camera's auto white balance would see: lights weighted by power."""
    total = np.array(kelvin_rgb(plan.ambient["kelvin"])) * 0.3
    for light in plan.lights:
        weight = 1.0 if light.kind != "area" else 0.7
        total = total + weight * np.array(kelvin_rgb(light.kelvin))
    return total / total[1]


RENDERERS = ("mitsuba", "cycles")


def make_photo(plan: ScenePlan, *, spp: int | None = None, renderer: str = "mitsuba") -> tuple[bytes, dict]:
    """Render ``plan`` with Mitsuba or (``renderer="cycles"``) Blender's Cycles; returns the
    JPEG bytes and its sidecar (with render timing)."""
    if renderer not in RENDERERS:
        raise ValueError(f"unknown renderer {renderer!r}; known: {', '.join(RENDERERS)}")
    started = time.perf_counter()
    if renderer == "cycles":
        from scorer.studio import cycles

        linear = cycles.render_linear(plan, spp=spp)
    else:
        linear = render_linear(plan, spp=spp)
    rendered = time.perf_counter()
    image = develop(linear, plan.post, dominant_light_rgb(plan), plan.seed)
    jpeg = encode_jpeg(image, plan.post["jpeg_quality"])
    truth = sidecar(plan)
    truth["renderer"] = renderer
    truth["render_seconds"] = round(rendered - started, 2)
    truth["total_seconds"] = round(time.perf_counter() - started, 2)
    return jpeg, truth


def write_photo(seed: int, out_dir: str | Path, *, name: str | None = None, renderer: str = "mitsuba",
                **options) -> Path:
    """Plan (``options`` as for ``plan_scene``), render and save ``<name>.jpg`` and
    ``<name>.json`` under ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    plan = plan_scene(seed, **options)
    jpeg, truth = make_photo(plan, renderer=renderer)
    stem = name or f"studio_{seed:06d}"
    truth["file"] = f"{stem}.jpg"
    truth["studio_options"] = {k: v for k, v in options.items() if v is not None}
    (out / f"{stem}.jpg").write_bytes(jpeg)
    (out / f"{stem}.json").write_text(json.dumps(truth, indent=1) + "\n")
    return out / f"{stem}.jpg"
