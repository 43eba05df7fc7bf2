#!/usr/bin/env python3
"""Bumble's own host as a GATT server (peripheral) for swift-att's client tests.

    bumble_server.py --port 9101 --address C0:B0:00:00:00:01 [--name "Bumble HR"]

Serves, besides Bumble's GAP and GATT services (Service Changed, Database Hash):
  Heart Rate 180D: 2A37 Heart Rate Measurement (notify), 2A38 Body Sensor Location
    (read, 0x01 chest), 2A39 Heart Rate Control Point (write);
  a test service 5A7E0001-5EED-…: 5A7E0002 a 300-octet value (read, write; bytes i % 256),
    5A7E0003 write without response, 5A7E0004 indicate, 5A7E0005 read needing
    encryption, 5A7E0006 read only (with a User Description descriptor), 5A7E0007 a read
    that is never answered.
Advertises the name and 180D. With --notify-ms N it notifies a heart-rate value every N ms
once a central subscribes to 2A37. Reports JSON lines on stdout: ready, connected, mtu,
written (uuid, value), subscribed (uuid, notify, indicate), read-held (a read of 5A7E0007
arrived and will not be answered), disconnected. Commands on
stdin, one per line: "notify HEX" (2A37), "indicate HEX" (5A7E0004),
"add-service" (adds a service 5A7E1001 with one characteristic and indicates
Service Changed for its range), "disconnect", "quit".
"""
import argparse
import asyncio
import json
import logging
import struct
import sys

from bumble.att import ATT_Error, ErrorCode
from bumble.core import AdvertisingData, UUID
from bumble.device import Device
from bumble.gatt import Characteristic, CharacteristicValue, Descriptor, Service
from bumble.hci import Address
from bumble.transport import open_transport

TEST = '5A7E{:04X}-5EED-4A11-9C0D-5A7E00000000'


def emit(**fields):
    print(json.dumps(fields), flush=True)


def build(device):
    def recorder(uuid):
        def write(connection, value):
            store[uuid] = bytes(value)
            emit(event='written', uuid=uuid, value=bytes(value).hex())
        return write

    store = {'5A7E0002': bytes(i % 256 for i in range(300))}
    measurement = Characteristic('2A37', Characteristic.Properties.NOTIFY, Characteristic.READABLE, bytes([0, 60]))
    control_point = Characteristic('2A39', Characteristic.Properties.WRITE, Characteristic.WRITEABLE,
                                   CharacteristicValue(write=recorder('2A39')))
    heart_rate = Service('180D', [
        measurement,
        Characteristic('2A38', Characteristic.Properties.READ, Characteristic.READABLE, bytes([1])),
        control_point,
    ])
    long_value = Characteristic(
        TEST.format(2), Characteristic.Properties.READ | Characteristic.Properties.WRITE,
        Characteristic.READABLE | Characteristic.WRITEABLE,
        CharacteristicValue(read=lambda connection: store['5A7E0002'], write=recorder('5A7E0002')))
    command = Characteristic(TEST.format(3), Characteristic.Properties.WRITE_WITHOUT_RESPONSE, Characteristic.WRITEABLE,
                             CharacteristicValue(write=recorder('5A7E0003')))
    indicated = Characteristic(TEST.format(4), Characteristic.Properties.INDICATE, Characteristic.READABLE, b'')
    protected = Characteristic(TEST.format(5), Characteristic.Properties.READ, Characteristic.READ_REQUIRES_ENCRYPTION, b'secret')
    def refuse(connection, value):
        raise ATT_Error(ErrorCode.WRITE_NOT_PERMITTED)

    # Bumble's server does not check write permissions itself: the value refuses.
    read_only = Characteristic(TEST.format(6), Characteristic.Properties.READ, Characteristic.READABLE,
                               CharacteristicValue(read=lambda connection: b'read only', write=refuse),
                               descriptors=[Descriptor('2901', Descriptor.READABLE, b'A read-only value')])
    async def never(connection):
        # A server that does not answer: the read request waits for ever. Said on stdout,
        # so a test knows its request is outstanding here before it acts on the link.
        emit(event='read-held')
        await asyncio.Event().wait()

    hangs = Characteristic(TEST.format(7), Characteristic.Properties.READ, Characteristic.READABLE,
                           CharacteristicValue(read=never))
    test = Service(TEST.format(1), [long_value, command, indicated, protected, read_only, hangs])
    device.add_services([heart_rate, test])
    return measurement, indicated


