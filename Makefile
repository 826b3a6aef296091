# iowatt: one GNU Makefile; `make` builds ./iowatt, `make check` runs every test.
CC      ?= cc
O       ?= build
PREFIX  ?= /usr/local
PKGS    := inih jansson blkid
CSTD    := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64
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

# Optional libraries: a missing one drops its drivers, not the build.
HAVE_SERIALPORT := $(shell pkg-config --exists libserialport && echo 1)
HAVE_GPIOD      := $(shell pkg-config --exists libgpiod && echo 1)
HAVE_AIO        := $(shell printf '\#include <libaio.h>\n' | $(CC) -E - >/dev/null 2>&1 && echo 1)
DEFS :=
ifeq ($(HAVE_SERIALPORT),1)
PKGS += libserialport
DEFS += -DHAVE_SERIALPORT=1
endif
ifeq ($(HAVE_GPIOD),1)
PKGS += libgpiod
DEFS += -DHAVE_GPIOD=1
endif
ifeq ($(HAVE_AIO),1)
DEFS += -DHAVE_LIBAIO=1
AIO_LIBS := -laio
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS := $(CSTD) $(WARN) $(DEFS) -Isrc -I. $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
# -latomic: 64-bit atomics on 32-bit ARM (ARMv6 Pi Zero/1) are library calls.
LIBS       := $(PKG_LIBS) $(AIO_LIBS) -lpthread -lm -latomic

SRC_DIRS  := src/core src/bench src/sources src/result src/run src/report src/cli \
             meters/core meters/transport meters/emu meters/um meters/ina2xx meters/board \
             meters/manual
LIB_SRCS  := $(filter-out src/cli/main.c,$(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c)))
LIB_OBJS  := $(LIB_SRCS:%.c=$(O)/%.o)
TEST_SRCS := $(wildcard tests/test_*.c)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(O)/tests/%)
# Tests that need umockdev's library link it; they are built only where it exists.
HAVE_UMOCKDEV := $(shell pkg-config --exists umockdev-1.0 && echo 1)
UMOCK_SRCS := $(wildcard tests/umock_*.c)
ifeq ($(HAVE_UMOCKDEV),1)
UMOCK_BINS := $(UMOCK_SRCS:tests/%.c=$(O)/tests/%)
endif
UMOCK_CFLAGS := $(shell pkg-config --cflags umockdev-1.0 2>/dev/null)
UMOCK_LIBS   := $(shell pkg-config --libs umockdev-1.0 2>/dev/null)

ifeq ($(O),build)
BIN := iowatt
else
BIN := $(O)/iowatt
endif

.PHONY: all test check demo deps check-deps lint format install clean tests
all: $(BIN)

$(BIN): $(O)/src/cli/main.o $(LIB_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(O)/libiowatt.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/tests/%: tests/%.c $(O)/libiowatt.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -o $@ $< $(O)/libiowatt.a $(LDFLAGS) $(LIBS)

$(O)/tests/umock_%: tests/umock_%.c $(O)/libiowatt.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(UMOCK_CFLAGS) -Itests -o $@ $< $(O)/libiowatt.a $(LDFLAGS) $(LIBS) $(UMOCK_LIBS)

tests: $(BIN) $(TEST_BINS) $(UMOCK_BINS)

# Quick: unit tests only, on the current build flags.
test: tests
	O=$(O) tests/run.sh --unit

# Everything, with sanitizers, after installing what the tests need.
check:
	tests/deps.sh
	$(MAKE) SANITIZE=1 WERROR=1 O=build-san tests
	O=build-san tests/run.sh

demo:
	tests/deps.sh --runtime
	$(MAKE) all
	./scripts/demo.sh $(DEMO_ARGS)

lint:
	cppcheck --quiet --enable=warning,performance,portability --std=c11 \
		-D_GNU_SOURCE -Isrc -I. src meters

format:
	clang-format -i $(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.[ch])) meters/*.h tests/*.[ch]

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/iowatt
	install -d $(DESTDIR)$(PREFIX)/share/iowatt/plots $(DESTDIR)$(PREFIX)/share/iowatt/configs
	install -m 0644 plots/*.gp $(DESTDIR)$(PREFIX)/share/iowatt/plots/
	install -m 0644 configs/*.ini $(DESTDIR)$(PREFIX)/share/iowatt/configs/

clean:
	rm -rf build build-san iowatt

-include $(shell find $(O) -name '*.d' 2>/dev/null)
