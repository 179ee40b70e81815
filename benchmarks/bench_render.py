"""Studio render time per photo: median over several scenes, per image size.

Usage: nice python benchmarks/bench_render.py [--megapixels 2 12] [--repeats 3] [--spp 8]
       python benchmarks/bench_render.py --sidecars sample_photos/full ...   (recorded times)

Each repeat plans a different scene (seeds 700, 701, ...; bandanna board, finished game) and
times the whole photo: scene building, path tracing, denoising, developing and JPEG.
``--sidecars`` instead reports the medians of the times the studio recorded in photos' sidecars,
by image size (no rendering).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from scorer.studio.photo import make_photo
from scorer.studio.render import mitsuba
from scorer.studio.scene import RESOLUTIONS, plan_scene


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megapixels", type=int, nargs="+", default=[2, 12], choices=sorted(RESOLUTIONS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--spp", type=int, default=8)
    parser.add_argument("--sidecars", nargs="+", metavar="DIR", help="report recorded times from these folders")
    args = parser.parse_args()
    if args.sidecars:
        report_sidecars(args.sidecars)
        return
    mi = mitsuba()
    print(f"mitsuba {mi.__version__} variant {mi.variant()}, {os.cpu_count()} CPUs, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for mp in args.megapixels:
        totals, renders = [], []
        for i in range(args.repeats):
            plan = plan_scene(700 + i, megapixels=mp, board_kind="bandanna", stage="finished", spp=args.spp)
            started = time.perf_counter()
            _, truth = make_photo(plan)
            totals.append(time.perf_counter() - started)
            renders.append(truth["render_seconds"])
        w, h = RESOLUTIONS[mp]
        print(f"{mp:>2} MP ({w}x{h}), {args.spp} spp: median {statistics.median(totals):.1f} s per photo "
              f"(render+denoise {statistics.median(renders):.1f} s; runs {', '.join(f'{t:.1f}' for t in totals)})")


def report_sidecars(folders: list[str]) -> None:
    import json
    from pathlib import Path

    by_size: dict[int, list[tuple[float, int]]] = {}
    for folder in folders:
        for path in Path(folder).glob("*.json"):
            truth = json.loads(path.read_text())
            if "total_seconds" in truth:
                by_size.setdefault(truth["camera"]["megapixels"], []).append((truth["total_seconds"], truth["scene"]["spp"]))
    for mp in sorted(by_size):
        times = [t for t, _ in by_size[mp]]
        spps = sorted({s for _, s in by_size[mp]})
        print(f"{mp:>2} MP: median {statistics.median(times):.1f} s per photo over {len(times)} photos "
              f"(min {min(times):.1f}, max {max(times):.1f}; spp {spps})")


if __name__ == "__main__":
    main()
