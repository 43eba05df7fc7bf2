#!/usr/bin/env python3
"""The host side of the kernel bench (Tests/kernel/run.sh prepares what it needs).

    host.py --kernel VMLINUZ --initrd INITRD --transfer-text FILE --work DIR

Starts Bumble's linked virtual controllers (Tests/bench/controllers.py), boots the guest
once under qemu with two virtio-serial ports, one connected to controller 0 (the guest's
hci0, for swift-att) and one to controller 4 (hci1, left to the kernel's own host stack
as a peer), follows the guest's console, and when the guest asks ("KBENCH NEED ...")
runs a Bumble central (Tests/bench/bumble_peer.py) on controller 1 against the swift-att
peripheral advertising in the guest, checking what it receives. Prints every result and
figure, and exits 1 if any scenario failed or never reported. Everything it starts it
stops, by PID, on every path out (bounded waits).
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(HERE), 'bench')

# What the guest must report (guest-scenarios.sh) and what the host checks itself.
GUEST_SCENARIOS = ['open-hci0', 'adapters-after-close', 'round-trip-vs-c', 'peripheral-heart-rate', 'error-ebusy',
                   'notification-rate', 'raw-pump', 'error-eperm', 'error-enodev', 'error-rfkill', 'central-over-hci0',
                   'kernel-smp-pair', 'kernel-smp-bond', 'kernel-smp-low', 'kernel-smp-high',
                   'kernel-l2cap-listen', 'kernel-l2cap-connect', 'kernel-l2cap-ecfc-connect', 'kernel-l2cap-ecfc-listen']
HOST_SCENARIOS = ['heart-rate-central', 'transfer-central', 'pump-receiver', 'baseline-tcp-info', 'baseline-tcp-transfer']
HEART_RATE_MEASUREMENT = '2A37'
CENTRAL_ADDRESSES = {'heart-rate-central': 'C0:B0:00:00:00:71', 'transfer-central': 'C0:B0:00:00:00:73',
                     'baseline-tcp-transfer': 'C0:B0:00:00:00:74'}
TRANSFER_DATA = '08590F7E-DB05-467E-8757-72F6FAEB13D4'


def log(text):
    print(text, flush=True)


class Bench:
    def __init__(self, args):
        self.args = args
        self.processes = []  # (name, Popen): stopped in reverse order
        self.results = {}  # scenario -> (status, detail)
        self.figures = {}
        self.lock = threading.Lock()
        self.threads = []
        self.rates = {}
        # Every run of a figure measured more than once (`sample`), in order.
        self.samples = {}
        self.python = sys.executable

    # ---------------------------------------------------------------- processes
    def start(self, name, argv, **kwargs):
        process = subprocess.Popen(argv, **kwargs)
        self.processes.append((name, process))
        return process

    def stop_all(self):
        for name, process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    log(f'[host] {name} (pid {process.pid}) ignored SIGTERM: killing it')
                    process.kill()
                    process.wait(timeout=5)
        self.processes.clear()

    def record(self, scenario, status, detail):
        with self.lock:
            # A scenario that runs more than once (notification_pairs) fails if any run did.
            if self.results.get(scenario, ('PASS',))[0] != 'FAIL':
                self.results[scenario] = (status, detail)
        log(f'[host] RESULT {scenario} {status} {detail}')

    def sample(self, figure, rate):
        """Notes one run's rate of `figure`; returns the median of its runs so far, which
        `self.rates` keeps."""
        with self.lock:
            self.samples.setdefault(figure, []).append(rate)
            self.rates[figure] = statistics.median(self.samples[figure])
            return self.rates[figure]

    def runs(self, figure):
        """`; median of 3 runs: 2448 1492 2566/s`, or nothing for a single run."""
        samples = self.samples.get(figure, [])
        return f'; median of {len(samples)} runs: {" ".join(f"{r:.0f}" for r in samples)}/s' if len(samples) > 1 else ''

    # ---------------------------------------------------------------- controllers
    def start_controllers(self, count, log_name):
        """The guest's run uses 5: 0 is the guest's hci0; 1, 2 the Bumble centrals; 3 (d)'s
        Bumble peripheral; 4 the guest's hci1, which the kernel keeps (the kernel-SMP
        scenarios)."""
        ports = free_ports(count)
        out = open(os.path.join(self.args.work, log_name), 'w')
        process = self.start('controllers', [self.python, os.path.join(BENCH, 'controllers.py'),
                                             '--ports', ','.join(map(str, ports)), '--duration', str(self.args.timeout + 60)],
                             stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            text = open(out.name).read()
            if text.startswith('READY'):
                log(f'[host] controllers: {text.strip()}')
                return ports
            if process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f'controllers.py did not start: {open(out.name).read()}')

    # ---------------------------------------------------------------- Bumble centrals
    def central(self, scenario, port, address, extra):
        """Runs bumble_peer.py central against the guest's peripheral; returns each JSON
        event with the host's monotonic time of arrival."""
        argv = [self.python, os.path.join(BENCH, 'bumble_peer.py'), '--port', str(port),
                '--address', CENTRAL_ADDRESSES[scenario], '--duration', '90', 'central', '--target', address] + extra
        process = self.start(scenario, argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=open(os.path.join(self.args.work, f'{scenario}.err'), 'w'), text=True)
        return process

    @staticmethod
    def events(process, until, timeout):
        """(time, event) pairs read from a central until `until(event)` or the timeout."""
        collected = []
        deadline = time.monotonic() + timeout
        done = threading.Event()

        def reader():
            for line in process.stdout:
                now = time.monotonic()
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                collected.append((now, event))
                if until(event):
                    break
            done.set()

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        done.wait(max(0, deadline - time.monotonic()))
        return collected, done.is_set()

    def heart_rate_central(self, port, address):
        """Connects, discovers, reads Body Sensor Location, subscribes to Heart Rate
        Measurement and checks five values as a heart-rate central decodes them."""
        name = 'heart-rate-central'
        process = self.central(name, port, address, ['--read', '2A38', '--subscribe', HEART_RATE_MEASUREMENT])
        count = [0]

        def enough(event):
            if event.get('event') == 'notification':
                count[0] += 1
            return count[0] >= 5 or event.get('event') == 'done'
        collected, finished = self.events(process, enough, 45)
        events = [e for _, e in collected]
        problems = []
        if not any(e.get('event') == 'connected' for e in events):
            problems.append('never connected')
        if not any(e.get('event') == 'characteristic' and e.get('uuid') == HEART_RATE_MEASUREMENT for e in events):
            problems.append('2A37 not discovered')
        reads = [e for e in events if e.get('event') == 'read' and e.get('uuid') == '2A38']
        if not reads or reads[0].get('value') != '01':
            problems.append(f'Body Sensor Location read {reads}')
        values = [bytes.fromhex(e['value']) for e in events if e.get('event') == 'notification']
        if len(values) < 5:
            problems.append(f'{len(values)} notifications, expected 5')
        rates = []
        for value in values[:5]:
            flags, bpm = value[0], value[1]
            size = 2 + (2 if flags & 0x08 else 0) + 2
            rr = value[-2] | value[-1] << 8 if len(value) >= 4 else 0
            ok = (flags & 0x01 == 0 and flags & 0x06 == 0x06 and flags & 0x10 and 60 <= bpm <= 100
                  and len(value) == size and abs(rr - 61440 // bpm) <= 8)
            if not ok:
                problems.append(f'bad measurement {value.hex()}')
            rates.append(bpm)
        close(process)
        if problems:
            self.record(name, 'FAIL', '; '.join(problems))
        else:
            self.record(name, 'PASS', f'connected, discovered, read 2A38 = 01 (chest), 5 notifications: {rates} BPM, flags/RR-intervals consistent')

    def transfer_central(self, port, address, name='transfer-central', figure='notification-rate', via='the kernel path'):
        """Subscribes to the transfer characteristic, receives the whole text in 20-byte
        notifications until EOM, checks it byte for byte, and times the notifications."""
        process = self.central(name, port, address, ['--subscribe', TRANSFER_DATA])
        collected, finished = self.events(
            process, lambda e: e.get('event') == 'done' or (e.get('event') == 'notification' and e.get('value') == b'EOM'.hex()), 120)
        notes = [(t, bytes.fromhex(e['value'])) for t, e in collected if e.get('event') == 'notification']
        close(process)
        expected = open(self.args.transfer_text, 'rb').read()
        if not notes or notes[-1][1] != b'EOM':
            self.record(name, 'FAIL', f'{len(notes)} notifications and no EOM')
            return
        chunks = notes[:-1]
        received = b''.join(v for _, v in chunks)
        if received != expected:
            self.record(name, 'FAIL', f'received {len(received)} bytes, expected {len(expected)} (first difference at '
                                      f'{next((i for i, (a, b) in enumerate(zip(received, expected)) if a != b), min(len(received), len(expected)))})')
            return
        seconds = notes[-1][0] - chunks[0][0]
        rate = self.sample(figure, (len(notes) - 1) / seconds if seconds > 0 else float('inf'))
        self.figures[figure] = (f'{rate:.0f} notifications/s ({rate * 20 / 1000:.1f} kB/s of 20-byte values; '
                                f'{len(chunks)} notifications + EOM in {seconds:.2f} s the last time, as received by Bumble'
                                f'{self.runs(figure)})')
        self.record(name, 'PASS', f'{len(expected)} bytes in {len(chunks)} notifications + EOM, identical to the text sent')

    def pump_receiver(self, port, address):
        """The raw ACL pump's receiving end (acl_receiver.py, no host stack) on the
        controller transfer-central uses: the same path, timed the same way."""
        argv = [self.python, os.path.join(HERE, 'acl_receiver.py'), '--port', str(port), '--target', address,
                '--count', '5000', '--timeout', '120']
        try:
            result = subprocess.run(argv, capture_output=True, text=True, timeout=150)
            event = json.loads(result.stdout.strip().splitlines()[-1])
        except (subprocess.TimeoutExpired, ValueError, IndexError) as error:
            self.record('pump-receiver', 'FAIL', f'acl_receiver.py: {error}')
            return
        if event.get('event') != 'received':
            self.record('pump-receiver', 'FAIL', event.get('reason', str(event)))
            return
        rate = self.sample('pump-rate', event['rate'])
        self.figures['pump-rate'] = (f'{rate:.0f} packets/s ({event["packets"]} bare ACL notifications of 20 octets in '
                                     f'{event["seconds"]:.2f} s the last time, hci_baseline pump on hci0 to acl_receiver.py, '
                                     f'no host{self.runs("pump-rate")})')
        self.record('pump-receiver', 'PASS', f'{event["packets"]} packets from the guest\'s pump on hci0')

    def bumble_peripheral(self, port):
        """(d)'s peer: Bumble's GATT server (heart rate, a long value) advertising on a spare controller."""
        argv = [self.python, os.path.join(BENCH, 'bumble_server.py'), '--port', str(port), '--address', 'C0:B0:00:00:00:72',
                '--duration', '120', '--notify-ms', '100']
        self.start('bumble-peripheral', argv, stdin=subprocess.PIPE, stdout=open(os.path.join(self.args.work, 'bumble-peripheral.log'), 'w'),
                   stderr=subprocess.STDOUT)

    # ---------------------------------------------------------------- the baseline
    def baseline(self):
        """The same two measurements with the same binary on this host, straight over TCP
        to fresh controllers (no kernel, no qemu): what the kernel path adds."""
        ports = self.start_controllers(2, 'baseline-controllers.log')
        # A bond file of the bench's own: the default one (under $HOME) is shared with
        # every other swift-att on this host, and a second process is refused its lock.
        bonds = os.path.join(self.args.work, 'baseline-bonds.json')
        info = subprocess.run([self.args.swift_att, 'info', '--transport', f'tcp:127.0.0.1:{ports[0]}', '--round-trips', '200',
                               '--bonds', bonds],
                              capture_output=True, text=True, timeout=60)
        line = next((l for l in info.stdout.splitlines() if l.startswith('HCI round trip: ')), None)
        if info.returncode == 0 and line:
            self.figures['baseline-round-trip'] = line[len('HCI round trip: '):]
            self.record('baseline-tcp-info', 'PASS', 'swift-att info over tcp on the host')
        else:
            self.record('baseline-tcp-info', 'FAIL', f'exit {info.returncode}: {info.stderr.strip()}')
        # Its output goes to a file: a pipe nobody drains would stall it at 64 KiB.
        output = os.path.join(self.args.work, 'baseline-peripheral.log')
        self.start('baseline-peripheral', [self.args.swift_att, 'peripheral', 'transfer', '--transport', f'tcp:127.0.0.1:{ports[0]}',
                                           '--file', self.args.transfer_text, '--json', '--duration', '60', '--bonds', bonds],
                   stdin=subprocess.DEVNULL, stdout=open(output, 'w'), stderr=subprocess.STDOUT)
        address, deadline = None, time.monotonic() + 10
        while address is None and time.monotonic() < deadline:
            for line in open(output):
                if '"event":"advertising"' in line:
                    address = json.loads(line)['address']
            time.sleep(0.05)
        if address is None:
            self.record('baseline-tcp-transfer', 'FAIL', f'the peripheral never advertised: {open(output).read()}')
            return
        self.transfer_central(ports[1], address, 'baseline-tcp-transfer', 'baseline-notification-rate')

    # ---------------------------------------------------------------- the guest
    def run(self):
        ports = self.start_controllers(5, 'controllers.log')
        console_path = os.path.join(self.args.work, 'console.log')
        open(console_path, 'w').close()
        qemu = ['qemu-system-x86_64', '-accel', 'tcg', '-cpu', 'max', '-m', '512', '-smp', '1', '-nodefaults', '-no-reboot',
                '-display', 'none', '-monitor', 'none', '-kernel', self.args.kernel, '-initrd', self.args.initrd,
                '-append', 'console=ttyS0 panic=-1 loglevel=4' + (f' KBENCH_ONLY={self.args.only}' if self.args.only else ''), '-serial', f'file:{console_path}',
                '-chardev', f'socket,id=bt,host=127.0.0.1,port={ports[0]},nodelay=on',
                '-chardev', f'socket,id=btk,host=127.0.0.1,port={ports[4]},nodelay=on',
                # The guest finds each port by its name (/sys/class/virtio-ports/*/name).
                '-device', 'virtio-serial-pci', '-device', 'virtserialport,chardev=bt,name=hci',
                '-device', 'virtserialport,chardev=btk,name=hci-kernel']
        started = time.monotonic()
        process = self.start('qemu', qemu, stdin=subprocess.DEVNULL,
                             stdout=open(os.path.join(self.args.work, 'qemu.log'), 'w'), stderr=subprocess.STDOUT)
        log(f'[host] qemu started (pid {process.pid}), guest console in {console_path}')
        deadline = started + self.args.timeout
        offset, pending = 0, ''
        done = False
        while time.monotonic() < deadline and not done:
            with open(console_path, 'rb') as console:
                console.seek(offset)
                chunk = console.read()
            offset += len(chunk)
            pending += chunk.decode('utf-8', 'replace')
            *lines, pending = pending.split('\n')
            for line in lines:
                done = self.on_console(line.rstrip('\r'), started, ports) or done
            if process.poll() is not None and not chunk:
                break
            time.sleep(0.05)
        if not done:
            log(f'[host] the guest did not finish within {self.args.timeout} s (or qemu exited early): see {console_path}')
        try:
            process.wait(timeout=10)  # the guest powers off after KBENCH DONE
        except subprocess.TimeoutExpired:
            pass
        for thread in self.threads:
            thread.join(timeout=60)
        self.stop_all()
        if not self.args.only:
            self.baseline()

    def on_console(self, line, started, ports):
        if 'Kernel panic' in line or 'Call Trace' in line:
            log(f'[guest] {line}')
        if not line.startswith('KBENCH '):
            return False
        log(f'[guest] {line[7:]}')
        words = line.split(' ')
        kind = words[1]
        elapsed = time.monotonic() - started
        if kind == 'BOOT' and words[2] == 'userspace':
            self.figures['boot'] = f'{elapsed:.1f} s from qemu start to the guest\'s /init (guest uptime {words[3]} s, TCG)'
        elif kind == 'BOOT' and words[2] == 'hci0':
            self.figures['hci0'] = f'{elapsed:.1f} s from qemu start (guest uptime {words[3]} s)'
        elif kind == 'RESULT':
            status, detail = words[3], ' '.join(words[4:])
            with self.lock:
                if self.results.get(words[2], ('PASS',))[0] != 'FAIL':
                    self.results[words[2]] = (status, detail)
        elif kind == 'MEASURE':
            self.figures[words[2]] = ' '.join(words[3:])
        elif kind == 'NEED':
            what, address = words[2], words[3] if len(words) > 3 else ''
            target = {'heart-rate-central': lambda: self.heart_rate_central(ports[1], address),
                      'transfer-central': lambda: self.transfer_central(ports[2], address),
                      'pump-receiver': lambda: self.pump_receiver(ports[2], address),
                      'bumble-peripheral': lambda: self.bumble_peripheral(ports[3])}.get(what)
            if target:
                thread = threading.Thread(target=target, daemon=True)
                thread.start()
                self.threads.append(thread)
        elif kind == 'DONE':
            return True
        return False

    def report(self):
        log('================ kernel bench results ================')
        failed = False
        expected = [] if self.args.only else GUEST_SCENARIOS + HOST_SCENARIOS
        for scenario in expected:
            status, detail = self.results.get(scenario, ('FAIL', 'never reported'))
            failed |= status not in ('PASS', 'SKIP')
            log(f'{status:4}  {scenario:25} {detail}')
        for scenario in sorted(set(self.results) - set(expected)):
            status, detail = self.results[scenario]
            failed |= status not in ('PASS', 'SKIP')
            log(f'{status:4}  {scenario:25} {detail}')
        log('================ figures ================')
        for key, label in [('boot', 'guest boot'), ('hci0', 'hci0 ready'),
                           ('hci-round-trip', 'HCI round trip, kernel path'), ('baseline-round-trip', '  same binary over TCP, no kernel'),
                           ('hci-round-trip-vs-c', '  swift-att ÷ C on hci0'), ('hci-round-trip-pairs', '  each run'),
                           ('hci-round-trip-floor', "  Swift's async floor"),
                           ('hci0-syscalls', '  system calls per round trip'),
                           ('hci0-round-trip-cpu', '  CPU per round trip'),
                           ('notification-rate', 'notification rate, kernel path'),
                           ('baseline-notification-rate', '  same binary over TCP, no kernel'),
                           ('notification-rate-cpu', '  where the guest CPU went'),
                           ('clock', 'a clock read in the guest')]:
            log(f'{label:34} {self.figures.get(key, "not measured")}')
        if self.rates.get('baseline-notification-rate') and self.rates.get('notification-rate'):
            share = self.rates['notification-rate'] / self.rates['baseline-notification-rate']
            log(f'{"  kernel path / TCP":34} {share:.0%} of the notification rate')
        log(f'{"raw ACL pump, kernel path":34} {self.figures.get("pump-rate", "not measured")}')
        log(f'{"  where the guest CPU went":34} {self.figures.get("pump-rate-cpu", "not measured")}')
        if self.rates.get('pump-rate') and self.rates.get('notification-rate'):
            share = self.rates['notification-rate'] / self.rates['pump-rate']
            pairs = list(zip(self.samples.get('notification-rate', []), self.samples.get('pump-rate', [])))
            each = f'; each pair {" ".join(f"{n / p:.0%}" for n, p in pairs)}' if len(pairs) > 1 else ''
            log(f'{"  swift-att / pump":34} {share:.0%} (the full host over hci0 against the bare pump, same boot, same path: '
                f'medians of the runs{each})')
        log(f'{"kernel SMP scenarios":34} {self.figures.get("kernel-smp", "not measured")}')
        log(f'{"  of which kernel-smp-high":34} {self.figures.get("kernel-smp-high", "not measured")}')
        log(f'{"kernel L2CAP scenarios":34} {self.figures.get("kernel-l2cap", "not measured")}')
        for key, label in [('kernel-l2cap-listen', 'channel rate, kernel to swift-att'),
                           ('kernel-l2cap-connect', 'channel rate, swift-att to kernel'),
                           ('kernel-l2cap-ecfc-connect', '  the same, Enhanced mode')]:
            log(f'{label:34} {self.figures.get(key, "not measured")}')
        log(f'RESULT: {"FAIL" if failed else "PASS"}')
        return 1 if failed else 0


def close(process):
    """Ends a Bumble central: end of stdin is its quit; bounded, then SIGTERM."""
    try:
        process.stdin.close()
        process.wait(timeout=5)
    except (subprocess.TimeoutExpired, BrokenPipeError, OSError):
        process.terminate()


def free_ports(count):
    import socket
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(('127.0.0.1', 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--kernel', required=True)
    parser.add_argument('--initrd', required=True)
    parser.add_argument('--transfer-text', required=True, help='the file the guest sends (to check what arrives)')
    parser.add_argument('--work', required=True, help='directory for logs')
    parser.add_argument('--swift-att', required=True, help='the swift-att binary, for the baseline on this host')
    parser.add_argument('--only', help='comma-separated guest scenarios (scenario_NAME in guest-scenarios.sh) to run alone; no TCP baseline')
    parser.add_argument('--timeout', type=float, default=480, help='seconds the guest may take, boot included (a loaded machine runs TCG several times slower)')
    args = parser.parse_args()
    bench = Bench(args)
    # SIGTERM/SIGINT end the run through the same cleanup as any other exit.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(2))
    try:
        bench.run()
    except Exception as error:  # reported, then cleaned up like any other run
        log(f'[host] bench error: {type(error).__name__}: {error}')
        bench.results['bench'] = ('FAIL', str(error))
    finally:
        bench.stop_all()
    sys.exit(bench.report())


if __name__ == '__main__':
    main()
