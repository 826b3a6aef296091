# iowatt: one GNU Makefile; `make` builds ./iowatt, `make check` runs every test.
# Cross builds: make CROSS_COMPILE=aarch64-linux-gnu- (CC, AR and PKG_CONFIG follow it
# unless given themselves).
CROSS_COMPILE ?=
ifeq ($(origin CC),default)
CC      := $(if $(CROSS_COMPILE),$(CROSS_COMPILE)gcc,cc)
endif
ifeq ($(origin AR),default)
AR      := $(CROSS_COMPILE)ar
endif
PKG_CONFIG ?= $(CROSS_COMPILE)pkg-config
O       ?= build
PREFIX  ?= /usr/local
.DEFAULT_GOAL := all
CSTD    := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64
# 64-bit time_t on 32-bit glibc >= 2.34 (ignored elsewhere). The two adapters that pass
# struct timespec to a library (libgpiod 1.x edge events, libaio's io_getevents) keep the
# toolchain's default, which is the ABI the distribution built those libraries with
# (32-bit on Debian 12 armhf, 64-bit on Debian 13 armhf).
TIME64  := -D_TIME_BITS=64
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wundef -Wcast-qual -Wvla -Wno-format-nonliteral
CFLAGS  ?= -O2 -g
ifeq ($(WERROR),1)
WARN    += -Werror
endif
ifeq ($(SANITIZE),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
# ThreadSanitizer (make tsan): the suite once with data races reported and fatal.
ifeq ($(TSAN),1)
CFLAGS  += -fsanitize=thread -fno-omit-frame-pointer
LDFLAGS += -fsanitize=thread
endif
# libFuzzer (make fuzz, clang only): coverage on every object, the fuzzer's main in the
# tests/fuzz binaries alone.
ifeq ($(FUZZ),1)
CFLAGS  += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
           -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

# Libraries. pkg-config may not be installed yet (make demo/check install it first): every
# query is quiet, and what is missing is said once, when something is built.
PKG_OK = $(shell $(PKG_CONFIG) --atleast-version=$(2) $(1) 2>/dev/null && echo 1)
PKG_VERSION = $(shell $(PKG_CONFIG) --modversion $(1) 2>/dev/null)
HAVE_FEATURES :=
MISSING       :=
PKGS          :=

# $(call required,pkg,min-version)
define required
ifeq ($$(call PKG_OK,$(1),$(2)),1)
PKGS += $(1)
else
MISSING_REQUIRED += $(1)>=$(2)
endif
endef

# $(call optional,FEATURE,pkg,min-version,what it gives,Debian package): HAVE_FEATURE in
# config.h and the library linked, or a build without it and one line saying so.
define optional
ifeq ($$(call PKG_OK,$(2),$(3)),1)
PKGS += $(2)
HAVE_FEATURES += $(1)
else
MISSING += $(1)
MISSING_$(1) := $(4): needs $(2) >= $(3)$$(if $$(call PKG_VERSION,$(2)), (found $$(call PKG_VERSION,$(2))),) from $(5)
endif
endef

$(eval $(call required,inih,53))
$(eval $(call required,jansson,2.12))
$(eval $(call required,blkid,2.33))
$(eval $(call optional,SERIALPORT,libserialport,0.1.1,serial meters (UM, TC, FNB),libserialport-dev))
$(eval $(call optional,LIBURING,liburing,2.0,ioengine=io_uring,liburing-dev))
$(eval $(call optional,SECCOMP,libseccomp,2.4,gnuplot run without process creation,libseccomp-dev))
$(eval $(call optional,NETTLE,nettle,3.4,the tc66c meter driver (AES-256 replies),nettle-dev))
$(eval $(call optional,SIGROK,libsigrok,0.5.2,the sigrok meter bridge,libsigrok-dev))
$(eval $(call optional,LIBZIP,libzip,1.5,reading recordings: sigrok sessions and PPK2 files,libzip-dev))
# The report page's methods section: docs/energy.md rendered by cmark-gfm (its table
# extension has no .pc file: its header decides), else shown as written.
ifeq ($(call PKG_OK,libcmark-gfm,0.29),1)
ifeq ($(shell printf '\#include <cmark-gfm-core-extensions.h>\n' | $(CC) -E - >/dev/null 2>&1 && echo 1),1)
PKGS += libcmark-gfm
HAVE_FEATURES += CMARK
CMARK_LIBS := -lcmark-gfm-extensions
endif
endif
ifeq ($(filter CMARK,$(HAVE_FEATURES)),)
MISSING += CMARK
MISSING_CMARK := formatted methods in the report page: needs libcmark-gfm >= 0.29 and its extensions from libcmark-gfm-dev, libcmark-gfm-extensions-dev
endif
# GPIO: libgpiod 2.x (Debian 13, Ubuntu 24.04) or 1.6 (Debian 12), one adapter file each.
ifeq ($(call PKG_OK,libgpiod,2.0),1)
PKGS += libgpiod
HAVE_FEATURES += GPIOD GPIOD2
else
$(eval $(call optional,GPIOD,libgpiod,1.6,GPIO sources (--uv-gpio --mark-gpio),libgpiod-dev))
endif
# libaio ships no .pc file on Debian 12: its header decides.
HAVE_AIO := $(shell printf '\#include <libaio.h>\n' | $(CC) -E - >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_AIO),1)
HAVE_FEATURES += LIBAIO
AIO_LIBS := -laio
else
MISSING += LIBAIO
MISSING_LIBAIO := ioengine=libaio: needs libaio.h and -laio from libaio-dev
endif

