#!/usr/bin/env python3
"""Bumble's own GATT client (bumble.gatt_client) against a swift-att peripheral, run as
a script of steps, for swift-att's GATT server end-to-end tests.

    bumble_client.py --port 9102 --address C0:B0:00:00:00:01 --target D0:00:00:00:00:01 \\
        --steps '[{"op":"mtu","value":247},{"op":"discover"},{"op":"read","handle":12}]'
    ... --stdin          # then one step (a JSON object, or a list of them) per stdin
                         # line; without --steps, stdin is read anyway

Several clients in one process: repeat --port and --address (client 0, 1, ...); a step
names its client with "client" (default 0). Each client is its own Bumble host on its
own controller, connecting to --target (a static random address) at start, or at a
"connect" step with --no-connect.

Prints one JSON line per step: {"event":"result","seq":N,"client":C,"op":...} plus what
the step found; an ATT Error Response as "error" (the code, a number) and "error_handle";
anything else that went wrong as "exception". Values are hex. Other lines:
{"event":"connected"|"disconnected",...}, {"event":"ready"} once every client is up,
{"event":"done"} at the end (after the steps, at "quit", at end of stdin, or after
--duration seconds).

Steps (handles are numbers; "value" is hex):
    {"op":"connect"}                       connect (or reconnect) to --target
    {"op":"mtu","value":247}               Exchange MTU; reports the ATT_MTU in force
    {"op":"discover"}                      primary services, their included services,
                                           characteristics and descriptors, the included
                                           services' own characteristics, and every
                                           attribute (Find Information over 1-0xFFFF)
    {"op":"read","handle":N}               one Read Request
    {"op":"read_long","handle":N}          Bumble's read procedure: Read, then Read Blob
                                           while a part is exactly ATT_MTU-1 octets
    {"op":"write","handle":N,"value":H,"response":true}
                                           one Write Request (or Write Command)
    {"op":"write_long","handle":N,"value":H[,"offset":O]}
                                           Prepare Write parts of ATT_MTU-5 octets, then
                                           Execute Write 0x01 (Bumble's write_long_value
                                           when the offset is 0)
    {"op":"reliable_write","writes":[{"handle":N,"value":H},...],"cancel":false}
    {"op":"reliable_write","handle":N,"value":H}
                                           Prepare Write parts, each echo compared with
                                           what was sent, then Execute Write 0x01 (or
                                           0x00 with "cancel": true, or when an echo
                                           differs)
    {"op":"subscribe","handle":N,"indicate":false}
                                           Bumble's subscribe (writes the CCCD); "handle"
                                           is the value handle, found by "discover"
    {"op":"unsubscribe","handle":N}
    {"op":"wait_values","count":N,"timeout":10}
                                           waits until N values (notifications and
                                           indications, subscribed or not) have arrived
                                           since the last wait, and reports them in order
    {"op":"values","settle":0.5}           waits `settle` seconds, reports what arrived
                                           (the window of a "nothing arrives" check: an
                                           absence has no event to wait for; to wait for
                                           values, use "wait_values")
    {"op":"raw","pdu":"0a0300"}            any ATT PDU: a request's response bytes (or
                                           Error Response), or just sent for a command;
                                           "request": true sends an unknown opcode as a
                                           request
Any step may set "timeout" (seconds, default 35): past it the step reports
"timed_out": true.
    {"op":"disconnect"}
    {"op":"sleep","seconds":0.2}
    {"op":"quit"}
"""
import argparse
import asyncio
import json
import logging
import sys

from bumble import att
from bumble.core import UUID
from bumble.device import Device, Peer
from bumble.hci import Address
from bumble.transport import open_transport


def emit(**fields):
    print(json.dumps(fields), flush=True)


def uuid_text(uuid):
    return uuid.to_hex_str('-')


class RawRequest:
    """An ATT request Bumble's codec does not know (an unknown opcode, a malformed
    body): sent as given. Only an Error Response can match it."""

    def __init__(self, pdu: bytes):
        self.pdu = pdu
        self.op_code = pdu[0]
        self.name = f'RAW_0x{pdu[0]:02X}_REQUEST'

    def __bytes__(self):
        return self.pdu


class StepFailed(Exception):
    def __init__(self, **fields):
        super().__init__(str(fields))
        self.fields = fields


