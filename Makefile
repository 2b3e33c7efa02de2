# antic: the anticipatory I/O scheduler, its simulator and test tools.
# Userland targets; kernel/ has its own Makefile (Kbuild).

CC ?= cc
CFLAGS ?= -O2 -g
WARN := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
CORE_SRC := core/queue.c core/anticipatory.c core/deadline.c core/disk.c core/policy.c
# every sim/*.c but the CLI, which tests and benches replace with their own main
SIM_SRC := $(filter-out sim/main.c,$(sort $(wildcard sim/*.c)))
# libFuzzer targets (tests/fuzz/fuzz_NAME.c); make check replays their corpora
FUZZ_TARGETS := jobfile settings trace cmdline
TEST_SRC := tests/harness.c $(sort $(wildcard tests/test_*.c))
# whole-program optimisation for what is timed: the simulator's hot path
# crosses files (engine, drive, blk, core); LTO made a closed-loop replay
# of 10M requests about a sixth faster (1.19 -> 0.99 s of user time)
LTO := -flto=auto
# and -O3 for it, after CFLAGS (SIM_OPT= leaves CFLAGS' level): a closed-loop
# replay ran 5.6 % faster than at -O2 (the mean of builds at three function
# alignments, each of which was faster), with the same output
SIM_OPT := -O3
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

BIN := build/antic-sim
.PHONY: all demo check test bench clean core-freestanding kmod vmbench fuzz valgrind debug-kernel stress

all: $(BIN) build/replay-startup

build:
	mkdir -p build

$(BIN): $(CORE_SRC) $(SIM_SRC) sim/main.c $(wildcard core/*.h sim/*.h) | build
	$(CC) $(WARN) $(CFLAGS) $(SIM_OPT) $(LTO) -o $@ $(CORE_SRC) $(SIM_SRC) sim/main.c

# the start-up replayer the benchmark VM runs: antic-sim's trace readers
# and replay rule against a real device
TRACE_SRC := sim/pidmap.c $(sort $(wildcard sim/trace*.c))
build/replay-startup: bench/replay-startup.c $(TRACE_SRC) $(wildcard sim/*.h core/*.h) | build
	$(CC) $(WARN) $(CFLAGS) -pthread -o $@ bench/replay-startup.c $(TRACE_SRC)

# core/ must stay freestanding: no libc headers, no floating point
core-freestanding: | build
	for f in $(CORE_SRC); do \
	  $(CC) $(WARN) -ffreestanding -fno-builtin -mgeneral-regs-only -O2 -c $$f -o build/fs-$$(basename $$f .c).o || exit 1; \
	done

build/tests: $(CORE_SRC) $(SIM_SRC) $(TEST_SRC) $(wildcard core/*.h sim/*.h tests/*.h) | build
	$(CC) $(WARN) $(CFLAGS) -o $@ $(CORE_SRC) $(SIM_SRC) $(TEST_SRC)

build/tests-san: $(CORE_SRC) $(SIM_SRC) $(TEST_SRC) $(wildcard core/*.h sim/*.h tests/*.h) | build
	$(CC) $(WARN) -O1 -g $(SAN) -o $@ $(CORE_SRC) $(SIM_SRC) $(TEST_SRC)

build/bench: $(CORE_SRC) $(SIM_SRC) tests/bench.c | build
	$(CC) $(WARN) -O2 $(SIM_OPT) $(LTO) -o $@ $(CORE_SRC) $(SIM_SRC) tests/bench.c

# today's disk (NCQ depth 32), then the same disk with NCQ off, as in 2003
demo: $(BIN)
	$(BIN) -q examples/write-vs-read.fio
	@echo
	$(BIN) -q --set queue_depth=1 examples/write-vs-read.fio

check test: $(BIN) build/replay-startup build/tests build/tests-san core-freestanding $(addprefix build/corpus_,$(FUZZ_TARGETS))
	tests/run.sh

# the VM tests with a longer all-at-once stress run (STRESS_S seconds)
STRESS_S ?= 600
stress:
	mkdir -p build && echo STRESS_S=$(STRESS_S) > build/stress-params
	PARAMS=$(CURDIR)/build/stress-params VM_TIMEOUT=$$(( $(STRESS_S) + 1800 )) tests/vm/run.sh $(KVER)

# KASAN + lockdep kernel from linux-source, and the VM tests on it (slow);
# SERIES=7.3 for the 7.x kernel (default 6.12)
debug-kernel:
	SERIES=$(SERIES) tests/debug-kernel.sh

valgrind: $(BIN) build/tests
	tests/valgrind.sh

bench: build/bench
	build/bench

# libFuzzer (clang) over the parsers and the command line, FUZZ_TIME
# seconds each; crashes
# land in build/ as crash-*, to be kept under tests/fuzz/ as regressions
FUZZ_TIME ?= 60
FUZZ := clang -g -O1 -fsanitize=fuzzer,address,undefined $(WARN)
build/fuzz_%: tests/fuzz/fuzz_%.c $(CORE_SRC) $(SIM_SRC) $(wildcard core/*.h sim/*.h) | build
	$(FUZZ) -o $@ $< $(CORE_SRC) $(SIM_SRC)

# the same targets over their saved corpora, built with gcc (make check)
build/corpus_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_corpus.c $(CORE_SRC) $(SIM_SRC) $(wildcard core/*.h sim/*.h) | build
	$(CC) $(WARN) -O1 -g $(SAN) -o $@ $< tests/fuzz/replay_corpus.c $(CORE_SRC) $(SIM_SRC)

fuzz: $(addprefix build/fuzz_,$(FUZZ_TARGETS))
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p build/fuzz-corpus-$$t && \
	  build/fuzz_$$t -max_total_time=$(FUZZ_TIME) -rss_limit_mb=1024 -close_fd_mask=3 -artifact_prefix=build/ \
	    build/fuzz-corpus-$$t tests/fuzz/corpus-$$t > build/fuzz-$$t.log 2>&1; rc=$$?; \
	  echo "fuzz_$$t: $$(grep -E '^Done|SUMMARY' build/fuzz-$$t.log | tr '\n' ' ')"; \
	  [ $$rc -eq 0 ] || { echo "fuzz_$$t failed: see build/fuzz-$$t.log"; exit 1; }; \
	done

# anticipatory.ko for the running kernel (KVER=... for another)
kmod:
	$(MAKE) -C kernel

# the head-to-head in VMs on hddsim; QUICK=1 for a short run, KVER=... for one kernel
vmbench: $(BIN)
	QUICK=$(QUICK) bench/vmbench.sh $(KVER)

clean:
	rm -rf build
	$(MAKE) -C kernel clean
