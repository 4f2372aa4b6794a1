# Convenience wrappers around CMake. The README's two commands:
#   make setup demo    builds ptosim and runs the GEMM demo
#   make setup test    builds ptosim and runs the whole test suite
BUILD ?= build
SAN_BUILD ?= build-san
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: setup build demo test test-san fuzz bench install clean

setup:
	./scripts/setup.sh

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

# The GEMM demos: from C through the API, examples/gemm.pto (micro-instructions) and
# examples/tile_gemm.pto (tile level) through the command line (inputs + reference from
# gemm_inputs / tile_inputs, `ptosim run`, `ptosim compare`).
DEMO_DIR ?= $(BUILD)/demo
demo: build
	./$(BUILD)/gemm_demo
	mkdir -p $(DEMO_DIR)
	./$(BUILD)/gemm_inputs $(DEMO_DIR)
	./$(BUILD)/ptosim run examples/gemm.pto $(DEMO_DIR)/a.npy $(DEMO_DIR)/b.npy $(DEMO_DIR)/c.npy
	./$(BUILD)/ptosim compare $(DEMO_DIR)/golden.npy $(DEMO_DIR)/c.npy --dtype f32 --exact --shape 128x128
	mkdir -p $(DEMO_DIR)/tile
	./$(BUILD)/tile_inputs gemm $(DEMO_DIR)/tile
	./$(BUILD)/ptosim run --stats examples/tile_gemm.pto $(DEMO_DIR)/tile/c.npy $(DEMO_DIR)/tile/a.npy \
		$(DEMO_DIR)/tile/b.npy $(DEMO_DIR)/tile/bias.npy
	./$(BUILD)/ptosim compare $(DEMO_DIR)/tile/golden.npy $(DEMO_DIR)/tile/c.npy --dtype f32 --exact --shape 40x56

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# AddressSanitizer + UndefinedBehaviorSanitizer build of the library and the tests.
test-san:
	cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DPTOSIM_SANITIZE=ON -DPTOSIM_BUILD_BENCH=OFF
	cmake --build $(SAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir $(SAN_BUILD) --output-on-failure -j $(JOBS)

# libFuzzer over parse + verify (fuzz_parse) and runs (fuzz_run); FUZZ_SECONDS bounds each.
FUZZ_SECONDS ?= 60
fuzz:
	CC=clang cmake -S . -B build-fuzz -DPTOSIM_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug -DPTOSIM_FUZZ_SECONDS=$(FUZZ_SECONDS)
	cmake --build build-fuzz --target fuzz

bench: build
	@for b in $(BUILD)/bench_*; do echo "== $$b"; OPENBLAS_NUM_THREADS=1 ./$$b; done

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
