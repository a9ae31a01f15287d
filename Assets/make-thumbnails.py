#!/usr/bin/env python3
"""Renders the shipped catalog's class thumbnails into this folder (Assets/), the files that
Assets/classes.csv names in its thumbnailSlug column (class-thumbnail-1.jpg … -3.jpg).

    pip install Pillow          # once (Pillow 10 or later)
    python3 Assets/make-thumbnails.py

Drawn here from arithmetic, nothing downloaded: a stage at night (a gradient sky, a floor),
spotlights, and dancing figures in silhouette, one scene per file. 16:9 like the brief's own
thumbnails, small enough to ship (480x270, baseline JPEG). Re-running rewrites the same files.
"""
import math
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
WIDTH, HEIGHT = 480, 270

# (sky top, sky bottom, floor, light, figure) per scene.
SCENES = [
    ((20, 10, 60), (200, 60, 120), (40, 20, 40), (255, 220, 120), (15, 10, 25)),
    ((5, 30, 60), (40, 160, 200), (20, 40, 50), (200, 255, 240), (5, 15, 25)),
    ((40, 10, 10), (240, 140, 40), (50, 25, 15), (255, 250, 200), (25, 10, 5)),
]


def mix(a, b, t):
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))


def figure(draw, x, floor, size, lean, colour):
    """A dancer in silhouette: head, body, arms up or out, legs apart."""
    head = size * 0.12
    neck = floor - size * 0.78
    hip = floor - size * 0.42
    draw.ellipse([x - head + lean, neck - 2 * head, x + head + lean, neck], fill=colour)
    width = max(3, int(size * 0.07))
    draw.line([(x + lean, neck), (x, hip)], fill=colour, width=width + 2)
    for side in (-1, 1):
        draw.line(
            [(x + lean * 0.8, neck + size * 0.05),
             (x + side * size * 0.3, neck - side * lean * 0.6 - size * 0.12)],
            fill=colour, width=width)
        draw.line([(x, hip), (x + side * size * 0.2, floor)], fill=colour, width=width + 1)


def scene(index, colours):
    sky_top, sky_bottom, floor_colour, light, figure_colour = colours
    image = Image.new("RGB", (WIDTH, HEIGHT))
    pixels = image.load()
    floor_y = int(HEIGHT * 0.78)
    lights = [(WIDTH * (0.2 + 0.3 * k + 0.05 * index), 0) for k in range(3)]
    for y in range(HEIGHT):
        for x in range(WIDTH):
            if y < floor_y:
                colour = mix(sky_top, sky_bottom, y / floor_y)
            else:
                colour = mix(floor_colour, (0, 0, 0), (y - floor_y) / (HEIGHT - floor_y))
            # Cones of light from the top, brighter near their axis.
            glow = 0.0
            for lx, _ in lights:
                spread = 0.15 + 0.35 * y / HEIGHT
                distance = abs(x - lx) / (WIDTH * spread)
                glow = max(glow, max(0.0, 1 - distance) * 0.45)
            pixels[x, y] = mix(colour, light, glow)
    draw = ImageDraw.Draw(image)
    count = 3 + index
    for k in range(count):
        x = WIDTH * (k + 1) / (count + 1)
        size = HEIGHT * (0.55 + 0.1 * math.sin(k * 1.7 + index))
        lean = size * 0.08 * math.cos(k * 2.3 + index)
        figure(draw, x, floor_y + 4, size, lean, figure_colour)
    return image


def main():
    for index, colours in enumerate(SCENES):
        name = HERE / f"class-thumbnail-{index + 1}.jpg"
        scene(index, colours).save(name, "JPEG", quality=85, optimize=True)
        print(name.name)


if __name__ == "__main__":
    main()
