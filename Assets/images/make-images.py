#!/usr/bin/env python3
"""Renders the project's own sample images into this folder (Assets/images/).

    pip install Pillow          # once (Pillow 10 or later)
    python3 Assets/images/make-images.py

Every picture is drawn here from arithmetic; nothing is downloaded. The set covers the kinds
the decoders must handle: a truecolour PNG, a palette PNG with a transparent entry, a grey PNG,
a grey+alpha PNG, an RGBA PNG, an interlaced (Adam7) PNG, a 16-bit PNG, a baseline JPEG, a
progressive JPEG, a greyscale JPEG and a CMYK JPEG. Pillow writes neither interlaced nor 16-bit
RGB PNGs, so `write_png` below encodes those two (zlib does the compression).

Each image carries a 16x16 reference patch at its top-left corner whose colour the tests check
after decoding (see PATCHES; RGBA, straight alpha), and the tests know each image's size.
Re-running the script rewrites the same files (the drawing is deterministic).
"""
import math
import struct
import zlib
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent

# name: (width, height, reference patch RGBA at (0..15, 0..15))
PATCHES = {
    "aurora.png": (240, 160, (255, 0, 0, 255)),
    "stained-glass.png": (200, 150, (0, 0, 0, 0)),  # the palette's transparent entry
    "moon-grey.png": (180, 180, (200, 200, 200, 255)),
    "ghost-grey-alpha.png": (120, 120, (255, 255, 255, 128)),
    "leaf-alpha.png": (160, 160, (0, 255, 0, 64)),
    "tide-interlaced.png": (200, 120, (0, 0, 255, 255)),
    "dunes-16bit.png": (192, 128, (255, 255, 0, 255)),
    "mountains.jpg": (320, 200, (255, 255, 255, 255)),
    "city-night-progressive.jpg": (320, 180, (0, 255, 255, 255)),
    "fog-grey.jpg": (240, 160, (64, 64, 64, 255)),
    "poster-cmyk.jpg": (200, 200, (255, 0, 255, 255)),  # drawn as CMYK ink (0, 255, 0, 0)
}


def clamp(value):
    return max(0, min(255, int(round(value))))


def mix(a, b, t):
    return tuple(clamp(x + (y - x) * t) for x, y in zip(a, b))


def with_patch(name, pixel, patch=None):
    """Wraps a pixel function so the top-left 16x16 shows the reference colour (`patch` when
    the pixel is not RGB(A): a grey level or a palette index)."""
    colour = PATCHES[name][2]
    channels = len(pixel(20, 20)) if patch is None else 0

    def draw(x, y):
        if x < 16 and y < 16:
            return colour[:channels] if patch is None else patch
        return pixel(x, y)

    return draw


def render(name, mode, pixel, patch=None):
    """An image of `mode` from a function of (x, y) returning a tuple, or an int for "L" and
    "P". `patch` is the reference patch's value where it is not the RGB(A) of PATCHES: a grey
    level, a palette index, grey+alpha or CMYK ink."""
    width, height = PATCHES[name][:2]
    image = Image.new(mode, (width, height))
    draw = with_patch(name, pixel, patch)
    image.putdata([draw(x, y) for y in range(height) for x in range(width)])
    return image


def aurora(x, y):
    sky = mix((10, 20, 60), (30, 160, 120), y / 160)
    wave = math.sin(x / 18 + math.sin(y / 11) * 2) * 0.5 + 0.5
    glow = max(0.0, 1 - abs(y - 60 - 25 * math.sin(x / 30)) / 30) * wave
    ground = y > 130 + 6 * math.sin(x / 15)
    return (8, 12, 20) if ground else mix(sky, (120, 255, 170), glow)


def stained_glass(x, y):
    cells = [(40, 40), (120, 30), (170, 100), (60, 120), (110, 80), (180, 20)]
    dists = sorted((math.hypot(x - cx, y - cy), i) for i, (cx, cy) in enumerate(cells))
    if dists[1][0] - dists[0][0] < 3:
        return 0  # lead lines: palette index 0, transparent
    return 1 + dists[0][1]


GLASS_PALETTE = [0, 0, 0, 200, 30, 40, 30, 90, 200, 240, 190, 30, 40, 160, 70, 150, 40, 170,
                 230, 120, 20]


def moon(x, y):
    d = math.hypot(x - 95, y - 95)
    if d > 70:
        return 10 + (7 * x * y) % 3  # a dark, slightly grainy sky
    crater = 30 * max(0.0, 1 - math.hypot(x - 70, y - 80) / 18)
    return clamp(230 - d * 1.2 - crater)


def ghost(x, y):
    d = math.hypot(x - 60, (y - 55) * 0.8)
    body = d < 40 or (y > 55 and abs(x - 60) < 40 and y < 100 + 6 * math.sin(x / 5))
    eye = math.hypot(x - 47, y - 50) < 6 or math.hypot(x - 73, y - 50) < 6
    if not body:
        return (0, 0)
    return (20, 255) if eye else (235, 200)


def leaf(x, y):
    u, v = (x - 80) / 70, (y - 80) / 45
    r = u * u + v * v * (1 + 0.6 * u)
    if r > 1:
        return (0, 0, 0, 0)
    vein = abs(v) < 0.04 or abs(v - 0.5 * abs(u - 0.2) * math.copysign(1, v)) < 0.03
    base = (60, 150, 40) if not vein else (190, 220, 120)
    return (*mix(base, (140, 200, 60), (u + 1) / 2), 255)


