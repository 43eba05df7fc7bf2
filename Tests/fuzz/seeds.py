#!/usr/bin/env python3
"""Cuts the fuzz targets' seed corpora out of Fixtures/.

    python3 Tests/fuzz/seeds.py --out .build-fuzz/seeds

One directory per target, one file per seed, named by content hash so re-running is
idempotent. Inputs are in each harness's own format (see the harness's doc comment):
plain PDUs and packets for the decoders, and for the stream targets the records that
FuzzInput.record() reads (a length octet, 0xFF then a 16-bit length for long ones).
Sources: Fixtures/att and Fixtures/advertising vector tables, every btsnoop
capture in Fixtures/captures and Fixtures/hci (real Bumble-to-Bumble traffic), and the
SMP golden vectors of Tests/SwiftATTSMPTests/SMPVectors.swift.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def fixture(*parts):
    return os.path.join(ROOT, "Fixtures", *parts)


def hex_vectors(path):
    with open(path) as f:
        return [bytes.fromhex(v["hex"]) for v in json.load(f)]


def btsnoop_records(path):
    """(direction 'sent'/'received', H4 type, packet without indicator) per record."""
    data = open(path, "rb").read()
    assert data[:8] == b"btsnoop\0"
    datalink = struct.unpack(">I", data[12:16])[0]
    offset, out = 16, []
    while offset + 24 <= len(data):
        _, included, flags, _, _ = struct.unpack(">IIIIQ", data[offset:offset + 24])
        packet = data[offset + 24:offset + 24 + included]
        offset += 24 + included
        direction = "received" if flags & 1 else "sent"
        if datalink == 1002:
            out.append((direction, packet[0], packet[1:]))
        else:
            kind = (1 if direction == "sent" else 4) if flags & 2 else 2
            out.append((direction, kind, packet))
    return out


def captures():
    return sorted(glob.glob(fixture("captures", "*.btsnoop")) + glob.glob(fixture("hci", "*.btsnoop")))


def l2cap_frames(records):
    """(direction, handle, cid, payload) for every L2CAP frame, fragments joined."""
    partial, out = {}, []
    for direction, kind, packet in records:
        if kind != 2 or len(packet) < 4:
            continue
        header = struct.unpack("<H", packet[:2])[0]
        handle, boundary = header & 0x0FFF, (header >> 12) & 3
        data = packet[4:]
        key = (direction, handle)
        if boundary != 1:
            partial[key] = bytearray(data)
        elif key in partial:
            partial[key] += data
        else:
            continue
        buf = partial[key]
        if len(buf) >= 4 and len(buf) - 4 >= struct.unpack("<H", buf[:2])[0]:
            length, cid = struct.unpack("<HH", buf[:4])
            out.append((direction, handle, cid, bytes(buf[4:4 + length])))
            del partial[key]
    return out


def smp_vectors():
    """The octets of every SMPVector(name, hex, ...) in the SMP codec's golden table."""
    path = os.path.join(ROOT, "Tests", "SwiftATTSMPTests", "SMPVectors.swift")
    source = open(path).read()
    vectors = []
    for match in re.finditer(r'SMPVector\(\s*"(?:[^"\\]|\\.)*",\s*("[^"]*"(?:\s*\+\s*"[^"]*")*)', source):
        literal = "".join(re.findall(r'"([^"]*)"', match.group(1)))
        vectors.append(bytes.fromhex(literal.replace(" ", "")))
    return vectors


def record(payload):
    """One FuzzInput record."""
    if len(payload) < 0xFF:
        return bytes([len(payload)]) + payload
    return b"\xff" + struct.pack("<H", len(payload)) + payload


def acl(handle, boundary, data):
    return struct.pack("<HH", handle | boundary << 12, len(data)) + data


