# cccp -- static Java bytecode rewriter for complete calling-context profiling.
# Targets: all (default), check, check-full, asan, install, bench, bench-micro, clean.

PREFIX    ?= /usr/local
BUILD     ?= build
CC        ?= cc
PKGS      := libzip zlib libxml-2.0
# 'make deps' runs before the libraries exist: don't ask pkg-config then.
ifneq ($(MAKECMDGOALS),deps)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)
endif

WARN      := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
             -Wmissing-prototypes -Wpointer-arith -Wformat=2 -Wvla
OPT       ?= -O2 -g
SAN       ?=
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) $(SAN) -Iinclude \
              $(PKG_CFLAGS) -MMD -MP $(CFLAGS)
LDFLAGS_ALL := $(SAN) $(LDFLAGS)
LIBS      := $(PKG_LIBS) -lpthread

VERSION   := 0.1.0

# Every module under src/ goes into the library, except the programs and
# the native agent.
LIB_SRC   := $(sort $(filter-out src/cli/% src/report/% src/agent/%,$(wildcard src/*/*.c)))
CLI_SRC   := $(sort $(wildcard src/cli/*.c))
REPORT_SRC := $(sort $(wildcard src/report/*.c))
TEST_SRC  := $(sort $(wildcard tests/unit/test_*.c))
TESTUTIL_SRC := $(sort $(wildcard tests/unit/util/*.c))

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
# cccp-report shares the atomic output file with cccp-rewrite.
REPORT_OBJ := $(REPORT_SRC:%.c=$(BUILD)/%.o) $(BUILD)/src/cli/atomic.o
TESTUTIL_OBJ := $(TESTUTIL_SRC:%.c=$(BUILD)/%.o)
TEST_BIN  := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
LIB       := $(BUILD)/libcccp.a
BINDIR    ?= bin
BIN       := $(BINDIR)/cccp-rewrite
REPORT    := $(BINDIR)/cccp-report

# The Java runtime (class version 52), shipped as cccp-rt.jar, with its
# Java agent (runtime-java/agent, class version 55, JDK 11 and later).
RT_SRC    := $(sort $(shell find runtime-java/cccp -name '*.java' 2>/dev/null))
AGENT_SRC := $(sort $(shell find runtime-java/agent -name '*.java' 2>/dev/null))
RT_JAR    := $(BUILD)/cccp-rt.jar
# jdk.internal.vm.annotation, named by the runtime (javac sees, never emits)
RT_ANN_STUBS := $(wildcard runtime-java/annotation-stubs/jdk/internal/vm/annotation/*.java)
# The same runtime for an instrumented JDK (cccp-rt-jdk.jar, patched into
# java.base): its Slots keeps the thread slot in fields the rewriter adds
# to java.lang.Thread, compiled against a stand-in (runtime-java/jdk-stubs).
RT_JDK_SRC := $(sort $(wildcard runtime-java/jdk/cccp/rt/*.java))
# in java.lang, for package access (compiled against runtime-java/jdk-stubs)
RT_JDK_LANG := $(sort $(wildcard runtime-java/jdk/java/lang/*.java))
RT_JDK_STUBS := $(sort $(wildcard runtime-java/jdk-stubs/java/lang/*.java))
RT_JDK_JAR := $(BUILD)/cccp-rt-jdk.jar
# the agent's filters, which the rewritten JDK calls directly
RT_JDK_AGENT := runtime-java/agent/cccp/rt/Hidden.java \
                runtime-java/agent/cccp/rt/Frames.java

# The native agent (libcccp-agent.so): the options file loads it at
# startup, 'cccp-report dump' loads it again through the attach mechanism.
# Its JNI headers are those of the JDK that 'javac' belongs to (JNI_HOME).
# Never sanitized: it runs inside the JVM, which has no sanitizer runtime.
AGENT_LIB := $(BUILD)/libcccp-agent.so
AGENT_SRC_C := src/agent/agent.c src/agent/boot.c src/agent/load.c
# The library again for it, position-independent and never sanitized: the
# load-time rewriter runs the rewriter's own analysis and transform.
AGENT_PIC_OBJ := $(LIB_SRC:%.c=$(BUILD)/agent-pic/%.o)
AGENT_PIC_LIB := $(BUILD)/agent-pic/libcccp.a
JNI_HOME  ?= $(patsubst %/bin/javac,%,$(realpath $(shell command -v $(JAVAC))))
AGENT_CFLAGS ?= -std=c11 -O2 -g $(WARN) -fPIC -fvisibility=hidden \
  -isystem $(JNI_HOME)/include -isystem $(JNI_HOME)/include/linux

# Test tools (C programs used by the shell suites).
TOOL_SRC  := $(sort $(wildcard tests/tools/*.c))
TOOL_BIN  := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%)

# The bundled example application.
EXAMPLE_SRC := $(sort $(wildcard examples/wordfreq/src/wordfreq/*.java))
EXAMPLE_JAR := $(BUILD)/examples/wordfreq.jar
JAR       ?= jar

# Java test fixtures: compiled at build time, never committed.
FIXTURE_SRC := $(sort $(wildcard tests/data/java/*.java))
FIXTURE_STAMP := $(BUILD)/fixtures/.stamp
JAVAC     ?= javac

# Example applications for JOP cross-profiling, one package each
# (examples/jop/NAME/src/NAME/*.java, main class NAME.Main), and the JOP
# test programs (tests/data/jop/PACKAGE/*.java). Class version 52 and
# string concatenation by StringBuilder: no invokedynamic, which JOP
# cannot run.
JOP_EXAMPLES := control packet
JOP_EXAMPLE_JARS := $(JOP_EXAMPLES:%=$(BUILD)/examples/jop/%.jar)
JOP_FIXTURE_SRC := $(sort $(wildcard tests/data/jop/*/*.java))
JOP_FIXTURE_STAMP := $(BUILD)/fixtures-jop/.stamp
JOP_JAVAC  = $(JAVAC) --release 8 -XDstringConcat=inline -nowarn -Xlint:-options

.PHONY: all check check-integration check-asan check-full check-machine unit headers asan \
  asan-build asan-unit asan-suites install uninstall \
  clean bench bench-micro fixtures deps demo tools valgrind check-report jop-examples
all: $(BIN) $(REPORT) $(RT_JAR) $(RT_JDK_JAR) $(AGENT_LIB)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DCCCP_VERSION='"$(VERSION)"' -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $(CLI_OBJ) $(LIB) $(LIBS)

$(REPORT): $(REPORT_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $(REPORT_OBJ) $(LIB) $(LIBS)

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(TESTUTIL_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(TESTUTIL_OBJ) $(LIB) $(CHECK_LIBS) $(LIBS)

$(BUILD)/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CHECK_CFLAGS) -Itests/unit -c $< -o $@

$(BUILD)/tests/unit/util/%.o: tests/unit/util/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CHECK_CFLAGS) -Itests/unit -c $< -o $@

$(BUILD)/agent-pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(AGENT_CFLAGS) -D_GNU_SOURCE -Iinclude $(PKG_CFLAGS) -MMD -MP \
	  -DCCCP_VERSION='"$(VERSION)"' -c $< -o $@

$(AGENT_PIC_LIB): $(AGENT_PIC_OBJ)
	rm -f $@ && ar rcs $@ $^

$(AGENT_LIB): $(AGENT_SRC_C) src/agent/agent.h src/agent/boot.h src/agent/load.h $(AGENT_PIC_LIB)
	@mkdir -p $(dir $@)
	@test -f $(JNI_HOME)/include/jni.h || { echo "no jni.h under \
	  JNI_HOME=$(JNI_HOME) (set JNI_HOME to a JDK)"; exit 1; }
	$(CC) $(AGENT_CFLAGS) -D_GNU_SOURCE -Iinclude -shared \
	  -Wl,-z,noexecstack -Wl,--exclude-libs,ALL -o $@ $(AGENT_SRC_C) \
	  $(AGENT_PIC_LIB) $(LIBS)

$(BUILD)/tools/%: tests/tools/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MF $@.d -o $@ $< $(LIB) $(LIBS)
tools: $(TOOL_BIN)

$(RT_JAR): $(RT_SRC) $(AGENT_SRC) $(RT_ANN_STUBS) runtime-java/MANIFEST.MF
	@rm -rf $(BUILD)/rt-classes
	@mkdir -p $(BUILD)/rt-classes
	$(if $(RT_SRC),$(JAVAC) --release 8 -nowarn -Xlint:-options \
	  -sourcepath runtime-java/annotation-stubs -implicit:none \
	  -d $(BUILD)/rt-classes $(RT_SRC),true)
	$(JAVAC) --release 11 -XDstringConcat=inline -nowarn -cp $(BUILD)/rt-classes -d $(BUILD)/rt-classes $(AGENT_SRC)
	$(JAR) --create --file $@ --manifest runtime-java/MANIFEST.MF -C $(BUILD)/rt-classes .

$(RT_JDK_JAR): $(RT_SRC) $(RT_JDK_SRC) $(RT_JDK_AGENT) $(RT_JDK_LANG) \
               $(RT_JDK_STUBS)
	@rm -rf $(BUILD)/rt-jdk-src $(BUILD)/rt-jdk-classes
	@mkdir -p $(BUILD)/rt-jdk-src/cccp/rt $(BUILD)/rt-jdk-src/java/lang \
	  $(BUILD)/rt-jdk-classes
	cp $(RT_SRC) $(BUILD)/rt-jdk-src/cccp/rt/
	cp $(RT_JDK_SRC) $(RT_JDK_AGENT) $(BUILD)/rt-jdk-src/cccp/rt/
	cp $(RT_JDK_LANG) $(BUILD)/rt-jdk-src/java/lang/
	$(JAVAC) -source 11 -target 11 -XDstringConcat=inline -nowarn -Xlint:-options -implicit:none \
	  --patch-module java.base=runtime-java/jdk-stubs:$(BUILD)/rt-jdk-src \
	  -d $(BUILD)/rt-jdk-classes $$(find $(BUILD)/rt-jdk-src -name '*.java')
	$(JAR) --create --no-manifest --file $@ -C $(BUILD)/rt-jdk-classes .

$(EXAMPLE_JAR): $(EXAMPLE_SRC)
	@rm -rf $(BUILD)/examples/wordfreq-classes
	@mkdir -p $(BUILD)/examples/wordfreq-classes
	$(JAVAC) -d $(BUILD)/examples/wordfreq-classes $(EXAMPLE_SRC)
	$(JAR) --create --file $@ --main-class wordfreq.Main \
	  -C $(BUILD)/examples/wordfreq-classes .

# $(call jop_example,NAME): the rule for $(BUILD)/examples/jop/NAME.jar.
define jop_example
$(BUILD)/examples/jop/$(1).jar: $$(sort $$(wildcard examples/jop/$(1)/src/$(1)/*.java))
	@rm -rf $(BUILD)/examples/jop/$(1)-classes
	@mkdir -p $(BUILD)/examples/jop/$(1)-classes
	$$(JOP_JAVAC) -d $(BUILD)/examples/jop/$(1)-classes $$^
	$$(JAR) --create --file $$@ --main-class $(1).Main \
	  -C $(BUILD)/examples/jop/$(1)-classes .
endef
$(foreach e,$(JOP_EXAMPLES),$(eval $(call jop_example,$(e))))

$(JOP_FIXTURE_STAMP): $(JOP_FIXTURE_SRC)
	@rm -rf $(BUILD)/fixtures-jop
	@mkdir -p $(BUILD)/fixtures-jop
	$(JOP_JAVAC) -d $(BUILD)/fixtures-jop $(JOP_FIXTURE_SRC)
	touch $@

# The JOP examples and test programs (checked by tests/jop/check_examples.sh).
jop-examples: $(JOP_EXAMPLE_JARS) $(JOP_FIXTURE_STAMP)

# The main job on the bundled example (grows as features land): instrument
# the app, run it on a stock JVM, print its hottest calling contexts and
# write its flame graph.
DEMO := $(BUILD)/demo
# the JDK the demo instruments: the one 'java' on PATH belongs to
DEMO_JDK ?= $(patsubst %/bin/java,%,$(realpath $(shell command -v java)))
demo: $(BIN) $(REPORT) $(RT_JAR) $(RT_JDK_JAR) $(AGENT_LIB) $(EXAMPLE_JAR) $(BUILD)/examples/jop/control.jar
	@rm -rf $(DEMO) && mkdir -p $(DEMO)
	@echo "== the JDK instrumented once ($(DEMO_JDK)), the example against it"
	$(BIN) --jdk $(DEMO_JDK) -o $(DEMO)/jdk
	$(BIN) --summary $(DEMO)/jdk/jdk.summary $(EXAMPLE_JAR) -o $(DEMO)/app/
	cd $(DEMO)/app && java @cccp.args -Dcccp.out=../profile.xml -jar wordfreq.jar
	@echo "== hottest methods and calling contexts of $(DEMO)/profile.xml"
	@$(REPORT) top --merge-threads -n 8 $(DEMO)/profile.xml
	@$(REPORT) flame --merge-threads $(DEMO)/profile.xml \
	  --title "wordfreq on an instrumented JDK: calls per calling context" \
	  -o $(DEMO)/flame.html
	@echo "== flame graph (open in a browser): $(CURDIR)/$(DEMO)/flame.html"
	@echo "== cross-profiling examples/jop/control for the JOP processor"
	$(BIN) --jop $(BUILD)/examples/jop/control.jar -o $(DEMO)/jop/
	cd $(DEMO)/jop && java @cccp.args -Dcccp.out=control.xml \
	  -jar control.jar 400000
	$(REPORT) jop $(DEMO)/jop/control.xml -o $(DEMO)/jop/control-done.xml
	@$(REPORT) top -m cycles -n 6 --contexts $(DEMO)/jop/control-done.xml

# Install missing build and test dependencies (Debian 12; idempotent).
deps:
	bash .ci/deps

$(FIXTURE_STAMP): $(FIXTURE_SRC)
	@mkdir -p $(BUILD)/fixtures
	$(if $(FIXTURE_SRC),$(JAVAC) -nowarn -d $(BUILD)/fixtures $(FIXTURE_SRC),true)
	touch $@
fixtures: $(FIXTURE_STAMP)

# Every public header compiles on its own.
headers:
	@for h in include/cccp/*.h; do \
	  printf '#include "cccp/%s"\n' $$(basename $$h) | \
	    $(CC) -std=c11 $(WARN) -Iinclude $(PKG_CFLAGS) -x c -fsyntax-only - \
	    || { echo "header $$h does not compile alone"; exit 1; }; \
	done; echo "headers: each compiles alone"

unit: $(TEST_BIN) $(FIXTURE_STAMP)
	@fail=0; for t in $(TEST_BIN); do \
	  CCCP_FIXTURES=$(BUILD)/fixtures $$t || fail=1; done; exit $$fail

# Unit tests, the command-line and round-trip suites, and the same unit
# and command-line tests on the sanitized build. Under -j2 the sanitized
# build and its suites run beside the integration suites, their lines
# marked "asan| "; the integration suites run in two lanes, the suites
# that rewrite whole JDKs in one (lines marked "jdk| "), the others in
# the other: one lane alone leaves a core idle much of the time.
# bench/check-time says where the time goes.
check: check-integration check-asan
check-integration: all headers unit fuzz-replay $(TOOL_BIN) $(EXAMPLE_JAR) \
  $(JOP_EXAMPLE_JARS) $(JOP_FIXTURE_STAMP)
	BUILD=$(BUILD) bash tests/run-integration.sh --lanes
check-asan:
	@bash -c 'set -o pipefail; $(MAKE) --no-print-directory asan 2>&1 | \
	  sed -u "s/^/asan| /"'

# The suites that judge the machine's jars, over every jar under
# /usr/share/java instead of those of the packages .ci/deps installs.
check-machine: all tools
	CCCP_ALL_JARS=1 BUILD=$(BUILD) bash tests/run-integration.sh \
	  tests/roundtrip/test_roundtrip.sh tests/verify/test_verify.sh:--cccp \
	  tests/verify/test_verify.sh:--reencode

# Every suite at full size: the verification suite checks every
# application jar in every mode, the mutant campaigns run at full scale
# (see tests/run-integration.sh). Run before an issue is declared resolved.
check-full:
	CCCP_FULL=1 $(MAKE) check

# AddressSanitizer + UndefinedBehaviorSanitizer build of everything: the
# unit tests and the command-line suite run against the sanitized build.
# CR_DEBUG_ARENA: every arena object is its own allocation, so that ASan
# sees overflows inside arenas and allocation-failure sweeps reach every
# allocation.
ASAN_VARS := BUILD=build-asan BINDIR=build-asan/bin \
  OPT="-O1 -g -fno-omit-frame-pointer" \
  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" \
  CFLAGS="-DCR_DEBUG_ARENA"
# The sanitized build's parts, also separately (bench/check-time times
# each): asan-build builds, asan-unit runs the unit tests and the fuzz
# replay, asan-suites the shell suites.
ASAN_TEST_BIN := $(TEST_SRC:tests/unit/%.c=build-asan/tests/%)
asan: asan-unit asan-suites
asan-build:
	$(MAKE) $(ASAN_VARS) build-asan/bin/cccp-rewrite build-asan/cccp-rt.jar \
	  build-asan/libcccp-agent.so build-asan/bin/cccp-report tools \
	  build-asan/examples/wordfreq.jar \
	  $(ASAN_TEST_BIN) build-asan/fixtures/.stamp build-asan/fuzz/replay
asan-unit: asan-build
	$(MAKE) $(ASAN_VARS) unit fuzz-replay
# The campaign at a fifth of its size (the sanitized build is slower),
# at full size under CCCP_FULL=1.
asan-suites: asan-build
	ASAN_OPTIONS=exitcode=86 BUILD=build-asan \
	  HOSTILE_SCALE=$(if $(filter 1,$(CCCP_FULL)),1,0.2) \
	  CCCP_REWRITE=$(CURDIR)/build-asan/bin/cccp-rewrite \
	  CCCP_REPORT=$(CURDIR)/build-asan/bin/cccp-report \
	  bash tests/run-integration.sh tests/cli/test_cli.sh \
	  tests/report/test_report.sh tests/report/test_report_gz.sh \
	  tests/hostile/test_hostile.sh

# FHS places under PREFIX (staged under DESTDIR): the tools find their
# runtime at ../share/cccp from their own directory.
INSTALLED := bin/cccp-rewrite bin/cccp-report share/cccp/cccp-rt.jar \
  share/cccp/cccp-rt-jdk.jar share/cccp/libcccp-agent.so \
  share/man/man1/cccp-rewrite.1 \
  share/man/man1/cccp-report.1 share/man/man5/cccp-profile.5
install: $(BIN) $(REPORT) $(RT_JAR) $(RT_JDK_JAR) $(AGENT_LIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(PREFIX)/share/cccp
	install -m 755 $(BIN) $(REPORT) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(RT_JAR) $(RT_JDK_JAR) $(AGENT_LIB) \
	  $(DESTDIR)$(PREFIX)/share/cccp/
	install -m 644 man/cccp-rewrite.1 man/cccp-report.1 \
	  $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 man/cccp-profile.5 $(DESTDIR)$(PREFIX)/share/man/man5/

# Removes the files 'install' wrote, and share/cccp once empty.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))
	-rmdir $(DESTDIR)$(PREFIX)/share/cccp 2>/dev/null

# The rewriter's throughput against ASM, then the run-time cost of
# instrumented runs of real applications, with the counting floor
# (about 14 minutes on 2 cores). Every bench/ script also runs alone.
bench: $(BIN) $(RT_JAR) $(AGENT_LIB)
	bench/roundtrip
	BUILD=$(BUILD) bench/apps --floor

# The per-call cost of each instrumentation protocol (about 3 minutes).
bench-micro: $(BIN) $(RT_JAR) $(AGENT_LIB)
	bench/micro

# The cccp-report suites alone (also part of 'make check').
check-report: $(REPORT)
	BUILD=$(BUILD) bash tests/report/test_report.sh
	BUILD=$(BUILD) bash tests/report/test_report_gz.sh

# valgrind memcheck on representative runs of $(BIN) (about half a
# minute; also part of 'make check')
valgrind: $(BIN) $(REPORT) $(RT_JAR) $(AGENT_LIB) $(EXAMPLE_JAR)
	CCCP_REWRITE=$(CURDIR)/$(BIN) BUILD=$(BUILD) \
	  bash tests/valgrind/test_valgrind.sh

clean:
	rm -rf build build-asan bin

# Optional fragments owned by test suites (fuzzing, verification).
-include tests/fuzz/fuzz.mk
-include tests/verify/verify.mk

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(REPORT_OBJ:.o=.d) $(AGENT_PIC_OBJ:.o=.d) \
  $(TESTUTIL_OBJ:.o=.d) \
  $(TOOL_BIN:=.d) \
  $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%.d)
