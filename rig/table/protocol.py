"""The relic hub's serial frames: the one definition shared by the Pico firmware and the Pi.

This file runs unchanged on CPython (the Pi, the tests, the virtual hub) and on CircuitPython 9
(copied to the Pico as ``lib/relic_protocol.py`` by ``firmware/build.py``).  So it keeps to the
subset CircuitPython runs: plain classes, ``struct``, ``%`` formatting; no dataclasses, typing,
enum or f-strings.  It does no I/O and reads no clock (sans-I/O): the firmware hands it values
and gets bytes; the Pi hands :meth:`Decoder.feed` bytes and gets frames.

Wire format
-----------
Each frame on the wire is ``0x00 + COBS(body) + 0x00``.  COBS (consistent overhead byte
stuffing) removes every zero from the body, so 0x00 only ever means "frame boundary"; a reader
that starts mid-stream (the port opened late, bytes lost at a reset) resynchronises on the next
0x00.  The leading 0x00 ends any noise before the frame, so noise costs no valid frame.

The body, little-endian::

    offset size field
    0      1    protocol version (PROTOCOL_VERSION)
    1      1    frame type (FRAME_HELLO, FRAME_HEARTBEAT, FRAME_EVENT)
    2      1    relic id (1..3; 0 = the hub as a whole: hello and heartbeat)
    3      2    sequence number, one counter for all frames of one boot, wraps 65535 -> 0
    5      4    the hub's millisecond clock (wraps after 49 days)
    9      n    payload (per type, below)
    9+n    2    CRC-16/CCITT-FALSE of bytes 0..9+n-1, little-endian

CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR;
check value ``crc16(b"123456789") == 0x29B1``.

Payloads::

    hello      fw_major u8, fw_minor u8, fw_patch u8, relics_found u8 (bit i-1 = relic i),
               flags u8 (bit 0: the first hello since the hub booted)
    heartbeat  count u8, then per relic: relic u8, flags u8, tilt i16, falls u16
    event      event u8 (EVENT_FREEFALL, EVENT_MOTION), value u8, falls u16, tilt i16

``tilt`` is in hundredths of a degree from the rest orientation (0..18000; -1 = not measured
yet).  ``falls`` is the relic's free-fall counter since boot (wraps at 65536): a fall whose event
frame was lost still shows in the next heartbeat.  Heartbeat ``flags``: bit 0 moving, bit 1 the
sensor answers, bit 2 the rest orientation has been captured.

Order
-----
Sequence numbers say which of two frames of one boot is newer: ``b`` is newer than ``a`` when
``(b - a) % 65536`` is between 1 and 32767 (serial number arithmetic, so 0 follows 65535).  The
Decoder passes on only frames newer than the newest it has passed on; an older one or a
duplicate (a stale or replayed frame: a faulty USB hub, a port replaying its buffer) is counted
as ``stale`` and dropped, so an old fall counter can never come back.  A hub that reboots starts
again at 0 with a boot hello; a replayed old boot hello must not restart the chain (it would make
every fall since that boot news again), so a boot hello is held until the next frame: it starts
a new chain only if that frame follows it closely (at most BOOT_FOLLOW_FRAMES on) and more
closely than it follows the old chain.  A new connection (:meth:`Decoder.reset_stream`) takes
the chain as it comes: the hub kept counting while the port was closed.

Decoded frames
--------------
:class:`Hello`, :class:`Heartbeat` (holding :class:`RelicStatus` values) and :class:`Event`:
small plain classes with named attributes, equality by value and a readable ``repr``.  Every
frame has ``kind`` (its FRAME_* number), ``version``, ``relic``, ``seq`` and ``ms``.
"""

import struct

try:  # On the Pi, part of the rig's error tree; on the Pico (no package ``rig``) a ValueError.
    from rig.core.errors import RigError as _RigError

    class _ErrorBase(_RigError, ValueError):
        pass
except ImportError:  # pragma: no cover - CircuitPython only
    _ErrorBase = ValueError


