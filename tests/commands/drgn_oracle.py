# SPDX-License-Identifier: GPL-2.0-or-later
# drgn's side of tests/commands/run.sh: what drgn reads from the dump, as
# one JSON document, for check.py to hold orccrash's commands to.
# Run as: drgn -q -c VMCORE -s VMLINUX tests/commands/drgn_oracle.py SYMBOLS RDLIST STRUCTS
# SYMBOLS: names to look up; RDLIST: "0xADDRESS NBYTES SPACE" lines to
# read (SPACE: kernel or physical);
# STRUCTS: "TYPE 0xADDRESS" lines: every named top-level member of an
# integer, enum, pointer or char-array type (through anonymous structs and
# unions), as text check.py compares;
# "TYPE.member.member 0xADDRESS" lines: that member alone;
# "p [-x] NAME[:CPU][.MEMBER...]" lines: the variable (per_cpu() with
# :CPU), its members when a struct, else its value;
# "layout TYPE" lines: its members' names, bit offsets and bit-field
# widths (struct TYPE with no address);
# "disk MODULE TYPE [PATH TYPE2]" lines: an object drgn finds (a disk's
# private_data, a pointer in it), keyed "TYPE 0xADDRESS" and listed in
# "located" for run.sh to ask orccrash for.
# (drgn's CLI defines prog).  Each part is tried on its own: a part drgn
# cannot read is an "errors" entry, never a guess.
import json
import sys

from drgn import FaultError, Object, TypeKind, cast
from drgn.helpers.linux.list import list_for_each_entry
from drgn.helpers.linux.pid import for_each_task

out = {"tasks": [], "modules": [], "symbols": {}, "reads": {}, "structs": {},
       "errors": []}

try:
    from drgn.helpers.linux.sched import task_cpu, task_state_to_char
    for t in for_each_task(prog):  # noqa: F821 (prog: from drgn's CLI)
        parent = t.real_parent
        out["tasks"].append({
            "pid": t.pid.value_(),
            "ppid": parent.pid.value_() if parent.value_() else 0,
            "cpu": task_cpu(t),
            "state": task_state_to_char(t),
            "comm": t.comm.string_().decode("latin-1"),
            "task": "0x%x" % t.value_(),
        })
        try:  # ps -m: the task's CPU's runqueue clock, its last arrival
            from drgn.helpers.linux.percpu import per_cpu
            out["tasks"][-1]["rq_clock"] = per_cpu(prog["runqueues"], task_cpu(t)).clock.value_()  # noqa: F821
            out["tasks"][-1]["last_arrival"] = t.sched_info.last_arrival.value_()
        except Exception as e:
            out["errors"].append("ps -m pid %d: %s: %s" % (t.pid.value_(), type(e).__name__, e))
except Exception as e:  # the list cut short, or a helper missing
    out["errors"].append("tasks: %s: %s" % (type(e).__name__, e))

try:
    head = prog["modules"].address_of_()  # noqa: F821
    for m in list_for_each_entry("struct module", head, "list"):
        name = m.name.string_().decode("latin-1")
        try:  # 6.4+: mem[], every type (kernel/module/procfs.c)
            mem = m.mem
            base = mem[0].base.value_()
            size = sum(mem[i].size.value_() for i in range(len(mem)))
        except (AttributeError, LookupError):
            base = m.core_layout.base.value_()
            size = m.core_layout.size.value_() + m.init_layout.size.value_()
        out["modules"].append({"name": name, "module": "0x%x" % m.value_(),
                               "base": "0x%x" % base, "size": size})
except Exception as e:
    out["errors"].append("modules: %s: %s" % (type(e).__name__, e))

for name in open(sys.argv[1]).read().split():
    try:
        out["symbols"][name] = "0x%x" % prog.symbol(name).address  # noqa: F821
    except (LookupError, ValueError) as e:
        out["symbols"][name] = None

