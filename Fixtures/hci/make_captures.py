#!/usr/bin/env python3
"""Make a real btsnoop capture of Bumble hosts scanning, connecting, pairing.

Run with the bench venv (Tests/bench/setup.sh creates it):

    Tests/bench/.venv/bin/python Fixtures/hci/make_captures.py [--out DIR]

One asyncio process: a LocalLink with two Bumble virtual Controllers and two Bumble
Devices (full hosts) on in-memory HCI pipes, as Fixtures/captures/make_captures.py
does. Both hosts are snooped. The session:

  peripheral  advertises (Bumble uses extended advertising commands with legacy PDUs)
              with advertising and scan response data
  central     scans actively until it has the peripheral's advertisement and scan
              response, stops, connects, reads the peer's LE features, updates the
              connection parameters, pairs (Just Works: SMP, LE Enable Encryption,
              LE Long Term Key Request, Encryption Change), asks for a data length
              (Bumble refuses), and disconnects.

Writes scan-pair-central.btsnoop and scan-pair-peripheral.btsnoop. Timestamps are
synthetic (2025-01-01T00:00:00Z + 1 ms per record). Scanning makes the number of
advertising reports timing-dependent, so re-runs are not byte-identical; the tests
depend only on what every run contains.
"""
import argparse
import asyncio
import datetime
import logging
import os
import struct
import sys

from bumble.controller import Controller
from bumble.device import Device
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.snoop import BtSnooper
from bumble.transport.common import AsyncPipeSink

log = logging.getLogger('make_captures')

CENTRAL_ADDRESS = Address('C0:5A:17:00:00:01', Address.RANDOM_DEVICE_ADDRESS)
PERIPHERAL_ADDRESS = Address('C0:5A:17:00:00:02', Address.RANDOM_DEVICE_ADDRESS)
# Flags (LE General Discoverable, BR/EDR not supported), Complete Local Name "swift-att".
ADVERTISING_DATA = bytes.fromhex('020106') + bytes([10, 0x09]) + b'swift-att'
# Complete list of 16-bit service UUIDs: Heart Rate, Battery.
SCAN_RESPONSE_DATA = bytes.fromhex('05030d180f18')

TIMESTAMP_BASE_US = BtSnooper.TIMESTAMP_DELTA + 1_000_000 * int(  # 2025-01-01T00:00:00Z
    (datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc) - BtSnooper.TIMESTAMP_ANCHOR).total_seconds())


class DeterministicBtSnooper(BtSnooper):
    """BtSnooper with synthetic timestamps (base + 1 ms per record)."""

    def __init__(self, output):
        super().__init__(output)
        self.count = 0

    def snoop(self, hci_packet, direction):
        flags = int(direction)
        if hci_packet[0] in (0x01, 0x04):  # command or event
            flags |= 0x02
        timestamp = TIMESTAMP_BASE_US + self.count * 1000
        self.count += 1
        self.output.write(
            struct.pack('>IIIIQ', len(hci_packet), len(hci_packet), flags, 0, timestamp)
            + bytes(hci_packet))


async def run_session(out_dir):
    link = LocalLink()
    controllers = [
        Controller('C-central', link=link, public_address='F0:F0:F0:F0:F0:01'),
        Controller('C-peripheral', link=link, public_address='F0:F0:F0:F0:F0:02'),
    ]
    central = Device(name='central', address=CENTRAL_ADDRESS,
                     host=Host(controllers[0], AsyncPipeSink(controllers[0])))
    peripheral = Device(name='peripheral', address=PERIPHERAL_ADDRESS,
                        host=Host(controllers[1], AsyncPipeSink(controllers[1])))
    files = {}
    for role, dev in (('central', central), ('peripheral', peripheral)):
        files[role] = open(os.path.join(out_dir, f'scan-pair-{role}.btsnoop'), 'wb')
        dev.host.snooper = DeterministicBtSnooper(files[role])
    try:
        await central.power_on()
        await peripheral.power_on()
        await peripheral.start_advertising(
            advertising_data=ADVERTISING_DATA, scan_response_data=SCAN_RESPONSE_DATA,
            advertising_interval_min=20, advertising_interval_max=20)

        seen = asyncio.get_running_loop().create_future()

        def on_advertisement(advertisement):
            if advertisement.address == PERIPHERAL_ADDRESS and not seen.done():
                seen.set_result(advertisement)

        central.on('advertisement', on_advertisement)
        await central.start_scanning(active=True, filter_duplicates=False)
        advertisement = await asyncio.wait_for(seen, 5)
        await asyncio.sleep(0.1)  # a few more reports, scan responses among them
        await central.stop_scanning()
        log.info('advertisement: %s', advertisement)

        peripheral_connection = asyncio.get_running_loop().create_future()
        peripheral.once('connection', peripheral_connection.set_result)
        connection = await central.connect(PERIPHERAL_ADDRESS)
        p_conn = await peripheral_connection

        features = await connection.get_remote_le_features()
        log.info('remote features: %s', features)
        await connection.update_parameters(
            connection_interval_min=30, connection_interval_max=50, max_latency=0, supervision_timeout=5000)
        await connection.pair()
        log.info('encrypted: %s', connection.is_encrypted)
        try:
            await connection.set_data_length(251, 2120)
        except Exception as error:  # Bumble's controller refuses (BENCH.md quirk 8)
            log.info('set data length: %s', error)

        disconnected = asyncio.get_running_loop().create_future()
        p_conn.once('disconnection', disconnected.set_result)
        await connection.disconnect()
        await asyncio.wait_for(disconnected, 5)
        await asyncio.sleep(0.05)
    finally:
        for f in files.values():
            f.close()


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--out', default=os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument('--timeout', type=float, default=25)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format='%(name)s: %(message)s')
    await asyncio.wait_for(run_session(args.out), args.timeout)
    log.info('ok')


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except Exception as error:
        log.error('failed: %r', error)
        sys.exit(1)
