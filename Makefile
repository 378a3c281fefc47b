# The README's commands. Each installs what it needs (Debian packages), builds, then runs.
JOBS ?= $(shell nproc)

.PHONY: all deps build test test-sanitize demo format format-check clean

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

# Every tracked C++ file in the style of .clang-format (clang-format 14, Debian 12's).
format:
	OUTPOST_FORMAT_DEPS=1 bash deploy/install-deps.sh
	git ls-files -z '*.cpp' '*.hpp' | xargs -0 clang-format -i

format-check:
	OUTPOST_FORMAT_DEPS=1 bash deploy/install-deps.sh
	@git ls-files -z '*.cpp' '*.hpp' | xargs -0 clang-format --dry-run --Werror || \
		{ echo "format-check: the files above are not formatted; run 'make format'" >&2; exit 1; }
	@echo "format-check: $$(git ls-files '*.cpp' '*.hpp' | wc -l) files formatted"

clean:
	rm -rf build
