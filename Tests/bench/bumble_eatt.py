#!/usr/bin/env python3
"""A Bumble host as an independent Enhanced ATT peer for swift-att's integration tests,
attached to one of controllers.py's virtual controllers.

    bumble_eatt.py --port 9301 --address C0:A0:00:00:00:01 serve [--values N]
    bumble_eatt.py --port 9302 --address C0:A0:00:00:00:02 client --target C0:A0:00:00:00:01 \
        [--bearers N] [--pair] [--rounds N]

serve: a peripheral whose GATT server takes Enhanced ATT bearers (Bumble's eatt_enabled:
it listens on PSM 0x0027 and its Server Supported Features say so) and serves service
0xEA70 with --values readable characteristics 0xEA80 + i, value i being the octets
(j + 7 i) mod 256 for j < 20 + 17 i (as swift-att's tests build them), and 0xEA7F
(notify). It advertises (connectable, 20 ms) and counts every ATT request by the bearer it
came on.

client: connects to --target (a random address), pairs if --pair (Bumble's SMP, Just
Works), opens --bearers Enhanced ATT bearers in one request (Bumble's Client.connect_eatt),
discovers service 0xEA70 on the first, then reads every value --rounds times, the reads
spread round-robin over the bearers and run at once, and reports each.

Quirks met (Bumble 0.0.236, BENCH.md): its EATT client starts every bearer at ATT_MTU 23
whatever the channel's MTU, so values longer than 22 octets take Read Blob Requests; its
server keeps subscriptions per bearer.

Events (JSON lines on stdout):
  ready            address
  connected        peer, role
  disconnected     peer, reason
  paired           peer
  bearer           cid, peer_cid, mtu, peer_mtu (serve: an Enhanced bearer accepted)
  eatt-open        count, cids, mtus (client: the bearers opened)
  eatt-failed      error
  read             uuid, hex (client: one value read)
  requests         bearers: {"att" or CID: requests}, client_features: hex of the Client
                   Supported Features value (one for every client: Bumble keeps one; null
                   without the characteristic) (answers "stats"; serve)
  error            message
  done

Commands (stdin): stats, notify HEX (serve: 0xEA7F's value to every subscribed bearer),
quit.
"""
import argparse
import asyncio
import json
import logging
import sys

from bumble import att, gatt, l2cap
from bumble.device import Device, DeviceConfiguration
from bumble.gatt_client import Client
from bumble.hci import Address
from bumble.host import Host
from bumble.keys import MemoryKeyStore
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

SERVICE = 0xEA70
NOTIFIED = 0xEA7F


def emit(**fields):
    print(json.dumps(fields), flush=True)


def address_of(address):
    return str(address).split('/')[0]


def value(index):
    return bytes((j + 7 * index) & 0xFF for j in range(20 + 17 * index))


def uuid16(number):
    return gatt.UUID.from_16_bits(number)


def make_device(args, source, sink, eatt):
    config = DeviceConfiguration(name='bumble-eatt', address=Address(args.address, Address.RANDOM_DEVICE_ADDRESS),
                                 eatt_enabled=eatt)
    device = Device(config=config, host=Host(controller_source=source, controller_sink=sink))
    device.keystore = MemoryKeyStore()
    device.pairing_config_factory = lambda connection: PairingConfig(
        sc=True, mitm=False, bonding=True, delegate=PairingDelegate(),
        identity_address_type=PairingConfig.AddressType.RANDOM)
    return device


def watch(connection, role):
    peer = address_of(connection.peer_address)
    connection.on('pairing', lambda keys: emit(event='paired', peer=peer))
    connection.on('disconnection', lambda reason: emit(event='disconnected', peer=peer, reason=reason))
    emit(event='connected', peer=peer, role=role)


async def commands(handle):
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().strip():
        if line == 'quit':
            return
        try:
            await handle(line)
        except Exception as error:  # a bad command is reported, the peer goes on
            emit(event='error', message=f'{line}: {type(error).__name__}: {error}')


