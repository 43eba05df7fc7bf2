#!/usr/bin/env python3
"""Bumble's Security Manager pairing again and again: the peer figures for swift-att's
pairing benchmark (Benchmarks/HostBenchmarks/PairingReport.swift).

    bumble_pairing_bench.py local --count 100 [--passkey-count 50] [--warmup 10] [--rounds 1]
    bumble_pairing_bench.py --port P --address ADDR [--passkey N] peripheral
    bumble_pairing_bench.py --port P --address ADDR [--passkey N] central --target ADDR

Every pairing is LE Secure Connections with bonding, on one link that stays up: Just
Works (both sides NoInputNoOutput), or with --passkey Passkey Entry with both sides
KeyboardOnly typing the same fixed passkey. Each side distributes its identity (IRK and
static random address) and asks for the other's; no signing key, so the exchange is the
one swift-att's hosts make in the same benchmark. Keys go to an in-memory key store.

local: two Bumble hosts in one asyncio process over Bumble's LocalLink (the shape of
Benchmarks/bumble_host_benchmark.py), Just Works, then (--passkey-count) Passkey Entry
on a fresh link. Prints one line per round:

    RESULT mode=local passkey=0 pairings=100 wall=0.279 cpu=0.268 median=0.00271

wall and cpu (time.process_time: both hosts and both controllers, one process) cover
the round's pairings, from the first Pairing Request to the last side's completion;
median is the median of the pairings' own wall times. One process cannot split its CPU
time by host (asyncio runs both on one thread), so the per-side figures come from the
other two modes.

peripheral / central: one Bumble host per process on a controllers.py controller (H4
over TCP), so that each process's CPU time is one side's. They report JSON lines on
stdout and read commands on stdin, as bumble_peer.py does: "ready" (peripheral,
advertising) and "connected" (central); "pair" (central) pairs once and reports
{"event": "paired", "start", "end", "cpu"}; the peripheral reports {"event": "paired",
"at", "cpu"} when its side is done; "cpu" makes either report {"event": "cpu", "cpu"}.
Times are time.monotonic() (CLOCK_MONOTONIC, the same clock in every process on the
machine) and time.process_time(), in seconds.

Bumble 0.0.236 ends an SMP session only when the link drops: a second Pairing Request
on the same link is handed to the finished session, which never completes again. The
benchmark ends a finished session itself before the next pairing starts (with the
session's own teardown, as a disconnection would) so the link can be paired again.
"""
import argparse
import asyncio
import json
import logging
import statistics
import sys
import time

from bumble import smp
from bumble.controller import Controller
from bumble.device import Device
from bumble.hci import Address
from bumble.host import Host
from bumble.keys import MemoryKeyStore
from bumble.link import LocalLink
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport
from bumble.transport.common import AsyncPipeSink

# Each side's IRK (any non-zero value: BENCH.md, "Bumble as the pairing peer").
IRK = bytes(range(0x10, 0x20))
IDENTITY_ONLY = PairingDelegate.KeyDistribution.DISTRIBUTE_IDENTITY_KEY


class FixedPasskey(PairingDelegate):
    """No user: Just Works, or both sides type the same passkey."""

    def __init__(self, passkey):
        io = PairingDelegate.NO_OUTPUT_NO_INPUT if passkey is None else PairingDelegate.KEYBOARD_INPUT_ONLY
        super().__init__(io_capability=io, local_initiator_key_distribution=IDENTITY_ONLY,
                         local_responder_key_distribution=IDENTITY_ONLY)
        self.passkey = passkey

    async def accept(self):
        return True

    async def get_number(self):
        return self.passkey


def set_up_pairing(device, passkey):
    device.keystore = MemoryKeyStore()
    device.irk = IRK
    device.pairing_config_factory = lambda connection: PairingConfig(
        sc=True, mitm=passkey is not None, bonding=True, delegate=FixedPasskey(passkey),
        identity_address_type=PairingConfig.AddressType.RANDOM)
    pair_again_on_one_link(device.smp_manager)


def pair_again_on_one_link(manager):
    """Ends a finished session before a new pairing on its link (see the module's doc)."""
    def end_finished(connection):
        session = manager.sessions.get(connection.handle)
        if session is not None and session.completed:
            session.on_disconnection(0)

    receive, pair = manager.on_smp_pdu, manager.pair

    def on_smp_pdu(connection, pdu):
        if pdu and pdu[0] == smp.CommandCode.PAIRING_REQUEST:
            end_finished(connection)
        receive(connection, pdu)

    async def pair_anew(connection):
        end_finished(connection)
        return await pair(connection)

    manager.on_smp_pdu = on_smp_pdu
    manager.pair = pair_anew


def emit(**fields):
    print(json.dumps(fields), flush=True)


# MARK: local


