"""Train the learned square classifier (empty / park / 1 / 2 / 3 pips, each pyramid's
log(base side / square side) and its colour's name) and export it to ONNX.

Reproduces ``scorer/data/square_model_seed0.onnx`` and ``square_model_seed1.onnx`` (and
their ``.json`` specs; the reader averages the two) from studio renders with ground-truth
sidecars made with seeds the corpus does not use, so that the development split stays a fair
validation set (and the test split is never seen)::

    pip install -e '.[train]'
    for range in "30000 309" "30336 365" "31000 213"; do set -- $range
        nice -n 10 subdivision studio --seed $1 --count $2 --megapixels 2 --spp 4 --out /tmp/train
    done
    for seed in 0 1; do
        TRAIN_THREADS=2 .venv/bin/python scripts/train_square_model.py /tmp/train --validate sample_photos/dev \
            --epochs 18 --seed $seed
    done

``--validate DIR`` measures the trained model on DIR's squares (true grid, clean views):
class accuracy, the spread of the size regression, and sizes after the board-wide fit of
``square_model.size_probs``.

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

from scorer.reader import READ_LONG_SIDE  # noqa: E402
from scorer.vision.evaluate import photos_in, truth_grid_of  # noqa: E402
from scorer.vision.load import load_photo_scaled  # noqa: E402
from scorer.vision.patches import PATCH_PX, square_patches  # noqa: E402
from scorer.board import COLOURS  # noqa: E402
from scorer.vision.square_model import DATA, LABELS, PYRAMIDS, size_probs, truth_targets  # noqa: E402

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
    """(patches, labels, log base sizes, colours) of one photo: the clean views and
    ``copies`` degraded, jittered ones."""
    truth = json.loads(photo.with_suffix(".json").read_text())
    image, photo_px = load_photo_scaled(photo, long_side=READ_LONG_SIDE)
    grid = truth_grid_of(truth).scaled(1.0 / photo_px)
    labels, log_base, colours = truth_targets(truth, grid.rows, grid.cols)
    side = grid.square_side_px()
    xs = [square_patches(image, grid.homography, grid.rows, grid.cols, centres=grid.square_centres())]
    for _ in range(copies):
        small, s = degrade(image, side, rng)
        H = np.diag([s, s, 1.0]) @ grid.homography
        Hj, centres = jittered_grid(H, grid.rows, grid.cols, rng, side * s)
        xs.append(square_patches(small, Hj, grid.rows, grid.cols, centres=centres))
    n = len(xs)
    return np.concatenate(xs).astype(np.float16), np.tile(labels, n), np.tile(log_base, n), np.tile(colours, n)


def collect(photos: list[Path], copies: int, seed: int):
    """Samples of every photo: patches, labels, log base sizes, colours and the photo each
    came from."""
    rng = np.random.default_rng(seed)
    parts = [photo_samples(photo, copies, rng) for photo in photos]
    owner = [np.full(len(part[1]), i) for i, part in enumerate(parts)]
    return (*(np.concatenate([part[k] for part in parts]) for k in range(4)), np.concatenate(owner))


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
        """Two small CNNs (top-down view, upright view) and a joint classifier and regressor."""

        def __init__(self):
            super().__init__()
            self.top, self.up = branch(), branch()
            # len(LABELS) class logits, log(base side / square side), len(COLOURS) colour logits
            self.head = nn.Sequential(nn.Linear(96, 64), nn.ReLU(), nn.Dropout(0.2),
                                      nn.Linear(64, len(LABELS) + 1 + len(COLOURS)))

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


SIZE_LOSS_WEIGHT = 4.0  # the size regression's smooth-L1 loss against the class cross-entropy
SIZE_LOSS_BETA = 0.05
COLOUR_LOSS_WEIGHT = 0.5  # the colour names' cross-entropy (pyramids only)


def train(X: np.ndarray, y: np.ndarray, z: np.ndarray, colours: np.ndarray, seed: int, epochs: int, log=print):
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(int(__import__("os").environ.get("TRAIN_THREADS", "1")))
    rng_t = torch.Generator().manual_seed(seed)
    model = build_model()
    Xt = torch.from_numpy(X)
    yt = torch.from_numpy(y)
    zt = torch.from_numpy(np.nan_to_num(z, nan=0.0).astype(np.float32))
    has_z = torch.from_numpy(~np.isnan(z))
    ct = torch.from_numpy(colours)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    batch = 128
    steps = epochs * ((len(y) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    class_loss = torch.nn.CrossEntropyLoss(label_smoothing=0.02)
    size_loss = torch.nn.SmoothL1Loss(beta=SIZE_LOSS_BETA)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(y), generator=rng_t)
        total, right, t0 = 0.0, 0, time.time()
        for i in range(0, len(y), batch):
            idx = order[i:i + batch]
            out = model(augment(Xt[idx].float(), rng_t))
            logits = out[:, :len(LABELS)]
            loss = class_loss(logits, yt[idx])
            sized = has_z[idx]
            if sized.any():
                loss = loss + SIZE_LOSS_WEIGHT * size_loss(out[sized, len(LABELS)], zt[idx][sized])
            coloured = ct[idx] >= 0
            if coloured.any():
                loss = loss + COLOUR_LOSS_WEIGHT * class_loss(out[coloured, len(LABELS) + 1:], ct[idx][coloured])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((logits.argmax(1) == yt[idx]).sum())
        log(f"epoch {epoch + 1}/{epochs}: loss {total / len(y):.4f}, train accuracy {right / len(y):.4f} "
            f"({time.time() - t0:.0f} s)", flush=True)
    model.eval()
    return model


def exported(net):
    """The network as exported: class probabilities (softmax), the size regression, colour
    name probabilities (softmax)."""
    import torch

    class WithSoftmax(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net

        def forward(self, x):
            out = self.net(x)
            n = len(LABELS)
            return torch.cat([torch.softmax(out[:, :n], 1), out[:, n:n + 1], torch.softmax(out[:, n + 1:], 1)], 1)

    return WithSoftmax().eval()


def predict(model, X: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class probabilities, log base sizes and colour probabilities of the samples ``X``."""
    import torch

    wrapped = exported(model)
    with torch.no_grad():
        out = np.concatenate([wrapped(torch.from_numpy(X[i:i + 512]).float()).numpy() for i in range(0, len(X), 512)])
    return out[:, :len(LABELS)], out[:, len(LABELS)], out[:, len(LABELS) + 1:]


