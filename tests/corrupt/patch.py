#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Byte surgery on copies of dumps for tests/corrupt/run.sh.

  patch.py phys2off ELF PADDR          file offset of a physical address (PT_LOAD)
  patch.py notes ELF                   "offset size" of the PT_NOTE segment
  patch.py kdump-notes FILE            "offset size" of a kdump-compressed file's notes
  patch.py rename-note FILE OFF SIZE OLD NEW   rename notes called OLD (same length)
  patch.py xor FILE OFF LEN [SEED]     XOR with a fixed pseudo-random stream
                                       (applying it twice restores the file)
  patch.py get64 FILE OFF              the little-endian u64 there
  patch.py put64 FILE OFF VALUE        write one (prints the old value)
  patch.py replace FILE OLD NEW [MAX]  replace OLD by NEW (same length; Python
                                       escapes such as \\x1b allowed) in the
                                       first MAX bytes (default 1 MiB); prints
                                       the count
"""
import struct, sys


def phdrs(f):
    f.seek(0)
    h = f.read(64)
    if h[:4] != b'\x7fELF' or h[4] != 2:
        sys.exit('not an ELF64 file')
    phoff, = struct.unpack_from('<Q', h, 0x20)
    phentsize, phnum = struct.unpack_from('<HH', h, 0x36)
    out = []
    for i in range(phnum):
        f.seek(phoff + i * phentsize)
        out.append(struct.unpack('<IIQQQQQQ', f.read(56)))
    return out


def main(a):
    cmd = a[0]
    if cmd == 'phys2off':
        with open(a[1], 'rb') as f:
            pa = int(a[2], 0)
            for p in phdrs(f):
                if p[0] == 1 and p[4] <= pa < p[4] + p[5]:
                    print(p[2] + pa - p[4])
                    return
        sys.exit(f'{a[2]} is in no PT_LOAD')
    if cmd == 'notes':
        with open(a[1], 'rb') as f:
            for p in phdrs(f):
                if p[0] == 4:
                    print(p[2], p[5])
                    return
        sys.exit('no PT_NOTE')
    if cmd == 'kdump-notes':
        with open(a[1], 'rb') as f:
            h = f.read(4096)
            if h[:8] != b'KDUMP   ':
                sys.exit('not kdump-compressed')
            block, = struct.unpack_from('<i', h, 428)
            f.seek(block)
            sub = f.read(64)
            off, size = struct.unpack_from('<QQ', sub, 48)
            print(off, size)
        return
    if cmd == 'rename-note':
        path, off, size, old, new = a[1], int(a[2]), int(a[3]), a[4].encode(), a[5].encode()
        assert len(old) == len(new)
        n = 0
        with open(path, 'r+b') as f:
            f.seek(off)
            notes = f.read(size)
            pos = 0
            while pos + 12 <= len(notes):
                namesz, descsz, _ = struct.unpack_from('<III', notes, pos)
                name = notes[pos + 12:pos + 12 + namesz]
                if name.rstrip(b'\0') == old:
                    f.seek(off + pos + 12)
                    f.write(new)
                    n += 1
                pos += 12 + ((namesz + 3) & ~3) + ((descsz + 3) & ~3)
        print(n)
        return
    if cmd == 'xor':
        path, off, ln = a[1], int(a[2]), int(a[3])
        seed = int(a[4], 0) if len(a) > 4 else 0x9e3779b97f4a7c15
        x = seed or 1
        with open(path, 'r+b') as f:
            f.seek(off)
            buf = bytearray(f.read(ln))
            for i in range(0, len(buf), 8):
                x ^= (x << 13) & (2**64 - 1)
                x ^= x >> 7
                x ^= (x << 17) & (2**64 - 1)
                for j, b in enumerate(struct.pack('<Q', x)[:len(buf) - i]):
                    buf[i + j] ^= b
            f.seek(off)
            f.write(buf)
        return
    if cmd == 'get64':
        with open(a[1], 'rb') as f:
            f.seek(int(a[2]))
            print(hex(struct.unpack('<Q', f.read(8))[0]))
        return
    if cmd == 'or32':
        with open(a[1], 'r+b') as f:
            f.seek(int(a[2]))
            v = struct.unpack('<I', f.read(4))[0] | int(a[3], 0)
            f.seek(int(a[2]))
            f.write(struct.pack('<I', v))
        return
    if cmd == 'put64':
        with open(a[1], 'r+b') as f:
            f.seek(int(a[2]))
            print(hex(struct.unpack('<Q', f.read(8))[0]))
            f.seek(int(a[2]))
            f.write(struct.pack('<Q', int(a[3], 0) & (2**64 - 1)))
        return
    if cmd == 'replace':
        def lit(x):
            return x.encode('latin1').decode('unicode_escape').encode('latin1')
        old, new = lit(a[2]), lit(a[3])
        assert len(old) == len(new), 'OLD and NEW differ in length'
        limit = int(a[4], 0) if len(a) > 4 else 1 << 20
        with open(a[1], 'r+b') as f:
            head = f.read(limit)
            n, pos = 0, head.find(old)
            while pos >= 0:
                f.seek(pos)
                f.write(new)
                n += 1
                pos = head.find(old, pos + 1)
        print(n)
        return
    sys.exit(__doc__)


main(sys.argv[1:])
