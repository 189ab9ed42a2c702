# StudyKit. `make run` takes the demo survey in the terminal; `make test` runs every test; `make bench` measures.
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift
# Debian packages the build and tests need besides the Swift toolchain: GRDB links the system SQLite; consent PDFs
# are printed by headless Chromium with CJK fonts, and the tests read them back with poppler's pdftotext and pdftoppm.
DEBIAN_PACKAGES := libsqlite3-dev chromium fonts-noto-cjk poppler-utils

.PHONY: run test bench deps

deps:
	@scripts/install-deps $(DEBIAN_PACKAGES)

run: deps
	$(SWIFT) build --product studykit
	.build/debug/studykit run examples/seed-demo.json --output result.json

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

bench: deps
	$(SWIFT) build -c release --product studykit
	.build/release/studykit bench
