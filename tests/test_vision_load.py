"""Stage 1 of the photo reader: decoding photos of every accepted format, and refusing bad files."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pillow_heif
import pytest
from PIL import Image, ImageOps

from scorer.errors import UserError
from scorer.vision.load import PhotoError, PhotoTooLarge, downscale, load_photo, load_photo_scaled


def _test_image(width: int = 64, height: int = 48) -> Image.Image:
    """Left half red, right half blue, a white top-left quarter: asymmetric, so a rotation shows."""
    array = np.zeros((height, width, 3), np.uint8)
    array[:, : width // 2] = (220, 30, 30)
    array[:, width // 2 :] = (30, 30, 220)
    array[: height // 2, : width // 4] = (255, 255, 255)
    return Image.fromarray(array)


def _encode(image: Image.Image, fmt: str, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


@pytest.mark.parametrize("fmt, options", [("JPEG", {"quality": 95}), ("PNG", {}), ("WEBP", {"lossless": True})])
def test_common_formats_decode_to_bgr(fmt, options):
    data = _encode(_test_image(), fmt, **options)
    image = load_photo(data)
    assert image.shape == (48, 64, 3) and image.dtype == np.uint8
    # BGR: the left half is red, so its last channel is high and its first low.
    b, g, r = image[30, 20].astype(int)
    assert r > 180 and b < 80
    b, g, r = image[30, 50].astype(int)
    assert b > 180 and r < 80


def test_heic_written_by_pillow_heif_decodes():
    heif = pillow_heif.from_pillow(_test_image())
    buffer = io.BytesIO()
    heif.save(buffer, quality=95)
    image = load_photo(buffer.getvalue())
    assert image.shape == (48, 64, 3)
    b, g, r = image[30, 20].astype(int)
    assert r > 150 and b < 100


def test_heic_orientation_is_applied_once():
    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    _test_image().save(buffer, format="HEIF", exif=exif.tobytes(), quality=95)
    image = load_photo(buffer.getvalue())
    assert image.shape[:2] == (64, 48)
    ys, xs = np.nonzero(image.min(axis=2) > 200)
    assert (xs.mean() / 48, ys.mean() / 64) == pytest.approx((0.75, 0.125), abs=0.05)


def _matrix_profile(primaries, gamma: float = 2.2) -> bytes:
    """A minimal ICC v2 display profile: D50-adapted primaries (X, Y, Z each) and one gamma."""
    def s15(x):
        return struct.pack(">i", int(round(x * 65536)))

    def xyz(x, y, z):
        return b"XYZ " + bytes(4) + s15(x) + s15(y) + s15(z)

    curve = b"curv" + bytes(4) + struct.pack(">IH", 1, int(round(gamma * 256))) + bytes(2)
    name = b"a test profile\0"
    tags = [(b"desc", b"desc" + bytes(4) + struct.pack(">I", len(name)) + name + bytes(79)),
            (b"wtpt", xyz(0.9642, 1.0, 0.8249)), (b"rXYZ", xyz(*primaries[0])), (b"gXYZ", xyz(*primaries[1])),
            (b"bXYZ", xyz(*primaries[2])), (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve),
            (b"cprt", b"text" + bytes(4) + b"none\0")]
    table, data = b"", b""
    start = 128 + 4 + 12 * len(tags)
    for signature, body in tags:
        data += bytes(-(start + len(data)) % 4)
        table += signature + struct.pack(">II", start + len(data), len(body))
        data += body
    body = struct.pack(">I", len(tags)) + table + data
    header = (struct.pack(">I", 128 + len(body)) + b"lcms" + struct.pack(">I", 0x02100000) + b"mntrRGB XYZ "
              + bytes(12) + b"acsp" + bytes(24) + bytes(4) + s15(0.9642) + s15(1.0) + s15(0.8249) + bytes(48))
    return header + body


# Display P3 (an iPhone's photos), its primaries adapted to D50 as in Apple's own profile.
DISPLAY_P3 = [(0.5151, 0.2412, -0.0011), (0.2920, 0.6922, 0.0419), (0.1571, 0.0666, 0.7841)]


@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_colours_are_turned_into_srgb_from_an_embedded_profile(fmt):
    # A wide-gamut photo's values read as sRGB look duller than the scene: converted, a
    # Display P3 red comes out redder.
    plain = Image.new("RGB", (64, 48), (200, 60, 60))
    as_p3 = load_photo(_encode(plain, fmt, icc_profile=_matrix_profile(DISPLAY_P3), quality=98))
    as_is = load_photo(_encode(plain, fmt, quality=98))
    b, g, r = as_is[24, 32].astype(int)
    assert abs(r - 200) <= 2 and abs(g - 60) <= 2
    b2, g2, r2 = as_p3[24, 32].astype(int)
    assert r2 >= r + 12 and g2 <= g - 15


def test_a_profile_that_cannot_be_used_leaves_the_colours_as_they_are():
    plain = Image.new("RGB", (64, 48), (200, 60, 60))
    image = load_photo(_encode(plain, "PNG", icc_profile=b"not a profile at all"))
    assert image[24, 32].tolist() == [60, 60, 200]


def test_reads_from_path(tmp_path):
    path = tmp_path / "board.png"
    _test_image().save(path)
    assert load_photo(path).shape == (48, 64, 3)
    assert load_photo(str(path)).shape == (48, 64, 3)


@pytest.mark.parametrize("orientation, shape", [(1, (48, 64)), (3, (48, 64)), (6, (64, 48)), (8, (64, 48))])
def test_exif_orientation_is_applied(orientation, shape):
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = _encode(_test_image(), "JPEG", quality=95, exif=exif.tobytes())
    image = load_photo(data)
    assert image.shape[:2] == shape
    # Find where the white quarter went: it starts top-left and rotates with the tag.
    white = image.min(axis=2) > 200
    ys, xs = np.nonzero(white)
    centre = (xs.mean() / image.shape[1], ys.mean() / image.shape[0])
    expected = {1: (0.125, 0.25), 3: (0.875, 0.75), 6: (0.75, 0.125), 8: (0.25, 0.875)}[orientation]
    assert centre == pytest.approx(expected, abs=0.05)


@pytest.mark.parametrize("orientation, shape", [(1, (48, 64)), (6, (64, 48)), (8, (64, 48))])
def test_a_malformed_exif_entry_leaves_the_photo_read_and_turned(orientation, shape):
    # An entry of the wrong type (PhotometricInterpretation stored as ASCII, not SHORT): Pillow's
    # exif_transpose fails writing the EXIF back, and the whole photo was refused as damaged (a
    # robustness sweep).
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x0107] = 2
    data = bytearray(_encode(_test_image(), "JPEG", quality=95, exif=exif.tobytes()))
    tiff = data.index(b"Exif\x00\x00") + 6
    order = "little" if data[tiff:tiff + 2] == b"II" else "big"
    ifd = tiff + int.from_bytes(data[tiff + 4:tiff + 8], order)
    for k in range(int.from_bytes(data[ifd:ifd + 2], order)):
        entry = ifd + 2 + 12 * k
        if int.from_bytes(data[entry:entry + 2], order) == 0x0107:
            data[entry + 2:entry + 4] = (2).to_bytes(2, order)  # SHORT -> ASCII
    if orientation != 1:  # (what the loader meets: Pillow writes the EXIF back only once it has turned the photo)
        with pytest.raises(Exception):
            ImageOps.exif_transpose(Image.open(io.BytesIO(bytes(data))))
    image = load_photo(bytes(data))
    assert image.shape[:2] == shape


def test_alpha_is_flattened_on_white():
    rgba = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
    image = load_photo(_encode(rgba, "PNG"))
    assert image.shape == (40, 40, 3) and image.min() == 255


def test_sixteen_bit_greyscale_png():
    array = (np.arange(1600, dtype=np.uint16).reshape(40, 40) * 40).astype(np.uint16)
    image = load_photo(_encode(Image.fromarray(array), "PNG"))
    assert image.shape == (40, 40, 3) and image.dtype == np.uint8 and image.max() > 200


@pytest.mark.parametrize("mode", ["I;16", "I"])
def test_sixteen_and_thirty_two_bit_greyscale_is_scaled_to_eight_bits_rounded(mode):
    levels = np.array([0, 257, 32767, 32896, 65535] * 8)
    array = np.tile(levels, (40, 1)).astype(np.uint16 if mode == "I;16" else np.int32)
    image = load_photo(_encode(Image.fromarray(array), "PNG" if mode == "I;16" else "TIFF"))
    assert image[0, :5].tolist() == [[v] * 3 for v in (0, 1, 127, 128, 255)]


@pytest.mark.parametrize("data", [b"", b"hello, this is not a photo", b"%PDF-1.4\n" + b"0" * 200])
def test_non_images_are_refused_with_one_line(data):
    with pytest.raises(PhotoError) as caught:
        load_photo(data)
    assert isinstance(caught.value, UserError)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP", "HEIF"])
@pytest.mark.parametrize("keep", [0.1, 0.5])
def test_truncated_files_are_refused_saying_so(fmt, keep):
    noisy = Image.fromarray(np.random.default_rng(0).integers(0, 255, (200, 300, 3), dtype=np.uint8))
    data = _encode(noisy, fmt)
    with pytest.raises(PhotoError, match="cut short") as caught:
        load_photo(data[: int(len(data) * keep)])
    message = str(caught.value)
    assert "\n" not in message and len(message) < 250


@pytest.mark.parametrize("keep", [300, 30_000])
def test_a_photo_cut_short_says_so_in_plain_words(keep):
    noisy = Image.fromarray(np.random.default_rng(0).integers(0, 255, (400, 600, 3), dtype=np.uint8))
    data = _encode(noisy, "JPEG")
    with pytest.raises(PhotoError) as caught:
        load_photo(data[:keep])
    assert str(caught.value) == "photo: the image file is cut short (truncated): send or copy the whole photo again"


@pytest.mark.parametrize("size", [(1, 1), (31, 400), (400, 20)])
def test_photos_too_small_to_show_a_board_are_refused_with_one_line(size):
    with pytest.raises(PhotoError, match=r"only \d+x\d+ px") as caught:
        load_photo(_encode(_test_image(*size), "PNG"))
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("size", [(2000, 100), (64, 5000)])
def test_strips_too_narrow_to_show_a_board_are_refused(size):
    with pytest.raises(PhotoError, match="too narrow"):
        load_photo(_encode(_test_image(*size), "PNG"))


def test_the_smallest_and_narrowest_photos_allowed_still_decode():
    assert load_photo(_encode(_test_image(32, 32), "PNG")).shape == (32, 32, 3)
    assert load_photo(_encode(_test_image(1600, 100), "PNG")).shape == (100, 1600, 3)


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims a huge size, with a tiny (invalid) body: a decompression bomb."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IDAT", zlib.compress(b"\0" * 100))
            + _png_chunk(b"IEND", b""))


def test_decompression_bomb_is_refused_before_decoding():
    with pytest.raises(PhotoTooLarge, match="pixels"):
        load_photo(_png_header_only(30000, 30000))



@pytest.mark.parametrize("kind, body", [(b"zTXt", b"note\0\0"), (b"iCCP", b"icc\0\0")])
@pytest.mark.parametrize("where", ["before the pixels", "after them"])
def test_metadata_that_unpacks_too_large_is_refused_as_too_large(kind, body, where):
    png = _encode(_test_image(), "PNG")
    bomb = _png_chunk(kind, body + zlib.compress(b"\0" * 20_000_000))  # 20 kB that unpack to 20 MB
    png = png[:33] + bomb + png[33:] if where == "before the pixels" else png[:-12] + bomb + png[-12:]
    with pytest.raises(PhotoTooLarge) as info:
        load_photo(png)
    assert "PngImagePlugin" not in str(info.value) and "\n" not in str(info.value)


def test_text_blocks_each_small_but_together_too_large_are_refused_as_too_large():
    png = _encode(_test_image(), "PNG")
    block = _png_chunk(b"zTXt", b"note\0\0" + zlib.compress(b"\0" * 1_000_000))  # under PIL's limit for one block
    with pytest.raises(PhotoTooLarge) as info:
        load_photo(png[:33] + block * 70 + png[33:])  # 70 MB of text in all
    assert "PngImagePlugin" not in str(info.value)


@pytest.mark.parametrize("width, height", [(10000, 9000), (9500, 9000), (30000, 30000)])
def test_a_photo_over_the_pixel_limit_is_told_the_limit_whatever_pils_own_checks_say(width, height):
    # 90 MP sets off PIL's own warning, 900 MP its error: each gets the same plain words.
    with pytest.raises(PhotoTooLarge, match="more than the 80,000,000 pixels allowed: send a smaller copy"):
        load_photo(_png_header_only(width, height))


def test_a_damaged_file_says_one_line_and_no_decoder_warnings(recwarn):
    tiff = b"II*\x00\x08\x00\x00\x00" + b"\xff" * 100  # a TIFF whose EXIF is corrupt
    with pytest.raises(PhotoError):
        load_photo(tiff)
    assert not [w for w in recwarn.list if "EXIF" in str(w.message) or "TiffImagePlugin" in w.filename]

def test_pixel_limit_is_configurable():
    data = _encode(_test_image(), "PNG")
    with pytest.raises(PhotoTooLarge, match="pixels"):
        load_photo(data, max_pixels=1000)


def test_file_size_limit_is_checked(tmp_path):
    data = _encode(_test_image(), "PNG")
    with pytest.raises(PhotoTooLarge, match="bytes"):
        load_photo(data, max_bytes=100)
    path = tmp_path / "big.png"
    path.write_bytes(data)
    with pytest.raises(PhotoTooLarge, match="bytes"):
        load_photo(path, max_bytes=100)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(PhotoError, match="no such file"):
        load_photo(tmp_path / "nope.jpg")
    with pytest.raises(PhotoError, match="directory"):
        load_photo(tmp_path)


@pytest.mark.parametrize("fmt, mode", [("PNG", "RGBA"), ("PNG", "RGB"), ("PNG", "P"), ("WEBP", "RGB"), ("HEIF", "RGB")])
def test_an_image_not_decoded_smaller_is_shrunk_as_soon_as_decoded_its_orientation_kept(fmt, mode, monkeypatch):
    from scorer.vision import load as loader

    converted = []  # the sizes of the images put to RGB: shrunk already, where their mode can be
    to_rgb = loader._to_rgb
    monkeypatch.setattr(loader, "_to_rgb", lambda image: converted.append(image.size) or to_rgb(image))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees: the long side becomes the height
    big = _test_image(1600, 1200).convert(mode)
    options = {"exif": exif.tobytes()} | ({"lossless": True} if fmt == "WEBP" else {"quality": 95} if fmt == "HEIF" else {})
    data = _encode(big, fmt, **options)
    image, photo_px = load_photo_scaled(data, long_side=400)
    assert image.shape[:2] == (400, 300) and photo_px == pytest.approx(4.0)
    assert converted == ([(1200, 1600)] if mode == "P" else [(300, 400)])  # (turned upright first)
    whole, _ = downscale(load_photo(data), 400)  # the same as decoded whole, then shrunk
    assert np.abs(image.astype(int) - whole.astype(int)).mean() < 2
    ys, xs = np.nonzero(image.min(axis=2) > 200)  # the white quarter, turned with the tag
    assert (xs.mean() / 300, ys.mean() / 400) == pytest.approx((0.75, 0.125), abs=0.05)


def test_downscale_keeps_aspect_and_never_enlarges():
    image = np.zeros((3000, 4000, 3), np.uint8)
    small, scale = downscale(image, 1000)
    assert small.shape == (750, 1000, 3) and scale == pytest.approx(0.25)
    same, scale = downscale(small, 2000)
    assert same is small and scale == 1.0


@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_long_side_decodes_small_and_upright(fmt):
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees: the long side becomes the height
    big = _test_image(1600, 1200)
    options = {"quality": 90, "exif": exif.tobytes()} if fmt == "JPEG" else {}
    image, photo_px = load_photo_scaled(_encode(big, fmt, **options), long_side=400)
    assert max(image.shape[:2]) == 400
    assert image.shape[:2] == ((400, 300) if fmt == "JPEG" else (300, 400))
    assert photo_px == pytest.approx(4.0)  # the photo's px per returned px
    assert load_photo_scaled(_encode(big, fmt, **options))[1] == 1.0
