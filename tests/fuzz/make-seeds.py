#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the fuzz seed corpus (tests/fuzz/corpus/NAME/) from the real
samples: small extracts in each target's input layout (see the comment at
the top of tests/fuzz/fuzz_NAME.c), never whole dumps.

  tests/fuzz/make-seeds.py [BUILD_DIR]

Needs BUILD_DIR/orccrash and BUILD_DIR/tests/dumpcat (make, make test's
drivers) and the sample cache (${ORCCRASH_CACHE:-~/.cache/orccrash}).  The
seeds are committed; run this again only to refresh them."""
import bisect, json, os, struct, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'build'))
CACHE = os.environ.get('ORCCRASH_CACHE', os.path.expanduser('~/.cache/orccrash'))
ORCCRASH = os.path.join(BUILD, 'orccrash')
DUMPCAT = os.path.join(BUILD, 'tests', 'dumpcat')
U64 = (1 << 64) - 1


def out(target, name, data):
    d = os.path.join(HERE, 'corpus', target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)
    print(f'  {target}/{name}: {len(data)} bytes')


def samples():
    rows = []
    with open(os.environ.get('ORCCRASH_INDEX') or
              os.path.join(CACHE, 'dumps', 'index.tsv')) as f:
        for line in f:
            r = line.rstrip('\n').split('\t')
            if len(r) >= 6:
                rows.append(dict(release=r[0], scenario=r[1], format=r[2],
                                 vmcore=r[3], vmlinux=r[4], kaslr=r[5]))
    return rows


def pick(rows, release_prefix, scenario, fmt):
    for r in rows:
        if r['release'].startswith(release_prefix) and r['scenario'] == scenario \
                and r['format'] == fmt and os.path.exists(r['vmcore']):
            return r
    return None


class Elf:
    """Just enough ELF64 to find sections by name."""
    def __init__(self, path):
        self.f = open(path, 'rb')
        h = self.f.read(64)
        shoff, = struct.unpack_from('<Q', h, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from('<HHH', h, 0x3a)
        self.secs = []
        for i in range(shnum):
            self.f.seek(shoff + i * shentsize)
            s = struct.unpack('<IIQQQQIIQQ', self.f.read(64))
            self.secs.append(s)
        strtab = self.secs[shstrndx]
        self.f.seek(strtab[4])
        names = self.f.read(strtab[5])
        self.by_name = {}
        for s in self.secs:
            n = names[s[0]:names.index(b'\0', s[0])].decode()
            self.by_name[n] = s

    def section(self, name):
        s = self.by_name.get(name)
        if not s:
            return None, None
        self.f.seek(s[4])
        return s[3], self.f.read(s[5])


def orc_table(vmlinux):
    e = Elf(vmlinux)
    ip_addr, ipb = e.section('.orc_unwind_ip')
    _, orcb = e.section('.orc_unwind')
    _, hdr = e.section('.orc_header')
    n = len(ipb) // 4
    ips = [(ip_addr + 4 * i + struct.unpack_from('<i', ipb, 4 * i)[0]) & U64
           for i in range(n)]
    return ip_addr, ipb, orcb, hdr, ips


def dumpcat(*args):
    return subprocess.run([DUMPCAT] + [str(a) for a in args], check=True,
                          capture_output=True, text=True).stdout


def vread(dump, addr, n):
    hexs = dumpcat('read', dump, hex(addr), n).split()
    return bytes(int(x, 16) for x in hexs)


def vmcoreinfo(dump):
    text = dumpcat('vmcoreinfo', dump)
    kv = {}
    for line in text.splitlines():
        if '=' in line:
            k, v = line.split('=', 1)
            kv[k] = v
    return text, kv


def region(addr, data):
    return struct.pack('<QI', addr, len(data)) + data


def seeds_orc(name, vmlinux, release):
    ip_addr, ipb, orcb, hdr, ips = orc_table(vmlinux)
    start = len(ips) // 3
    n = 64
    rel = release.encode() + b'\0'
    tail = struct.pack('<QQQ', ips[start] & ~0xff, ips[start + n - 1] + 1, 0x1c000000)
    body = ipb[4 * start:4 * (start + n)] + orcb[6 * start:6 * (start + n)]
    sub_addr = ip_addr + 4 * start
    # version 0: detect (from .orc_header when there is one, else the release)
    flags = 1 | 2 | 4 if hdr else 2 | 4
    out('orc', name + '-detect', struct.pack('<BBQ', 0, flags, sub_addr) +
        (hdr or b'\0' * 20)[:20] + rel + tail + body)
    # the first entries, with their weak terminators
    out('orc', name + '-head', struct.pack('<BBQ', 0, 0, ip_addr) +
        (hdr or b'\0' * 20)[:20] + rel + tail + ipb[:4 * n] + orcb[:6 * n])


ORC_VERSIONS = {'4.14': 1, '4.18': 2, '6.3': 3, '6.4': 4, '6.4+ax': 5, '7.1': 6}


def seeds_unwind(name, row):
    j = json.loads(subprocess.run([ORCCRASH, '--json', '--active', row['vmcore'],
                                   row['vmlinux']], capture_output=True,
                                  text=True).stdout)
    kaslr = int(j['kernel']['kaslr_offset'], 16)
    ver = ORC_VERSIONS.get(j['kernel']['orc_version'], 2)
    ip_addr, ipb, orcb, hdr, ips = orc_table(row['vmlinux'])
    for cpu in j['cpus']:
        frames = [f for f in cpu['frames'] if int(f['ip'], 16) >= 0xffff800000000000]
        if not frames or not frames[0]['regs']:
            continue
        r = frames[0]['regs']
        order = ['r15', 'r14', 'r13', 'r12', 'bp', 'bx', 'r11', 'r10', 'r9', 'r8',
                 'ax', 'cx', 'dx', 'si', 'di', 'orig_ax', 'ip', 'cs', 'flags', 'sp', 'ss']
        regs = struct.pack('<21Q', *[int(r.get(k, '0'), 16) & U64 for k in order])
        # the entries covering each frame, and the next (where it ends)
        idx = set()
        for f in frames:
            ip = int(f['ip'], 16) - kaslr
            i = bisect.bisect_right(ips, ip) - 1
            idx.update(k for k in (i - 1, i, i + 1) if 0 <= k < len(ips))
        ents = b''.join(struct.pack('<Q', (ips[i] + kaslr) & U64) + orcb[6 * i:6 * i + 6]
                        for i in sorted(idx))
        # each stack the trace crossed: its 16 KiB (THREAD_SIZE, IRQ_STACK_SIZE)
        stacks, seen, nst = b'', set(), 0
        types = {'task': 1, 'irq': 2, 'entry': 4, 'df': 5, 'nmi': 6, 'db': 7, 'mc': 8}
        for f in frames:
            sp = int(f['sp'], 16)
            base = sp & ~0x3fff
            if base in seen or f['stack'] not in types:
                continue
            seen.add(base)
            # the readable pages around sp (a stack may start mid-way)
            pages = {}
            for pg in range(base, base + 0x4000, 0x1000):
                try:
                    pages[pg] = vread(row['vmcore'], pg, 0x1000)
                except subprocess.CalledProcessError:
                    pass
            lo = hi = sp & ~0xfff
            while lo - 0x1000 in pages:
                lo -= 0x1000
            while hi + 0x1000 in pages:
                hi += 0x1000
            if lo not in pages:
                continue
            data = b''.join(pages[pg] for pg in range(lo, hi + 0x1000, 0x1000))
            stacks += struct.pack('<BQI', types[f['stack']], lo, len(data)) + data
            nst += 1
        hdr_b = struct.pack('<BBHHB', ver, 4 | 8, 0, len(idx), nst)
        out('unwind', f'{name}-cpu{cpu["cpu"]}', hdr_b + regs + ents + stacks)
        # the same with --scan and resync
        out('unwind', f'{name}-cpu{cpu["cpu"]}-scan',
            struct.pack('<BBHHB', ver, 1 | 2 | 4 | 8, 64, len(idx), nst) +
            regs + ents + stacks)


def seeds_report(name, row):
    """A real CPU trace with its symbols (address = ip - offset) and the
    first module's name, in fuzz_report's layout."""
    j = json.loads(subprocess.run([ORCCRASH, '--json', '--active', row['vmcore'],
                                   row['vmlinux']], capture_output=True,
                                  text=True).stdout)
    order = ['r15', 'r14', 'r13', 'r12', 'bp', 'bx', 'r11', 'r10', 'r9', 'r8',
             'ax', 'cx', 'dx', 'si', 'di', 'orig_ax', 'ip', 'cs', 'flags', 'sp', 'ss']
    stacks = {'unknown': 0, 'task': 1, 'irq': 2, 'entry': 4, 'df': 5, 'nmi': 6,
              'db': 7, 'mc': 8}
    for cpu in j['cpus']:
        syms = {}
        for f in cpu['frames']:
            if f['symbol'] and f['offset'] is not None:
                syms[int(f['ip'], 16) - f['offset']] = f['symbol']
        b = struct.pack('<B', min(len(syms), 255))
        for a, n in list(syms.items())[:255]:
            b += struct.pack('<Q', a) + n.encode() + b'\0'
        b += struct.pack('<QQ', 0xffffffffc0000000, 0xffffffffc0100000) + b'orccrash_test\0'
        b += struct.pack('<BBQ', 0 if cpu['reliable'] else 2, 1 | 4 if cpu['reliable'] else 4, 0)
        b += cpu['stop'].encode() + b'\0'
        for f in cpu['frames']:
            r = f['regs']
            regs = struct.pack('<21Q', *[int(r.get(k, '0'), 16) & U64 if r else 0 for k in order])
            b += struct.pack('<QQQQBBBQ', int(f['ip'], 16), int(f['sp'], 16), 0, 0,
                             stacks.get(f['stack'], 0),
                             (1 if f['reliable'] else 0) | (2 if f['scanned'] else 0) | (4 if r else 0),
                             (1 if r and r.get('kind') == 'pt_regs' else 2 if r else 0), 0) + regs
        out('report', f'{name}-cpu{cpu["cpu"]}', b)


def seeds_log(name, dump, keep_bits=5):
    """Real VMCOREINFO and the real last 2^keep_bits records, in rings
    shrunk to that many descriptors and the smallest power-of-two text
    ring that holds their blocks (same IDs and lpos values, so the
    reader's ID and wrap checks see what the kernel wrote)."""
    text, kv = vmcoreinfo(dump)
    if 'SYMBOL(prb)' not in kv:
        return
    off = lambda k: int(kv[k])
    prb = int(kv['SYMBOL(prb)'], 16)
    rb = struct.unpack('<Q', vread(dump, prb, 8))[0]
    rbd = bytearray(vread(dump, rb, off('SIZE(printk_ringbuffer)')))
    dr = off('OFFSET(printk_ringbuffer.desc_ring)')
    tdr = off('OFFSET(printk_ringbuffer.text_data_ring)')
    o_cb = dr + off('OFFSET(prb_desc_ring.count_bits)')
    o_tail = dr + off('OFFSET(prb_desc_ring.tail_id)')
    o_sb = tdr + off('OFFSET(prb_data_ring.size_bits)')
    o_ttail = tdr + off('OFFSET(prb_data_ring.tail_lpos)')
    cbits = struct.unpack_from('<I', rbd, o_cb)[0]
    descs, infos, head_id = [struct.unpack_from('<Q', rbd, dr + off(k))[0] for k in (
        'OFFSET(prb_desc_ring.descs)', 'OFFSET(prb_desc_ring.infos)',
        'OFFSET(prb_desc_ring.head_id)')]
    sbits = struct.unpack_from('<I', rbd, o_sb)[0]
    data = struct.unpack_from('<Q', rbd, tdr + off('OFFSET(prb_data_ring.data)'))[0]
    head_lpos = struct.unpack_from('<Q', rbd, tdr + off('OFFSET(prb_data_ring.head_lpos)'))[0]
    count, dsize = 1 << cbits, 1 << sbits
    dsz, isz = off('SIZE(prb_desc)'), off('SIZE(printk_info)')
    lp = off('OFFSET(prb_desc.text_blk_lpos)')
    n = 1 << keep_bits
    ids = [(head_id - k) & U64 for k in range(n - 1, -1, -1)]
    nd, ni = bytearray(n * dsz), bytearray(n * isz)
    first_lpos = None
    for id_ in ids:
        slot = id_ & (count - 1)
        d = vread(dump, descs + slot * dsz, dsz)
        k = id_ & (n - 1)
        nd[k * dsz:(k + 1) * dsz] = d
        ni[k * isz:(k + 1) * isz] = vread(dump, infos + slot * isz, isz)
        if first_lpos is None:
            first_lpos = struct.unpack_from('<Q', d, lp)[0]
    span = (head_lpos - first_lpos) & U64
    nbits = 8
    while (1 << nbits) < span and nbits < sbits:
        nbits += 1
    nsize = 1 << nbits
    nt = bytearray(nsize)
    # copy the bytes of [first_lpos, head_lpos) from the real ring
    pos = first_lpos
    while pos != head_lpos:
        real = pos & (dsize - 1)
        chunk = min(dsize - real, (head_lpos - pos) & U64, 4096)
        b = vread(dump, data + real, chunk)
        for k in range(chunk):
            nt[(pos + k) & (nsize - 1)] = b[k]
        pos = (pos + chunk) & U64
    struct.pack_into('<I', rbd, o_cb, keep_bits)
    struct.pack_into('<Q', rbd, o_tail, ids[0])
    struct.pack_into('<I', rbd, o_sb, nbits)
    struct.pack_into('<Q', rbd, o_ttail, first_lpos)
    out('log', name, text.encode() + b'\0' + region(prb, struct.pack('<Q', rb)) +
        region(rb, bytes(rbd)) + region(descs, bytes(nd)) + region(infos, bytes(ni)) +
        region(data, bytes(nt)))


def seeds_kallsyms(name, dump, nsyms=512):
    """The real tables cut to the first @nsyms symbols (num_syms patched),
    with the markers that follow the cut names."""
    text, kv = vmcoreinfo(dump)
    sym = lambda k: int(kv.get(f'SYMBOL({k})', '0'), 16)
    names, numa, ttab, tidx = sym('kallsyms_names'), sym('kallsyms_num_syms'), \
        sym('kallsyms_token_table'), sym('kallsyms_token_index')
    offs, base, stext = sym('kallsyms_offsets'), sym('kallsyms_relative_base'), sym('_stext')
    if not names:
        return
    nb = vread(dump, names, 64 * nsyms)
    pos, markers = 0, []
    for k in range(nsyms):
        if k % 256 == 0:
            markers.append(pos)
        ln = nb[pos]
        if ln & 0x80:
            ln = (ln & 0x7f) | (nb[pos + 1] << 7)
            pos += 2
        else:
            pos += 1
        pos += ln
    nb = nb[:pos]
    nb += b'\0' * (((pos + 7) & ~7) - pos) + b''.join(struct.pack('<I', m) for m in markers)
    # the decoder reads names a page at a time: pad to a page end
    nb += b'\0' * ((-(names + len(nb))) % 4096)
    ti = vread(dump, tidx, 512)
    tlen = max(struct.unpack_from('<256H', ti)) + 600
    tt = vread(dump, ttab, tlen)
    loc = struct.pack('<8QB', names, numa, ttab, tidx, offs, base if base else 0, 0, stext, 1)
    img = region(numa, struct.pack('<I', nsyms)) + region(names, nb) + region(ttab, tt) + \
        region(tidx, ti) + region(offs, vread(dump, offs, 4 * nsyms))
    if base:
        img += region(base, vread(dump, base, 8))
    out('kallsyms', name, loc + img)


def seeds_flat(name, path, nrec=4, cut=512):
    with open(path, 'rb') as f:
        hdr = f.read(4096)
        recs = b''
        for _ in range(nrec):
            rh = f.read(16)
            if len(rh) < 16:
                break
            o, s = struct.unpack('>qq', rh)
            if o < 0:
                break
            body = f.read(s)
            recs += struct.pack('>qq', o, min(s, cut)) + body[:cut]
    out('flat', name, hdr + recs + struct.pack('>qq', -1, 0))


def seeds_dump(name, path, n):
    with open(path, 'rb') as f:
        out('dump', name, f.read(n))


def uleb(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def loclist_exprs(vmlinux, limit=400):
    """Distinct location expressions of the first DWARF 5 .debug_loclists
    units (DW_LLE_* entries with a counted location description)."""
    _, b = Elf(vmlinux).section('.debug_loclists')
    exprs, seen, unit = [], set(), 0
    while b and unit + 12 <= len(b) and len(exprs) < limit:
        if struct.unpack_from('<H', b, unit + 4)[0] != 5:
            break
        end = unit + 4 + struct.unpack_from('<I', b, unit)[0]
        i = unit + 12 + 4 * struct.unpack_from('<I', b, unit + 8)[0]
        unit = end
        try:
            while i < end and len(exprs) < limit:
                kind = b[i]
                i += 1
                if kind == 0:                       # end_of_list
                    continue
                if kind == 1:                       # base_addressx
                    _, i = uleb(b, i)
                    continue
                if kind == 6:                       # base_address
                    i += 8
                    continue
                if kind == 9:                       # GNU view_pair
                    _, i = uleb(b, i)
                    _, i = uleb(b, i)
                    continue
                if kind in (2, 3, 4):               # startx_endx/length, offset_pair
                    _, i = uleb(b, i)
                    _, i = uleb(b, i)
                elif kind == 7:                     # start_end
                    i += 16
                elif kind == 8:                     # start_length
                    i += 8
                    _, i = uleb(b, i)
                elif kind != 5:                     # default_location
                    break
                n, i = uleb(b, i)
                if n > 256:                         # lost our way
                    break
                e = bytes(b[i:i + n])
                i += n
                if e not in seen:
                    seen.add(e)
                    exprs.append(e)
        except IndexError:
            break
    return exprs


def seeds_dwexpr(name, vmlinux):
    """Real location expressions of the vmlinux, over a frame that knows
    every register (a pt_regs frame) or only rsp and rbp (a frame below
    a call), with 512 bytes of stack under the CFA."""
    stack = 0xffffc90000010000
    mem = region(stack + 0x700, bytes((i * 7) & 0xff for i in range(512)))
    regs = [stack + 0x100 + 8 * i for i in range(17)]
    fb = bytes([0x9c])                          # DW_OP_call_frame_cfa
    exprs = loclist_exprs(vmlinux)
    for k, e in enumerate(exprs[::8][:48]):
        known = 0x1ffff if k % 2 else (1 << 6) | (1 << 7)
        data = struct.pack('<BI', 7 if k % 3 else 5, known)
        data += struct.pack('<17Q', *regs)
        data += struct.pack('<QQ', stack + 0x800, 0x27400000 if k % 4 else 0)
        data += struct.pack('<B', len(fb)) + fb
        data += struct.pack('<H', len(e)) + e + mem
        out('dwexpr', f'{name}-{k:02d}', data)


def seeds_cfi(name, vmlinux, nbytes=6144):
    """The head of the vmlinux's .debug_frame (a CIE and its FDEs, cut at
    an entry boundary), with pcs inside, at the ends of and outside the
    FDEs it holds."""
    _, b = Elf(vmlinux).section('.debug_frame')
    if not b:
        return
    i, pcs = 0, []
    while i + 8 <= len(b):
        n = struct.unpack_from('<I', b, i)[0]
        if n == 0xffffffff or i + 4 + n > nbytes:
            break
        cie_id = struct.unpack_from('<I', b, i + 4)[0]
        if cie_id != 0xffffffff and n >= 20:
            lo, rng = struct.unpack_from('<QQ', b, i + 8)
            pcs += [lo, lo + rng // 2, lo + rng - 1, lo + rng]
        i += 4 + n
    sec = bytes(b[:i])
    for k in range(3):
        sel = pcs[k::3][:32]
        out('cfi', f'{name}-{k}', struct.pack('<B', len(sel)) +
            struct.pack('<%dQ' % len(sel), *sel) + sec)


def seeds_lineprog(name, vmlinux, nunits=3):
    """Whole .debug_line units of the vmlinux (the first ones under 32 KB)
    and the head of its first .debug_loclists lists, with a pc inside the
    first range."""
    elf = Elf(vmlinux)
    _, b = elf.section('.debug_line')
    i, k = 0, 0
    while b and i + 4 <= len(b) and k < nunits:
        n = struct.unpack_from('<I', b, i)[0]
        if n == 0xffffffff:
            break
        if n + 4 <= 32768:
            out('lineprog', f'{name}-line-{k}', b'\x00' + bytes(b[i:i + 4 + n]))
            k += 1
        i += 4 + n
    _, b = elf.section('.debug_loclists')
    if not b or struct.unpack_from('<H', b, 4)[0] != 5:
        return
    start = 12 + 4 * struct.unpack_from('<I', b, 8)[0]
    lists = bytes(b[start:start + 2048])
    for k, at in enumerate((0, 256, 1024)):
        pc = 0
        if lists[at:at + 1] == b'\x04':            # offset_pair: pc in it
            pc, _ = uleb(lists, at + 1)
        out('lineprog', f'{name}-loclist-{k}',
            struct.pack('<BBQQB', 1, 5, 0, pc, 0) + lists[at:])


def seeds_strutil(name, row):
    """Real dump strings (release, banner, comms, log records) and the
    hostile ones of tests/corrupt/run.sh, each with every flag set."""
    r = subprocess.run([ORCCRASH, '--json', '--all-tasks', '--log', '--no-lines',
                        row['vmcore'], row['vmlinux']], capture_output=True)
    doc = json.loads(r.stdout)
    real = [doc['kernel']['release'], doc['kernel']['banner'],
            '\0'.join(t['comm'] for t in doc['tasks'][:32]),
            '\n'.join(rec['text'] for rec in doc.get('log', [])[-16:])]
    for i, text in enumerate(real):
        out('strutil', f'{name}-real{i}', bytes([7, 64]) + text.encode())
    if name != '6.1':
        return
    hostile = [b'a"b\\\x1b[2J\xe2\x80\xae\xc2\x9bz',
               b'sysrq \x1b]0;x\x07\xc2\x9b\xe2\x80\xae\xffcra',
               b'\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x80\xe2\x81\xa6\x7f\0x']
    for i, text in enumerate(hostile):
        for flags in (0, 1, 2, 4):
            out('strutil', f'hostile{i}-flags{flags}', bytes([flags, 9]) + text)


# fuzz_model's layout table, in tests/fuzz/fuzz_model.c's order: a made-up
# layout (the model takes any from the types backend), small enough for
# a seed to hold a few dozen tasks.
MODEL_LAYOUT = [
    ('pid', 0), ('tgid', 4), ('comm', 8), ('state', 24), ('exit_state', 28),
    ('flags', 32), ('stack', 40), ('thread.sp', 48), ('tasks', 56),
    ('real_parent', 72), ('thread_info.cpu', 80), ('children', 88),
    ('sibling', 104), ('signal', 120), ('thread_node', 128),
    ('thread_head', 16),                       # struct signal_struct
    ('list', 8), ('name', 24), ('mem', 80),    # struct module
    ('core_layout.base', 80), ('core_layout.text_size', 88),
    ('core_layout.size', 92), ('init_layout.base', 96),
    ('init_layout.size', 104), ('init_layout.text_size', 108),
    ('kallsyms', 528), ('arch.num_orcs', 536), ('arch.orc_unwind_ip', 544),
    ('arch.orc_unwind', 552), ('notes_attrs', 560),
    ('mm.base', 0), ('mm.size', 8),            # struct module_memory
    ('symtab', 0), ('num_symtab', 8), ('strtab', 16), ('typetab', 24),
    ('notes', 0), ('grp.bin_attrs', 8), ('attrs', 16),  # module_notes_attrs
    ('ba.size', 40), ('ba.private', 48),       # struct bin_attribute
]
MODEL_OFF = dict(MODEL_LAYOUT)
TASK_SIZE = 256
DM = 0xffff888000100000          # the direct map: tasks, then signal_structs
INIT_TASK = 0xffffffff82a00000   # the kernel image
POB = 0xffffffff82000000         # page_offset_base
MODULES = 0xffffffff82b00000     # the modules list head
MODAREA = 0xffffffffc0000000     # struct modules and their memory
MOD_STRIDE = 0x800


class Image:
    """Memory as fuzz_common.h's regions: {addr: bytearray}."""
    def __init__(self):
        self.regions = {}

    def add(self, addr, size):
        self.regions[addr] = bytearray(size)

    def at(self, addr):
        """the region holding addr, and addr's offset in it"""
        for base, buf in self.regions.items():
            if base <= addr < base + len(buf):
                return buf, addr - base
        raise ValueError(hex(addr))

    def put(self, addr, value, size=8):
        self.put_bytes(addr, value.to_bytes(size, 'little'))

    def put_bytes(self, addr, data):
        buf, off = self.at(addr)
        buf[off:off + len(data)] = data

    def get(self, addr):
        buf, off = self.at(addr)
        return int.from_bytes(buf[off:off + 8], 'little')

    def blob(self):
        return b''.join(region(a, bytes(b)) for a, b in self.regions.items())


def model_tasks(img, nproc=6, threads=(0, 0, 2, 0, 0, 0)):
    """init_task and nproc processes (children of init_task), threads[i]
    more threads in process i, every list circular as the kernel keeps
    it.  Returns the task addresses: [init, (leader, [threads])...]."""
    o = MODEL_OFF
    ntasks = nproc + sum(threads)
    img.add(INIT_TASK, TASK_SIZE)
    img.add(DM, ntasks * TASK_SIZE + (nproc + 1) * 64)
    sig_base = DM + ntasks * TASK_SIZE
    tasks, procs, nxt = [], [], 0
    for i in range(nproc):
        leader = DM + nxt * TASK_SIZE
        nxt += 1
        ts = [DM + (nxt + j) * TASK_SIZE for j in range(threads[i])]
        nxt += threads[i]
        procs.append((leader, ts))
    pid = 1

    def task(addr, comm, tgid, sig):
        nonlocal pid
        img.put(addr + o['pid'], pid, 4)
        img.put(addr + o['tgid'], tgid or pid, 4)
        img.put_bytes(addr + o['comm'], comm.encode()[:15])
        img.put(addr + o['state'], 1, 4)
        img.put(addr + o['stack'], 0xffffc90000000000 + pid * 0x4000)
        img.put(addr + o['thread.sp'], 0xffffc90000000000 + pid * 0x4000 + 0x3e00)
        img.put(addr + o['real_parent'], INIT_TASK)
        img.put(addr + o['signal'], sig)
        pid += 1
        return pid - 1

    def ring(heads):
        """list_heads at these addresses, linked in this order, circular"""
        for i, h in enumerate(heads):
            img.put(h, heads[(i + 1) % len(heads)])
            img.put(h + 8, heads[i - 1])

    img.put_bytes(INIT_TASK + o['comm'], b'swapper/0')
    img.put(INIT_TASK + o['real_parent'], INIT_TASK)
    img.put(INIT_TASK + o['signal'], sig_base)
    ring([sig_base + o['thread_head'], INIT_TASK + o['thread_node']])
    for i, (leader, ts) in enumerate(procs):
        sig = sig_base + 64 * (i + 1)
        tgid = task(leader, f'proc{i}', 0, sig)
        for j, t in enumerate(ts):
            task(t, f'proc{i}-t{j}', tgid, sig)
        ring([sig + o['thread_head']] + [t + o['thread_node'] for t in [leader] + ts])
    ring([INIT_TASK + o['tasks']] + [l + o['tasks'] for l, _ in procs])
    # a thread is on no tasks list: its tasks is the copy dup_task_struct()
    # made of its creator's (kernel/fork.c), never NULL
    for leader, ts in procs:
        for t in ts:
            img.put(t + o['tasks'], img.get(leader + o['tasks']))
            img.put(t + o['tasks'] + 8, img.get(leader + o['tasks'] + 8))
    ring([INIT_TASK + o['children']] + [l + o['sibling'] for l, _ in procs])
    img.add(POB, 8)
    img.put(POB, 0xffff888000000000)
    return procs


def model_modules(img, n=2, shared=False, budget=False):
    """n modules on the list, each with a text region holding its symbols,
    strings and ORC tables (shared: all claim the first one's memory and
    tables; budget: each claims 1 MiB of its own and 6,000 ORC entries
    the image does not hold)."""
    o = MODEL_OFF
    img.add(MODULES, 16)
    img.add(MODAREA, n * MOD_STRIDE)
    heads = [MODULES]
    for i in range(n):
        mod = MODAREA + i * MOD_STRIDE
        mem = MODAREA if shared else mod
        heads.append(mod + o['list'])
        img.put_bytes(mod + o['name'], f'mod{i}'.encode())
        size = 0x100000 if budget else MOD_STRIDE
        if budget:
            mem = 0xffffffffc1000000 + i * size
        # mem[MOD_TEXT] and, before 6.4, core_layout: one and the same here
        img.put(mod + o['mem'] + o['mm.base'], mem)
        img.put(mod + o['mem'] + o['mm.size'], size, 4)
        img.put(mod + o['core_layout.text_size'] + 4, size, 4)   # core_layout.size
        ks = mem + 0x280
        img.put(mod + o['kallsyms'], ks if not budget else 0)
        if not budget and not (shared and i):
            syms, strs = mem + 0x2c0, mem + 0x380
            img.put(ks + o['symtab'], syms)
            img.put(ks + o['num_symtab'], 4, 4)
            img.put(ks + o['strtab'], strs)
            names = b'\0my_fn\0my_other_fn\0my_data\0'
            img.put_bytes(strs, names)
            for k, (name_off, value, info, shndx) in enumerate(
                    [(0, 0, 0, 0), (1, mem + 0x600, 0x12, 1),
                     (7, mem + 0x640, 0x02, 1), (19, mem + 0x700, 0x11, 2)]):
                img.put_bytes(syms + 24 * k, struct.pack('<IBBHQQ', name_off, info, 0,
                                                         shndx, value, 16))
        nr_orc = 6000 if budget else 4
        ip, orc = mem + 0x400, mem + 0x440
        img.put(mod + o['arch.num_orcs'], nr_orc, 4)
        img.put(mod + o['arch.orc_unwind_ip'], ip)
        img.put(mod + o['arch.orc_unwind'], orc)
        if not budget and not (shared and i):
            for k in range(4):
                # s32 place-relative ips into the text, 6-byte entries
                img.put(ip + 4 * k, (mem + 0x600 + 0x20 * k - (ip + 4 * k)) & 0xffffffff, 4)
                img.put_bytes(orc + 6 * k, struct.pack('<hhH', 8, 0, 0x1 | (2 << 4) | (1 << 8)))
    for i, h in enumerate(heads):
        img.put(h, heads[(i + 1) % len(heads)])
        img.put(h + 8, heads[i - 1])


def model_notes(img, mod):
    """mod's build-id through notes_attrs (6.14+'s grp.bin_attrs)"""
    o = MODEL_OFF
    na = mod + 0x600
    img.put(mod + o['notes_attrs'], na)
    img.put(na + o['notes'], 1, 4)
    img.put(na + o['grp.bin_attrs'], na + 0x100)
    img.put(na + 0x100, na + o['attrs'])           # one attribute, then NULL
    note = struct.pack('<III', 4, 20, 3) + b'GNU\0' + bytes(range(20))
    img.put(na + o['attrs'] + o['ba.size'], len(note))
    img.put(na + o['attrs'] + o['ba.private'], na + 0x180)
    img.put_bytes(na + 0x180, note)


def model_seed(flags, img, current):
    layout = b''.join(struct.pack('<H', off) for _, off in MODEL_LAYOUT)
    return (struct.pack('<BQQQQH', flags, INIT_TASK, MODULES, POB, current, TASK_SIZE)
            + layout + img.blob())


def seeds_model():
    """fuzz_model: whole lists of both module layouts, then one seed of
    each hostile class of docs/hardening.md's history table (the tasks,
    thread and module lists)."""
    o = MODEL_OFF
    for name, flags in (('whole-6.4', 1 | 4), ('whole-5.10', 0), ('whole-6.14', 1 | 4 | 8)):
        img = Image()
        procs = model_tasks(img)
        model_modules(img)
        if flags & 8:
            model_notes(img, MODAREA)
        out('model', name, model_seed(flags, img, procs[0][0]))

    def hostile(name, change, **mods):
        img = Image()
        procs = model_tasks(img)
        model_modules(img, **mods)
        change(img, procs)
        out('model', name, model_seed(1 | 4, img, procs[0][0]))

    lead = lambda procs, i: procs[i][0]
    # the tasks list: back to an earlier process, a NULL next, a zeroed
    # task_struct (a hole read as zeros), a link out of the direct map
    hostile('tasks-loop', lambda img, p: img.put(lead(p, 4) + o['tasks'], lead(p, 1) + o['tasks']))
    hostile('tasks-null-next', lambda img, p: img.put(lead(p, 3) + o['tasks'], 0))
    hostile('tasks-zero-hole', lambda img, p: img.put_bytes(lead(p, 3), bytes(TASK_SIZE)))
    hostile('tasks-outside-dm', lambda img, p: img.put(lead(p, 2) + o['tasks'], 0xffffc90000001000))
    # a thread list looping past its head, and one ending in NULL
    hostile('threads-loop', lambda img, p: img.put(p[2][1][1] + o['thread_node'],
                                                   p[2][1][0] + o['thread_node']))
    hostile('threads-null', lambda img, p: img.put(p[2][1][0] + o['thread_node'], 0))
    # the module list: a loop, a link out of the modules area; fake
    # modules sharing one module's memory and ORC tables; modules whose
    # ORC tables together are over the budget
    hostile('modules-loop', lambda img, p: img.put(MODAREA + MOD_STRIDE + o['list'],
                                                   MODAREA + o['list']), n=3)
    hostile('modules-outside', lambda img, p: img.put(MODAREA + o['list'], DM), n=2)
    hostile('modules-shared-orc', lambda img, p: None, n=24, shared=True)
    hostile('modules-orc-budget', lambda img, p: None, n=8, budget=True)


def seeds_elf(name, path):
    with open(path, 'rb') as f:
        out('elf', name, f.read())


def main():
    # SEEDS_ONLY=dwexpr, cfi, lineprog, strutil or model: only that target's
    # seeds (the others unchanged)
    only = os.environ.get('SEEDS_ONLY')
    if only in (None, 'model'):
        seeds_model()       # made up: no sample needed
        if only:
            return
    rows = samples()
    for rel, tag in (('6.1.', '6.1'), ('6.12.', '6.12')):
        hard = pick(rows, rel, 'hardirq', 'elf')
        if not hard:
            print(f'no {rel} hardirq ELF sample: skipping its seeds')
            continue
        if only in ('dwexpr', 'cfi', 'lineprog'):
            {'dwexpr': seeds_dwexpr, 'cfi': seeds_cfi,
             'lineprog': seeds_lineprog}[only](tag, hard['vmlinux'])
            continue
        if only == 'strutil':
            seeds_strutil(tag, hard)
            continue
        seeds_strutil(tag, hard)
        seeds_dwexpr(tag, hard['vmlinux'])
        seeds_cfi(tag, hard['vmlinux'])
        seeds_lineprog(tag, hard['vmlinux'])
        seeds_orc(tag, hard['vmlinux'], hard['release'])
        seeds_unwind(f'{tag}-hardirq', hard)
        seeds_report(f'{tag}-hardirq', hard)
        blocked = pick(rows, rel, 'mod-blocked', 'elf') or pick(rows, rel, 'process', 'elf')
        if blocked:
            seeds_unwind(f'{tag}-blocked', blocked)
        seeds_log(tag, hard['vmcore'])
        seeds_kallsyms(tag, hard['vmcore'])
        flat = pick(rows, rel, 'hardirq', 'flat')
        if flat:
            seeds_flat(tag, flat['vmcore'])
        kd = pick(rows, rel, 'kdump', 'kdump-real')
        if kd:
            seeds_dump(f'{tag}-kdump-head', kd['vmcore'], 65536)
        seeds_dump(f'{tag}-elf-head', hard['vmcore'], 16384)
        mods = os.path.join(os.path.dirname(hard['vmlinux']), 'modules')
        for m in ('virtio_pci_legacy_dev.ko', 'virtio_mmio.ko'):
            if os.path.exists(os.path.join(mods, m)):
                seeds_elf(f'{tag}-{m}', os.path.join(mods, m))


main()
