#!/usr/bin/env python3
"""Turn tshark's dissection of every ATT PDU in Fixtures/captures/*.btsnoop into
<name>.att.json next to each capture: an independent oracle for an ATT decoder.

    python3 Fixtures/captures/dissect.py [--check] [capture.btsnoop ...]

Needs `tshark` on PATH (Tests/bench/setup.sh --tshark). Plain python3, no venv.
--check: do not write, fail if an existing .att.json differs from what tshark says now.

Record per ATT PDU (after L2CAP reassembly; `frame` is where the PDU completes):
  {"frame": int, "direction": "sent"|"received", "pdu": hex, "opcode": int, "fields": {...}}
`sent` = host -> controller, from the btsnoop/H4 direction flag.

All field values come from tshark's dissection (`tshark -T json -x`), and only from
fields that tshark read off the wire (those that have a `<field>_raw` byte span):
tshark also adds generated fields (e.g. the handle of the request in a Read Response,
the UUID it remembers for a handle) that are not in the PDU, and those are dropped.
Exceptions, computed from tshark's own byte spans:
  * `value`: tshark dissects values of known UUIDs into typed fields (Body Sensor
    Location, CCCD bits, Device Name, ...) instead of btatt.value. Then `value` is the
    PDU bytes from the end of the last header field tshark dissected (opcode, handle,
    offset) to the end of the PDU. When tshark gives btatt.value, that is used as is.
  * `attributeData[].value`: the entry's bytes (tshark's attribute_data span) minus its
    leading handle (Read By Type) or handle + end group handle (Read By Group Type);
    the handles themselves are tshark's fields at those positions.
UUIDs: lowercase hex, 4 digits for a 16-bit, 32 for a 128-bit UUID, in the usual
text order (most significant first: "2800", "7e57a7e1...") - i.e. byte-reversed
relative to the little-endian wire bytes.
`expert`: tshark expert-info field names for the PDU, when there are any (not errors).
The script fails if tshark marks any ATT frame malformed or raises an error-severity
expert item, or if its list of ATT PDUs differs from a plain reassembly of the
capture's L2CAP CID 0x0004 traffic (so no PDU is silently skipped).
"""
import argparse
import collections
import glob
import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

OPCODE_NAMES = {
    0x01: 'Error Rsp', 0x02: 'Exchange MTU Req', 0x03: 'Exchange MTU Rsp',
    0x04: 'Find Information Req', 0x05: 'Find Information Rsp',
    0x06: 'Find By Type Value Req', 0x07: 'Find By Type Value Rsp',
    0x08: 'Read By Type Req', 0x09: 'Read By Type Rsp', 0x0A: 'Read Req',
    0x0B: 'Read Rsp', 0x0C: 'Read Blob Req', 0x0D: 'Read Blob Rsp',
    0x0E: 'Read Multiple Req', 0x0F: 'Read Multiple Rsp',
    0x10: 'Read By Group Type Req', 0x11: 'Read By Group Type Rsp',
    0x12: 'Write Req', 0x13: 'Write Rsp', 0x16: 'Prepare Write Req',
    0x17: 'Prepare Write Rsp', 0x18: 'Execute Write Req', 0x19: 'Execute Write Rsp',
    0x1B: 'Handle Value Ntf', 0x1D: 'Handle Value Ind', 0x1E: 'Handle Value Cfm',
    0x20: 'Read Multiple Variable Req', 0x21: 'Read Multiple Variable Rsp',
    0x23: 'Multiple Handle Value Ntf', 0x52: 'Write Cmd', 0xD2: 'Signed Write Cmd',
}
# PDUs that carry an attribute value (or Set Of Values) after their header.
VALUE_OPCODES = {0x06, 0x0B, 0x0D, 0x0F, 0x12, 0x16, 0x17, 0x1B, 0x1D, 0x52}
# Wire fields of the fixed header that may precede the value.
HEADER_FIELDS = ('btatt.opcode', 'btatt.handle', 'btatt.offset', 'btatt.starting_handle',
                 'btatt.ending_handle', 'btatt.uuid16', 'btatt.uuid128')