PKG_CFLAGS := $(if $(PKGS),$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null))
PKG_LIBS   := $(if $(PKGS),$(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null))
# config.h (HAVE_*, version, prefix) reaches every file, so no file can miss a feature.
ALL_CFLAGS  = $(CSTD) $(TIME64) $(WARN) -include $(O)/config.h -I$(O) -Isrc -I. $(PKG_CFLAGS) $(CPPFLAGS) \
              $(CFLAGS) -MMD -MP
# 64-bit atomics on 32-bit ARM (ARMv6 Pi Zero/1) are library calls: link libatomic where
# the compiler has one.
ATOMIC_LIB := $(shell echo 'int main(void){return 0;}' | $(CC) -x c - -latomic -o /dev/null \
                2>/dev/null && echo -latomic)
LIBS       := $(PKG_LIBS) $(AIO_LIBS) $(CMARK_LIBS) -lpthread -lm $(ATOMIC_LIB)

# One folder per meter family; a family whose library is missing is left out (its rows in
# meters/registry/registry.c sit under the same HAVE_*).
METER_DIRS := meters/um meters/ina2xx meters/board meters/manual meters/fnirsi meters/atorch \
              meters/ppk2 meters/scpi $(if $(filter NETTLE,$(HAVE_FEATURES)),meters/tc66) \
              $(if $(filter SIGROK,$(HAVE_FEATURES)),meters/sigrok)
# One folder per event source; src/sources/registry lists them.
SOURCE_DIRS := src/sources/rpi_volt src/sources/get_throttled src/sources/kmsg src/sources/gpio_uv \
               src/sources/temps
SRC_DIRS  := src/core src/io src/sources $(SOURCE_DIRS) src/sources/registry src/result \
             src/analysis src/energy src/plan src/run src/report src/cli \
             meters/core meters/transport meters/emu $(METER_DIRS) meters/registry
LIB_SRCS  := $(filter-out src/cli/main.c,$(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c)))
LIB_OBJS  := $(LIB_SRCS:%.c=$(O)/%.o) $(O)/gen/energy_md.o
TEST_SRCS := $(wildcard tests/unit/test_*.c)
TEST_BINS := $(TEST_SRCS:tests/unit/%.c=$(O)/tests/%)
# Tests that need umockdev's library link it; they are built only where it exists.
HAVE_UMOCKDEV := $(call PKG_OK,umockdev-1.0,0.17)
UMOCK_SRCS := $(wildcard tests/umock/umock_*.c)
ifeq ($(HAVE_UMOCKDEV),1)
UMOCK_BINS := $(UMOCK_SRCS:tests/umock/%.c=$(O)/tests/%)
endif
UMOCK_CFLAGS := $(if $(HAVE_UMOCKDEV),$(shell $(PKG_CONFIG) --cflags umockdev-1.0 2>/dev/null))
UMOCK_LIBS   := $(if $(HAVE_UMOCKDEV),$(shell $(PKG_CONFIG) --libs umockdev-1.0 2>/dev/null))

