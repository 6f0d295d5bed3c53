# SPDX-License-Identifier: GPL-2.0
#
# The other check targets (tests/README): make check-asan, check-ubsan,
# check-tsan and check-valgrind run make check on a build of their own.
# What each builds with and runs under, for rules.mk (the rig's ring code,
# in build-MODE/) and kernel/ksrc.mk (with KSRC=, each pairing in
# build-MODE-PAIRING/).  The sanitizer goes in CC, so that it compiles and
# links everything, including what the checks build themselves (ab/ab.sh
# passes CC and CFLAGS on).  A sanitizer finding exits with its own status,
# never the status a usage-error check expects.  valgrind runs a plain
# -O1 build (tests/run-check.sh says what under it).
CHECK_MODES := check-asan check-ubsan check-tsan check-valgrind
# check-asan is ASan and UBSan together (as a kernel built with KASAN and
# UBSAN): one run finds both kinds, and CI runs it; check-ubsan is UBSan
# alone, in a build whose memory layout ASan does not change.
SAN_CC_asan := -fsanitize=address,undefined,alignment -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
SAN_CC_ubsan := -fsanitize=undefined,alignment -fno-sanitize-recover=all
SAN_CC_tsan := -fsanitize=thread
CHECK_MODE_CFLAGS := -O1 -g
# The environment of a check-MODE run, MODE being asan, ... or valgrind.
check-mode-env = ASAN_OPTIONS=exitcode=86:detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=exitcode=87:print_stacktrace=1:halt_on_error=1 \
	TSAN_OPTIONS=exitcode=88:halt_on_error=1:second_deadlock_stack=1 \
	RIG_CHECK_MODE=$(1)
# CC for MODE.
check-mode-cc = $(CC)$(if $(SAN_CC_$(1)), $(SAN_CC_$(1)))
