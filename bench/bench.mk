# SPDX-License-Identifier: GPL-2.0
#
# make bench: its goal, included by rules.mk (which defines Q, srctree and
# shell-quote).

# make bench [RUNS=N] [PLOT=FILE]: the canonical loops (bench/run.sh).
bench: vringh_test vring_bench stats
	$(Q)$(srctree)/bench/run.sh $(if $(PLOT),-p $(call shell-quote,$(PLOT))) $(RUNS)

.PHONY: bench
