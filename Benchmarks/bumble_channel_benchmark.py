#!/usr/bin/env python3
"""Bumble's L2CAP credit-based channels, host to host: the peer figure for swift-att's
channel benchmark.

    Tests/bench/.venv/bin/python Benchmarks/bumble_channel_benchmark.py --channels 1 --octets 2000000 --sdu 2000

One asyncio process: a LocalLink with Bumble's virtual controllers (64 LE ACL buffers of
251 octets, as swift-att's loopback controllers), a peripheral Device serving an LE
credit-based channel on SPSM 0x0080 and a central Device opening --channels channels to
it on one link (MTU 2048, MPS 1024, 64 credits, as swift-att's defaults), each writing
--octets in SDUs of --sdu while the peripheral's sinks count what arrives. Prints:

    RESULT channels=1 octets=2000000 wall=1.234 cpu=1.230

wall and cpu (time.process_time: both hosts and the controllers) cover the transfer
only, from the first write to the last octet received.
"""
import argparse
import asyncio
import logging
import time

from bumble import l2cap
from bumble.controller import Controller
from bumble.device import Device
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport.common import AsyncPipeSink

PSM = 0x0080


def make_device(link, name, index, address):
    controller = Controller(f'C-{name}', link=link, public_address=f'F0:F0:F0:F0:{index >> 8:02X}:{index & 0xFF:02X}')
    controller.le_acl_data_packet_length = 251
    controller.total_num_le_acl_data_packets = 64
    return Device(name=name, address=Address(address, Address.RANDOM_DEVICE_ADDRESS),
                  host=Host(controller, AsyncPipeSink(controller)))


async def run_case(channels, octets, sdu):
    link = LocalLink()
    peripheral = make_device(link, 'peripheral', 1, 'C0:5A:17:00:00:01')
    central = make_device(link, 'central', 2, 'C0:5A:17:00:01:01')
    await peripheral.power_on()
    await central.power_on()
    spec = l2cap.LeCreditBasedChannelSpec(psm=PSM, mtu=2048, mps=1024, max_credits=64)
    received = [0]
    total = channels * octets
    done = asyncio.Event()
    marks = {}

    def on_channel(channel):
        def sink(data):
            received[0] += len(data)
            if received[0] >= total and not done.is_set():
                marks['end'] = (time.perf_counter(), time.process_time())
                done.set()
        channel.sink = sink

    peripheral.create_l2cap_server(spec=spec, handler=on_channel)
    await peripheral.start_advertising(advertising_interval_min=20, advertising_interval_max=20)
    connection = await central.connect(peripheral.random_address)
    opened = [await connection.create_l2cap_channel(spec=spec) for _ in range(channels)]
    await asyncio.sleep(0.05)
    payload = bytes(sdu)

    async def send(channel):
        sent = 0
        while sent < octets:
            channel.write(payload)
            sent += len(payload)
            await channel.drain()

    start = (time.perf_counter(), time.process_time())
    await asyncio.gather(*(send(channel) for channel in opened))
    await asyncio.wait_for(done.wait(), 300)
    wall = marks['end'][0] - start[0]
    cpu = marks['end'][1] - start[1]
    print(f'RESULT channels={channels} octets={received[0]} wall={wall:.4f} cpu={cpu:.4f}', flush=True)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--channels', type=int, action='append', default=[])
    parser.add_argument('--octets', type=int, default=2_000_000, help='per channel')
    parser.add_argument('--sdu', type=int, default=2000)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    for channels in args.channels or [1]:
        await run_case(channels, args.octets, args.sdu)


if __name__ == '__main__':
    asyncio.run(main())
