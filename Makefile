# Caveman — the two commands a fresh machine needs: `make start` and `make test`.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
BIN := $(BUILD_DIR)/bin
JOBS ?= 2
# ccache hits across clones at different paths (CI builds a fresh clone every run).
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

# What `make start` builds: the seven binaries and the engine library under them, nothing else.
PRODUCT := caveman caveman-proxy caveman-engine caveman-mcp caveman-shrink caveman-browse cavemem

.PHONY: all bootstrap configure build build-product start test test-latest compile-cost lint format test-sanitizers test-tsan test-asan test-fuzz install bench fuzz fuzz-build soak npm-pack clean help

all: build

help:
	@echo "make start    install the build's packages, build the seven binaries (release) and run the"
	@echo "              proxy on 127.0.0.1:8787"
	@echo "make test     bootstrap, build the seven binaries (release), lint, run the e2e and lint"
	@echo "              tests, then the unit tests and every fuzz target (30 s) in one clang +"
	@echo "              libc++ ASan+UBSan build (the macOS proxy), then the proxy and MCP unit"
	@echo "              tests under ThreadSanitizer"
	@echo "make test-latest  the agent e2e tests (wrap, enable, hooks, MCP registration, benchmarks)"
	@echo "              against the newest Claude Code, Codex, Gemini CLI, opencode and Qwen Code on npm"
	@echo "make compile-cost  compile CPU seconds of the release, clang and TSan trees (cold, ccache off)"
	@echo "make lint     clang-format check, clang-tidy on the last commit's files, lint tests"
	@echo "make format   rewrite the C++ sources with clang-format"
	@echo "make build    build the release preset into $(BUILD_DIR): every target (unit tests and"
	@echo "              benchmarks too; ctest --preset release then runs every label)"
	@echo "make install  copy the binaries into ~/.caveman/bin"
	@echo "make bench    run the benchmarks and rewrite docs/BENCHMARKS.md"
	@echo "make fuzz     run every libFuzzer target FUZZ_SECONDS (default 30) each"
	@echo "make soak     kill-9, MCP soak and proxy load runs (docs/RELIABILITY.md)"

bootstrap:
	@scripts/bootstrap.sh

configure:
	@test -f $(BUILD_DIR)/build.ninja || cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

build-product: configure
	cmake --build --preset $(PRESET) -j $(JOBS) --target $(PRODUCT)

start:
	@scripts/bootstrap.sh --build
	@$(MAKE) --no-print-directory build-product
	$(BIN)/caveman start

# The release tree builds only the seven binaries (what the e2e tests drive) and its ctest runs
# every label but unit; the unit tests are built and run in test-sanitizers' clang ASan + UBSan
# tree (docs/RELIABILITY.md#ci-time). `ctest --preset release` after `make build` still runs
# everything.
CTEST_NO_UNIT := -LE '^unit$$'
test: bootstrap build-product
	scripts/lint.sh $(BUILD_DIR)
	ctest --preset $(PRESET) $(CTEST_NO_UNIT)
	$(MAKE) --no-print-directory test-sanitizers
	$(MAKE) --no-print-directory test-tsan

# The agent e2e tests (ctest label "agents") against the newest agents on npm, installed into a
# temp prefix (never the repo's node_modules, never global); versions in $(BUILD_DIR)/test-latest.json.
test-latest: bootstrap build-product
	scripts/test_latest.sh $(BUILD_DIR)

# Compile CPU seconds (user + sys of the compilers and linkers, ccache off) of each tree as `make
# test` builds it, in fresh build/cost-* directories; docs/RELIABILITY.md#ci-time.
compile-cost:
	scripts/compile_cost.py release --targets $(PRODUCT)
	scripts/compile_cost.py fuzz --targets unit_tests fuzz_targets
	scripts/compile_cost.py tsan --targets proxy_tests mcp_tests
	scripts/compile_cost.py --sum build/cost-release build/cost-fuzz build/cost-tsan

# clang-format over the tree, clang-tidy on what the last commit changed, the lint ctests.
lint: configure
	scripts/lint.sh $(BUILD_DIR)

# Rewrites every C++ file of the product, tests and benchmarks with clang-format.
format:
	git ls-files '*.cpp' '*.h' ':!:third_party/**' | xargs clang-format -i

# One clang build with ASan + UBSan (preset fuzz) serves both CI steps: the unit tests
# (label "unit"; UBSan halts on the first report) and every fuzz target 30 s. It builds those
# two targets only (the libraries under them), not the seven binaries. It is built on libc++
# (CAVEMAN_LIBCXX), so the unit tests also run on macOS's standard library, the nearest proxy
# for macOS here, without another tree (docs/STATUS.md#clang--libc-the-macos-proxy).
test-sanitizers:
	@test -f build/fuzz/build.ninja || cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS) --target unit_tests fuzz_targets
	ctest --preset fuzz
	scripts/run_fuzz.sh --ci 30 build/fuzz

# g++ ThreadSanitizer over the unit tests of the threaded components only (the proxy with its
# native runtime, and MCP), to stay inside CI's budget. Each binary runs as one process, so a
# race between a test's threads and the next test is seen too. Times: docs/RELIABILITY.md.
TSAN_ENV := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
test-tsan:
	@test -f build/tsan/build.ninja || cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS) --target proxy_tests mcp_tests
	$(TSAN_ENV) build/tsan/bin/proxy_tests --gtest_brief=1
	$(TSAN_ENV) build/tsan/bin/mcp_tests --gtest_brief=1

# The unit tests under g++'s AddressSanitizer + UndefinedBehaviorSanitizer (label "unit").
test-asan:
	@test -f build/asan/build.ninja || cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	ctest --preset asan

# libFuzzer targets (clang), FUZZ_SECONDS each, two at a time; results in docs/RELIABILITY.md.
FUZZ_SECONDS ?= 30
fuzz-build:
	@test -f build/fuzz/build.ninja || cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS) --target fuzz_targets

fuzz: fuzz-build
	scripts/run_fuzz.sh $(FUZZ_SECONDS) build/fuzz

# CI step of `make test`: every target 30 s; work files in a temp dir, nothing written to the
# checkout; fails on any finding.
test-fuzz: fuzz-build
	scripts/run_fuzz.sh --ci 30 build/fuzz

# Long reliability runs: kill-9 at full size, 100,000-request MCP soak, proxy load (docs/RELIABILITY.md).
soak: build
	scripts/run_soak.sh $(BIN)

install: build
	$(BIN)/caveman install --from $(BIN)

bench: build
	scripts/run_benchmarks.sh $(BIN)

npm-pack: build-product
	scripts/npm_pack.sh $(BIN)

clean:
	rm -rf build
