#!/usr/bin/env python3
"""A Bumble host (Bumble's own Python stack) as an independent L2CAP credit-based-channel
peer for swift-att's integration tests, attached to one of controllers.py's virtual
controllers.

    bumble_l2cap.py --port 9301 --address C0:A0:00:00:00:01 listen --psm 0x0080 \
        [--name bumble-l2cap] [--mode any|le|enhanced] [--readvertise] [CHANNEL OPTIONS]
    bumble_l2cap.py --port 9302 --address C0:A0:00:00:00:02 connect --target C0:A0:00:00:00:01 \
        --psm 0x0080 [--mode le|enhanced] [--channels N] [--pair] [CHANNEL OPTIONS]

Both roles serve --psm (Bumble's server takes LE Credit Based Connection Requests, 0x14,
and Enhanced Credit Based (ECFC) Connection Requests, 0x17, alike) and can open channels
to the peer's --psm ("open"). listen advertises (connectable, --name, 20 ms) and waits to
be connected; its --mode picks the requests its server takes: any (default), le (an ECFC
request gets a Command Reject, as from a peer without ECFC), enhanced (an LE request gets
result 0x0002, LE_PSM not supported); "open" then sends LE requests unless --mode
enhanced. connect connects to --target (a random address), pairs if --pair, and opens
--channels channels (default 1; 0: none): one LE request per channel (--mode le, the
default) or one ECFC request for all (--mode enhanced). Each request is bounded by
--open-timeout (Bumble waits forever after a Command Reject).

CHANNEL OPTIONS (both roles): --psm N, --mtu N, --mps N, --credits N (the credits this
side gives the peer, initially and as its refill target: Bumble's max_credits), --echo
(every SDU received is written back on its channel), --hold (keep received SDUs unread and
return no credits until "release", so the sender runs out of credits), --quiet (no "sdu"
events; counts are kept for "stats"), --open-timeout S (default 10), --signals (report
every signaling frame received), --require none|encryption|authentication, --stock (run
Bumble's L2CAP exactly as shipped, without the three fixes below). Numbers may be decimal
or 0x hex.

--require: Bumble has no security requirements on an L2CAP server, so this script refuses
requests itself, as a server with that requirement would: on an unencrypted link with
result 0x0005 (insufficient authentication; 0x0008, insufficient encryption, when a key
from a pairing with that peer in this run exists), on an encrypted link whose key has no
MITM protection with 0x0005 when --require authentication.

Pairing (Bumble's Security Manager, as in bumble_peer.py): --io none|display|display-yesno|
keyboard|keyboard-display, --no-sc, --mitm, --no-bonding, --irk HEX, --passkey N,
--reject-numbers. Events "paired" (peer, authenticated: whether the key has MITM
protection), and "pairing-failure", "pairing-failed", "encrypted", "compare",
"passkey-displayed", "passkey-requested" as in bumble_peer.py.

Events (JSON lines on stdout):
  ready            address
  connected        peer, role (central|peripheral)
  disconnected     peer, reason
  channel-open     index, role (client|server), mode (le|enhanced), psm, cid (Bumble's own,
                   source CID), peer_cid, mtu, mps, peer_mtu, peer_mps, credits (that this
                   side may still send), peer_credits (this side has given the peer)
  channel-failed   psm, mode, count (channels in the request), error, result (the L2CAP
                   result code, or null: timeout, cancelled), name (the result's name)
  channel-closed   index
  sdu              index, length, hex (when length <= 64)
  sent             index, length (a "send"/"send-text" SDU wholly handed to the controller)
  received         channels: [{index, sdus, octets, held, seconds (first to last SDU),
                   credits, peer_credits, state}], sdus, octets (answers "stats")
  bench-done       index, octets, sdus, sdu, seconds, octets_per_second (answers "bulk")
  violation        index, kind, and details: what the peer did that the spec forbids
                   and Bumble lets pass or only logs. kind: mps-exceeded (length, mps),
                   no-credit (length), mtu-exceeded (sdu_length, mtu; Bumble then
                   disconnects the channel), sdu-overflow (sdu_length, received; Bumble
                   disconnects), credit-overflow (credits, added), zero-credits
  command-reject   identifier, reason, data (a Command Reject received; Bumble only logs it)
  refused          mode, psm, result (this script refused a request: --mode, --require;
                   result null: answered with a Command Reject)
  signal           code, name, identifier, hex (--signals: each signaling frame received)
  error            message (and index, octets for a bulk cut short)
  done

Commands (lines on stdin; I is a channel index from "channel-open"):
  send I HEX           one SDU (HEX may be empty: a zero-length SDU, which needs a credit
                       at once, else "error")
  send-text I TEXT     one SDU, the rest of the line as UTF-8
  bulk I BYTES SDU     BYTES octets in SDUs of SDU octets, each written once the previous
                       one is sent (Bumble's write() would otherwise merge them); then,
                       once the controller has taken every ACL packet of the link,
                       "bench-done" (the receiver's own figure: "seconds" in its "stats").
                       Runs in the background.
  stats                "received"
  credits I N          give the peer N credits (an LE Flow Control Credit), held or not
  release I            end --hold on that channel: read the held SDUs ("sdu" events, echoed
                       with --echo) and return credits as Bumble does from then on
  close I              disconnect the channel (Bumble drops data it has not sent yet)
  open [N]             open N more channels (default --channels, else 1) on the link
  disconnect           disconnect the ACL link(s)
  raw CID HEX          one L2CAP frame with that channel ID on the link, as is (no credit
                       accounting: a K-frame sent this way does not use Bumble's credits)
  raw-signal HEX       one LE signaling frame on CID 0x0005 (code, identifier, length, data)
  pair                 pair now (central: Pairing Request; peripheral: Bumble's pair())
  security-request     peripheral: ask the central to pair
  passkey N            the passkey typed, for a pairing waiting for one
  quit                 stop ("done"); so does end of stdin or --duration

Bumble 0.0.236's LE credit-based channels, and what this script does about them:
- Receiving, Bumble returns credits as frames arrive (its pause_reading() is an empty TODO):
  --hold stops that by setting the channel's refill threshold below zero, so the peer gets
  only the initial credits and those given by "credits".
- Bumble enforces little on what it receives: a K-frame over its MPS is taken silently, one
  without credit is taken and logged, credits past 65535 (or 0 credits) are added; only an
  SDU longer than its MTU or than announced makes it disconnect the channel. This script
  reports each as a "violation" before Bumble acts.
- A channel this side requested is handed to its requester one turn of the event loop
  after the response: a K-frame in the same read as the response is dropped ("received pdu
  without a sink"). This script takes each channel in hand as its response arrives.
- Fixes (all off with --stock): (1) an ECFC server files each channel under its own CID
  where it looks up incoming credits by the peer's, so credits are lost when the two
  differ: this script files them under the peer's CID; (2) a closed channel is never
  removed from the table of peer CIDs, so a request reusing a closed channel's source CID
  is refused with 0x000A (source CID already allocated): this script removes it; (3) drain()
  does not finish when the last frame of the queue took the last credit, until the next
  credit comes: this script marks the queue drained as soon as it is empty.
"""
import argparse
import asyncio
import json
import logging
import struct
import sys
import time

