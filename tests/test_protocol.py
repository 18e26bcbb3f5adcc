"""The relic hub's frames: what the firmware writes is what the Pi reads, and noise never hurts."""

import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.table import protocol as p
from rig.table.protocol import ProtocolError


def stream_of(frames):
    return b"".join(p.encode(f) for f in frames)


def sample_frames():
    enc = p.Encoder()
    wire = [
        enc.hello(1200, (1, 2, 3), 0b101, boot=True),
        enc.heartbeat(1250, [p.RelicStatus(1, 0.0, False, 0, True, True),
                             p.RelicStatus(2, 91.25, True, 7, True, False),
                             p.RelicStatus(3, None, False, 0, False, False)]),
        enc.event(1260, 2, p.EVENT_FREEFALL, 1, 8, 45.5),
        enc.event(1270, 3, p.EVENT_MOTION, 0, 0, 2.0),
        enc.hello(3200, (1, 2, 3), 0b111),
    ]
    return wire


def test_crc_is_ccitt_false_with_its_check_value():
    assert p.crc16(b"123456789") == 0x29B1
    assert p.crc16(b"") == 0xFFFF


@given(st.binary(max_size=600))
def test_cobs_round_trip_and_no_zero_inside(data):
    stuffed = p.cobs_encode(data)
    assert 0 not in stuffed
    assert p.cobs_decode(stuffed) == (data, True)


def cobs_decode_by_blocks(chunk):
    """The definition, block by block: what the fast path of cobs_decode must agree with."""
    out, i = bytearray(), 0
    while i < len(chunk):
        code = chunk[i]
        if code == 0:
            return bytes(out), False
        if i + code > len(chunk):
            return bytes(out + chunk[i + 1:]), False
        out += chunk[i + 1:i + code]
        i += code
        if code != 0xFF and i < len(chunk):
            out.append(0)
    return bytes(out), True


@given(st.binary(max_size=300))
def test_cobs_decode_agrees_with_the_definition_on_any_chunk(chunk):
    assert p.cobs_decode(chunk) == cobs_decode_by_blocks(chunk)


@given(st.binary(max_size=100))
def test_the_crc_the_pico_computes_by_table_is_the_one_the_pi_computes(data):
    assert p.crc16_table(data) == p.crc16(data)
    assert p.crc16_table(b"123456789") == 0x29B1


def test_every_frame_type_round_trips_from_firmware_encoder_to_pi_decoder():
    frames = p.Decoder().feed(b"".join(sample_frames()))
    hello, heartbeat, fall, motion, hello2 = frames
    assert hello == p.Hello(0, 1200, (1, 2, 3), 0b101, boot=True)
    assert hello.relics() == [1, 3] and hello.version == p.PROTOCOL_VERSION
    assert heartbeat.kind == p.FRAME_HEARTBEAT and heartbeat.seq == 1 and heartbeat.ms == 1250
    assert heartbeat.relics == [p.RelicStatus(1, 0.0, False, 0, True, True),
                                p.RelicStatus(2, 91.25, True, 7, True, False),
                                p.RelicStatus(3, None, False, 0, False, False)]
    assert fall == p.Event(2, 1260, 2, p.EVENT_FREEFALL, 1, 8, 45.5)
    assert motion.relic == 3 and motion.event == p.EVENT_MOTION and motion.value == 0
    assert hello2.boot is False and hello2.relics() == [1, 2, 3]
    # and back again: decoded frames encode to the very same bytes
    assert stream_of(frames) == b"".join(sample_frames())


def test_frames_split_anywhere_decode_the_same():
    data = b"".join(sample_frames())
    dec = p.Decoder()
    frames = []
    for i in range(len(data)):
        frames += dec.feed(data[i:i + 1])
    assert frames == p.Decoder().feed(data)
    assert dec.counters()["frames"] == 5


