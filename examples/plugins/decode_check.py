#!/usr/bin/env python3
"""decode_check.py: an executable verifier in Python (standard library only).

It decodes the evidence far enough to know it is a real image: a PNG's chunks
with their CRCs and its compressed pixels inflated to exactly the size the header
promises; a JPEG's markers walked to the scan and its end-of-image marker. It
approves images of at least 64 x 64 pixels.
Register: habitctl plugin add --exec ./decode_check.py
"""
import json
import struct
import sys
import zlib

MIN_SIDE = 64


def png(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    pos, idat, size = 8, b"", None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length or pos + 12 + length > len(data):
            raise ValueError("truncated chunk")
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ValueError("bad CRC in " + kind.decode("latin-1"))
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour)
            if channels is None:
                raise ValueError("unknown colour type")
            size = (width, height, height * (1 + (width * channels * depth + 7) // 8))
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    if size is None:
        raise ValueError("no IHDR")
    if len(zlib.decompress(idat)) != size[2]:
        raise ValueError("pixel data does not match the header")
    return size[0], size[1]


def jpeg(data):
    if data[:2] != b"\xff\xd8":
        return None
    pos, size = 2, None
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise ValueError("marker expected")
        marker = data[pos + 1]
        (length,) = struct.unpack(">H", data[pos + 2:pos + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[pos + 5:pos + 9])
            size = (width, height)
        if marker == 0xDA:
            if not data.rstrip(b"\x00").endswith(b"\xff\xd9"):
                raise ValueError("no end-of-image marker")
            if size is None:
                raise ValueError("no frame header")
            return size
        pos += 2 + length
    raise ValueError("no scan")


def main():
    request = json.loads(sys.stdin.readline())
    path = request["evidence"]["path"]
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        size = png(data) or jpeg(data)
    except (ValueError, zlib.error, struct.error) as problem:
        return {"outcome": "rejected", "confidence": 0.95, "reason": "undecodable", "message": str(problem)}
    if size is None:
        return {"outcome": "rejected", "confidence": 0.95, "reason": "not_an_image", "message": "neither PNG nor JPEG"}
    if min(size) < MIN_SIDE:
        return {"outcome": "rejected", "confidence": 0.9, "reason": "too_small", "message": "%dx%d" % size,
                "signals": ["small_image"]}
    return {"outcome": "approved", "confidence": 0.92, "reason": "decoded", "message": "a %dx%d image" % size}


if __name__ == "__main__":
    print(json.dumps(main()))
