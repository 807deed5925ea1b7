# ws-gemm top-level entry points.
#   make demo    compile the bundled example to PTX, cubin and manifest, and show them
#   make check   the whole test suite (lit + GoogleTest through ctest)
#   make check-sanitize  a clang-22 build with ASan + UBSan + libFuzzer
#                coverage (build-sanitize/): the lit and unit suites under
#                the sanitizers, then the fuzz smoke: a fixed seed and
#                number of executions per target, FUZZ_SECONDS at most
#                each (docs/fuzzing.md)
#   make build   configure (once) and build everything
#   make clean   remove the build directory
# Each target runs scripts/setup.sh first, which installs missing Debian
# packages and does nothing when all are present.

BUILD_DIR ?= build
BUILD_TYPE ?= Release
LIT ?= /usr/lib/llvm-22/bin/lit
JOBS ?= $(shell nproc)
EXAMPLE ?= examples/gemm_relu.mlir
NINJA = ninja -C $(BUILD_DIR) -j $(JOBS)
SAN_BUILD_DIR ?= build-sanitize
FUZZ_SECONDS ?= 180
SAN_NINJA = ninja -C $(SAN_BUILD_DIR) -j $(JOBS)

.PHONY: all setup configure build check check-sanitize demo clean
all: build

setup:
	@bash scripts/setup.sh

# Configure only when the build directory has not been configured yet; later
# CMakeLists.txt edits re-run CMake from ninja by themselves.
configure: setup
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then \
	  cmake -S . -B $(BUILD_DIR) -G Ninja \
	    -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	    -DLLVM_EXTERNAL_LIT=$(LIT); \
	fi

build: configure
	$(NINJA)

# CI (.ci/run) runs check, then check-sanitize.
check: build
	$(NINJA) check-ws-gemm

# One clang-22 build for both the sanitized suites and the fuzz targets
# (-O1: ASan's advice, and it compiles in less time than -O3). Everything is
# built first: the runtime's install test installs every tool.
check-sanitize: setup
	@if [ ! -f $(SAN_BUILD_DIR)/build.ninja ]; then \
	  cmake -S . -B $(SAN_BUILD_DIR) -G Ninja \
	    -DCMAKE_BUILD_TYPE=Release \
	    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
	    "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG" \
	    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
	    -DWSGEMM_FUZZ=ON -DWSGEMM_FUZZ_SECONDS=$(FUZZ_SECONDS) \
	    -DLLVM_EXTERNAL_LIT=$(LIT); \
	fi
	$(SAN_NINJA)
	$(SAN_NINJA) check-ws-gemm-lit check-ws-gemm-unit
	$(SAN_NINJA) check-ws-gemm-fuzz

demo: configure
	@$(NINJA) ws-gemm-opt ws-gemm-compile
	@echo
	@echo "== input: $(EXAMPLE) =="
	@cat $(EXAMPLE)
	@echo
	@echo "== ws-gemm-opt --wsgemm-prepare (presets expanded, config planned) =="
	@$(BUILD_DIR)/bin/ws-gemm-opt --wsgemm-prepare $(EXAMPLE) | grep -E 'wsgemm.gemm|config' | head -3
	@echo
	@echo "== ws-gemm-compile $(EXAMPLE) -o $(BUILD_DIR)/demo =="
	@rm -rf $(BUILD_DIR)/demo
	@$(BUILD_DIR)/bin/ws-gemm-compile $(EXAMPLE) -o $(BUILD_DIR)/demo
	@ls -l $(BUILD_DIR)/demo
	@echo
	@echo "== the PTX's Hopper instructions (count, name) =="
	@grep -ohE '(wgmma\.mma_async[.a-z0-9]*|cp\.async\.bulk\.tensor[.a-z0-9:_]*|mbarrier\.[a-z_.]*|stmatrix[.a-z0-9]*|setmaxnreg[.a-z0-9]*|fence\.proxy\.async[.a-z:_]*|cp\.async\.bulk\.(commit_group|wait_group[.a-z]*))' $(BUILD_DIR)/demo/*.ptx | sort | uniq -c
	@echo
	@echo "== manifest (the runtime's contract, docs/manifest.md) =="
	@python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print("kernel", m["kernel"], "block", m["block"], "smem", m["smem_bytes"], "grid", m["grid"]["kind"]); print("params:", ", ".join(p["name"] + ":" + p["kind"] for p in m["params"])); print("evt:", " ".join(n["op"] for n in m["evt"]["nodes"]))' $$(ls $(BUILD_DIR)/demo/*.json | head -1)

clean:
	rm -rf $(BUILD_DIR) $(SAN_BUILD_DIR)