def export(model, path: Path, provenance: dict) -> None:
    """ONNX (softmax included) plus a JSON spec; checks OpenCV's dnn gives torch's outputs."""
    import torch

    wrapped = exported(model)
    x = torch.rand(8, 6, PATCH_PX, PATCH_PX)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(wrapped, x, str(path), input_names=["patches"], output_names=["outputs"],
                      dynamic_axes={"patches": {0: "n"}, "outputs": {0: "n"}}, dynamo=False, opset_version=13)
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(x.numpy())
    diff = float(np.abs(net.forward() - wrapped(x).detach().numpy()).max())
    if diff > 1e-4:
        raise SystemExit(f"OpenCV's dnn disagrees with torch by {diff}")
    spec = {"input": {"name": "patches", "shape": ["n", 6, PATCH_PX, PATCH_PX],
                      "what": "scorer.vision.patches.square_patches (top-down BGR, upright BGR; light squares = 1)"},
            "output": {"name": "outputs", "labels": list(LABELS), "then": "log(base side / square side)",
                       "then_colours": list(COLOURS)},
            "opencv_torch_max_difference": diff, **provenance}
    path.with_suffix(".json").write_text(json.dumps(spec, indent=2) + "\n")


def accuracy_table(y: np.ndarray, pred: np.ndarray) -> str:
    parts = [f"all {100 * np.mean(pred == y):.2f}% (n={len(y)})"]
    for k, name in enumerate(LABELS):
        sel = y == k
        if sel.any():
            parts.append(f"{name} {100 * np.mean(pred[sel] == k):.2f}% (n={int(sel.sum())})")
    return ", ".join(parts)