async def serve(device, args):
    measurement, indicated = build(device)
    connections = []
    beating = []

    async def advertise():
        await device.start_advertising(advertising_data=data, advertising_interval_min=20, advertising_interval_max=20)

    def on_disconnection(connection, reason):
        connections.remove(connection)
        emit(event='disconnected', reason=reason)
        # Advertise again, as a real peripheral does, for the next central.
        asyncio.get_running_loop().create_task(advertise())

    def on_connection(connection):
        connections.append(connection)
        connection.on('disconnection', lambda reason: on_disconnection(connection, reason))
        connection.on('connection_att_mtu_update', lambda: emit(event='mtu', mtu=connection.att_mtu))
        emit(event='connected', peer=str(connection.peer_address).split('/')[0])

    async def beat():
        bpm = 60
        while True:
            await asyncio.sleep(args.notify_ms / 1000)
            await device.notify_subscribers(measurement, bytes([0, bpm]))
            bpm = 60 + (bpm - 59) % 40

    def on_subscription(connection, characteristic, notify, indicate):
        emit(event='subscribed', uuid=characteristic.uuid.to_hex_str(), notify=bool(notify), indicate=bool(indicate))
        if args.notify_ms and characteristic.uuid == UUID('2A37') and notify and not beating:
            beating.append(asyncio.get_running_loop().create_task(beat()))

    device.on('connection', on_connection)
    device.on('characteristic_subscription', on_subscription)
    data = bytes(AdvertisingData([
        (AdvertisingData.FLAGS, bytes([0x06])),
        (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, bytes(UUID('180D'))),
        (AdvertisingData.COMPLETE_LOCAL_NAME, args.name.encode()),
    ]))
    await advertise()
    emit(event='ready', address=str(device.random_address).split('/')[0])

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            return
        words = line.decode().split()
        if not words:
            continue
        try:
            if words[0] == 'quit':
                return
            elif words[0] == 'notify':
                await device.notify_subscribers(measurement, bytes.fromhex(words[1]))
                emit(event='notified', value=words[1])
            elif words[0] == 'indicate':
                await device.indicate_subscribers(indicated, bytes.fromhex(words[1]))
                emit(event='indicated', value=words[1])
            elif words[0] == 'add-service':
                added = Service(TEST.format(0x1001), [
                    Characteristic(TEST.format(0x1002), Characteristic.Properties.READ, Characteristic.READABLE, b'new')])
                device.add_service(added)
                start, end = added.handle, added.end_group_handle
                await device.indicate_subscribers(device.gatt_service.service_changed_characteristic,
                                                  struct.pack('<HH', start, end))
                emit(event='service-added', start=start, end=end)
            elif words[0] == 'disconnect':
                for connection in list(connections):
                    await connection.disconnect()
            else:
                emit(event='error', message=f'unknown command {words[0]!r}')
        except Exception as error:  # report, keep serving
            emit(event='error', message=f'{type(error).__name__}: {error}')


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--address', required=True, help='static random address for this host')
    parser.add_argument('--name', default='Bumble HR')
    parser.add_argument('--duration', type=float, default=120.0)
    parser.add_argument('--notify-ms', type=float, default=0, help='notify 2A37 every N ms once subscribed')
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    async with await open_transport(f'tcp-client:127.0.0.1:{args.port}') as (source, sink):
        device = Device.with_hci('bumble-server', Address(args.address, Address.RANDOM_DEVICE_ADDRESS), source, sink)
        await device.power_on()
        try:
            await asyncio.wait_for(serve(device, args), args.duration)
        except asyncio.TimeoutError:
            pass
        emit(event='done')


if __name__ == '__main__':
    asyncio.run(main())
