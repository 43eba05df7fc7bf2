#!/usr/bin/env python3
"""A Bumble host (Bumble's own Python stack) as an independent peer for swift-att's
integration tests, attached to one of controllers.py's virtual controllers.

    bumble_peer.py --port 9101 --address C0:B0:00:00:00:01 advertise --name NAME --service 180D
    bumble_peer.py --port 9102 --address C0:B0:00:00:00:02 scan
    bumble_peer.py --port 9102 --address C0:B0:00:00:00:02 central --target ADDR [--mtu 247] [--read-all] \
        [--read UUID] [--write UUID=HEX] [--subscribe UUID] [--write-command UUID=HEX] [--watch-values]

Reports what happens as JSON lines on stdout ({"event": "ready", ...}, "connected",
"disconnected", "advertisement"); reads commands as lines on stdin ("disconnect",
"quit"). Ends at "quit", at end of stdin, after --duration seconds, or at Ctrl-C (SIGINT)
or SIGTERM: then it disconnects its links first ("disconnected-on-exit"), reports "done"
with the signal's name, and exits 0 without a traceback, leaving the controller free.

Pairing (Bumble's own Security Manager): --io none|display|display-yesno|keyboard|
keyboard-display, --no-sc (legacy pairing), --mitm, --no-bonding, --irk HEX (the IRK it
distributes with its identity, the --address), --passkey N (the passkey it shows, or types
when asked; without it a request to type waits for a "passkey N" line on stdin),
--reject-numbers. It reports "compare" (Numeric Comparison's number), "passkey-displayed",
"passkey-requested", "paired" (with the keys it stored, as its key store holds them: hex in
the order of the SMP PDUs, least significant octet first), "pairing-failure" (any pairing
on the link, with the reason) and "pairing-failed" (a "pair" command's error); "encrypted"
when a link's encryption changes. Commands: "pair" (as central: Pairing Request; as
peripheral: Bumble's pair(), which sends a Pairing Request too), "security-request" (as
peripheral), "reconnect" (as central: connects to --target again and encrypts with the
stored key), "new-rpa" (as peripheral with --privacy: a fresh resolvable private address).

--watch-values (central): "value-notified" and "value-indicated" (handle, value) for every
notification and indication on each link, this one's and those after "reconnect", whether
or not this client subscribed on that link: a server that kept a bonded client's
subscriptions sends without being asked again.
"""
import argparse
import asyncio
import json
import logging
import signal
import sys

from bumble.core import AdvertisingData, UUID
from bumble.device import Device
from bumble.hci import Address
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

IO_CAPABILITIES = {
    'none': PairingDelegate.NO_OUTPUT_NO_INPUT,
    'display': PairingDelegate.DISPLAY_OUTPUT_ONLY,
    'display-yesno': PairingDelegate.DISPLAY_OUTPUT_AND_YES_NO_INPUT,
    'keyboard': PairingDelegate.KEYBOARD_INPUT_ONLY,
    'keyboard-display': PairingDelegate.DISPLAY_OUTPUT_AND_KEYBOARD_INPUT,
}

# A passkey typed on stdin ("passkey N") for a pairing waiting in get_number().
typed_passkeys: asyncio.Queue = asyncio.Queue()


class Delegate(PairingDelegate):
    """The user's part, answered from the command line and reported as events."""

    def __init__(self, args):
        distribution = (PairingDelegate.KeyDistribution.DISTRIBUTE_ENCRYPTION_KEY
                        | PairingDelegate.KeyDistribution.DISTRIBUTE_IDENTITY_KEY
                        | PairingDelegate.KeyDistribution.DISTRIBUTE_SIGNING_KEY)
        super().__init__(io_capability=IO_CAPABILITIES[args.io],
                         local_initiator_key_distribution=distribution,
                         local_responder_key_distribution=distribution)
        self.args = args

    async def accept(self):
        return True

    async def compare_numbers(self, number, digits):
        emit(event='compare', number=number)
        return not self.args.reject_numbers

    async def get_number(self):
        emit(event='passkey-requested')
        if self.args.passkey is not None:
            return self.args.passkey
        return await typed_passkeys.get()

    async def display_number(self, number, digits):
        emit(event='passkey-displayed', number=number)

    async def generate_passkey(self):
        if self.args.passkey is not None:
            return self.args.passkey
        return await super().generate_passkey()


def key_hex(key):
    return bytes(key.value).hex() if key is not None else None


def ltk_json(key):
    """An LTK as Bumble stored it: value, EDIV and Rand (legacy pairing), and whether it is authenticated."""
    if key is None:
        return None
    return {'value': bytes(key.value).hex(), 'ediv': key.ediv or 0,
            'rand': bytes(key.rand).hex() if key.rand else '00' * 8, 'authenticated': bool(key.authenticated)}


