"""Train the learned square classifier (empty / park / 1 / 2 / 3 pips) and export it to ONNX.

Reproduces ``scorer/data/square_model.onnx`` (and its ``.json`` spec) from studio photos with
ground-truth sidecars: the development split plus extra renders made with seeds the corpus
does not use (never the test split)::

    pip install -e '.[train]'
    nice -n 10 subdivision studio --seed 30000 --count 60 --megapixels 2 --spp 4 --out /tmp/train
    .venv/bin/python scripts/train_square_model.py sample_photos/dev /tmp/train --seed 0
    .venv/bin/python scripts/train_square_model.py sample_photos/dev /tmp/train --cross-validate

``--cross-validate`` trains on half the development photos (plus the extra renders) and
measures on the other half, both ways, against the hand-built square reader's labels on the
same squares (both on the true grid); it writes no model.

Each photo gives its checkerboard's squares several times: once on the true grid, then with
the grid jittered (up to 0.1 square at the corners, 0.06 per square), the photo shrunk (15-60
px per square), blurred and JPEG-compressed; training adds colour casts, brightness, noise
and mirror images on the fly. Needs PyTorch and onnx (the ``train`` extra), CPU only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.reader import READ_LONG_SIDE, _photo_long_side  # noqa: E402
from scorer.vision.evaluate import photos_in, truth_grid  # noqa: E402
from scorer.vision.load import load_photo  # noqa: E402
from scorer.vision.patches import PATCH_PX, square_patches  # noqa: E402
from scorer.vision.square_model import LABELS, MODEL_PATH, truth_labels  # noqa: E402

COPIES = 4  # jittered copies of each photo besides the clean one


def jittered_grid(H: np.ndarray, rows: int, cols: int, rng: np.random.Generator, side_px: float):
    """A homography whose outer corners are moved up to 0.1 square, and per-square centre offsets."""
    board = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64)
    moved = board + rng.uniform(-0.1, 0.1, board.shape)
    J, _ = cv2.findHomography(board, moved, 0)
    Hj = H @ J
    ys, xs = np.mgrid[0:rows, 0:cols]
    pts = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5, np.ones(rows * cols)], 1) @ Hj.T
    centres = pts[:, :2] / pts[:, 2:3] + rng.uniform(-0.06, 0.06, (rows * cols, 2)) * side_px
    return Hj, centres.reshape(rows, cols, 2)


def degrade(image: np.ndarray, side_px: float, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Shrink (to 15-60 px per square), blur and JPEG-compress a photo; returns it and the scale."""
    target = rng.uniform(15, 60)
    scale = min(1.0, target / side_px)
    out = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image.copy()
    if rng.random() < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.6))
    if rng.random() < 0.3:  # a colour cast the white balance has to undo
        out = np.clip(out * rng.uniform(0.7, 1.3, 3)[None, None, :], 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 90))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out, scale


def photo_samples(photo: Path, copies: int, rng: np.random.Generator):
    """(patches, labels) of one photo: the clean views and ``copies`` degraded, jittered ones."""
    truth = json.loads(photo.with_suffix(".json").read_text())
    image = load_photo(photo, long_side=READ_LONG_SIDE)
    k = max(image.shape[:2]) / _photo_long_side(photo, image)
    checker = truth["checkerboard"]
    grid = truth_grid(int(checker["rows"]), int(checker["cols"]), checker["corners"]).scaled(k)
    # truth_grid may swap rows and cols (the sidecar's board frame vs the image's bottom edge).
    labels = truth_labels(truth, grid.rows, grid.cols)
    side = float(np.median([np.linalg.norm(q[1] - q[0]) for q in
                            (grid.square_quad(c, r) for r in range(grid.rows) for c in range(grid.cols))]))
    xs = [square_patches(image, grid.homography, grid.rows, grid.cols, centres=grid.square_centres())]
    for _ in range(copies):
        small, s = degrade(image, side, rng)
        H = np.diag([s, s, 1.0]) @ grid.homography
        Hj, centres = jittered_grid(H, grid.rows, grid.cols, rng, side * s)
        xs.append(square_patches(small, Hj, grid.rows, grid.cols, centres=centres))
    return np.concatenate(xs).astype(np.float16), np.tile(labels, len(xs))


def collect(photos: list[Path], copies: int, seed: int):
    rng = np.random.default_rng(seed)
    X, y, owner = [], [], []
    for i, photo in enumerate(photos):
        xi, yi = photo_samples(photo, copies, rng)
        X.append(xi)
        y.append(yi)
        owner.append(np.full(len(yi), i))
    return np.concatenate(X), np.concatenate(y), np.concatenate(owner)


# --- the network ------------------------------------------------------------------------

