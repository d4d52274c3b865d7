#!/usr/bin/env python3
"""PDQ hashes from Meta's reference implementation (PyPI's pdqhash wraps its C++).

Usage: pdq-reference.py IMAGE...   prints one line per image: HEX QUALITY PATH
HEX is the reference's text form (its sixteen 16-bit words, the last first): the
256-bit number whose bit k is proofcheck's bit k, most significant digit first. Images are decoded by Pillow; any
transparency is laid over white, as proofcheck does.
"""
import sys

import numpy
import pdqhash
from PIL import Image


def reference_hex(vector):
    # pdqhash returns the bits most significant first: bit k is vector[255 - k].
    value = 0
    for k in range(256):
        if vector[255 - k]:
            value |= 1 << k
    return "%064x" % value


for path in sys.argv[1:]:
    with Image.open(path) as image:
        rgba = image.convert("RGBA")
        page = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        rgb = numpy.asarray(Image.alpha_composite(page, rgba).convert("RGB"))
    vector, quality = pdqhash.compute(rgb)
    print(reference_hex(vector), quality, path)
