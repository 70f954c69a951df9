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
bench-large:
	$(Q)tests/bench/make-large-dump.sh
	$(Q)LARGE_NAME=medium LARGE_PROCS=125 tests/bench/make-large-dump.sh

bench: $(O)/orccrash $(UBENCH)
	$(Q)$(MAKE) --no-print-directory bench-large || echo "bench: large dumps missing (see above)" >&2
	$(Q)/usr/bin/python3 tests/bench/bench.py --build $(O)

.PHONY: bench bench-large
