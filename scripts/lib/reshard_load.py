"""Load and checks for scripts/reshard.sh: drives three slugd instances
with POST /slug and reservations (new ones, retries, look-ups, releases)
while the cluster moves slots, then checks that nothing acknowledged was
lost or handed out twice, through the API and straight from Redis.

    python3 reshard_load.py --ports P1,P2,P3 --redis PORT --moving FIRST-LAST \
        --work DIR [--workers N]

It picks scopes whose hash slot is in FIRST-LAST (the slots being moved)
and a few elsewhere, and runs until DIR/stop exists. DIR/move-started and
DIR/move-ended (written by the caller, each holding a time.time()) mark
the move, so answers during it are counted apart. Prints the figures and
exits 1 if a check failed.
"""
import argparse
import collections
import http.client
import json
import os
import random
import socket
import threading
import time
import urllib.parse

PREFIX = "slugd:"
TITLES = [
    "Hello World",
    "I ❤ Redis",
    "This is my ☃ post!",
    "Привет, мир",
    "Release notes",
    "Weekend ⚡ deals",
    "Café au lait",
    "北京烤鸭的做法",
]


def crc16(data: bytes) -> int:
    """CRC16/XMODEM, as Redis Cluster hashes keys."""
    crc = 0
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def slot_of_scope(scope: str) -> int:
    # Keys are slugd:r:{scope}:..., the scope being the hash tag.
    return crc16(scope.encode()) % 16384


class Resp:
    """A minimal Redis client (RESP2), enough to read the keys back."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.buf = self.sock.makefile("rb")

    def call(self, *args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        self.sock.sendall(b"".join(out))
        return self.read()

    def read(self):
        line = self.buf.readline()[:-2]
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RuntimeError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            data = self.buf.read(n + 2)[:-2]
            return data.decode()
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        raise RuntimeError(f"unexpected reply {line!r}")


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        # (op, phase) -> Counter of status
        self.status = collections.defaultdict(collections.Counter)
        # phase -> list of (latency, op, status)
        self.latencies = collections.defaultdict(list)
        self.slowest = (0.0, "", 0, "")
        self.surprises = []

    def add(self, op, phase, status, latency, body):
        with self.lock:
            self.status[(op, phase)][status] += 1
            self.latencies[phase].append((latency, op, status))
            if latency > self.slowest[0]:
                self.slowest = (latency, op, status, phase)
            bad = not (200 <= status < 300 or status == 503)
            if bad and len(self.surprises) < 20:
                self.surprises.append(f"{op} {status} {body[:300]}")


class Ledger:
    """What the clients were told: every acknowledged reservation, the
    releases, and the owners whose outcome is unknown (a 503)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.acked = {}  # (scope, owner) -> (slug, title, acked at)
        self.grants = collections.defaultdict(list)  # (scope, slug) -> [(owner, sent, acked)]
        self.released = {}  # (scope, owner) -> time the DELETE was sent (it was answered 204)
        self.unknown = set()  # (scope, owner): a reserve or release that got 503
        self.wrong = []  # answers that contradict an earlier one


def phase_now(work):
    started = os.path.exists(os.path.join(work, "move-started"))
    ended = os.path.exists(os.path.join(work, "move-ended"))
    if started and not ended:
        return "during"
    return "after" if ended else "before"


