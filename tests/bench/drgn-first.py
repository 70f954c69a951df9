# drgn's startup for `make bench`: the time until this first line appears
# (drgn -c VMCORE -s VMLINUX tests/bench/drgn-first.py; `prog` from drgn's CLI).
print(prog["init_uts_ns"].name.release.string_().decode())  # noqa: F821
