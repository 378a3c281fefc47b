# The README's commands. Each installs what it needs (Debian packages), builds, then runs.
JOBS ?= $(shell nproc)

.PHONY: all deps build test test-sanitize demo format clean

all: build

deps:
	bash deploy/install-deps.sh

build: deps
	cmake --preset release
	cmake --build --preset release -j $(JOBS)

test: build
	ctest --preset release

demo: build
	bash tests/emulator/demo.sh build/release

test-sanitize: deps
	cmake --preset sanitize
	cmake --build --preset sanitize -j $(JOBS)
	ctest --preset sanitize

format:
	git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	rm -rf build
