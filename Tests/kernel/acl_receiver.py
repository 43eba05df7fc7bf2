#!/usr/bin/env python3
"""The receiving end of the kernel bench's raw ACL pump (hci_baseline.c `pump`): a bare
HCI client on one of Bumble's controllers (H4 over TCP), no host stack. It connects to
the pump's advertising address and counts the ACL frames that arrive, timing them from
the first to the last as transfer-central times notifications, so the two rates are
measured the same way on the same path.

    acl_receiver.py --port 9101 --target C0:5A:17:00:0F:01 --count 1000

Prints one JSON line: {"event": "received", "packets": N, "seconds": S, "rate": R}, or
{"event": "failed", "reason": ...}.
"""
import argparse
import json
import socket
import struct
import time


class H4:
    def __init__(self, port):
        self.socket = socket.create_connection(('127.0.0.1', port))
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b''

    def command(self, opcode, parameters=b''):
        self.socket.sendall(bytes([0x01, opcode & 0xFF, opcode >> 8, len(parameters)]) + parameters)

    def packet(self, deadline):
        """The next H4 packet (indicator first), or None at the deadline."""
        while True:
            if len(self.buffer) >= 3:
                kind = self.buffer[0]
                if kind == 0x04:
                    length = 3 + self.buffer[2]
                elif kind == 0x02 and len(self.buffer) >= 5:
                    length = 5 + struct.unpack_from('<H', self.buffer, 3)[0]
                else:
                    length = None
                if length and len(self.buffer) >= length:
                    packet, self.buffer = self.buffer[:length], self.buffer[length:]
                    return packet
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.socket.settimeout(remaining)
            try:
                data = self.socket.recv(65536)
            except socket.timeout:
                return None
            if not data:
                raise ConnectionError('the controller closed the connection')
            self.buffer += data

    def complete(self, opcode, timeout=5.0):
        deadline = time.monotonic() + timeout
        while (packet := self.packet(deadline)) is not None:
            if packet[:2] == b'\x04\x0e' and struct.unpack_from('<H', packet, 4)[0] == opcode:
                return packet[6:]
            if packet[:2] == b'\x04\x0f' and struct.unpack_from('<H', packet, 5)[0] == opcode:
                return packet[3:4]
        raise TimeoutError(f'no answer to command 0x{opcode:04x}')


def address_bytes(text):
    return bytes(int(part, 16) for part in reversed(text.split(':')))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--target', required=True, help="the pump's static random address")
    parser.add_argument('--count', type=int, required=True)
    parser.add_argument('--timeout', type=float, default=120.0)
    args = parser.parse_args()
    try:
        hci = H4(args.port)
        hci.command(0x0C03)
        hci.complete(0x0C03)
        # A random address of its own: Bumble drops ACL on links made with public ones.
        hci.command(0x2005, address_bytes('C0:5A:17:00:0F:02'))
        hci.complete(0x2005)
        hci.command(0x200D, struct.pack('<HHBB6sBHHHHHH', 0x60, 0x60, 0, 1, address_bytes(args.target), 1,
                                        24, 40, 0, 400, 0, 0))
        deadline = time.monotonic() + args.timeout
        connected = False
        received, first, last = 0, None, None
        while received < args.count:
            packet = hci.packet(deadline)
            if packet is None:
                raise TimeoutError(f'{received} of {args.count} packets before the timeout'
                                   + ('' if connected else ' (never connected)'))
            if packet[:2] == b'\x04\x3e' and packet[3] in (0x01, 0x0A) and packet[4] == 0:
                connected = True
            elif packet[0] == 0x02 and (packet[2] >> 4) & 0x3 != 0x1:   # a frame's start, not a continuation
                now = time.monotonic()
                first = first or now
                last = now
                received += 1
        seconds = last - first
        rate = (received - 1) / seconds if seconds > 0 else float('inf')
        print(json.dumps({'event': 'received', 'packets': received, 'seconds': round(seconds, 4), 'rate': round(rate, 1)}),
              flush=True)
    except Exception as error:
        print(json.dumps({'event': 'failed', 'reason': str(error) or type(error).__name__}), flush=True)


if __name__ == '__main__':
    main()
