#!/usr/bin/env python3
"""Connection set-up, timed: the peripheral both centrals connect to, and Bumble's host as
one of the centrals, for swift-att's connection set-up benchmark
(Benchmarks/HostBenchmarks/ConnectionSetupBench.swift), which starts both roles over
Bumble's virtual controllers (Tests/bench/controllers.py) and drives them.

    bumble_connect_benchmark.py peripheral --transport tcp-client:127.0.0.1:PORT --address C0:…
    bumble_connect_benchmark.py central --transport tcp-client:127.0.0.1:PORT --address C0:… \\
        --peer C0:… [--snoop FILE]

peripheral: a Bumble host serving a database of a realistic size — GAP and GATT (Bumble's
own: Device Name, Appearance; Service Changed, Database Hash, Client Supported Features),
Device Information (six strings and a System ID), Heart Rate (measurement with its CCCD,
body sensor location, control point), Battery (level with its CCCD) and a custom
128-bit service (four characteristics: a notifying one with a CCCD and a User
Description, a writable one, a readable one with a Presentation Format, an indicating
one with a CCCD). It advertises connectably with auto-restart (so it is advertising
again after each disconnection), every --interval ms. It prints {"event": "ready"},
then per connection {"event": "disconnected", "requests": N}: the ATT requests its
server received on that connection.

central: a Bumble host that, for each "run" line on its standard input ("run snoop":
with its HCI traffic captured to --snoop, whose timestamps then show where the time went;
"run": uncaptured, as capturing costs time per packet), connects to --peer and times,
with time.perf_counter():
  link        Device.connect() returned (its LE Connection Complete arrived);
  usable      then ATT_MTU exchanged (517, as swift-att's connect does) and Device Name
              (0x2A00) read with Read Using Characteristic UUID: the bearer is usable;
  discovered  then the whole database discovered, the same procedures in the same order
              as swift-att's Peer.discoverDatabase(): Discover All Primary Services,
              Find Included Services of each service, Discover All Characteristics of
              each service, Discover All Characteristic Descriptors of each characteristic
              with room for any, Read Using Characteristic UUID of the Database Hash
              (0x2B2A), and indications of Service Changed enabled (its CCCD written).
Then it disconnects and prints {"event": "result", "start": WALL_US, "link": S,
"usable": S, "discovered": S, "services": N, "characteristics": N, "descriptors": N}
(seconds from the start of connect; start is the wall clock in µs, to find the run in
the --snoop capture). The connection parameters are swift-att's defaults (interval
30–50 ms, latency 0, supervision timeout 4 s); the scan interval and window are 60 ms
in both hosts. Bumble's virtual controller connects at the peer's next advertisement
and schedules nothing by connection interval, so neither parameter sets a pace here.
"""
import argparse
import asyncio
import json
import logging
import sys
import time

from bumble import att, gatt, hci
from bumble.device import ConnectionParametersPreferences, Device, DeviceConfiguration
from bumble.host import Host
from bumble.profiles.battery_service import BatteryService
from bumble.profiles.device_information_service import DeviceInformationService
from bumble.profiles.heart_rate_service import HeartRateService
from bumble.snoop import BtSnooper
from bumble.transport import open_transport

CUSTOM_SERVICE = gatt.UUID('6E400001-B5A3-F393-E0A9-E50E24DCCA9E')


def custom_uuid(n):
    return gatt.UUID(f'6E4000{n:02X}-B5A3-F393-E0A9-E50E24DCCA9E')


def build_services():
    """Device Information, Heart Rate, Battery and a custom service (GAP and GATT are
    the device's own)."""
    properties = gatt.Characteristic.Properties
    readable = gatt.Characteristic.READABLE
    writeable = gatt.Characteristic.WRITEABLE
    information = DeviceInformationService(
        manufacturer_name='swift-att bench', model_number='CB-1', serial_number='0001',
        hardware_revision='1.0', firmware_revision='1.2.3', software_revision='4.5.6',
        system_id=(0x00A0C9, 0x1234))
    heart_rate = HeartRateService(
        read_heart_rate_measurement=lambda _: HeartRateService.HeartRateMeasurement(heart_rate=72),
        body_sensor_location=HeartRateService.BodySensorLocation.CHEST,
        reset_energy_expended=lambda _: None)
    battery = BatteryService(read_battery_level=lambda _: 87)
    description = gatt.Descriptor(gatt.GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR, gatt.Descriptor.READABLE,
                                  b'stream')
    presentation = gatt.Descriptor(gatt.GATT_CHARACTERISTIC_PRESENTATION_FORMAT_DESCRIPTOR, gatt.Descriptor.READABLE,
                                   bytes([0x06, 0x00, 0x00, 0x27, 0x01, 0x00, 0x00]))
    custom = gatt.Service(CUSTOM_SERVICE, [
        gatt.Characteristic(custom_uuid(2), properties.NOTIFY, readable, b'', descriptors=[description]),
        gatt.Characteristic(custom_uuid(3), properties.WRITE | properties.WRITE_WITHOUT_RESPONSE, writeable, b''),
        gatt.Characteristic(custom_uuid(4), properties.READ, readable, b'\x2a\x00', descriptors=[presentation]),
        gatt.Characteristic(custom_uuid(5), properties.READ | properties.INDICATE, readable, b'\x00'),
    ])
    return [information, heart_rate, battery, custom]


