#!/usr/bin/env python3
"""Bumble's side of the soak (Tests/soak/soak.sh): N Bumble hosts in one process, one per
virtual controller port.

    bumble_soak.py centrals --ports 9101,... --target ADDR --seconds S
        Each host connects to swift-att's peripheral, subscribes to the notified and the
        indicated characteristic, and checks every sequence number.
    bumble_soak.py peripherals --ports 9101,... --seconds S [--interval-ms 5]
        Each host advertises the soak service as soak-<i>; once a central subscribes it
        notifies a sequence number every interval and indicates one after every fourth.

Prints one JSON line per stream at the end ({"event":"stream",...}) and a total
({"event":"done",...}); exits 1 if any value was lost, repeated or reordered.
"""
import argparse
import asyncio
import json
import logging
import struct

from bumble.core import AdvertisingData, UUID
from bumble.device import Device, Peer
from bumble.gatt import Characteristic, Service
from bumble.hci import Address
from bumble.transport import open_transport

SERVICE = '50AC0001-0000-4B1D-8E77-50AC0050AC00'
NOTIFIED = '50AC0002-0000-4B1D-8E77-50AC0050AC00'
INDICATED = '50AC0003-0000-4B1D-8E77-50AC0050AC00'


def emit(**fields):
    print(json.dumps(fields), flush=True)


class Check:
    def __init__(self):
        self.received = self.lost = self.duplicated = self.reordered = 0
        self.first = self.last = None

    def take(self, value):
        if len(value) < 4:
            return
        sequence = struct.unpack_from('<I', value)[0]
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


async def central(index, port, target, checks, ready):
    async with await open_transport(f'tcp-client:127.0.0.1:{port}') as (source, sink):
        device = Device.with_hci(f'soak-central-{index}', Address(f'C0:5A:00:00:00:{index + 1:02X}', Address.RANDOM_DEVICE_ADDRESS), source, sink)
        await device.power_on()
        connection = await device.connect(Address(target, Address.RANDOM_DEVICE_ADDRESS), timeout=30)
        peer = Peer(connection)
        await peer.discover_services([UUID(SERVICE)])
        service = peer.get_services_by_uuid(UUID(SERVICE))[0]
        await service.discover_characteristics()
        for uuid, prefer_notify in ((NOTIFIED, True), (INDICATED, False)):
            characteristic = service.get_characteristics_by_uuid(UUID(uuid))[0]
            await characteristic.discover_descriptors()
            check = checks.setdefault(f'central-{index}/{"notified" if prefer_notify else "indicated"}', Check())
            await characteristic.subscribe(check.take, prefer_notify=prefer_notify)
        ready.set()
        await asyncio.Event().wait()   # until cancelled


async def peripheral(index, port, interval, checks, sent):
    async with await open_transport(f'tcp-client:127.0.0.1:{port}') as (source, sink):
        device = Device.with_hci(f'soak-{index}', Address(f'C0:5B:00:00:00:{index + 1:02X}', Address.RANDOM_DEVICE_ADDRESS), source, sink)
        notified = Characteristic(NOTIFIED, Characteristic.Properties.NOTIFY, Characteristic.READABLE, b'')
        indicated = Characteristic(INDICATED, Characteristic.Properties.INDICATE, Characteristic.READABLE, b'')
        device.add_service(Service(SERVICE, [notified, indicated]))
        await device.power_on()
        subscribed = asyncio.Event()
        count = {'n': 0, 'i': 0}
        sent[f'soak-{index}'] = count

        def on_subscription(bearer, characteristic, notify, indicate):
            if characteristic.uuid == UUID(INDICATED) and indicate:
                subscribed.set()

        device.on('characteristic_subscription', on_subscription)
        data = bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(SERVICE))),
            (AdvertisingData.COMPLETE_LOCAL_NAME, f'soak-{index}'.encode()),
        ]))
        await device.start_advertising(advertising_data=data, advertising_interval_min=20, advertising_interval_max=20)
        await subscribed.wait()

        def value(sequence):
            return struct.pack('<I', sequence) + bytes([0xA5] * 16)

        async def indicate():
            while True:
                await asyncio.sleep(interval * 4)
                count['i'] += 1
                await device.indicate_subscribers(indicated, value(count['i']))

        indications = asyncio.get_running_loop().create_task(indicate())
        try:
            while True:
                count['n'] += 1
                await device.notify_subscribers(notified, value(count['n']))
                await asyncio.sleep(interval)
        finally:
            indications.cancel()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('role', choices=['centrals', 'peripherals'])
    parser.add_argument('--ports', required=True)
    parser.add_argument('--target')
    parser.add_argument('--seconds', type=float, default=60)
    parser.add_argument('--interval-ms', type=float, default=5)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    ports = [int(p) for p in args.ports.split(',')]
    checks, sent = {}, {}
    if args.role == 'centrals':
        readies = [asyncio.Event() for _ in ports]
        tasks = [asyncio.create_task(central(i, p, args.target, checks, readies[i])) for i, p in enumerate(ports)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 60)
        emit(event='subscribed', centrals=len(ports))
        await asyncio.sleep(args.seconds)
    else:
        tasks = [asyncio.create_task(peripheral(i, p, args.interval_ms / 1000, checks, sent)) for i, p in enumerate(ports)]
        emit(event='advertising', peripherals=len(ports))
        await asyncio.sleep(args.seconds)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for key, check in sorted(checks.items()):
        emit(event='stream', stream=key, check=check.json())
    for key, count in sorted(sent.items()):
        emit(event='sent', peripheral=key, notified=count['n'], indicated=count['i'])
    total = {k: sum(c.json()[k] for c in checks.values()) for k in ('received', 'lost', 'duplicated', 'reordered')}
    emit(event='done', streams=len(checks), **total)
    bad = total['lost'] or total['duplicated'] or total['reordered'] or (args.role == 'centrals' and
                                                                        any(c.received == 0 for c in checks.values()))
    raise SystemExit(1 if bad else 0)


if __name__ == '__main__':
    asyncio.run(main())
