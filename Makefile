# bfq-ng: out-of-tree build, test VM and benchmarks.
# `make help` lists the targets.

SHELL := /bin/bash
KVER := 6.12.118+deb12-amd64
KPKGVER := 6.12.118-1~deb12u1
BFQNG_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/bfq-ng
export BFQNG_CACHE
KDIR ?= $(BFQNG_CACHE)/kheaders/$(KPKGVER)/usr/src/linux-headers-$(KVER)
KPRIV ?= $(BFQNG_CACHE)/kprivate/$(KPKGVER)
PWD := $(shell pwd)
DEPS_STAMP := $(BFQNG_CACHE)/.deps-done

.PHONY: all modules deps sparse w1 clean vm check demo help image hddsim

all: modules

help:
	@echo "make            build bfq-ng.ko against the pinned kernel ($(KVER))"
	@echo "make deps       install host packages, unpack pinned headers into $(BFQNG_CACHE)"
	@echo "make sparse     build with sparse (C=2)"
	@echo "make w1         build with W=1"
	@echo "make vm SCRIPT=path [VM_SHARE=dir]  boot the test VM and run a script in it"
	@echo "make check      run the stock-lane tests in the VM"
	@echo "make demo       the demo"

# deps runs once per cache; `make deps` forces it.
$(DEPS_STAMP): scripts/deps.sh scripts/kernel-prep.sh scripts/config.sh
	./scripts/deps.sh
	@mkdir -p $(dir $@) && touch $@

deps:
	./scripts/deps.sh
	@mkdir -p $(dir $(DEPS_STAMP)) && touch $(DEPS_STAMP)

modules: $(DEPS_STAMP)
	$(MAKE) -C $(KDIR) M=$(PWD) KPRIV=$(KPRIV) modules

sparse: $(DEPS_STAMP)
	$(MAKE) -C $(KDIR) M=$(PWD) KPRIV=$(KPRIV) C=2 modules

w1: $(DEPS_STAMP)
	$(MAKE) -C $(KDIR) M=$(PWD) KPRIV=$(KPRIV) W=1 modules

hddsim: $(DEPS_STAMP)
	$(MAKE) -C $(KDIR) M=$(PWD)/tests/devices/hddsim modules

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean 2>/dev/null || rm -f *.o *.ko *.mod* .*.cmd Module.symvers modules.order
	-$(MAKE) -C $(KDIR) M=$(PWD)/tests/devices/hddsim clean 2>/dev/null

# Test VM, tests and demo (tests/vm/vm.mk) and device models.
-include tests/vm/vm.mk
-include scripts/eco.mk	# install, DKMS, tools, patch series
