#!/usr/bin/env python3
"""Bumble's host notifying Bumble's host: the peer figure for swift-att's host benchmark.

    Tests/bench/.venv/bin/python Benchmarks/bumble_host_benchmark.py --length 20 --connections 1 --count 2000

One asyncio process: a LocalLink with Bumble's virtual controllers, one peripheral
Device serving a notifying characteristic and N central Devices subscribed to it,
joined through in-memory HCI pipes (the wiring of bumble.testing.test_utils), the
same shape as swift-att's loopback benchmark. ATT_MTU 247, 64 LE ACL buffers of 251
octets (as the loopback controllers report), so a 244-octet value is one ACL packet.

The peripheral notifies --warmup values, then --count values, to every subscriber;
each central counts what arrives. Prints one line per case:

    RESULT length=20 connections=1 notifications=2000 wall=0.231 cpu=0.229

wall and cpu (time.process_time, the whole process: both hosts and the controllers)
cover the measured values only, from the first send to the last receipt.
"""
import argparse
import asyncio
import logging
import sys
import time

from bumble.controller import Controller
from bumble.core import UUID
from bumble.device import Device
from bumble.gatt import Characteristic, Service
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport.common import AsyncPipeSink

SERVICE = UUID('5a7e0000-be4c-4a11-9c0d-5a7e00000000')
STREAM = UUID('5a7e0001-be4c-4a11-9c0d-5a7e00000000')


def make_device(link, name, index, address):
    controller = Controller(f'C-{name}', link=link, public_address=f'F0:F0:F0:F0:{index >> 8:02X}:{index & 0xFF:02X}')
    controller.le_acl_data_packet_length = 251
    controller.total_num_le_acl_data_packets = 64  # Bumble's default, stated: the loopback benchmark uses the same
    return Device(name=name, address=Address(address, Address.RANDOM_DEVICE_ADDRESS),
                  host=Host(controller, AsyncPipeSink(controller)))


async def run_case(length, connections, count, warmup):
    link = LocalLink()
    peripheral = make_device(link, 'peripheral', 1, 'C0:5A:17:00:00:01')
    stream = Characteristic(STREAM, Characteristic.Properties.NOTIFY, Characteristic.READABLE, bytes(length))
    peripheral.add_service(Service(SERVICE, [stream]))
    centrals = [make_device(link, f'central{i}', 2 + i, f'C0:5A:17:00:01:{i + 1:02X}') for i in range(connections)]
    await peripheral.power_on()
    for central in centrals:
        await central.power_on()

    total = warmup + count
    received = [0] * connections
    done = asyncio.Event()
    warm = asyncio.Event()
    marks = {}

    def counter(i):
        def on_value(_value):
            received[i] += 1
            if received[i] == warmup and all(r >= warmup for r in received):
                warm.set()
            if received[i] == total and all(r >= total for r in received):
                marks['end'] = (time.perf_counter(), time.process_time())
                done.set()
        return on_value

    for i, central in enumerate(centrals):
        await peripheral.start_advertising(advertising_interval_min=20, advertising_interval_max=20)
        connection = await central.connect(peripheral.random_address)
        await connection.gatt_client.request_mtu(247)
        service = (await connection.gatt_client.discover_service(SERVICE))[0]
        characteristics = await connection.gatt_client.discover_characteristics([STREAM], service)
        await connection.gatt_client.subscribe(characteristics[0], counter(i))
    await asyncio.sleep(0.05)

    value = bytes(range(256))[:length] if length <= 256 else bytes(length)

    async def send(n):
        for k in range(n):
            await peripheral.notify_subscribers(stream, value)
            # Let the links drain now and then, as a host with back-pressure would.
            if k % 8 == 7:
                await asyncio.sleep(0)

    await send(warmup)
    await asyncio.wait_for(warm.wait(), 60)
    start = (time.perf_counter(), time.process_time())
    await send(count)
    await asyncio.wait_for(done.wait(), 120)
    end = marks['end']
    print(f'RESULT length={length} connections={connections} notifications={count * connections} '
          f'wall={end[0] - start[0]:.6f} cpu={end[1] - start[1]:.6f}', flush=True)
    for central in centrals:
        for connection in list(central.connections.values()):
            await connection.disconnect()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--length', type=int, action='append', help='value length (repeatable)')
    parser.add_argument('--connections', type=int, action='append', help='connection count (repeatable)')
    parser.add_argument('--count', type=int, default=2000, help='values notified per connection and case')
    parser.add_argument('--warmup', type=int, default=200)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    for length in args.length or [20, 244]:
        for connections in args.connections or [1, 8]:
            await run_case(length, connections, args.count, args.warmup)


if __name__ == '__main__':
    asyncio.run(main())
