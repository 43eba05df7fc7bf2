#!/usr/bin/env python3
"""Make real btsnoop captures of ATT traffic between two Bumble hosts.

Run with the bench venv (Tests/bench/setup.sh creates it):

    Tests/bench/.venv/bin/python Fixtures/captures/make_captures.py [--out DIR]

One asyncio process, for each session: a LocalLink with two Bumble virtual
Controllers, and two Bumble Devices (full hosts) attached to them through
in-memory HCI pipes (the same wiring as bumble.testing.test_utils). Both hosts
are snooped (bumble.snoop.BtSnooper subclass) into btsnoop files. Sessions:

  gatt-mtu247  the central exchanges MTU (requests 247; server offers 517 -> 247)
  gatt-mtu23   no MTU exchange, ATT_MTU stays 23 (long reads use Read Blob,
               long writes use many Prepare Writes)

Each session writes <session>-central.btsnoop and <session>-peripheral.btsnoop.

Determinism: fixed static random addresses, fixed GATT database and values, a
fixed script of procedures. Timestamps are synthetic (2025-01-01T00:00:00Z plus
1 ms per record) so re-running yields byte-identical files as long as Bumble
orders HCI packets the same way.

Exits non-zero if any step fails or the whole run exceeds --timeout seconds.
"""
import argparse
import asyncio
import datetime
import logging
import os
import struct
import sys

from bumble import att
from bumble.controller import Controller
from bumble.core import UUID
from bumble.device import Device
from bumble.gatt import (
    Characteristic,
    CharacteristicValue,
    Descriptor,
    Service,
    GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR,
)
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.snoop import BtSnooper
from bumble.transport.common import AsyncPipeSink

log = logging.getLogger('make_captures')

# -----------------------------------------------------------------------------
# Fixed identities and values
# -----------------------------------------------------------------------------
CENTRAL_ADDRESS = Address('C0:5A:17:00:00:01', Address.RANDOM_DEVICE_ADDRESS)
PERIPHERAL_ADDRESS = Address('C0:5A:17:00:00:02', Address.RANDOM_DEVICE_ADDRESS)

UUID_HEART_RATE = UUID.from_16_bits(0x180D)
UUID_HRM = UUID.from_16_bits(0x2A37)
UUID_BODY_SENSOR_LOCATION = UUID.from_16_bits(0x2A38)
UUID_HR_CONTROL_POINT = UUID.from_16_bits(0x2A39)
UUID_DEVICE_INFORMATION = UUID.from_16_bits(0x180A)
UUID_MANUFACTURER_NAME = UUID.from_16_bits(0x2A29)
UUID_BATTERY = UUID.from_16_bits(0x180F)
UUID_BATTERY_LEVEL = UUID.from_16_bits(0x2A19)
UUID_ABSENT_SERVICE = UUID.from_16_bits(0x1234)

# Custom 128-bit service ("7e57a7e0" ~ "test ATT"), characteristics ...e1 - ...e8
UUID_CUSTOM_SERVICE = UUID('7e57a7e0-5a17-4c0d-9e1f-000000000000')
UUID_LONG_READ = UUID('7e57a7e1-5a17-4c0d-9e1f-000000000000')
UUID_LONG_WRITE = UUID('7e57a7e2-5a17-4c0d-9e1f-000000000000')
UUID_WRITE_NO_RSP = UUID('7e57a7e3-5a17-4c0d-9e1f-000000000000')
UUID_INDICATE = UUID('7e57a7e4-5a17-4c0d-9e1f-000000000000')
UUID_READ_NOT_PERMITTED = UUID('7e57a7e5-5a17-4c0d-9e1f-000000000000')
UUID_READ_APP_ERROR = UUID('7e57a7e6-5a17-4c0d-9e1f-000000000000')
UUID_WRITE_NOT_PERMITTED = UUID('7e57a7e7-5a17-4c0d-9e1f-000000000000')
UUID_NOTIFY_BULK = UUID('7e57a7e8-5a17-4c0d-9e1f-000000000000')

LONG_READ_VALUE = bytes(i & 0xFF for i in range(300))  # 00 01 02 .. ff 00 .. 2b
LONG_WRITE_VALUE = bytes((0xA0 + i) & 0xFF for i in range(300))
MANUFACTURER_NAME = b'swift-att bench'
USER_DESCRIPTION = b'300-byte pattern'
READ_APP_ERROR_CODE = 0x80
MISSING_HANDLE = 0xFFF0

TIMESTAMP_BASE_US = BtSnooper.TIMESTAMP_DELTA + 1_000_000 * int(  # 2025-01-01T00:00:00Z
    (datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc) - BtSnooper.TIMESTAMP_ANCHOR).total_seconds())


