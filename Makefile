# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop: GNU make build. `make` builds ./tunetop; `make check` runs every test.
# Variants build out of tree: BUILD=build/asan SAN=asan, BUILD=build/tsan SAN=tsan.

PREFIX    ?= /usr/local
# systemd reads units from /usr/local/lib/systemd/system and /usr/lib/systemd/system alike.
SYSTEMD_UNITDIR ?= $(PREFIX)/lib/systemd/system
# The exporter's settings file is $(SYSCONFDIR)/default/tunetop-exporter whatever the PREFIX.
SYSCONFDIR ?= /etc
DESTDIR   ?=
INSTALL_PROGRAM ?= install -m 755
# The modules (shared objects, not programs: not executable).
INSTALL_MODULE ?= install -m 644
# Where the installed binary looks for its modules (core/module.c).
PKGLIBDIR ?= $(PREFIX)/lib/tunetop
BUILD     ?= build
SAN       ?=
CC        ?= cc
PKG_CONFIG ?= pkg-config

# Everything but the console links without curses (tests/layers/ checks it).
PKGS_CORE := jansson libnl-3.0 libnl-genl-3.0 numa libzstd zlib
PKGS      := ncursesw $(PKGS_CORE)
# libnl-route-3 (host mode's interface counters) is linked only into the module
# tunetop-link.so, which host mode dlopen()s (backends/host/link_module.h): the engine maps none of it.
LINK_PKGS := libnl-3.0 libnl-route-3.0
LINK_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(LINK_PKGS) 2>/dev/null)
LINK_LIBS := $(shell $(PKG_CONFIG) --libs $(LINK_PKGS) 2>/dev/null)
# The exporter's HTTP side (libmicrohttpd, its gnutls, libyaml for --web.config.file,
# libxcrypt's bcrypt) is linked only into the module tunetop-serve.so, which the binary
# dlopen()s for --serve (tui/metrics/serve_module.h): the console and -b map none of them.
SERVE_PKGS := libmicrohttpd gnutls yaml-0.1 libxcrypt
SERVE_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(SERVE_PKGS) 2>/dev/null)
SERVE_LIBS := $(shell $(PKG_CONFIG) --libs $(SERVE_PKGS) 2>/dev/null)
# Debian packages the build and the tests need; `make deps` installs the missing ones.
DEB_PKGS  := pkg-config libncurses-dev libjansson-dev libnl-3-dev libnl-genl-3-dev \
             libnl-route-3-dev libnuma-dev libcpupower-dev libcmocka-dev tmux python3 \
             libmicrohttpd-dev libcairo2-dev libfontconfig-dev libbpf-dev bpftool clang libzstd-dev zlib1g-dev \
             libyaml-dev libgnutls28-dev libcrypt-dev
DEB_TEST_PKGS := openssh-server openssh-client procps openvswitch-switch util-linux \
             prometheus python3-prometheus-client imagemagick iproute2 zstd clang-format \
             debhelper devscripts lintian dpkg-dev openssl

NPROC     := $(shell nproc 2>/dev/null || echo 2)
WARN      := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
OPT       ?= -O2 -g
CFLAGS    ?= $(OPT)
override CFLAGS += -std=c11 -D_GNU_SOURCE -pthread -I. $(WARN) -MMD -MP \
             $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
CORE_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS_CORE) 2>/dev/null) -lcpupower -lm -pthread
LDLIBS    += $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null) $(CORE_LIBS)
TEST_LDLIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)
# cairo draws the experiments' pictures (tui/exp/chart_cairo.c) and is linked only into the
# picture module tunetop-cairo.so, which the binary dlopen()s for a PNG or SVG: the console,
# the exporter and -b map no cairo, X11 or xcb (docs/design.md "Modules").
# fontconfig (a dependency of cairo's text) is named so its caches can be freed at the end.
CAIRO_CFLAGS := $(shell $(PKG_CONFIG) --cflags cairo fontconfig 2>/dev/null)
CAIRO_LIBS := $(shell $(PKG_CONFIG) --libs cairo fontconfig 2>/dev/null)