for line in open(sys.argv[2]).read().splitlines():
    addr, n, space = line.split()
    key = "%s %s" % (addr, n) if space == "kernel" else line
    try:
        out["reads"][key] = prog.read(int(addr, 16), int(n), space == "physical").hex()  # noqa: F821
    except FaultError:
        out["reads"][key] = None

def unaliased(t):  # drgn 0.0.22 has no Type.unaliased()
    while t.kind == TypeKind.TYPEDEF:
        t = t.type
    return t


def member_value(v):
    t = unaliased(v.type_)
    k = t.kind
    if k == TypeKind.BOOL:
        return "true" if v.value_() else "false"
    if k == TypeKind.INT:
        return str(v.value_())
    if k == TypeKind.POINTER:
        # a char pointer: its string too, as crash's and drgn's own
        # printers show it (orccrash cuts it at 256 bytes, "..." after)
        p = unaliased(t.type)
        if v.value_() and p.kind == TypeKind.INT and \
                p.name in ("char", "signed char", "unsigned char"):
            try:
                b = v.string_()
                return "0x%x %s%s" % (v.value_(), esc(b[:256]), "..." if len(b) > 256 else "")
            except FaultError:
                pass
        return "0x%x" % v.value_()
    if k == TypeKind.ENUM:
        val = v.value_()
        for e in t.enumerators:
            if e.value == val:
                return e.name
        return str(val)
    # a flexible array member (char flexible_array[], mm_struct's on 6.2+)
    # has no length, so no value: drgn's string_() reads on past the
    # struct until a NUL
    if k == TypeKind.ARRAY and t.length is not None and \
            unaliased(t.type).kind == TypeKind.INT and \
            unaliased(t.type).name == "char":
        return esc(v.string_())
    return None


def esc(b):
    """A C string as orccrash's printer escapes it (formats/btf.c
    dump_array()): '"' and '\\' escaped, bytes outside 0x20-0x7e as \\xNN."""
    out = []
    for c in b:
        if c in (0x22, 0x5c):
            out.append("\\" + chr(c))
        elif c < 0x20 or c > 0x7e:
            out.append("\\x%02x" % c)
        else:
            out.append(chr(c))
    return '"%s"' % "".join(out)


def top_members(obj):
    """Every named top-level member's value as text; anonymous structs and
    unions looked through (their members are the struct's)."""
    vals = {}

    def walk(t):
        for m in unaliased(t).members:
            if not m.name:
                walk(m.type)
                continue
            try:
                val = member_value(obj.member_(m.name))
            except FaultError:
                val = None
            if val is not None:
                vals[m.name] = val
    walk(obj.type_)
    return vals


def variable(line):
    """p [-x] NAME[:CPU][.MEMBER...]: drgn's object for the same variable."""
    from drgn.helpers.linux.percpu import per_cpu
    spec = line.split()[-1]
    name, _, path = spec.partition(".")
    name, _, cpu = name.partition(":")
    v = prog[name]  # noqa: F821
    if cpu:
        v = per_cpu(v, int(cpu))
    for comp in path.split(".") if path else []:
        v = v.member_(comp)
    return v


def disks():
    """The gendisks: drgn's for_each_disk(), or where Debian 12's drgn
    0.0.22 cannot (it reads block_class.p, gone in 6.4), the same walk by
    hand: the block class's subsys_private among class_kset's (as the
    kernel's class_to_subsys() finds it), its devices, each a
    block_device's bd_device, whose bd_disk is the disk."""
    from drgn import container_of
    try:
        from drgn.helpers.linux.block import for_each_disk
        return list(for_each_disk(prog))  # noqa: F821
    except AttributeError:
        pass
    block_class = prog["block_class"].address_of_().value_()  # noqa: F821
    found = []
    for sp in list_for_each_entry("struct subsys_private",
                                  prog["class_kset"].list.address_of_(),  # noqa: F821
                                  "subsys.kobj.entry"):
        if sp.member_("class").value_() != block_class:
            continue
        for n in list_for_each_entry("struct klist_node",
                                     sp.klist_devices.k_list.address_of_(), "n_node"):
            dev = container_of(n, "struct device_private", "knode_class").device
            disk = container_of(dev, "struct block_device", "bd_device").bd_disk
            if disk.value_() not in [d.value_() for d in found]:
                found.append(disk)
    return found