class DeterministicBtSnooper(BtSnooper):
    """BtSnooper with synthetic timestamps (base + 1 ms per record)."""

    def __init__(self, output):
        super().__init__(output)
        self.count = 0

    def snoop(self, hci_packet, direction):
        flags = int(direction)
        if hci_packet[0] in (0x01, 0x04):  # command or event
            flags |= 0x02
        timestamp = TIMESTAMP_BASE_US + self.count * 1000
        self.count += 1
        self.output.write(
            struct.pack('>IIIIQ', len(hci_packet), len(hci_packet), flags, 0, timestamp)
            + bytes(hci_packet)
        )


# -----------------------------------------------------------------------------
# Peripheral GATT database
# -----------------------------------------------------------------------------
def raise_att(code):
    def fail(*_):
        raise att.ATT_Error(code)

    return fail


def build_gatt(device):
    P = Characteristic.Properties
    R, W = att.Attribute.READABLE, att.Attribute.WRITEABLE
    chars = {}

    battery = Service(
        UUID_BATTERY,
        [Characteristic(UUID_BATTERY_LEVEL, P.READ, R, bytes([90]))],
    )
    chars['hrm'] = Characteristic(UUID_HRM, P.NOTIFY, R, bytes([0x00, 60]))
    chars['bsl'] = Characteristic(UUID_BODY_SENSOR_LOCATION, P.READ, R, bytes([0x01]))
    chars['hrcp'] = Characteristic(UUID_HR_CONTROL_POINT, P.WRITE, W, bytes([0x00]))
    heart_rate = Service(
        UUID_HEART_RATE,
        [chars['hrm'], chars['bsl'], chars['hrcp']],
        included_services=[battery],  # registered first: it comes before HR
    )
    chars['mfr'] = Characteristic(UUID_MANUFACTURER_NAME, P.READ, R, MANUFACTURER_NAME)
    device_information = Service(UUID_DEVICE_INFORMATION, [chars['mfr']])

    chars['long_read'] = Characteristic(
        UUID_LONG_READ,
        P.READ,
        R,
        LONG_READ_VALUE,
        descriptors=[
            Descriptor(GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR, R, USER_DESCRIPTION)
        ],
    )
    chars['long_write'] = Characteristic(UUID_LONG_WRITE, P.READ | P.WRITE, R | W, b'')
    chars['wwr'] = Characteristic(UUID_WRITE_NO_RSP, P.WRITE_WITHOUT_RESPONSE, W, b'')
    chars['indicate'] = Characteristic(UUID_INDICATE, P.INDICATE, R, bytes([0x00]))
    chars['read_np'] = Characteristic(
        UUID_READ_NOT_PERMITTED, P.READ, R,
        CharacteristicValue(read=raise_att(att.ErrorCode.READ_NOT_PERMITTED)),
    )
    chars['read_app'] = Characteristic(
        UUID_READ_APP_ERROR, P.READ, R,
        CharacteristicValue(read=raise_att(READ_APP_ERROR_CODE)),
    )
    chars['write_np'] = Characteristic(
        UUID_WRITE_NOT_PERMITTED, P.WRITE, W,
        CharacteristicValue(write=raise_att(att.ErrorCode.WRITE_NOT_PERMITTED)),
    )
    chars['notify_bulk'] = Characteristic(UUID_NOTIFY_BULK, P.NOTIFY, R, b'')
    custom = Service(
        UUID_CUSTOM_SERVICE,
        [chars[k] for k in ('long_read', 'long_write', 'wwr', 'indicate', 'read_np',
                            'read_app', 'write_np', 'notify_bulk')],
    )
    device.add_services([battery, heart_rate, device_information, custom])
    return chars


