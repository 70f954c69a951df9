#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What orccrash prints is safe for a terminal (docs/hardening.md):

  clean.py FILE...   exit 1 naming the first offending byte of each file

valid UTF-8; no C0 control but newline and tab; no DEL; no C1 control
(U+0080..U+009F); no bidi embedding, override or isolate (U+202A..U+202E,
U+2066..U+2069).
"""
import sys

bad = 0
for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    try:
        text = data.decode('utf-8', errors='strict')
    except UnicodeDecodeError as e:
        print(f'{path}: not UTF-8 at byte {e.start}: {data[e.start:e.start + 4]!r}')
        bad = 1
        continue
    for i, ch in enumerate(text):
        c = ord(ch)
        if (c < 0x20 and ch not in '\n\t') or 0x7f <= c <= 0x9f or \
           0x202a <= c <= 0x202e or 0x2066 <= c <= 0x2069:
            line = text.count('\n', 0, i) + 1
            print(f'{path}: U+{c:04X} on line {line}: {text[max(0, i - 20):i + 10]!r}')
            bad = 1
            break
sys.exit(bad)
