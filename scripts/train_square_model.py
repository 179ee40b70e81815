"""Train the learned square classifier (empty / park / 1 / 2 / 3 pips, each pyramid's
log(base side / square side) and its colour's name) and export it to ONNX.

Reproduces ``scorer/data/square_model_seed0.onnx`` and ``square_model_seed1.onnx`` (and
their ``.json`` specs; the reader takes the colour names from the two, and the classes and
sizes from them and the steep copies below) from studio renders with ground-truth
sidecars made with seeds the corpus does not use, so that the development split stays a fair
validation set (and the test split is never seen). They were made on a machine with an NVIDIA
GPU (the studio then renders with Mitsuba's ``cuda_ad_rgb``; without Open Image Denoise, so
at 32 and 64 samples per pixel): 11 minutes of rendering on an H100 with 16 cores, then 6 of training::

    pip install -e '.[train,studio]'
    counts=(111 78 112 79 116 83 114 79 110 83 113)
    for k in $(seq 0 10); do
        subdivision studio --seed $((40000 + 1000 * k)) --count ${counts[$k]} --megapixels 2 \
            --spp $((k % 2 ? 64 : 32)) --out /tmp/r &
    done; wait
    for seed in 0 1; do
        .venv/bin/python scripts/train_square_model.py /tmp/r --validate sample_photos/dev --epochs 16 \
            --seed $seed --width 2 --batch 512 --device cuda --workers 16 --samples /tmp/samples.npz
    done

The committed copies were then continued on this machine's CPU (2026-11-25) for glassy pieces,
each from its GPU-trained self, taught by the pair where the pair was right::

    subdivision studio --seed 98000 --count 259 --megapixels 2 --with-colour clear --frost 0.0,0.35 --out /tmp/gc
    subdivision studio --seed 96000 --count 40 --megapixels 2 --with-colour clear --frost 0.0,0.35 --out /tmp/trainA
    subdivision studio --seed 96100 --count 40 --megapixels 2 --frost 0.0,0.7 --out /tmp/trainB
    subdivision studio --seed 96200 --count 30 --megapixels 2 --out /tmp/trainC
    for seed in 0 1; do
        TRAIN_THREADS=2 .venv/bin/python scripts/train_square_model.py /tmp/trainA /tmp/trainB /tmp/trainC /tmp/gc \
            --epochs 3 --width 2 --seed $seed --init scorer/data/square_model_seed$seed.onnx \
            --teacher scorer/data/square_model_seed0.onnx scorer/data/square_model_seed1.onnx \
            --lr 5e-4 --balance-colours --workers 2 --samples /tmp/samples.npz --out /tmp/m/square_model_seed$seed.onnx
    done

(``--teacher`` and ``--init`` name the GPU-trained pair, found in git history before 374f930.
That run and the next mixed in the teacher's size wherever its class was right: reproducing them
needs ``TEACHER_SIZE_TOLERANCE`` set past any error, as it was before 2026-12-05.)

``scorer/data/square_model_steep_seed0.onnx`` and ``_seed1`` (2026-12-03), which the reader
averages with the pair for the classes and sizes only, went on from the committed pair in the
same way on 100 renders, most seen from low down or glassy (each copy's ``.json`` records the
command as run, into a scratch folder, the files renamed after)::

    S="subdivision studio --megapixels 2 --out /tmp/steep"
    $S --seed 550000 --count 15 --tilt 48; $S --seed 550100 --count 15 --tilt 56
    $S --seed 550200 --count 10 --tilt 62; $S --seed 550300 --count 10 --with-colour clear --frost 0,0.3
    $S --seed 551000 --count 20 --tilt 52 --frost 0,0.3; $S --seed 551100 --count 10 --frost 0,0.3
    $S --seed 551200 --count 20
    for seed in 0 1; do
        TRAIN_THREADS=2 .venv/bin/python scripts/train_square_model.py /tmp/steep --epochs 3 --width 2 \
            --seed $seed --init scorer/data/square_model_seed$seed.onnx \
            --teacher scorer/data/square_model_seed0.onnx scorer/data/square_model_seed1.onnx \
            --lr 5e-4 --balance-colours --workers 2 --out scorer/data/square_model_steep_seed$seed.onnx
    done

The steep copies went on again (2026-12-05) on 105 renders, 75 of them on a folding travel set
(``--board travel``: 30-39 mm squares, where the pyramids are 1.14-1.48 times as large against
the squares as on the bandanna) and 30 of any board, so that their size regression rises past
where every copy had saturated (``square_model.LEARNED_LOG_BASE_CAP``); the teacher's sizes
count only near the truth (``TEACHER_SIZE_TOLERANCE``), and the pair that names the colours
was left as it was::

    S="subdivision studio --megapixels 2 --out /tmp/train"
    $S --seed 710000 --count 45 --board travel; $S --seed 711000 --count 15 --board travel --tilt 50
    $S --seed 712000 --count 30; $S --seed 713000 --count 15 --board travel --frost 0,0.3

then the steep copies' loop above on ``/tmp/train``, each going on from itself
(``--init scorer/data/square_model_steep_seed$seed.onnx``). (Those renders were made before the
studio turned a large pyramid on a small square no further than fits, ``scene._turned_to_fit``:
its travel renders now differ where a 3-pip was turned further.)

Then all four copies went on (2026-12-05, night), each from itself and taught by the pair as
committed at fd22f3f, on 180 renders: 75 travel sets and 105 of the usual boards (75 new and
the 30 of seed 712000 above). Where a photo's squares are under 40 mm
(``SIZE_CLASS_MIN_SQUARE_MM``) the class heads learn only that a pyramid stands there, not its
size (:func:`any_size_targets`); the size regression learns every size. About 25 minutes of
rendering, the two lines side by side, then 20 of training on this machine::

    S="subdivision studio --megapixels 2 --out /tmp/night"
    ( $S --seed 730000 --count 45 --board travel; $S --seed 731000 --count 15 --board travel --tilt 50
      $S --seed 733000 --count 15 --board travel --frost 0,0.3 ) &
    ( $S --seed 732000 --count 45; $S --seed 734000 --count 15 --tilt 52
      $S --seed 735000 --count 15 --frost 0,0.3; $S --seed 712000 --count 30 ) &
    wait
    mkdir -p /tmp/m0 /tmp/m
    for copy in seed0 seed1 steep_seed0 steep_seed1; do
        git show fd22f3f:scorer/data/square_model_$copy.onnx > /tmp/m0/square_model_$copy.onnx
    done
    for copy in seed0 seed1 steep_seed0 steep_seed1; do
        TRAIN_THREADS=2 .venv/bin/python scripts/train_square_model.py /tmp/night --epochs 3 --width 2 \
            --seed ${copy: -1} --init /tmp/m0/square_model_$copy.onnx \
            --teacher /tmp/m0/square_model_seed0.onnx /tmp/m0/square_model_seed1.onnx \
            --lr 5e-4 --balance-colours --workers 2 --samples /tmp/night.npz --out /tmp/m/square_model_$copy.onnx
    done

(The committed copies were trained with the 712000 renders in a second folder, so their
samples came in another order; each copy's ``.json`` records the command as run.)

On a 2-core CPU the training itself is not the long part. Continuing both copies on 110 renders
(33,465 samples, ``--width 2``, ``TRAIN_THREADS=2``) took about 30 s an epoch. At that rate a
whole copy on these renders takes about an hour and a half. Rendering 1,078 photos there takes
longer: about 9 s each at 2 MP with the default samples and denoising. The earlier, narrower
copies (``--width 1 --batch 128 --epochs 18``, 887 renders at ``--spp 4`` with OIDN) took 35
minutes each.

``--validate DIR`` measures the trained model on DIR's squares (true grid, clean views):
class accuracy, the spread of the size regression, and sizes after the board-wide fit of
``square_model.size_probs``. The fit expects the committed copies' regression to shrink
towards the middle size (``square_model.LEARNED_SIZE_SLOPE``) and to rise no higher than
``square_model.LEARNED_LOG_BASE_CAP``: measure both again on renders the new copies never saw
before committing them (docs/photo-reader.md).

Each photo gives its checkerboard's squares several times: once on the true grid, then with
the grid jittered (up to 0.1 square at the corners, 0.06 per square), the photo shrunk (15-60
px per square), blurred and JPEG-compressed; training adds colour casts, brightness, noise
and mirror images on the fly. Needs PyTorch and onnx (the ``train`` extra).
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


def _photo_samples_job(job):
    photo, copies, seed, index = job
    cv2.setNumThreads(1)
    return photo_samples(photo, copies, np.random.default_rng([seed, index]))


def collect(photos: list[Path], copies: int, seed: int, workers: int = 1):
    """Samples of every photo: patches, labels, log base sizes, colours and the photo each
    came from. Each photo's jitter has its own random stream, so ``workers`` (processes)
    does not change the samples."""
    jobs = [(photo, copies, seed, i) for i, photo in enumerate(photos)]
    if workers > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_photo_samples_job, jobs, chunksize=4)
    else:
        parts = [_photo_samples_job(job) for job in jobs]
    owner = [np.full(len(part[1]), i) for i, part in enumerate(parts)]
    return (*(np.concatenate([part[k] for part in parts]) for k in range(4)), np.concatenate(owner))


# --- the network ------------------------------------------------------------------------

def build_model(width: int = 1):
    """The network; ``width`` multiplies every layer's channels."""
    import torch
    from torch import nn

    c1, c2, c3, c4 = (width * c for c in (12, 16, 32, 48))

    def branch():
        def block(a, b):
            return [nn.Conv2d(a, b, 3, padding=1, bias=False), nn.BatchNorm2d(b), nn.ReLU()]
        return nn.Sequential(*block(3, c1), nn.MaxPool2d(2), *block(c1, c2), nn.MaxPool2d(2),
                             *block(c2, c3), nn.MaxPool2d(2), *block(c3, c4),
                             nn.AdaptiveAvgPool2d(1), nn.Flatten())

    class SquareNet(nn.Module):
        """Two small CNNs (top-down view, upright view) and a joint classifier and regressor."""

        def __init__(self):
            super().__init__()
            self.top, self.up = branch(), branch()
            # len(LABELS) class logits, log(base side / square side), len(COLOURS) colour logits
            self.head = nn.Sequential(nn.Linear(2 * c4, 64 * width), nn.ReLU(), nn.Dropout(0.2),
                                      nn.Linear(64 * width, len(LABELS) + 1 + len(COLOURS)))

        def forward(self, x):
            return self.head(torch.cat([self.top(x[:, :3]), self.up(x[:, 3:])], 1))

    return SquareNet()


