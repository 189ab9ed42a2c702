"""The module boundaries ARCHITECTURE.md promises, read from the sources: which module may import what.

Research, CareStore, Consent, Study and JSONDiagnostics must build for iOS and macOS as Package.swift says, so they
import only Foundation and packages that exist there; only the server and the command line speak HTTP; Study carries
no FHIR; the onboarding gate is decided in one place; Study refuses with values, never with HTTP statuses.
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = ROOT / "Sources"
PORTABLE = ["JSONDiagnostics", "StudyKitEnvironment", "Research", "ActiveTasks", "CareStore", "Consent", "Study"]
# What the portable modules may import: Foundation, the standard library's Synchronization, packages that build on
# Apple's platforms (ZIPFoundation uses Apple's Compression there, zlib on Linux), and each other. Glibc only where
# Darwin is the alternative (#if canImport); FoundationXML only behind #if canImport(FoundationXML): it is where Linux
# keeps XMLParser, which Apple's platforms have in Foundation itself.
PORTABLE_IMPORTS = {"Foundation", "Synchronization", "Crypto", "Ink", "Yams", "ZIPFoundation", *PORTABLE}
HTTP_MODULES = re.compile(r"^(Hummingbird\w*|HTTPTypes|NIO\w*|MultipartKit)$")
# The platform tier's store backends, each the one home of its database driver: GRDB (SQLite) for the *SQLite modules,
# postgres-nio for the *Postgres ones, which also take NIOCore (the driver's byte buffers) and Logging (its logger).
DATABASE_DRIVERS = {"GRDB": "SQLite", "GRDBSQLite": "SQLite", "SQLite3": "SQLite", "PostgresNIO": "Postgres"}
POSTGRES_BACKEND_IMPORTS = {"NIOCore", "Logging"}
# Mail speaks SMTP, not HTTP: swift-nio's sockets and swift-nio-ssl's STARTTLS are its transport, and nothing else.
MAIL_IMPORTS = {"NIOCore", "NIOPosix", "NIOSSL"}
# The PostgreSQL backends, each beside its SQLite counterpart (CareStoreSQLite, StudySQLite), and all they may import:
# the storage layer they implement, the driver and its logger, and the care backend for the study's joint schema.
POSTGRES_BACKENDS = {
    "CareStorePostgres": {"Foundation", "Synchronization", "CareStore", "StudyKitEnvironment", "PostgresNIO", "NIOCore", "Logging"},
    "StudyPostgres": {"Foundation", "Synchronization", "Study", "Research", "Consent", "CareStore", "CareStorePostgres", "StudyKitEnvironment",
                      "PostgresNIO", "Logging"},
}
IMPORT = re.compile(r"^[ \t]*(?:@testable[ \t]+|package[ \t]+|public[ \t]+|internal[ \t]+)?import[ \t]+"
                    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)[ \t]+)?(\w+)", re.M)


def swift_files(module):
    return sorted((SOURCES / module).rglob("*.swift"))


def imports(path):
    return IMPORT.findall(path.read_text(encoding="utf-8"))


def test_portable_modules_import_only_what_ios_has():
    found = []
    for module in PORTABLE:
        for path in swift_files(module):
            text = path.read_text(encoding="utf-8")
            for name in imports(path):
                if name in ("Glibc", "Darwin"):
                    if "#if canImport(Glibc)" not in text or "import Darwin" not in text:
                        found.append(f"{path.relative_to(ROOT)}: imports {name} without the other platform's alternative")
                elif name == "FoundationXML":
                    if "#if canImport(FoundationXML)" not in text:
                        found.append(f"{path.relative_to(ROOT)}: imports FoundationXML, which Apple's platforms do not have, unguarded")
                elif name not in PORTABLE_IMPORTS:
                    found.append(f"{path.relative_to(ROOT)}: imports {name}")
            # Child processes do not exist on iOS: printing with Chromium lives in ConsentPrinting.
            for call in ("Process()", "posix_spawn", "FileManager.default.currentDirectoryPath"):
                if call in text:
                    found.append(f"{path.relative_to(ROOT)}: uses {call}")
    assert not found, "\n".join(found)


def test_only_the_server_and_the_command_line_speak_http():
    found = []
    for module_dir in sorted(p for p in SOURCES.iterdir() if p.is_dir()):
        if module_dir.name in ("StudyServer", "studykit"):
            continue
        for path in swift_files(module_dir.name):
            for name in imports(path):
                if module_dir.name.endswith("Postgres") and name in POSTGRES_BACKEND_IMPORTS:
                    continue
                if module_dir.name == "Mail" and name in MAIL_IMPORTS:
                    continue
                if HTTP_MODULES.match(name):
                    found.append(f"{path.relative_to(ROOT)}: imports {name}")
    assert not found, "\n".join(found)


def test_postgres_nio_lives_in_the_postgres_backends():
    """PostgresNIO is imported among the sources by the *Postgres backend modules only, never by a module
    above the storage layer; a *Postgres module imports no other database's driver."""
    found = []
    for module_dir in sorted(p for p in SOURCES.iterdir() if p.is_dir()):
        for path in swift_files(module_dir.name):
            for name in imports(path):
                backend = DATABASE_DRIVERS.get(name)
                if backend == "Postgres" and not module_dir.name.endswith("Postgres"):
                    found.append(f"{path.relative_to(ROOT)}: imports {name}, which only a *Postgres backend module may")
                if backend == "SQLite" and module_dir.name.endswith("Postgres"):
                    found.append(f"{path.relative_to(ROOT)}: a PostgreSQL backend imports {name}")
    assert not found, "\n".join(found)


