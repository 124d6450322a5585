# SPDX-License-Identifier: GPL-2.0
# feecscope: `make` builds build/feecscope, `make test` runs every test,
# `make bench` prints the benchmarks. `make V=1` shows the commands.

OUTPUT     ?= build
HOST_ARCH  := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
ARCH       ?= $(HOST_ARCH)
ifeq ($(filter $(ARCH),x86 arm64),)
$(error ARCH=$(ARCH) is not supported: use x86 or arm64)
endif

CLANG      ?= clang
BPFTOOL    ?= bpftool
LLVM_STRIP ?= llvm-strip
ifeq ($(ARCH),$(HOST_ARCH))
CC         ?= cc
else
CROSS_COMPILE ?= aarch64-linux-gnu-
CC         := $(CROSS_COMPILE)gcc
OUTPUT     := build/$(ARCH)
endif

WARN       := -Wall -Wextra -Werror
CFLAGS     ?= -O2 -g
CFLAGS     += -std=c11 -D_GNU_SOURCE $(WARN) -Iuser -I$(OUTPUT)
SAN_FLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDLIBS_LIVE := -lbpf -lelf -lz
# gzip outputs: ISA-L's igzip, or libdeflate where Debian has no static libisal (user/output/gzip_stream.c)
# recordings: zstd (user/records/rec_chunk.c), also what the static libelf needs
ifneq ($(ARCH),$(HOST_ARCH))
LDFLAGS    += -static
LDLIBS_LIVE += -lzstd
CFLAGS     += -DFS_GZIP_LIBDEFLATE
LDLIBS_CORE := -ldeflate -lzstd -lz -lm
else
LDLIBS_CORE := -lisal -lzstd -lz -lm
endif

