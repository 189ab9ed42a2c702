# StudyKit. `make run` serves the demo study "Recover" on an embedded SQLite database; `make test` runs every test
# (Swift, then the browser suite); `make bench` measures.
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift
# Debian packages the build and tests need besides the Swift toolchain: GRDB links the system SQLite; consent PDFs
# are printed by headless Chromium with CJK fonts, and the tests read them back with poppler's pdftotext and pdftoppm;
# ZIPFoundation (the ZIP exports) links the system zlib; the console draws invitation QR codes with libqrencode.
# The browser suite drives chromium through chromedriver with Selenium from PyPI (in .venv); `make bench` loads the
# server with wrk.
DEBIAN_PACKAGES := libsqlite3-dev zlib1g-dev libqrencode-dev pkg-config chromium chromium-driver fonts-noto-cjk poppler-utils python3 python3-venv wrk
# Only the tests need R, zbar, PostgreSQL and nginx: tests/export reads every CSV export back with base R's read.csv,
# as a statistician would; the QR codes are read back with zbar's zbarimg; the store conformance suites also run on a
# private PostgreSQL cluster that `make test` starts (scripts/postgres-cluster); tests/browser/test_two_processes.py
# runs two servers behind nginx with deploy/nginx/studykit.conf; tests/browser/test_push.py clicks Chromium's notifications
# through a desktop notification server on a private D-Bus bus (dbus-daemon, Debian's python3-dbus and python3-gi).
# `make test` installs them and `make run` does not. Debian's postgresql package may make its own cluster (15/main on port 5432), started or not:
# the tests never use it, and theirs takes a free port, so the two never meet.
TEST_DEBIAN_PACKAGES := r-base-core zbar-tools postgresql nginx dbus-daemon python3-dbus python3-gi
VENV := .venv
# axe-core (accessibility checks in the browser suite) comes from PyPI: axe-playwright-python carries axe.min.js.
AXE_PACKAGE := axe-playwright-python==0.1.8

.PHONY: run test bench deps test-deps

deps:
	@scripts/install-deps $(DEBIAN_PACKAGES)

test-deps:
	@scripts/install-deps $(DEBIAN_PACKAGES) $(TEST_DEBIAN_PACKAGES)

$(VENV)/.installed: tests/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q -r tests/requirements.txt
	$(VENV)/bin/pip install -q --no-deps $(AXE_PACKAGE)
	mkdir -p $(VENV)/axe
	cp "$$(find $(VENV) -path '*axe_playwright_python/axe.min.js' | head -1)" $(VENV)/axe/axe.min.js
	touch $@

run: deps
	$(SWIFT) build --product studykit
	@echo "Open this invitation link in a browser (each link enrols one participant):"
	@.build/debug/studykit invite --study examples/studies/recover --data data --base-url http://127.0.0.1:8080
	.build/debug/studykit serve --study examples/studies/recover --data data --public-url http://127.0.0.1:8080

# The tests run against a PostgreSQL cluster of their own (a new folder under /tmp, a free port on 127.0.0.1), whose
# URL they read from STUDYKIT_TEST_POSTGRES_URL; the trap stops it and removes its folder however the recipe ends
# (tests failing, Ctrl-C), so nothing is left running.
test: test-deps $(VENV)/.installed
	$(SWIFT) build --build-tests
	@cluster=$$(mktemp -d /tmp/studykit-postgres.XXXXXX) && \
	trap 'scripts/postgres-cluster stop "$$cluster"' EXIT && trap 'exit 130' INT TERM HUP && \
	url=$$(scripts/postgres-cluster start "$$cluster") && export STUDYKIT_TEST_POSTGRES_URL="$$url" && \
	echo "PostgreSQL for the tests: $$url" && \
	$(SWIFT) test && \
	$(VENV)/bin/pytest -q tests

bench: deps $(VENV)/.installed
	$(SWIFT) build -c release --product studykit
	.build/release/studykit bench
	STUDYKIT=.build/release/studykit $(VENV)/bin/python scripts/bench_server.py