# The eBPF sleep probe (backends/host/bpf/; docs/pmd.md "Timer slack, run-queue delay and the eBPF
# sleep probe"): built when libbpf, bpftool, clang and the running kernel's BTF are all here;
# else HAVE_BPF=0 and the binary says why at run time. `make HAVE_BPF=0` builds without it on
# purpose.
BPFTOOL   ?= $(shell command -v bpftool 2>/dev/null || ls /usr/sbin/bpftool 2>/dev/null)
BPF_CLANG ?= clang
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
BPF_ARCH  := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
ifeq ($(HAVE_BPF),)
BPF_MISSING := $(strip \
  $(if $(shell $(PKG_CONFIG) --exists libbpf 2>/dev/null && echo y),,no libbpf (libbpf-dev)) \
  $(if $(BPFTOOL),,no bpftool) \
  $(if $(shell command -v $(BPF_CLANG) 2>/dev/null),,no $(BPF_CLANG)) \
  $(if $(wildcard $(VMLINUX_BTF)),,no $(VMLINUX_BTF) at build time))
HAVE_BPF  := $(if $(BPF_MISSING),0,1)
else ifeq ($(HAVE_BPF),0)
BPF_MISSING := make HAVE_BPF=0
endif
# libbpf (and libelf) are linked only into the module tunetop-bpf.so, which the binary
# dlopen()s when the probe is turned on (backends/host/bpf_module.h): a run with it off maps
# neither and loads no BTF.
ifeq ($(HAVE_BPF),1)
override CFLAGS += -DHAVE_BPF=1
BPF_CFLAGS := -I$(BUILD)/bpf $(shell $(PKG_CONFIG) --cflags libbpf 2>/dev/null)
BPF_LIBS := $(shell $(PKG_CONFIG) --libs libbpf 2>/dev/null)
BPF_MOD := $(BUILD)/tunetop-bpf.so
else
override CFLAGS += '-DTT_BPF_MISSING="$(BPF_MISSING)"'
endif

ifeq ($(WERROR),1)
override CFLAGS += -Werror
endif
ifeq ($(SAN),asan)
override CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
# libFuzzer builds (make fuzz): the library instrumented for coverage, the targets linked
# with the fuzzer's main.
ifeq ($(SAN),fuzzer)
override CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(SAN),tsan)
override CFLAGS += -fsanitize=thread -fno-omit-frame-pointer
LDFLAGS += -fsanitize=thread
endif