def setup_pairing(device, args):
    """Bumble's SMP with --io and friends; keys kept in an in-memory key store."""
    from bumble.keys import MemoryKeyStore
    device.keystore = MemoryKeyStore()
    if args.irk:
        device.irk = bytes.fromhex(args.irk)
    device.pairing_config_factory = lambda connection: PairingConfig(
        sc=not args.no_sc, mitm=args.mitm, bonding=not args.no_bonding, delegate=Delegate(args),
        identity_address_type=PairingConfig.AddressType.RANDOM)


def watch_security(connection):
    """Reports a connection's pairing and encryption as events."""
    def on_pairing(keys):
        emit(event='paired', peer=str(connection.peer_address).split('/')[0],
             ltk=ltk_json(keys.ltk), ltk_central=ltk_json(keys.ltk_central),
             ltk_peripheral=ltk_json(keys.ltk_peripheral),
             irk=key_hex(keys.irk), csrk=key_hex(keys.csrk))

    connection.on('pairing', on_pairing)
    connection.on('pairing_failure', lambda reason: emit(event='pairing-failure', reason=int(reason)))
    connection.on('connection_encryption_change', lambda *_: emit(
        event='encrypted', enabled=bool(connection.encryption), key_size=connection.encryption_key_size))


async def use_new_rpa(device):
    """Takes a fresh resolvable private address from the device's IRK (what a phone does
    every 15 minutes). Set with LE Set Random Address directly: Bumble's own update_rpa
    sends the address it is replacing."""
    from bumble.hci import HCI_LE_Set_Random_Address_Command
    rpa = Address.generate_private_address(device.irk)
    await device.send_sync_command(HCI_LE_Set_Random_Address_Command(random_address=rpa))
    device.random_address = rpa
    return str(rpa).split('/')[0]


def watch_values(connection):
    """--watch-values: every value the server pushes on `connection`, reported before
    Bumble's client hands it to the subscribers it has (none, for a subscription the
    server restored by itself) and, for an indication, confirms it."""
    client = connection.gatt_client
    notified = client.on_att_handle_value_notification
    indicated = client.on_att_handle_value_indication

    def on_notification(pdu):
        emit(event='value-notified', handle=pdu.attribute_handle, value=bytes(pdu.attribute_value).hex())
        notified(pdu)

    def on_indication(pdu):
        emit(event='value-indicated', handle=pdu.attribute_handle, value=bytes(pdu.attribute_value).hex())
        indicated(pdu)

    client.on_att_handle_value_notification = on_notification
    client.on_att_handle_value_indication = on_indication


