# Debug lane (included from tests/vm/vm.mk).
#   make debug-kernel         build the KASAN/lockdep/... kernel into $(BFQNG_CACHE)/debug-kernel
#   make check-debug [TESTS=glob|a,b]   bfq-ng, hddsim and the KUnit module built
#                             against it; one VM runs the stock tests, KUnit,
#                             tests/stress/*.sh and a kmemleak scan
# See Documentation/debug-lane.rst.
.PHONY: debug-kernel check-debug

debug-kernel: $(DEPS_STAMP)
	$(VM_TOP)/scripts/debug-kernel.sh

check-debug: debug-kernel image
	$(VM_TOP)/tests/vm/check-debug.sh
