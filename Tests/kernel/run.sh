#!/usr/bin/env bash
# The kernel bench: swift-att on a real Linux Bluetooth stack (AF_BLUETOOTH, HCI user
# channel, management channel, hci_vhci), inside Debian 12's kernel booted under qemu.
#
#   Tests/kernel/run.sh        (root: installs packages; KERNEL_BENCH_DIR=/tmp/swift-att-kernel-bench)
#
# 1. packages: qemu-system-x86, busybox-static, cpio, kmod, strace (apt); Bumble (Tests/bench/setup.sh)
# 2. Debian's linux-image .deb (apt-get download), only the modules the guest loads;
#    bluez and the libraries its tools link (apt-get download, unpacked, not installed)
# 3. swift-att, release, --static-swift-stdlib (as .ci/run builds it)
# 4. the initramfs: busybox, swift-att and the glibc it needs, modules + depmod,
#    guest-init.sh as /init, guest-scenarios.sh, the text the transfer scenario sends;
#    btmgmt, gatttool and l2test from Debian's bluez .deb with their libraries (the
#    kernel-SMP and kernel-L2CAP scenarios: the kernel's own host stack as swift-att's
#    peer, no bluetoothd); the frames l2test sends and checks
# 5. host.py: Bumble's controllers, one qemu boot, Bumble centrals on demand, the report
# Exits 0 only if every scenario passed (or is an explicit SKIP).
set -euo pipefail

# KERNEL_BENCH_SWIFT_ATT=PATH: the swift-att binary to boot (default: the release build);
# KERNEL_BENCH_SWIFT_ATT_B=PATH a second one beside it, for --only round_trip_ab.
# --only NAMES: only these guest scenarios (the functions scenario_NAME of
# guest-scenarios.sh, comma-separated, e.g. round_trip,round_trip_phases), and no TCP
# baseline: for looking into one figure without the whole bench.
ONLY=()
while (($#)); do
    case "$1" in
        --only) ONLY=(--only "$2"); shift 2 ;;
        *) echo "unknown argument $1 (the one option is --only NAMES)" >&2; exit 2 ;;
    esac
done

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${KERNEL_BENCH_DIR:-${TMPDIR:-/tmp}/swift-att-kernel-bench}
export PATH="/opt/swift/usr/bin:$PATH"
mkdir -p "$WORK"
# One bench at a time per work directory: two runs sharing it (two CI runs, or two
# sessions on one machine) would overwrite each other's initramfs and console log.
exec 9>"$WORK/.lock"
if ! flock -n 9; then
    echo "[kernel-bench] another run holds $WORK; waiting for it (KERNEL_BENCH_DIR picks another directory)"
    flock 9
fi
started=$SECONDS
step() { printf '[kernel-bench] %s (%ds)\n' "$1" "$((SECONDS - started))"; }

HOST_PID=""
cleanup() {
    if [ -n "$HOST_PID" ] && kill -0 "$HOST_PID" 2>/dev/null; then
        kill -TERM "$HOST_PID" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$HOST_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$HOST_PID" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- 1. packages
step "packages"
PACKAGES="qemu-system-x86 busybox-static cpio kmod binutils strace"
missing=$(dpkg-query -W -f='${Package} ${Status}\n' $PACKAGES 2>/dev/null | awk '$4 != "installed" {print $1}' || true)
if [ -n "$missing" ] || ! dpkg-query -W $PACKAGES >/dev/null 2>&1; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $PACKAGES >"$WORK/apt.log" 2>&1 \
        || { cat "$WORK/apt.log"; exit 1; }
fi
"$ROOT/Tests/bench/setup.sh"

# ---------------------------------------------------------------- 2. kernel
step "kernel"
KPKG=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}' || true)
if [ -z "$KPKG" ]; then
    apt-get update -qq >/dev/null
    KPKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
