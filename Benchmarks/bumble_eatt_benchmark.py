#!/usr/bin/env python3
"""Bumble's GATT client over one ATT bearer and over Enhanced ATT bearers, host to host:
the peer figure for swift-att's Enhanced ATT benchmark (Benchmarks/HostBenchmarks/EATTBench.swift).

    Tests/bench/.venv/bin/python Benchmarks/bumble_eatt_benchmark.py --bearers 1 --bearers 5 --units 80

One asyncio process, two Bumble hosts: over Bumble's LocalLink (64 LE ACL buffers of 251
octets, as swift-att's loopback controllers), or with two --transport options over two
of Bumble's virtual controllers reached by TCP (Tests/bench/controllers.py). The
peripheral serves --services services of --characteristics characteristics each (service
0xEB10 + s, characteristic 0xEC00 + 16 s + c, a 16-octet value, a User Description
descriptor, and a Client Characteristic Configuration descriptor on every other one);
its GATT server takes Enhanced ATT bearers (eatt_enabled). The central pairs (Just
Works, so both cases run on an encrypted link), sets ATT_MTU 517 on the unenhanced
bearer, discovers the services, then per case:

  --bearers 1   every task's procedures go to connection.gatt_client, the unenhanced
                bearer, one request at a time (Bumble's client holds a semaphore);
  --bearers N   N Enhanced bearers (Client.connect_eatt, MTU 517, MPS 247, 16 credits,
                as swift-att's defaults), task k on bearer k mod N.

--tasks tasks take --units units of work from one queue, a unit being one service:
Discover All Characteristics of it, then Discover All Characteristic Descriptors and
Read Characteristic Value of each characteristic, one procedure after the other
(1 + 2 × characteristics procedures). Prints one JSON line per case:

    {"bearers": 5, "tasks": 5, "procedures": 1360, "requests": 1440, "enhanced": 1440, "wall": 0.81, "cpu": 0.80}

requests counts the ATT requests the peripheral's server received in the timed part,
enhanced those of them that came on an Enhanced bearer;
wall and cpu (time.process_time: both hosts and, over the LocalLink, the controllers)
cover the timed units only, after one untimed round over every service.

Bumble's EATT client starts each bearer at ATT_MTU 23 whatever the channel's MTU
(BENCH.md); this script sets it to the smaller of the two channel MTUs (Core 5.4 Vol 3
Part F §3.2.8). Its server sizes responses by its own bearer's MTU, so with these short
values and the server's MTU right the round trips are the same either way.
"""
import argparse
import asyncio
import json
import logging
import time

from bumble import att, gatt, l2cap
from bumble.controller import Controller
from bumble.device import Device, DeviceConfiguration
from bumble.gatt_client import Client
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport import open_transport
from bumble.transport.common import AsyncPipeSink

PERIPHERAL = 'C0:5A:17:00:EA:01'
CENTRAL = 'C0:5A:17:00:EA:02'
USER_DESCRIPTION = gatt.UUID.from_16_bits(0x2901)


def service_uuid(s):
    return gatt.UUID.from_16_bits(0xEB10 + s)


def characteristic_uuid(s, c):
    return gatt.UUID.from_16_bits(0xEC00 + 16 * s + c)


def build_services(services, characteristics):
    built = []
    for s in range(services):
        members = []
        for c in range(characteristics):
            properties = gatt.Characteristic.Properties.READ
            if c % 2 == 0:
                properties |= gatt.Characteristic.Properties.NOTIFY
            description = gatt.Descriptor(USER_DESCRIPTION, gatt.Descriptor.READABLE, f'service {s} value {c}'.encode())
            members.append(gatt.Characteristic(characteristic_uuid(s, c), properties, gatt.Characteristic.READABLE,
                                               bytes((s * 16 + c + j) & 0xFF for j in range(16)),
                                               descriptors=[description]))
        built.append(gatt.Service(service_uuid(s), members))
    return built


def local_device(link, name, index, address, eatt):
    controller = Controller(f'C-{name}', link=link, public_address=f'F0:F0:F0:F0:EA:{index:02X}')
    controller.le_acl_data_packet_length = 251
    controller.total_num_le_acl_data_packets = 64
    config = DeviceConfiguration(name=name, address=Address(address, Address.RANDOM_DEVICE_ADDRESS), eatt_enabled=eatt)
    return Device(config=config, host=Host(controller, AsyncPipeSink(controller)))