async def serve(device, args):
    notified = gatt.Characteristic(uuid16(NOTIFIED), gatt.Characteristic.Properties.NOTIFY,
                                   gatt.Characteristic.READABLE, b'')
    characteristics = [gatt.Characteristic(uuid16(0xEA80 + i), gatt.Characteristic.Properties.READ,
                                           gatt.Characteristic.READABLE, value(i)) for i in range(args.values)]
    device.add_service(gatt.Service(uuid16(SERVICE), characteristics + [notified]))

    server = device.gatt_server
    counts = {}
    handle_pdu = server.on_gatt_pdu

    def counted(bearer, pdu):
        if pdu.op_code in att.ATT_REQUESTS:
            key = str(bearer.source_cid) if att.is_enhanced_bearer(bearer) else 'att'
            counts[key] = counts.get(key, 0) + 1
        handle_pdu(bearer, pdu)

    server.on_gatt_pdu = counted
    eatt_server = device.l2cap_channel_manager.le_coc_servers.get(att.EATT_PSM)
    if eatt_server is not None:
        accept = eatt_server.handler

        def accepted(channel):
            accept(channel)
            emit(event='bearer', cid=channel.source_cid, peer_cid=channel.destination_cid, mtu=channel.mtu,
                 peer_mtu=channel.peer_mtu)

        eatt_server.handler = accepted
    device.on('connection', lambda connection: watch(connection, 'peripheral'))
    await device.start_advertising(auto_restart=False, advertising_interval_min=20, advertising_interval_max=20)
    emit(event='ready', address=args.address)

    async def handle(line):
        word, _, rest = line.partition(' ')
        if word == 'stats':
            features = device.gatt_service and device.gatt_service.client_supported_features_characteristic
            emit(event='requests', bearers=counts,
                 client_features=bytes(features.value).hex() if features is not None else None)
        elif word == 'notify':
            await device.notify_subscribers(notified, bytes.fromhex(rest))
        else:
            emit(event='error', message=f'unknown command {word}')

    await commands(handle)


async def client(device, args):
    connection = await device.connect(Address(args.target, Address.RANDOM_DEVICE_ADDRESS))
    watch(connection, 'central')
    if args.pair:
        await connection.pair()
    try:
        bearers = await asyncio.wait_for(Client.connect_eatt(connection, count=args.bearers), 10)
    except Exception as error:
        emit(event='eatt-failed', error=f'{type(error).__name__}: {error}')
        return
    if not isinstance(bearers, list):
        bearers = [bearers]
    emit(event='eatt-open', count=len(bearers), cids=[b.bearer.source_cid for b in bearers],
         mtus=[b.bearer.peer_mtu for b in bearers])
    first = bearers[0]
    services = await first.discover_services([uuid16(SERVICE)])
    if not services:
        emit(event='error', message='service 0xEA70 not found')
        return
    characteristics = await first.discover_characteristics([], services[0])
    readable = [c for c in characteristics if c.properties & gatt.Characteristic.Properties.READ]

    async def read(index, characteristic):
        data = await bearers[index % len(bearers)].read_value(characteristic.handle)
        emit(event='read', uuid=str(characteristic.uuid), hex=bytes(data).hex())

    for _ in range(args.rounds):
        await asyncio.gather(*(read(i, c) for i, c in enumerate(readable)))
    await commands(lambda line: asyncio.sleep(0))


async def main():
    parser = argparse.ArgumentParser(description='A Bumble Enhanced ATT peer (see the module docstring).')
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--address', required=True)
    parser.add_argument('--duration', type=float, default=120.0)
    sub = parser.add_subparsers(dest='role', required=True)
    s = sub.add_parser('serve')
    s.add_argument('--values', type=int, default=24)
    s.add_argument('--no-eatt', action='store_true', help='a server without Enhanced ATT (no PSM 0x0027)')
    c = sub.add_parser('client')
    c.add_argument('--target', required=True)
    c.add_argument('--bearers', type=int, default=5)
    c.add_argument('--pair', action='store_true')
    c.add_argument('--rounds', type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    async with await open_transport(f'tcp-client:127.0.0.1:{args.port}') as (source, sink):
        device = make_device(args, source, sink, eatt=args.role == 'serve' and not args.no_eatt)
        await device.power_on()
        try:
            await asyncio.wait_for(serve(device, args) if args.role == 'serve' else client(device, args), args.duration)
        except asyncio.TimeoutError:
            pass
        except Exception as error:
            emit(event='error', message=f'{type(error).__name__}: {error}')
        emit(event='done')


if __name__ == '__main__':
    asyncio.run(main())