class ProtocolError(_ErrorBase):
    """A relic-hub frame or value that cannot be encoded or decoded (bad COBS, bad CRC, wrong
    length or version).  The same class on the Pi and on the Pico."""


PROTOCOL_VERSION = 1

FRAME_HELLO = 1
FRAME_HEARTBEAT = 2
FRAME_EVENT = 3
FRAME_NAMES = {FRAME_HELLO: "hello", FRAME_HEARTBEAT: "heartbeat", FRAME_EVENT: "event"}

EVENT_FREEFALL = 1
EVENT_MOTION = 2
EVENT_NAMES = {EVENT_FREEFALL: "freefall", EVENT_MOTION: "motion"}

FLAG_MOVING = 0x01
FLAG_PRESENT = 0x02
FLAG_CALIBRATED = 0x04

SEQ_MODULO = 0x10000
SEQ_HALF = 0x8000
# How far the frame after a boot hello may be from it (frames lost in between) for the hello to
# count as a reboot: a hub sends about 20 frames a second, so this is a few seconds' worth.
BOOT_FOLLOW_FRAMES = 64
MS_MODULO = 0x100000000
FALLS_MODULO = 0x10000
MAX_RELICS_PER_FRAME = 8
TILT_UNKNOWN = -1

_HEADER = "<BBBHI"
HEADER_SIZE = 9
CRC_SIZE = 2
MIN_BODY_SIZE = HEADER_SIZE + CRC_SIZE
_HELLO = "<BBBBB"
HELLO_SIZE = 5
HELLO_BOOT = 0x01
_RELIC = "<BBhH"
RELIC_SIZE = 6
_EVENT = "<BBHh"
EVENT_SIZE = 6
# Longest body we ever accept: a heartbeat of MAX_RELICS_PER_FRAME relics.  A stuffed body is at
# most one byte longer (under 254 bytes); anything longer between two zeros is noise.
MAX_BODY_SIZE = HEADER_SIZE + 1 + MAX_RELICS_PER_FRAME * RELIC_SIZE + CRC_SIZE
MAX_CHUNK_SIZE = MAX_BODY_SIZE + 2


# --- CRC-16/CCITT-FALSE ------------------------------------------------------------------------

def _make_crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_CRC_TABLE = _make_crc_table()

try:  # CPython's binascii computes this very CRC in C: the Pi decodes a flood at C speed.
    from binascii import crc_hqx as _crc_in_c
except ImportError:  # pragma: no cover - CircuitPython has no crc_hqx
    _crc_in_c = None


