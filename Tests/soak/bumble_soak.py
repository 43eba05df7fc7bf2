#!/usr/bin/env python3
"""Bumble's side of the soak (Tests/soak/soak.sh): N Bumble hosts in one process, one per
virtual controller port.

    bumble_soak.py centrals --ports 9101,... --target ADDR [--seconds LIFETIME]
        Each host connects to swift-att's peripheral, subscribes to the notified and the
        indicated characteristic and checks every sequence number, until swift-att's
        peripheral ends the link. The hosts connect one after another (see `central`).
    bumble_soak.py peripherals --ports 9101,... [--seconds LIFETIME] [--interval-ms 5]
        Each host advertises the soak service from C0:5B:00:00:00:<i+1>; while a central
        is subscribed it notifies a sequence number every interval and indicates one
        every fourth interval (each awaiting its confirmation), until the central ends
        the link.

The sender decides nothing about the end: the receiver unsubscribes (or the peripheral
disconnects) when its time is up, so the last value sent is the last value received and
soak.sh can compare the two counts. LIFETIME bounds the whole run.

Prints one JSON line per stream or per link at the end ({"event":"stream",...} or
{"event":"sent",...}) and a total ({"event":"done",...}); exits 1 if any value was lost,
repeated or reordered, or a link never came up or never ended.
With SOAK_SNOOP=DIR each host writes its HCI traffic to DIR/<name>.btsnoop.
"""
import argparse
import asyncio
import json
import logging
import os
import struct

from bumble.core import AdvertisingData, UUID
from bumble.device import Device, Peer
from bumble.gatt import Characteristic, Service
from bumble.hci import Address
from bumble.snoop import BtSnooper
from bumble.transport import open_transport

SERVICE = '50AC0001-0000-4B1D-8E77-50AC0050AC00'
NOTIFIED = '50AC0002-0000-4B1D-8E77-50AC0050AC00'
INDICATED = '50AC0003-0000-4B1D-8E77-50AC0050AC00'


def emit(**fields):
    print(json.dumps(fields), flush=True)


def value(sequence):
    """A soak value: the sequence number (UInt32, little-endian) padded to 20 octets."""
    return struct.pack('<I', sequence) + bytes([0xA5] * 16)


def snoop(device, name, files):
    directory = os.environ.get('SOAK_SNOOP')
    if directory:
        files.append(open(os.path.join(directory, f'{name}.btsnoop'), 'wb'))
        device.host.snooper = BtSnooper(files[-1])


class Check:
    """What a receiver saw of one stream: values in order, and every way they were not."""

    def __init__(self):
        self.received = self.lost = self.duplicated = self.reordered = 0
        self.first = self.last = None

    def take(self, data):
        sequence = struct.unpack_from('<I', data)[0] if len(data) >= 4 else 0
        self.received += 1
        if self.last is None:
            self.first = self.last = sequence
            return
        if sequence == self.last:
            self.duplicated += 1
        elif sequence < self.last:
            self.reordered += 1
        elif sequence > self.last + 1:
            self.lost += sequence - self.last - 1
        self.last = max(self.last, sequence)

    def json(self):
        return dict(received=self.received, first=self.first, last=self.last,
                    lost=self.lost, duplicated=self.duplicated, reordered=self.reordered)

    def clean(self):
        return self.received > 0 and self.first == 1 and not (self.lost or self.duplicated or self.reordered)


async def central(index, port, target, initiating, checks, subscribed, files):
    """One Bumble central. It holds `initiating` while it connects: Bumble's virtual
    controllers let every pending initiator answer the same advertisement, and the
    advertiser's controller accepts only the first CONNECT_IND and silently drops the
    rest, while each losing initiator still reports LE Connection Complete to its host
    and never learns otherwise (no supervision timeout). Its GATT requests then go
    nowhere and time out. A real radio would fail the losers' links (0x3E); here the
    centrals simply take turns, as a radio's advertising events would serialise them."""
    async with await open_transport(f'tcp-client:127.0.0.1:{port}') as (source, sink):
        address = f'C0:5A:00:00:00:{index + 1:02X}'
        device = Device.with_hci(f'soak-central-{index}', Address(address, Address.RANDOM_DEVICE_ADDRESS), source, sink)
        snoop(device, f'central-{index}', files)
        await device.power_on()
        async with initiating:
            connection = await device.connect(Address(target, Address.RANDOM_DEVICE_ADDRESS), timeout=30)
        ended = asyncio.Event()
        connection.on('disconnection', lambda reason: ended.set())
        peer = Peer(connection)
        await peer.discover_services([UUID(SERVICE)])
        service = peer.get_services_by_uuid(UUID(SERVICE))[0]
        await service.discover_characteristics()
        for uuid, name in ((NOTIFIED, 'notified'), (INDICATED, 'indicated')):
            characteristic = service.get_characteristics_by_uuid(UUID(uuid))[0]
            await characteristic.discover_descriptors()
            check = checks.setdefault(f'{address}/{name}', Check())
            await characteristic.subscribe(check.take, prefer_notify=(name == 'notified'))
        subscribed()
        await ended.wait()


