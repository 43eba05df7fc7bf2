#!/usr/bin/env bash
# Idempotent bench setup.
#   Tests/bench/setup.sh            -> Python venv at Tests/bench/.venv with bumble==0.0.236
#   Tests/bench/setup.sh --tshark   -> also install tshark (Debian apt, non-interactive; needs root)
#   Tests/bench/setup.sh --tshark-only
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$HERE/.venv"
BUMBLE_VERSION="0.0.236"
PYTHON="${PYTHON:-python3}"

setup_venv() {
    if [ ! -x "$VENV/bin/python" ]; then
        "$PYTHON" -m venv "$VENV"
    fi
    if ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('bumble') != '$BUMBLE_VERSION')" 2>/dev/null; then
        "$VENV/bin/pip" install --quiet --disable-pip-version-check "bumble==$BUMBLE_VERSION"
    fi
}

install_tshark() {
    if command -v tshark >/dev/null 2>&1; then
        return 0
    fi
    echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tshark >/dev/null 2>&1; then
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tshark >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y tshark
    fi
    command -v tshark >/dev/null
}

want_venv=1
want_tshark=0
for arg in "$@"; do
    case "$arg" in
        --tshark) want_tshark=1 ;;
        --tshark-only) want_tshark=1; want_venv=0 ;;
        -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
        *) echo "unknown argument: $arg" >&2; exit 2 ;;
    esac
done

[ "$want_venv" = 1 ] && setup_venv
[ "$want_tshark" = 1 ] && install_tshark
exit 0
