#!/usr/bin/env python3
"""Bumble virtual LE controllers on one virtual radio, each an H4-over-TCP server on
127.0.0.1, for swift-att's integration tests.

    controllers.py --ports 9101,9102 [--duration 300] [--le-acl-length 27]

Prints "READY <port>=<address> ..." once every port listens, then runs until SIGTERM,
SIGINT (Ctrl-C), end of standard input when it is a pipe (the test that started it went
away), or --duration seconds if one is given (tests give one; by hand it runs until
stopped).
Each controller gets a distinct public address; hosts should still use random
addresses (BENCH.md quirk 2).
"""
import argparse
import asyncio
import logging
import os
import signal
import stat
import sys

from bumble.controller import Controller
from bumble.link import LocalLink
from bumble.transport import open_transport


async def serve(ports, le_acl_length):
    link = LocalLink()
    controllers, transports = [], []
    for index, port in enumerate(ports):
        transport = await open_transport(f'tcp-server:127.0.0.1:{port}')
        controller = Controller(
            f'swift-att-bench-{index}',
            host_source=transport.source,
            host_sink=transport.sink,
            link=link,
            public_address=f'F0:F0:F0:F0:{index >> 8:02X}:{(index & 0xFF) + 1:02X}',
        )
        if le_acl_length:
            controller.le_acl_data_packet_length = le_acl_length
        transports.append(transport)
        controllers.append(controller)
    return controllers, transports


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--ports', required=True, help='comma-separated TCP ports')
    parser.add_argument('--duration', type=float, default=None,
                        help='exit after this many seconds (default: run until stopped)')
    parser.add_argument('--le-acl-length', type=int, default=0,
                        help='LE ACL data packet length the controllers report (default: Bumble\'s 27)')
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    ports = [int(p) for p in args.ports.split(',') if p]
    controllers, transports = await serve(ports, args.le_acl_length)
    print('READY ' + ' '.join(f'{p}={c.public_address}' for p, c in zip(ports, controllers)), flush=True)

    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    # End of stdin, when it is a pipe: whoever started us has gone.
    if stat.S_ISFIFO(os.fstat(sys.stdin.fileno()).st_mode):
        loop.add_reader(sys.stdin.fileno(), lambda: sys.stdin.buffer.read1(4096) or stop.done() or stop.set_result(None))
    try:
        await asyncio.wait_for(stop, args.duration)
    except asyncio.TimeoutError:
        print(f'controllers: --duration {args.duration:g} s is over, stopping', file=sys.stderr, flush=True)
    for transport in transports:
        await transport.close()


if __name__ == '__main__':
    asyncio.run(main())
