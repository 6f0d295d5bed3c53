/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every rig program needs and none should write twice: one header
 * for the files behind it (HARNESS_OBJS in the Makefile), one idea and
 * one header each:
 *
 *   outcome.c  how a run ends: exit statuses, checks that stop with a
 *              location, fatal errors, SKIPs, known gaps (a TODO), the
 *              case runner, Ctrl-C;
 *   cli.c      the command line: the shared options, usage errors,
 *              progress on a terminal; and what a program prints about
 *              itself: --version (the build, which ring code is linked,
 *              from which trees) and --json;
 *   text.c     number parsing, JSON strings and the build line, libc only
 *              (the stand-alone tools link it too);
 *   machine.c  CPU choice and pinning, shared memory mapped at two
 *              addresses;
 *   chan.c     notification channels (eventfds) whose waiter spins for
 *              as long as a wake-up costs, then sleeps;
 *   queue.c    a device struct, a split or packed queue made with the
 *              linked driver (the rig's or a kernel tree's), and what the
 *              linked ring code can do (SKIP unless it can);
 *   host.c     the host's view of guest memory (the "user" window and the
 *              guest-address translation of a vringh getrange callback),
 *              the ring as the host sees it there, and vringh on that ring.
 *
 * The calls go one way, none back: cli uses text; outcome uses cli (a
 * bad case name is a usage error; which ring code is linked); machine,
 * chan, queue, host, mockdev and arena use outcome (queue cli too).
 * mockdev.h (a device played by hand) and arena.h (the kmalloc arena) are
 * included by the programs that use them.
 *
 * Programs include this after the kernel API headers; nothing here reaches
 * into a ring implementation's private state, so everything works the same
 * against a kernel tree's ring code (make KSRC=...).
 */
#ifndef RIG_HARNESS_H
#define RIG_HARNESS_H

#include "harness/outcome.h"
#include "harness/cli.h"
#include "harness/text.h"
#include "harness/machine.h"
#include "harness/chan.h"
#include "harness/queue.h"
#include "harness/host.h"

#endif /* RIG_HARNESS_H */
