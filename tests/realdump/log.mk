# tests/realdump/log.mk: the logcat driver for tests/realdump/log_check.sh
# (included by the top-level Makefile).
$(O)/tests/logcat: $(O)/tests/realdump/logcat.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
