#!/usr/bin/env bash
# Installs the Debian 12 packages Capdesk needs to build, test and take screenshots.
# Idempotent: when every package is already installed it only asks dpkg and exits 0,
# without touching apt. Otherwise it installs the missing ones with apt-get, as root or
# through sudo, and fails with a message naming them when it cannot.
set -euo pipefail

packages=(
    cmake ninja-build g++ clang-14 libclang-rt-14-dev ccache clang-format-14 clang-tidy-14
    qt6-base-dev libqt6sql6-sqlite libqt6sql6-psql postgresql qt6-httpserver-dev qt6-websockets-dev qt6-tools-dev qt6-svg-dev
    qtkeychain-qt6-dev libssl-dev libsqlite3-dev
    xvfb xauth xdotool imagemagick libx11-dev libxdamage-dev
    gnome-keyring dbus
    curl bash
    dpkg-dev fakeroot file lintian debootstrap desktop-file-utils appstream systemd
    python3
)
# The official MCP clients the tests drive run on Node.js (tests/mcp). A node that is there
# already (from any source) is kept: Debian's npm package would conflict with a node that
# bundles its own npm.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    packages+=(nodejs npm)
fi

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    if [ "$status" != "install ok installed" ]; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

say() { printf 'bootstrap: %s\n' "$*" >&2; }

if ! command -v apt-get >/dev/null 2>&1; then
    say "apt-get not found: install these packages by hand: ${missing[*]}"
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    say "not root and no sudo: run as root, or install these packages by hand: ${missing[*]}"
    exit 1
fi

say "installing: ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
