"""``subdivision studio``: render synthetic photos of boards, each with a ground-truth sidecar.

Needs the renderer: ``pip install -e '.[studio]'`` (and Debian's ``libllvm19``).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from scorer.errors import UserError

MAX_SPP = 4096  # samples per pixel: far past what the denoiser needs (8 by default)


def add_parser(subparsers) -> None:
    from scorer.board import COLOURS
    from scorer.studio.photo import RENDERERS
    from scorer.studio.scene import (ASKED_BOARD_KINDS, BOARD_KINDS, CLUTTER_KINDS, FROST_RANGE, LIGHT_KINDS,
                                     RESOLUTIONS, STAGES, TABLE_KINDS, TOKEN_KINDS)

    parser = subparsers.add_parser(
        "studio",
        help="render synthetic board photos with ground truth (needs the 'studio' extra)",
        description="Render photos of Subdivision positions from legal random play, each as DIR/NAME.jpg "
        "with its ground truth in DIR/NAME.json. Every choice not fixed by an option is drawn from the seed.",
    )
    parser.add_argument("--seed", type=int, required=True, help="seed of the first photo")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the photos and sidecars")
    parser.add_argument("--count", type=int, default=1, help="photos to render, seeds SEED, SEED+1, ... (default 1)")
    parser.add_argument("--prefix", default="studio_", help="file name prefix (default studio_)")
    parser.add_argument("--skip-existing", action="store_true", help="leave photos already in DIR alone (resume a run)")
    parser.add_argument("--megapixels", type=int, choices=sorted(RESOLUTIONS), default=3, help="image size (default 3)")
    parser.add_argument("--spp", type=int, default=8, help="path-tracing samples per pixel before denoising (default 8, at most 4096)")
    parser.add_argument("--renderer", choices=RENDERERS, default="mitsuba",
                        help="mitsuba (default), or Blender's cycles, a second renderer with other materials "
                        "(needs pip install bpy)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4))
    stash = parser.add_mutually_exclusive_group()
    stash.add_argument("--threehouse", action="store_true", default=None, help="ThreeHouse setup")
    stash.add_argument("--standard", dest="threehouse", action="store_false", help="standard (not ThreeHouse) setup")
    parser.add_argument("--stage", choices=STAGES, help="finished game or mid-game position")
    parser.add_argument("--board", dest="board_kind", choices=BOARD_KINDS + ASKED_BOARD_KINDS,
                        help="the checkerboard (travel: a folding set with 30-39 mm squares, only when asked for)")
    parser.add_argument("--tokens", dest="token_kind", choices=TOKEN_KINDS, help="what marks the parks")
    parser.add_argument("--light", choices=LIGHT_KINDS)
    parser.add_argument("--table", choices=TABLE_KINDS)
    parser.add_argument("--clutter", help=f"comma-separated, from {','.join(CLUTTER_KINDS)}; 'none' for a bare table")
    parser.add_argument("--tilt", type=float, help="camera angle from vertical, degrees, 0-75 (default: drawn from 0-60)")
    parser.add_argument("--with-colour", choices=COLOURS, help="a player of this colour in every photo")
    parser.add_argument("--frost", help="range of the translucent pieces' frosting, LOW,HIGH between 0 (glassy) "
                        f"and 1 (milky); default {FROST_RANGE[0]},{FROST_RANGE[1]}")
    parser.add_argument("--hue-spread", type=float, metavar="DEG",
                        help="turn each coloured batch's hue by up to DEG degrees either way, as another maker's "
                        "plastic (default 0: the studio's palette)")
    orientation = parser.add_mutually_exclusive_group()
    orientation.add_argument("--portrait", action="store_true", default=None, help="portrait photo")
    orientation.add_argument("--landscape", dest="portrait", action="store_false", help="landscape photo")
    parser.set_defaults(func=run)


def _options(args) -> dict:
    from scorer.studio.scene import CLUTTER_KINDS

    clutter = None
    if args.clutter is not None:
        clutter = [] if args.clutter.strip() == "none" else [c.strip() for c in args.clutter.split(",") if c.strip()]
        unknown = [c for c in clutter if c not in CLUTTER_KINDS]
        if unknown:
            raise UserError(f"unknown clutter {', '.join(unknown)}; known: {', '.join(CLUTTER_KINDS)}, none")
    if args.tilt is not None and not 0 <= args.tilt <= 75:
        raise UserError(f"--tilt must be between 0 and 75 degrees, not {args.tilt}")
    frost = None
    if args.frost is not None:
        try:
            frost = tuple(float(v) for v in args.frost.split(","))
        except ValueError:
            frost = ()
        if len(frost) != 2 or not 0 <= frost[0] <= frost[1] <= 1:
            raise UserError(f"--frost must be LOW,HIGH with 0 <= LOW <= HIGH <= 1, not {args.frost}")
    if args.hue_spread is not None and not 0 <= args.hue_spread <= 180:
        raise UserError(f"--hue-spread must be between 0 and 180 degrees, not {args.hue_spread}")
    if args.count < 1 or args.spp < 1:
        raise UserError("--count and --spp must be at least 1")
    if args.spp > MAX_SPP:  # (past 2**32 the renderer failed with a traceback, after the folder was made)
        raise UserError(f"--spp must be at most {MAX_SPP} (a render of 8 takes seconds; each doubling about doubles it), not {args.spp}")
    if args.seed < 0:  # numpy's generators take none below 0: refused before rendering, not after
        raise UserError(f"--seed must be 0 or more, not {args.seed}")
    if not args.out.strip():
        raise UserError("--out must name a folder (give . for this one)")
    if any(sep and sep in args.prefix for sep in (os.sep, os.altsep, "\0")):
        raise UserError(f"--prefix {args.prefix!r}: a file name's start, without a folder in it (give the folder as --out)")
    return {"players": args.players, "threehouse": args.threehouse, "stage": args.stage,
            "board_kind": args.board_kind, "token_kind": args.token_kind, "light": args.light,
            "table": args.table, "clutter": clutter, "megapixels": args.megapixels, "tilt": args.tilt,
            "portrait": args.portrait, "spp": args.spp, "with_colour": args.with_colour, "frost": frost,
            "hue_spread": args.hue_spread}


def run(args) -> int:
    from scorer.studio.photo import write_photo
    from scorer.studio.render import mitsuba

    options = _options(args)
    try:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    except OSError as err:  # a file of that name, no permission, ...: one line, before rendering
        raise UserError(f"--out {args.out}: cannot make the folder ({err.strerror or err})") from None
    if args.renderer == "cycles":
        from scorer.studio.cycles import blender

        blender()  # a missing renderer is a one-line error before any work
    else:
        mitsuba()
    for seed in range(args.seed, args.seed + args.count):
        if args.skip_existing and (Path(args.out) / f"{args.prefix}{seed:06d}.json").exists():
            continue
        started = time.perf_counter()
        try:
            path = write_photo(seed, args.out, name=f"{args.prefix}{seed:06d}", renderer=args.renderer, **options)
        except OSError as err:  # the folder gone or made read-only mid-run, ...: one line, the photos before kept
            raise UserError(f"{err.filename or args.out}: cannot write the photo ({err.strerror or err})") from None
        print(f"{path}  ({time.perf_counter() - started:.1f} s)", file=sys.stdout, flush=True)
    return 0
