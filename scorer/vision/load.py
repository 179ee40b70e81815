"""Stage 1 of the photo reader: decode a photo into a BGR array, upright, with size limits.

Reads JPEG, PNG, WebP and HEIC (iPhone photos, via pillow-heif), applies the EXIF orientation
tag, converts colours to sRGB from the colour space an embedded ICC profile names, and rejects
non-images, truncated files, decompression bombs and oversized files with a one-line
:class:`PhotoError` before decoding more than the header where it can.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from scorer.errors import UserError
from scorer.files import MAX_PHOTO_BYTES, PHOTO_FORMATS, read_at_most, too_large

try:  # HEIC/HEIF support is optional at import time, required by pyproject.
    import pillow_heif

    pillow_heif.register_heif_opener()
    HEIC_SUPPORTED = True
except ImportError:  # pragma: no cover - pillow-heif is a declared dependency
    HEIC_SUPPORTED = False

MAX_BYTES = MAX_PHOTO_BYTES
MAX_PIXELS = 80_000_000
MIN_SIDE = 32  # px: a smaller photo cannot show a board (5 squares of the 6 px the reader needs)
MAX_ASPECT = 16  # nor a longer, thinner strip (under 100 px across at the reader's working size)
WORKING_LONG_SIDE = 1280
SRGB = ImageCms.createProfile("sRGB")
ACCEPTED_FORMATS = {"JPEG", "MPO", "PNG", "WEBP", "HEIF", "HEIC", "AVIF", "BMP", "TIFF"}


TRUNCATED = "the image file is cut short (truncated): send or copy the whole photo again"
DAMAGED = "the file looks damaged or cut short; send or copy the whole photo again"  # a decoder that does not say which
METADATA_BOMB = ("a block of the file's metadata (text or a colour profile) unpacks to far more than a photo "
                 "carries; save the photo again, or send another")


class PhotoError(UserError):
    """The file is not a photo we can read (not an image, truncated, too large)."""


class PhotoTooLarge(PhotoError):
    """The photo is over the byte or pixel limit (or a decompression bomb)."""


def _read_bytes(source: str | Path | bytes, max_bytes: int) -> tuple[bytes, str]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = "photo"
        if len(data) > max_bytes:  # standard input is read only one byte past the limit: no size to give
            raise PhotoTooLarge(too_large(name, max_bytes))
        return data, name
    if not str(source):
        raise PhotoError("an empty file name: give a photo file, or - for standard input")
    path = Path(source)
    name = str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise PhotoError(f"{name}: no such file") from None
    except OSError as err:
        raise PhotoError(f"{name}: cannot read ({err.strerror or err})") from None
    if path.is_dir():
        raise PhotoError(f"{name}: is a directory, not a photo")
    if size > max_bytes:
        raise PhotoTooLarge(too_large(name, max_bytes, size))
    try:
        data = read_at_most(path, max_bytes)
    except OSError as err:
        raise PhotoError(f"{name}: cannot read ({err.strerror or err})") from None
    if len(data) > max_bytes:  # a device or pipe, whose size stat() does not know
        raise PhotoTooLarge(too_large(name, max_bytes))
    return data, name


def load_photo(
    source: str | Path | bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_pixels: int = MAX_PIXELS,
    long_side: int | None = None,
) -> np.ndarray:
    """Decode a photo (path or bytes) to an upright BGR uint8 array: see :func:`load_photo_scaled`."""
    return load_photo_scaled(source, max_bytes=max_bytes, max_pixels=max_pixels, long_side=long_side)[0]


def load_photo_scaled(
    source: str | Path | bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_pixels: int = MAX_PIXELS,
    long_side: int | None = None,
) -> tuple[np.ndarray, float]:
    """Decode a photo (path or bytes) to an upright BGR uint8 array, with the photo's px per
    returned px (1.0 unless ``long_side`` shrank it).

    EXIF orientation is applied. ``long_side``: shrink to at most this many px on the longer
    side (a JPEG is then decoded at a reduced scale directly, several times faster).
    Raises :class:`PhotoError` with a one-line message for a missing or empty file, a file over
    ``max_bytes``, a non-image, an image under MIN_SIDE px either way, one more than MAX_ASPECT times as long as wide,
    one over ``max_pixels`` (checked from the header, before
    decoding) and a truncated or corrupt image.
    """
    data, name = _read_bytes(source, max_bytes)
    if not data:
        raise PhotoError(f"{name}: file is empty")
    with warnings.catch_warnings():
        # A damaged file's decoder warnings (corrupt EXIF, ...) are not for the user; PIL's
        # pixel-count warning neither: max_pixels, under PIL's limit, is checked before decoding.
        warnings.simplefilter("ignore")
        try:
            image = Image.open(io.BytesIO(data))
        except UnidentifiedImageError:
            raise PhotoError(f"{name}: not an image (expected {PHOTO_FORMATS})") from None
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise PhotoTooLarge(f"{name}: image has {too_many_pixels(max_pixels)}") from None
        except Exception as err:  # noqa: BLE001 - any decoder failure is a bad file
            if _is_truncation(err):
                raise PhotoError(f"{name}: {TRUNCATED}") from None
            if _is_metadata_bomb(err):
                raise PhotoTooLarge(f"{name}: {METADATA_BOMB}") from None
            raise PhotoError(f"{name}: cannot read the image header: {DAMAGED} ({_short(err)})") from None
        icc_profile = image.info.get("icc_profile")
        if image.format not in ACCEPTED_FORMATS:
            raise PhotoError(f"{name}: unsupported image format {image.format} (expected {PHOTO_FORMATS})")
        width, height = image.size
        if width <= 0 or height <= 0:
            raise PhotoError(f"{name}: image has no pixels")
        if min(width, height) < MIN_SIDE:
            raise PhotoError(f"{name}: image is only {width}x{height} px; a photo of a board needs at least "
                             f"{MIN_SIDE} px each way")
        if max(width, height) > MAX_ASPECT * min(width, height):
            raise PhotoError(f"{name}: image is {width}x{height} px, a strip too narrow to show a board "
                             f"(at most {MAX_ASPECT} times as long as it is wide)")
        if width * height > max_pixels:
            raise PhotoTooLarge(f"{name}: image is {width}x{height} = {width * height:,} pixels, "
                                f"{too_many_pixels(max_pixels)}")
        try:
            if long_side and image.format in ("JPEG", "MPO") and max(width, height) > long_side:
                ratio = long_side / max(width, height)
                image.draft("RGB", (int(width * ratio) + 1, int(height * ratio) + 1))
            image.load()
            image = _reduced(image, long_side)
            image = _upright(image)
            image = _to_rgb(image)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise PhotoTooLarge(f"{name}: image has {too_many_pixels(max_pixels)}") from None
        except Exception as err:  # noqa: BLE001 - any decoder failure is a bad file
            if isinstance(err, OSError) and _is_truncation(err):
                raise PhotoError(f"{name}: {TRUNCATED}") from None
            if _is_metadata_bomb(err):
                raise PhotoTooLarge(f"{name}: {METADATA_BOMB}") from None
            raise PhotoError(f"{name}: cannot decode the image: {DAMAGED} ({_short(err)})") from None
    rgb = np.asarray(image, dtype=np.uint8)
    if long_side:
        rgb, _ = downscale(rgb, long_side)
    if icc_profile:  # converted once the photo is shrunk: fewer pixels
        rgb = np.asarray(in_srgb(Image.fromarray(rgb), icc_profile))
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    return bgr, max(width, height) / max(bgr.shape[:2])


# The transpose that turns a photo upright, by its EXIF Orientation (1-8), as Pillow's exif_transpose applies it.
ORIENTATION_TRANSPOSE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
                         4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
                         6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_90}


def _upright(image: Image.Image) -> Image.Image:
    """``image`` turned as its EXIF orientation says (Pillow's ``exif_transpose``). Where Pillow
    fails on a malformed entry elsewhere in the EXIF (an entry of the wrong type: it writes the
    EXIF back out), the orientation tag alone is applied, and a photo without a readable one is
    taken as it is: the pixels are whole."""
    try:
        return ImageOps.exif_transpose(image)
    except Exception:  # noqa: BLE001 - Pillow's failures here are many (TypeError, AttributeError, ...); the pixels are loaded
        try:
            orientation = image.getexif().get(0x0112)
        except Exception:  # noqa: BLE001 - an EXIF block Pillow cannot parse at all: no orientation to apply
            return image
        method = ORIENTATION_TRANSPOSE.get(orientation) if isinstance(orientation, int) else None
        return image.transpose(method) if method is not None else image


# Modes whose pixels can be averaged as they will be shown (not a palette's indices, nor 16-bit
# or 1-bit ones, which PIL does not shrink, nor 32-bit ones, whose scale _to_rgb takes from their
# brightest pixel).
AVERAGED_MODES = frozenset({"L", "LA", "RGB", "RGBA", "CMYK"})


def _reduced(image: Image.Image, long_side: int | None) -> Image.Image:
    """A decoded image that cannot be decoded smaller (PNG, WebP, HEIC) shrunk by the whole
    factor that keeps its long side at ``long_side`` or more, before any copy is made of it
    (an 80 MP PNG: 1.6 GB and 3 s to read at full size), its metadata (the EXIF orientation)
    kept; as it is where there is no such factor, or its mode is not one of AVERAGED_MODES."""
    factor = max(image.size) // long_side if long_side else 0
    if factor < 2 or image.mode not in AVERAGED_MODES:
        return image
    return image.reduce(factor)  # (its info, the EXIF with it, goes along)


def too_many_pixels(max_pixels: int) -> str:
    """How a message ends for an image over ``max_pixels`` (after its pixel count, or "image has")."""
    return f"more than the {max_pixels:,} pixels allowed: send a smaller copy of the photo"


def _to_rgb(image: Image.Image) -> Image.Image:
    """Flatten alpha onto white, widen 16-bit and palette images, and return RGB."""
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        image = image.convert("RGBA")
        background = Image.new("RGBA", image.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, image).convert("RGB")
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        array = np.asarray(image)
        if array.dtype != np.uint16:  # 32-bit ("I") or big-endian: to native 16 bits, in place of floats
            array = np.clip(array, 0, 65535).astype(np.uint16)
        top = 65535.0 if array.max() > 255 else 255.0
        return Image.fromarray(cv2.convertScaleAbs(array, alpha=255.0 / top)).convert("RGB")
    return image.convert("RGB")


def in_srgb(image: Image.Image, icc_profile: bytes | None) -> Image.Image:
    """An RGB image in sRGB, converted from the colour space its embedded ICC profile names
    (an iPhone's Display P3: read as sRGB, its colours look duller than they are); as it is
    without a profile, with an sRGB one, or with one LittleCMS cannot use."""
    if not icc_profile:
        return image
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(icc_profile))
        if "srgb" in ImageCms.getProfileDescription(profile).lower():
            return image
        return ImageCms.profileToProfile(image, profile, SRGB, outputMode="RGB")
    except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
        return image


def _is_truncation(err: Exception) -> bool:
    return "truncated" in str(err).lower()


def _is_metadata_bomb(err: Exception) -> bool:
    """PIL's refusal of a text or colour-profile block that unpacks past its limit
    (MAX_TEXT_CHUNK), or of text blocks that together do (MAX_TEXT_MEMORY)."""
    said = str(err).lower()
    return isinstance(err, ValueError) and ("decompressed data too large" in said or "too much memory used in text chunks" in said)


def _short(err: Exception, limit: int = 100) -> str:
    """The decoder's own words, on one line, cut at a word if long."""
    text = " ".join(str(err).split()) or type(err).__name__
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."


def downscale(image: np.ndarray, long_side: int = WORKING_LONG_SIDE) -> tuple[np.ndarray, float]:
    """Shrink ``image`` so its longer side is at most ``long_side`` px (never enlarges).

    Returns the working image and the scale factor (working px per original px).
    """
    height, width = image.shape[:2]
    scale = min(1.0, long_side / max(height, width))
    if scale >= 1.0:
        return image, 1.0
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), scale
