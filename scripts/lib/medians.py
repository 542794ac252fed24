"""Medians of wrk rounds, of reserve_bench.sh.

Usage: medians.py RESULTS "TARGET ..." "A/B ..."

RESULTS has one line per round and target: `name round req/s p50 p99`
(latencies as wrk writes them: 512us, 1.2ms, 2s). Prints the median of
each column per target, in the order given (targets with no rounds are
left out), then the ratio of median req/s for each A/B whose sides both ran.
"""
import statistics
import sys


def us(v):
    for unit, f in (("us", 1), ("ms", 1000), ("s", 1000000)):
        if v.endswith(unit):
            return float(v[: -len(unit)]) * f
    return float(v)


results, targets, ratios = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
rows = {}
for line in open(results):
    name, _, rps, p50, p99 = line.split()
    rows.setdefault(name, []).append((float(rps), us(p50), us(p99)))
med = {n: [statistics.median(c) for c in zip(*v)] for n, v in rows.items()}
print("== medians")
print(f"{'target':<18}{'req/s':>10}{'p50 us':>10}{'p99 us':>10}")
for n in targets:
    if n in med:
        r, a, b = med[n]
        print(f"{n:<18}{r:>10.0f}{a:>10.0f}{b:>10.0f}")
for pair in ratios:
    a, b = pair.split("/")
    if a in med and b in med:
        print(f"{a + ' / ' + b + ' req/s:':<40}{med[a][0] / med[b][0]:.2f}")