def worker(n, args, scopes, stats, ledger, stop):
    port = args.ports[n % len(args.ports)]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    rng = random.Random(n)
    made = 0
    mine = []  # (scope, owner) of this client's acknowledged reservations

    def ask(method, path, body=None):
        nonlocal conn
        data = None if body is None else json.dumps(body).encode()
        headers = {"content-type": "application/json"} if data else {}
        t0 = time.monotonic()
        try:
            conn.request(method, path, data, headers)
            r = conn.getresponse()
            raw = r.read()
            status = r.status
        except (OSError, http.client.HTTPException) as e:
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            raw, status = str(e).encode(), 0
        return status, raw, time.monotonic() - t0, t0

    while not stop.is_set():
        phase = phase_now(args.work)
        roll = rng.random()
        if roll < 0.25:
            op = "slug"
            status, raw, lat, _ = ask("POST", "/slug", {"title": rng.choice(args.corpus)})
        elif roll < 0.65 or not mine:
            op = "reserve"
            scope = rng.choice(scopes)
            owner = f"w{n}-{made}"
            made += 1
            title = rng.choice(TITLES)
            sent = time.time()
            status, raw, lat, _ = ask(
                "POST", "/reservations", {"scope": scope, "owner": owner, "title": title}
            )
            with ledger.lock:
                if status in (200, 201):
                    slug = json.loads(raw)["slug"]
                    ledger.acked[(scope, owner)] = (slug, title, time.time())
                    ledger.grants[(scope, slug)].append((owner, sent, time.time()))
                    mine.append((scope, owner))
                else:
                    ledger.unknown.add((scope, owner))
        elif roll < 0.78:
            op = "retry"
            scope, owner = rng.choice(mine)
            slug, title, _ = ledger.acked[(scope, owner)]
            status, raw, lat, _ = ask(
                "POST", "/reservations", {"scope": scope, "owner": owner, "title": title}
            )
            if status in (200, 201):
                got = json.loads(raw)["slug"]
                if status != 200 or got != slug:
                    with ledger.lock:
                        ledger.wrong.append(f"retry of {scope}/{owner}: {status} {got}, had {slug}")
        elif roll < 0.95:
            op = "lookup"
            scope, owner = rng.choice(mine)
            slug = ledger.acked[(scope, owner)][0]
            path = f"/reservations/{urllib.parse.quote(scope, safe='')}/{slug}"
            status, raw, lat, _ = ask("GET", path)
            if status == 200 and json.loads(raw)["owner"] != owner:
                with ledger.lock:
                    ledger.wrong.append(f"lookup {scope}/{slug}: {raw[:200]!r}, want {owner}")
            if status == 404:
                with ledger.lock:
                    ledger.wrong.append(f"lookup {scope}/{slug} of {owner}: 404")
        else:
            op = "release"
            scope, owner = mine.pop(rng.randrange(len(mine)))
            with ledger.lock:
                ledger.acked.pop((scope, owner), None)
            path = f"/reservations/{urllib.parse.quote(scope, safe='')}/{urllib.parse.quote(owner, safe='')}"
            sent = time.time()
            status, raw, lat, _ = ask("DELETE", path)
            with ledger.lock:
                if status == 204:
                    ledger.released[(scope, owner)] = sent
                else:
                    ledger.unknown.add((scope, owner))
                    if status == 404:
                        ledger.wrong.append(f"release of {scope}/{owner}: 404")
        stats.add(op, phase, status, lat, raw.decode(errors="replace"))


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p))]


def read_scope(nodes, scope):
    """Every field of `scope` on every node: {port: {key: {field: value}}}."""
    found = {}
    for port, r in nodes.items():
        cursor = "0"
        keys = []
        while True:
            cursor, batch = r.call("SCAN", cursor, "MATCH", f"{PREFIX}r:{{{scope}}}:*", "COUNT", 1000)
            keys += batch
            if cursor == "0":
                break
        for k in keys:
            # A node reads a key of a slot still moving to it only when
            # asked with ASKING first.
            r.call("ASKING")
            flat = r.call("HGETALL", k)
            found.setdefault(port, {})[k] = dict(zip(flat[::2], flat[1::2]))
    return found


