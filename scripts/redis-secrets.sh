#!/usr/bin/env bash
# Makes the secrets of docker-compose.yml's Redis, once:
#
#   DIR/secrets/redis-users.acl  deploy/redis-users.acl with each user's
#                                password as its SHA-256 (Redis's `#hash`
#                                rule: the file holds no password), the
#                                compose secret redis_users
#   DIR/.env                     the passwords, for the loader's and the
#                                service's REDIS_URL (docker-compose reads
#                                .env beside the compose file)
#
# DIR is the checkout by default (both are in .gitignore); .env is
# readable by its owner only, and nothing is baked into an image. The ACL
# file is world-readable so that the container's redis user can read the
# bind-mounted secret; it holds only hashes. Run it again with --force for
# new passwords (then restart redis, the loader and the service).
#
#   scripts/redis-secrets.sh [--force] [DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
force=no
if [[ "${1:-}" == --force ]]; then force=yes; shift; fi
dir="${1:-$root}"
if [[ -e "$dir/secrets/redis-users.acl" && $force == no ]]; then
  echo "$dir/secrets/redis-users.acl exists; give --force to make new passwords" >&2
  exit 1
fi
mkdir -p "$dir/secrets"
password() { od -An -N24 -tx1 /dev/urandom | tr -d ' \n'; }
hash() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
loader=$(password)
service=$(password)
sed -e "s/>LOADER_PASSWORD/#$(hash "$loader")/" -e "s/>SERVICE_PASSWORD/#$(hash "$service")/" \
  "$root/deploy/redis-users.acl" > "$dir/secrets/redis-users.acl"
chmod 644 "$dir/secrets/redis-users.acl"
(umask 077 && printf 'SLUGD_LOADER_PASSWORD=%s\nSLUGD_SERVICE_PASSWORD=%s\n' "$loader" "$service" > "$dir/.env")
echo "wrote $dir/secrets/redis-users.acl and $dir/.env"