def build_model():
    import torch
    from torch import nn

    def branch():
        def block(a, b):
            return [nn.Conv2d(a, b, 3, padding=1, bias=False), nn.BatchNorm2d(b), nn.ReLU()]
        return nn.Sequential(*block(3, 12), nn.MaxPool2d(2), *block(12, 16), nn.MaxPool2d(2),
                             *block(16, 32), nn.MaxPool2d(2), *block(32, 48),
                             nn.AdaptiveAvgPool2d(1), nn.Flatten())

    class SquareNet(nn.Module):
        """Two small CNNs (top-down view, upright view) and a joint classifier."""

        def __init__(self):
            super().__init__()
            self.top, self.up = branch(), branch()
            self.head = nn.Sequential(nn.Linear(96, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, len(LABELS)))

        def forward(self, x):
            return self.head(torch.cat([self.top(x[:, :3]), self.up(x[:, 3:])], 1))

    return SquareNet()


def augment(xb, rng_t):
    """Colour cast, brightness, contrast, noise and mirror images (both views together)."""
    import torch

    n = xb.shape[0]
    gains = torch.empty(n, 3, 1, 1).uniform_(0.85, 1.15, generator=rng_t)
    bright = torch.empty(n, 1, 1, 1).uniform_(0.75, 1.25, generator=rng_t)
    g = (gains * bright).repeat(1, 2, 1, 1)
    mean = xb.mean(dim=(2, 3), keepdim=True)
    contrast = torch.empty(n, 1, 1, 1).uniform_(0.8, 1.2, generator=rng_t)
    xb = ((xb - mean) * contrast + mean) * g
    xb = xb + torch.randn(xb.shape, generator=rng_t) * torch.empty(n, 1, 1, 1).uniform_(0, 0.04, generator=rng_t)
    flip = torch.rand(n, generator=rng_t) < 0.5
    xb[flip] = xb[flip].flip(3)
    return xb


