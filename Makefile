# ws-gemm top-level entry points.
#   make demo    build ws-gemm-opt and run the bundled example through --wsgemm-prepare
#   make check   the whole test suite (lit + GoogleTest through ctest)
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

.PHONY: all setup configure build check demo clean
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

check: build
	$(NINJA) check-ws-gemm

demo: configure
	@$(NINJA) ws-gemm-opt
	@echo
	@echo "== input: $(EXAMPLE) =="
	@cat $(EXAMPLE)
	@echo
	@echo "== ws-gemm-opt --wsgemm-prepare $(EXAMPLE) =="
	@$(BUILD_DIR)/bin/ws-gemm-opt --wsgemm-prepare $(EXAMPLE)

clean:
	rm -rf $(BUILD_DIR)