# Layers (docs/design.md): core <- engine <- backends <- tui; diag/ (the diagnosis rules,
# core only, in libtunetop.a) <- tui. Inside tui/, a folder per front end decides its library: tui/console/ (curses) is libtunetop-ui.a, tui/exp/ (the
# experiments and their cairo pictures) is libtunetop-exp.a, and everything else (tui/*.c
# less main.c, tui/metrics/) joins the curses-free libtunetop.a. Link order is the layer
# order, top first: main.o, ui, exp, lib. Nothing lower calls anything higher
# (tests/layers/check_calls.py checks it over the objects), so no --start-group.
UI_SRC    := $(wildcard tui/console/*.c)
# The picture module's source: tui/exp code (check_calls.py reads its object with the rest),
# built -fPIC into $(PIC_MOD), never into a library the binary links.
PIC_SRC   := tui/exp/chart_cairo.c
EXP_SRC   := $(filter-out $(PIC_SRC),$(wildcard tui/exp/*.c))
# The exporter module's source: tui/metrics code built -fPIC into $(SERVE_MOD), and into
# $(SERVE_LIB) for the tests that call its parts (test_serve_auth, fuzz_webcfg).
SERVE_MOD_SRC := tui/metrics/serve_mod.c tui/metrics/serve_guard.c tui/metrics/serve_auth.c \
             tui/metrics/serve_webcfg.c
SERVE_MOD_OBJ := $(SERVE_MOD_SRC:%.c=$(BUILD)/obj/%.o)
SERVE_MOD := $(BUILD)/tunetop-serve.so
SERVE_LIB := $(BUILD)/libtunetop-serve.a
# The eBPF module's source: backends code built -fPIC into $(BPF_MOD) alone.
BPF_MOD_SRC := backends/host/host_bpf_mod.c
BPF_MOD_OBJ := $(BPF_MOD_SRC:%.c=$(BUILD)/obj/%.o)
# The link module's source: backends code built -fPIC into $(LINK_MOD) alone.
LINK_MOD_SRC := backends/host/host_link_mod.c
LINK_MOD_OBJ := $(LINK_MOD_SRC:%.c=$(BUILD)/obj/%.o)
LINK_MOD := $(BUILD)/tunetop-link.so
LIB_SRC   := $(filter-out $(BPF_MOD_SRC) $(SERVE_MOD_SRC) $(LINK_MOD_SRC),$(wildcard core/*.c engine/*.c engine/*/*.c \
               backends/*.c backends/*/*.c backends/host/ovs/*.c diag/*.c tui/metrics/*.c)) \
             $(filter-out tui/main.c,$(wildcard tui/*.c))
EXP_OBJ   := $(EXP_SRC:%.c=$(BUILD)/obj/%.o)
EXP_LIB   := $(BUILD)/libtunetop-exp.a
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
UI_OBJ    := $(UI_SRC:%.c=$(BUILD)/obj/%.o)
MAIN_OBJ  := $(BUILD)/obj/tui/main.o
LIB       := $(BUILD)/libtunetop.a
UI_LIB    := $(BUILD)/libtunetop-ui.a
BIN       := $(BUILD)/tunetop
PIC_OBJ   := $(PIC_SRC:%.c=$(BUILD)/obj/%.o)
PIC_MOD   := $(BUILD)/tunetop-cairo.so
# Every object the binary does not use is dropped from its NEEDED list.
AS_NEEDED := -Wl,--as-needed
# dlopen(): in libc since glibc 2.34, -ldl before (dropped by --as-needed when not needed).
DL_LIBS   := -ldl
# The module may leave no symbol undefined (it calls nothing in tunetop; pic_module.h),
# checked at its link; the sanitizers' runtimes are the executable's, so not under them.
PIC_DEFS  := $(if $(SAN),,-Wl,-z,defs)

TEST_SRC  := $(wildcard tests/unit/test_*.c tests/scenario/test_*.c tests/fuzz/fuzz_*.c \
                       tests/tui/fake_*.c)
TEST_BIN  := $(TEST_SRC:%.c=$(BUILD)/%)
# Linked without curses: the link itself is the check.
NOCURSES_BIN := $(BUILD)/tests/layers/nocurses
BENCH_SRC := $(wildcard bench/bench_*.c)
BENCH_BIN := $(BENCH_SRC:%.c=$(BUILD)/%)

.PHONY: all deps test-deps run check check-only check-system asan tsan bench install install-strip uninstall clean format tests readme \
	soak diag-soak fuzz lf-targets golden format-check

all: tunetop

tunetop: $(BIN) $(PIC_MOD) $(SERVE_MOD) $(BPF_MOD) $(LINK_MOD)
ifeq ($(BUILD),build)
	@cp $(BIN) tunetop
	@cp $(PIC_MOD) tunetop-cairo.so
	@cp $(SERVE_MOD) tunetop-serve.so
	@cp $(LINK_MOD) tunetop-link.so
	@$(if $(BPF_MOD),cp $(BPF_MOD) tunetop-bpf.so,rm -f tunetop-bpf.so)
endif

# The experiments (with their pictures) sit above the main library and call down into it.
LIB_GROUP := $(EXP_LIB) $(LIB)

$(BIN): $(MAIN_OBJ) $(UI_LIB) $(EXP_LIB) $(LIB)
	$(CC) $(LDFLAGS) $(AS_NEEDED) -o $@ $(MAIN_OBJ) $(UI_LIB) $(LIB_GROUP) $(LDLIBS) $(DL_LIBS)

$(PIC_MOD): $(PIC_OBJ)
	$(CC) $(LDFLAGS) -shared $(PIC_DEFS) $(AS_NEEDED) -o $@ $(PIC_OBJ) $(CAIRO_LIBS) -lm

$(SERVE_MOD): $(SERVE_MOD_OBJ)
	$(CC) $(LDFLAGS) -shared $(PIC_DEFS) $(AS_NEEDED) -o $@ $(SERVE_MOD_OBJ) $(SERVE_LIBS) \
		-pthread

$(SERVE_LIB): $(SERVE_MOD_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BPF_MOD): $(BPF_MOD_OBJ)
	$(CC) $(LDFLAGS) -shared $(PIC_DEFS) $(AS_NEEDED) -o $@ $(BPF_MOD_OBJ) $(BPF_LIBS)

$(LINK_MOD): $(LINK_MOD_OBJ)
	$(CC) $(LDFLAGS) -shared $(PIC_DEFS) $(AS_NEEDED) -o $@ $(LINK_MOD_OBJ) $(LINK_LIBS)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(UI_LIB): $(UI_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(EXP_LIB): $(EXP_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(PIC_OBJ): override CFLAGS += -fPIC $(CAIRO_CFLAGS)
$(BUILD)/obj/core/module.o: override CFLAGS += '-DTT_PKGLIBDIR="$(PKGLIBDIR)"'
$(SERVE_MOD_OBJ): override CFLAGS += -fPIC $(SERVE_CFLAGS)
$(BPF_MOD_OBJ): override CFLAGS += -fPIC $(BPF_CFLAGS)
$(LINK_MOD_OBJ): override CFLAGS += -fPIC $(LINK_CFLAGS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The tests of the exporter module's parts link them from $(SERVE_LIB).
SERVE_TESTS := $(BUILD)/tests/unit/test_serve_auth $(BUILD)/tests/fuzz/fuzz_webcfg
$(SERVE_TESTS): TEST_MODLIBS = $(SERVE_LIB) $(SERVE_LIBS)
$(SERVE_TESTS): $(SERVE_LIB)
$(SERVE_TESTS): override CFLAGS += $(SERVE_CFLAGS)

# It counts the diagnosis rules' evaluations (tests/unit/test_diag_once.c).
$(BUILD)/tests/unit/test_diag_once: TEST_LDLIBS += -Wl,--wrap=diag_eval

$(BUILD)/tests/%: tests/%.c $(UI_LIB) $(EXP_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(TEST_MODLIBS) $(UI_LIB) $(LIB_GROUP) $(LDFLAGS) \
		$(LDLIBS) $(TEST_LDLIBS) $(AS_NEEDED) $(DL_LIBS)

$(NOCURSES_BIN): tests/layers/nocurses.c $(EXP_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB_GROUP) $(LDFLAGS) $(CORE_LIBS) $(DL_LIBS)

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

tests: $(BIN) $(PIC_MOD) $(SERVE_MOD) $(BPF_MOD) $(LINK_MOD) $(TEST_BIN) $(NOCURSES_BIN)

# The probe: vmlinux.h from the running kernel's BTF, the BPF object, its skeleton.
ifeq ($(HAVE_BPF),1)
$(BUILD)/bpf/vmlinux.h:
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c >$@.tmp && mv $@.tmp $@

$(BUILD)/bpf/sleep_probe.bpf.o: backends/host/bpf/sleep_probe.bpf.c backends/host/bpf/sleep_probe.h \
		core/hist_log2.h $(BUILD)/bpf/vmlinux.h
	$(BPF_CLANG) -target bpf -g -O2 -D__TARGET_ARCH_$(BPF_ARCH) -I$(BUILD)/bpf -I. \
		-Wall -Werror -c $< -o $@

$(BUILD)/bpf/sleep_probe.skel.h: $(BUILD)/bpf/sleep_probe.bpf.o
	$(BPFTOOL) gen skeleton $< name sleep_probe >$@.tmp && mv $@.tmp $@

$(BPF_MOD_OBJ): $(BUILD)/bpf/sleep_probe.skel.h
endif

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

# The suite runs TEST_JOBS tests at once (tests/run.sh -j): it mostly waits on conditions, so
# twice the cores; a test tagged tt-serial runs alone after the rest (tests/README.md).
TEST_JOBS ?= $(shell echo $$(( $(NPROC) * 2 )))
check: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) tests
	@$(MAKE) --no-print-directory check-only

check-only: tests
	@tests/run.sh -j $(TEST_JOBS) $(TEST_FLAGS) $(BUILD) $(TESTS)

# What installs packages system-wide (the .deb built, installed and purged: tests tagged
# tt-system): not in `make check`, which leaves the machine as it found it. Needs root.
check-system: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) tests
	@tests/run.sh --system $(BUILD) $(TESTS)

# The sanitizers run the test programs (units, scenario programs, the fuzz loops over their
# corpora) and the scripts tagged tt-sanitize, those that run more than one of tunetop's own
# threads (tests/README.md); the screen-layout and source-text checks run once, in `make
# check`. The ASan tree is built with clang (so CI's clang -Werror build is this one), the
# TSan tree with $(CC).
ASAN_CC ?= clang
asan: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) CC=$(ASAN_CC) BUILD=build/asan SAN=asan tests
	@$(MAKE) --no-print-directory CC=$(ASAN_CC) BUILD=build/asan SAN=asan TEST_FLAGS=--sanitized \
		check-only

tsan: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) BUILD=build/tsan SAN=tsan tests
	@# TSan needs a fixed memory layout; high ASLR entropy makes it abort at random.
	@setarch $$(uname -m) -R $(MAKE) --no-print-directory BUILD=build/tsan SAN=tsan \
		TEST_FLAGS=--sanitized check-only

# The long soak (tools/soak.py): SOAK_SECONDS of the default and pmd-seed scenarios. The
# ASan console takes a knob change every 100 ms through ':' in tmux and its own recording is
# checked snapshot by snapshot; the release build as an agent takes one every 100 ms through
# `set`, its snapshots checked, each reply read back, its RSS kept flat. CI: SOAK_SECONDS=60.
SOAK_SECONDS ?= 600
soak: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) tunetop
	@$(MAKE) --no-print-directory -j$(NPROC) CC=$(ASAN_CC) BUILD=build/asan SAN=asan build/asan/tunetop
	python3 tools/soak.py --asan build/asan/tunetop --release build/tunetop --seconds $(SOAK_SECONDS)

# The diagnosis soak (docs/diag.md, "No false alarms"): DIAG_SOAK_SECONDS of the default
# scenario, then a fifth of it of pmd-idle, with an everyday knob change every 1/30 of it
# (tests/scenario/test_diag_soak.py), and OVS_QUIET_SECONDS of a quiet real ovs-vswitchd
# with the operator's own max sleep changes (tests/host/test_host_ovs_quiet.sh): no finding
# but the host's, and that one checked against the figures. `make check` runs both for 60
# and 30 s; this target, for a release, runs them for the defaults (not in CI).
DIAG_SOAK_SECONDS ?= 600
OVS_QUIET_SECONDS ?= 120
diag-soak: test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) tunetop
	@TT_DIAG_SOAK_SECONDS=$(DIAG_SOAK_SECONDS) TT_OVS_QUIET_SECONDS=$(OVS_QUIET_SECONDS) \
		tests/run.sh $(BUILD) "test_diag_soak"
	@TT_OVS_QUIET_SECONDS=$(OVS_QUIET_SECONDS) tests/run.sh $(BUILD) "test_host_ovs_quiet"

# Fuzz the parsers: with a clang that has libFuzzer, each target of LF_TARGETS (the OVS
# replies and reports, /proc and sysfs text, scenario and knob text, recordings and the
# agent's stream, themes) runs for FUZZ_SECONDS from tests/fuzz/corpus/NAME (tools/fuzz.sh; crashes land in build/fuzz/crash).
# Without one, the seeded loops and the corpus replays of the gcc build run instead.
FUZZ_SECONDS ?= 30
FUZZ_CC      ?= clang
LF_TARGETS   := fuzz_lf_ovs fuzz_lf_proc fuzz_lf_text fuzz_lf_rec fuzz_lf_safefile fuzz_lf_recread fuzz_theme \
                fuzz_lf_agent fuzz_lf_remote
LF_BIN       := $(LF_TARGETS:%=$(BUILD)/lf/%)
$(BUILD)/lf/%: tests/fuzz/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DTT_LIBFUZZER -fsanitize=fuzzer -Itests -o $@ $< $(LIB) $(LDFLAGS) $(CORE_LIBS)
lf-targets: $(LF_BIN)

fuzz: deps
	@if printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' | \
	    $(FUZZ_CC) -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory -j$(NPROC) BUILD=build/fuzz CC=$(FUZZ_CC) SAN=fuzzer lf-targets && \
	  tools/fuzz.sh build/fuzz $(FUZZ_SECONDS) $(LF_TARGETS); \
	else \
	  echo "make fuzz: $(FUZZ_CC) has no -fsanitize=fuzzer; running the seeded loops instead"; \
	  $(MAKE) --no-print-directory -j$(NPROC) tests && tests/run.sh $(BUILD) tests/fuzz/; \
	fi

bench: deps
	@$(MAKE) --no-print-directory $(BIN) $(SERVE_MOD) $(BPF_MOD) $(LINK_MOD) $(BENCH_BIN)
	@bench/run.sh $(BUILD) $(BENCH)

# GNU-style: DESTDIR and PREFIX; the man page stays uncompressed (a package compresses it).
install: tunetop
	$(INSTALL_PROGRAM) -D $(BIN) $(DESTDIR)$(PREFIX)/bin/tunetop
	$(INSTALL_MODULE) -D $(PIC_MOD) $(DESTDIR)$(PKGLIBDIR)/tunetop-cairo.so
	$(INSTALL_MODULE) -D $(SERVE_MOD) $(DESTDIR)$(PKGLIBDIR)/tunetop-serve.so
	$(INSTALL_MODULE) -D $(LINK_MOD) $(DESTDIR)$(PKGLIBDIR)/tunetop-link.so
	$(if $(BPF_MOD),$(INSTALL_MODULE) -D $(BPF_MOD) $(DESTDIR)$(PKGLIBDIR)/tunetop-bpf.so)
	install -d $(DESTDIR)$(PREFIX)/share/tunetop/themes
	install -m 644 themes/*.theme $(DESTDIR)$(PREFIX)/share/tunetop/themes/
	install -D -m 644 tunetop.1 $(DESTDIR)$(PREFIX)/share/man/man1/tunetop.1
	install -D -m 644 completion/tunetop.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tunetop
	@# The exporter's unit (installed, neither enabled nor started).
	install -d $(DESTDIR)$(SYSTEMD_UNITDIR)
	sed -e 's|@BINDIR@|$(PREFIX)/bin|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	  systemd/tunetop-exporter.service.in > $(DESTDIR)$(SYSTEMD_UNITDIR)/tunetop-exporter.service
	chmod 644 $(DESTDIR)$(SYSTEMD_UNITDIR)/tunetop-exporter.service
	@# Its settings are the operator's: an existing file is left as it is.
	if [ -e $(DESTDIR)$(SYSCONFDIR)/default/tunetop-exporter ]; then \
	  echo "make install: keeping $(DESTDIR)$(SYSCONFDIR)/default/tunetop-exporter"; \
	else install -D -m 644 systemd/tunetop-exporter.default \
	  $(DESTDIR)$(SYSCONFDIR)/default/tunetop-exporter; fi
	@# The recorder's unit and settings, the same way.
	sed -e 's|@BINDIR@|$(PREFIX)/bin|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	  systemd/tunetop-record.service.in > $(DESTDIR)$(SYSTEMD_UNITDIR)/tunetop-record.service
	chmod 644 $(DESTDIR)$(SYSTEMD_UNITDIR)/tunetop-record.service
	if [ -e $(DESTDIR)$(SYSCONFDIR)/default/tunetop-record ]; then \
	  echo "make install: keeping $(DESTDIR)$(SYSCONFDIR)/default/tunetop-record"; \
	else install -D -m 644 systemd/tunetop-record.default \
	  $(DESTDIR)$(SYSCONFDIR)/default/tunetop-record; fi

# The same with the binary stripped (GNU's install-strip).
install-strip:
	$(MAKE) --no-print-directory INSTALL_PROGRAM='$(INSTALL_PROGRAM) -s' \
	  INSTALL_MODULE='$(INSTALL_MODULE) -s' install

# The settings file goes only when it is still the one shipped.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/tunetop $(DESTDIR)$(PREFIX)/share/man/man1/tunetop.1
	rm -rf $(DESTDIR)$(PREFIX)/share/tunetop
	rm -f $(DESTDIR)$(PKGLIBDIR)/tunetop-cairo.so $(DESTDIR)$(PKGLIBDIR)/tunetop-serve.so \
	  $(DESTDIR)$(PKGLIBDIR)/tunetop-bpf.so $(DESTDIR)$(PKGLIBDIR)/tunetop-link.so
	rmdir $(DESTDIR)$(PKGLIBDIR) 2>/dev/null || true
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tunetop
	rm -f $(DESTDIR)$(SYSTEMD_UNITDIR)/tunetop-exporter.service
	if cmp -s systemd/tunetop-exporter.default $(DESTDIR)$(SYSCONFDIR)/default/tunetop-exporter; \
	then rm -f $(DESTDIR)$(SYSCONFDIR)/default/tunetop-exporter; fi
	rm -f $(DESTDIR)$(SYSTEMD_UNITDIR)/tunetop-record.service
	if cmp -s systemd/tunetop-record.default $(DESTDIR)$(SYSCONFDIR)/default/tunetop-record; \
	then rm -f $(DESTDIR)$(SYSCONFDIR)/default/tunetop-record; fi

# Rewrite tests/tui/golden/ after an intended change of the console's layout: the pattern runs
# every tests/tui/test_golden*.sh (80x24, 60x16, ASCII, host recording, fleet).
golden: tunetop
	@TT_GOLDEN_UPDATE=1 tests/run.sh $(BUILD) test_golden

# Regenerate the generated blocks of README.md, docs/, tunetop.1 and completion/tunetop.bash.
readme: tunetop
	tools/readme_gen.py ./tunetop

# Every C file git tracks, less the generated and the BPF program (clang's own dialect).
FORMAT_SRC = $(shell git ls-files '*.c' '*.h' 2>/dev/null | grep -v '^tests/fuzz/corpus/')
format:
	clang-format -i $(FORMAT_SRC)

# CI's gate: fails, naming each file and line, where clang-format would change anything.
format-check:
	@clang-format --dry-run -Werror $(FORMAT_SRC) && echo "format-check: $(words $(FORMAT_SRC)) files formatted"

clean:
	rm -rf build tunetop tunetop-cairo.so tunetop-serve.so tunetop-bpf.so tunetop-link.so

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