def validate(model, photos: list[Path], seed: int) -> dict:
    """The model on ``photos``' clean true-grid views: class accuracy, the size regression's
    spread, and sizes after the board-wide fit (each photo a board)."""
    X, y, z, colours, owner = collect(photos, 0, seed)
    probs, log_base, colour_probs = predict(model, X)
    print("classes:", accuracy_table(y, probs.argmax(1)))
    pyramid = ~np.isnan(z)
    residual = log_base[pyramid] - z[pyramid]
    mad = 1.4826 * float(np.median(np.abs(residual - np.median(residual))))
    print(f"size regression on {int(pyramid.sum())} pyramids: bias {np.median(residual):+.3f}, "
          f"robust spread {mad:.3f}, rms {np.sqrt(np.mean(residual ** 2)):.3f}")
    right = 0
    for i in range(len(photos)):
        sel = owner == i
        sizes = size_probs(log_base[sel], probs[sel][:, PYRAMIDS].sum(1))
        truth = y[sel]
        right += int(np.sum((sizes.argmax(1) + 2 == truth)[truth >= 2]))
    size_accuracy = right / max(1, int(np.sum(y >= 2)))  # of all pyramids, like the numerator
    print(f"sizes after the board-wide fit: {100 * size_accuracy:.2f}% of pyramids")
    coloured = colours >= 0
    colour_accuracy = float(np.mean(colour_probs[coloured].argmax(1) == colours[coloured]))
    print(f"colour names, each piece alone: {100 * colour_accuracy:.2f}%")
    return {"photos": len(photos), "class_accuracy": float(np.mean(probs.argmax(1) == y)),
            "size_spread": mad, "size_accuracy": size_accuracy, "colour_accuracy": colour_accuracy}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", type=Path, nargs="+", help="folders of training photos with sidecars (own renders)")
    parser.add_argument("--validate", type=Path, help="folder of photos to measure the model on (sample_photos/dev)")
    parser.add_argument("--seed", type=int, default=0, help="random start (and jitter); the reader uses seeds 0 and 1")
    parser.add_argument("--epochs", type=int, default=14)
    parser.add_argument("--copies", type=int, default=COPIES)
    parser.add_argument("--out", type=Path, help="default: scorer/data/square_model_seed<SEED>.onnx")
    args = parser.parse_args(argv)
    args.out = args.out or DATA / f"square_model_seed{args.seed}.onnx"
    if any("test" in p.parts for p in [*args.photos, *([args.validate] if args.validate else [])]):
        raise SystemExit("never train or validate on the test split")
    random.seed(args.seed)
    photos = [p for d in args.photos for p in photos_in(d)]
    print(f"{len(photos)} training photos", flush=True)
    t0 = time.time()
    X, y, z, colours, _ = collect(photos, args.copies, args.seed)
    print(f"{len(y)} samples in {time.time() - t0:.0f} s", flush=True)
    model = train(X, y, z, colours, args.seed, args.epochs)
    provenance = {
        "trained_on": {"folders": [str(p) for p in args.photos], "photos": len(photos),
                       "seeds": sorted({json.loads(p.with_suffix('.json').read_text()).get('seed') for p in photos})},
        "copies": args.copies, "epochs": args.epochs, "seed": args.seed,
        "command": "scripts/train_square_model.py " + " ".join(sys.argv[1:] if argv is None else map(str, argv)),
    }
    if args.validate:
        provenance["validation"] = {"folder": str(args.validate), **validate(model, photos_in(args.validate), args.seed)}
    export(model, args.out, provenance)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
