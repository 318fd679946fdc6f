# Installing and packaging bfq-ng, included by the top-level Makefile.
#   make tools                       tools/bfq-ng-top
#   make install [DESTDIR=] [INSTALL_KVER=]   bfq-ng.ko into /lib/modules/KVER/updates, depmod
#   make install-extras [DESTDIR=] [PREFIX=/usr/local]   bfq-ng-top and the udev rule
#   make install-compat [DESTDIR=]   /etc/modprobe.d/bfq-ng-compat.conf: bfq-ng drop-in as "bfq"
#   make uninstall [DESTDIR=]        removes what the three above installed, depmod
#   make dkms-src [DESTDIR=]         the DKMS source tree in /usr/src/bfq-ng-VERSION
#   make dkms-install                dkms-src, then dkms add/build/install for INSTALL_KVER
#   make patches                     out/patches/: the series adding bfq-ng to linux-source
#   make check-host                  the host-side tests alone (make check runs them too)
#   make check-patches               apply the series to linux-source and build block/bfq-ng/
#   make check-dkms                  dkms install in a chroot of the guest image, then boot it

TOOLS_CFLAGS ?= -O2 -g -Wall -Wextra -Wformat=2 -Wshadow -Wmissing-prototypes \
	-Wstrict-prototypes -Wwrite-strings -Wcast-qual
PREFIX ?= /usr/local
# The kernel the module was built for: KDIR's release, else the pinned one.
INSTALL_KVER ?= $(or $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null),$(KVER))
INSTALL_MOD_DIR ?= updates
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(CURDIR)/dkms.conf)
DKMS_SRC = $(DESTDIR)/usr/src/bfq-ng-$(DKMS_VERSION)
# depmod for INSTALL_KVER, in DESTDIR when given; skipped where there is no depmod.
ECO_DEPMOD = if command -v depmod >/dev/null; then \
	depmod -a $(if $(DESTDIR),-b $(DESTDIR)) $(INSTALL_KVER); \
	else echo "install: no depmod; run 'depmod -a $(INSTALL_KVER)' yourself" >&2; fi

.PHONY: tools install install-extras install-compat uninstall dkms-src dkms-install patches \
	check-host check-patches check-dkms vm-tools

tools: tools/bfq-ng-top

tools/bfq-ng-top: tools/bfq-ng-top.c
	$(CC) $(TOOLS_CFLAGS) $(CPPFLAGS) $(LDFLAGS) -o $@ $<

# Like modules_install, it does not build: `make` first (as the user).
install:
	@[ -f bfq-ng.ko ] || { echo "install: no bfq-ng.ko: run 'make' first" >&2; exit 1; }
	install -D -m 0644 bfq-ng.ko $(DESTDIR)/lib/modules/$(INSTALL_KVER)/$(INSTALL_MOD_DIR)/bfq-ng.ko
	@$(ECO_DEPMOD)

install-extras: tools
	install -D -m 0755 tools/bfq-ng-top $(DESTDIR)$(PREFIX)/sbin/bfq-ng-top
	install -D -m 0644 udev/60-bfq-ng.rules $(DESTDIR)/etc/udev/rules.d/60-bfq-ng.rules

install-compat:
	install -D -m 0644 etc/modprobe.d/bfq-ng-compat.conf $(DESTDIR)/etc/modprobe.d/bfq-ng-compat.conf

uninstall:
	rm -f $(DESTDIR)/lib/modules/$(INSTALL_KVER)/$(INSTALL_MOD_DIR)/bfq-ng.ko \
		$(DESTDIR)$(PREFIX)/sbin/bfq-ng-top $(DESTDIR)/etc/udev/rules.d/60-bfq-ng.rules \
		$(DESTDIR)/etc/modprobe.d/bfq-ng-compat.conf
	@if [ -d $(DESTDIR)/lib/modules/$(INSTALL_KVER) ]; then $(ECO_DEPMOD); fi

# The module's sources (every top-level .c/.h, Kbuild), dkms.conf and its
# build script: what `dkms add` wants in /usr/src/bfq-ng-VERSION.
dkms-src:
	@[ -n "$(DKMS_VERSION)" ] || { echo "dkms-src: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)/scripts
	install -m 0644 Kbuild dkms.conf $(filter-out %.mod.c,$(wildcard *.c)) $(wildcard *.h) $(DKMS_SRC)/
	install -m 0755 scripts/dkms-build.sh $(DKMS_SRC)/scripts/

dkms-install: dkms-src
	dkms add bfq-ng/$(DKMS_VERSION) || dkms status bfq-ng/$(DKMS_VERSION) | grep -q .
	dkms build bfq-ng/$(DKMS_VERSION) -k $(INSTALL_KVER)
	dkms install bfq-ng/$(DKMS_VERSION) -k $(INSTALL_KVER)

patches:
	./scripts/make-patches.sh

# Host-side tests (tests/host/*.sh, TAP): quick, no VM.  `make check` runs
# them as well, after the VM, and counts them in its summary.
check-host: $(DEPS_STAMP)
	./tests/run-host.sh

check-patches: $(DEPS_STAMP)
	./tests/patches/check-patches.sh

check-dkms: vm-modules image
	./tests/dkms/check-dkms.sh

# The VM targets ship tools/bfq-ng-top into the guest; a failed build is
# recorded like a failed module build (tests/out/build.failed).
vm-tools:
	@mkdir -p tests/out
	@set -o pipefail; $(MAKE) --no-print-directory tools 2>&1 | tee -a tests/out/build.log || \
		{ echo "vm: WARNING: make tools failed" >&2; echo tools >>tests/out/build.failed; }
check vm demo: vm-tools
