"""A phone camera's processing after the light is captured: white balance (imperfect),
exposure, vignetting, focus and motion blur, sensor noise, tone curve, sharpening, JPEG.

Pure numpy/OpenCV on a linear RGB float image; deterministic for a given seed.
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def srgb_to_linear(srgb: np.ndarray) -> np.ndarray:
    """sRGB-encoded values (0-1) in linear light."""
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(linear: np.ndarray) -> np.ndarray:
    """Linear-light values (0-1) sRGB-encoded."""
    return np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * np.power(linear, 1 / 2.4) - 0.055)


def _motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    size = int(math.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    dx, dy = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    for t in np.linspace(-length / 2, length / 2, size * 4):
        kernel[int(round(c + t * dy)), int(round(c + t * dx))] += 1
    return kernel / kernel.sum()


def develop(linear_rgb: np.ndarray, post: dict, light_rgb, seed: int) -> np.ndarray:
    """Linear RGB render -> 8-bit sRGB BGR image, as a phone would store it before JPEG."""
    rng = np.random.default_rng(seed)
    img = np.nan_to_num(np.asarray(linear_rgb, np.float32), nan=0.0, posinf=0.0, neginf=0.0)
    img = np.clip(img, 0, None)
    # Auto white balance that only partly undoes the light's colour, plus its own error.
    cast = np.asarray(light_rgb, np.float32)
    gains = (1.0 / cast) ** post["wb_correction"] * np.asarray(post["white_balance_error"], np.float32)
    img = img * (gains / gains[1])
    # Auto exposure on the bright end of the scene, then the photo's own exposure error.
    level = float(np.percentile(img.mean(axis=2), 97)) + 1e-6
    img = img * (0.8 / level) * post["exposure"]
    h, w = img.shape[:2]
    if post["vignette"] > 0:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        img *= (1 - post["vignette"] * r2)[..., None]
    if post["defocus_px"] > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), post["defocus_px"])
    if post["motion_px"] > 0.5:
        img = cv2.filter2D(img, -1, _motion_kernel(post["motion_px"], post["motion_angle_deg"]))
    # Sensor noise: shot noise grows with the signal, read noise does not; some of it in colour.
    sigma = post["noise"]
    shot = np.sqrt(np.clip(img, 0, None)) * sigma * 1.5
    luma_noise = rng.standard_normal((h, w, 1)).astype(np.float32)
    chroma_noise = rng.standard_normal((h, w, 3)).astype(np.float32)
    # (phones smooth the colour part of the noise before saving: a blurred chroma component)
    chroma_noise = cv2.GaussianBlur(chroma_noise, (0, 0), 1.5) * 1.5
    img = img + (shot + sigma * 0.5) * (0.8 * luma_noise + 0.3 * chroma_noise)
    # Tone curve: a gentle S around sRGB gamma, highlights rolled off.
    img = np.clip(img, 0, None)
    img = img / (1 + 0.15 * img)
    srgb = np.clip(linear_to_srgb(img) * 1.08 - 0.03, 0, 1)
    out = (srgb * 255 + 0.5).astype(np.uint8)[..., ::-1]
    if post["sharpen"] > 0:
        blur = cv2.GaussianBlur(out, (0, 0), 1.2)
        out = cv2.addWeighted(out, 1 + post["sharpen"], blur, -post["sharpen"], 0)
    return np.ascontiguousarray(out)


def encode_jpeg(image_bgr: np.ndarray, quality: int) -> bytes:
    ok, data = cv2.imencode(".jpg", image_bgr, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()