def test_the_postgres_backends_are_known_and_import_only_their_layer():
    """Every *Postgres module is one of POSTGRES_BACKENDS, has its line in ARCHITECTURE.md's module table, and imports
    only what its entry allows (no server, no HTTP, no other backend's driver)."""
    modules = {p.name for p in SOURCES.iterdir() if p.is_dir() and p.name.endswith("Postgres")}
    assert modules == set(POSTGRES_BACKENDS), f"*Postgres modules {sorted(modules)}, known {sorted(POSTGRES_BACKENDS)}"
    architecture = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    found = [f"{module}: no line in ARCHITECTURE.md's module table" for module in sorted(modules)
             if f"| `{module}` |" not in architecture]
    for module, allowed in sorted(POSTGRES_BACKENDS.items()):
        for path in swift_files(module):
            found += [f"{path.relative_to(ROOT)}: imports {name}" for name in imports(path) if name not in allowed]
    assert not found, "\n".join(found)


def test_study_carries_no_fhir():
    found = [f"{p.relative_to(ROOT)}" for p in swift_files("Study") if "Interop" in imports(p)]
    assert not found, "Study imports Interop: " + ", ".join(found)
    package = (ROOT / "Package.swift").read_text(encoding="utf-8")
    study_target = re.search(r'name:\s*"Study",\s*dependencies:\s*\[([^\]]*)\]', package)
    assert study_target and '"Interop"' not in study_target.group(1), study_target and study_target.group(1)


def test_study_refuses_with_values_not_http_statuses():
    pattern = re.compile(r"HTTPResponse|\.status\b|\b(?:301|302|303|400|401|403|404|409|413|422|429|500|503)\b")
    found = []
    for path in swift_files("Study"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_gate_is_decided_in_the_workflow():
    """Outside Study, nothing asks the care store whether a participant is onboarded: the workflow's check() and
    today() decide, from the one OnboardingGate predicate."""
    found = []
    for path in sorted(SOURCES.rglob("*.swift")):
        relative = path.relative_to(SOURCES).as_posix()
        # The crash writer and the benchmarks' data set-up record onboardings to make their data, as a participant's would be.
        if relative.startswith("Study/") or relative.startswith("StudySQLiteCrashWriter/") or relative.startswith("studykit/Benchmarks/"):
            continue
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if "OnboardingGate(" in line:
                found.append(f"Sources/{relative}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_no_module_above_the_store_backends_knows_a_database():
    """The server and the libraries above the storage layer know no backend: they import no database driver and no
    backend module (the *SQLite and *Postgres modules), and are given their stores. Only the backends, the command line
    (which opens the database `--database` names) and the backends' own crash-test writers do."""
    backends = {p.name for p in SOURCES.iterdir() if p.is_dir() and (p.name.endswith("SQLite") or p.name.endswith("Postgres"))}
    allowed = backends | {"studykit", "StudySQLiteCrashWriter", "CareStoreSQLiteCrashWriter"}
    found = []
    for module_dir in sorted(p for p in SOURCES.iterdir() if p.is_dir()):
        if module_dir.name in allowed:
            continue
        for path in swift_files(module_dir.name):
            for name in imports(path):
                if name in DATABASE_DRIVERS or name in backends:
                    found.append(f"{path.relative_to(ROOT)}: imports {name}")
    assert not found, "\n".join(found)
    package = (ROOT / "Package.swift").read_text(encoding="utf-8")
    server_target = re.search(r'name:\s*"StudyServer",\s*dependencies:\s*\[(.*?)\]\s*\)', package, re.S)
    assert server_target, "the StudyServer target is in Package.swift"
    named = [name for name in backends if f'"{name}"' in server_target.group(1)]
    assert not named, f"StudyServer depends on {named}"
