#!/usr/bin/env bash
# Proves the package on a clean Debian 12 with nothing but apt: installs capdesk_*.deb
# into a fresh debootstrap (minbase) chroot, runs the installed capdeskctl and serve
# against a request, shows the installed capdesk on an Xvfb screen, validates the
# installed metainfo, desktop entry and systemd unit, then purges the package and checks
# that none of its files is left. The chroot, its mounts and the X server are removed in
# an EXIT trap, so a failure anywhere leaves the host as it was.
#
#   install-test.sh DEB [SCREENSHOT.png]
#
# Needs root (debootstrap, chroot, mount), debootstrap, Xvfb, xdotool, ImageMagick's
# import, curl, appstreamcli, desktop-file-validate and systemd-analyze on the host.
set -euo pipefail

[ $# -ge 1 ] && [ $# -le 2 ] || {
    sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
deb=$(realpath "$1")
shot=${2:-}
[ -z "$shot" ] || shot=$(realpath -m "$shot")
say() { printf 'install-test: %s\n' "$*" >&2; }
fail() {
    say "FAILED: $*"
    exit 1
}
[ -f "$deb" ] || fail "no package at $deb"

work=$(mktemp -d "${TMPDIR:-/var/tmp}/capdesk-install.XXXXXXXX")
root="$work/root"
xvfb_pid=
serve_pid=
gui_pid=

in_root() { chroot "$root" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

cleanup() {
    local rc=$?
    set +e
    local pid
    for pid in $gui_pid $serve_pid; do
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    # The purge is the test's last step; here again so that a failure halfway still
    # takes the package out before the chroot goes.
    if [ -x "$root/usr/bin/dpkg" ] && in_root dpkg -s capdesk >/dev/null 2>&1; then
        in_root apt-get purge -y -q capdesk >/dev/null 2>&1
    fi
    if [ -n "$xvfb_pid" ]; then
        kill "$xvfb_pid" 2>/dev/null
        wait "$xvfb_pid" 2>/dev/null
    fi
    for mounted in tmp/.X11-unix dev/pts dev/shm dev sys proc; do
        mountpoint -q "$root/$mounted" 2>/dev/null && umount -l "$root/$mounted"
    done
    rm -rf --one-file-system "$work"
    exit "$rc"
}
trap cleanup EXIT

# The host's own Debian archive entries (signed by Debian's keyring), so that no archive
# host is named here and no third-party repository of the host comes along.
debian_sources() {
    local file
    for file in /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] || continue
        awk 'BEGIN { RS = ""; ORS = "\n\n" } /Signed-By: *\/usr\/share\/keyrings\/debian-archive-keyring/' "$file"
    done
}
debian_list() {
    [ ! -f /etc/apt/sources.list ] || grep -E '^deb\s' /etc/apt/sources.list | grep -E '/debian(-security)?/?\s' || true
}
mirror=$(debian_sources | awk '/^URIs:/ { print $2; exit }')
[ -n "$mirror" ] || mirror=$(debian_list | awk '{ print ($2 ~ /^\[/ ? $3 : $2); exit }')
[ -n "$mirror" ] || fail "no Debian archive found in the host's apt sources"

started=$SECONDS
say "debootstrap --variant=minbase bookworm"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap"; }
# The host's enabled sources (its updates and security suites too), since the package's
# Depends name the library versions the host built against.
debian_list >"$root/etc/apt/sources.list"
debian_sources >"$root/etc/apt/sources.list.d/debian.sources"
[ -s "$root/etc/apt/sources.list" ] || [ -s "$root/etc/apt/sources.list.d/debian.sources" ] ||
    fail "no Debian archive entries to give the chroot"
# Slave mounts: what happens under the chroot never propagates back to the host.
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --make-rslave "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount --make-rslave "$root/dev/pts"
say "chroot ready in $((SECONDS - started)) s"

started=$SECONDS
cp "$deb" "$root/tmp/capdesk.deb"
in_root apt-get update -q >"$work/apt.log" 2>&1 || { tail -20 "$work/apt.log" >&2; fail "apt-get update"; }
# No recommends: what the package's Depends name must be enough on its own.
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/capdesk.deb \
    >>"$work/apt.log" 2>&1 || { tail -30 "$work/apt.log" >&2; fail "apt-get install ./capdesk.deb"; }
in_root dpkg -L capdesk >"$work/files"
say "installed with its dependencies in $((SECONDS - started)) s ($(wc -l <"$work/files") paths)"

# The plugins Qt loads by name, which no linker check sees: the package's Depends must
# have brought each one (an icon engine missing shows only as blank icons).
plugins=/usr/lib/x86_64-linux-gnu/qt6/plugins
for plugin in platforms/libqxcb.so sqldrivers/libqsqlite.so sqldrivers/libqsqlpsql.so \
    iconengines/libqsvgicon.so imageformats/libqsvg.so; do
    [ -f "$root$plugins/$plugin" ] || fail "the Qt plugin $plugin is missing: add its package to Depends"
done

version=$(dpkg-deb -f "$deb" Version)
in_root capdesk --version | grep -qx "capdesk ${version%-*}" || fail "capdesk --version does not say ${version%-*}"
in_root capdeskctl --version | grep -qx "capdeskctl ${version%-*}" || fail "capdeskctl --version"
in_root man -w capdeskctl >/dev/null 2>&1 || [ -f "$root/usr/share/man/man1/capdeskctl.1.gz" ] ||
    fail "no capdeskctl(1)"

say "capdeskctl init --sample, invoke NOW"
in_root capdeskctl init --sample --db /root/directory.db >/dev/null || fail "capdeskctl init --sample"
in_root capdeskctl invoke NOW --db /root/directory.db >"$work/invoke.json" || fail "capdeskctl invoke NOW"
grep -q '"invocation_id"' "$work/invoke.json" || fail "invoke NOW answered without a receipt: $(cat "$work/invoke.json")"

say "capdeskctl serve, asked over loopback"
key=install-test-owner-key-0123456789
chroot "$root" env -i HOME=/root PATH=/usr/bin:/bin LANG=C.UTF-8 CAPDESK_TERMINAL_KEY="$key" \
    capdeskctl serve --db /root/directory.db --listen 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
url=
for _ in $(seq 100); do
    url=$(sed -n 's/^capdeskctl: listening on //p' "$work/serve.err")
    [ -n "$url" ] && break
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.1
done
[ -n "$url" ] || fail "serve did not start: $(cat "$work/serve.err")"
curl -fsS -H "x-terminal-key: $key" "$url/api/directory/NOW" | grep -q '"key":"NOW"' || fail "GET /api/directory/NOW"
curl -fsS -X POST -H "x-terminal-key: $key" -H 'Content-Type: application/json' \
    -d '{"key":"NOW","body":""}' "$url/api/dispatch" | grep -q '"invocation_id"' || fail "POST /api/dispatch"
kill "$serve_pid"
wait "$serve_pid" || true
serve_pid=

say "capdesk on an X screen"
display=
for n in $(seq 90 119); do
    if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then
        display=:$n
        break
    fi
done
[ -n "$display" ] || fail "no free X display number from :90 to :119"
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do
    [ -S "/tmp/.X11-unix/X${display#:}" ] && break
    sleep 0.1
done
mkdir -p "$root/tmp/.X11-unix"
mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"
mount --make-rslave "$root/tmp/.X11-unix"
# chroot itself in the background, not in_root: $! must be the process that kill reaches.
chroot "$root" env -i HOME=/root PATH=/usr/bin:/bin LANG=C.UTF-8 DISPLAY="$display" XDG_RUNTIME_DIR=/tmp \
    capdesk --db /root/directory.db >"$work/gui.log" 2>&1 &
gui_pid=$!
DISPLAY=$display timeout 30 xdotool search --sync --onlyvisible --name '^Capdesk' >/dev/null ||
    fail "no Capdesk window appeared: $(tail -5 "$work/gui.log")"
sleep 2 # let the first page of rows paint before the picture
kill -0 "$gui_pid" || fail "capdesk exited: $(tail -5 "$work/gui.log")"
[ -z "$shot" ] || DISPLAY=$display import -window root "$shot"
kill "$gui_pid"
wait "$gui_pid" || true
gui_pid=

say "validating the installed metainfo, desktop entry and systemd unit"
appstreamcli validate --no-net --explain "$root/usr/share/metainfo/io.capdesk.Capdesk.metainfo.xml" >&2 ||
    fail "appstreamcli validate"
desktop-file-validate "$root/usr/share/applications/capdesk.desktop" || fail "desktop-file-validate"
# The host's systemd checks the unit as written, its binary read from the chroot; the
# man page it names was checked above, and the host has none to run.
sed "s|/usr/bin/capdeskctl|$root/usr/bin/capdeskctl|g" \
    "$root/usr/share/doc/capdesk/examples/capdeskctl-serve.service" >"$work/capdeskctl-serve.service"
systemd-analyze verify --man=no "$work/capdeskctl-serve.service" 2>"$work/unit.log" ||
    { cat "$work/unit.log" >&2; fail "systemd-analyze verify"; }
[ ! -s "$work/unit.log" ] || { cat "$work/unit.log" >&2; fail "systemd-analyze verify warned"; }
systemd-analyze security --offline=yes "$work/capdeskctl-serve.service" 2>&1 | grep 'Overall exposure' >&2 || true

say "apt-get purge capdesk"
in_root apt-get purge -y -q capdesk >>"$work/apt.log" 2>&1 || fail "apt-get purge capdesk"
left=()
while IFS= read -r path; do
    if [ -e "$root$path" ] && [ ! -d "$root$path" ]; then
        left+=("$path")
    fi
done <"$work/files"
[ -e "$root/usr/share/doc/capdesk" ] && left+=(/usr/share/doc/capdesk)
[ ${#left[@]} -eq 0 ] || fail "the purge left ${left[*]}"
say "ok: installed, ran, served, showed its window and purged clean"