def disk_object(line):
    """disk MODULE TYPE [PATH TYPE2]: the private_data of the first disk
    whose fops the module owns, as TYPE ("struct virtio_blk": a module's
    own type, so drgn needs the module's debug .ko, given with -s); with
    PATH ("vqs[0].vq"), the pointer there, as TYPE2."""
    import re
    w = line.split()
    module, tname = w[1], " ".join(w[2:4])
    for disk in disks():
        owner = disk.fops.owner
        if owner.value_() and owner.name.string_().decode() == module:
            obj = Object(prog, tname, address=disk.private_data.value_())  # noqa: F821
            if len(w) < 7:
                return obj
            for comp in re.findall(r"\w+|\[\d+\]", w[4]):
                obj = obj[int(comp[1:-1])] if comp[0] == "[" else obj.member_(comp)
            return Object(prog, " ".join(w[5:7]), address=obj.value_())  # noqa: F821
    raise LookupError("no disk of module %s" % module)


def layout(tname):
    """layout TYPE: every named member (anonymous structs and unions
    looked through) in order, with its offset in bits and bit-field
    width, from drgn's type (the DWARF)."""
    mems = []

    def walk(t, base):
        for m in unaliased(t).members:
            if not m.name:
                walk(m.type, base + m.bit_offset)
            else:
                mems.append([m.name, base + m.bit_offset, m.bit_field_size or 0])
    walk(prog.type(tname), 0)  # noqa: F821
    return mems


def struct_line(line):
    """One STRUCTS line's answer, into out; drgn's errors raised."""
    if line.startswith("layout "):
        out["layouts"][line[7:]] = layout(line[7:])
        return
    if line.startswith("disk "):
        # the object's members under the key "TYPE 0xADDRESS", which
        # tests/commands/run.sh then asks orccrash's struct for
        obj = disk_object(line)
        key = "%s 0x%x" % (obj.type_.type_name(), obj.address_)
        out["structs"][key] = top_members(obj)
        out["located"].append(key)
        return
    if line.startswith("p "):
        obj = variable(line)
        t = unaliased(obj.type_)
        if t.kind in (TypeKind.STRUCT, TypeKind.UNION):
            out["structs"][line] = top_members(obj)
        elif t.kind == TypeKind.ARRAY and t.length is None and \
                unaliased(t.type).kind == TypeKind.INT and "char" in unaliased(t.type).name:
            # an incomplete char array variable (linux_banner): its
            # string, to the NUL
            out["structs"][line] = {"": esc(obj.string_())}
        elif t.kind == TypeKind.ARRAY and t.length is not None and \
                unaliased(t.type).kind == TypeKind.POINTER:
            # an array of pointers: every element, "{ 0x.., 0x.. }"
            out["structs"][line] = {"": "{ %s }" % ", ".join(
                member_value(obj[i]) for i in range(t.length))}
        else:
            out["structs"][line] = {"": member_value(obj)}
        return
    tname, addr = line.rsplit(" ", 1)
    if "." in tname:  # a member path: its one value
        tname, path = tname.split(".", 1)
        v = Object(prog, tname, address=int(addr, 16))  # noqa: F821
        for comp in path.split("."):
            v = v.member_(comp)
        out["structs"][line] = {"": member_value(v)}
        return
    obj = Object(prog, tname, address=int(addr, 16))  # noqa: F821
    out["structs"][line] = top_members(obj)


out["located"] = []
out["layouts"] = {}
for line in open(sys.argv[3]).read().splitlines():
    try:
        struct_line(line)
    except Exception as e:  # drgn raises several types; an error is data here
        out["errors"].append("struct %s: %s: %s" % (line, type(e).__name__, e))

json.dump(out, sys.stdout, indent=1)
print()
