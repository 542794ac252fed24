"""POSTs N titles of data/corpus.txt to /slug, one after another on one
keep-alive connection, and fails on any answer but 200.

    python3 scripts/lib/post_titles.py PORT N
"""
import http.client
import json
import sys

port, n = int(sys.argv[1]), int(sys.argv[2])
with open("data/corpus.txt", encoding="utf-8") as f:
    titles = [line.strip() for line in f if line.strip()]
conn = http.client.HTTPConnection("127.0.0.1", port)
for i in range(n):
    body = json.dumps({"title": titles[i % len(titles)]})
    conn.request("POST", "/slug", body, {"content-type": "application/json"})
    response = conn.getresponse()
    response.read()
    if response.status != 200:
        sys.exit(f"post_titles.py: request {i} answered {response.status}")