def test_tilt_is_clamped_and_rounded_to_hundredths():
    enc = p.Encoder()
    hb = p.Decoder().feed(enc.heartbeat(0, [p.RelicStatus(1, 200.0, 0, 0),
                                            p.RelicStatus(2, -3.0, 0, 0),
                                            p.RelicStatus(3, 12.3456, 0, 0)]))[0]
    assert [r.tilt_deg for r in hb.relics] == [180.0, 0.0, 12.35]


def test_sequence_and_clock_wrap_without_a_gap():
    enc = p.Encoder(seq=65534)
    dec = p.Decoder()
    frames = dec.feed(b"".join(enc.heartbeat(2**32 - 1 + i, []) for i in range(4)))
    assert [f.seq for f in frames] == [65534, 65535, 0, 1]
    assert [f.ms for f in frames] == [2**32 - 1, 0, 1, 2]
    assert dec.seq_gaps == 0


def test_sequence_gaps_are_counted_and_a_boot_hello_restarts_the_chain():
    enc = p.Encoder()
    wire = [enc.heartbeat(i, []) for i in range(6)]
    dec = p.Decoder()
    frames = dec.feed(wire[0] + wire[1] + wire[4] + wire[5])
    assert len(frames) == 4
    assert (dec.seq_gaps, dec.frames_missed) == (1, 2)
    reboot = p.Encoder()
    dec.feed(reboot.hello(5, (1, 0, 0), 7, boot=True) + reboot.heartbeat(10, []))
    assert dec.seq_gaps == 1


def test_a_frame_older_than_the_newest_seen_is_counted_stale_and_dropped():
    enc = p.Encoder()
    wire = [enc.heartbeat(i, []) for i in range(6)]
    dec = p.Decoder()
    frames = dec.feed(wire[0] + wire[1] + wire[2] + wire[3] + wire[1] + wire[3] + wire[4])
    assert [f.seq for f in frames] == [0, 1, 2, 3, 4]
    assert dec.stale == 2 and dec.frames == 5      # a replayed frame and a duplicate
    assert dec.seq_gaps == 0                       # neither is a gap in the chain


def test_newer_and_older_are_judged_across_the_sequence_wrap():
    enc = p.Encoder(seq=65535)
    newest = enc.heartbeat(0, [])
    dec = p.Decoder()
    assert len(dec.feed(newest)) == 1
    assert dec.feed(p.encode_heartbeat(65000, 0, [])) == []       # 535 frames ago
    assert [f.seq for f in dec.feed(p.encode_heartbeat(10, 0, []))] == [10]  # 11 frames on
    assert dec.stale == 1


def test_a_boot_hello_restarts_the_chain_once_the_next_frame_continues_it():
    enc = p.Encoder(seq=500)
    dec = p.Decoder()
    dec.feed(enc.heartbeat(0, []) + enc.heartbeat(50, []))
    reboot = p.Encoder()
    held = dec.feed(reboot.hello(0, (1, 0, 0), 7, boot=True))
    assert held == []                              # kept until the next frame tells
    frames = dec.feed(reboot.heartbeat(50, []) + reboot.heartbeat(100, []))
    assert [(f.kind, f.seq) for f in frames] == [(p.FRAME_HELLO, 0), (p.FRAME_HEARTBEAT, 1),
                                                 (p.FRAME_HEARTBEAT, 2)]
    assert dec.stale == 0 and dec.seq_gaps == 0


def test_a_replayed_boot_hello_is_stale_when_the_old_chain_goes_on():
    enc = p.Encoder()
    boot = enc.hello(0, (1, 0, 0), 7, boot=True)
    dec = p.Decoder()
    dec.feed(boot + b"".join(enc.heartbeat(50 * i, []) for i in range(1, 100)))
    frames = dec.feed(boot + enc.heartbeat(5000, []))   # an old boot hello, then the hub goes on
    assert [(f.kind, f.seq) for f in frames] == [(p.FRAME_HEARTBEAT, 100)]
    assert dec.stale == 1 and dec.seq_gaps == 0
    # On a fresh connection too: a boot hello far behind the frame after it is not believed.
    dec.reset_stream()
    assert dec.feed(boot + enc.heartbeat(5050, [])) == [p.Heartbeat(101, 5050, [])]
    assert dec.stale == 2


