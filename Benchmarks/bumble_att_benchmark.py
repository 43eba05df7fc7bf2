#!/usr/bin/env python3
"""Bumble's ATT codec on the PDU mix of swift-att's ATT benchmark, for its Bumble column.

    echo "0 1b1400..." | Tests/bench/.venv/bin/python Benchmarks/bumble_att_benchmark.py [--quick]

Reads lines "INDEX HEX" (one PDU each) on standard input; for each, times
bumble.att.ATT_PDU.from_bytes(bytes) (decode) and bytes(pdu) (encode) with timeit,
taking the median of several repeats, and prints

    RESULT INDEX DECODE_NS ENCODE_NS

Each decoded PDU is checked to re-encode to its input, so the figures are for the
same work swift-att does. A PDU parsed from bytes caches them (`_payload`), and
bytes(pdu) would only copy the cache: encode clears the cache first, so Bumble
serialises the fields (the cost of clearing, timed alone, is subtracted).
"""
import statistics
import sys
import timeit

from bumble.att import ATT_PDU


def main():
    quick = '--quick' in sys.argv
    repeats = 3 if quick else 7
    n = 2000 if quick else 20000

    def median(body):
        return statistics.median(timeit.repeat(body, number=n, repeat=repeats)) / n

    for line in sys.stdin:
        parts = line.split()
        if len(parts) != 2:
            continue
        index, data = parts[0], bytes.fromhex(parts[1])
        pdu = ATT_PDU.from_bytes(data)
        pdu._payload = None
        assert bytes(pdu) == data, (index, bytes(pdu).hex(), data.hex())

        def encode_one():
            pdu._payload = None
            return bytes(pdu)

        def clear_only():
            pdu._payload = None

        decode = median(lambda: ATT_PDU.from_bytes(data))
        encode = median(encode_one) - median(clear_only)
        print(f'RESULT {index} {decode * 1e9:.0f} {max(encode, 0) * 1e9:.0f}', flush=True)


if __name__ == '__main__':
    main()
