# `make bench` (tests/bench/, not part of `make test`): orccrash against
# crash and drgn on the sample dumps and the large dump, plus in-process
# micro-benchmarks.  Included from the top Makefile.  Knobs: BENCH_RUNS,
# BENCH_ALL=1 (every dump format), BENCH_LARGE=0 (skip the large dumps),
# BENCH_PEERS=0 (orccrash only), BENCH_OUT (the markdown table file).
UBENCH := $(O)/tests/ubench

$(UBENCH): $(O)/tests/bench/ubench.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench-large:
	$(Q)tests/bench/make-large-dump.sh

bench: $(O)/orccrash $(UBENCH)
	$(Q)tests/bench/make-large-dump.sh || echo "bench: no large dump (see above)" >&2
	$(Q)/usr/bin/python3 tests/bench/bench.py --build $(O)

.PHONY: bench bench-large