fi
KV=${KPKG#linux-image-}
if [ ! -f "$WORK/kernel/boot/vmlinuz-$KV" ]; then
    rm -rf "$WORK/debs" "$WORK/kernel" && mkdir -p "$WORK/debs" "$WORK/kernel"
    (cd "$WORK/debs" && apt-get download -qq "$KPKG" 2>/dev/null)
    # The kernel and the module directories the guest can need, nothing else.
    dpkg-deb --fsys-tarfile "$WORK"/debs/"$KPKG"_*.deb | tar -x -C "$WORK/kernel" --wildcards \
        './boot/vmlinuz-*' './lib/modules/*/modules.builtin*' './lib/modules/*/modules.order' \
        './lib/modules/*/kernel/net/bluetooth/*' './lib/modules/*/kernel/drivers/bluetooth/*' \
        './lib/modules/*/kernel/net/rfkill/*' './lib/modules/*/kernel/crypto/*' './lib/modules/*/kernel/lib/*' \
        './lib/modules/*/kernel/drivers/virtio/*' './lib/modules/*/kernel/drivers/char/*'
    rm -rf "$WORK/debs"
fi
VMLINUZ=$WORK/kernel/boot/vmlinuz-$KV

# ---------------------------------------------------------------- 2b. bluez, unpacked
step "bluez"
# btmgmt (the management socket), gatttool (ATT over the kernel's L2CAP sockets) and
# l2test (the kernel's credit-based channels) for the kernel-SMP and kernel-L2CAP
# scenarios. They talk to the kernel directly, so no bluetoothd and no
# D-Bus: the binaries and their shared libraries are all the guest needs. They come from
# the .debs, unpacked here, so nothing is installed on this host.
BLUEZ=$WORK/bluez
BLUEZ_DEBS="bluez libglib2.0-0 libpcre2-8-0 libreadline8 libtinfo6"
if [ ! -x "$BLUEZ/usr/bin/gatttool" ] || [ ! -x "$BLUEZ/usr/bin/l2test" ]; then
    rm -rf "$BLUEZ" "$WORK/bluez-debs" && mkdir -p "$BLUEZ" "$WORK/bluez-debs"
    # shellcheck disable=SC2086 # one word per package
    (cd "$WORK/bluez-debs" && { apt-get download -qq $BLUEZ_DEBS 2>/dev/null \
        || { apt-get update -qq >/dev/null && apt-get download -qq $BLUEZ_DEBS 2>/dev/null; }; })
    for deb in "$WORK"/bluez-debs/*.deb; do dpkg-deb -x "$deb" "$BLUEZ"; done
    rm -rf "$WORK/bluez-debs"
fi

# ---------------------------------------------------------------- 3. swift-att, static
step "swift build -c release --static-swift-stdlib"
# The same flags as .ci/run's release builds, so CI builds once.
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product swift-att 2>&1 | tail -n 1)
# KERNEL_BENCH_SWIFT_ATT=PATH boots another build instead (an earlier commit's, built the
# same way in a worktree): a change's figures before and after, boot after boot.
BINARY=${KERNEL_BENCH_SWIFT_ATT:-$ROOT/.build/release/swift-att}
# KERNEL_BENCH_SWIFT_ATT_B=PATH boots a second build beside it, as /bin/swift-att-b, for
# the round_trip_ab scenario: both builds measured in turn in the same boot.
BINARY_B=${KERNEL_BENCH_SWIFT_ATT_B:-}
# The round trip of Swift's concurrency runtime with no host stack (async_floor.swift),
# which the round_trip scenario times between swift-att and C.
FLOOR=$WORK/async_floor
swiftc -O -swift-version 6 -static-stdlib "$HERE/async_floor.swift" -o "$FLOOR"

# ---------------------------------------------------------------- 4. initramfs
step "initramfs"
R=$WORK/initramfs
rm -rf "$R" && mkdir -p "$R"/{bin,etc,proc,sys,dev,tmp,lib64,lib/modules/"$KV"}
cp /bin/busybox "$R/bin/busybox"
strip -o "$R/bin/swift-att" "$BINARY"
[ -z "$BINARY_B" ] || strip -o "$R/bin/swift-att-b" "$BINARY_B"
strip -o "$R/bin/async_floor" "$FLOOR"
install -m 755 "$HERE/guest-init.sh" "$R/init"
install -m 644 "$HERE/guest-scenarios.sh" "$R/guest-scenarios.sh"
# The glibc (and libbluetooth, libcrypto) swift-att links against, where ld-linux looks for them.
for lib in $(ldd "$BINARY" $BINARY_B "$FLOOR" | awk '/=>/ {print $3} /ld-linux/ {print $1}' | sort -u); do
    case $lib in
        */ld-linux-x86-64.so.2) cp -L "$lib" "$R/lib64/ld-linux-x86-64.so.2" ;;
        *) mkdir -p "$R$(dirname "$lib")" && cp -L "$lib" "$R$lib" ;;
    esac