def crc16_table(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE by table, in plain Python: what the Pico runs."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
    if _crc_in_c is not None:
        return _crc_in_c(data, crc)
    return crc16_table(data, crc)


# --- COBS --------------------------------------------------------------------------------------

def cobs_encode(data):
    """Stuff ``data`` so that the result holds no zero byte (no delimiter added)."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(chunk):
    """Unstuff one chunk (the bytes between two zeros).

    Returns ``(data, complete)``: ``complete`` is False when a block announced more bytes than
    the chunk holds, the shape of a frame cut short; ``data`` is then what could be recovered.
    """
    n = len(chunk)
    if 0xFF not in chunk and 0 not in chunk:
        # Every block ends in a zero (a frame of the rig is far shorter than 254 bytes): the data
        # is the chunk after its first code with every later code byte turned into that zero.
        out = bytearray(chunk)
        at = 0
        while at < n:
            code = out[at]
            out[at] = 0
            at += code
        return bytes(out[1:]), at == n
    out = bytearray()
    i = 0
    while i < n:
        code = chunk[i]
        if code == 0:
            return bytes(out), False
        end = i + code
        if end > n:
            out.extend(chunk[i + 1:n])
            return bytes(out), False
        out.extend(chunk[i + 1:end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out), True


# --- Decoded frames ------------------------------------------------------------------------------

class _Value:
    """Equality by value over ``_fields`` and a readable repr (plain classes run on the Pico)."""

    _fields = ()

    def __eq__(self, other):
        if type(other) is not type(self):
            return False
        for name in self._fields:
            if getattr(self, name) != getattr(other, name):
                return False
        return True

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        parts = []
        for name in self._fields:
            parts.append("%s=%r" % (name, getattr(self, name)))
        return "%s(%s)" % (type(self).__name__, ", ".join(parts))


class RelicStatus(_Value):
    """One relic's condition in a heartbeat.

    ``tilt_deg`` is None until the relic's sensor has been read; ``falls`` counts falls since the
    hub booted (mod 65536).
    """

    _fields = ("relic", "tilt_deg", "moving", "falls", "present", "calibrated")

    def __init__(self, relic, tilt_deg, moving, falls, present=True, calibrated=False):
        self.relic = relic
        self.tilt_deg = tilt_deg
        self.moving = bool(moving)
        self.falls = falls
        self.present = bool(present)
        self.calibrated = bool(calibrated)


class Hello(_Value):
    """The hub announces itself: at boot (``boot`` True: its fall counters start at 0) and every
    couple of seconds after, so a reader that opened the port late learns the firmware too."""

    kind = FRAME_HELLO
    _fields = ("version", "relic", "seq", "ms", "firmware", "relics_mask", "boot")

    def __init__(self, seq, ms, firmware, relics_mask, boot=False, version=PROTOCOL_VERSION):
        self.version = version
        self.relic = 0
        self.seq = seq
        self.ms = ms
        self.firmware = tuple(firmware)
        self.relics_mask = relics_mask
        self.boot = bool(boot)

    def relics(self):
        """The relic ids whose sensor answered when the hello was sent, in order."""
        found = []
        for i in range(8):
            if self.relics_mask & (1 << i):
                found.append(i + 1)
        return found


class Heartbeat(_Value):
    """The hub's periodic state of every relic (at least 10 per second)."""

    kind = FRAME_HEARTBEAT
    _fields = ("version", "relic", "seq", "ms", "relics")

    def __init__(self, seq, ms, relics, version=PROTOCOL_VERSION):
        self.version = version
        self.relic = 0
        self.seq = seq
        self.ms = ms
        self.relics = list(relics)


class Event(_Value):
    """Sent at once on a free fall (``value`` 1) or a motion change (``value`` 1 moving, 0 still).

    ``falls`` is the relic's fall counter after the event; ``tilt_deg`` its tilt at the time.
    """

    kind = FRAME_EVENT
    _fields = ("version", "relic", "seq", "ms", "event", "value", "falls", "tilt_deg")

    def __init__(self, seq, ms, relic, event, value, falls, tilt_deg, version=PROTOCOL_VERSION):
        self.version = version
        self.relic = relic
        self.seq = seq
        self.ms = ms
        self.event = event
        self.value = value
        self.falls = falls
        self.tilt_deg = tilt_deg


# --- Encoding ------------------------------------------------------------------------------------

def _tilt_field(tilt_deg):
    if tilt_deg is None:
        return TILT_UNKNOWN
    if tilt_deg != tilt_deg:  # NaN
        raise ProtocolError("tilt_deg is NaN; allowed: 0..180 degrees or None; fix: pass None "
                            "when the tilt is not known")
    cdeg = int(round(tilt_deg * 100))
    if cdeg < 0:
        cdeg = 0
    if cdeg > 18000:
        cdeg = 18000
    return cdeg


def _tilt_value(field):
    if field < 0:
        return None
    return field / 100.0


def _check_byte(name, value, low, high):
    if not isinstance(value, int) or value < low or value > high:
        raise ProtocolError("%s=%r; allowed: an integer %d..%d; fix the caller" %
                            (name, value, low, high))


def encode_frame(frame_type, relic, seq, ms, payload, version=PROTOCOL_VERSION):
    """One complete frame on the wire: ``0x00 + COBS(header + payload + CRC) + 0x00``."""
    _check_byte("frame_type", frame_type, 0, 255)
    _check_byte("relic", relic, 0, 255)
    _check_byte("version", version, 0, 255)
    body = bytearray(struct.pack(_HEADER, version, frame_type, relic, seq % SEQ_MODULO,
                                 ms % MS_MODULO))
    body.extend(payload)
    body.extend(struct.pack("<H", crc16(body)))
    return b"\x00" + cobs_encode(body) + b"\x00"


def encode_hello(seq, ms, firmware, relics_mask, boot=False):
    if len(firmware) != 3:
        raise ProtocolError("firmware=%r; allowed: (major, minor, patch); fix: pass three numbers"
                            % (firmware,))
    for part in firmware:
        _check_byte("firmware version part", part, 0, 255)  # not words: the hub's protocol errors
    _check_byte("relics_mask", relics_mask, 0, 255)
    flags = 0
    if boot:
        flags |= HELLO_BOOT
    payload = struct.pack(_HELLO, firmware[0], firmware[1], firmware[2], relics_mask, flags)
    return encode_frame(FRAME_HELLO, 0, seq, ms, payload)


def encode_heartbeat(seq, ms, relics):
    """``relics``: a list of :class:`RelicStatus` (at most MAX_RELICS_PER_FRAME)."""
    if len(relics) > MAX_RELICS_PER_FRAME:
        raise ProtocolError("%d relics in one heartbeat; allowed: at most %d; fix: split them"
                            % (len(relics), MAX_RELICS_PER_FRAME))
    payload = bytearray([len(relics)])
    for status in relics:
        _check_byte("relic", status.relic, 1, 255)
        flags = 0
        if status.moving:
            flags |= FLAG_MOVING
        if status.present:
            flags |= FLAG_PRESENT
        if status.calibrated:
            flags |= FLAG_CALIBRATED
        payload.extend(struct.pack(_RELIC, status.relic, flags, _tilt_field(status.tilt_deg),
                                   status.falls % FALLS_MODULO))
    return encode_frame(FRAME_HEARTBEAT, 0, seq, ms, payload)


def encode_event(seq, ms, relic, event, value, falls, tilt_deg):
    _check_byte("relic", relic, 1, 255)
    if event not in EVENT_NAMES:
        raise ProtocolError("event=%r; allowed: EVENT_FREEFALL (1) or EVENT_MOTION (2); fix the "
                            "caller" % (event,))
    _check_byte("value", value, 0, 255)
    payload = struct.pack(_EVENT, event, value, falls % FALLS_MODULO, _tilt_field(tilt_deg))
    return encode_frame(FRAME_EVENT, relic, seq, ms, payload)


def encode(frame):
    """Encode a decoded frame object again (the inverse of :meth:`Decoder.feed`)."""
    if isinstance(frame, Hello):
        return encode_hello(frame.seq, frame.ms, frame.firmware, frame.relics_mask, frame.boot)
    if isinstance(frame, Heartbeat):
        return encode_heartbeat(frame.seq, frame.ms, frame.relics)
    if isinstance(frame, Event):
        return encode_event(frame.seq, frame.ms, frame.relic, frame.event, frame.value,
                            frame.falls, frame.tilt_deg)
    raise ProtocolError("cannot encode %r; allowed: Hello, Heartbeat or Event" % (frame,))


class Encoder:
    """What the firmware uses: numbers its frames (one wrapping counter per boot)."""

    def __init__(self, seq=0):
        self.seq = seq % SEQ_MODULO

    def _numbered(self, frame):
        self.seq = (self.seq + 1) % SEQ_MODULO  # only once the frame was encoded without error
        return frame

    def hello(self, ms, firmware, relics_mask, boot=False):
        return self._numbered(encode_hello(self.seq, ms, firmware, relics_mask, boot))

    def heartbeat(self, ms, relics):
        return self._numbered(encode_heartbeat(self.seq, ms, relics))

    def event(self, ms, relic, event, value, falls, tilt_deg):
        return self._numbered(encode_event(self.seq, ms, relic, event, value, falls, tilt_deg))


# --- Decoding ------------------------------------------------------------------------------------

COUNTER_NAMES = ("frames", "garbage", "truncated", "bad_crc", "unknown_version", "malformed",
                 "seq_gaps", "frames_missed", "stale", "skipped")


def seq_ahead(seq, of):
    """How many frames ``seq`` is ahead of ``of`` (0 when equal, up to 65535 going round)."""
    return (seq - of) % SEQ_MODULO


def seq_newer(seq, than):
    """Whether sequence number ``seq`` is newer than ``than`` (see Order above)."""
    return 0 < seq_ahead(seq, than) < SEQ_HALF


class Decoder:
    """Bytes in, frames out; never raises on any input bytes.

    ``feed(data)`` returns the list of frames completed by ``data`` and keeps the rest for the
    next call.  What cannot be a frame is skipped and counted (attributes named in
    COUNTER_NAMES, also as :meth:`counters`):

    * ``garbage``: bytes between two zeros that do not start like a frame (noise, a frame whose
      start was lost, more than MAX_CHUNK_SIZE bytes without a zero);
    * ``truncated``: a frame that starts like one (version and known type) but ends early;
    * ``bad_crc``: a frame that starts like one, is long enough, but fails its CRC (corrupted);
    * ``unknown_version``: a good CRC but another protocol version (update the firmware);
    * ``malformed``: a good CRC and version but an unknown type or a wrong payload length;
    * ``seq_gaps`` / ``frames_missed``: sequence numbers that skipped (each gap, and how many
      frames it missed).  A boot hello starts a new chain (the hub restarted from 0);
    * ``stale``: a good frame no newer than the newest passed on (see Order above);
    * ``skipped``: chunks of a type the caller did not ask for (see :meth:`feed`).
    """

    def __init__(self):
        self._buffer = b""
        self._skipping = False
        self._newest_seq = None
        self._held_boot = None
        for name in COUNTER_NAMES:
            setattr(self, name, 0)

    def counters(self):
        """A snapshot dict of the error and frame counters."""
        result = {}
        for name in COUNTER_NAMES:
            result[name] = getattr(self, name)
        return result

    def reset_stream(self):
        """Forget a half-read frame and the sequence chain (a new connection); keep counters."""
        self._buffer = b""
        self._skipping = False
        self._newest_seq = None
        self._held_boot = None

    def feed(self, data, only=None):
        """The frames ``data`` completes, in order.  ``only`` (a collection of FRAME_* types)
        decodes just those: a chunk whose first bytes name another known type is skipped
        unread and counted in ``skipped`` (a reader that drops a flood's events need not pay
        for their CRC); what names no type is decoded as usual, so it is still counted."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise ProtocolError("Decoder.feed() got %s; allowed: bytes; fix: pass the bytes read "
                                "from the port" % (type(data).__name__,))
        frames = []
        # Split at the zeros (in C): every piece but the last ends a chunk; the first continues
        # what the last call left (or the over-long run being skipped); the last is kept.
        pieces = bytes(data).split(b"\x00")
        for i in range(len(pieces) - 1):
            chunk = pieces[i]
            if i == 0:
                if self._skipping:
                    self._skipping = False
                    continue
                chunk = self._buffer + chunk
                self._buffer = b""
            if len(chunk) > MAX_CHUNK_SIZE:
                self.garbage += 1
            elif only is not None and len(chunk) > 2 and chunk[0] > 2 and \
                    chunk[2] in FRAME_NAMES and chunk[2] not in only:
                self.skipped += 1   # the first COBS block holds the version and the type
            elif chunk:
                frame = self._chunk(chunk)
                if frame is not None:
                    self._order(frame, frames)
        tail = pieces[-1]
        if len(pieces) == 1:
            if self._skipping:
                return frames
            tail = self._buffer + tail
        if len(tail) > MAX_CHUNK_SIZE:
            self.garbage += 1
            self._skipping = True
            tail = b""
        self._buffer = tail
        return frames

    def _chunk(self, chunk):
        body, complete = cobs_decode(chunk)
        starts_like_frame = (len(body) >= 2 and body[0] == PROTOCOL_VERSION and
                             body[1] in FRAME_NAMES)
        if not complete or len(body) < MIN_BODY_SIZE:
            if starts_like_frame:
                self.truncated += 1
            else:
                self.garbage += 1
            return None
        if len(body) > MAX_BODY_SIZE:
            self.garbage += 1
            return None
        crc = body[-2] | (body[-1] << 8)
        if crc16(body[:-2]) != crc:
            if not starts_like_frame:
                self.garbage += 1
            elif len(body) < _expected_size(body):
                self.truncated += 1
            else:
                self.bad_crc += 1
            return None
        version, frame_type, relic, seq, ms = struct.unpack(_HEADER, body[:HEADER_SIZE])
        if version != PROTOCOL_VERSION:
            self.unknown_version += 1
            return None
        frame = _parse(frame_type, relic, seq, ms, body[HEADER_SIZE:-2])
        if frame is None:
            self.malformed += 1
        return frame

    def _order(self, frame, out):
        """Append to ``out`` what ``frame`` lets through, in order (see Order above)."""
        held = self._held_boot
        if held is not None:
            self._held_boot = None
            ahead = seq_ahead(frame.seq, held.seq)
            if 0 < ahead <= BOOT_FOLLOW_FRAMES and (
                    self._newest_seq is None or ahead < seq_ahead(frame.seq, self._newest_seq)):
                self._newest_seq = None  # a new chain: no gap between the old and the new
                self._pass(held, out)
            else:
                self.stale += 1
        if frame.kind == FRAME_HELLO and frame.boot:
            self._held_boot = frame
        elif self._newest_seq is not None and not seq_newer(frame.seq, self._newest_seq):
            self.stale += 1
        else:
            self._pass(frame, out)

    def _pass(self, frame, out):
        newest = self._newest_seq
        if newest is not None and frame.seq != (newest + 1) % SEQ_MODULO:
            self.seq_gaps += 1
            self.frames_missed += seq_ahead(frame.seq, newest) - 1
        self._newest_seq = frame.seq
        self.frames += 1
        out.append(frame)


def _expected_size(body):
    """The body size a frame of this type needs (for telling a cut frame from a corrupted one)."""
    frame_type = body[1]
    if frame_type == FRAME_HELLO:
        return HEADER_SIZE + HELLO_SIZE + CRC_SIZE
    if frame_type == FRAME_EVENT:
        return HEADER_SIZE + EVENT_SIZE + CRC_SIZE
    count = body[HEADER_SIZE] if len(body) > HEADER_SIZE else 0
    return HEADER_SIZE + 1 + count * RELIC_SIZE + CRC_SIZE


def _parse(frame_type, relic, seq, ms, payload):
    """The frame object for a checked body, or None when the payload does not fit its type."""
    n = len(payload)
    if frame_type == FRAME_HELLO:
        if n != HELLO_SIZE or relic != 0:
            return None
        major, minor, patch, mask, flags = struct.unpack(_HELLO, payload)
        return Hello(seq, ms, (major, minor, patch), mask, flags & HELLO_BOOT)
    if frame_type == FRAME_HEARTBEAT:
        if n < 1 or relic != 0:
            return None
        count = payload[0]
        if count > MAX_RELICS_PER_FRAME or n != 1 + count * RELIC_SIZE:
            return None
        relics = []
        for i in range(count):
            start = 1 + i * RELIC_SIZE
            rid, flags, tilt, falls = struct.unpack(_RELIC, payload[start:start + RELIC_SIZE])
            if rid == 0:
                return None
            relics.append(RelicStatus(rid, _tilt_value(tilt), flags & FLAG_MOVING, falls,
                                      flags & FLAG_PRESENT, flags & FLAG_CALIBRATED))
        return Heartbeat(seq, ms, relics)
    if frame_type == FRAME_EVENT:
        if n != EVENT_SIZE or relic == 0:
            return None
        event, value, falls, tilt = struct.unpack(_EVENT, payload)
        if event not in EVENT_NAMES:
            return None
        return Event(seq, ms, relic, event, value, falls, _tilt_value(tilt))
    return None
