# apt_install PACKAGE...: installs the Debian packages with apt-get when
# running as root; otherwise says which to install and exits 1. Sourced by
# test.sh, dictionaries.sh and common.sh (from the project root).
apt_install() {
  [ $# -gt 0 ] || return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "$(basename "$0"): installing $* with apt-get" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "$(basename "$0"): missing $*. Install (Debian/Ubuntu: sudo apt-get install $*) and run again." >&2
    exit 1
  fi
}
