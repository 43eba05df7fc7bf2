#!/bin/busybox sh
# PID 1 of the kernel bench's guest (Tests/kernel/run.sh builds the initramfs around it).
# Boots just far enough for Bluetooth: the modules, then `swift-att bridge` joining
# /dev/vhci to the virtio-serial port that qemu connects to a Bumble controller on the
# host, so the guest gets a real hci0. Then runs every scenario (guest-scenarios.sh) and
# powers off. Everything the host needs comes back as "KBENCH ..." lines on the console.
/bin/busybox mkdir -p /proc /sys /dev /tmp /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "KBENCH BOOT userspace $(cut -d' ' -f1 /proc/uptime) kernel $(uname -r)"
# What the emulated CPU makes the kernel do on every system call and switch (page-table
# isolation swaps page tables on each entry; under TCG a swap empties the emulated TLB).
echo "KBENCH INFO cpu $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1); meltdown: $(cat /sys/devices/system/cpu/vulnerabilities/meltdown 2>/dev/null); pcid: $(grep -qw pcid /proc/cpuinfo && echo yes || echo no)"

# The crypto RNG first, or the kernel's ECDH self-test (for Bluetooth's SMP) warns.
for m in ctr sha512_generic sha3_generic jitterentropy_rng drbg hci_vhci virtio_pci virtio_console; do
    modprobe "$m" || echo "KBENCH RESULT boot FAIL modprobe $m"
done

# virtio_port NAME: the /dev node of the virtio-serial port qemu named NAME (host.py names
# them "hci" for hci0 and "hci-kernel" for the kernel's hci1). No udev here to make the
# /dev/virtio-ports/NAME links, so read the names from sysfs.
virtio_port() {
    for p in /sys/class/virtio-ports/*; do
        [ "$(cat "$p/name" 2>/dev/null)" = "$1" ] && echo "/dev/${p##*/}" && return 0
    done
    return 1
}

port=""
for _ in $(seq 50); do
    port=$(virtio_port hci) && [ -e "$port" ] && break
    port=""
    sleep 0.1
done
[ -n "$port" ] || echo "KBENCH RESULT boot FAIL no virtio-serial port"

# The relay: Bumble's controller on the host becomes hci0.
/bin/swift-att bridge vhci "h4:$port" >/tmp/bridge.out 2>&1 &
BRIDGE=$!
for _ in $(seq 100); do
    [ -e /sys/class/bluetooth/hci0 ] && break
    sleep 0.05
done
if [ -e /sys/class/bluetooth/hci0 ]; then
    echo "KBENCH BOOT hci0 $(cut -d' ' -f1 /proc/uptime) $(grep 'created' /tmp/bridge.out)"
    # The kernel-SMP scenarios bridge the second port to hci1 themselves.
    KERNEL_PORT=$(virtio_port hci-kernel) /bin/sh /guest-scenarios.sh
else
    echo "KBENCH RESULT boot FAIL hci0 never appeared: $(cat /tmp/bridge.out)"
fi

kill -TERM "$BRIDGE" 2>/dev/null
wait "$BRIDGE"
echo "KBENCH BRIDGE exit=$? $(tail -n 1 /tmp/bridge.out)"
dmesg | grep -E 'WARNING:|BUG:|Bluetooth: hci0:' | head -n 10 | sed 's/^/KBENCH DMESG /'
echo "KBENCH DONE $(cut -d' ' -f1 /proc/uptime)"
sync
poweroff -f