def owner_of_slot(slots, slot):
    for first, last, primary, *_ in slots:
        if first <= slot <= last:
            return primary[1]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ports", required=True)
    ap.add_argument("--redis", required=True, help="the cluster's node ports, comma-separated")
    ap.add_argument("--moving", required=True, help="FIRST-LAST: the slots being moved")
    ap.add_argument("--work", required=True)
    ap.add_argument("--workers", type=int, default=12)
    ap.add_argument("--scopes", type=int, default=8, help="scopes in the moving slots")
    args = ap.parse_args()
    args.ports = [int(p) for p in args.ports.split(",")]
    first, last = map(int, args.moving.split("-"))
    with open("data/corpus.txt", encoding="utf-8") as f:
        args.corpus = [l.strip() for l in f if l.strip() and not l.startswith("#")]

    moving, staying = [], []
    i = 0
    while len(moving) < args.scopes or len(staying) < 4:
        scope = f"posts-{i}"
        i += 1
        if first <= slot_of_scope(scope) <= last:
            if len(moving) < args.scopes:
                moving.append(scope)
        elif len(staying) < 4:
            staying.append(scope)
    scopes = moving + staying

    stats, ledger, stop = Stats(), Ledger(), threading.Event()
    threads = [
        threading.Thread(target=worker, args=(n, args, scopes, stats, ledger, stop))
        for n in range(args.workers)
    ]
    t0 = time.time()
    for t in threads:
        t.start()
    open(os.path.join(args.work, "load-running"), "w").close()
    while not os.path.exists(os.path.join(args.work, "stop")):
        time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.time() - t0

    failed = []
    # What the clients saw.
    total = sum(sum(c.values()) for c in stats.status.values())
    print(f"== load: {args.workers} clients on {len(args.ports)} instances, {len(scopes)} scopes "
          f"({len(moving)} in the moving slots {first}-{last}), {total} requests in {elapsed:.1f} s "
          f"({total / elapsed:.0f} req/s)")
    for phase in ("before", "during", "after"):
        lats = sorted(l for l, _, _ in stats.latencies[phase])
        if not lats:
            continue
        counts = collections.Counter()
        for (op, ph), c in stats.status.items():
            if ph == phase:
                counts.update(c)
        per_op = ", ".join(
            f"{op} " + " ".join(f"{s}x{n}" for s, n in sorted(stats.status[(op, phase)].items()))
            for op in ("slug", "reserve", "retry", "lookup", "release")
            if stats.status.get((op, phase))
        )
        slow503 = max((l for l, _, s in stats.latencies[phase] if s == 503), default=0.0)
        print(f"  {phase:<6} {len(lats):>6} answers: {per_op}")
        print(f"         p50 {percentile(lats, 0.5) * 1e3:.1f} ms, p99 {percentile(lats, 0.99) * 1e3:.1f} ms, "
              f"max {lats[-1] * 1e3:.1f} ms; slowest 503 {slow503 * 1e3:.1f} ms")
        if phase == "during":
            others = {s: n for s, n in counts.items() if not (200 <= s < 300 or s == 503)}
            if others:
                failed.append(f"answers during the move that are neither 2xx nor 503: {others}")
    lat, op, status, phase = stats.slowest
    print(f"  slowest answer: {lat * 1e3:.1f} ms ({op}, {status}, {phase} the move)")
    for s in stats.surprises:
        print(f"  unexpected answer: {s}")
    if stats.surprises:
        failed.append(f"{len(stats.surprises)}+ answers neither 2xx nor 503")
    for w in ledger.wrong[:10]:
        print(f"  contradicted: {w}")
    if ledger.wrong:
        failed.append(f"{len(ledger.wrong)} answers contradicted an earlier acknowledgement")

    # Lost: every acknowledged reservation, read back through the API.
    live = {k: v for k, v in ledger.acked.items() if k not in ledger.unknown}
    lost_api = []
    conns = [http.client.HTTPConnection("127.0.0.1", p, timeout=10) for p in args.ports]
    for j, ((scope, owner), (slug, _, _)) in enumerate(sorted(live.items())):
        c = conns[j % len(conns)]
        c.request("GET", f"/reservations/{urllib.parse.quote(scope, safe='')}/{slug}")
        r = c.getresponse()
        body = r.read()
        if r.status != 200 or json.loads(body)["owner"] != owner:
            lost_api.append(f"{scope}/{slug} of {owner}: {r.status} {body[:120]!r}")

    # Twice: two owners acknowledged the same slug, the second answered
    # before the first's release was even sent (a release answered 204
    # frees the slug; one sent while the second reservation was under way
    # may have run first).
    twice = []
    for (scope, slug), grants in ledger.grants.items():
        grants = sorted(grants, key=lambda g: g[2])
        for (a, _, _), (b, _, b_acked) in zip(grants, grants[1:]):
            freed = ledger.released.get((scope, a))
            if a != b and (freed is None or b_acked < freed):
                twice.append(f"{scope}/{slug}: {a} and {b}")

    # Straight from Redis: each scope on exactly the node that holds its slot
    # now, every acknowledged slug held by its owner and in its record, and
    # no slug in two owners' records.
    nodes = {int(p): Resp(int(p)) for p in args.redis.split(",")}
    slots = next(iter(nodes.values())).call("CLUSTER", "SLOTS")
    lost_redis, stray, in_two, disagree = [], [], [], []
    moved_to = collections.Counter()
    keys_read = 0
    for scope in scopes:
        where = owner_of_slot(slots, slot_of_scope(scope))
        found = read_scope(nodes, scope)
        for port in found:
            if port != where:
                stray.append(f"{scope}: {len(found[port])} keys on {port}, its slot is on {where}")
        if scope in moving:
            moved_to[where] += 1
        fields = {}
        for bucket in found.get(where, {}).values():
            fields.update(bucket)
        keys_read += len(found.get(where, {}))
        holder = {f: v for f, v in fields.items() if f[:1] not in ("=", "#")}
        listed = collections.defaultdict(list)
        for f, v in fields.items():
            if f.startswith("="):
                for entry in v.split():
                    slug = entry.split("/")[0].split(":")[0]
                    listed[slug].append(f[1:])
                    if holder.get(slug) != f[1:]:
                        disagree.append(f"{scope}: {f[1:]} lists {slug}, held by {holder.get(slug)}")
        for slug, owners in listed.items():
            if len(owners) > 1:
                in_two.append(f"{scope}/{slug}: {owners}")
        for (s, owner), (slug, _, _) in live.items():
            if s == scope and (holder.get(slug) != owner or owner not in listed.get(slug, [])):
                lost_redis.append(f"{scope}/{slug} of {owner}: held by {holder.get(slug)}")

    released = len(ledger.released)
    print(f"== checks: {len(live)} acknowledged reservations held at the end "
          f"({sum(len(g) for g in ledger.grants.values())} acknowledged in all, {released} released, "
          f"{len(ledger.unknown)} owners with an unknown outcome left out)")
    print(f"  lost, read back with GET: {len(lost_api)}")
    print(f"  lost, read straight from Redis ({keys_read} bucket keys): {len(lost_redis)}")
    print(f"  handed out twice (to clients): {len(twice)}; listed by two owners in Redis: {len(in_two)}")
    print(f"  owner records that disagree with the slug's holder: {len(disagree)}")
    print(f"  keys of a scope on a node that does not hold its slot: {len(stray)}")
    print("  moving scopes now on: " + ", ".join(f"{p} x{n}" for p, n in sorted(moved_to.items())))
    for name, items in [("lost (GET)", lost_api), ("lost (Redis)", lost_redis), ("twice", twice),
                        ("in two records", in_two), ("disagree", disagree), ("stray", stray)]:
        for item in items[:5]:
            print(f"    {name}: {item}")
        if items:
            failed.append(f"{len(items)} {name}")
    if failed:
        print("FAILED: " + "; ".join(failed))
        raise SystemExit(1)
    print("OK: nothing acknowledged lost, nothing handed out twice")


if __name__ == "__main__":
    main()
