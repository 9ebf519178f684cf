#!/usr/bin/env python3
"""Decodes a PNG with Python's own zlib (an oracle independent of cairo and libpng) and prints
JSON: {"width", "height", "bytes", "pixels": {"x,y": [r, g, b]}, "dark": count of dark pixels}.

Usage: png_info.py FILE [X,Y ...]   (coordinates in image pixels)
Checks every chunk's CRC and the stream's integrity; exits 1 with a message on a broken file.
"""
import json
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG signature")
    offset, idat, header = 8, b"", None
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset:offset + 4])
        kind = data[offset + 4:offset + 8]
        body = data[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError("bad CRC in chunk %r" % kind)
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace != 0:
        raise ValueError("unexpected format: depth %d, colour type %d, interlace %d" % (depth, color, interlace))
    channels = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, position = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[position], bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 255
            elif kind != 0:
                raise ValueError("bad filter %d" % kind)
        rows.append(line)
        previous = line
    return width, height, channels, rows, len(data)


def main():
    try:
        width, height, channels, rows, size = decode(sys.argv[1])
    except Exception as error:  # a broken file is the answer, not a crash
        print("png_info: %s: %s" % (sys.argv[1], error), file=sys.stderr)
        sys.exit(1)
    pixels = {}
    for spec in sys.argv[2:]:
        x, y = (int(v) for v in spec.split(","))
        pixels[spec] = list(rows[y][x * channels:x * channels + 3])
    dark = sum(1 for row in rows for x in range(width) if sum(row[x * channels:x * channels + 3]) < 200)
    print(json.dumps({"width": width, "height": height, "bytes": size, "pixels": pixels, "dark": dark}))


if __name__ == "__main__":
    main()