def local_device(link, name, index, address, passkey):
    controller = Controller(f'C-{name}', link=link, public_address=f'F0:F0:F0:F0:02:{index:02X}')
    device = Device(name=name, address=Address(address, Address.RANDOM_DEVICE_ADDRESS),
                    host=Host(controller, AsyncPipeSink(controller)))
    set_up_pairing(device, passkey)
    return device


async def local_rounds(passkey, count, warmup, rounds):
    """One method's rounds on a fresh LocalLink; prints a RESULT line per round."""
    link = LocalLink()
    central = local_device(link, 'central', 1, 'C0:5A:17:00:02:01', passkey)
    peripheral = local_device(link, 'peripheral', 2, 'C0:5A:17:00:02:02', passkey)
    await central.power_on()
    await peripheral.power_on()

    peripheral_done = asyncio.Queue()
    peripheral.on('connection', lambda connection: connection.on('pairing', lambda _keys: peripheral_done.put_nowait(None)))
    await peripheral.start_advertising(advertising_interval_min=20, advertising_interval_max=20)
    connection = await central.connect(peripheral.random_address)

    async def pair_once():
        start = time.perf_counter()
        await connection.pair()
        await asyncio.wait_for(peripheral_done.get(), 10)
        return time.perf_counter() - start

    for _ in range(warmup):
        await pair_once()
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        each = [await pair_once() for _ in range(count)]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f'RESULT mode=local passkey={int(passkey is not None)} pairings={count} '
              f'wall={wall:.6f} cpu={cpu:.6f} median={statistics.median(each):.6f}', flush=True)
    await connection.disconnect()


async def local(args):
    await local_rounds(None, args.count, args.warmup, args.rounds)
    if args.passkey_count:
        await local_rounds(args.passkey if args.passkey is not None else 123456, args.passkey_count,
                           max(1, args.warmup // 2), args.rounds)


# MARK: one side per process


async def commands(handlers):
    """Runs the handler named by each stdin line; returns at "quit" or end of input."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    handlers = {'cpu': lambda: emit(event='cpu', cpu=time.process_time()), **handlers}
    while line := await reader.readline():
        word = line.decode().strip()
        if word == 'quit':
            return
        if word not in handlers:
            emit(event='error', message=f'unknown command {word!r}')
            continue
        result = handlers[word]()
        if asyncio.iscoroutine(result):
            await result


async def peripheral(device, args):
    def on_connection(connection):
        connection.on('pairing', lambda _keys: emit(event='paired', at=time.monotonic(), cpu=time.process_time()))
        connection.on('pairing_failure', lambda reason: emit(event='pairing-failure', reason=int(reason)))
        emit(event='connected', peer=str(connection.peer_address).split('/')[0])

    device.on('connection', on_connection)
    await device.start_advertising(advertising_interval_min=20, advertising_interval_max=20)
    emit(event='ready', address=str(device.random_address).split('/')[0])
    await commands({})


async def central(device, args):
    connection = await device.connect(Address(args.target, Address.RANDOM_DEVICE_ADDRESS), timeout=15)
    emit(event='connected', peer=args.target)

    async def pair():
        start = time.monotonic()
        try:
            await connection.pair()
        except Exception as error:
            emit(event='pairing-failed', error=type(error).__name__, message=str(error))
            return
        emit(event='paired', start=start, end=time.monotonic(), cpu=time.process_time())

    await commands({'pair': pair})


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, help="a controllers.py controller's TCP port (peripheral, central)")
    parser.add_argument('--address', help='static random address for this host (peripheral, central)')
    parser.add_argument('--passkey', type=int, help='Passkey Entry, both sides typing this passkey')
    parser.add_argument('--duration', type=float, default=300.0)
    sub = parser.add_subparsers(dest='role', required=True)
    l = sub.add_parser('local')
    l.add_argument('--count', type=int, default=50, help='Just Works pairings a round')
    l.add_argument('--passkey-count', type=int, default=0,
                   help='then Passkey Entry pairings a round (with --passkey, or 123456)')
    l.add_argument('--warmup', type=int, default=5)
    l.add_argument('--rounds', type=int, default=1, help='rounds of --count pairings, a RESULT line each')
    sub.add_parser('peripheral')
    c = sub.add_parser('central')
    c.add_argument('--target', required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)

    if args.role == 'local':
        await local(args)
        return
    async with await open_transport(f'tcp-client:127.0.0.1:{args.port}') as (source, sink):
        device = Device.with_hci(f'bumble-{args.role}', Address(args.address, Address.RANDOM_DEVICE_ADDRESS), source, sink)
        set_up_pairing(device, args.passkey)
        await device.power_on()
        try:
            await asyncio.wait_for({'peripheral': peripheral, 'central': central}[args.role](device, args), args.duration)
        except asyncio.TimeoutError:
            pass
        emit(event='done')


if __name__ == '__main__':
    asyncio.run(main())
