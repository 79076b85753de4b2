#!/usr/bin/env python3
"""Draws Looplab's bullet sprite (assets/bullet.png): a 32x32 round bullet with a bright core
and a soft rim, white so the renderer can tint it. Standard library only; run it from the
repository root to regenerate the file."""
import math
import struct
import zlib

SIZE = 32


def pixel(x, y):
    # Distance from the centre in units of the radius (1.0 at the edge of the quad).
    dx = (x + 0.5 - SIZE / 2) / (SIZE / 2)
    dy = (y + 0.5 - SIZE / 2) / (SIZE / 2)
    r = math.hypot(dx, dy)
    if r >= 1.0:
        return (255, 255, 255, 0)
    # Opaque body out to 0.72, then an antialiased falloff to the edge.
    alpha = 1.0 if r < 0.72 else max(0.0, 1.0 - (r - 0.72) / 0.28)
    # A white-hot core that darkens towards the rim, so a tint reads as a glowing shell.
    light = 1.0 if r < 0.35 else 1.0 - 0.45 * (r - 0.35) / 0.65
    v = round(255 * light)
    return (v, v, v, round(255 * alpha))


def png(width, height, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + bytes(c for p in row for c in p) for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


rows = [[pixel(x, y) for x in range(SIZE)] for y in range(SIZE)]
with open("assets/bullet.png", "wb") as f:
    f.write(png(SIZE, SIZE, rows))