# The version comes from one place: git describe in a checkout, the VERSION file alone in
# a release tarball. config.h is rewritten only when its content changes.
VERSION_BASE := $(shell cat VERSION)
GIT_DESC     := $(shell git describe --always --dirty --abbrev=7 2>/dev/null)
IOWATT_VERSION := $(VERSION_BASE)$(if $(GIT_DESC),+g$(GIT_DESC))

$(O)/config.h: FORCE
	@if [ -n "$(strip $(MISSING_REQUIRED))" ]; then \
		echo "iowatt: missing $(strip $(MISSING_REQUIRED)) (pkg-config $(PKG_CONFIG)): run tests/deps.sh --runtime" >&2; \
		exit 1; fi
	@mkdir -p $(O)
	@{ printf '/* Generated by the Makefile. */\n#ifndef IOWATT_CONFIG_H\n#define IOWATT_CONFIG_H\n'; \
	  printf '#define IOWATT_VERSION "%s"\n#define IOWATT_PREFIX "%s"\n' '$(IOWATT_VERSION)' '$(PREFIX)'; \
	  for f in $(HAVE_FEATURES); do printf '#define HAVE_%s 1\n' "$$f"; done; \
	  printf '#endif\n'; } >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@
	@$(foreach f,$(MISSING),echo 'iowatt: building without $(MISSING_$(f))';)

$(O)/src/sources/gpio_gpiod1.o $(O)/src/io/engine_libaio.o: TIME64 :=

# Every object sees config.h; it changes only when the version or the features do.
$(LIB_OBJS) $(O)/src/cli/main.o: $(O)/config.h

.PHONY: FORCE
FORCE:

ifeq ($(O),build)
BIN := iowatt
else
BIN := $(O)/iowatt
endif

.PHONY: all test check demo deps check-deps lint format install uninstall man clean tests \
	tsan fuzz fuzz-bins structure
all: $(BIN)

$(BIN): $(O)/src/cli/main.o $(LIB_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(O)/libiowatt.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The report's methods are docs/energy.md itself: embedded as one C string, so the page
# cannot drift from the docs. Escaped for C: backslash, quote, and '?' (no trigraphs).
$(O)/gen/energy_md.c: docs/energy.md
	@mkdir -p $(dir $@)
	@{ printf '/* Generated from docs/energy.md by the Makefile. */\n#include "report/methods.h"\n'; \
	  printf 'const char report_energy_md[] =\n'; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  printf ';\n'; } >$@.tmp && mv -f $@.tmp $@

$(O)/gen/%.o: $(O)/gen/%.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/tests/test_%: tests/unit/test_%.c $(O)/libiowatt.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/lib -o $@ $< $(O)/libiowatt.a $(LDFLAGS) $(LIBS)

$(O)/tests/umock_%: tests/umock/umock_%.c $(O)/libiowatt.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(UMOCK_CFLAGS) -Itests/lib -o $@ $< $(O)/libiowatt.a $(LDFLAGS) $(LIBS) $(UMOCK_LIBS)

tests: $(BIN) $(TEST_BINS) $(UMOCK_BINS)

# Test sources were tests/test_*.c and tests/umock_*.c before tests/ was split by kind: a
# build directory from then has dependency files naming them. Without these empty rules
# make stops there ("No rule to make target"); with them it rebuilds those binaries, which
# rewrites their dependency files.
tests/test_%.c tests/umock_%.c: ;

# Fuzz targets: tests/fuzz/fuzz_NAME.c, seed corpora from tests/data (tests/fuzz/run.sh).
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(O)/fuzz/%)
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang

$(O)/fuzz/%: tests/fuzz/%.c $(O)/libiowatt.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/lib -fsanitize=fuzzer -o $@ $< $(O)/libiowatt.a $(LDFLAGS) $(LIBS)

fuzz-bins: $(FUZZ_BINS)

fuzz:
	$(MAKE) CC=$(FUZZ_CC) FUZZ=1 O=build-fuzz fuzz-bins
	tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