def build(out):
    seeds = {}

    def add(target, data):
        seeds.setdefault(target, set()).add(bytes(data))

    all_records = [(path, btsnoop_records(path)) for path in captures()]
    frames = [f for _, records in all_records for f in l2cap_frames(records)]
    att = [f for f in frames if f[2] == 0x0004]

    # att: the vector tables and every ATT PDU on the wire.
    for v in hex_vectors(fixture("att", "vectors.json")) + hex_vectors(fixture("att", "malformed.json")):
        add("att", v)
    for _, _, _, pdu in att:
        add("att", pdu)

    # hci-event, hci-acl: every event and ACL packet captured.
    for _, records in all_records:
        for _, kind, packet in records:
            if kind == 4:
                add("hci-event", packet)
            elif kind == 2:
                add("hci-acl", packet)

    # h4: each capture as the H4 byte stream a UART carries; the first byte picks chunking.
    for _, records in all_records:
        stream = b"".join(bytes([kind]) + packet for _, kind, packet in records)
        for start in range(0, min(len(stream), 12000), 3000):
            add("h4", bytes([start // 3000]) + stream[start:start + 3000])

    # advertising: the vector tables, and the AD payloads inside captured commands.
    for v in hex_vectors(fixture("advertising", "vectors.json")) + hex_vectors(fixture("advertising", "malformed.json")):
        add("advertising", v)

    # btsnoop: each capture whole (run.sh cuts to -max_len), and its first few records.
    for path, _ in all_records:
        data = open(path, "rb").read()
        add("btsnoop", data)
        add("btsnoop", data[:16 + 5 * 40])

    # l2cap: control octet (low bits: handle choice, bits 2-3: boundary) + ACL data records.
    # Each captured frame whole, and re-cut into 27-byte fragments interleaved across two
    # handles, as a controller with small buffers would deliver them.
    for _, records in all_records:
        stream = b""
        for _, kind, packet in records:
            if kind == 2 and len(packet) >= 4:
                header = struct.unpack("<H", packet[:2])[0]
                stream += bytes([((header >> 12) & 3) << 2]) + record(packet[4:])
        if stream:
            add("l2cap", b"\x00" + stream[:3000])
    for i in range(0, len(frames) - 1, 2):
        a, b = frames[i], frames[i + 1]
        stream = b""
        wires = [struct.pack("<HH", len(f[3]), f[2]) + f[3] for f in (a, b)]
        pieces = [[w[j:j + 27] for j in range(0, len(w), 27)] for w in wires]
        for j in range(max(len(p) for p in pieces)):
            for h, p in enumerate(pieces):
                if j < len(p):
                    stream += bytes([h | (0 if j == 0 else 1) << 2]) + record(p[j])
        add("l2cap", b"\x00" + stream)

    # le-signaling: first byte bit 0 = central; then one signaling (or SMP) frame.
    for _, _, cid, payload in frames:
        if cid in (0x0005, 0x0006):
            add("le-signaling", b"\x01" + payload)
            add("le-signaling", b"\x00" + payload)
    for frame in [
        bytes.fromhex("12010800" "0600" "0c00" "0000" "c800"),  # Connection Parameter Update Request
        bytes.fromhex("12020800" "0600" "0600" "f401" "0a00"),  # latency too high
        bytes.fromhex("13010200" "0000"),                       # Connection Parameter Update Response
        bytes.fromhex("01030200" "0000"),                       # Command Reject
        bytes.fromhex("14040a00" "2500" "4000" "1700" "1700" "0a00"),  # LE Credit Based Connection Request
        bytes.fromhex("15060a00" "4100" "0002" "fb00" "0800" "0000"),  # LE Credit Based Connection Response
        bytes.fromhex("01020400" "0100" "1700"),                # Command Reject: signaling MTU exceeded
        bytes.fromhex("01030600" "0200" "4000" "4100"),         # Command Reject: invalid CID in request
        bytes.fromhex("06040400" "4100" "4000"),                # Disconnection Request
        bytes.fromhex("07040400" "4100" "4000"),                # Disconnection Response
        bytes.fromhex("16080400" "4000" "0500"),                # Flow Control Credit Indication
        bytes.fromhex("17091200" "2700" "0502" "f700" "0300" "4000" "4100" "4200" "4300" "4400"),  # Credit Based Connection Request
        bytes.fromhex("18091200" "4000" "4000" "0100" "0400" "5000" "5100" "0000" "0000" "0000"),  # Credit Based Connection Response
        bytes.fromhex("180c0800" "0000" "0000" "0000" "0c00"),  # Credit Based Connection Response, no CIDs
        bytes.fromhex("190a0800" "0004" "0002" "5000" "5100"),  # Credit Based Reconfigure Request
        bytes.fromhex("1a0a0200" "0300"),                       # Credit Based Reconfigure Response
        bytes.fromhex("0101071000" "00" "0d"),                  # SMP Pairing Request (to the SMP responder)
    ]:
        add("le-signaling", b"\x01" + frame)
        add("le-signaling", b"\x00" + frame)

    # gatt-server: control octet (connection, action) + ATT PDU records, as the central
    # side of each capture sent them (requests to the peripheral's server).
    for path, records in all_records:
        central = "central" in os.path.basename(path)
        requests = [p for d, _, cid, p in l2cap_frames(records)
                    if cid == 4 and (d == "sent") == central and p and p[0] not in (0x1B, 0x1D, 0x52)]
        for start in range(0, len(requests), 40):
            stream = b"".join(b"\x00" + record(p) for p in requests[start:start + 40])
            if stream:
                add("gatt-server", stream)
    for chunk in [
        # MTU 517, long read, prepare/execute, protected read, write to a read-only value.
        ["020502", "0a0300", "0c03001600", "16030000000102030405", "160300060006070809", "1801",
         "0a0500", "120500aa", "1003000400ff0028", "08010010ff0328"],
    ]:
        add("gatt-server", b"".join(b"\x00" + record(bytes.fromhex(p)) for p in chunk))

    # gatt-client: procedure choice, parameters, then per step a mode octet (0: the
    # in-repo server's true answer) and, for other modes, a record replacing it.
    for procedure in range(16):
        add("gatt-client", bytes([procedure, 0x03, 0x00, 0x00]) + b"\x00" * 64)
        add("gatt-client", bytes([procedure, 0x10, 0x00, 0x01]) + b"\x00" * 64)

    # smp (see SMPFuzz.swift): header (bit 0: man in the middle; bit 1: responder; bit 2:
    # public initiator), four configuration octets per session, then the script.
    # With a man in the middle an empty script is a whole honest pairing, so a grid of
    # configuration pairs reaches every association model, both SC and legacy, OOB and
    # key distribution from the first execution.
    def configuration(io=3, sc=0, mitm=False, bonding=True, confirms=False, sizes=0, keys=0, extras=0):
        return bytes([io | sc << 3 | mitm << 5 | (not bonding) << 6 | confirms << 7, sizes, keys, extras])

    for io_i in range(5):
        for io_r in range(5):
            for sc in range(3):
                for mitm in (False, True):
                    add("smp", b"\x01" + configuration(io_i, sc, mitm) + configuration(io_r, sc, mitm))
    for extras_i, extras_r in [(0x08, 0x10), (0x10, 0x08), (0x18, 0x18), (0x18, 0x38), (0x07, 0x07), (0x05, 0x03)]:
        add("smp", b"\x01" + configuration(extras=extras_i) + configuration(extras=extras_r))
        add("smp", b"\x05" + configuration(sc=2, extras=extras_i) + configuration(sc=2, extras=extras_r))
    for sizes_i, sizes_r in [(0x09, 0x00), (0x00, 0x39), (0xF0, 0x00), (0x05, 0x65)]:
        add("smp", b"\x01" + configuration(sc=2, sizes=sizes_i) + configuration(sc=2, sizes=sizes_r))
        add("smp", b"\x01" + configuration(sizes=sizes_i) + configuration(sc=1, sizes=sizes_r))
    add("smp", b"\x01" + configuration(keys=0x07) + configuration(bonding=False))
    add("smp", b"\x01" + configuration() + configuration(confirms=True))
    add("smp", b"\x09" + configuration() + configuration())  # both hold the debug key: a reflection
    # One session against the captured peer: the responder gets what Bumble's central
    # sent (op 0: a record), the initiator starts (op 2) and gets what its peripheral sent.
    central = [r for path, r in all_records if os.path.basename(path) == "scan-pair-central.btsnoop"]
    for records in central:
        smp = [(d, p) for d, _, cid, p in l2cap_frames(records) if cid == 0x0006]
        by_central = b"".join(b"\x00" + record(p) for d, p in smp if d == "sent")
        by_peripheral = b"".join(b"\x00" + record(p) for d, p in smp if d == "received")
        add("smp", b"\x02" + configuration() + by_central)
        add("smp", b"\x00" + configuration() + b"\x02" + by_peripheral)
    # Every golden vector as the first PDU each role receives, and after a valid Pairing
    # Request (the responder) or Response (the initiator), where phase 2's checks judge it.
    request = bytes.fromhex("01 03 00 0d 10 03 03".replace(" ", ""))
    response = bytes.fromhex("02 03 00 0d 10 01 03".replace(" ", ""))
    for vector in smp_vectors():
        add("smp", b"\x02" + configuration() + b"\x00" + record(vector))
        add("smp", b"\x02" + configuration() + b"\x00" + record(request) + b"\x00" + record(vector))
        add("smp", b"\x00" + configuration() + b"\x02\x00" + record(response) + b"\x00" + record(vector))

    # l2cap-coc: MTU/MPS choice, window choice, the peer's credits, the peer's MTU/MPS;
    # then steps (CreditBasedChannelFuzz.swift). A 30-octet SDU in two K-frames, the
    # peer's SDUs through a small window with reads and grants, sends drained.
    golden = bytes([0x1E, 0x00]) + bytes(range(21))
    add("l2cap-coc", b"\x0a\x03\x0a\x00\x0a" + b"\x00" + record(golden) + b"\x00" + record(bytes(range(21, 30)))
        + b"\x02\x05")
    peer_sdus = b"".join(b"\x06" + record(bytes([i]) * (i * 7)) + b"\x02\x05" for i in range(12))
    add("l2cap-coc", b"\x2c\x01\x04\x00\x1b" + peer_sdus)
    add("l2cap-coc", b"\x12\x0b\x02\x00\x02" + b"\x03" + record(bytes(90)) + b"\xfc\x01\x05\x00\xfc\x05\x07")
    # Reconfiguration (step 7, then 4: the peer's request, 5: this host's, 6: the peer
    # takes this host's sizes, 7: its answer; a sizes octet: MTU choice low, MPS high).
    # The peer doubles its MTU and goes to MPS 64 with an SDU half sent, then asks for a
    # smaller MTU; this host doubles its MTU, the peer sends by it, accepts; then again,
    # refused.
    add("l2cap-coc", b"\x1b\x0a\x0a\x00\x1b" + b"\x03" + record(bytes(range(100))) + b"\x0c"
        + b"\x27\x74" + b"\xfc" + b"\x03" + record(bytes(150)) + b"\xfc\x27\x01")
    add("l2cap-coc", b"\x1b\x0a\x0a\x00\x1b" + b"\x2f\x04\x37\x06" + record(bytes(range(150)))
        + b"\x02\x05\x3f" + b"\x2f\x04\x06" + record(bytes(60)) + b"\x7f\x02\x05")

    for target, datas in seeds.items():
        directory = os.path.join(out, target)
        os.makedirs(directory, exist_ok=True)
        for data in datas:
            name = hashlib.sha1(data).hexdigest()
            path = os.path.join(directory, name)
            if not os.path.exists(path):
                with open(path, "wb") as f:
                    f.write(data)
        print(f"{target}: {len(datas)} seeds")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    build(parser.parse_args().out)
