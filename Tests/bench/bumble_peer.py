#!/usr/bin/env python3
"""A Bumble host (Bumble's own Python stack) as an independent peer for swift-att's
integration tests, attached to one of controllers.py's virtual controllers.

    bumble_peer.py --port 9101 --address C0:B0:00:00:00:01 advertise --name NAME --service 180D
    bumble_peer.py --port 9102 --address C0:B0:00:00:00:02 scan
    bumble_peer.py --port 9102 --address C0:B0:00:00:00:02 central --target ADDR [--mtu 247] [--read-all] \
        [--read UUID] [--write UUID=HEX] [--subscribe UUID] [--write-command UUID=HEX]

Reports what happens as JSON lines on stdout ({"event": "ready", ...}, "connected",
"disconnected", "advertisement"); reads commands as lines on stdin ("disconnect",
"quit"). Ends at "quit", at end of stdin, or after --duration seconds.
"""
import argparse
import asyncio
import json
import logging
import sys

from bumble.core import AdvertisingData, UUID
from bumble.device import Device
from bumble.hci import Address
from bumble.transport import open_transport


def emit(**fields):
    print(json.dumps(fields), flush=True)


async def commands(handlers):
    """Reads stdin lines and runs the named handler; returns at quit or EOF."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            return
        word = line.decode().strip()
        if word == 'quit':
            return
        if word in handlers:
            await handlers[word]()
        else:
            emit(event='error', message=f'unknown command {word!r}')


async def advertise(device, args):
    connections = []
    structures = [(AdvertisingData.FLAGS, bytes([0x06]))]
    if args.service:
        uuids = b''.join(bytes(UUID(s)) for s in args.service)
        structures.append((AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, uuids))
    structures.append((AdvertisingData.COMPLETE_LOCAL_NAME, args.name.encode()))
    data = bytes(AdvertisingData(structures))

    def on_connection(connection):
        connections.append(connection)
        connection.on('disconnection', lambda reason: emit(event='disconnected', reason=reason))
        connection.on('connection_parameters_update', lambda: emit(
            event='parameters', interval=connection.parameters.connection_interval,
            latency=connection.parameters.peripheral_latency, timeout=connection.parameters.supervision_timeout))
        emit(event='connected', peer=str(connection.peer_address).split('/')[0], role='peripheral')

    device.on('connection', on_connection)
    await device.start_advertising(advertising_data=data, advertising_interval_min=20, advertising_interval_max=20)
    emit(event='ready', address=str(device.random_address).split('/')[0], data=data.hex())

    async def disconnect():
        for connection in connections:
            await connection.disconnect()

    async def update_parameters():
        # The peripheral asks over L2CAP LE signaling (Connection Parameter Update Request):
        # 30-50 ms interval, no latency, 4 s supervision timeout.
        for connection in connections:
            try:
                await connection.update_parameters(30, 50, 0, 4000, use_l2cap=True)
                emit(event='update-requested')
            except Exception as error:  # report, keep serving
                emit(event='update-failed', error=str(error))

    async def pair():
        for connection in connections:
            try:
                await connection.pair()
                emit(event='paired')
            except Exception as error:
                emit(event='pairing-failed', error=type(error).__name__, message=str(error))

    await commands({'disconnect': disconnect, 'update-parameters': update_parameters, 'pair': pair})


async def scan(device, args):
    def on_advertisement(advertisement):
        data = advertisement.data
        name = data.get(AdvertisingData.COMPLETE_LOCAL_NAME) or data.get(AdvertisingData.SHORTENED_LOCAL_NAME)
        services = data.get(AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS) or []
        emit(event='advertisement',
             address=str(advertisement.address).split('/')[0],
             random=advertisement.address.address_type in (Address.RANDOM_DEVICE_ADDRESS, Address.RANDOM_IDENTITY_ADDRESS),
             connectable=bool(advertisement.is_connectable),
             name=name.decode() if isinstance(name, bytes) else name,
             services=[u.to_hex_str() for u in services],
             data=bytes(data).hex())

    device.on('advertisement', on_advertisement)
    await device.start_scanning(active=True, filter_duplicates=False)
    emit(event='ready', address=str(device.random_address).split('/')[0])
    await commands({})


async def central(device, args):
    """Connects to --target as a GATT client: exchanges MTU, discovers everything,
    reads, writes and subscribes as asked, and reports each step."""
    from bumble.device import Peer
    target = Address(args.target, Address.RANDOM_DEVICE_ADDRESS)
    connection = await device.connect(target, timeout=15)
    connection.on('disconnection', lambda reason: emit(event='disconnected', reason=reason))
    emit(event='connected', peer=args.target)
    peer = Peer(connection)
    if args.mtu:
        emit(event='mtu', mtu=await peer.request_mtu(args.mtu))
    await peer.discover_services()
    characteristics = {}
    for service in peer.services:
        emit(event='service', uuid=service.uuid.to_hex_str(), start=service.handle, end=service.end_group_handle)
        await service.discover_characteristics()
        for characteristic in service.characteristics:
            await characteristic.discover_descriptors()
            characteristics.setdefault(characteristic.uuid.to_hex_str(), characteristic)
            emit(event='characteristic', service=service.uuid.to_hex_str(), uuid=characteristic.uuid.to_hex_str(),
                 handle=characteristic.handle, properties=int(characteristic.properties),
                 descriptors=[(d.type.to_hex_str(), d.handle) for d in characteristic.descriptors])
    emit(event='discovered', count=len(characteristics))
    if args.read_all:
        await read_all(peer)

    def find(uuid):
        return characteristics.get(uuid.upper()) or characteristics.get(uuid.replace('-', '').upper())

    for uuid in args.read:
        try:
            value = await find(uuid).read_value()
            emit(event='read', uuid=uuid, value=bytes(value).hex())
        except Exception as error:
            emit(event='read-failed', uuid=uuid, error=str(error))
    for item in args.write:
        uuid, hexvalue = item.split('=')
        try:
            await find(uuid).write_value(bytes.fromhex(hexvalue), with_response=True)
            emit(event='written', uuid=uuid)
        except Exception as error:
            emit(event='write-failed', uuid=uuid, error=str(error), code=getattr(error, 'error_code', None))
    for uuid in args.subscribe:
        def received(value, uuid=uuid):
            emit(event='notification', uuid=uuid, value=bytes(value).hex())
        await find(uuid).subscribe(received, prefer_notify=not args.indicate)
        emit(event='subscribed', uuid=uuid)
    # Writes without response (Write Command), after the subscriptions: the seeds' light
    # commands (001) and HC-08 text (003).
    for item in args.write_command:
        uuid, hexvalue = item.split('=')
        await find(uuid).write_value(bytes.fromhex(hexvalue), with_response=False)
        emit(event='command-written', uuid=uuid, value=hexvalue)

    async def disconnect():
        await connection.disconnect()

    await commands({'disconnect': disconnect})


async def read_all(peer):
    """--read-all: the rest of the database, for a test to compare with what it should
    be: each primary service's included services (and their characteristics), every
    readable characteristic's value and every descriptor's value (long values read whole)."""
    from bumble.gatt import Characteristic
    for service in peer.services:
        try:
            included = await peer.discover_included_services(service)
        except Exception as error:
            emit(event='included-failed', service=service.uuid.to_hex_str(), error=str(error))
            included = []
        for inc in included:
            emit(event='included', service=service.uuid.to_hex_str(), uuid=inc.uuid.to_hex_str(),
                 start=inc.handle, end=inc.end_group_handle)
            await peer.discover_characteristics(service=inc)
            for characteristic in inc.characteristics:
                await characteristic.discover_descriptors()
                emit(event='characteristic', service=inc.uuid.to_hex_str(), uuid=characteristic.uuid.to_hex_str(),
                     handle=characteristic.handle, properties=int(characteristic.properties),
                     descriptors=[(d.type.to_hex_str(), d.handle) for d in characteristic.descriptors])
        for characteristic in list(service.characteristics) + [c for inc in included for c in inc.characteristics]:
            if characteristic.properties & Characteristic.Properties.READ:
                try:
                    value = await characteristic.read_value()
                    emit(event='value', uuid=characteristic.uuid.to_hex_str(), handle=characteristic.handle,
                         value=bytes(value).hex())
                except Exception as error:
                    emit(event='value-failed', uuid=characteristic.uuid.to_hex_str(), handle=characteristic.handle,
                         error=str(error), code=getattr(error, 'error_code', None))
            for descriptor in characteristic.descriptors:
                try:
                    value = await descriptor.read_value()
                    emit(event='descriptor', characteristic=characteristic.uuid.to_hex_str(),
                         uuid=descriptor.type.to_hex_str(), handle=descriptor.handle, value=bytes(value).hex())
                except Exception as error:
                    emit(event='descriptor-failed', characteristic=characteristic.uuid.to_hex_str(),
                         uuid=descriptor.type.to_hex_str(), handle=descriptor.handle,
                         error=str(error), code=getattr(error, 'error_code', None))
    emit(event='read-all')


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--address', required=True, help='static random address for this host')
    parser.add_argument('--duration', type=float, default=120.0)
    sub = parser.add_subparsers(dest='role', required=True)
    a = sub.add_parser('advertise')
    a.add_argument('--name', required=True)
    a.add_argument('--service', action='append', default=[])
    sub.add_parser('scan')
    c = sub.add_parser('central')
    c.add_argument('--target', required=True)
    c.add_argument('--mtu', type=int, default=0)
    c.add_argument('--read', action='append', default=[])
    c.add_argument('--write', action='append', default=[], help='UUID=HEX')
    c.add_argument('--subscribe', action='append', default=[])
    c.add_argument('--indicate', action='store_true', help='prefer indications when subscribing')
    c.add_argument('--read-all', action='store_true',
                   help='after discovery: included services, every readable value and every descriptor')
    c.add_argument('--write-command', action='append', default=[],
                   help='UUID=HEX written without response, after subscribing')
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)

    async with await open_transport(f'tcp-client:127.0.0.1:{args.port}') as (source, sink):
        device = Device.with_hci('bumble-peer', Address(args.address, Address.RANDOM_DEVICE_ADDRESS), source, sink)
        await device.power_on()
        role = {'advertise': advertise, 'scan': scan, 'central': central}[args.role]
        try:
            await asyncio.wait_for(role(device, args), args.duration)
        except asyncio.TimeoutError:
            pass
        emit(event='done')


if __name__ == '__main__':
    asyncio.run(main())