async def pair_on(connection):
    try:
        await connection.pair()
    except Exception as error:
        emit(event='pairing-failed', error=type(error).__name__, message=str(error))


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
        if word.startswith('passkey '):
            typed_passkeys.put_nowait(int(word.split()[1]))
        elif word in handlers:
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

    def on_disconnection(connection, reason):
        connections.remove(connection)
        emit(event='disconnected', reason=reason)
        if args.readvertise:
            asyncio.ensure_future(device.start_advertising(
                advertising_data=data, advertising_interval_min=20, advertising_interval_max=20))

    def on_connection(connection):
        connections.append(connection)
        watch_security(connection)
        connection.on('disconnection', lambda reason: on_disconnection(connection, reason))
        connection.on('connection_parameters_update', lambda: emit(
            event='parameters', interval=connection.parameters.connection_interval,
            latency=connection.parameters.peripheral_latency, timeout=connection.parameters.supervision_timeout))
        emit(event='connected', peer=str(connection.peer_address).split('/')[0], role='peripheral')

    device.on('connection', on_connection)
    if args.privacy:
        await use_new_rpa(device)
    await device.start_advertising(advertising_data=data, advertising_interval_min=20, advertising_interval_max=20)
    emit(event='ready', address=str(device.random_address).split('/')[0], data=data.hex(),
         identity=str(device.static_address).split('/')[0])

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
            asyncio.ensure_future(pair_on(connection))

    async def security_request():
        for connection in connections:
            connection.request_pairing()

    async def new_rpa():
        # A new resolvable private address, advertised from now on.
        if device.is_advertising:
            await device.stop_advertising()
        address = await use_new_rpa(device)
        await device.start_advertising(advertising_data=data, advertising_interval_min=20, advertising_interval_max=20)
        emit(event='rpa', address=address)

    await commands({'disconnect': disconnect, 'update-parameters': update_parameters, 'pair': pair,
                    'security-request': security_request, 'new-rpa': new_rpa})


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
    watch_security(connection)
    if args.watch_values:
        watch_values(connection)
    connection.on('disconnection', lambda reason: emit(event='disconnected', reason=reason))
    # A Security Request is left to the application by Bumble: pair, or encrypt when bonded.
    connection.on('security_request', lambda auth_req: (
        emit(event='security-request', auth_req=int(auth_req)), asyncio.ensure_future(pair_on(connection))))
    emit(event='connected', peer=args.target)
    # Commands (and typed passkeys) are read from now on, while the steps below run.
    handlers = {}
    reader = asyncio.ensure_future(commands(handlers))
    if args.pair:
        await pair_on(connection)
    if args.encrypt:
        try:
            await connection.encrypt()
        except Exception as error:
            emit(event='encrypt-error', error=type(error).__name__, message=str(error))
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
            emit(event='read-failed', uuid=uuid, error=str(error), code=getattr(error, 'error_code', None))
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

    async def pair():
        asyncio.ensure_future(pair_on(connection))

    async def reconnect():
        # Connects to --target again and encrypts with the key stored at pairing.
        nonlocal connection
        if args.watch_values:
            # Watched from the moment the link exists: a server may push a value (a
            # Service Changed owed to a bonded client) in the same read as the
            # connection's completion, before `connect` returns to this coroutine, and
            # Bumble's client would confirm it unseen.
            device.once('connection', watch_values)
        connection = await device.connect(target, timeout=15)
        watch_security(connection)
        connection.on('disconnection', lambda reason: emit(event='disconnected', reason=reason))
        emit(event='connected', peer=args.target)
        try:
            await connection.encrypt()
        except Exception as error:
            emit(event='encrypt-error', error=type(error).__name__, message=str(error))

    handlers.update({'disconnect': disconnect, 'pair': pair, 'reconnect': reconnect})
    await reader


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
    parser.add_argument('--io', choices=sorted(IO_CAPABILITIES), default='none')
    parser.add_argument('--no-sc', action='store_true', help='LE legacy pairing only')
    parser.add_argument('--mitm', action='store_true')
    parser.add_argument('--no-bonding', action='store_true')
    parser.add_argument('--irk', help='the IRK distributed with the identity (32 hex digits)')
    parser.add_argument('--passkey', type=int, help='the passkey shown, or typed when asked')
    parser.add_argument('--reject-numbers', action='store_true', help='Numeric Comparison: say no')
    parser.add_argument('--privacy', action='store_true',
                        help='advertise from a resolvable private address made from --irk ("new-rpa" takes another)')
    sub = parser.add_subparsers(dest='role', required=True)
    a = sub.add_parser('advertise')
    a.add_argument('--name', required=True)
    a.add_argument('--service', action='append', default=[])
    a.add_argument('--readvertise', action='store_true', help='advertise again after each disconnection')
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
    c.add_argument('--pair', action='store_true', help='pair right after connecting')
    c.add_argument('--encrypt', action='store_true', help='encrypt with the stored key after connecting')
    c.add_argument('--write-command', action='append', default=[],
                   help='UUID=HEX written without response, after subscribing')
    c.add_argument('--watch-values', action='store_true',
                   help='report every notification and indication on each link, subscribed to on it or not')
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)

    async with await open_transport(f'tcp-client:127.0.0.1:{args.port}') as (source, sink):
        device = Device.with_hci('bumble-peer', Address(args.address, Address.RANDOM_DEVICE_ADDRESS), source, sink)
        setup_pairing(device, args)
        await device.power_on()
        role = {'advertise': advertise, 'scan': scan, 'central': central}[args.role]
        running = asyncio.create_task(asyncio.wait_for(role(device, args), args.duration))
        # Ctrl-C (or SIGTERM) ends the role, not the process mid-flight: the links are
        # disconnected first. Bumble's virtual controller has no supervision timeout, so a
        # link whose host vanished would stay up there for good, and every later connect
        # on that controller would fail with Command Disallowed.
        stopped_by = []
        # A parent may have spawned this process with the signals blocked (Foundation's
        # Process does): unblocked, or the handlers below would never run.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, lambda signum=signum: (stopped_by.append(signum), running.cancel()))
        try:
            await running
        except asyncio.TimeoutError:
            pass
        except asyncio.CancelledError:
            if not stopped_by:
                raise
        finally:
            await disconnect_all(device)
        if stopped_by:
            emit(event='done', reason=signal.Signals(stopped_by[0]).name)
        else:
            emit(event='done')


async def disconnect_all(device):
    """Disconnects every link still up, each bounded: a peer that no longer answers
    cannot hold the exit up."""
    for connection in list(device.connections.values()):
        try:
            await asyncio.wait_for(connection.disconnect(), 2.0)
            emit(event='disconnected-on-exit', handle=connection.handle)
        except Exception as error:
            emit(event='disconnect-on-exit-failed', handle=connection.handle, error=str(error) or type(error).__name__)


if __name__ == '__main__':
    asyncio.run(main())
