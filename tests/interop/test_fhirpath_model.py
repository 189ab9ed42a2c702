"""The R4 element types StudyKit's FHIRPath knows (Sources/Interop/FHIRPath/FHIRElementTypes+R4Elements.swift) against
fhirpathpy's R4 model, which its authors generate from HL7's published StructureDefinitions: every member StudyKit
lists must have the type that model gives it, so a date compares as a date and a code is a code."""
import re
from pathlib import Path

from fhirpathpy.models import models

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "Sources" / "Interop" / "FHIRPath" / "FHIRElementTypes+R4Elements.swift"
# Extension.url is the FHIR type uri in the specification; the R4 model gives it as the XML attribute's System.String.
SAME = {("Extension.url", "uri"): "System.String"}


def studykit_table():
    entries = re.findall(r'^\s*"([A-Za-z.]+)": "([^"]*)",$', TABLE.read_text(), re.M)
    assert len(entries) > 40, f"read only {len(entries)} entries from {TABLE.name}"
    table = {}
    for owner, members in entries:
        table[owner] = dict(member.split(" ") for member in members.split(", ")) if members else {}
    return table


def test_every_member_has_the_r4_models_type():
    path_to_type = models["r4"]["path2Type"]
    table = studykit_table()
    wrong = []
    for owner, members in table.items():
        for member, kind in members.items():
            path = f"{owner}.{member}"
            expected = path_to_type.get(path)
            if SAME.get((path, kind), kind) != expected:
                wrong.append(f"{path}: StudyKit {kind}, R4 model {expected}")
    assert not wrong, "\n".join(wrong)


def test_backbone_elements_are_listed_under_their_own_path():
    # A backbone member (Patient.contact) has no type of its own in the table: its members are found by its path.
    table = studykit_table()
    for owner in table:
        if "." in owner:
            parent, member = owner.rsplit(".", 1)
            assert parent in table, f"{owner} is listed but {parent} is not"
            assert member not in table[parent], f"{owner} is a backbone element but {parent} gives {member} a type"
