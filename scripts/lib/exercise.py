"""Exercises a running slugd the way a service is used, on one keep-alive
connection: N corpus titles through POST /slug, the batch and GET forms,
the probes and the metrics, and with --reservations a reservation, a
look-up and a release for every tenth title. Fails on any unexpected
status. scripts/link_order.sh runs it to find the code a service runs.

    python3 scripts/lib/exercise.py PORT N [--reservations]
"""
import http.client
import json
import sys
import urllib.parse

port, n = int(sys.argv[1]), int(sys.argv[2])
reservations = "--reservations" in sys.argv[3:]
with open("data/corpus.txt", encoding="utf-8") as f:
    titles = [line.strip() for line in f if line.strip() and not line.startswith("#")]
conn = http.client.HTTPConnection("127.0.0.1", port)


def ask(method, path, body=None, ok=(200,)):
    headers = {"content-type": "application/json"} if body is not None else {}
    conn.request(method, path, None if body is None else json.dumps(body), headers)
    response = conn.getresponse()
    answer = response.read()
    if response.status not in ok:
        sys.exit(f"exercise.py: {method} {path} answered {response.status}")
    return answer


for i in range(n):
    title = titles[i % len(titles)]
    ask("POST", "/slug", {"title": title})
    if i % 10 == 0:
        ask("POST", "/slugs", {"titles": titles[i % len(titles):][:10]})
        ask("GET", "/slug?" + urllib.parse.urlencode({"title": title}))
        ask("GET", "/healthz")
        ask("GET", "/readyz")
        ask("POST", "/slug", {"title": "!!!"}, ok=(422,))
        if reservations:
            owner = f"exercise-{i}"
            made = ask("POST", "/reservations", {"scope": "exercise", "owner": owner, "title": title}, ok=(200, 201))
            slug = json.loads(made)["slug"]
            ask("GET", "/reservations/exercise/" + urllib.parse.quote(slug, safe=""))
            ask("DELETE", "/reservations/exercise/" + urllib.parse.quote(owner, safe=""), ok=(204,))
    if i % 100 == 0:
        ask("GET", "/metrics")