from bumble import l2cap
from bumble.core import AdvertisingData, InvalidStateError
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

MAX_CREDITS = 65535
INSUFFICIENT_AUTHENTICATION = 0x0005
INSUFFICIENT_ENCRYPTION = 0x0008
HEX_LIMIT = 64  # "sdu" events carry the bytes up to this length

LeResult = l2cap.L2CAP_LE_Credit_Based_Connection_Response.Result
EnhancedResult = l2cap.L2CAP_Credit_Based_Connection_Response.Result

# A passkey typed on stdin ("passkey N") for a pairing waiting in get_number().
typed_passkeys: asyncio.Queue = asyncio.Queue()


def emit(**fields):
    print(json.dumps(fields), flush=True)


def address_of(address):
    return str(address).split('/')[0]


def number(text):
    """A decimal or 0x-prefixed number."""
    return int(text, 0)


def result_name(enum, code):
    try:
        return enum(code).name
    except ValueError:
        return None


# --- Pairing, as in bumble_peer.py -------------------------------------------------------

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


def setup_pairing(device, args):
    """Bumble's SMP with --io and friends; keys kept in an in-memory key store."""
    from bumble.keys import MemoryKeyStore
    device.keystore = MemoryKeyStore()
    if args.irk:
        device.irk = bytes.fromhex(args.irk)
    device.pairing_config_factory = lambda connection: PairingConfig(
        sc=not args.no_sc, mitm=args.mitm, bonding=not args.no_bonding, delegate=Delegate(args),
        identity_address_type=PairingConfig.AddressType.RANDOM)


async def pair_on(connection):
    try:
        await connection.pair()
    except Exception as error:
        emit(event='pairing-failed', error=type(error).__name__, message=str(error))


# --- Channels ----------------------------------------------------------------------------

class ChannelClosed(Exception):
    pass


