"""A second verifier of StudyKit's sealed consent records, written from README.md ("The sealed record, byte for
byte") with Python's standard library and `cryptography`, so that the format is shown to be checkable without
StudyKit. Usage: verify_record.py RECORD.json (--public-key BASE64 | --trust-embedded-key); prints `valid` or one
problem per line; exits 0 when valid, 1 otherwise."""
import argparse
import base64
import binascii
import decimal
import hashlib
import json
import math
import re
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


class Refused(Exception):
    """The file is not a sealed record in the format (point 1 and 2 of the README)."""


UUID = re.compile(r"^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def _pairs(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise Refused(f'the member name "{key}" is given twice')
        seen[key] = value
    return seen


def _constant(name):
    raise Refused(f"{name} is not JSON")


def parse(data):
    """The file's JSON, strictly: no duplicate names, nothing after the value, no NaN or Infinity."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Refused(f"not UTF-8: {error}")
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise Refused(f"malformed JSON: {error}")


# The format: for each kind of object, its members as (required, check).
def _string(path, value):
    if not isinstance(value, str):
        raise Refused(f"{path}: expected a string")
    return value


def _number(path, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused(f"{path}: expected a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise Refused(f"{path}: out of range")
    return value


def _integer(path, value):
    _number(path, value)
    if isinstance(value, float) and not value.is_integer():
        raise Refused(f"{path}: expected an integer")
    return int(value)


def _pattern(pattern, what):
    def check(path, value):
        if not isinstance(value, str) or not pattern.match(value):
            raise Refused(f"{path}: not {what}")
        return value
    return check


def _one_of(*choices):
    def check(path, value):
        if value not in choices:
            raise Refused(f"{path}: not one of {', '.join(choices)}")
        return value
    return check


def _array(element):
    def check(path, value):
        if not isinstance(value, list):
            raise Refused(f"{path}: expected an array")
        return [element(f"{path}[{index}]", item) for index, item in enumerate(value)]
    return check


def _string_map(path, value):
    if not isinstance(value, dict):
        raise Refused(f"{path}: expected an object")
    return {key: _string(f"{path}.{key}", item) for key, item in value.items()}


def _object(members):
    def check(path, value):
        if not isinstance(value, dict):
            raise Refused(f"{path}: expected an object")
        result = {}
        for key, item in value.items():
            where = f"{path}.{key}" if path else key
            if key not in members:
                raise Refused(f"{where}: not part of the consent record format")
            if item is None:
                raise Refused(f"{where}: null is not written for an absent value")
            result[key] = members[key][1](where, item)
        for key, (required, _) in members.items():
            if required and key not in value:
                raise Refused(f"{path + '.' if path else ''}{key}: missing")
        return result
    return check


POINT = _object({"x": (True, _number), "y": (True, _number), "t": (True, _number)})
DRAWING = _object({"width": (True, _number), "height": (True, _number), "strokes": (True, _array(_array(POINT))),
                   "typedName": (False, _string)})
SIGNATURE = _object({
    "identifier": (True, _string), "meaning": (True, _string), "givenName": (True, _string), "familyName": (True, _string),
    "drawing": (False, DRAWING), "signedAt": (True, _pattern(TIMESTAMP, "a timestamp")),
    "utcOffsetSeconds": (True, _integer), "timeZoneIdentifier": (False, _string),
})
WITHDRAWAL = _object({
    "originalRecordID": (True, _pattern(UUID, "an uppercase UUID")), "originalSealSHA256": (True, _pattern(HEX64, "a SHA-256")),
    "withdrawnAt": (True, _pattern(TIMESTAMP, "a timestamp")), "reason": (False, _string),
})
RECORD = _object({
    "id": (True, _pattern(UUID, "an uppercase UUID")), "kind": (True, _one_of("consent", "withdrawal")),
    "participantIdentifier": (True, _string), "studyIdentifier": (True, _string), "studyName": (True, _string),
    "documentIdentifier": (True, _string), "documentVersion": (True, _string), "language": (True, _string),
    "html": (True, _string), "htmlSHA256": (True, _pattern(HEX64, "a lowercase SHA-256")),
    "signatures": (True, _array(SIGNATURE)), "answers": (True, _string_map),
    "createdAt": (True, _pattern(TIMESTAMP, "a timestamp")), "withdrawal": (False, WITHDRAWAL),
})
SEALED = _object({"algorithm": (True, _string), "publicKey": (True, _string), "signature": (True, _string), "record": (True, RECORD)})


def number_text(value):
    """ECMAScript's Number.prototype.toString of a double (RFC 8785, 3.2.2.3)."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # repr is the shortest text that reads back as the same double; only its layout differs from ECMAScript's.
    _, digit_tuple, exponent = decimal.Decimal(repr(abs(value))).normalize().as_tuple()
    digits = "".join(map(str, digit_tuple))
    k = len(digits)
    n = exponent + k
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if n - 1 >= 0 else "-") + str(abs(n - 1))
    return sign + text


def string_text(value):
    out = ['"']
    for character in value:
        code = ord(character)
        if character == '"':
            out.append('\\"')
        elif character == "\\":
            out.append("\\\\")
        elif character in "\b\t\n\f\r":
            out.append({"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}[character])
        elif code < 0x20:
            out.append(f"\\u{code:04x}")
        else:
            out.append(character)
    out.append('"')
    return "".join(out)


def canonical(value):
    """RFC 8785 canonical JSON text of a parsed value."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return number_text(value)
    if isinstance(value, str):
        return string_text(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical(item) for item in value) + "]"
    keys = sorted(value, key=lambda key: key.encode("utf-16-be"))
    return "{" + ",".join(string_text(key) + ":" + canonical(value[key]) for key in keys) + "}"


def problems(data, public_key=None):
    """What is wrong with the sealed record in `data`; empty when it is valid (README, point 4)."""
    try:
        sealed = SEALED("", parse(data))
    except Refused as error:
        return [f"not a sealed consent record: {error}"]
    record = sealed["record"]
    found = []
    try:
        signed = canonical(record).encode("utf-8")
    except UnicodeEncodeError:
        return ["not a sealed consent record: a string holds an unpaired surrogate"]
    if hashlib.sha256(record["html"].encode("utf-8")).hexdigest() != record["htmlSHA256"]:
        found.append("html-hash")
    if sealed["algorithm"] != "Ed25519":
        return found + [f"unsupported algorithm {sealed['algorithm']}"]
    try:
        key_bytes = base64.b64decode(sealed["publicKey"], validate=True)
        key = Ed25519PublicKey.from_public_bytes(key_bytes)
    except (binascii.Error, ValueError):
        return found + ["malformed public key"]
    if public_key is not None and key_bytes != base64.b64decode(public_key):
        found.append("signed by another key")
    try:
        signature = base64.b64decode(sealed["signature"], validate=True)
    except binascii.Error:
        signature = b""
    if len(signature) != 64:
        return found + ["malformed signature"]
    try:
        key.verify(signature, signed)
    except InvalidSignature:
        found.append("signature")
    if (record["kind"] == "withdrawal") != ("withdrawal" in record):
        found.append("withdrawal link")
    return found


def main(arguments=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--public-key")
    group.add_argument("--trust-embedded-key", action="store_true")
    options = parser.parse_args(arguments)
    with open(options.record, "rb") as file:
        found = problems(file.read(), options.public_key)
    for problem in found:
        print(problem)
    if not found:
        print("valid")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