async def peripheral(index, port, interval, sent, files):
    """One Bumble peripheral: sends while its central is subscribed, until the link ends."""
    async with await open_transport(f'tcp-client:127.0.0.1:{port}') as (source, sink):
        address = f'C0:5B:00:00:00:{index + 1:02X}'
        device = Device.with_hci(f'soak-{index}', Address(address, Address.RANDOM_DEVICE_ADDRESS), source, sink)
        snoop(device, f'peripheral-{index}', files)
        notified = Characteristic(NOTIFIED, Characteristic.Properties.NOTIFY, Characteristic.READABLE, b'')
        indicated = Characteristic(INDICATED, Characteristic.Properties.INDICATE, Characteristic.READABLE, b'')
        device.add_service(Service(SERVICE, [notified, indicated]))
        await device.power_on()
        # Updated by the subscription event, in the same step as Bumble's own record of
        # the descriptor, so a value is counted exactly when Bumble sends it.
        wanted = {'notified': False, 'indicated': False}
        count = sent.setdefault(address, {'notified': 0, 'indicated': 0})
        links = asyncio.Queue()
        ended = asyncio.Event()

        def on_connection(connection):
            connection.on('disconnection', lambda reason: ended.set())
            links.put_nowait(connection)

        def on_subscription(bearer, characteristic, notify, indicate):
            if characteristic.uuid == UUID(NOTIFIED):
                wanted['notified'] = notify
            elif characteristic.uuid == UUID(INDICATED):
                wanted['indicated'] = indicate

        device.on('connection', on_connection)
        device.on('characteristic_subscription', on_subscription)
        data = bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(SERVICE))),
            (AdvertisingData.COMPLETE_LOCAL_NAME, f'soak-{index}'.encode()),
        ]))
        await device.start_advertising(advertising_data=data, advertising_interval_min=20, advertising_interval_max=20)
        connection = await links.get()

        async def notify():
            while not ended.is_set():
                if wanted['notified']:
                    count['notified'] += 1
                    await device.notify_subscriber(connection, notified, value(count['notified']))
                await asyncio.sleep(interval)

        async def indicate():
            while not ended.is_set():
                if wanted['indicated']:
                    count['indicated'] += 1
                    await device.indicate_subscriber(connection, indicated, value(count['indicated']))
                await asyncio.sleep(interval * 4)

        senders = [asyncio.create_task(notify()), asyncio.create_task(indicate())]
        await ended.wait()
        for task in senders:
            task.cancel()
        await asyncio.gather(*senders, return_exceptions=True)
        emit(event='sent', peripheral=address, **count)


async def run_all(coroutines, lifetime):
    """Runs every host to its end, or until `lifetime` ends them; the first failure is
    reported (not raised), so that every host's figures still get printed."""
    tasks = [asyncio.create_task(c) for c in coroutines]
    done, pending = await asyncio.wait(tasks, timeout=lifetime)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    failures = [repr(t.exception()) for t in done if t.exception()]
    if pending:
        failures.append(f'{len(pending)} host(s) still running after {lifetime:.0f} s')
    return failures


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('role', choices=['centrals', 'peripherals'])
    parser.add_argument('--ports', required=True)
    parser.add_argument('--target', help='the swift-att peripheral\'s random address (centrals)')
    parser.add_argument('--seconds', type=float, default=600, help='lifetime of the whole run')
    parser.add_argument('--interval-ms', type=float, default=5, help='notification interval (peripherals)')
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    ports = [int(p) for p in args.ports.split(',')]
    files = []
    if args.role == 'centrals':
        checks, ready = {}, []

        def subscribed():
            ready.append(1)
            if len(ready) == len(ports):
                emit(event='subscribed', centrals=len(ports))

        initiating = asyncio.Lock()
        failures = await run_all(
            [central(i, p, args.target, initiating, checks, subscribed, files) for i, p in enumerate(ports)],
            args.seconds)
        for key, check in sorted(checks.items()):
            emit(event='stream', stream=key, check=check.json())
        failures += [f'{key}: not clean' for key, check in sorted(checks.items()) if not check.clean()]
        if len(checks) != 2 * len(ports):
            failures.append(f'{len(checks)} streams of {2 * len(ports)}')
        total = {k: sum(c.json()[k] for c in checks.values()) for k in ('received', 'lost', 'duplicated', 'reordered')}
        emit(event='done', streams=len(checks), failures=failures, **total)
    else:
        sent = {}
        failures = await run_all(
            [peripheral(i, p, args.interval_ms / 1000, sent, files) for i, p in enumerate(ports)], args.seconds)
        emit(event='done', links=len(sent), notified=sum(c['notified'] for c in sent.values()),
             indicated=sum(c['indicated'] for c in sent.values()), failures=failures)
    for file in files:
        file.close()
    raise SystemExit(1 if failures else 0)


if __name__ == '__main__':
    asyncio.run(main())