def train(X: np.ndarray, y: np.ndarray, seed: int, epochs: int, log=print):
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(int(__import__("os").environ.get("TRAIN_THREADS", "1")))
    rng_t = torch.Generator().manual_seed(seed)
    model = build_model()
    Xt = torch.from_numpy(X)
    yt = torch.from_numpy(y)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    batch = 128
    steps = epochs * ((len(y) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.02)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(y), generator=rng_t)
        total, right, t0 = 0.0, 0, time.time()
        for i in range(0, len(y), batch):
            idx = order[i:i + batch]
            xb = augment(Xt[idx].float(), rng_t)
            logits = model(xb)
            loss = loss_fn(logits, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((logits.argmax(1) == yt[idx]).sum())
        log(f"epoch {epoch + 1}/{epochs}: loss {total / len(y):.4f}, train accuracy {right / len(y):.4f} "
            f"({time.time() - t0:.0f} s)")
    model.eval()
    return model


def predict(model, X: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        out = [torch.softmax(model(torch.from_numpy(X[i:i + 512]).float()), 1).numpy() for i in range(0, len(X), 512)]
    return np.concatenate(out)


def export(model, path: Path, provenance: dict) -> None:
    """ONNX (softmax included) plus a JSON spec; checks OpenCV's dnn gives torch's outputs."""
    import torch

    class WithSoftmax(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, x):
            return torch.softmax(self.net(x), 1)

    wrapped = WithSoftmax(model).eval()
    x = torch.rand(8, 6, PATCH_PX, PATCH_PX)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(wrapped, x, str(path), input_names=["patches"], output_names=["probs"],
                      dynamic_axes={"patches": {0: "n"}, "probs": {0: "n"}}, dynamo=False, opset_version=13)
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(x.numpy())
    diff = float(np.abs(net.forward() - wrapped(x).detach().numpy()).max())
    if diff > 1e-4:
        raise SystemExit(f"OpenCV's dnn disagrees with torch by {diff}")
    spec = {"input": {"name": "patches", "shape": ["n", 6, PATCH_PX, PATCH_PX],
                      "what": "scorer.vision.patches.square_patches (top-down BGR, upright BGR; light squares = 1)"},
            "output": {"name": "probs", "labels": list(LABELS)},
            "opencv_torch_max_difference": diff, **provenance}
    path.with_suffix(".json").write_text(json.dumps(spec, indent=2) + "\n")


def accuracy_table(y: np.ndarray, pred: np.ndarray) -> str:
    parts = [f"all {100 * np.mean(pred == y):.2f}% (n={len(y)})"]
    for k, name in enumerate(LABELS):
        sel = y == k
        if sel.any():
            parts.append(f"{name} {100 * np.mean(pred[sel] == k):.2f}% (n={int(sel.sum())})")
    return ", ".join(parts)


def hand_built_probs(photos: list[Path]) -> np.ndarray:
    """The hand-built square reader's probabilities for every square (reader on the true grid)."""
    from scorer.reader import read_image
    from scorer.vision.squares import LABELS as SQUARE_LABELS

    out = []
    for photo in photos:
        truth = json.loads(photo.with_suffix(".json").read_text())
        image = load_photo(photo, long_side=READ_LONG_SIDE)
        k = max(image.shape[:2]) / _photo_long_side(photo, image)
        checker = truth["checkerboard"]
        grid = truth_grid(int(checker["rows"]), int(checker["cols"]), checker["corners"]).scaled(k)
        reading = read_image(image, grid=grid, threehouse=bool(truth.get("threehouse", False)))
        probs = np.zeros((grid.rows * grid.cols, len(SQUARE_LABELS)))
        for (c, r), sq in reading.squares.readings.items():
            probs[r * grid.cols + c] = sq.probs
        out.append(probs)
    return np.concatenate(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dev", type=Path, help="development photos with sidecars (sample_photos/dev)")
    parser.add_argument("extra", type=Path, nargs="*", help="more training photos (own renders)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=14)
    parser.add_argument("--copies", type=int, default=COPIES)
    parser.add_argument("--cross-validate", action="store_true")
    parser.add_argument("--fold-models", type=Path, help="with --cross-validate: folder for the two fold models")
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args(argv)
    if any("test" in p.parts for p in [args.dev, *args.extra]):
        raise SystemExit("never train on the test split")
    random.seed(args.seed)
    dev = photos_in(args.dev)
    extra = [p for d in args.extra for p in photos_in(d)]
    print(f"{len(dev)} development photos, {len(extra)} extra", flush=True)
    t0 = time.time()
    Xd, yd, od = collect(dev, args.copies, args.seed)
    Xe, ye, _ = collect(extra, args.copies, args.seed + 1) if extra else (Xd[:0], yd[:0], None)
    per_photo = args.copies + 1
    print(f"{len(yd) + len(ye)} samples in {time.time() - t0:.0f} s", flush=True)
    if args.cross_validate:
        clean = np.zeros(len(yd), bool)  # the first (clean, true-grid) view of each square
        start = 0
        for i in range(len(dev)):
            n = int(np.sum(od == i))
            clean[start:start + n // per_photo] = True
            start += n
        cache = args.fold_models / "hand_built.npy" if args.fold_models else None
        hand = np.load(cache) if cache and cache.exists() else hand_built_probs(dev)
        if cache:
            cache.parent.mkdir(parents=True, exist_ok=True)
            np.save(cache, hand)
        print("hand-built reader measured", flush=True)
        held_probs = np.zeros((int(clean.sum()), len(LABELS)))
        held_y = yd[clean]
        held_owner = od[clean]
        for fold in range(2):
            test_photo = (np.arange(len(dev)) % 2) == fold
            tr = ~test_photo[od]
            model = train(np.concatenate([Xd[tr], Xe]), np.concatenate([yd[tr], ye]), args.seed + fold, args.epochs)
            sel = test_photo[held_owner]
            held_probs[sel] = predict(model, Xd[clean][sel])
            if args.fold_models:  # to run the whole reader on the held-out photos
                export(model, args.fold_models / f"fold{fold}.onnx", {"held_out": [str(p) for p in np.array(dev)[test_photo]]})
        print("learned model, held-out:", accuracy_table(held_y, held_probs.argmax(1)), flush=True)
        print("hand-built reader:       ", accuracy_table(held_y, hand.argmax(1)), flush=True)
        for w in (0.0, 0.25, 0.5, 1.0):
            both = np.log(held_probs + 1e-6) + w * np.log(hand + 1e-6)
            print(f"product, hand-built weight {w}:", accuracy_table(held_y, both.argmax(1)), flush=True)
        if args.fold_models:
            np.savez(args.fold_models / "held_out.npz", probs=held_probs, hand=hand, labels=held_y, owner=held_owner)
        return 0
    model = train(np.concatenate([Xd, Xe]), np.concatenate([yd, ye]), args.seed, args.epochs)
    export(model, args.out, {
        "trained_on": {"development": str(args.dev), "photos": len(dev),
                       "extra": [str(p) for p in args.extra], "extra_photos": len(extra),
                       "extra_seeds": sorted({json.loads(p.with_suffix('.json').read_text()).get('seed') for p in extra})},
        "copies": args.copies, "epochs": args.epochs, "seed": args.seed,
        "command": "scripts/train_square_model.py " + " ".join(sys.argv[1:] if argv is None else argv),
    })
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