# -----------------------------------------------------------------------------
# Central script
# -----------------------------------------------------------------------------
async def run_central(connection, mtu, subscribed, peripheral_done, received):
    client = connection.gatt_client
    req = client.send_request

    async def expect_error(coro, code):
        try:
            await coro
        except att.ATT_Error as error:
            assert error.error_code == code, (error, code)
        else:
            raise AssertionError(f'expected ATT error {code:#x}')

    # MTU
    if mtu is not None:
        got = await client.request_mtu(mtu)
        log.info('ATT_MTU %d', got)

    # Primary service discovery (Read By Group Type, ends with Attribute Not Found)
    services = await client.discover_services()
    by_uuid = {s.uuid: s for s in services}
    assert UUID_CUSTOM_SERVICE in by_uuid and UUID_HEART_RATE in by_uuid

    # Discover by service UUID (Find By Type Value): 16-bit, 128-bit, absent
    assert await client.discover_service(UUID_HEART_RATE)
    assert await client.discover_service(UUID_CUSTOM_SERVICE)
    assert not await client.discover_service(UUID_ABSENT_SERVICE)

    # Included services, characteristics, descriptors for every service
    chars = {}
    for service in services:
        await client.discover_included_services(service)
        for c in await client.discover_characteristics([], service):
            chars[c.uuid] = c
            await client.discover_descriptors(c)

    # Find Information over the whole database (format 1 and 2)
    await client.discover_attributes()

    # Reads
    assert await client.read_value(chars[UUID_BODY_SENSOR_LOCATION]) == bytes([1])
    assert await client.read_value(chars[UUID_MANUFACTURER_NAME]) == MANUFACTURER_NAME
    assert await client.read_value(chars[UUID_LONG_READ]) == LONG_READ_VALUE  # + Read Blob
    user_desc = chars[UUID_LONG_READ].get_descriptor(GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR)
    assert await client.read_value(user_desc) == USER_DESCRIPTION
    await expect_error(client.read_value(chars[UUID_READ_NOT_PERMITTED]), 0x02)
    await expect_error(client.read_value(chars[UUID_READ_APP_ERROR]), READ_APP_ERROR_CODE)
    await expect_error(client.read_value(MISSING_HANDLE), 0x01)
    # Read Blob on a short value (Attribute Not Long) and past the end (Invalid Offset)
    rsp = await req(att.ATT_Read_Blob_Request(
        attribute_handle=chars[UUID_MANUFACTURER_NAME].handle, value_offset=0))
    assert rsp.op_code == att.Opcode.ATT_ERROR_RESPONSE and rsp.error_code == 0x0B
    rsp = await req(att.ATT_Read_Blob_Request(
        attribute_handle=chars[UUID_LONG_READ].handle, value_offset=400))
    assert rsp.op_code == att.Opcode.ATT_ERROR_RESPONSE and rsp.error_code == 0x07

    # Read Using Characteristic UUID (Read By Type): 16-bit and 128-bit types
    assert await client.read_characteristics_by_uuid(UUID_BODY_SENSOR_LOCATION, None) == [bytes([1])]
    assert await client.read_characteristics_by_uuid(UUID_MANUFACTURER_NAME, None) == [MANUFACTURER_NAME]
    values = await client.read_characteristics_by_uuid(UUID_LONG_READ, None)
    assert values and LONG_READ_VALUE.startswith(values[0])

    # Read Multiple / Read Multiple Variable (Bumble's client has no helper: raw requests)
    multi = [chars[UUID_BODY_SENSOR_LOCATION].handle, chars[UUID_BATTERY_LEVEL].handle,
             chars[UUID_MANUFACTURER_NAME].handle]
    rsp = await req(att.ATT_Read_Multiple_Request(set_of_handles=multi))
    assert rsp.op_code == att.Opcode.ATT_READ_MULTIPLE_RESPONSE, rsp
    rsp = await req(att.ATT_Read_Multiple_Request(set_of_handles=[multi[0], MISSING_HANDLE]))
    assert rsp.op_code == att.Opcode.ATT_ERROR_RESPONSE, rsp
    rsp = await req(att.ATT_Read_Multiple_Variable_Request(set_of_handles=multi))
    assert rsp.op_code == att.Opcode.ATT_READ_MULTIPLE_VARIABLE_RESPONSE, rsp

    # Writes
    await client.write_value(chars[UUID_HR_CONTROL_POINT], bytes([0x01]), with_response=True)
    await client.write_value(chars[UUID_LONG_WRITE], LONG_WRITE_VALUE, with_response=True)  # Prepare+Execute
    assert await client.read_value(chars[UUID_LONG_WRITE]) == LONG_WRITE_VALUE
    await client.write_value(chars[UUID_WRITE_NO_RSP], b'\x01\x02\x03\x04', with_response=False)
    await client.write_value(chars[UUID_WRITE_NO_RSP], b'\x05\x06', with_response=False)
    await expect_error(
        client.write_value(chars[UUID_WRITE_NOT_PERMITTED], b'\x99', with_response=True), 0x03)
    await expect_error(client.write_value(MISSING_HANDLE, b'\x00', with_response=True), 0x01)
    # Long write whose Execute fails (error carries request opcode 0x18)
    await expect_error(
        client.write_value(chars[UUID_WRITE_NOT_PERMITTED], bytes(range(60)) * 5, with_response=True),
        0x03)
    # Prepare then cancel (Execute Write flags 0x00)
    rsp = await req(att.ATT_Prepare_Write_Request(
        attribute_handle=chars[UUID_LONG_WRITE].handle, value_offset=0,
        part_attribute_value=b'cancel me'))
    assert rsp.op_code == att.Opcode.ATT_PREPARE_WRITE_RESPONSE, rsp
    rsp = await req(att.ATT_Execute_Write_Request(flags=0x00))
    assert rsp.op_code == att.Opcode.ATT_EXECUTE_WRITE_RESPONSE, rsp

    # Notifications and indications
    def counter(name):
        return lambda value: received[name].append(bytes(value))

    await client.subscribe(chars[UUID_HRM], counter('hrm'))
    await client.subscribe(chars[UUID_NOTIFY_BULK], counter('bulk'))
    await client.subscribe(chars[UUID_INDICATE], counter('indicate'), prefer_notify=False)
    subscribed.set()
    await peripheral_done.wait()
    for _ in range(100):
        if len(received['hrm']) >= 3 and len(received['bulk']) >= 2 and len(received['indicate']) >= 3:
            break
        await asyncio.sleep(0.01)
    assert len(received['hrm']) == 3 and len(received['bulk']) == 2 and len(received['indicate']) == 3, received
    await client.unsubscribe(chars[UUID_HRM])
    await client.unsubscribe(chars[UUID_INDICATE])
    await client.unsubscribe(chars[UUID_NOTIFY_BULK])


