# SPDX-License-Identifier: GPL-2.0-or-later
"""The JSON documents of `orccrash --json --shell` (or several -e), one
after the other in one text."""
import json


def docs(text):
    i, dec = 0, json.JSONDecoder()
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return
        d, i = dec.raw_decode(text, i)
        yield d
