# `make bench` (tests/bench/, not part of `make test`): orccrash against
# crash and drgn on the sample dumps and the large dump, plus in-process
# micro-benchmarks.  Included from the top Makefile.  Knobs: BENCH_RUNS,
# BENCH_ALL=1 (every dump format), BENCH_LARGE=0 (skip the large dumps),
# BENCH_PEERS=0 (orccrash only), BENCH_OUT (the markdown table file).
UBENCH := $(O)/tests/ubench

$(UBENCH): $(O)/tests/bench/ubench.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# ~10,000 tasks ("large") and ~2,500 ("medium"), for the scaling table;
# each made once per kernel of make samples, then kept in the cache.
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

bench-large:
	$(Q)tests/bench/make-large-dump.sh
	$(Q)LARGE_NAME=medium LARGE_PROCS=125 tests/bench/make-large-dump.sh

bench: $(O)/orccrash $(UBENCH) $(DWARFBENCH)
	$(Q)/usr/bin/python3 tests/bench/dwarf.py --build $(O)
	$(Q)$(MAKE) --no-print-directory bench-large || echo "bench: large dumps missing (see above)" >&2
	$(Q)/usr/bin/python3 tests/bench/bench.py --build $(O)

# only the DWARF section of docs/benchmarks.md
bench-dwarf: $(O)/orccrash $(DWARFBENCH)
	$(Q)/usr/bin/python3 tests/bench/dwarf.py --build $(O)

.PHONY: bench bench-large bench-dwarf
