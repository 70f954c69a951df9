# `make bench` (tests/bench/, not part of `make test`): orccrash against
# crash and drgn on the sample dumps and the large dump, plus in-process
# micro-benchmarks.  Included from the top Makefile.  Knobs: BENCH_RUNS,
# BENCH_ALL=1 (every dump format), BENCH_LARGE=0 (skip the large dumps),
# BENCH_PEERS=0 (orccrash only), BENCH_OUT (the markdown table file),
# BENCH_PEER_MAX_TASKS (20000: the peers skip dumps with more tasks),
# BENCH_PEER_STARTUP=0 (no startup runs of the peers), BENCH_ONLY=REGEX
# (only the dumps whose "release scenario format" matches: a subset while
# developing; BENCH_LARGE=0 also keeps bench-large from making any).
UBENCH := $(O)/tests/ubench

$(UBENCH): $(O)/tests/bench/ubench.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The large dumps (tests/bench/make-large-dump.sh), each made once per
# kernel and kept in the cache: ~10,000 tasks ("large"), ~2,500 ("medium"),
# ~10,000 on a guest with 8 CPUs and 4 GB ("smp8") and ~100,000 threads on
# a 6 GB guest ("huge").  large and medium for every cloud kernel of make
# samples (make-large-dump.sh: not the rt and generic flavours);
# smp8 and huge for BENCH_RELEASES (default: the 6.1 cloud kernel, whose real
# kdump every peer opens whole; else the first kernel).
BENCH_KERNELS := $(notdir $(patsubst %/.complete,%,$(wildcard $(or $(ORCCRASH_CACHE),$(HOME)/.cache/orccrash)/kernels/*-cloud-amd64/.complete)))
BENCH_RELEASES ?= $(or $(firstword $(filter 6.1.%,$(BENCH_KERNELS))),$(firstword $(BENCH_KERNELS)))

# DWARF libraries side by side (docs/benchmarks.md): libdw only when
# libdw-dev is installed (tests/install-deps.sh bench).
HAVE_LIBDW := $(shell $(PKG_CONFIG) --exists libdw 2>/dev/null && echo yes)
DWARFBENCH := $(O)/tests/dwarfbench $(if $(HAVE_LIBDW),$(O)/tests/dwarfbench-libdw)
$(O)/tests/dwarfbench: tests/bench/dwarfbench.c $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)
$(O)/tests/dwarfbench-libdw: tests/bench/dwarfbench_libdw.c
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -ldw -lelf

# (each kind on its own: one that fails does not keep the others from being
# made; bench.py measures whatever is there)
bench-large:
	-$(Q)tests/bench/make-large-dump.sh
	-$(Q)LARGE_NAME=medium LARGE_PROCS=125 tests/bench/make-large-dump.sh
	-$(Q)ORCCRASH_RELEASES="$(BENCH_RELEASES)" LARGE_NAME=smp8 LARGE_SMP=8 LARGE_MEM=4G \
		tests/bench/make-large-dump.sh
	-$(Q)ORCCRASH_RELEASES="$(BENCH_RELEASES)" LARGE_NAME=huge LARGE_PROCS=1000 LARGE_THREADS=100 \
		LARGE_MEM=6G LARGE_TIMEOUT=5400 tests/bench/make-large-dump.sh

# Debian sid's crash, drgn and makedumpfile (tests/bench/sid-chroot.sh),
# the newest peers; made once, kept in the cache.
bench-sid:
	$(Q)tests/bench/sid-chroot.sh ensure

bench: $(O)/orccrash $(UBENCH) $(DWARFBENCH)
	$(Q)/usr/bin/python3 tests/bench/dwarf.py --build $(O)
	$(Q)$(MAKE) --no-print-directory bench-sid || echo "bench: no sid chroot: Debian 12's peers only (see above)" >&2
	$(Q)$(if $(filter 0,$(BENCH_LARGE)),:,$(MAKE) --no-print-directory bench-large) || echo "bench: large dumps missing (see above)" >&2
	$(Q)/usr/bin/python3 tests/bench/bench.py --build $(O)

# only the DWARF section of docs/benchmarks.md
bench-dwarf: $(O)/orccrash $(DWARFBENCH)
	$(Q)/usr/bin/python3 tests/bench/dwarf.py --build $(O)

.PHONY: bench bench-large bench-sid bench-dwarf