async def run_peripheral(device, connection, chars, subscribed, peripheral_done):
    await subscribed.wait()
    for bpm in (61, 62, 63):
        await device.notify_subscriber(connection, chars['hrm'], bytes([0x00, bpm]))
    # Max-size notifications (ATT_MTU - 3 bytes): the peripheral host fragments them
    size = connection.att_mtu - 3
    for k in range(2):
        await device.notify_subscriber(
            connection, chars['notify_bulk'], bytes((k * 16 + i) & 0xFF for i in range(size)))
    for n in range(1, 4):
        await device.indicate_subscriber(connection, chars['indicate'], bytes([n]))  # waits for confirm
    peripheral_done.set()


# -----------------------------------------------------------------------------
# Session
# -----------------------------------------------------------------------------
async def run_session(name, mtu, out_dir):
    link = LocalLink()
    controllers = [
        Controller('C-central', link=link, public_address='F0:F0:F0:F0:F0:01'),
        Controller('C-peripheral', link=link, public_address='F0:F0:F0:F0:F0:02'),
    ]
    central = Device(name='central', address=CENTRAL_ADDRESS,
                     host=Host(controllers[0], AsyncPipeSink(controllers[0])))
    peripheral = Device(name='peripheral', address=PERIPHERAL_ADDRESS,
                        host=Host(controllers[1], AsyncPipeSink(controllers[1])))
    files = {}
    for role, dev in (('central', central), ('peripheral', peripheral)):
        files[role] = open(os.path.join(out_dir, f'{name}-{role}.btsnoop'), 'wb')
        dev.host.snooper = DeterministicBtSnooper(files[role])
    try:
        chars = build_gatt(peripheral)
        await central.power_on()
        await peripheral.power_on()

        peripheral_connection = asyncio.get_running_loop().create_future()
        peripheral.once('connection', peripheral_connection.set_result)
        await peripheral.start_advertising(advertising_interval_min=20, advertising_interval_max=20)
        connection = await central.connect(PERIPHERAL_ADDRESS)
        p_conn = await peripheral_connection

        subscribed, peripheral_done = asyncio.Event(), asyncio.Event()
        received = {'hrm': [], 'bulk': [], 'indicate': []}
        p_task = asyncio.create_task(
            run_peripheral(peripheral, p_conn, chars, subscribed, peripheral_done))
        await run_central(connection, mtu, subscribed, peripheral_done, received)
        await p_task

        disconnected = asyncio.get_running_loop().create_future()
        p_conn.once('disconnection', disconnected.set_result)
        await connection.disconnect()
        await asyncio.wait_for(disconnected, 5)
        await asyncio.sleep(0.05)
        log.info('%s: ok', name)
    finally:
        for f in files.values():
            f.close()


async def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--out', default=os.path.dirname(os.path.abspath(__file__)))
    p.add_argument('--timeout', type=float, default=25.0)
    p.add_argument('--verbose', action='store_true')
    a = p.parse_args()
    logging.basicConfig(level=logging.INFO if a.verbose else logging.WARNING,
                        format='%(levelname)s %(name)s: %(message)s')
    sessions = [('gatt-mtu247', 247), ('gatt-mtu23', None)]

    async def all_sessions():
        for name, mtu in sessions:
            await run_session(name, mtu, a.out)

    await asyncio.wait_for(all_sessions(), a.timeout)
    for name, _ in sessions:
        for role in ('central', 'peripheral'):
            path = os.path.join(a.out, f'{name}-{role}.btsnoop')
            print(f'{os.path.relpath(path)}: {os.path.getsize(path)} bytes')
    return 0


if __name__ == '__main__':
    sys.exit(asyncio.run(main()))
