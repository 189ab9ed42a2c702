"""Two verifiers, one answer: `studykit consent verify` and tests/consent/verify_record.py (written from the README
alone) must agree, valid or not, on every tampered record here — single-field edits, keys given twice, a second
record appended, keys the format does not define, values in another form, a foreign key — so that the README
defines the format precisely enough for a verifier in another language."""
import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verify_record  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
STUDYKIT = Path(os.environ.get("STUDYKIT", ROOT / ".build" / "debug" / "studykit"))
EXAMPLES = ROOT / "examples" / "consent"


@pytest.fixture(scope="module")
def sealed(tmp_path_factory):
    """A record sealed by `studykit consent seal` with a fresh data folder's key: (file text, public key, private key)."""
    folder = tmp_path_factory.mktemp("seal")
    record = folder / "record.json"
    subprocess.run([str(STUDYKIT), "consent", "seal", "--document", str(EXAMPLES / "recover-consent.json"),
                    "--signed", str(EXAMPLES / "recover-signed.json"), "--participant", "p-7", "--study-id", "recover",
                    "--study-name", "Recover", "--time-zone", "Asia/Tokyo", "--data", str(folder / "data"),
                    "--output", str(record)], check=True, capture_output=True)
    public = subprocess.run([str(STUDYKIT), "consent", "key", "--data", str(folder / "data")],
                            check=True, capture_output=True, text=True).stdout.strip()
    private = Ed25519PrivateKey.from_private_bytes((folder / "data" / "keys" / "consent-signing-key.ed25519").read_bytes())
    return record.read_text(), public, private


def reseal(record, key):
    """The sealed file of `record` signed by `key`, written as the README says."""
    signature = key.sign(verify_record.canonical(record).encode())
    public = key.public_key().public_bytes_raw()
    return json.dumps({"algorithm": "Ed25519", "publicKey": base64.b64encode(public).decode(), "record": record,
                       "signature": base64.b64encode(signature).decode()}, ensure_ascii=False)