def tide(x, y):
    water = mix((0, 60, 120), (0, 170, 200), y / 120)
    crest = math.sin(x / 9 + y / 5) > 0.92
    return (235, 245, 255) if crest else water


def dunes(x, y):
    # 16-bit samples: smooth gradients that 8 bits would band
    h = 60 + 20 * math.sin(x / 23) + 10 * math.sin(x / 7 + 1)
    if y < h:
        t = y / h
        return (clamp(90 + 120 * t) * 257, clamp(150 + 80 * t) * 257, 65535)
    shade = 0.6 + 0.4 * math.sin((x + y) / 12)
    return (clamp(230 * shade) * 257, clamp(180 * shade) * 257, clamp(110 * shade) * 257)


def mountains(x, y):
    ridge1 = 110 + 40 * math.sin(x / 37) + 15 * math.sin(x / 11)
    ridge2 = 140 + 25 * math.sin(x / 23 + 2)
    if y > ridge2:
        return mix((40, 90, 50), (20, 50, 30), (y - ridge2) / 60)
    if y > ridge1:
        snow = y < ridge1 + 8
        return (240, 240, 250) if snow else (90, 90, 110)
    return mix((120, 170, 240), (250, 200, 160), y / 200)


def city(x, y):
    block = x // 20
    top = 70 + (block * 37 % 60)
    if y > top:
        lit = (x // 4 + y // 6 + block) % 5 == 0 and x % 4 and y % 6
        return (250, 220, 120) if lit else (25, 25, 40)
    stars = (x * 31 + y * 17) % 97 == 0
    return (255, 255, 255) if stars else mix((10, 10, 40), (60, 30, 90), y / 120)


def fog(x, y):
    trees = abs(math.sin(x / 13)) > 0.93 and y > 40
    depth = 0.5 + 0.5 * math.sin(x / 40 + y / 60)
    return clamp(200 - 120 * depth) if trees else clamp(170 + 60 * (y / 160) * depth)


def poster(x, y):
    # CMYK values straight from arithmetic: bands of ink
    ring = int(math.hypot(x - 100, y - 100) / 20)
    return [(0, 0, 0, 0), (0, 255, 255, 0), (255, 0, 255, 0), (255, 255, 0, 0),
            (0, 0, 0, 200)][ring % 5]


def write_png(path, width, height, rows, bit_depth, colour_type, interlace):
    """Encodes a PNG: `rows` holds per row a flat list of samples (3 per pixel for colour type 2).
    Each (sub-image) row is filtered with Up; interlaced images are written in Adam7's passes."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour_type]
    size = bit_depth // 8

    def encode(samples):
        return b"".join(s.to_bytes(size, "big") for s in samples)

    def filtered(lines):
        out, previous = bytearray(), None
        for line in lines:
            data = encode(line)
            up = bytes(len(data)) if previous is None else previous
            out += b"\x02" + bytes((a - b) & 0xFF for a, b in zip(data, up))
            previous = data
        return out

    if not interlace:
        raw = filtered(rows)
    else:
        raw = bytearray()
        for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
                               (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
            if x0 >= width or y0 >= height:
                continue  # an empty pass has no rows at all
            raw += filtered([sum((rows[y][x * channels:(x + 1) * channels]
                                  for x in range(x0, width, dx)), [])
                             for y in range(y0, height, dy)])

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0,
                         1 if interlace else 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                     + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def samples(name, pixel, patch):
    width, height = PATCHES[name][:2]
    draw = with_patch(name, pixel, patch)
    return [sum((list(draw(x, y)) for x in range(width)), []) for y in range(height)]


def main():
    render("aurora.png", "RGB", aurora).save(HERE / "aurora.png", optimize=True)

    glass = render("stained-glass.png", "P", stained_glass, patch=0)
    glass.putpalette(GLASS_PALETTE)
    glass.save(HERE / "stained-glass.png", transparency=0, optimize=True)

    render("moon-grey.png", "L", moon, patch=200).save(HERE / "moon-grey.png", optimize=True)
    render("ghost-grey-alpha.png", "LA", ghost, patch=(255, 128)).save(HERE / "ghost-grey-alpha.png", optimize=True)
    render("leaf-alpha.png", "RGBA", leaf).save(HERE / "leaf-alpha.png", optimize=True)

    for name, pixel, depth, interlace, patch in [
            ("tide-interlaced.png", tide, 8, True, (0, 0, 255)),
            ("dunes-16bit.png", dunes, 16, False, (65535, 65535, 0))]:
        width, height = PATCHES[name][:2]
        write_png(HERE / name, width, height, samples(name, pixel, patch), depth, 2, interlace)

    render("mountains.jpg", "RGB", mountains).save(HERE / "mountains.jpg", quality=85)
    render("city-night-progressive.jpg", "RGB", city).save(
        HERE / "city-night-progressive.jpg", quality=85, progressive=True)
    render("fog-grey.jpg", "L", fog, patch=64).save(HERE / "fog-grey.jpg", quality=85)
    render("poster-cmyk.jpg", "CMYK", poster, patch=(0, 255, 0, 0)).save(HERE / "poster-cmyk.jpg", quality=90)

    for name, (width, height, _) in PATCHES.items():
        with Image.open(HERE / name) as image:  # every file reads back at its size
            image.load()
            assert image.size == (width, height), (name, image.size)
        print(f"{name}: {width}x{height}, {(HERE / name).stat().st_size} bytes")


if __name__ == "__main__":
    main()
