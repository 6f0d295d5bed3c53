/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a program takes from the machine it runs on (machine.c): the CPUs
 * it may run on and pinning to one, and anonymous shared memory mapped at
 * two addresses.
 */
#ifndef RIG_HARNESS_MACHINE_H
#define RIG_HARNESS_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

/* Number of CPUs this process may run on. */
int rig_cpus_allowed(void);
/*
 * The two allowed CPUs farthest apart (lowest and highest).  Returns the
 * number of allowed CPUs; with only one, *a == *b.
 */
int rig_pick_two_cpus(int *a, int *b);
/* Pin the calling thread to @cpu; dies on failure. */
void rig_pin_thread(int cpu);
/* May this process run on @cpu? */
bool rig_cpu_allowed(long cpu);
/* The CPUs this process may run on, as a list like "0-1" or "0,2,5-7". */
const char *rig_cpus_allowed_list(void);

/*
 * Anonymous shared memory (memfd: private to this run, nothing in the file
 * system) mapped twice, so the host sees the guest's memory at a different
 * address and address translation is really exercised.
 */
struct rig_shm {
	size_t size;
	void *guest;	/* the guest's view: addresses it puts in rings */
	void *host;	/* the host's view of the same bytes */
};

void rig_shm_create(struct rig_shm *shm, size_t size);
void rig_shm_destroy(struct rig_shm *shm);

#endif /* RIG_HARNESS_MACHINE_H */