EXPERT_ERROR = 0x00800000  # PI_ERROR
# Key order in `fields` (wire order where it matters).
FIELD_ORDER = ['requestOpcode', 'handle', 'errorCode', 'clientRxMTU', 'serverRxMTU',
               'startingHandle', 'endingHandle', 'uuid', 'format', 'informationData',
               'handlesInformation', 'length', 'attributeData', 'handles', 'offset',
               'flags', 'value']


class DissectError(Exception):
    pass


# -----------------------------------------------------------------------------
# tshark JSON helpers
# -----------------------------------------------------------------------------
def as_list(x):
    if x is None:
        return []
    return x if isinstance(x, list) else [x]


def wire(obj, name):
    """[(value_string, raw_hex, pos, length)] for a field that tshark read off the wire."""
    raws = as_list(obj.get(name + '_raw'))
    if not raws:
        return []
    if raws and not isinstance(raws[0], list):  # a single raw [hex, pos, len, mask, type]
        raws = [raws]
    vals = as_list(obj.get(name))
    if len(vals) != len(raws):
        raise DissectError(f'{name}: {len(vals)} values but {len(raws)} raw spans')
    return [(v, r[0], r[1], r[2]) for v, r in zip(vals, raws)]


def one(obj, name):
    items = wire(obj, name)
    if len(items) > 1:
        raise DissectError(f'{name}: expected one, got {len(items)}')
    return items[0] if items else None


def num(s):
    return int(s, 0)


def uuid_text(obj):
    """UUID in usual text order from a uuid16/uuid128 wire field of obj, or None."""
    u16, u128 = one(obj, 'btatt.uuid16'), one(obj, 'btatt.uuid128')
    if u16 and u128:
        raise DissectError('both uuid16 and uuid128')
    if u16:
        return f'{num(u16[0]):04x}'
    if u128:
        wire_bytes = bytes.fromhex(u128[0].replace(':', ''))
        if len(wire_bytes) != 16:
            raise DissectError(f'bad uuid128 {u128[0]}')
        return wire_bytes[::-1].hex()
    return None


