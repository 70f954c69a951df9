# tests/realdump/dump.mk: the C drivers of the real-dump checks, one link
# rule for them all (included by the top-level Makefile, whose TEST_BIN
# has them):
#   dumpcat     tests/realdump/dump_check.sh
#   symcheck    the vmlinux's symbol order against the dump's own kallsyms
#               (tests/realdump/novmlinux.sh)
#   logcat      tests/realdump/log_check.sh
#   linescat    tests/realdump/lines.sh
#   bugcat      the bug table's BUG()/WARN() sites (tests/realdump/triage.sh)
#   taskscheck  the task list read behind the browser's open against a
#               plain open's (tests/realdump/threads.sh)
REALDUMP_BIN := $(addprefix $(O)/tests/,dumpcat symcheck logcat linescat \
	bugcat taskscheck)
$(REALDUMP_BIN): $(O)/tests/%: $(O)/tests/realdump/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