def tcp_device(transport, name, address, eatt):
    config = DeviceConfiguration(name=name, address=Address(address, Address.RANDOM_DEVICE_ADDRESS), eatt_enabled=eatt)
    return Device(config=config, host=Host(controller_source=transport.source, controller_sink=transport.sink))


async def run_units(clients, services, characteristics, tasks, units):
    """tasks tasks, task k on clients[k % len(clients)], take units from one queue."""
    next_unit = [0]
    procedures = [0]

    async def worker(client):
        while next_unit[0] < units:
            service = services[next_unit[0] % len(services)]
            next_unit[0] += 1
            found = await client.discover_characteristics([], service)
            assert len(found) == characteristics, f'{len(found)} characteristics'
            for characteristic in found:
                await client.discover_descriptors(characteristic)
                await client.read_value(characteristic.handle)
            procedures[0] += 1 + 2 * len(found)

    await asyncio.gather(*(worker(clients[k % len(clients)]) for k in range(tasks)))
    return procedures[0]


async def main():
    parser = argparse.ArgumentParser(description='Bumble GATT over one bearer and over EATT (see the module docstring).')
    parser.add_argument('--bearers', type=int, action='append', default=[], help='1 = the unenhanced bearer alone')
    parser.add_argument('--units', type=int, default=80, help='services worked through per case (timed)')
    parser.add_argument('--tasks', type=int, default=5)
    parser.add_argument('--services', type=int, default=8)
    parser.add_argument('--characteristics', type=int, default=8)
    parser.add_argument('--transport', action='append', default=[],
                        help='two tcp-client:127.0.0.1:PORT transports (peripheral, central); default: LocalLink')
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)

    opened = []
    if args.transport:
        opened = [await open_transport(spec) for spec in args.transport]
        peripheral = tcp_device(opened[0], 'peripheral', PERIPHERAL, eatt=True)
        central = tcp_device(opened[1], 'central', CENTRAL, eatt=False)
    else:
        link = LocalLink()
        peripheral = local_device(link, 'peripheral', 1, PERIPHERAL, eatt=True)
        central = local_device(link, 'central', 2, CENTRAL, eatt=False)
    peripheral.add_services(build_services(args.services, args.characteristics))

    requests = [0, 0]
    handle_pdu = peripheral.gatt_server.on_gatt_pdu

    def counted(bearer, pdu):
        if pdu.op_code in att.ATT_REQUESTS:
            requests[0] += 1
            requests[1] += att.is_enhanced_bearer(bearer)
        handle_pdu(bearer, pdu)

    peripheral.gatt_server.on_gatt_pdu = counted
    await peripheral.power_on()
    await central.power_on()
    await peripheral.start_advertising(advertising_interval_min=20, advertising_interval_max=20)
    connection = await central.connect(Address(PERIPHERAL, Address.RANDOM_DEVICE_ADDRESS))
    await asyncio.wait_for(connection.pair(), 10)
    await connection.gatt_client.request_mtu(517)
    services = [s for s in await connection.gatt_client.discover_services()
                if s.uuid in {service_uuid(i) for i in range(args.services)}]
    assert len(services) == args.services, f'{len(services)} services found'

    for bearers in args.bearers or [1, 5]:
        if bearers == 1:
            clients = [connection.gatt_client]
        else:
            spec = l2cap.LeCreditBasedChannelSpec(psm=att.EATT_PSM, mtu=517, mps=247, max_credits=16)
            # Bumble waits for ever on a refusal (BENCH.md): bound it.
            clients = await asyncio.wait_for(Client.connect_eatt(connection, spec=spec, count=bearers), 10)
            clients = clients if isinstance(clients, list) else [clients]
            for client in clients:
                client.mtu = min(client.bearer.mtu, client.bearer.peer_mtu)
        await run_units(clients, services, args.characteristics, args.tasks, len(services))
        requests[:] = [0, 0]
        start = (time.perf_counter(), time.process_time())
        procedures = await run_units(clients, services, args.characteristics, args.tasks, args.units)
        wall = time.perf_counter() - start[0]
        cpu = time.process_time() - start[1]
        print(json.dumps({'bearers': bearers, 'tasks': args.tasks, 'procedures': procedures, 'requests': requests[0],
                          'enhanced': requests[1],
                          'wall': round(wall, 4), 'cpu': round(cpu, 4)}), flush=True)
        if bearers > 1:
            for client in clients:
                await client.bearer.disconnect()

    await connection.disconnect()
    for transport in opened:
        await transport.close()


if __name__ == '__main__':
    asyncio.run(main())
