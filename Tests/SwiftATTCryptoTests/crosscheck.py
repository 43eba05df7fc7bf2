#!/usr/bin/env python3
"""A second implementation of SwiftATTCrypto's functions, for CrossCheckTests.

    crosscheck.py CASES.json

Reads a JSON array of cases (each an object of inputs, hex strings most significant
octet first unless named otherwise) and prints a JSON array of results, one object per
case, in the same order. AES-128, AES-CMAC and P-256 come from the `cryptography`
package (OpenSSL underneath, but through its own bindings and its own key handling);
the Security Manager's functions (Core 5.4 Vol 3 Part H §2.2) are written here again
from their definitions, as octet strings concatenated in the spec's order, not as the
Swift side's shifted numbers. Runs in Tests/bench/.venv (Tests/bench/setup.sh), where
`cryptography` is installed as a Bumble dependency.
"""

import json
import sys

from cryptography.hazmat.primitives import cmac
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def aes(key: bytes, block: bytes) -> bytes:
    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return encryptor.update(block) + encryptor.finalize()


def aes_cmac(key: bytes, message: bytes) -> bytes:
    c = cmac.CMAC(algorithms.AES(key))
    c.update(message)
    return c.finalize()


def xor(a: bytes, b: bytes) -> bytes:
    return bytes(p ^ q for p, q in zip(a, b))


def address(kind: int, value: bytes) -> bytes:
    """f5's and f6's 56-bit address: the kind octet, then the six octets."""
    return bytes([kind]) + value


# §2.2.1–§2.2.4, built from octet strings (most significant first).
def e(k: bytes, plaintext: bytes) -> bytes:
    return aes(k, plaintext)


def ah(k: bytes, r: bytes) -> bytes:
    return e(k, bytes(13) + r)[-3:]


def c1(k, r, preq_wire, pres_wire, iat, ia, rat, ra):
    # The PDUs' wire octets are least significant first; the spec's p1 puts pres most
    # significant, then preq, then rat', then iat'.
    p1 = pres_wire[::-1] + preq_wire[::-1] + bytes([rat, iat])
    p2 = bytes(4) + ia + ra
    return e(k, xor(e(k, xor(r, p1)), p2))


def s1(k, r1, r2):
    return e(k, r1[8:] + r2[8:])


# §2.2.6–§2.2.11.
def f4(u, v, x, z):
    return aes_cmac(x, u + v + bytes([z]))


def f5(w, n1, n2, a1, a2):
    salt = bytes.fromhex("6C888391AAF5A53860370BDB5A6083BE")
    t = aes_cmac(salt, w)
    tail = b"btle" + n1 + n2 + a1 + a2 + bytes([0x01, 0x00])
    return aes_cmac(t, b"\x00" + tail), aes_cmac(t, b"\x01" + tail)


def f6(w, n1, n2, r, io_cap, a1, a2):
    return aes_cmac(w, n1 + n2 + r + io_cap + a1 + a2)


def g2(u, v, x, y):
    return int.from_bytes(aes_cmac(x, u + v + y)[-4:], "big")


def h6(w, key_id):
    return aes_cmac(w, key_id)


def h7(salt, w):
    return aes_cmac(salt, w)


def public_key(private: bytes):
    key = ec.derive_private_key(int.from_bytes(private, "big"), ec.SECP256R1())
    numbers = key.public_key().public_numbers()
    return key, numbers.x.to_bytes(32, "big"), numbers.y.to_bytes(32, "big")


def is_valid_point(x: bytes, y: bytes) -> bool:
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b"\x04" + x + y)
        return True
    except ValueError:
        return False


def run(case):
    h = {name: bytes.fromhex(value) for name, value in case.items() if isinstance(value, str)}
    key_a, ax, ay = public_key(h["privateA"])
    _, bx, by = public_key(h["privateB"])
    peer = ec.EllipticCurvePublicNumbers(int.from_bytes(bx, "big"), int.from_bytes(by, "big"), ec.SECP256R1())
    dh_key = key_a.exchange(ec.ECDH(), peer.public_key())
    a1 = address(case["a1Kind"], h["a1"])
    a2 = address(case["a2Kind"], h["a2"])
    mac_key, ltk = f5(dh_key, h["n1"], h["n2"], a1, a2)
    return {
        "aes": aes(h["key"], h["block"]).hex(),
        "cmac": aes_cmac(h["key"], h["message"]).hex(),
        "publicAX": ax.hex(), "publicAY": ay.hex(),
        "publicBX": bx.hex(), "publicBY": by.hex(),
        "dhKey": dh_key.hex(),
        "bentKeyValid": is_valid_point(bx, h["bentY"]),
        "e": e(h["key"], h["block"]).hex(),
        "ah": int.from_bytes(ah(h["irk"], h["prand"]), "big"),
        "c1": c1(h["key"], h["r"], h["preq"], h["pres"], case["a1Kind"], h["a1"], case["a2Kind"], h["a2"]).hex(),
        "s1": s1(h["key"], h["r"], h["r2"]).hex(),
        "f4": f4(ax, bx, h["x"], case["z"]).hex(),
        "f5MacKey": mac_key.hex(),
        "f5LTK": ltk.hex(),
        "f6": f6(mac_key, h["n1"], h["n2"], h["r"], h["ioCap"], a1, a2).hex(),
        "g2": g2(ax, bx, h["x"], h["y"]),
        "h6": h6(h["w"], h["keyID"]).hex(),
        "h7": h7(h["salt"], h["w"]).hex(),
    }


def main() -> int:
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    json.dump([run(case) for case in cases], sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
