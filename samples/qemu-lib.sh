# qemu-lib.sh: driving a crashing guest under QEMU, shared by
# samples/make-samples.sh and tests/bench/make-large-dump.sh.  Sourced, not
# run; needs bash.  The caller sets SAMPLES (this directory) and PY (the
# python3 that runs qmp.py).

# Wait until file $1 matches the extended regex $2, QEMU (pid $4) exits, or
# $3 seconds pass.  0 once it matches.
wait_serial() {
	local file=$1 re=$2 secs=$3 pid=$4 i
	for ((i = 0; i < secs * 2; i++)); do
		grep -qE "$re" "$file" 2>/dev/null && return 0
		kill -0 "$pid" 2>/dev/null || { grep -qE "$re" "$file" 2>/dev/null; return; }
		sleep 0.5
	done
	return 1
}

# Wait up to $2 seconds for QEMU (pid $1) to exit by itself; else kill it
# and fail.
wait_exit() {
	local pid=$1 secs=$2 i
	for ((i = 0; i < secs * 2; i++)); do
		kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
		sleep 0.5
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	return 1
}

# The guest's QEMU command line up to -m/-append, into the array named $1:
# TCG with $2 vCPUs, kernel $3, initramfs $4, the serial console into file
# $5, a QMP socket at $6 (qmp_dump), VMCOREINFO for dump-guest-memory.
qemu_base_args() {
	local -n _q=$1
	_q=(qemu-system-x86_64 -accel tcg -smp "$2" -nographic -no-reboot
		-kernel "$3" -initrd "$4"
		-device vmcoreinfo -serial "file:$5"
		-monitor none -qmp "unix:$6,server=on,wait=off")
}

# Stop the guest at QMP socket $1, write one dump-guest-memory file per
# "FORMAT:FILE" argument (FORMAT elf, kdump-zlib, ...), then quit QEMU.
qmp_dump() {
	local sock=$1 a fmt file cmds=(stop)
	shift
	for a in "$@"; do
		fmt=${a%%:*} file=${a#*:}
		if [ "$fmt" = elf ]; then
			cmds+=("dump-guest-memory {\"paging\": false, \"protocol\": \"file:$file\"}")
		else
			cmds+=("dump-guest-memory {\"paging\": false, \"protocol\": \"file:$file\", \"format\": \"$fmt\"}")
		fi
	done
	cmds+=(quit)
	"$PY" "$SAMPLES/qmp.py" "$sock" "${cmds[@]}" >&2
}
