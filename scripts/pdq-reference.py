#!/usr/bin/env python3
"""PDQ hashes from Meta's reference implementation (PyPI's pdqhash wraps its C++), for
proofcheck's tests to compare against. The tests read the committed result; run this
only when the test photos change:

    python3 -m venv /tmp/pdq && /tmp/pdq/bin/pip install pdqhash numpy pillow
    cd Tests/fixtures/photos
    /tmp/pdq/bin/python ../../../scripts/pdq-reference.py originals/*.jpg originals/*.png > pdq-reference.json

Prints a JSON object: each image path as given -> {"hash": HEX, "quality": N}. HEX is
the reference's text form (its sixteen 16-bit words, the last first): the 256-bit
number whose bit k is proofcheck's bit k, most significant digit first. Images are
decoded by Pillow; any transparency is laid over white, as proofcheck does.
"""
import json
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


def main():
    hashes = {}
    for path in sys.argv[1:]:
        with Image.open(path) as image:
            rgba = image.convert("RGBA")
            page = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            rgb = numpy.asarray(Image.alpha_composite(page, rgba).convert("RGB"))
        vector, quality = pdqhash.compute(rgb)
        hashes[path] = {"hash": reference_hex(vector), "quality": int(quality)}
    json.dump(hashes, sys.stdout, indent=2, sort_keys=True)
    print()


main()