def test_a_new_connection_takes_the_chain_as_it_comes():
    # The port was reopened while the hub ran on (no reboot): its numbers went on meanwhile.
    enc = p.Encoder(seq=30000)
    dec = p.Decoder()
    dec.feed(enc.heartbeat(0, []))
    dec.reset_stream()
    assert [f.seq for f in dec.feed(p.encode_heartbeat(100, 0, []))] == [100]
    assert dec.stale == 0


def test_a_reader_may_decode_only_the_frame_types_it_reads():
    enc = p.Encoder()
    wire = (enc.heartbeat(0, []) + enc.event(1, 1, p.EVENT_MOTION, 1, 0, 5.0) +
            enc.event(2, 2, p.EVENT_FREEFALL, 1, 1, 5.0) + b"\x00noise\x00" + enc.heartbeat(50, []))
    dec = p.Decoder()
    frames = dec.feed(wire, only={p.FRAME_HEARTBEAT})
    assert [f.seq for f in frames] == [0, 3]
    assert (dec.skipped, dec.garbage, dec.frames) == (2, 1, 2)
    assert dec.seq_gaps == 1 and dec.frames_missed == 2      # unread, so unseen


def test_noise_before_a_frame_is_counted_as_garbage_and_the_frame_survives():
    dec = p.Decoder()
    frames = dec.feed(b"Auto-reload is on.\r\ncode.py output:\r\n" + b"".join(sample_frames()))
    assert len(frames) == 5
    assert dec.garbage == 1


def test_a_frame_cut_short_counts_as_truncated():
    enc = p.Encoder()
    first = enc.heartbeat(0, [p.RelicStatus(1, 5.0, 0, 0)])
    second = enc.heartbeat(50, [])
    dec = p.Decoder()
    frames = dec.feed(first[:12] + second)  # the rest of the first frame never came
    assert [f.seq for f in frames] == [1]
    assert dec.truncated == 1 and dec.garbage == 0


def test_a_frame_whose_start_was_lost_is_garbage_not_a_crash():
    # The board reset as the port opened: the reader sees the tail of a frame first.
    wire = b"".join(sample_frames())
    dec = p.Decoder()
    frames = dec.feed(wire[7:])
    assert len(frames) == 4
    assert dec.garbage + dec.truncated + dec.bad_crc == 1


def test_a_corrupted_byte_is_a_bad_crc():
    wire = bytearray(p.Encoder().event(0, 1, p.EVENT_MOTION, 1, 0, 3.0))
    wire[-2] ^= 0x40  # a CRC byte (COBS data, not a block code)
    dec = p.Decoder()
    assert dec.feed(bytes(wire)) == []
    assert dec.bad_crc == 1


def test_another_protocol_version_is_counted_and_skipped():
    body = p.encode_frame(p.FRAME_HEARTBEAT, 0, 0, 0, b"\x00", version=2)
    dec = p.Decoder()
    assert dec.feed(body + p.Encoder().heartbeat(0, [])) != []
    assert dec.unknown_version == 1


def test_unknown_types_and_wrong_lengths_are_malformed():
    dec = p.Decoder()
    wire = (p.encode_frame(9, 0, 0, 0, b"") +
            p.encode_frame(p.FRAME_HELLO, 0, 1, 0, b"\x01\x00") +
            p.encode_frame(p.FRAME_HEARTBEAT, 0, 2, 0, b"\x02" + b"\x01" * 6) +
            p.encode_frame(p.FRAME_EVENT, 0, 3, 0, struct.pack("<BBHh", 1, 1, 0, 0)))
    assert dec.feed(wire) == []
    assert dec.malformed == 4


def test_a_long_run_without_delimiter_is_dropped_and_reading_resumes():
    dec = p.Decoder()
    frames = dec.feed(b"\x55" * 5000 + p.Encoder().heartbeat(0, []))
    assert len(frames) == 1
    assert dec.garbage == 1