class Endpoint:
    """One open channel and what this peer does with it: counts, echoes or holds what
    arrives, checks the peer's frames and credits, and sends SDUs one at a time."""

    def __init__(self, peer, index, channel, role, mode):
        self.peer = peer
        self.args = peer.args
        self.index = index
        self.channel = channel
        self.role = role
        self.mode = mode
        self.sdus = 0
        self.octets = 0
        self.first = None
        self.last = None
        self.holding = self.args.hold
        self.held = []
        self.lock = asyncio.Lock()  # one SDU in Bumble's queue at a time: boundaries kept
        self.closed = asyncio.get_running_loop().create_future()
        channel.sink = self.on_sdu
        channel.on('close', self.on_close)
        self.watch_peer()
        if self.holding:
            # Bumble refills the peer when its credits fall to this threshold.
            channel.peer_credits_threshold = -1
        if not self.args.stock:
            self.fix_drain()

    def describe(self):
        channel = self.channel
        return dict(index=self.index, role=self.role, mode=self.mode, psm=channel.psm,
                    cid=channel.source_cid, peer_cid=channel.destination_cid,
                    mtu=channel.mtu, mps=channel.mps, peer_mtu=channel.peer_mtu, peer_mps=channel.peer_mps,
                    credits=channel.credits, peer_credits=channel.peer_credits)

    def violation(self, kind, **details):
        emit(event='violation', index=self.index, kind=kind, **details)

    def watch_peer(self):
        """Checks every K-frame and credit the peer sends before Bumble takes it
        (Bumble's own checks only log, except an SDU past its MTU)."""
        channel = self.channel
        on_pdu, on_credits = channel.on_pdu, channel.on_credits

        def checked_pdu(pdu):
            if channel.state == channel.State.CONNECTED and channel.sink is not None:
                if len(pdu) > channel.mps:
                    self.violation('mps-exceeded', length=len(pdu), mps=channel.mps)
                if channel.peer_credits == 0:
                    self.violation('no-credit', length=len(pdu))
                buffered = channel.in_sdu or b''
                combined = buffered + pdu
                if len(combined) >= 2:
                    sdu_length = struct.unpack_from('<H', combined, 0)[0]
                    if sdu_length > channel.mtu:
                        if len(buffered) < 2:
                            self.violation('mtu-exceeded', sdu_length=sdu_length, mtu=channel.mtu)
                    elif len(combined) - 2 > sdu_length:
                        self.violation('sdu-overflow', sdu_length=sdu_length, received=len(combined) - 2)
            on_pdu(pdu)

        def checked_credits(added):
            if added == 0:
                self.violation('zero-credits')
            elif channel.credits + added > MAX_CREDITS:
                self.violation('credit-overflow', credits=channel.credits, added=added)
            on_credits(added)

        # Bumble's channel manager calls these through the instance.
        channel.on_pdu = checked_pdu
        channel.on_credits = checked_credits

    def fix_drain(self):
        """Bumble sets `drained` only on a pass of process_output() that finds the queue
        empty while it still has a credit: after a frame that took the last credit, drain()
        waits for the peer's next credit though everything has been sent."""
        channel = self.channel
        process_output = channel.process_output

        def processed():
            process_output()
            if not channel.out_queue and channel.out_sdu is None:
                channel.drained.set()

        channel.process_output = processed

    def on_sdu(self, sdu):
        now = time.monotonic()
        self.first = self.first or now
        self.last = now
        self.sdus += 1
        self.octets += len(sdu)
        if self.holding:
            self.held.append(sdu)
        else:
            self.consume(sdu)

    def consume(self, sdu):
        if not self.args.quiet:
            fields = dict(event='sdu', index=self.index, length=len(sdu))
            if len(sdu) <= HEX_LIMIT:
                fields['hex'] = sdu.hex()
            emit(**fields)
        if self.args.echo:
            self.peer.spawn(self.send(sdu), 'echo')

    def on_close(self):
        if not self.closed.done():
            self.closed.set_result(None)
        emit(event='channel-closed', index=self.index)

    async def drain(self):
        if self.channel.drained.is_set():
            return
        waiter = asyncio.ensure_future(self.channel.drained.wait())
        await asyncio.wait({waiter, self.closed}, return_when=asyncio.FIRST_COMPLETED)
        if not waiter.done():
            waiter.cancel()
            raise ChannelClosed(f'channel {self.index} closed')

    async def flushed(self):
        """Waits until the host has handed every ACL packet of the link to the controller
        and the controller has reported it completed."""
        host = self.channel.manager.host
        link = host.connections.get(self.channel.connection.handle)
        if link is None:
            raise ChannelClosed(f'channel {self.index}: no link')
        queue = link.acl_packet_queue

        async def drained():
            # The queue's per-link drain() can wake while packets wait behind the
            # controller's buffers: "pending" counts those too (all links).
            while queue.pending:
                await queue.drain(link.handle)
                await asyncio.sleep(0)

        waiter = asyncio.ensure_future(drained())
        await asyncio.wait({waiter, self.closed}, return_when=asyncio.FIRST_COMPLETED)
        if not waiter.done():
            waiter.cancel()
            raise ChannelClosed(f'channel {self.index} closed')

    async def send(self, sdu, report=False):
        """Writes one SDU once the previous one has gone, and waits until it has gone."""
        async with self.lock:
            channel = self.channel
            if self.closed.done() or channel.state != channel.State.CONNECTED:
                raise ChannelClosed(f'channel {self.index} is not open')
            if len(sdu) > channel.peer_mtu:
                raise ValueError(f'{len(sdu)} octets exceed the peer MTU {channel.peer_mtu} (use raw)')
            if sdu:
                channel.write(sdu)
                await self.drain()
            else:
                # Bumble's write() cannot send an empty SDU (it asserts a payload).
                if channel.credits == 0:
                    raise ValueError('no credit for a zero-length SDU')
                channel.send_pdu(b'\x00\x00')
                channel.credits -= 1
        if report:
            emit(event='sent', index=self.index, length=len(sdu))

    def give_credits(self, count):
        channel = self.channel
        channel.send_control_frame(l2cap.L2CAP_LE_Flow_Control_Credit(
            identifier=channel.manager.next_identifier(channel.connection),
            cid=channel.source_cid, credits=count))
        channel.peer_credits += count

    def release(self):
        channel = self.channel
        self.holding = False
        channel.peer_credits_threshold = channel.peer_max_credits // 2
        held, self.held = self.held, []
        for sdu in held:
            self.consume(sdu)
        if channel.state == channel.State.CONNECTED and channel.peer_credits <= channel.peer_credits_threshold:
            self.give_credits(channel.peer_max_credits - channel.peer_credits)

    def stats(self):
        return dict(index=self.index, sdus=self.sdus, octets=self.octets, held=len(self.held),
                    seconds=round(self.last - self.first, 6) if self.first else 0.0,
                    credits=self.channel.credits, peer_credits=self.channel.peer_credits,
                    state=self.channel.state.name)


