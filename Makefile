# The README's commands. Each installs what it needs (Debian packages), builds, then runs.
JOBS ?= $(shell nproc)

.PHONY: all deps build test test-sanitize test-tsan demo format format-check clean

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

# ThreadSanitizer on the suites whose code runs on several threads (ctest label tsan: the daemon
# in-process against the emulator, the worker pool, the health server, the client's streams,
# signals); the build preset names only their executables. GCC 12's TSan runtime maps its shadow
# memory at fixed addresses and stops with "unexpected memory mapping" when the kernel randomizes
# mappings with more entropy than it knows (vm.mmap_rnd_bits above 28, as on recent kernels):
# `setarch -R` runs the tests without address randomization, where the kernel allows it.
TSAN_NO_ASLR := $(shell setarch -R true 2>/dev/null && echo setarch -R)
test-tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS)
	$(TSAN_NO_ASLR) ctest --preset tsan

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