def test_bad_values_get_clear_errors():
    enc = p.Encoder()
    with pytest.raises(ProtocolError, match="relic=0; allowed: an integer 1..255"):
        enc.event(0, 0, p.EVENT_FREEFALL, 1, 0, 0.0)
    with pytest.raises(ProtocolError, match="event=7; allowed"):
        enc.event(0, 1, 7, 1, 0, 0.0)
    with pytest.raises(ProtocolError, match="major, minor, patch"):
        enc.hello(0, (1, 0), 7)
    with pytest.raises(ProtocolError, match="at most 8"):
        enc.heartbeat(0, [p.RelicStatus(1, 0.0, 0, 0)] * 9)
    with pytest.raises(ProtocolError, match="NaN"):
        enc.heartbeat(0, [p.RelicStatus(1, float("nan"), 0, 0)])
    with pytest.raises(ProtocolError, match="allowed: bytes"):
        p.Decoder().feed("not bytes")
    with pytest.raises(ProtocolError, match="Hello, Heartbeat or Event"):
        p.encode("frame")
    assert enc.seq == 0  # nothing was numbered for a rejected frame


# --- fuzz -----------------------------------------------------------------------------------------

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.lists(st.binary(max_size=80), max_size=8))
def test_random_bytes_never_raise_and_every_chunk_is_accounted_for(chunks):
    dec = p.Decoder()
    frames = []
    for chunk in chunks:
        frames += dec.feed(chunk)
    c = dec.counters()
    assert c["frames"] == len(frames)
    assert all(isinstance(f, (p.Hello, p.Heartbeat, p.Event)) for f in frames)


@FUZZ
@given(st.lists(st.binary(max_size=80), max_size=8))
def test_random_bytes_read_for_some_types_only_never_raise(chunks):
    dec = p.Decoder()
    for chunk in chunks:
        assert all(f.kind == p.FRAME_HEARTBEAT for f in dec.feed(chunk, {p.FRAME_HEARTBEAT}))


@FUZZ
@given(st.binary(max_size=300), st.integers(0, 4))
def test_valid_frames_after_garbage_are_decoded(garbage, split):
    wire = b"".join(sample_frames())
    dec = p.Decoder()
    frames = dec.feed(garbage[:split]) + dec.feed(garbage[split:] + wire)
    originals = p.Decoder().feed(wire)
    assert frames[-5:] == originals
    if len(frames) == 5 and garbage.strip(b"\x00"):
        c = dec.counters()
        assert c["garbage"] + c["truncated"] + c["bad_crc"] + c["unknown_version"] + \
            c["malformed"] >= 1


@FUZZ
@given(st.data())
def test_corrupting_one_frame_loses_at_most_it_and_its_neighbours(data):
    frames = sample_frames()
    victim = data.draw(st.integers(0, len(frames) - 1), label="victim")
    wire = bytearray(frames[victim])
    kind = data.draw(st.sampled_from(["flip", "insert", "delete", "cut"]), label="kind")
    at = data.draw(st.integers(0, len(wire) - 1), label="at")
    if kind == "flip":
        wire[at] ^= data.draw(st.integers(1, 255), label="mask")
    elif kind == "insert":
        wire.insert(at, data.draw(st.integers(0, 255), label="byte"))
    elif kind == "delete":
        del wire[at]
    else:
        wire = wire[:at]
    corrupted = frames[:victim] + [bytes(wire)] + frames[victim + 1:]
    dec = p.Decoder()
    decoded = dec.feed(b"".join(corrupted) + b"\x00")  # the next frame's delimiter
    originals = p.Decoder().feed(b"".join(frames))
    for i, original in enumerate(originals):
        if abs(i - victim) > 1:
            assert original in decoded
    if len(decoded) < len(originals) and wire.strip(b"\x00"):
        c = dec.counters()
        assert c["garbage"] + c["truncated"] + c["bad_crc"] + c["malformed"] >= 1