def walk(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path + (k,), k, v
            yield from walk(v, path + (k,))
    elif isinstance(obj, list):
        for v in obj:
            yield from walk(v, path)


# -----------------------------------------------------------------------------
# One ATT PDU
# -----------------------------------------------------------------------------
def record_from_layers(layers):
    frame = int(layers['frame']['frame.number'])
    h4dir = num(layers['hci_h4']['hci_h4.direction'])
    direction = {0: 'sent', 1: 'received'}[h4dir]
    a = layers['btatt']
    raw = layers['btatt_raw']
    if isinstance(raw[0], list):
        raise DissectError(f'frame {frame}: more than one ATT PDU in a frame')
    pdu_hex, base, pdu_len = raw[0], raw[1], raw[2]
    pdu = bytes.fromhex(pdu_hex)
    if len(pdu) != pdu_len:
        raise DissectError(f'frame {frame}: btatt_raw length mismatch')

    def span(item):  # offset of a wire field inside the PDU, and its end
        start = item[2] - base
        if not (0 <= start and start + item[3] <= len(pdu)):
            raise DissectError(f'frame {frame}: field outside the PDU: {item}')
        if pdu[start:start + item[3]].hex() != item[1] and item[1] and len(item[1]) == 2 * item[3]:
            raise DissectError(f'frame {frame}: raw bytes disagree with PDU at {start}')
        return start, start + item[3]

    op_item = one(a, 'btatt.opcode')
    opcode = num(op_item[0])
    if opcode != pdu[0] or span(op_item)[0] != 0:
        raise DissectError(f'frame {frame}: opcode mismatch')

    fields = {}

    def put(key, value):
        if key in fields:
            raise DissectError(f'frame {frame}: duplicate {key}')
        fields[key] = value

    simple = [
        ('btatt.req_opcode_in_error', 'requestOpcode'),
        ('btatt.error_code', 'errorCode'),
        ('btatt.client_rx_mtu', 'clientRxMTU'),
        ('btatt.server_rx_mtu', 'serverRxMTU'),
        ('btatt.starting_handle', 'startingHandle'),
        ('btatt.ending_handle', 'endingHandle'),
        ('btatt.offset', 'offset'),
        ('btatt.flags', 'flags'),
        ('btatt.uuid_format', 'format'),
        ('btatt.length', 'length'),
    ]
    for name, key in simple:
        item = one(a, name)
        if item:
            put(key, num(item[0]))

    handles = wire(a, 'btatt.handle')
    if opcode in (0x0E, 0x20):
        if handles:
            put('handles', [num(h[0]) for h in handles])
    elif len(handles) == 1:
        put('handle', num(handles[0][0]))
    elif len(handles) > 1:
        raise DissectError(f'frame {frame}: {len(handles)} top-level handles')

    uuid = uuid_text(a)
    if uuid is not None:
        put('uuid', uuid)

    # Find Information Response: information data entries
    if 'btatt.information_data' in a:
        entries = []
        for e in as_list(a['btatt.information_data']):
            entries.append({'handle': num(one(e, 'btatt.handle')[0]), 'uuid': uuid_text(e)})
        put('informationData', entries)

    # Find By Type Value Response: handles information list
    if 'btatt.handles_info' in a:
        put('handlesInformation', [
            {'foundHandle': num(one(e, 'btatt.handle')[0]),
             'groupEndHandle': num(one(e, 'btatt.group_end_handle')[0])}
            for e in as_list(a['btatt.handles_info'])])

    # Read By Type / Read By Group Type Response: attribute data list
    if 'btatt.attribute_data' in a:
        entries_raw = wire(a, 'btatt.attribute_data')
        entries = as_list(a['btatt.attribute_data'])
        if len(entries_raw) != len(entries):
            raise DissectError(f'frame {frame}: attribute_data count mismatch')
        out = []
        for e, e_raw in zip(entries, entries_raw):
            e_start, e_end = span(e_raw)
            entry = pdu[e_start:e_end]
            if fields.get('length') is not None and len(entry) != fields['length']:
                raise DissectError(f'frame {frame}: entry length {len(entry)} != Length')
            first = [h for h in wire(e, 'btatt.handle') if h[2] == e_raw[2]]
            if len(first) != 1:
                raise DissectError(f'frame {frame}: no handle at entry start')
            rec = {'handle': num(first[0][0])}
            if opcode == 0x11:
                geh = one(e, 'btatt.group_end_handle')
                if geh is None or geh[2] != e_raw[2] + 2:
                    raise DissectError(f'frame {frame}: no end group handle')
                rec['endGroupHandle'] = num(geh[0])
                rec['value'] = entry[4:].hex()
            else:
                rec['value'] = entry[2:].hex()
            out.append(rec)
        put('attributeData', out)

    # Attribute value
    if opcode in VALUE_OPCODES:
        v = one(a, 'btatt.value')
        if v is not None:
            start, end = span(v)
            put('value', pdu[start:end].hex())
            if end != len(pdu):
                raise DissectError(f'frame {frame}: btatt.value does not reach the PDU end')
        else:
            header_end = 0
            for name in HEADER_FIELDS:
                if opcode == 0x06 and name in ('btatt.uuid16', 'btatt.uuid128'):
                    pass  # the attribute type is header in Find By Type Value Request
                elif name in ('btatt.uuid16', 'btatt.uuid128'):
                    continue
                for item in wire(a, name):
                    header_end = max(header_end, span(item)[1])
            put('value', pdu[header_end:].hex())

    # Diagnostics
    expert = []
    for path, key, val in walk(a):
        if key == '_ws.expert' and isinstance(val, dict):
            sev = int(val.get('_ws.expert.severity', '0'))
            names = [k for k in val if not k.startswith('_ws.expert')]
            if sev >= EXPERT_ERROR:
                raise DissectError(f'frame {frame}: tshark expert error {val}')
            expert.extend(names)
    for path, key, val in walk(layers):
        if key.startswith('_ws.malformed'):
            raise DissectError(f'frame {frame}: tshark says malformed: {path}')

    fields = {k: fields[k] for k in sorted(fields, key=FIELD_ORDER.index)}
    rec = {'frame': frame, 'direction': direction, 'pdu': pdu.hex(), 'opcode': opcode,
           'fields': fields}
    if expert:
        rec['expert'] = sorted(set(expert))
    return rec


# -----------------------------------------------------------------------------
# Independent count check: plain btsnoop + L2CAP reassembly, CID 0x0004 only
# -----------------------------------------------------------------------------
def plain_att_pdus(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'btsnoop\0':
        raise DissectError(f'{path}: not a btsnoop file')
    datalink = struct.unpack('>I', data[12:16])[0]
    if datalink != 1002:
        raise DissectError(f'{path}: datalink {datalink}, expected 1002 (H4)')
    pos, frame, pending, out = 16, 0, {}, []
    while pos < len(data):
        orig, incl, flags, _drops, _ts = struct.unpack('>IIIIQ', data[pos:pos + 24])
        pkt = data[pos + 24:pos + 24 + incl]
        pos += 24 + incl
        frame += 1
        if not pkt or pkt[0] != 0x02:
            continue
        direction = 'received' if flags & 1 else 'sent'
        hdr, length = struct.unpack('<HH', pkt[1:5])
        handle, pb = hdr & 0x0FFF, (hdr >> 12) & 0x3
        payload = pkt[5:5 + length]
        key = (handle, direction)
        if pb in (0, 2):
            pending[key] = bytearray(payload)
        elif key in pending:
            pending[key] += payload
        else:
            continue
        buf = pending[key]
        if len(buf) >= 4:
            l2len, cid = struct.unpack('<HH', buf[:4])
            if len(buf) >= 4 + l2len:
                if cid == 0x0004:
                    out.append((frame, direction, bytes(buf[4:4 + l2len]).hex()))
                del pending[key]
    return out


# -----------------------------------------------------------------------------
def dissect(path):
    cmd = ['tshark', '-r', path, '-T', 'json', '-x', '--no-duplicate-keys', '-Y', 'btatt']
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise DissectError(f'{" ".join(cmd)} failed: {proc.stderr}')
    packets = json.loads(proc.stdout or '[]')
    records = []
    for p in packets:
        layers = p['_source']['layers']
        try:
            records.append(record_from_layers(layers))
        except DissectError as e:
            raise DissectError(f'{os.path.basename(path)}: {e}') from None
        except Exception as e:  # noqa: BLE001 - surface tshark surprises with context
            raise DissectError(
                f'{os.path.basename(path)} frame {layers["frame"]["frame.number"]}: '
                f'{type(e).__name__}: {e}') from e
    plain = plain_att_pdus(path)
    mine = [(r['frame'], r['direction'], r['pdu']) for r in records]
    if plain != mine:
        diff = [(x, y) for x, y in zip(plain, mine) if x != y][:3]
        raise DissectError(f'{os.path.basename(path)}: tshark found {len(mine)} ATT PDUs, '
                           f'plain reassembly {len(plain)}; first differences {diff}')
    return records


def dump(records):
    return '[\n' + ',\n'.join(json.dumps(r, separators=(', ', ': ')) for r in records) + '\n]\n'


def tshark_version():
    out = subprocess.run(['tshark', '--version'], capture_output=True, text=True).stdout
    return out.splitlines()[0] if out else '?'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('captures', nargs='*')
    ap.add_argument('--check', action='store_true')
    args = ap.parse_args()
    paths = args.captures or sorted(glob.glob(os.path.join(HERE, '*.btsnoop')))
    if not paths:
        print('no captures found', file=sys.stderr)
        return 1
    print(tshark_version())
    status = 0
    for path in paths:
        try:
            records = dissect(path)
        except DissectError as e:
            print(f'ERROR {e}', file=sys.stderr)
            status = 1
            continue
        out_path = path[:-len('.btsnoop')] + '.att.json'
        text = dump(records)
        if args.check:
            old = open(out_path).read() if os.path.exists(out_path) else None
            if old != text:
                print(f'ERROR {os.path.basename(out_path)} is out of date', file=sys.stderr)
                status = 1
        else:
            with open(out_path, 'w') as f:
                f.write(text)
        counts = collections.Counter(r['opcode'] for r in records)
        sent = sum(r['direction'] == 'sent' for r in records)
        print(f'{os.path.basename(path)}: {len(records)} ATT PDUs ({sent} sent, '
              f'{len(records) - sent} received)')
        for op in sorted(counts):
            print(f'  0x{op:02X} {OPCODE_NAMES.get(op, "?"):<28} {counts[op]}')
    return status


if __name__ == '__main__':
    sys.exit(main())
