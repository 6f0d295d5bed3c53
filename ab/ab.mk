# SPDX-License-Identifier: GPL-2.0
#
# make ab, regress, series, count and gate-check: their goals, included by
# rules.mk (which defines Q, srctree and shell-quote).

# make ab BASE=<rev> [HEAD=<rev>|worktree] [CMD=...] [PAIRS=N] [METRIC=M]
#   [GATE=PCT|default] [JSON=1] [PLOT=FILE]: both revisions built with this
#   CC and CFLAGS, compared (ab/ab.sh -h).
ab: ab/compare
	$(Q)CC='$(CC)' CFLAGS='$(CFLAGS)' $(srctree)/ab/ab.sh -c ab/compare \
		$(if $(PAIRS),-n $(call shell-quote,$(PAIRS))) \
		$(if $(METRIC),-m $(call shell-quote,$(METRIC))) \
		$(if $(GATE),-g $(call shell-quote,$(GATE))) $(if $(JSON),-j) \
		$(if $(PLOT),-p $(call shell-quote,$(PLOT))) \
		'$(BASE)' '$(HEAD)' $(call shell-quote,$(value CMD))

# KSRC=, KSRC_BASE=, GUEST= and HOST= of make regress and make series
# (kernel/ksrc.mk keeps them as RIG_TOOL_*): the kernel trees measured.
ksrc-tool-args = $(if $(RIG_TOOL_KSRC),-k $(call shell-quote,$(RIG_TOOL_KSRC))) \
	$(if $(RIG_TOOL_KSRC_BASE),-K $(call shell-quote,$(RIG_TOOL_KSRC_BASE))) \
	$(if $(RIG_TOOL_GUEST)$(RIG_TOOL_HOST),-p $(call shell-quote,$(or $(RIG_TOOL_GUEST),kernel)/$(or $(RIG_TOOL_HOST),kernel)))

# make regress BASE=<rev> [HEAD=<rev>|worktree] [PAIRS=201] [JSON=FILE]
#   [REPORT=short]
# make regress KSRC=<kernel git tree> BASE=<rev> [HEAD=<rev>|worktree]
# make regress KSRC_BASE=<tree> KSRC=<tree>   [GUEST=.. HOST=..]
# (ab/regress.sh -h); make count: this build's counts (ab/count.sh), and
# each ring call's on its own (ab/calls.sh).
regress: ab/compare ab/srcfuncs stats
	$(Q)CC='$(CC)' CFLAGS='$(CFLAGS)' $(srctree)/ab/regress.sh $(ksrc-tool-args) \
		$(if $(PAIRS),-n $(call shell-quote,$(PAIRS))) \
		$(if $(REPORT),-R $(call shell-quote,$(REPORT))) \
		$(if $(JSON),-j $(call shell-quote,$(JSON))) '$(BASE)' '$(HEAD)'
# make series BASE=<rev> [HEAD=<rev>] [PAIRS=51] [JSON=FILE] [PLOT=FILE]
#   [REPORT=short]
# make series KSRC=<kernel git tree> BASE=<rev> [HEAD=<rev>] [GUEST=.. HOST=..]
#   each commit of BASE..HEAD that changes the ring code, counted and timed
#   (ab/series.sh -h).
series: ab/compare stats
	$(Q)CC='$(CC)' CFLAGS='$(CFLAGS)' $(srctree)/ab/series.sh $(ksrc-tool-args) \
		$(if $(PAIRS),-n $(call shell-quote,$(PAIRS))) \
		$(if $(REPORT),-R $(call shell-quote,$(REPORT))) \
		$(if $(JSON),-j $(call shell-quote,$(JSON))) \
		$(if $(PLOT),-P $(call shell-quote,$(PLOT))) '$(BASE)' '$(HEAD)'

# make count MATRIX=DIR: instead, ring-code instructions per add and per
# get_buf in every cell of the matrix, DIR's (e.g. build-kernel/T, a KSRC=
# build) beside this build's, with the ratio (ab/count.sh --matrix);
# MATRIX=. this build's alone.
count: vring_bench vringh_test vhost_net_test
ifdef MATRIX
	$(Q)$(srctree)/ab/count.sh --matrix $(call shell-quote,$(MATRIX)) $(if $(filter .,$(MATRIX)),,.)
else
	$(Q)$(srctree)/ab/count.sh .
	$(Q)$(srctree)/ab/calls.sh .
endif

# make gate-check [REV=<rev>] [RUNS=10] [STEPS=180] [METRIC=cpu|own|wall]:
# does make regress's timed gate catch a planted slowdown here, and pass
# A/A (ab/gate-check.sh -h)?
gate-check:
	$(Q)CC='$(CC)' CFLAGS='$(CFLAGS)' $(srctree)/ab/gate-check.sh \
		$(if $(RUNS),-r $(call shell-quote,$(RUNS))) \
		$(if $(STEPS),-s $(call shell-quote,$(STEPS))) \
		$(call shell-quote,$(or $(REV),HEAD)) -- \
		$(if $(METRIC),-m $(call shell-quote,$(METRIC)))

.PHONY: ab regress series count gate-check
