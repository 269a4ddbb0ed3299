# tunetop: GNU make build. `make` builds ./tunetop; `make check` runs every test.
# Variants build out of tree: BUILD=build/asan SAN=asan, BUILD=build/tsan SAN=tsan.

PREFIX    ?= /usr/local
DESTDIR   ?=
BUILD     ?= build
SAN       ?=
CC        ?= cc
PKG_CONFIG ?= pkg-config

# Everything but the console links without curses (tests/layers/ checks it).
PKGS_CORE := jansson libnl-3.0 libnl-genl-3.0 libnl-route-3.0 numa
PKGS      := ncursesw $(PKGS_CORE)
# Debian packages the build and the tests need; `make deps` installs the missing ones.
DEB_PKGS  := pkg-config libncurses-dev libjansson-dev libnl-3-dev libnl-genl-3-dev \
             libnl-route-3-dev libnuma-dev libcpupower-dev libcmocka-dev tmux python3 \
             libcairo2-dev libfontconfig-dev
DEB_TEST_PKGS := openssh-server openssh-client procps openvswitch-switch util-linux imagemagick

NPROC     := $(shell nproc 2>/dev/null || echo 2)
WARN      := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
OPT       ?= -O2 -g
CFLAGS    ?= $(OPT)
override CFLAGS += -std=c11 -D_GNU_SOURCE -pthread -I. $(WARN) -MMD -MP \
             $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
CORE_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS_CORE) 2>/dev/null) -lcpupower -lm -pthread
LDLIBS    += $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null) $(CORE_LIBS)
TEST_LDLIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)
# cairo draws the experiments' pictures (tui/chart_cairo*.c) and is linked only into what
# runs experiments; a test links it only when it uses it (--as-needed).
# fontconfig (a dependency of cairo's text) is named so its caches can be freed at the end.
CAIRO_CFLAGS := $(shell $(PKG_CONFIG) --cflags cairo fontconfig 2>/dev/null)
CAIRO_LIBS := $(shell $(PKG_CONFIG) --libs cairo fontconfig 2>/dev/null)

ifeq ($(WERROR),1)
override CFLAGS += -Werror
endif
ifeq ($(SAN),asan)
override CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(SAN),tsan)
override CFLAGS += -fsanitize=thread -fno-omit-frame-pointer
LDFLAGS += -fsanitize=thread
endif

# Layers (docs/design.md): core <- engine <- backends <- tui. The console's curses
# code is a library of its own, so the batch writer, the JSON encoder and the
# experiments link without it.
UI_SRC    := tui/screen.c $(wildcard tui/ui_*.c)
CAIRO_SRC := $(wildcard tui/chart_cairo*.c)
LIB_SRC   := $(wildcard core/*.c engine/*.c engine/*/*.c backends/*.c) \
             $(filter-out tui/main.c $(UI_SRC) $(CAIRO_SRC),$(wildcard tui/*.c))
CAIRO_OBJ := $(CAIRO_SRC:%.c=$(BUILD)/obj/%.o)
CAIRO_LIB := $(BUILD)/libtunetop-cairo.a
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
UI_OBJ    := $(UI_SRC:%.c=$(BUILD)/obj/%.o)
MAIN_OBJ  := $(BUILD)/obj/tui/main.o
LIB       := $(BUILD)/libtunetop.a
UI_LIB    := $(BUILD)/libtunetop-ui.a
BIN       := $(BUILD)/tunetop

TEST_SRC  := $(wildcard tests/unit/test_*.c tests/scenario/test_*.c tests/fuzz/fuzz_*.c \
                       tests/tui/fake_*.c)
TEST_BIN  := $(TEST_SRC:%.c=$(BUILD)/%)
# Linked without curses: the link itself is the check.
NOCURSES_BIN := $(BUILD)/tests/layers/nocurses
BENCH_SRC := $(wildcard bench/bench_*.c)
BENCH_BIN := $(BENCH_SRC:%.c=$(BUILD)/%)

.PHONY: all deps test-deps run check check-only asan tsan bench install uninstall clean format tests readme

all: tunetop

tunetop: $(BIN)
ifeq ($(BUILD),build)
	@cp $(BIN) tunetop
endif

# The pictures (cairo lib) use the chart scales in the main lib and the experiments in the
# main lib call the pictures: one group, searched until nothing more resolves.
LIB_GROUP := -Wl,--start-group $(LIB) $(CAIRO_LIB) -Wl,--end-group

$(BIN): $(MAIN_OBJ) $(UI_LIB) $(LIB) $(CAIRO_LIB)
	$(CC) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(UI_LIB) $(LIB_GROUP) $(LDLIBS) $(CAIRO_LIBS)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(UI_LIB): $(UI_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(CAIRO_LIB): $(CAIRO_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(CAIRO_OBJ): override CFLAGS += $(CAIRO_CFLAGS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(UI_LIB) $(LIB) $(CAIRO_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(UI_LIB) $(LIB_GROUP) $(LDFLAGS) $(LDLIBS) \
		$(TEST_LDLIBS) -Wl,--as-needed $(CAIRO_LIBS)

$(NOCURSES_BIN): tests/layers/nocurses.c $(LIB) $(CAIRO_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB_GROUP) $(LDFLAGS) $(CORE_LIBS) $(CAIRO_LIBS)

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

tests: $(BIN) $(TEST_BIN) $(NOCURSES_BIN)

# Install whatever Debian packages are missing; silent when all are present.
deps:
	@missing=""; for p in $(DEB_PKGS) $(EXTRA_DEB); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

test-deps:
	@$(MAKE) --no-print-directory deps EXTRA_DEB="$(DEB_TEST_PKGS)"

run: deps
	@$(MAKE) --no-print-directory -j$(NPROC) tunetop
	./tunetop

check: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) tests
	@$(MAKE) --no-print-directory check-only

check-only: tests
	@tests/run.sh $(BUILD) $(TESTS)

asan: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) BUILD=build/asan SAN=asan tests
	@$(MAKE) --no-print-directory BUILD=build/asan SAN=asan check-only

tsan: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) BUILD=build/tsan SAN=tsan tests
	@# TSan needs a fixed memory layout; high ASLR entropy makes it abort at random.
	@setarch $$(uname -m) -R $(MAKE) --no-print-directory BUILD=build/tsan SAN=tsan check-only

bench: deps
	@$(MAKE) --no-print-directory $(BIN) $(BENCH_BIN)
	@bench/run.sh $(BUILD) $(BENCH)

install: tunetop
	install -D -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/tunetop
	install -d $(DESTDIR)$(PREFIX)/share/tunetop/themes
	install -m 644 themes/*.theme $(DESTDIR)$(PREFIX)/share/tunetop/themes/
	install -D -m 644 tunetop.1 $(DESTDIR)$(PREFIX)/share/man/man1/tunetop.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/tunetop $(DESTDIR)$(PREFIX)/share/man/man1/tunetop.1
	rm -rf $(DESTDIR)$(PREFIX)/share/tunetop

readme: tunetop
	tools/readme_gen.py ./tunetop

format:
	clang-format -i $(wildcard core/*.[ch] engine/*.[ch] engine/*/*.[ch] backends/*.[ch] tui/*.[ch] tests/*/*.[ch] bench/*.[ch])

clean:
	rm -rf build tunetop

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
