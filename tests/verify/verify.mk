# tests/verify/verify.mk -- optional Makefile fragment of the verification
# suite (include it with: -include tests/verify/verify.mk).
#   make verify                          --identity outputs
#   make verify VERIFY_MODE=--reencode   another rewrite mode
#   make verify VERIFY_ASM_EVERY=1       ASM over every class, not 1 in 20
VERIFY_MODE ?= --identity
VERIFY_ASM_EVERY ?= 20
.PHONY: verify
verify: $(BIN)
	CCCP_VERIFY_MODE=$(VERIFY_MODE) CCCP_VERIFY_ASM_EVERY=$(VERIFY_ASM_EVERY) \
	  BUILD=$(BUILD) bash tests/verify/test_verify.sh