done
# btmgmt, gatttool and l2test, and the libraries they load: those unpacked above first,
# the rest (glibc) from this host, as for swift-att.
for tool in btmgmt gatttool l2test; do
    cp "$BLUEZ/usr/bin/$tool" "$R/bin/$tool"
    for lib in $(LD_LIBRARY_PATH="$BLUEZ/lib/x86_64-linux-gnu:$BLUEZ/usr/lib/x86_64-linux-gnu" ldd "$BLUEZ/usr/bin/$tool" \
        | awk '/=> \// {print $3}'); do
        [ -f "$R/lib/x86_64-linux-gnu/$(basename "$lib")" ] || { mkdir -p "$R/lib/x86_64-linux-gnu" && cp -L "$lib" "$R/lib/x86_64-linux-gnu/"; }
    done
done
# The C baseline of the round trip (static: it needs nothing in the guest) and strace,
# which counts both programs' system calls, with the libraries it loads.
clang -O2 -static -o "$R/bin/hci_baseline" "$HERE/hci_baseline.c"
cp /usr/bin/strace "$R/bin/strace"
for lib in $(ldd /usr/bin/strace | awk '/=> \// {print $3}'); do
    [ -f "$R/lib/x86_64-linux-gnu/$(basename "$lib")" ] || { mkdir -p "$R/lib/x86_64-linux-gnu" && cp -L "$lib" "$R/lib/x86_64-linux-gnu/"; }
done
install -m 644 "$HERE/kernel-smp.json" "$R/kernel-smp.json"
# A user without CAP_NET_ADMIN for the EPERM scenario.
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >"$R/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$R/etc/group"
# What the transfer scenario sends: 5000 notifications' worth of text, checked on arrival
# (as many as the raw pump sends: a few seconds of each, long enough that a hiccup of
# the emulated CPU moves the rates by little).
awk 'BEGIN { for (i = 1; i <= 2900; i++) printf "line %04d: the kernel path, %s\n", i, substr("abcdefghijklmnopqrstuvwxyz", 1 + i % 20, 6) }' \
    | head -c 100000 >"$R/transfer.txt"
# What the kernel-L2CAP scenarios send each way: 200 frames of 250 octets as `l2test -s
# -b 250 -N 200` sends them and `l2test -r` checks them (a little-endian 32-bit sequence
# number from 0, the 16-bit frame length, 0x7F to the end), so the bytes swift-att
# receives from l2test are compared with this file, and this file sent by swift-att
# passes l2test's own checks.
"$ROOT/Tests/bench/.venv/bin/python" -c '
import struct, sys
size, count = 250, 200
sys.stdout.buffer.write(b"".join(struct.pack("<IH", n, size) + b"\x7f" * (size - 6) for n in range(count)))
' >"$R/l2test-frames.bin"
MODULES=$WORK/kernel/lib/modules/$KV
add_module() {  # a module and, recursively, what modinfo says it depends on
    local file rel dep
    file=$(find "$MODULES/kernel" -name "$1.ko" -o -name "$1.ko.xz" | head -n 1)
    [ -n "$file" ] || { echo "module $1 not in $KPKG" >&2; exit 1; }
    rel=${file#"$MODULES"/}
    [ -f "$R/lib/modules/$KV/$rel" ] && return 0
    mkdir -p "$(dirname "$R/lib/modules/$KV/$rel")" && cp "$file" "$R/lib/modules/$KV/$rel"
    for dep in $(/sbin/modinfo -F depends "$file" | tr , ' '); do add_module "$dep"; done
}
# hci_vhci pulls bluetooth, ecdh_generic, ecc, rfkill, crc16; bluetooth's SMP asks for
# ecb(aes) and cmac(aes) when hci0 registers; drbg & co. seed the crypto self-tests.
for m in hci_vhci ecb cmac ctr sha512_generic sha3_generic jitterentropy_rng drbg virtio_pci virtio_console; do add_module "$m"; done
cp "$MODULES"/modules.{order,builtin,builtin.modinfo} "$R/lib/modules/$KV/" 2>/dev/null || true
/sbin/depmod -b "$R" "$KV"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) >"$WORK/initramfs.cpio.gz"
echo "initramfs $(du -h "$WORK/initramfs.cpio.gz" | cut -f1), kernel $KV"

# ---------------------------------------------------------------- 5. boot and run
step "boot and scenarios"
"$ROOT/Tests/bench/.venv/bin/python" "$HERE/host.py" --kernel "$VMLINUZ" --initrd "$WORK/initramfs.cpio.gz" \
    --transfer-text "$R/transfer.txt" --work "$WORK" --swift-att "$BINARY" --timeout "${KERNEL_BENCH_TIMEOUT:-480}" "${ONLY[@]}" &
HOST_PID=$!
status=0
wait "$HOST_PID" || status=$?
HOST_PID=""
step "done"
exit "$status"