def load_exported(model, path: Path, X) -> None:
    """Start ``model`` from an exported copy (``path``, ONNX). The export folded each batch
    norm into its convolution; each is rebuilt on the samples ``X`` (mean and spread of the
    convolution's output there), so that the network computes what the copy computed and
    training in batches sees the same numbers from its first step."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    folded = [(weights[n.input[1]], weights[n.input[2]]) for n in graph.node if n.op_type == "Conv"]
    layers = [m for branch in (model.top, model.up) for m in branch if isinstance(m, (torch.nn.Conv2d, torch.nn.BatchNorm2d))]
    pairs = list(zip(layers[::2], layers[1::2]))
    if len(pairs) != len(folded) or any(c.weight.shape != w.shape for (c, _), (w, _) in zip(pairs, folded)):
        raise SystemExit(f"{path} does not fit a network of this --width")
    hooks = []
    with torch.no_grad():
        for (conv, norm), (w, b) in zip(pairs, folded):
            conv.weight.copy_(torch.from_numpy(w.copy()))

            def refit(module, inputs, bias=torch.from_numpy(b.copy())):
                x = inputs[0]
                mean, var = x.mean(dim=(0, 2, 3)), x.var(dim=(0, 2, 3), unbiased=False)
                module.running_mean.copy_(mean)
                module.running_var.copy_(var)
                module.weight.copy_(torch.sqrt(var + module.eps))
                module.bias.copy_(mean + bias)
            hooks.append(norm.register_forward_pre_hook(refit))
        for name, tensor in model.head.named_parameters():
            tensor.copy_(torch.from_numpy(weights[f"net.head.{name}"].copy()))
        model.train()
        model(torch.as_tensor(X).float())
    for hook in hooks:
        hook.remove()
    model.eval()


def augment(xb, rng_t):
    """Colour cast, brightness, contrast, noise and mirror images (both views together)."""
    import torch

    n, on = xb.shape[0], {"generator": rng_t, "device": xb.device}

    def uniform(shape, low, high):
        return torch.empty(shape, device=xb.device).uniform_(low, high, generator=rng_t)

    g = (uniform((n, 3, 1, 1), 0.85, 1.15) * uniform((n, 1, 1, 1), 0.75, 1.25)).repeat(1, 2, 1, 1)
    mean = xb.mean(dim=(2, 3), keepdim=True)
    xb = ((xb - mean) * uniform((n, 1, 1, 1), 0.8, 1.2) + mean) * g
    xb = xb + torch.randn(xb.shape, **on) * uniform((n, 1, 1, 1), 0, 0.04)
    flip = torch.rand(n, **on) < 0.5
    xb[flip] = xb[flip].flip(3)
    return xb


SIZE_LOSS_WEIGHT = 4.0  # the size regression's smooth-L1 loss against the class cross-entropy
SIZE_LOSS_BETA = 0.05
COLOUR_LOSS_WEIGHT = 0.5  # the colour names' cross-entropy (pyramids only)
LABEL_SMOOTHING = 0.02
# The teacher's size regression counts only where it lies this near the truth in log(base /
# square): beyond it the teacher is wrong (a copy that saturates on pieces larger against the
# squares than any it was trained on), and the truth stands alone there, as for its classes.
TEACHER_SIZE_TOLERANCE = 0.15


def soft_targets(truth: np.ndarray, classes: int, teacher: np.ndarray | None = None,
                 share: float = 0.0) -> np.ndarray:
    """Per sample, the probabilities a class loss aims at: the true class (``truth``; -1 for
    none: a row of zeros) smoothed by LABEL_SMOOTHING, mixed by ``share`` with ``teacher``'s
    probabilities where the teacher's likeliest class is the true one. Where the teacher is
    wrong the truth stands alone, so that it learns what the teacher did not know and keeps
    the rest of what it did (its doubts between look-alikes)."""
    known = truth >= 0
    target = np.zeros((len(truth), classes), np.float32)
    target[known] = LABEL_SMOOTHING / classes
    target[known, truth[known]] += 1 - LABEL_SMOOTHING
    if teacher is not None and share > 0:
        agree = known & (teacher.argmax(1) == truth)
        target[agree] = (1 - share) * target[agree] + share * teacher[agree]
    return target


# The studio's usual boards' smallest squares (scene.plan_checkerboard). On smaller ones (a
# travel set's, ``--board travel``) a 2-pip stands as large against its square as a 3-pip does
# on the bandanna, so there the class heads learn only that a pyramid stands on the square
# (:func:`any_size_targets`) and the size regression alone learns its size: the reader takes the
# sizes from the regression's board-wide fit, and a class taught both ways would learn neither.
SIZE_CLASS_MIN_SQUARE_MM = 40.0


def size_blind_photos(photos: list[Path]) -> np.ndarray:
    """Per photo, whether its squares are smaller than SIZE_CLASS_MIN_SQUARE_MM (its sidecar's
    ``scene.board.square_mm``; a photo without one is not)."""
    def square_mm(photo):
        board = json.loads(photo.with_suffix(".json").read_text()).get("scene", {}).get("board", {})
        return board.get("square_mm", SIZE_CLASS_MIN_SQUARE_MM)
    return np.array([square_mm(p) < SIZE_CLASS_MIN_SQUARE_MM for p in photos], bool)


def any_size_targets(probs, targets, blind):
    """``targets`` (class probabilities aimed at, rows of samples; NumPy or torch) with the rows
    ``blind`` (pyramids whose size the classes are not taught) aimed at a pyramid of the sizes
    the network already gives (``probs``, its own outputs, renormalised over the pyramid
    classes; evenly where they have underflowed to 0), smoothed by LABEL_SMOOTHING: the
    cross-entropy's gradient is then that of the probability of a pyramid of any size,
    smoothing aside, and the sizes' split is left as it is."""
    p = probs[blind]
    aimed = p * 0 + LABEL_SMOOTHING / p.shape[1]
    tiny = 1e-12
    aimed[:, PYRAMIDS] += (1 - LABEL_SMOOTHING) * (p[:, PYRAMIDS] + tiny) / (p[:, PYRAMIDS].sum(1)[:, None] + 3 * tiny)
    out = targets.copy() if isinstance(targets, np.ndarray) else targets.clone()
    out[blind] = aimed
    return out