def tcp_device(transport, name, address):
    config = DeviceConfiguration(name=name, address=hci.Address(address, hci.Address.RANDOM_DEVICE_ADDRESS))
    return Device(config=config, host=Host(controller_source=transport.source, controller_sink=transport.sink))


def emit(**fields):
    print(json.dumps(fields), flush=True)


async def stdin_lines():
    """The lines of standard input as they come; ends at end of file."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        yield line.decode().strip()


async def peripheral(args, transport):
    device = tcp_device(transport, 'swift-att bench', args.address)
    device.add_services(build_services())
    requests = [0]
    handle_pdu = device.gatt_server.on_gatt_pdu

    def counted(bearer, pdu):
        if pdu.op_code in att.ATT_REQUESTS:
            requests[0] += 1
        handle_pdu(bearer, pdu)

    device.gatt_server.on_gatt_pdu = counted

    def on_connection(connection):
        requests[0] = 0
        connection.on('disconnection', lambda reason: emit(event='disconnected', requests=requests[0], reason=reason))

    device.on('connection', on_connection)
    await device.power_on()
    await device.start_advertising(auto_restart=True, advertising_interval_min=args.interval,
                                   advertising_interval_max=args.interval)
    emit(event='ready')
    async for _ in stdin_lines():
        pass


async def central(args, transport):
    device = tcp_device(transport, 'bumble central', args.address)
    snoop = open(args.snoop, 'wb') if args.snoop else None
    snooper = BtSnooper(snoop) if snoop else None
    await device.power_on()
    peer = hci.Address(args.peer, hci.Address.RANDOM_DEVICE_ADDRESS)
    # swift-att's defaults (Central.connect): interval 24–40 × 1.25 ms, latency 0, timeout 4 s.
    preferences = {hci.HCI_LE_1M_PHY: ConnectionParametersPreferences(
        connection_interval_min=30, connection_interval_max=50, max_latency=0, supervision_timeout=4000)}
    emit(event='ready')
    async for line in stdin_lines():
        if line not in ('run', 'run snoop'):
            continue
        device.host.snooper = snooper if line == 'run snoop' else None
        start_wall = time.time_ns() // 1000
        start = time.perf_counter()
        connection = await device.connect(peer, connection_parameters_preferences=preferences, timeout=10)
        link = time.perf_counter()
        client = connection.gatt_client
        await client.request_mtu(517)
        await client.read_characteristics_by_uuid(gatt.GATT_DEVICE_NAME_CHARACTERISTIC, None)
        usable = time.perf_counter()
        services = await client.discover_services()
        for service in services:
            await client.discover_included_services(service)
        for service in services:
            await client.discover_characteristics([], service)
        characteristics = [c for s in services for c in s.characteristics]
        for characteristic in characteristics:
            await client.discover_descriptors(characteristic)
        await client.read_characteristics_by_uuid(gatt.GATT_DATABASE_HASH_CHARACTERISTIC, None)
        changed = [c for c in characteristics if c.uuid == gatt.GATT_SERVICE_CHANGED_CHARACTERISTIC]
        if changed and changed[0].properties & gatt.Characteristic.Properties.INDICATE:
            await client.subscribe(changed[0], prefer_notify=False)
        discovered = time.perf_counter()
        await connection.disconnect()
        device.host.snooper = None
        if snoop:
            snoop.flush()
        emit(event='result', start=start_wall, link=link - start, usable=usable - start, discovered=discovered - start,
             services=len(services), characteristics=len(characteristics),
             descriptors=sum(len(c.descriptors) for c in characteristics))
    if snoop:
        snoop.close()


async def main():
    parser = argparse.ArgumentParser(description='Connection set-up, timed (see the module docstring).')
    parser.add_argument('role', choices=['peripheral', 'central'])
    parser.add_argument('--transport', required=True, help='tcp-client:127.0.0.1:PORT')
    parser.add_argument('--address', required=True, help='this host\'s static random address')
    parser.add_argument('--peer', help='central: the peripheral\'s static random address')
    parser.add_argument('--interval', type=float, default=20, help='peripheral: advertising interval, ms')
    parser.add_argument('--snoop', help='central: a btsnoop capture of its HCI traffic')
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    transport = await open_transport(args.transport)
    try:
        if args.role == 'peripheral':
            await peripheral(args, transport)
        else:
            await central(args, transport)
    finally:
        await transport.close()


if __name__ == '__main__':
    asyncio.run(main())
