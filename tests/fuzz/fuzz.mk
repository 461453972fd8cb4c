# tests/fuzz/fuzz.mk -- fuzz targets (included by the top-level Makefile).
#
#   make fuzz-replay   build the replay driver with $(CC) and run every
#                      corpus file and regression input through its target
#                      (no libFuzzer needed; meant for 'make check')
#   make fuzz          build the libFuzzer binaries with clang + ASan/UBSan
#                      into $(FUZZ_BUILD) and run each target for
#                      FUZZ_SECONDS seconds, one after the other
#   make fuzz-bins     only build them (inside the $(FUZZ_BUILD) make)
#   make fuzz-TARGET   run one target (class, jar, jmod, jimage, code,
#                      policy, summary, inflate, deflate, profile)
#
# FUZZ_LAX=1 skips the checks of known open bugs (see fuzz_common.c).
# New inputs found go to $(FUZZ_BUILD)/corpus/TARGET, crashes to
# $(FUZZ_BUILD)/crash-TARGET-*; commit a minimised crash input under
# tests/fuzz/regress/TARGET/ so that fuzz-replay keeps it fixed.

FUZZ_TARGETS := class jar jmod jimage code policy summary inflate \
                deflate profile
FUZZ_COMMON  := fuzz_common
FUZZ_OBJ     := $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/fuzz_%.o) \
                $(BUILD)/tests/fuzz/$(FUZZ_COMMON).o
FUZZ_REPLAY  := $(BUILD)/fuzz/replay
FUZZ_BUILD   ?= build-libfuzzer
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS   ?= -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
                -print_final_stats=1
FUZZ_SAN     := -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize-recover=all
# clang -Wformat=2 flags the va_list vsnprintf in cr_diag_vset (no
# format(printf, 4, 0) attribute in util.h); not an error for fuzzing.
FUZZ_CFLAGS  ?= -Wno-format-nonliteral
FUZZ_DICT_class := -dict=tests/fuzz/class.dict
FUZZ_DICT_jar   := -dict=tests/fuzz/zip.dict
FUZZ_DICT_jmod  := -dict=tests/fuzz/zip.dict
FUZZ_DICT_jimage := -dict=tests/fuzz/jimage.dict
FUZZ_DICT_code  := -dict=tests/fuzz/class.dict
FUZZ_DICT_policy := -dict=tests/fuzz/policy.dict
FUZZ_DICT_profile := -dict=tests/fuzz/profile.dict

.PHONY: fuzz fuzz-bins fuzz-replay $(FUZZ_TARGETS:%=fuzz-%)

# Objects under $(BUILD)/tests/fuzz/ come from the Makefile's generic rule.
$(FUZZ_REPLAY): $(BUILD)/tests/fuzz/replay.o $(FUZZ_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

fuzz-replay: $(FUZZ_REPLAY)
	$(FUZZ_REPLAY) $(wildcard tests/fuzz/corpus/*) \
	  $(wildcard tests/fuzz/regress/*)

# libFuzzer binaries: only meaningful inside the clang make below.
$(BUILD)/fuzz/lf-%.o: tests/fuzz/libfuzzer.c tests/fuzz/fuzz.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MF $@.d -DFUZZ_ENTRY=fuzz_$* -c $< -o $@

$(BUILD)/fuzz/fuzz-%: $(BUILD)/fuzz/lf-%.o $(FUZZ_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -fsanitize=fuzzer -o $@ $^ $(LIBS)

.PRECIOUS: $(BUILD)/fuzz/lf-%.o
fuzz-bins: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz-%)

FUZZ_MAKE := $(MAKE) BUILD=$(FUZZ_BUILD) BINDIR=$(FUZZ_BUILD)/bin \
  CC=$(FUZZ_CC) OPT="-O1 -g -fno-omit-frame-pointer" SAN="$(FUZZ_SAN)" \
  CFLAGS="$(FUZZ_CFLAGS)"

$(FUZZ_TARGETS:%=fuzz-%):
	$(FUZZ_MAKE) $(FUZZ_BUILD)/fuzz/$@
	@mkdir -p $(FUZZ_BUILD)/corpus/$(@:fuzz-%=%)
	$(FUZZ_BUILD)/fuzz/$@ $(FUZZ_FLAGS) $(FUZZ_DICT_$(@:fuzz-%=%)) \
	  -max_total_time=$(FUZZ_SECONDS) \
	  -artifact_prefix=$(FUZZ_BUILD)/crash-$(@:fuzz-%=%)- \
	  $(FUZZ_BUILD)/corpus/$(@:fuzz-%=%) tests/fuzz/corpus/$(@:fuzz-%=%)

# One target at a time: the fuzzers share the machine with everything else.
fuzz:
	$(FUZZ_MAKE) fuzz-bins
	@for t in $(FUZZ_TARGETS); do \
	  $(MAKE) --no-print-directory FUZZ_SECONDS=$(FUZZ_SECONDS) \
	    fuzz-$$t || exit 1; done

-include $(BUILD)/tests/fuzz/*.d $(BUILD)/fuzz/*.d
