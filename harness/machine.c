// SPDX-License-Identifier: GPL-2.0
/* What a program takes from the machine it runs on: see machine.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/machine.h"
#include "harness/outcome.h"

int rig_cpus_allowed(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		rig_die("sched_getaffinity");
	return CPU_COUNT(&set);
}

int rig_pick_two_cpus(int *a, int *b)
{
	cpu_set_t set;
	int cpu, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		rig_die("sched_getaffinity");
	*a = *b = -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		if (*a < 0)
			*a = cpu;
		*b = cpu;
		n++;
	}
	return n;
}

void rig_pin_thread(int cpu)
{
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err) {
		errno = err;
		rig_die("cannot pin to CPU %d", cpu);
	}
}

bool rig_cpu_allowed(long cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		rig_die("sched_getaffinity");
	return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set);
}

const char *rig_cpus_allowed_list(void)
{
	static char buf[256];
	size_t used = 0;
	int cpu, first = -1;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		rig_die("sched_getaffinity");
	buf[0] = 0;
	for (cpu = 0; cpu <= CPU_SETSIZE; cpu++) {
		bool in = cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set);

		if (in && first < 0)
			first = cpu;
		if (in || first < 0 || used >= sizeof(buf) - 24)
			continue;
		if (cpu - 1 > first)
			used += snprintf(buf + used, sizeof(buf) - used, "%s%d-%d",
					 used ? "," : "", first, cpu - 1);
		else
			used += snprintf(buf + used, sizeof(buf) - used, "%s%d",
					 used ? "," : "", first);
		first = -1;
	}
	return buf;
}

#if defined(__SANITIZE_THREAD__)
#define RIG_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RIG_TSAN 1
#endif
#endif

void rig_shm_create(struct rig_shm *shm, size_t size)
{
	int fd = memfd_create("vring-rig", MFD_CLOEXEC);

	if (fd < 0)
		rig_die("memfd_create");
	if (ftruncate(fd, size))
		rig_die("ftruncate shared memory to %zu bytes", size);
	shm->size = size;
	shm->guest = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
#ifdef RIG_TSAN
	/*
	 * ThreadSanitizer tracks memory by virtual address: through two
	 * mappings the guest's and the host's accesses to the same byte
	 * would never meet, and no race on the ring could be seen.
	 */
	shm->host = shm->guest;
#else
	shm->host = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
#endif
	if (shm->guest == MAP_FAILED || shm->host == MAP_FAILED)
		rig_die("mmap shared memory");
	close(fd);
}

void rig_shm_destroy(struct rig_shm *shm)
{
	munmap(shm->guest, shm->size);
	if (shm->host != shm->guest)
		munmap(shm->host, shm->size);
	shm->guest = shm->host = NULL;
}
