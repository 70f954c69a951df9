# orccrash — one plain Makefile (STYLE.md 11)
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
CRASH_EXTDIR ?= /usr/lib/crash/extensions
DESTDIR ?=
O ?= build

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := libkdumpfile libelf libbpf ncursesw json-c

CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes
ifeq ($(CI),true)
WARN += -Werror
endif
override CFLAGS += -std=gnu11 -D_GNU_SOURCE -fPIC $(WARN) -MMD -MP -Isrc -Iformats -Iui \
	$(shell $(PKG_CONFIG) --cflags $(PKGS)) -I/usr/include/libdwarf
LDLIBS := $(shell $(PKG_CONFIG) --libs $(PKGS)) -ldwarf -lz -lpthread

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2);
endif

# The core: everything but the front ends.
CORE_SRC := $(filter-out src/main.c,$(wildcard src/*.c)) $(wildcard formats/*.c)
UI_SRC := $(wildcard ui/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(O)/%.o)
UI_OBJ := $(UI_SRC:%.c=$(O)/%.o)
LIB := $(O)/liborccrash.a

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%)

all: $(O)/orccrash

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)$(CC) $(CFLAGS) -c -o $@ $<

$(LIB): $(CORE_OBJ)
	$(call msg,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(O)/orccrash: $(O)/src/main.o $(UI_OBJ) $(LIB)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/tests/%: $(O)/tests/unit/%.o $(O)/tests/unit/harness.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Unit tests only (synthetic inputs, no dumps): fast.
check-unit: $(UNIT_BIN) $(O)/orccrash
	$(Q)tests/run-tests.sh --unit $(O)

# Packages: build (deps) and tests (deps-test); installs only what is
# missing, with apt-get (as root).
deps:
	$(Q)tests/install-deps.sh build
deps-test:
	$(Q)tests/install-deps.sh test

# Everything: unit tests, then the real-dump tests over the samples,
# which `make samples` builds (a no-op when the cache is complete).  The
# sub-makes re-read pkg-config once the packages are there.
test: deps-test
	$(Q)$(MAKE) --no-print-directory all $(UNIT_BIN) $(TEST_BIN)
	$(Q)samples/make-samples.sh
	$(Q)tests/run-tests.sh --all $(O)
check: test

samples:
	$(Q)samples/make-samples.sh

# README command 1: build, make sure the default sample is there (it is
# committed; make-samples.sh makes it again if it was removed), open it.
# With no arguments orccrash opens samples/default/vmcore, needing no
# vmlinux (symbols, types and ORC come from the dump).
run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)test -r samples/default/vmcore || { tests/install-deps.sh test && samples/make-samples.sh; }
	$(Q)$(O)/orccrash

check-asan:
	$(MAKE) O=build-asan CC=clang \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" test

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(O)/orccrash $(DESTDIR)$(BINDIR)/orccrash
	if [ -f docs/orccrash.1 ]; then install -m 644 docs/orccrash.1 $(DESTDIR)$(MANDIR)/man1/; fi

clean:
	rm -rf $(O) build-asan

.PHONY: all test check check-unit check-asan samples install clean deps deps-test run
.SECONDARY:

# Fragments: the crash extension and the test drivers.
include src/crash/crash.mk tests/realdump/dump.mk tests/realdump/log.mk \
	tests/realdump/lines.mk tests/fuzz/fuzz.mk tests/bench/bench.mk
TEST_BIN := $(O)/tests/dumpcat $(O)/tests/symcheck $(O)/tests/logcat $(O)/tests/linescat \
	$(CRASH_TEST_BIN)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
