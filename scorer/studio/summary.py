"""What a folder of studio photos covers, from their sidecars.

Usage: python -m scorer.studio.summary sample_photos/dev sample_photos/test ...
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter
from pathlib import Path


def load_sidecars(folder: str | Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(Path(folder).glob("*.json"))]


def tilt_band(tilt: float) -> str:
    return "0-15" if tilt < 15 else "15-30" if tilt < 30 else "30-45" if tilt < 45 else "45-60"


def coverage(sidecars: list[dict]) -> dict[str, Counter]:
    """Counts of each condition over the photos."""
    c: dict[str, Counter] = {k: Counter() for k in (
        "board", "play_area", "players", "setup", "stage", "light", "park_markers", "clutter", "table",
        "tilt_deg", "megapixels", "lens_mm", "blur", "colours")}
    for s in sidecars:
        scene, cam = s["scene"], s["camera"]
        c["board"][scene["board"]["kind"] + ("/" + scene["board"]["style"].get("variant", scene["board"]["style"].get("palette", "")))] += 1
        c["play_area"][f'{s["play_area"]["rows"]}x{s["play_area"]["cols"]} on {s["checkerboard"]["rows"]}x{s["checkerboard"]["cols"]}'] += 1
        c["players"][s["players"]] += 1
        c["setup"]["threehouse" if s["threehouse"] else "standard"] += 1
        c["stage"][s["stage"]] += 1
        c["light"][scene["light_setup"]] += 1
        c["park_markers"].update(scene["tokens"])
        c["clutter"].update(set(scene["clutter"]) or {"none"})
        c["table"][scene["table"]["kind"]] += 1
        c["tilt_deg"][tilt_band(cam["tilt_deg"])] += 1
        c["megapixels"][cam["megapixels"]] += 1
        c["lens_mm"][cam["focal_mm_35"]] += 1
        post = scene["post"]
        c["blur"]["motion" if post["motion_px"] > 0.5 else "defocus" if post["defocus_px"] > 1.0 else "sharp"] += 1
        c["colours"].update(s["colours"])
    return c


def main(argv: list[str] | None = None) -> int:
    folders = (argv if argv is not None else sys.argv[1:]) or ["sample_photos/dev", "sample_photos/test", "sample_photos/full"]
    for folder in folders:
        sidecars = load_sidecars(folder)
        size = sum(p.stat().st_size for p in Path(folder).glob("*.*"))
        seconds = [s["render_seconds"] for s in sidecars if "render_seconds" in s]
        print(f"## {folder}: {len(sidecars)} photos, {size / 1e6:.1f} MB"
              + (f", median render {statistics.median(seconds):.0f} s" if seconds else ""))
        for key, counts in coverage(sidecars).items():
            print(f"- {key}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: str(kv[0]))))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