def att_error(error):
    fields = {'error': int(error.error_code)}
    pdu = error.message
    if isinstance(pdu, att.ATT_Error_Response):
        fields['error_handle'] = pdu.attribute_handle_in_error
        fields['error_opcode'] = int(pdu.request_opcode_in_error)
    return fields


class Client:
    def __init__(self, index, device, target):
        self.index = index
        self.device = device
        self.target = Address(target, Address.RANDOM_DEVICE_ADDRESS)
        self.connection = None
        self.peer = None
        self.values = []
        self.arrived = asyncio.Event()
        self.characteristics = {}  # value handle -> CharacteristicProxy

    @property
    def gatt(self):
        if self.peer is None:
            raise StepFailed(exception='not connected')
        return self.peer.gatt_client

    async def connect(self):
        connection = await self.device.connect(self.target, timeout=20)
        self.connection = connection
        connection.on('disconnection', lambda reason: emit(event='disconnected', client=self.index, reason=reason))
        self.peer = Peer(connection)
        self.characteristics = {}
        self._record_values(self.peer.gatt_client)
        emit(event='connected', client=self.index, peer=str(self.target).split('/')[0], handle=connection.handle)
        return {'handle': connection.handle}

    def _record_values(self, client):
        """Every notification and indication is recorded, whether Bumble has a
        subscriber for it or not: a value sent to a client that did not subscribe is
        what the CCCD tests look for."""
        notified = client.on_att_handle_value_notification
        indicated = client.on_att_handle_value_indication

        def on_notification(pdu):
            self.values.append({'kind': 'notification', 'handle': pdu.attribute_handle, 'value': pdu.attribute_value.hex()})
            self.arrived.set()
            notified(pdu)

        def on_indication(pdu):
            self.values.append({'kind': 'indication', 'handle': pdu.attribute_handle, 'value': pdu.attribute_value.hex()})
            self.arrived.set()
            indicated(pdu)  # sends the Handle Value Confirmation

        client.on_att_handle_value_notification = on_notification
        client.on_att_handle_value_indication = on_indication

    async def request(self, pdu):
        response = await self.gatt.send_request(pdu)
        if response is None:
            raise StepFailed(exception='no response')
        return response

    # Steps

    async def step_connect(self, step):
        return await self.connect()

    async def step_mtu(self, step):
        self.gatt  # connected?
        return {'mtu': await self.peer.request_mtu(int(step['value']))}

    async def step_discover(self, step):
        gatt = self.gatt
        services = await gatt.discover_services()
        tree = []
        included_ranges = []
        for service in services:
            included = await gatt.discover_included_services(service)
            await gatt.discover_characteristics((), service)
            tree.append(await self.describe(service, primary=True, included=included))
            for inc in included:
                included_ranges.append(inc)
        # The included services' contents (a secondary service is reachable only so).
        secondary = []
        primary_starts = {s.handle for s in services}
        seen = set()
        for inc in included_ranges:
            if inc.handle in primary_starts or inc.handle in seen:
                continue
            seen.add(inc.handle)
            await gatt.discover_characteristics((), inc)
            secondary.append(await self.describe(inc, primary=False, included=[]))
        attributes = await gatt.discover_attributes()
        return {
            'services': tree,
            'included_services': secondary,
            'attributes': [[a.handle, uuid_text(a.type)] for a in attributes],
        }

    async def describe(self, service, primary, included):
        characteristics = []
        for characteristic in service.characteristics:
            await characteristic.discover_descriptors()
            self.characteristics[characteristic.handle] = characteristic
            characteristics.append({
                'uuid': uuid_text(characteristic.uuid),
                'handle': characteristic.handle,
                'properties': int(characteristic.properties),
                'end': characteristic.end_group_handle,
                'descriptors': [{'uuid': uuid_text(d.type), 'handle': d.handle} for d in characteristic.descriptors],
            })
        return {
            'uuid': uuid_text(service.uuid),
            'start': service.handle,
            'end': service.end_group_handle,
            'primary': primary,
            'included': [{'uuid': uuid_text(i.uuid), 'start': i.handle, 'end': i.end_group_handle} for i in included],
            'characteristics': characteristics,
        }

    async def step_read(self, step):
        value = await self.gatt.read_value(int(step['handle']), no_long_read=True)
        return {'value': bytes(value).hex()}

    async def step_read_long(self, step):
        value = await self.gatt.read_value(int(step['handle']))
        return {'value': bytes(value).hex()}

    async def step_write(self, step):
        handle, value = int(step['handle']), bytes.fromhex(step['value'])
        if not step.get('response', True):
            await self.gatt.write_value(handle, value, with_response=False)
            return {}
        if len(value) <= self.gatt.mtu - 3:
            await self.gatt.write_value(handle, value, with_response=True)
            return {}
        # Longer than a Write Request's room: send it anyway, as one request.
        response = await self.request(att.ATT_Write_Request(attribute_handle=handle, attribute_value=value))
        self.check(response)
        return {}

    async def step_write_long(self, step):
        handle, value = int(step['handle']), bytes.fromhex(step['value'])
        start = int(step.get('offset', 0))
        if start == 0:
            await self.gatt.write_long_value(handle, value)
            return {'parts': -(-len(value) // (self.gatt.mtu - 5))}
        room = self.gatt.mtu - 5
        parts = 0
        for offset in range(0, len(value), room):
            response = await self.request(att.ATT_Prepare_Write_Request(
                attribute_handle=handle, value_offset=start + offset, part_attribute_value=value[offset:offset + room]))
            if response.op_code == att.Opcode.ATT_ERROR_RESPONSE:
                await self.request(att.ATT_Execute_Write_Request(flags=0x00))
                self.check(response)
            parts += 1
        self.check(await self.request(att.ATT_Execute_Write_Request(flags=0x01)))
        return {'parts': parts}

    async def step_reliable_write(self, step):
        """Core 5.4 Vol 3 Part G §4.9.5: every Prepare Write Response must echo its
        request; a difference cancels the whole write."""
        writes = step.get('writes') or [{'handle': step['handle'], 'value': step['value']}]
        room = self.gatt.mtu - 5
        prepared, echoes_match = 0, True
        for write in writes:
            handle, value = int(write['handle']), bytes.fromhex(write['value'])
            for offset in range(0, max(len(value), 1), room):
                part = value[offset:offset + room]
                response = await self.request(att.ATT_Prepare_Write_Request(
                    attribute_handle=handle, value_offset=offset, part_attribute_value=part))
                if response.op_code == att.Opcode.ATT_ERROR_RESPONSE:
                    await self.request(att.ATT_Execute_Write_Request(flags=0x00))
                    raise StepFailed(prepared=prepared, **att_error(att.ATT_Error(error_code=response.error_code, message=response)))
                prepared += 1
                if (response.attribute_handle, response.value_offset, bytes(response.part_attribute_value)) != (handle, offset, part):
                    echoes_match = False
        execute = echoes_match and not step.get('cancel', False)
        self.check(await self.request(att.ATT_Execute_Write_Request(flags=0x01 if execute else 0x00)))
        return {'prepared': prepared, 'echoes_match': echoes_match, 'executed': execute}

    async def step_subscribe(self, step):
        characteristic = self.characteristic(step)
        await characteristic.subscribe(prefer_notify=not step.get('indicate', False))
        cccd = characteristic.get_descriptor(UUID.from_16_bits(0x2902))
        return {'cccd_handle': cccd.handle if cccd else None}

    async def step_unsubscribe(self, step):
        await self.characteristic(step).unsubscribe(force=True)
        return {}

    def characteristic(self, step):
        handle = int(step['handle'])
        if handle not in self.characteristics:
            raise StepFailed(exception=f'no characteristic with value handle {handle}: run "discover" first')
        return self.characteristics[handle]

    async def step_wait_values(self, step):
        count, timeout = int(step['count']), float(step.get('timeout', 10))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(self.values) < count:
            self.arrived.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            try:
                await asyncio.wait_for(self.arrived.wait(), remaining)
            except asyncio.TimeoutError:
                break
        return self.take(count, timed_out=len(self.values) < count)

    async def step_values(self, step):
        # The window itself is the check (what arrives in it), not a wait out of a race.
        await asyncio.sleep(float(step.get('settle', 0.5)))
        return self.take(len(self.values), timed_out=False)

    def take(self, count, timed_out):
        taken, self.values = self.values[:count], self.values[count:]
        return {'values': taken, 'count': len(taken), 'timed_out': timed_out}

    async def step_raw(self, step):
        pdu = bytes.fromhex(step['pdu'])
        if pdu[0] in att.ATT_REQUESTS or step.get('request'):
            try:
                request = att.ATT_PDU.from_bytes(pdu)
            except Exception:
                request = RawRequest(pdu)
            response = await self.gatt.send_request(request)
            fields = {'response': bytes(response).hex(), 'opcode': response.op_code}
            if response.op_code == att.Opcode.ATT_ERROR_RESPONSE:
                fields.update(error=int(response.error_code), error_handle=response.attribute_handle_in_error,
                              error_opcode=int(response.request_opcode_in_error))
            return fields
        self.gatt.send_gatt_pdu(pdu)
        return {'sent': True}

    async def step_disconnect(self, step):
        if self.connection is not None:
            await self.connection.disconnect()
            self.connection = None
            self.peer = None
        return {}

    async def step_sleep(self, step):
        await asyncio.sleep(float(step.get('seconds', 0.1)))
        return {}

    @staticmethod
    def check(response):
        if response.op_code == att.Opcode.ATT_ERROR_RESPONSE:
            raise att.ATT_Error(error_code=response.error_code, message=response)


class Runner:
    def __init__(self, clients):
        self.clients = clients
        self.seq = 0
        self.quit = False

    async def run(self, step):
        seq = self.seq
        self.seq += 1
        op = step.get('op')
        index = int(step.get('client', 0))
        result = {'event': 'result', 'seq': seq, 'client': index, 'op': op}
        if op == 'quit':
            self.quit = True
            emit(**result)
            return
        try:
            client = self.clients[index]
            handler = getattr(client, f'step_{op}', None)
            if handler is None:
                raise StepFailed(exception=f'unknown op {op!r}')
            # A bounded step: a server that never answers fails the step, not the run.
            limit = float(step.get('timeout', 10)) + 5 if op == 'wait_values' else float(step.get('timeout', 35))
            result.update(await asyncio.wait_for(handler(step), limit) or {})
        except asyncio.TimeoutError:
            result.update(exception='timed out', timed_out=True)
        except att.ATT_Error as error:
            result.update(att_error(error))
        except StepFailed as failure:
            result.update(failure.fields)
        except Exception as error:  # report and keep going
            result.update(exception=f'{type(error).__name__}: {error}')
        emit(**result)

    async def run_all(self, steps):
        if isinstance(steps, dict):
            steps = [steps]
        for step in steps:
            if self.quit:
                return
            await self.run(step)

    async def read_stdin(self):
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=1 << 20)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while not self.quit:
            line = await reader.readline()
            if not line:
                return
            text = line.decode().strip()
            if not text:
                continue
            if text == 'quit':
                return
            try:
                steps = json.loads(text)
            except json.JSONDecodeError as error:
                emit(event='result', seq=-1, op=None, exception=f'bad JSON: {error}')
                continue
            await self.run_all(steps)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--port', type=int, action='append', required=True, help='controller TCP port (repeat for more clients)')
    parser.add_argument('--address', action='append', required=True, help='static random address of each client')
    parser.add_argument('--target', required=True, help="the peripheral's static random address")
    parser.add_argument('--steps', help='a JSON list of steps to run first')
    parser.add_argument('--stdin', action='store_true',
                        help='then read steps from stdin, one JSON value per line (the default without --steps)')
    parser.add_argument('--no-connect', action='store_true', help='connect only at "connect" steps')
    parser.add_argument('--duration', type=float, default=120.0)
    args = parser.parse_args()
    if len(args.port) != len(args.address):
        parser.error('give one --address per --port')
    logging.basicConfig(level=logging.WARNING)

    transports, clients = [], []
    try:
        for index, (port, address) in enumerate(zip(args.port, args.address)):
            transport = await open_transport(f'tcp-client:127.0.0.1:{port}')
            transports.append(transport)
            device = Device.with_hci(f'bumble-client-{index}', Address(address, Address.RANDOM_DEVICE_ADDRESS),
                                     transport.source, transport.sink)
            await device.power_on()
            clients.append(Client(index, device, args.target))
        runner = Runner(clients)

        async def session():
            if not args.no_connect:
                for client in clients:
                    await client.connect()
            emit(event='ready', clients=len(clients))
            if args.steps:
                await runner.run_all(json.loads(args.steps))
            if args.stdin or not args.steps:
                await runner.read_stdin()

        try:
            await asyncio.wait_for(session(), args.duration)
        except asyncio.TimeoutError:
            emit(event='timeout', seconds=args.duration)
        except Exception as error:
            emit(event='failed', exception=f'{type(error).__name__}: {error}')
        emit(event='done')
    finally:
        for transport in transports:
            await transport.close()


if __name__ == '__main__':
    asyncio.run(main())
