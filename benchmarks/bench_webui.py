"""Speed of the web app's API, in-process (Flask test client, no network): median milliseconds.

    .venv/bin/python benchmarks/bench_webui.py [PHOTO] [--runs 7]

Times POST /api/score and POST /api/check on the rules' worked games (sample_boards/), and
POST /api/read on a photo next to ``read_photo`` alone on the same bytes, so the web layer's
own cost (upload parsing, the cropped overlay JPEG, JSON) shows as the difference.
PHOTO defaults to the first of sample_photos/full, sample_photos/dev, else a 12 MP drawing of
a finished board (tests/synthetic_scene.py).
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.reader import read_photo  # noqa: E402
from webui import create_app  # noqa: E402

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".heic"}


def median_ms(action, runs: int) -> float:
    action()  # warm up (imports, caches)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def default_photo() -> tuple[bytes, str]:
    for folder in (ROOT / "sample_photos" / "full", ROOT / "sample_photos" / "dev"):
        if folder.is_dir():
            photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
            if photos:
                return photos[0].read_bytes(), str(photos[0].relative_to(ROOT))
    import cv2

    sys.path.insert(0, str(ROOT / "tests"))
    from synthetic_scene import draw_scene

    from scorer.rules import random_game

    image, _, _ = draw_scene(random_game(random.Random(3), 2), origin=(1, 1), size=(8, 8), width=4000, height=3000)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return data.tobytes(), "a 4000x3000 drawing of a finished 6x6 board"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photo", nargs="?", help="photo for /api/read (default: see the module docstring)")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    client = create_app().test_client()

    for name in ("rules_game_2p.txt", "rules_game_3p.txt"):
        board = (ROOT / "sample_boards" / name).read_text()
        for route, extra in (("/api/score", {"private_parks": True}), ("/api/check", {"players": "auto"})):
            def post(route=route, extra=extra):
                response = client.post(route, json={"board": board, **extra})
                assert response.status_code == 200, response.data
            print(f"{route:11s} {name:18s} {median_ms(post, args.runs):8.1f} ms")

    data, label = (Path(args.photo).read_bytes(), args.photo) if args.photo else default_photo()

    def read_api():
        response = client.post("/api/read", data={"photo": (io.BytesIO(data), "photo.jpg"), "players": "auto"},
                               content_type="multipart/form-data")
        assert response.status_code == 200, response.data

    api = median_ms(read_api, args.runs)
    alone = median_ms(lambda: read_photo(data), args.runs)
    print(f"/api/read   {api:8.1f} ms   read_photo alone {alone:8.1f} ms   web layer {api - alone:6.1f} ms   ({label})")


if __name__ == "__main__":
    main()