tsan:
	$(MAKE) TSAN=1 O=build-tsan tests
	O=build-tsan tests/run.sh

# Quick: unit tests only, on the current build flags.
test: tests
	O=$(O) tests/run.sh --unit

# Everything, with sanitizers, after installing what the tests need.
check:
	tests/deps.sh
	$(MAKE) SANITIZE=1 WERROR=1 O=build-san tests
	if command -v $(FUZZ_CC) >/dev/null; then $(MAKE) CC=$(FUZZ_CC) FUZZ=1 O=build-fuzz fuzz-bins; fi
	O=build-san FUZZ_O=build-fuzz tests/run.sh

# The shape of the product code for before/after tables: folders, lines, arrows and circles
# (includes, and links read from these objects), longest functions, duplicates.
structure: $(O)/src/cli/main.o $(LIB_OBJS)
	python3 scripts/structure.py --objects $(O)

demo:
	tests/deps.sh --runtime
	$(MAKE) all
	./scripts/demo.sh $(DEMO_ARGS)

lint:
	cppcheck --quiet --enable=warning,performance,portability --std=c11 \
		-D_GNU_SOURCE -Isrc -I. src meters

format:
	clang-format -i $(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.[ch])) meters/*.h \
		$(wildcard tests/unit/*.[ch] tests/umock/*.[ch] tests/lib/*.[ch])

# Debian's layout: make install PREFIX=/usr DESTDIR=... (the .deb does exactly this).
BINDIR      ?= $(PREFIX)/bin
DATADIR     ?= $(PREFIX)/share/iowatt
MANDIR      ?= $(PREFIX)/share/man/man1
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# udev reads /usr/lib/udev/rules.d (packages) and /etc/udev/rules.d (local installs).
UDEVDIR     ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/udev/rules.d,/etc/udev/rules.d)
UDEV_RULES  := $(wildcard dist/udev/*.rules)
# AppStream: which USB meters the udev rules are for.
METAINFO    := $(wildcard dist/metainfo/*.metainfo.xml)
INSTALLED   := $(BINDIR)/iowatt $(MANDIR)/iowatt.1 $(BASHCOMPDIR)/iowatt \
               $(addprefix $(DATADIR)/plots/,$(notdir $(wildcard plots/*.gp))) \
               $(addprefix $(DATADIR)/configs/,$(notdir $(wildcard configs/*.ini))) \
               $(addprefix $(UDEVDIR)/,$(notdir $(UDEV_RULES))) \
               $(addprefix $(PREFIX)/share/metainfo/,$(notdir $(METAINFO)))

# The man page comes from the binary's own tables (iowatt help --man). A cross build runs
# it through binfmt_misc/qemu when the host has it; MAN_RUNNER can name another way.
MAN_RUNNER ?=
$(O)/iowatt.1: $(BIN)
	$(MAN_RUNNER) $(abspath $(BIN)) help --man >$@.tmp && mv -f $@.tmp $@

man: $(O)/iowatt.1

install: $(BIN) $(O)/iowatt.1
	install -D -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/iowatt
	install -d $(DESTDIR)$(DATADIR)/plots $(DESTDIR)$(DATADIR)/configs
	install -m 0644 plots/*.gp $(DESTDIR)$(DATADIR)/plots/
	install -m 0644 configs/*.ini $(DESTDIR)$(DATADIR)/configs/
	install -D -m 0644 $(O)/iowatt.1 $(DESTDIR)$(MANDIR)/iowatt.1
	install -D -m 0644 dist/bash-completion/iowatt $(DESTDIR)$(BASHCOMPDIR)/iowatt
	install -d $(DESTDIR)$(UDEVDIR)
	install -m 0644 $(UDEV_RULES) $(DESTDIR)$(UDEVDIR)/
	install -d $(DESTDIR)$(PREFIX)/share/metainfo
	install -m 0644 $(METAINFO) $(DESTDIR)$(PREFIX)/share/metainfo/

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DATADIR)/plots $(DESTDIR)$(DATADIR)/configs $(DESTDIR)$(DATADIR) 2>/dev/null

clean:
	rm -rf build build-san build-tsan build-fuzz iowatt

-include $(shell find $(O) -name '*.d' 2>/dev/null)
