#!/usr/bin/env python3
"""Send QMP commands to a QEMU monitor socket (samples/make-samples.sh helper).

Usage: qmp.py SOCKET 'CMD [JSON-ARGS]' ...
Each command runs in turn and waits for its reply (dump-guest-memory replies
when the dump is written). Prints each reply; exits 1 on the first error.
"""
import json
import socket
import sys


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(600)
    sock.connect(sys.argv[1])
    f = sock.makefile("rw")

    def reply():
        while True:
            line = f.readline()
            if not line:
                raise EOFError("QMP socket closed")
            msg = json.loads(line)
            if "return" in msg or "error" in msg:
                return msg

    json.loads(f.readline())  # greeting
    f.write(json.dumps({"execute": "qmp_capabilities"}) + "\n")
    f.flush()
    reply()
    for arg in sys.argv[2:]:
        name, _, args = arg.partition(" ")
        cmd = {"execute": name}
        if args:
            cmd["arguments"] = json.loads(args)
        f.write(json.dumps(cmd) + "\n")
        f.flush()
        try:
            msg = reply()
        except EOFError:
            if name == "quit":
                break
            raise
        print(name, json.dumps(msg))
        if "error" in msg:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