class Peer:
    """The device, its links and its channels, and the commands that act on them."""

    def __init__(self, device, args):
        self.device = device
        self.args = args
        self.manager = device.l2cap_channel_manager
        self.connections = []
        self.endpoints = []
        self.tasks = set()
        self.paired = {}  # peer address -> whether its key is authenticated (MITM)
        self.incoming_mode = 'le'
        self.hook_manager()

    def spawn(self, coroutine, label):
        """Runs a command in the background, reporting its failure as an "error" event."""
        async def run():
            try:
                await coroutine
            except (ChannelClosed, ValueError, InvalidStateError) as error:
                emit(event='error', message=f'{label}: {error}')
        task = asyncio.ensure_future(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    # -- Links --

    def add_connection(self, connection, role):
        self.connections.append(connection)
        peer = address_of(connection.peer_address)

        def on_pairing(keys):
            authenticated = any(key is not None and key.authenticated
                                for key in (keys.ltk, keys.ltk_central, keys.ltk_peripheral))
            self.paired[address_of(connection.peer_address)] = authenticated
            emit(event='paired', peer=address_of(connection.peer_address), authenticated=authenticated)

        def on_disconnection(reason):
            if connection in self.connections:
                self.connections.remove(connection)
            emit(event='disconnected', peer=peer, reason=reason)

        connection.on('pairing', on_pairing)
        connection.on('pairing_failure', lambda reason: emit(event='pairing-failure', reason=int(reason)))
        connection.on('connection_encryption_change', lambda *_: emit(
            event='encrypted', enabled=bool(connection.encryption), key_size=connection.encryption_key_size))
        connection.on('disconnection', on_disconnection)
        if role == 'central':
            # A Security Request is left to the application by Bumble: pair.
            connection.on('security_request', lambda auth_req: self.spawn(pair_on(connection), 'pair'))
        emit(event='connected', peer=peer, role=role)

    def connection(self):
        if not self.connections:
            raise ValueError('no connection')
        return self.connections[-1]

    def endpoint(self, text):
        index = number(text)
        if not 0 <= index < len(self.endpoints):
            raise ValueError(f'no channel {index}')
        return self.endpoints[index]

    def add_channel(self, channel, role, mode):
        endpoint = Endpoint(self, len(self.endpoints), channel, role, mode)
        self.endpoints.append(endpoint)
        emit(event='channel-open', **endpoint.describe())
        return endpoint

    def serve(self):
        """Accepts channels to --psm (LE and ECFC requests alike, as Bumble's server does)."""
        self.device.create_l2cap_server(
            spec=self.spec(), handler=lambda channel: self.add_channel(channel, 'server', self.incoming_mode))

    def spec(self):
        return l2cap.LeCreditBasedChannelSpec(psm=self.args.psm, mtu=self.args.mtu, mps=self.args.mps,
                                              max_credits=self.args.credits)

    async def open(self, count, mode):
        """Opens `count` channels to --psm on the current link (one LE request each, or one
        ECFC request for all), each request bounded by --open-timeout."""
        connection = self.connection()
        requests = [1] * count if mode == 'le' else [count]
        for size in requests:
            failure = dict(event='channel-failed', psm=self.args.psm, mode=mode, count=size)
            try:
                if mode == 'le':
                    channels = [await asyncio.wait_for(
                        connection.create_l2cap_channel(spec=self.spec()), self.args.open_timeout)]
                else:
                    channels = await asyncio.wait_for(
                        self.manager.create_enhanced_credit_based_channels(connection, self.spec(), size),
                        self.args.open_timeout)
            except asyncio.TimeoutError:
                emit(**failure, error='timeout', result=None, name=None)
                continue
            except l2cap.L2capError as error:
                code = int(error.error_code)
                emit(**failure, error=str(error), result=code,
                     name=result_name(LeResult if mode == 'le' else EnhancedResult, code))
                continue
            except asyncio.CancelledError:
                if asyncio.current_task().cancelling():
                    raise
                # Bumble cancels a pending request when the link goes down.
                emit(**failure, error='cancelled', result=None, name=None)
                return
            self.adopt(connection, channels, mode)  # done already, unless a hook missed them

    # -- Bumble's channel manager, watched and mended --

    def hook_manager(self):
        manager, args = self.manager, self.args

        reject = manager.on_l2cap_command_reject

        def on_command_reject(connection, cid, packet):
            emit(event='command-reject', identifier=packet.identifier, reason=int(packet.reason),
                 data=bytes(packet.data).hex())
            reject(connection, cid, packet)

        manager.on_l2cap_command_reject = on_command_reject

        if args.signals:
            on_control_frame = manager.on_control_frame

            def traced(connection, cid, frame):
                emit(event='signal', code=frame.code, name=frame.name, identifier=frame.identifier,
                     hex=bytes(frame).hex())
                on_control_frame(connection, cid, frame)

            manager.on_control_frame = traced

        le_request = manager.on_l2cap_le_credit_based_connection_request
        enhanced_request = manager.on_l2cap_credit_based_connection_request

        if not args.stock:
            enhanced_request = self.fixed_enhanced_request(enhanced_request)
            on_channel_closed = manager.on_channel_closed

            def closed(channel):
                # Bumble's on_channel_closed() removes an LE channel from its table of
                # peer CIDs only if the link has no entry in its table of own CIDs, which
                # still holds that very channel: never.
                on_channel_closed(channel)
                table = manager.le_coc_channels.get(channel.connection.handle, {})
                for cid in [cid for cid, other in table.items() if other is channel]:
                    del table[cid]

            manager.on_channel_closed = closed

        def on_le_request(connection, cid, request):
            refusal = self.refusal(connection, 'le')
            if refusal is not None:
                emit(event='refused', mode='le', psm=request.le_psm, result=refusal)
                manager.send_control_frame(connection, cid, l2cap.L2CAP_LE_Credit_Based_Connection_Response(
                    identifier=request.identifier, destination_cid=0, mtu=0, mps=0, initial_credits=0,
                    result=refusal))
                return
            self.incoming_mode = 'le'
            le_request(connection, cid, request)

        def on_enhanced_request(connection, cid, request):
            if args.role == 'listen' and args.mode == 'le':
                emit(event='refused', mode='enhanced', psm=request.spsm, result=None)
                manager.send_control_frame(connection, cid, l2cap.L2CAP_Command_Reject(
                    identifier=request.identifier, reason=l2cap.L2CAP_COMMAND_NOT_UNDERSTOOD_REASON, data=b''))
                return
            refusal = self.refusal(connection, 'enhanced')
            if refusal is not None:
                emit(event='refused', mode='enhanced', psm=request.spsm, result=refusal)
                manager.send_control_frame(connection, cid, l2cap.L2CAP_Credit_Based_Connection_Response(
                    identifier=request.identifier, mtu=0, mps=0, initial_credits=0,
                    result=EnhancedResult(refusal), destination_cid=[0] * len(request.source_cid)))
                return
            self.incoming_mode = 'enhanced'
            try:
                enhanced_request(connection, cid, request)
            finally:
                self.incoming_mode = 'le'

        manager.on_l2cap_le_credit_based_connection_request = on_le_request
        manager.on_l2cap_credit_based_connection_request = on_enhanced_request

        # A channel this side requested is taken in hand as the response arrives: Bumble
        # hands it to the requester one turn of the event loop later, and a K-frame or
        # credit in the same read as the response would meanwhile be dropped (no sink yet:
        # "received pdu without a sink"; not yet filed by peer CID: "received credits for
        # an unknown channel").
        le_response = manager.on_l2cap_le_credit_based_connection_response
        enhanced_response = manager.on_l2cap_credit_based_connection_response

        def on_le_response(connection, cid, response):
            request = manager.le_coc_requests.get(response.identifier)
            le_response(connection, cid, response)
            if request is not None:
                self.adopt(connection, [manager.find_channel(connection.handle, request.source_cid)], 'le')

        def on_enhanced_response(connection, cid, response):
            pending = manager.pending_credit_based_connections.get(connection.handle, {}).get(response.identifier)
            enhanced_response(connection, cid, response)
            if pending is not None:
                self.adopt(connection, pending[1], 'enhanced')

        manager.on_l2cap_le_credit_based_connection_response = on_le_response
        manager.on_l2cap_credit_based_connection_response = on_enhanced_response

    def adopt(self, connection, channels, mode):
        """Each of `channels` now open and not yet an endpoint becomes one."""
        for channel in channels:
            if (channel is None or channel.state != channel.State.CONNECTED
                    or any(endpoint.channel is channel for endpoint in self.endpoints)):
                continue
            if not self.args.stock:
                self.manager.le_coc_channels.setdefault(connection.handle, {})[channel.destination_cid] = channel
            self.add_channel(channel, 'client', mode)

    def fixed_enhanced_request(self, handler):
        """Bumble's ECFC server files each new channel in its table of peer CIDs (where
        credits are looked up) under its own CID: file it under the peer's instead."""
        manager = self.manager

        def on_request(connection, cid, request):
            table = manager.le_coc_channels.setdefault(connection.handle, {})
            before = dict(table)
            known = set(manager.channels.get(connection.handle, {}))
            handler(connection, cid, request)
            new = [channel for source_cid, channel in manager.channels.get(connection.handle, {}).items()
                   if source_cid not in known]
            for channel in new:
                if table.get(channel.source_cid) is channel:
                    if channel.source_cid in before:
                        table[channel.source_cid] = before[channel.source_cid]
                    else:
                        del table[channel.source_cid]
            for channel in new:
                table[channel.destination_cid] = channel

        return on_request

    def refusal(self, connection, mode):
        """The result a server with this --mode and --require gives, or None to accept."""
        args = self.args
        if mode == 'le' and args.role == 'listen' and args.mode == 'enhanced':
            return int(LeResult.CONNECTION_REFUSED_LE_PSM_NOT_SUPPORTED)
        if args.require == 'none':
            return None
        peer = address_of(connection.peer_address)
        if not connection.is_encrypted:
            # A key to encrypt with: 0x0008; none: 0x0005 (Core Vol 3 Part C 10.3.2).
            return INSUFFICIENT_ENCRYPTION if peer in self.paired else INSUFFICIENT_AUTHENTICATION
        if args.require == 'authentication' and not self.authenticated(connection):
            return INSUFFICIENT_AUTHENTICATION
        return None

    def authenticated(self, connection):
        """Whether the link's key came from a pairing with MITM protection. Bumble's own
        connection.authenticated is true after any LE encryption, and a peripheral's
        "pairing" event can come after the central's first request on the new key: the
        pairing session still open says how it paired."""
        from bumble.smp import PairingMethod
        peer = address_of(connection.peer_address)
        if peer in self.paired:
            return self.paired[peer]
        session = self.device.smp_manager.sessions.get(connection.handle)
        method = getattr(session, 'pairing_method', None)
        return method is not None and method != PairingMethod.JUST_WORKS

    # -- Commands --

    async def commands(self):
        """Reads stdin lines and runs them; returns at quit or EOF."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        handlers = {
            'send': self.cmd_send, 'send-text': self.cmd_send_text, 'bulk': self.cmd_bulk,
            'stats': self.cmd_stats, 'credits': self.cmd_credits, 'release': self.cmd_release,
            'close': self.cmd_close, 'open': self.cmd_open, 'disconnect': self.cmd_disconnect,
            'raw': self.cmd_raw, 'raw-signal': self.cmd_raw_signal, 'pair': self.cmd_pair,
            'security-request': self.cmd_security_request, 'passkey': self.cmd_passkey,
        }
        while True:
            line = await reader.readline()
            if not line:
                return
            text = line.decode().rstrip('\r\n')
            word, _, rest = text.lstrip().partition(' ')
            if word == 'quit':
                return
            if not word:
                continue
            if word in handlers:
                try:
                    await handlers[word](rest if word == 'send-text' else rest.strip())
                except (ValueError, IndexError, ChannelClosed, InvalidStateError) as error:
                    emit(event='error', message=f'{word}: {error}')
            else:
                emit(event='error', message=f'unknown command {word!r}')

    async def cmd_send(self, rest):
        index, _, data = rest.partition(' ')
        endpoint = self.endpoint(index)
        self.spawn(endpoint.send(bytes.fromhex(data.replace(' ', '')), report=True), 'send')

    async def cmd_send_text(self, rest):
        index, _, text = rest.partition(' ')
        endpoint = self.endpoint(index)
        self.spawn(endpoint.send(text.encode(), report=True), 'send-text')

    async def cmd_bulk(self, rest):
        index, total, size = rest.split()
        endpoint, total, size = self.endpoint(index), number(total), number(size)
        if size < 1 or total < 0:
            raise ValueError('bulk I BYTES SDU: BYTES >= 0, SDU >= 1')
        self.spawn(self.bulk(endpoint, total, size), 'bulk')

    async def bulk(self, endpoint, total, size):
        pattern = bytes(i & 0xFF for i in range(size))
        sent = sdus = 0
        start = time.monotonic()
        try:
            while sent < total:
                length = min(size, total - sent)
                await endpoint.send(pattern[:length])
                sent += length
                sdus += 1
            await endpoint.flushed()
        except ChannelClosed as error:
            emit(event='error', message=f'bulk: {error}', index=endpoint.index, octets=sent)
            return
        seconds = time.monotonic() - start
        emit(event='bench-done', index=endpoint.index, octets=sent, sdus=sdus, sdu=size,
             seconds=round(seconds, 6), octets_per_second=round(sent / seconds) if seconds else None)

    async def cmd_stats(self, rest):
        channels = [endpoint.stats() for endpoint in self.endpoints]
        emit(event='received', channels=channels, sdus=sum(c['sdus'] for c in channels),
             octets=sum(c['octets'] for c in channels))

    async def cmd_credits(self, rest):
        index, count = rest.split()
        count = number(count)
        if not 0 <= count <= MAX_CREDITS:
            raise ValueError('credits: 0 to 65535')
        self.endpoint(index).give_credits(count)

    async def cmd_release(self, rest):
        self.endpoint(rest).release()

    async def cmd_close(self, rest):
        endpoint = self.endpoint(rest)

        async def close():
            try:
                await asyncio.wait_for(endpoint.channel.disconnect(), 5)
            except asyncio.TimeoutError:
                emit(event='error', message=f'close: no Disconnection Response on channel {endpoint.index}')

        self.spawn(close(), 'close')

    async def cmd_open(self, rest):
        count = number(rest) if rest else (self.args.channels if self.args.role == 'connect' else 1)
        mode = self.args.mode if self.args.mode in ('le', 'enhanced') else 'le'
        self.spawn(self.open(count, mode), 'open')

    async def cmd_disconnect(self, rest):
        for connection in list(self.connections):
            await connection.disconnect()

    async def cmd_raw(self, rest):
        cid, _, data = rest.partition(' ')
        self.device.send_l2cap_pdu(self.connection().handle, number(cid), bytes.fromhex(data.replace(' ', '')))

    async def cmd_raw_signal(self, rest):
        self.device.send_l2cap_pdu(self.connection().handle, l2cap.L2CAP_LE_SIGNALING_CID,
                                   bytes.fromhex(rest.replace(' ', '')))

    async def cmd_pair(self, rest):
        for connection in self.connections:
            self.spawn(pair_on(connection), 'pair')

    async def cmd_passkey(self, rest):
        typed_passkeys.put_nowait(int(rest))

    async def cmd_security_request(self, rest):
        for connection in self.connections:
            connection.request_pairing()


# --- Roles -------------------------------------------------------------------------------

async def listen(peer, args):
    device = peer.device
    data = bytes(AdvertisingData([(AdvertisingData.FLAGS, bytes([0x06])),
                                  (AdvertisingData.COMPLETE_LOCAL_NAME, args.name.encode())]))

    async def advertise():
        await device.start_advertising(advertising_data=data, advertising_interval_min=20,
                                       advertising_interval_max=20)

    def on_connection(connection):
        peer.add_connection(connection, 'peripheral')
        if args.readvertise:
            connection.on('disconnection', lambda reason: asyncio.ensure_future(advertise()))

    device.on('connection', on_connection)
    peer.serve()
    await advertise()
    emit(event='ready', address=address_of(device.random_address))
    await peer.commands()


async def connect(peer, args):
    device = peer.device
    peer.serve()
    emit(event='ready', address=address_of(device.random_address))
    connection = await device.connect(Address(args.target, Address.RANDOM_DEVICE_ADDRESS), timeout=15)
    peer.add_connection(connection, 'central')
    reader = asyncio.ensure_future(peer.commands())  # commands (and passkeys) from now on
    if args.pair:
        await pair_on(connection)
    if args.channels:
        await peer.open(args.channels, args.mode)
    await reader


async def main():
    parser = argparse.ArgumentParser(description='A Bumble L2CAP credit-based-channel peer (see the module docstring).')
    parser.add_argument('--port', type=int, required=True, help="a controllers.py port")
    parser.add_argument('--address', required=True, help='static random address for this host')
    parser.add_argument('--duration', type=float, default=120.0)
    parser.add_argument('--io', choices=sorted(IO_CAPABILITIES), default='none')
    parser.add_argument('--no-sc', action='store_true', help='LE legacy pairing only')
    parser.add_argument('--mitm', action='store_true')
    parser.add_argument('--no-bonding', action='store_true')
    parser.add_argument('--irk', help='the IRK distributed with the identity (32 hex digits)')
    parser.add_argument('--passkey', type=int, help='the passkey shown, or typed when asked')
    parser.add_argument('--reject-numbers', action='store_true', help='Numeric Comparison: say no')

    channel = argparse.ArgumentParser(add_help=False)
    channel.add_argument('--psm', type=number, required=True, help='LE_PSM / SPSM (decimal or 0x hex)')
    channel.add_argument('--mtu', type=number, default=l2cap.L2CAP_LE_CREDIT_BASED_CONNECTION_DEFAULT_MTU)
    channel.add_argument('--mps', type=number, default=l2cap.L2CAP_LE_CREDIT_BASED_CONNECTION_DEFAULT_MPS)
    channel.add_argument('--credits', type=number,
                         default=l2cap.L2CAP_LE_CREDIT_BASED_CONNECTION_DEFAULT_INITIAL_CREDITS,
                         help="credits given to the peer, initially and as refill target (Bumble's max_credits)")
    channel.add_argument('--echo', action='store_true', help='write every SDU received back on its channel')
    channel.add_argument('--hold', action='store_true', help='read nothing and return no credits until "release"')
    channel.add_argument('--quiet', action='store_true', help='no "sdu" events')
    channel.add_argument('--open-timeout', type=float, default=10.0)
    channel.add_argument('--signals', action='store_true', help='a "signal" event per signaling frame received')
    channel.add_argument('--require', choices=['none', 'encryption', 'authentication'], default='none',
                         help='refuse channel requests on links without this security')
    channel.add_argument('--stock', action='store_true', help="Bumble's L2CAP as shipped, without this script's fixes")

    sub = parser.add_subparsers(dest='role', required=True)
    a = sub.add_parser('listen', parents=[channel])
    a.add_argument('--name', default='bumble-l2cap')
    a.add_argument('--mode', choices=['any', 'le', 'enhanced'], default='any',
                   help='the requests accepted: both, LE only (ECFC gets a Command Reject), ECFC only')
    a.add_argument('--readvertise', action='store_true', help='advertise again after each disconnection')
    c = sub.add_parser('connect', parents=[channel])
    c.add_argument('--target', required=True)
    c.add_argument('--mode', choices=['le', 'enhanced'], default='le')
    c.add_argument('--channels', type=int, default=1, help='channels opened once connected (0: none)')
    c.add_argument('--pair', action='store_true', help='pair before opening channels')
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    try:
        l2cap.LeCreditBasedChannelSpec(psm=args.psm, mtu=args.mtu, mps=args.mps, max_credits=args.credits)
    except ValueError as error:
        parser.error(str(error))

    async with await open_transport(f'tcp-client:127.0.0.1:{args.port}') as (source, sink):
        device = Device.with_hci('bumble-l2cap', Address(args.address, Address.RANDOM_DEVICE_ADDRESS), source, sink)
        setup_pairing(device, args)
        await device.power_on()
        peer = Peer(device, args)
        role = {'listen': listen, 'connect': connect}[args.role]
        try:
            await asyncio.wait_for(role(peer, args), args.duration)
        except asyncio.TimeoutError:
            pass
        emit(event='done')


if __name__ == '__main__':
    asyncio.run(main())
