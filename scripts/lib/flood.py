"""A connection flood, for `cargo xtask bench flood`: opens COUNT connections to
127.0.0.1:PORT as fast as it can, each of one KIND, holds them HOLD
seconds after the last is opened, then closes them all at once.

    python3 scripts/lib/flood.py PORT COUNT HOLD KIND

KIND is one of
  silent   connects and sends nothing;
  trickle  sends the start of a request, then one more header line a
           second, never ending the head (a slow-headers attack);
  idle     sends one whole request (GET /healthz), reads its answer, then
           sits idle on keep-alive.

Connects without blocking, so a server that stops accepting (its listen
backlog full) does not stall the flood: a connection the kernel has not
completed is counted as pending. Prints one line at the end: how many
connected, how many the server answered (idle) and how many it closed
while the flood held them, how many were still pending, how many failed.
Loopback only; every wait is bounded.
"""

import errno
import resource
import selectors
import socket
import sys
import time

START = b"POST /slug HTTP/1.1\r\nHost: slugd\r\nContent-Type: application/json\r\n"
REQUEST = b"GET /healthz HTTP/1.1\r\nHost: slugd\r\n\r\n"
KINDS = ("silent", "trickle", "idle")


def main():
    port, count, hold, kind = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    if kind not in KINDS:
        sys.exit(f"flood.py: KIND is one of {', '.join(KINDS)}, not {kind}")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and count + 32 > hard:
        sys.exit(f"flood.py: {count} connections need more open files than the limit of {hard} (ulimit -Hn)")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    sel = selectors.DefaultSelector()
    socks = []
    connected = set()  # connected and still open
    stats = {"connected": 0, "answered": 0, "closed": 0, "failed": 0}

    def close(s, key):
        sel.unregister(s)
        connected.discard(s)
        s.close()
        stats[key] += 1

    def pump(timeout):
        for key, events in sel.select(timeout):
            s = key.fileobj
            if key.data == "connecting":
                if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) != 0:
                    close(s, "failed")
                    continue
                try:
                    if kind == "trickle":
                        s.send(START)
                    elif kind == "idle":
                        s.send(REQUEST)
                except OSError:
                    close(s, "failed")
                    continue
                stats["connected"] += 1
                connected.add(s)
                sel.modify(s, selectors.EVENT_READ, "open")
            else:
                try:
                    data = s.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    close(s, "closed")
                elif kind == "idle" and data.startswith(b"HTTP/1.1 "):
                    stats["answered"] += 1

    def trickle():
        for s in list(connected):
            try:
                s.send(b"X-Trickle: a\r\n")
            except OSError:
                close(s, "closed")

    started = time.monotonic()
    next_line = started + 1
    for i in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        code = s.connect_ex(("127.0.0.1", port))
        if code not in (0, errno.EINPROGRESS):
            stats["failed"] += 1
            s.close()
            continue
        sel.register(s, selectors.EVENT_WRITE, "connecting")
        socks.append(s)
        if i % 256 == 255:
            pump(0)
            if kind == "trickle" and time.monotonic() >= next_line:
                trickle()
                next_line += 1
    opened = time.monotonic() - started

    deadline = time.monotonic() + hold
    while time.monotonic() < deadline:
        pump(max(0.0, min(0.2, deadline - time.monotonic())))
        if kind == "trickle" and time.monotonic() >= next_line:
            trickle()
            next_line += 1
    pending = sum(1 for key in sel.get_map().values() if key.data == "connecting")
    for s in socks:
        s.close()
    answered = f"{stats['answered']} answered, " if kind == "idle" else ""
    print(
        f"{count} {kind} connections opened in {opened:.1f} s: {stats['connected']} connected, "
        f"{answered}{stats['closed']} closed by the server while held, {pending} still pending, "
        f"{stats['failed']} failed"
    )


if __name__ == "__main__":
    main()