def size_targets(truth: np.ndarray, labels: np.ndarray, teacher_probs: np.ndarray | None = None,
                 teacher_base: np.ndarray | None = None, share: float = 0.0) -> np.ndarray:
    """Per sample, the log(base / square) the size regression aims at: the truth (NaN where
    none: 0, unweighted), mixed by ``share`` with the teacher's regression where the teacher's
    likeliest class is the true one and its regression lies within TEACHER_SIZE_TOLERANCE of
    the truth."""
    known = ~np.isnan(truth)
    target = np.nan_to_num(truth, nan=0.0).astype(np.float32)
    if teacher_probs is not None and share > 0:
        agree = known & (teacher_probs.argmax(1) == labels) & (np.abs(teacher_base - target) <= TEACHER_SIZE_TOLERANCE)
        target[agree] = (1 - share) * target[agree] + share * teacher_base[agree]
    return target


def balancing_weights(classes: np.ndarray, count: int) -> np.ndarray:
    """Per sample, a weight that makes every class (-1: none, weight 0) count as much as the
    rarest one: renders made to show one colour more often (``subdivision studio
    --with-colour``) do not teach that it is commoner than the rest."""
    counts = np.bincount(classes[classes >= 0], minlength=count).astype(np.float64)
    per_class = counts[counts > 0].min() / np.maximum(counts, 1.0)
    return np.where(classes >= 0, per_class[np.maximum(classes, 0)], 0.0).astype(np.float32)


