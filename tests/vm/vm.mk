# Test VM targets, included by the top-level Makefile.
#   make image                        build/refresh the guest image in $(BFQNG_CACHE)/guest
#   make vm SCRIPT=path [VM_SHARE=dir] [VM_DISKS="1G 256M"] [VM_TIMEOUT=s] [VM_ARGS=...]
#   make check [TESTS=glob|a,b]       the stock lane: all tests/t/*.sh in one VM
#   make demo                         tests/demo.sh in the VM

VM_TOP := $(CURDIR)
VM_RUN := $(VM_TOP)/tests/vm/run-vm.sh
export SCRIPT VM_SHARE VM_DISKS VM_DEVICES VM_TIMEOUT VM_ARGS VM_MEM VM_SMP VM_ACCEL TESTS

.PHONY: image vm check check-wip demo vm-modules

image: $(DEPS_STAMP)
	$(VM_TOP)/tests/vm/build-image.sh

# Build bfq-ng.ko and the device models.  A failed build does not stop the
# run (the harness uses whatever .ko files exist) but is recorded, and
# `make check` reports it as a failure.
vm-modules: $(DEPS_STAMP)
	@mkdir -p tests/out && rm -f tests/out/build.failed
	@set -o pipefail; $(MAKE) --no-print-directory modules 2>&1 | tee tests/out/build.log || \
		{ echo "vm: WARNING: make modules failed; using whatever .ko files exist" >&2; \
		  echo modules >>tests/out/build.failed; }
	@if [ -f tests/devices/hddsim/Kbuild ]; then \
		set -o pipefail; $(MAKE) --no-print-directory hddsim 2>&1 | tee -a tests/out/build.log || \
		{ echo "vm: WARNING: make hddsim failed" >&2; echo hddsim >>tests/out/build.failed; }; \
	fi

vm: vm-modules image
	@if [ -z "$(SCRIPT)" ]; then echo "usage: make vm SCRIPT=path [VM_SHARE=dir]" >&2; exit 2; fi
	$(VM_RUN) $(SCRIPT)

check: vm-modules image
	$(VM_TOP)/tests/run-tests.sh

# Tests of work in progress (tests/wip/): known not to hold yet.
check-wip: vm-modules image
	TEST_DIR=wip $(VM_TOP)/tests/run-tests.sh

demo: vm-modules image
	@if [ -f tests/demo.sh ]; then $(VM_RUN) tests/demo.sh; \
	else echo "demo: tests/demo.sh does not exist yet" >&2; exit 1; fi

# Self-test of the VM runner itself (exit codes, shares, splat/crash/hang detection).
.PHONY: vm-selftest
vm-selftest: image
	$(VM_TOP)/tests/vm/selftest.sh
-include tests/vm/debug.mk
-include tests/vm/bench.mk