# trace.dat (user/source/trace_dat.c, docs/traces.md) through libtracecmd, where
# pkg-config finds it on a native build; FS_HAVE_TRACECMD=0 leaves it out. Debian
# ships no libtracecmd.a, so the static arm64 build goes without: reading a
# trace.dat there says "trace.dat not supported in this build".
ifeq ($(ARCH),$(HOST_ARCH))
FS_HAVE_TRACECMD ?= $(shell pkg-config --exists libtracecmd libtraceevent libtracefs 2>/dev/null && echo 1 || echo 0)
else
FS_HAVE_TRACECMD := 0
endif
ifeq ($(FS_HAVE_TRACECMD),1)
TRACECMD_CFLAGS := -DFS_HAVE_TRACECMD=1 $(shell pkg-config --cflags libtracecmd libtraceevent)
LDLIBS_CORE += $(shell pkg-config --libs libtracecmd libtraceevent libtracefs)
endif

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# The core: engine, EM readers, replay source and outputs. No libbpf here.
CORE_SRCS  := $(filter-out user/main.c user/cmd_live.c user/live%.c user/source/live%.c user/output/live%.c,$(wildcard user/*.c user/*/*.c))
LIVE_SRCS  := $(wildcard user/cmd_live.c user/live*.c user/source/live*.c user/output/live*.c)
BPF_SRCS   := $(wildcard bpf/*.bpf.c)
TEST_SRCS  := $(wildcard tests/unit/*.c)
BENCH_SRCS := $(wildcard tests/bench/*.c)

CORE_OBJS  := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(CORE_SRCS))
# live's libbpf-free parts the unit tests also take
UNIT_LIVE  := user/source/live_env.c
SAN_OBJS   := $(patsubst %.c,$(OUTPUT)/san/%.o,$(CORE_SRCS) $(TEST_SRCS) $(UNIT_LIVE))
TEST_OBJS  := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(TEST_SRCS) $(UNIT_LIVE))
LIVE_OBJS  := $(patsubst %.c,$(OUTPUT)/obj/%.o,$(LIVE_SRCS))
HDRS       := $(wildcard user/*.h user/*/*.h tests/unit/*.h tests/ab/*.h)

ifneq ($(BPF_SRCS),)
HAVE_LIVE  := 1
SKEL       := $(OUTPUT)/feecscope.skel.h
CFLAGS     += -DFS_HAVE_LIVE=1
else
SKEL       :=
LIVE_OBJS  :=
LDLIBS_LIVE := -lz
endif

VMLINUX    := vmlinux/$(ARCH)/vmlinux.h
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Ivmlinux/$(ARCH) -Iuser -Ibpf -Wall -Werror

.DELETE_ON_ERROR:
.PHONY: all test unit bench clean vmlinux deps check live lab-matrix validate validation-table docs fuzz fuzz-build

all: $(OUTPUT)/feecscope

$(OUTPUT)/libfeecscope.a: $(CORE_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(OUTPUT)/obj/%.o: %.c $(HDRS) | $(SKEL)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -c $< -o $@

# The file that embeds the BPF object rebuilds when the object changes (the
# order-only rule above only makes sure the skeleton exists first).
$(patsubst %.c,$(OUTPUT)/obj/%.o,$(shell grep -l 'feecscope.skel.h' $(LIVE_SRCS) 2>/dev/null)): $(SKEL)

$(OUTPUT)/san/%.o: %.c $(HDRS)
	$(call msg,CC-SAN,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) $(filter-out -O2,$(CFLAGS)) $(SAN_FLAGS) -c $< -o $@

$(OUTPUT)/feecscope: $(OUTPUT)/obj/user/main.o $(LIVE_OBJS) $(OUTPUT)/libfeecscope.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS_LIVE) $(LDLIBS_CORE) -o $@

# BPF: one object per bpf/*.bpf.c, linked into one object by `bpftool gen
# object` (maps and globals defined once, extern elsewhere), then its skeleton
# (a build product, never committed). docs/live.md says which file holds what.
# state.bpf.c, which defines the shared maps, links first: Debian 12's bpftool
# (libbpf 1.1) fails to relocate a map whose extern it met before its definition.
BPF_PARTS  := $(patsubst bpf/%.bpf.c,$(OUTPUT)/bpf/parts/%.bpf.o,bpf/state.bpf.c $(filter-out bpf/state.bpf.c,$(BPF_SRCS)))
$(OUTPUT)/bpf/parts/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) user/record.h user/records/live_wire.h $(VMLINUX)
	$(call msg,BPF,$<)
	$(Q)mkdir -p $(dir $@) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/bpf/feecscope.bpf.o: $(BPF_PARTS)
	$(call msg,GEN-OBJ,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

$(OUTPUT)/feecscope.skel.h: $(OUTPUT)/bpf/feecscope.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name feecscope_bpf > $@

# What `feecscope version` says: git describe, the hash of the BPF object the
# skeleton embeds, static or not. Rewritten only when it changes.
BPF_OBJ    := $(if $(BPF_SRCS),$(OUTPUT)/bpf/feecscope.bpf.o)
$(OUTPUT)/build_info.h: $(BPF_OBJ) FORCE
	$(Q)mkdir -p $(@D) && printf '#define FS_GIT_DESCRIBE "%s"\n#define FS_BPF_SHA256 "%s"\n#define FS_BUILD_STATIC %s\n' \
		"$$(git describe --always --dirty --tags 2>/dev/null || echo unknown)" \
		"$(if $(BPF_OBJ),$$(sha256sum $(BPF_OBJ) | cut -c1-64))" \
		"$(if $(filter -static,$(LDFLAGS)),1,0)" >$@.tmp && \
		{ cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }
$(OUTPUT)/obj/user/cmd_version.o $(OUTPUT)/san/user/cmd_version.o: $(OUTPUT)/build_info.h
FORCE:

$(OUTPUT)/tests/unit_tests: $(TEST_OBJS) $(OUTPUT)/libfeecscope.a
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $^ $(LDLIBS_CORE) -o $@

$(OUTPUT)/tests/unit_tests_san: $(SAN_OBJS)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(SAN_FLAGS) $^ $(LDLIBS_CORE) -o $@

$(OUTPUT)/bench/%: tests/bench/%.c $(OUTPUT)/libfeecscope.a
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) $^ $(LDLIBS_CORE) -o $@

# The static arm64 build compresses with libdeflate (no libisal.a in Debian): its
# gzip stream gets the same unit tests here, where both libraries are installed.
$(OUTPUT)/tests/unit_gzip_libdeflate: tests/unit/runner.c tests/unit/test_gzip_stream.c user/output/gzip_stream.c $(OUTPUT)/libfeecscope.a
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -DFS_GZIP_LIBDEFLATE $^ -ldeflate -lzstd -lz -lm -o $@

unit: $(OUTPUT)/tests/unit_tests $(OUTPUT)/tests/unit_tests_san $(OUTPUT)/tests/unit_gzip_libdeflate $(OUTPUT)/tests/view_shot $(OUTPUT)/tests/deny_bpf $(OUTPUT)/tests/sim_check

# Fuzzing (docs/fuzzing.md): one libFuzzer harness per input parser, built
# with Debian's clang, ASan and UBSan. `make test` replays every kept input
# (tests/fuzz/<target>/) through the same harnesses under gcc's sanitizers.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 30
FUZZ_HARNESS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(FUZZ_HARNESS))
FUZZ_COMMON  := $(filter-out $(FUZZ_HARNESS) tests/fuzz/standalone.c,$(wildcard tests/fuzz/*.c))
FUZZ_CFLAGS  := $(filter-out -O2,$(CFLAGS)) -Itests/fuzz -O1 -g -fno-omit-frame-pointer \
		-fsanitize-coverage-ignorelist=tests/fuzz/coverage_ignore.txt \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-DFS_BOOTSTRAP_ROUNDS=40 # every finish bootstraps: the fewest it allows (2000 were half of records' time)
FUZZ_OBJS    := $(patsubst %.c,$(OUTPUT)/fuzz/obj/%.o,$(CORE_SRCS) $(FUZZ_COMMON))
FUZZ_BINS    := $(patsubst %,$(OUTPUT)/fuzz/%,$(FUZZ_TARGETS))
FUZZ_REPLAY  := $(patsubst %,$(OUTPUT)/tests/fuzz_replay_%,$(FUZZ_TARGETS))
CORE_SAN_OBJS := $(patsubst %.c,$(OUTPUT)/san/%.o,$(CORE_SRCS))

$(OUTPUT)/fuzz/obj/%.o: %.c $(HDRS) $(wildcard tests/fuzz/*.h) tests/fuzz/coverage_ignore.txt
	$(call msg,CC-FUZZ,$<)
	$(Q)mkdir -p $(dir $@) && $(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(OUTPUT)/fuzz/%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS)
	$(call msg,FUZZER,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ $(LDLIBS_CORE) -o $@

$(OUTPUT)/tests/fuzz_replay_%: $(OUTPUT)/san/tests/fuzz/fuzz_%.o $(OUTPUT)/san/tests/fuzz/standalone.o \
		$(patsubst %.c,$(OUTPUT)/san/%.o,$(FUZZ_COMMON)) $(CORE_SAN_OBJS)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(SAN_FLAGS) $^ $(LDLIBS_CORE) -o $@

$(OUTPUT)/san/tests/fuzz/%.o: tests/fuzz/%.c $(HDRS) $(wildcard tests/fuzz/*.h)
	$(call msg,CC-SAN,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) $(filter-out -O2,$(CFLAGS)) -Itests/fuzz $(SAN_FLAGS) -c $< -o $@

# Only the trace.dat reader and its decoder see libtracecmd's headers,
TRACECMD_OBJS := $(foreach d,obj san fuzz/obj,$(foreach f,trace_dat trace_dat_decode,$(OUTPUT)/$(d)/user/source/$(f).o))
$(filter-out $(OUTPUT)/fuzz/%,$(TRACECMD_OBJS)): CFLAGS += $(TRACECMD_CFLAGS)
$(filter $(OUTPUT)/fuzz/%,$(TRACECMD_OBJS)): FUZZ_CFLAGS += $(TRACECMD_CFLAGS)
# the decoder's unit test, which parses a format itself
$(OUTPUT)/obj/tests/unit/test_trace_dat_decode.o $(OUTPUT)/san/tests/unit/test_trace_dat_decode.o: CFLAGS += $(TRACECMD_CFLAGS)
# and the trace_dat harness's guard, which runs the libraries alone, and the
# trace_dat_records harness with its event formats (libtraceevent's handle)
$(OUTPUT)/fuzz/obj/tests/fuzz/trace_dat_libs.o $(OUTPUT)/fuzz/obj/tests/fuzz/trace_dat_sets.o: FUZZ_CFLAGS += $(TRACECMD_CFLAGS)
$(OUTPUT)/san/tests/fuzz/trace_dat_libs.o $(OUTPUT)/san/tests/fuzz/trace_dat_sets.o: CFLAGS += $(TRACECMD_CFLAGS)
$(OUTPUT)/san/tests/fuzz/fuzz_trace_dat_records.o: CFLAGS += $(TRACECMD_CFLAGS)
$(OUTPUT)/fuzz/trace_dat_records: private FUZZ_CFLAGS += $(TRACECMD_CFLAGS)

# Its library pass, a plain program (no sanitizers, no coverage) that both
# the fuzzer and the replay binary start (tests/fuzz/trace_dat_libs.c)
ifeq ($(FS_HAVE_TRACECMD),1)
$(OUTPUT)/fuzz/trace_dat_libs: tests/fuzz/helpers/trace_dat_libs_server.c
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) $(TRACECMD_CFLAGS) $< $(LDLIBS_CORE) -o $@
$(OUTPUT)/fuzz/trace_dat $(OUTPUT)/tests/fuzz_replay_trace_dat: | $(OUTPUT)/fuzz/trace_dat_libs
# trace_dat_records' seeds from a trace.dat (made by hand: docs/fuzzing.md)
$(OUTPUT)/fuzz/trace_dat_records_seed: tests/fuzz/helpers/trace_dat_records_seed.c
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) $(TRACECMD_CFLAGS) $< $(LDLIBS_CORE) -o $@
endif

# Objects made only through pattern rules: keep them between builds.
.SECONDARY: $(FUZZ_OBJS) $(patsubst %.c,$(OUTPUT)/san/%.o,$(wildcard tests/fuzz/*.c))

fuzz-build: $(FUZZ_BINS)

# Each target for FUZZ_SECONDS seconds from its kept inputs; ends "N passed, N failed".
fuzz: fuzz-build
	$(Q)tests/fuzz/run.sh $(OUTPUT) $(FUZZ_SECONDS)

# Every test: unit (plain and ASan+UBSan), kept fuzz inputs, CLI, live (root).
# Ends "N passed, N failed". `make check` also fuzzes FUZZ_SECONDS per target.
test: all unit $(FUZZ_REPLAY)
	$(Q)tests/run.sh $(OUTPUT)

# Set-up in one command each (README): install missing Debian packages, then run.
deps:
	$(Q)scripts/install-deps.sh

check: deps
	$(Q)$(MAKE) --no-print-directory fuzz-build
	$(Q)FS_FUZZ_SECONDS=$(FUZZ_SECONDS) $(MAKE) --no-print-directory test

# Only what live needs (build tools, libbpf): not the test tools, not the arm64 lab.
live:
	$(Q)scripts/install-deps.sh live
	$(Q)$(MAKE) --no-print-directory all
	$(OUTPUT)/feecscope live $(LIVE_ARGS)

# Every Debian arm64 kernel in the QEMU lab on both topologies (tests/lab/matrix.sh,
# docs/lab.md); rewrites the matrix table in docs/lab.md. `make check` runs a subset.
lab-matrix: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)FEECSCOPE=$(CURDIR)/$(OUTPUT)/feecscope FS_OUT=$(CURDIR)/$(OUTPUT) bash tests/lab/matrix.sh -a -w

# The kernel A/B validation (docs/validation.md). validation-table: the comparison
# recomputed from the committed fixtures (python3 only), device physics (run.sh -r)
# first, then lab physics (rt-app under -icount). validate: everything from
# the kernels cached by tests/ab/build-kernels.sh (root, hours; never in CI): the
# guests, the committed runs and fixtures, the page's figures. It stops without
# kernels in the cache; run.sh rebuilds them only if kernel.config or margin.patch
# changed since they were built.
AB_CACHE ?= $(or $(FS_AB_CACHE),/var/cache/feecscope-ab)
validation-table:
	$(Q)python3 tests/ab/validation.py table

validate: all
	$(Q)test -s $(AB_CACHE)/kernel-A/Image -a -s $(AB_CACHE)/kernel-B/Image || \
		{ echo "make validate: no kernels in $(AB_CACHE) (run tests/ab/build-kernels.sh as root first)" >&2; exit 3; }
	$(Q)FS_AB_CACHE=$(AB_CACHE) tests/ab/run.sh -r -w "phone bigsmall frame"
	$(Q)FS_AB_CACHE=$(AB_CACHE) tests/ab/run.sh -r -s 32 -w light -o build/ab-device-light32
	$(Q)FS_AB_CACHE=$(AB_CACHE) tests/ab/run.sh
	$(Q)python3 tests/ab/summarize.py build/ab --tsv tests/ab/results/runs.tsv >/dev/null
	$(Q)python3 tests/ab/compare.py --replay build/ab $(OUTPUT)/feecscope --tsv tests/ab/results/predictions.tsv
	$(Q)python3 tests/ab/fixture.py build/ab-device tests/ab/fixtures/runs-device --feecscope $(OUTPUT)/feecscope --physics device \
		--case 2+2/light=build/ab-device-light32 --case 4+3+1/light=build/ab-device-light32
	$(Q)python3 tests/ab/fixture.py build/ab tests/ab/fixtures/runs --feecscope $(OUTPUT)/feecscope --physics lab
	$(Q)python3 tests/ab/validation.py write docs/validation.md
	$(Q)python3 tests/ab/validation.py plot docs/validation.png
	$(Q)python3 tests/ab/validation.py table

# The screens README.md and docs/live.md show, rendered again from the fixed
# recording by the code that draws them (tests/cli/docs.sh checks they match).
$(OUTPUT)/tests/view_shot: tests/tools/view_shot.c $(OUTPUT)/libfeecscope.a
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) $^ $(LDLIBS_CORE) -o $@

# bpf() failing as a kernel or a policy would make it fail (tests/live/env.sh).
$(OUTPUT)/tests/deny_bpf: tests/tools/deny_bpf.c
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) $< -o $@

# The simulation's self-check laid out per CPU, PD and task (docs/simulation.md).
$(OUTPUT)/tests/sim_check: tests/tools/sim_check.c $(OUTPUT)/libfeecscope.a
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) $^ $(LDLIBS_CORE) -o $@

docs: all $(OUTPUT)/tests/view_shot
	$(Q)python3 tests/tools/docs.py --write $(OUTPUT)

# The BPF-cost floor (empty programs) for tests/bench/live_overhead.sh.
$(OUTPUT)/bench/floor.bpf.o: tests/bench/bpf/floor.bpf.c $(VMLINUX)
	$(call msg,BPF,$<)
	$(Q)mkdir -p $(dir $@) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/bench/bpf_floor: tests/bench/bpf/floor.c
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) $< -lbpf -lelf -lz -o $@

# A loaded raw_tp program run by BPF_PROG_TEST_RUN, for tests/bench/freqrec_cost.sh.
$(OUTPUT)/bench/prog_run: tests/bench/bpf/prog_run.c
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) $< -lbpf -lelf -lz -o $@

BENCH_BPF  := $(if $(HAVE_LIVE),$(OUTPUT)/bench/floor.bpf.o $(OUTPUT)/bench/bpf_floor $(OUTPUT)/bench/prog_run)

bench: all $(patsubst tests/bench/%.c,$(OUTPUT)/bench/%,$(BENCH_SRCS)) $(BENCH_BPF)
	$(Q)tests/bench/run.sh $(OUTPUT)

# Regenerate the BTF-derived header for this machine's kernel (see vmlinux/README.md).
vmlinux:
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > vmlinux/$(HOST_ARCH)/vmlinux.h

clean:
	rm -rf build