def teacher_outputs(X: np.ndarray, paths: list[Path], chunk: int = 4096) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class probabilities, log base sizes and colour probabilities of the exported copies
    ``paths`` (averaged over all of them, colour names included) on the samples ``X``."""
    from scorer.vision.square_model import predict_patches

    parts = [predict_patches(X[i:i + chunk], paths, paths) for i in range(0, len(X), chunk)]
    return (np.concatenate([p.probs for p in parts]), np.concatenate([p.log_base for p in parts]),
            np.concatenate([p.colours for p in parts]))


def train(X: np.ndarray, y: np.ndarray, z: np.ndarray, colours: np.ndarray, seed: int, epochs: int, *,
          width: int = 1, batch: int = 128, device: str = "cpu", lr: float | None = None,
          init: Path | None = None, teacher=None, teacher_share: float = 0.5, balance_colours: bool = False,
          size_blind: np.ndarray | None = None, log=print):
    """The trained network (on the CPU, in eval mode). The peak learning rate ``lr`` is by
    default 3e-3 at ``batch`` 128, growing with the square root of ``batch``; ``init`` (an
    exported ONNX copy) starts from that copy's weights instead of random ones. ``teacher``
    (:func:`teacher_outputs` on ``X``) mixes ``teacher_share`` of its outputs into the targets
    where it is right (:func:`soft_targets`; for the size, where its class is right and its
    regression near the truth, :func:`size_targets`).
    ``balance_colours`` weighs the colour loss by :func:`balancing_weights`. ``size_blind``
    (per sample): pyramids whose size the class heads are not taught (:func:`any_size_targets`)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(int(__import__("os").environ.get("TRAIN_THREADS", "1")))
    rng_t = torch.Generator(device=device).manual_seed(seed)
    model = build_model(width)
    if init:
        load_exported(model, init, X[torch.randperm(len(X), generator=torch.Generator().manual_seed(seed))[:4096].numpy()])
    model = model.to(device)
    Xt = torch.from_numpy(X).to(device)
    t_probs, t_base, t_colours = teacher if teacher is not None else (None, None, None)
    size_target = size_targets(z, y, t_probs, t_base, teacher_share)
    yt = torch.from_numpy(soft_targets(y, len(LABELS), t_probs, teacher_share)).to(device)
    zt = torch.from_numpy(size_target).to(device)
    has_z = torch.from_numpy(~np.isnan(z)).to(device)
    colour_weight = torch.from_numpy(balancing_weights(colours, len(COLOURS)) if balance_colours
                                     else (colours >= 0).astype(np.float32)).to(device)
    ct = torch.from_numpy(soft_targets(colours, len(COLOURS), t_colours, teacher_share)).to(device)
    truth = torch.from_numpy(y).to(device)
    blind_t = torch.from_numpy(np.zeros(len(y), bool) if size_blind is None else size_blind).to(device)
    lr = lr or 3e-3 * (batch / 128) ** 0.5
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * ((len(y) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    class_loss = torch.nn.CrossEntropyLoss()  # against soft_targets, label smoothing included
    colour_loss = torch.nn.CrossEntropyLoss(reduction="none")
    size_loss = torch.nn.SmoothL1Loss(beta=SIZE_LOSS_BETA)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(y), generator=rng_t, device=device)
        total, right, t0 = torch.zeros((), device=device), torch.zeros((), device=device), time.time()
        for i in range(0, len(y), batch):
            idx = order[i:i + batch]
            out = model(augment(Xt[idx].float(), rng_t))
            logits = out[:, :len(LABELS)]
            aimed, blind = yt[idx], blind_t[idx]
            if blind.any():
                aimed = any_size_targets(torch.softmax(logits.detach(), 1), aimed, blind)
            loss = class_loss(logits, aimed)
            sized = has_z[idx]
            if sized.any():
                loss = loss + SIZE_LOSS_WEIGHT * size_loss(out[sized, len(LABELS)], zt[idx][sized])
            coloured = colour_weight[idx] > 0  # the pyramids: every one weighs more than 0
            if coloured.any():
                per_piece = colour_loss(out[coloured, len(LABELS) + 1:], ct[idx][coloured])
                weight = colour_weight[idx][coloured]
                loss = loss + COLOUR_LOSS_WEIGHT * (per_piece * weight).sum() / weight.sum().clamp(min=1e-6)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.detach() * len(idx)
            said = logits.argmax(1)
            right += ((said == truth[idx]) | (blind & (said >= PYRAMIDS.start))).sum()  # size-blind: any pyramid
        log(f"epoch {epoch + 1}/{epochs}: loss {float(total) / len(y):.4f}, "
            f"train accuracy {float(right) / len(y):.4f} ({time.time() - t0:.0f} s)", flush=True)
    return model.cpu().eval()


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


def validate(model, photos: list[Path], seed: int, workers: int = 1) -> dict:
    """The model on ``photos``' clean true-grid views: class accuracy, the size regression's
    spread, and sizes after the board-wide fit (each photo a board)."""
    X, y, z, colours, owner = collect(photos, 0, seed, workers)
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
    parser.add_argument("--width", type=int, default=1, help="channel multiplier of the network (default 1)")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--device", default="cpu", help="torch device to train on: cpu (default) or cuda")
    parser.add_argument("--workers", type=int, default=1, help="processes cutting the photos into samples")
    parser.add_argument("--lr", type=float, help="peak learning rate (default 3e-3 x sqrt(batch / 128))")
    parser.add_argument("--init", type=Path, help="an exported copy (.onnx) to go on training from (same --width)")
    parser.add_argument("--teacher", type=Path, nargs="+", help="exported copies (.onnx) whose averaged outputs, "
                        "where right, are mixed into the targets (with --init: learn the new renders, keep the rest)")
    parser.add_argument("--teacher-share", type=float, default=0.5, help="the teacher's share of the targets (default 0.5)")
    parser.add_argument("--balance-colours", action="store_true", help="weigh the colour names' loss so that every "
                        "colour counts as much as the rarest (renders made --with-colour)")
    parser.add_argument("--samples", type=Path, help="an .npz of the samples: read it when it exists, else write it "
                        "(several trainings on the same photos cut them once)")
    args = parser.parse_args(argv)
    args.out = args.out or DATA / f"square_model_seed{args.seed}.onnx"
    if any("test" in p.parts for p in [*args.photos, *([args.validate] if args.validate else [])]):
        raise SystemExit("never train or validate on the test split")
    random.seed(args.seed)
    photos = [p for d in args.photos for p in photos_in(d)]
    print(f"{len(photos)} training photos", flush=True)
    t0 = time.time()
    names = np.array([str(p) for p in photos])
    if args.samples and args.samples.exists():
        with np.load(args.samples) as saved:
            if "photos" not in saved or list(saved["photos"]) != list(names):
                raise SystemExit(f"{args.samples} was cut from other photos (or by an older version of this script, "
                                 "which did not save them): delete it")
            X, y, z, colours, owner = (saved[k] for k in ("X", "y", "z", "colours", "owner"))
    else:
        X, y, z, colours, owner = collect(photos, args.copies, args.seed, args.workers)
        if args.samples:
            np.savez(args.samples, X=X, y=y, z=z, colours=colours, owner=owner, photos=names)
    size_blind = size_blind_photos(photos)[owner] & (y >= PYRAMIDS.start)
    print(f"{len(y)} samples in {time.time() - t0:.0f} s ({int(size_blind.sum())} pyramids on squares under "
          f"{SIZE_CLASS_MIN_SQUARE_MM:.0f} mm, their classes taught no size)", flush=True)
    teacher = teacher_outputs(X, args.teacher) if args.teacher else None
    model = train(X, y, z, colours, args.seed, args.epochs, width=args.width, batch=args.batch, device=args.device,
                  lr=args.lr, init=args.init, teacher=teacher, teacher_share=args.teacher_share,
                  balance_colours=args.balance_colours, size_blind=size_blind)
    provenance = {
        "trained_on": {"folders": [str(p) for p in args.photos], "photos": len(photos),
                       "seeds": sorted({json.loads(p.with_suffix('.json').read_text()).get('seed') for p in photos})},
        "continued_from": str(args.init) if args.init else None, "lr": args.lr,
        "teacher": [str(p) for p in args.teacher] if args.teacher else None,
        "teacher_share": args.teacher_share if args.teacher else None,
        "teacher_size_tolerance": TEACHER_SIZE_TOLERANCE if args.teacher else None,
        "balance_colours": args.balance_colours,
        "size_class_min_square_mm": SIZE_CLASS_MIN_SQUARE_MM,
        "copies": args.copies, "epochs": args.epochs, "seed": args.seed, "width": args.width, "batch": args.batch,
        "command": "scripts/train_square_model.py " + " ".join(sys.argv[1:] if argv is None else map(str, argv)),
    }
    if args.validate:
        provenance["validation"] = {"folder": str(args.validate), **validate(model, photos_in(args.validate), args.seed, args.workers)}
    export(model, args.out, provenance)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