def edited(text, change):
    document = json.loads(text)
    change(document["record"])
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def cases(text, private):
    """(name, file text, valid?) for the record in `text`, sealed by `private`."""
    record = json.loads(text)["record"]
    other = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))

    def with_html_and_hash(r):
        r["html"] += " "
        import hashlib
        r["htmlSHA256"] = hashlib.sha256(r["html"].encode()).hexdigest()

    def replace_first(old, new):
        assert old in text, old
        return text.replace(old, new, 1)

    def with_note(path):
        document = json.loads(text)
        target = document
        for step in path:
            target = target[step]
        target["note"] = "added later"
        return json.dumps(document, ensure_ascii=False)

    edits = {
        "one byte of the HTML": lambda r: r.update(html=r["html"].replace("knee", "Knee", 1)),
        "the HTML and its hash together": with_html_and_hash,
        "the given name": lambda r: r["signatures"][0].update(givenName="Alec"),
        "the family name": lambda r: r["signatures"][0].update(familyName="Doe"),
        "the signing time": lambda r: r["signatures"][0].update(signedAt=r["signatures"][0]["signedAt"][:-2] + "9Z"),
        "the signer's offset": lambda r: r["signatures"][0].update(utcOffsetSeconds=0),
        "a stroke point": lambda r: r["signatures"][0]["drawing"]["strokes"][0][0].update(x=r["signatures"][0]["drawing"]["strokes"][0][0]["x"] + 0.01),
        "a removed stroke": lambda r: r["signatures"][0]["drawing"]["strokes"].pop(),
        "the meaning": lambda r: r["signatures"][0].update(meaning="witness"),
        "the sharing answer": lambda r: r["answers"].update(sharing="investigatorsOnly"),
        "the document version": lambda r: r.update(documentVersion="9.9"),
        "the participant": lambda r: r.update(participantIdentifier="p-8"),
        "the creation time": lambda r: r.update(createdAt="2020-01-01T00:00:00.000Z"),
        "a kind without its withdrawal link": lambda r: r.update(kind="withdrawal"),
    }
    result = [("the record as sealed", text, True),
              ("the record pretty-printed", json.dumps(json.loads(text), indent=2), True),
              ("the record with every non-ASCII character escaped", json.dumps(json.loads(text)), True),
              ("the record re-sealed by the study's key after an edit", reseal(dict(record, documentVersion="2.0"), private), True)]
    result += [(f"{name}, edited after sealing", edited(text, change), False) for name, change in edits.items()]
    sharing = '"sharing":"' + record["answers"]["sharing"] + '"'
    result += [
        ("sharing given twice", replace_first(sharing, sharing + ',"sharing":"investigatorsOnly"'), False),
        ("sharing given twice, the same value", replace_first(sharing, sharing + "," + sharing), False),
        ("algorithm given twice", replace_first('"algorithm":"Ed25519"', '"algorithm":"Ed25519","algorithm":"Ed25519"'), False),
        ("a given name given twice", replace_first('"givenName":', '"givenName":"Eve","givenName":'), False),
        ("a second record appended", text + text, False),
        ("garbage after the record", text + "x", False),
        ("a note on the record", with_note(["record"]), False),
        ("a note on a signature", with_note(["record", "signatures", 0]), False),
        ("a note on the drawing", with_note(["record", "signatures", 0, "drawing"]), False),
        ("a note on a stroke point", with_note(["record", "signatures", 0, "drawing", "strokes", 0, 0]), False),
        ("a note beside the record", with_note([]), False),
        ("a null withdrawal", edited(text, lambda r: r.update(withdrawal=None)), False),
        ("the id in lowercase", edited(text, lambda r: r.update(id=r["id"].lower())), False),
        ("a timestamp without milliseconds", edited(text, lambda r: r.update(createdAt=r["createdAt"][:19] + "Z")), False),
        ("another algorithm", replace_first('"algorithm":"Ed25519"', '"algorithm":"RSA"'), False),
        ("a malformed public key", replace_first('"publicKey":"', '"publicKey":"AAAA'), False),
        ("a malformed signature", replace_first('"signature":"', '"signature":"!'), False),
        ("re-sealed by another key", reseal(record, other), False),
        ("another key's seal claiming the study's key",
         json.dumps(dict(json.loads(reseal(record, other)), publicKey=json.loads(text)["publicKey"])), False),
        ("truncated", text[: len(text) // 2], False),
    ]
    return result


def swift_verdict(path, public_key):
    result = subprocess.run([str(STUDYKIT), "consent", "verify", str(path), "--public-key", public_key],
                            capture_output=True, text=True)
    assert result.returncode in (0, 1), result.stderr
    return result.returncode == 0, (result.stdout + result.stderr).strip()


def test_both_verifiers_agree_on_every_tampered_record(sealed, tmp_path):
    text, public, private = sealed
    disagreements, checked = [], 0
    for name, variant, valid in cases(text, private):
        path = tmp_path / "variant.json"
        path.write_text(variant)
        swift_valid, swift_output = swift_verdict(path, public)
        python_problems = verify_record.problems(variant.encode(), public)
        python_valid = not python_problems
        checked += 1
        if (swift_valid, python_valid) != (valid, valid):
            disagreements.append(f"{name}: expected {'valid' if valid else 'invalid'}, Swift said {swift_output[:160]!r}, "
                                 f"Python said {python_problems or 'valid'}")
    assert not disagreements, "\n".join(disagreements)
    assert checked >= 35


def test_the_example_record_verifies_in_both_and_fails_with_its_sharing_doubled(tmp_path):
    public = (EXAMPLES / "recover-public-key.txt").read_text().strip()
    text = (EXAMPLES / "recover-record.json").read_text()
    assert verify_record.problems(text.encode(), public) == []
    assert swift_verdict(EXAMPLES / "recover-record.json", public)[0]
    doubled = text.replace('"sharing":"shareWidely"', '"sharing":"shareWidely","sharing":"investigatorsOnly"')
    path = tmp_path / "doubled.json"
    path.write_text(doubled)
    assert not swift_verdict(path, public)[0]
    assert verify_record.problems(doubled.encode(), public)[0].endswith('the member name "sharing" is given twice')
    # Without a key, the Python verifier, like studykit, must be told to trust the key inside the record.
    assert verify_record.main([str(EXAMPLES / "recover-record.json"), "--trust-embedded-key"]) == 0
    with pytest.raises(SystemExit):
        verify_record.main([str(EXAMPLES / "recover-record.json")])
