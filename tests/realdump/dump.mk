# tests/realdump/dump.mk: the dumpcat driver for tests/realdump/dump_check.sh
# (included by the top-level Makefile).
$(O)/tests/dumpcat: $(O)/tests/realdump/dumpcat.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# symcheck: the vmlinux's symbol order against the dump's own kallsyms
# (tests/realdump/novmlinux.sh)
$(O)/tests/symcheck: $(O)/tests/realdump/symcheck.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# bugcat: the bug table's BUG()/WARN() sites (tests/realdump/triage.sh)
$(O)/tests/bugcat: $(O)/tests/realdump/bugcat.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# taskscheck: the task list read behind the browser's open against a
# plain open's (tests/realdump/threads.sh)
$(O)/tests/taskscheck: $(O)/tests/realdump/taskscheck.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
