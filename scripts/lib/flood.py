"""A connection flood, for scripts/flood.sh: opens COUNT connections to
127.0.0.1:PORT, sends on each the start of a request whose headers never
end, holds them all for HOLD seconds, then closes them all at once.

    python3 scripts/lib/flood.py PORT COUNT HOLD

Connects without blocking, so a server that stops accepting (its cap
reached, its listen backlog full) does not stall the flood: a connection
the kernel has not completed is counted as pending. Prints one line at the
end: how many connected and sent their partial headers, how many were still
pending, how many failed. Loopback only.
"""

import errno
import resource
import selectors
import socket
import sys
import time

PARTIAL = b"POST /slug HTTP/1.1\r\nHost: slugd\r\nContent-Type: application/json\r\nX-Never-Ends: "


def main():
    port, count, hold = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and count + 32 > hard:
        sys.exit(f"flood.py: {count} connections need more open files than the limit of {hard} (ulimit -Hn)")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    sel = selectors.DefaultSelector()
    socks = []
    sent = failed = 0

    def pump(timeout):
        nonlocal sent, failed
        for key, _ in sel.select(timeout):
            s = key.fileobj
            sel.unregister(s)
            if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) != 0:
                failed += 1
                continue
            try:
                s.send(PARTIAL)
                sent += 1
            except OSError:
                failed += 1

    for i in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        code = s.connect_ex(("127.0.0.1", port))
        if code not in (0, errno.EINPROGRESS):
            failed += 1
            s.close()
            continue
        sel.register(s, selectors.EVENT_WRITE)
        socks.append(s)
        if i % 256 == 255:
            pump(0)

    deadline = time.monotonic() + hold
    while time.monotonic() < deadline:
        pump(max(0.0, min(0.2, deadline - time.monotonic())))
    pending = len(sel.get_map())
    for s in socks:
        s.close()
    print(f"{sent} connected and sent partial headers, {pending} still pending, {failed} failed")


if __name__ == "__main__":
    main()
