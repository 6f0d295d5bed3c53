// SPDX-License-Identifier: GPL-2.0
/*
 * vhost_dev: a vhost-user device served by the rig's vringh (or, built with
 * HOST=kernel, a kernel tree's): a virtio-blk disk or a virtio-net port for
 * QEMU guests and DPDK's virtio-user.  See --help.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/virtio_config.h>
#include "harness/harness.h"
#include "vhost-user/backend/dev_models.h"
#include "vhost-user/backend/dev_torture.h"

static const char usage_text[] =
"Usage: vhost_dev --socket=PATH --type=blk|net [options]\n"
"Serve one vhost-user frontend at a time on PATH (listening, or --connect).\n"
"  --socket=PATH       the unix socket\n"
"  --connect           connect to a frontend listening on PATH\n"
"  --type=blk|net      the device\n"
"  --conns=N           exit after N frontends have come and gone (default: never)\n"
"  --no-indirect, --no-event-idx, --no-packed, --no-in-order\n"
"                      do not offer that ring feature\n"
"  --print-features    print the feature bits offered and exit\n"
"  --torture=CASE      serve correctly, then break one device-side rule of the\n"
"                      virtio spec once --torture-after=N buffers (default 64)\n"
"                      were used; prints \"torture: CASE: done ...\" when it\n"
"                      does, \"torture: CASE: never done\" at exit if not\n"
"  --list              print the torture cases, one per line, and exit\n"
"  --queues=N          offer at most N (1 to 16, default 16: as many as a\n"
"                      frontend may ask for; it runs those it sets up)\n"
"                      blk: N request queues (VIRTIO_BLK_F_MQ and\n"
"                      num_queues in the config space when N > 1); net: N\n"
"                      queue pairs (when N > 1 VIRTIO_NET_F_MQ,\n"
"                      max_virtqueue_pairs N and a control queue, index 2N)\n"
"  --version, -h, --help\n"
"blk: --disk=FILE (served in place, size a multiple of 512) or --size=BYTES\n"
"     (in memory, zeroed); --id=STRING (GET_ID, default \"rig-vhost-blk\");\n"
"     --queue-size=N (what seg_max assumes, default 128); --hold-after=N: once\n"
"     N requests were served, hold every other request taken, up to 4, never\n"
"     completing them (\"blk: holding N requests in flight ...\"; for restart\n"
"     tests, which then kill it: the next vhost_dev resubmits them)\n"
"net: --net=loopback|sink|source (default loopback: each transmitted frame\n"
"     comes back on the receive queue); source: --frames=N frames (default\n"
"     1000000) sent on the receive queue with --window=N in flight (default\n"
"     128), each checked when the driver sends it back\n"
"Prints \"listening on PATH\" once ready; per frontend one line \"frontend: N\n"
"messages, N errors, features 0x..., N SET_STATUS, N regions, N kicks, N\n"
"calls\" (the bits it acked, the most memory regions a table had, the\n"
"notifications each way); at exit the device's counters\n"
"and \"cpu: user S s, system S s\".  A protocol error prints one line\n"
"\"vhost-user: REQUEST: why\" and drops the frontend.\n"
"Exit status: 0; 1 on a socket error; 2 on a usage error.\n";

static void usage(void)
{
	fputs(usage_text, stdout);
}

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

int main(int argc, char **argv)
{
	/* Our options' values: 1 up, below '?' and 'h' (getopt's, and -h). */
	enum { O_SOCKET = 1, O_CONNECT, O_TYPE, O_CONNS, O_PRINT, O_DISK, O_SIZE, O_ID, O_QSIZE, O_HOLD,
	       O_NET, O_FRAMES, O_WINDOW, O_QUEUES, O_TORTURE, O_AFTER, O_LIST, O_COUNT };
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, O_SOCKET },
		{ "connect", no_argument, NULL, O_CONNECT },
		{ "type", required_argument, NULL, O_TYPE },
		{ "conns", required_argument, NULL, O_CONNS },
		RIG_FEATURE_OFF_OPTION("no-indirect", VIRTIO_RING_F_INDIRECT_DESC),
		RIG_FEATURE_OFF_OPTION("no-event-idx", VIRTIO_RING_F_EVENT_IDX),
		RIG_FEATURE_OFF_OPTION("no-packed", VIRTIO_F_RING_PACKED),
		RIG_FEATURE_OFF_OPTION("no-in-order", VIRTIO_F_IN_ORDER),
		{ "print-features", no_argument, NULL, O_PRINT },
		{ "disk", required_argument, NULL, O_DISK },
		{ "size", required_argument, NULL, O_SIZE },
		{ "id", required_argument, NULL, O_ID },
		{ "queue-size", required_argument, NULL, O_QSIZE },
		{ "hold-after", required_argument, NULL, O_HOLD },
		{ "net", required_argument, NULL, O_NET },
		{ "frames", required_argument, NULL, O_FRAMES },
		{ "window", required_argument, NULL, O_WINDOW },
		{ "queues", required_argument, NULL, O_QUEUES },
		{ "torture", required_argument, NULL, O_TORTURE },
		{ "torture-after", required_argument, NULL, O_AFTER },
		{ "list", no_argument, NULL, O_LIST },
		RIG_VERSION_OPTION,
		RIG_HELP_OPTION,
		{ NULL, 0, NULL, 0 }
	};
	const char *sock = NULL, *type = NULL, *disk = NULL, *netmode = NULL;
	unsigned long conns = 0, size = 0, qsize = 128, frames = 1000000, window = 128;
	unsigned long queues = NET_MAX_PAIRS;
	bool connect_mode = false, print = false;
	bool seen[O_COUNT] = { false };	/* which of our options were given */
	u64 features = (1ull << VIRTIO_F_VERSION_1) |
		(1ull << VIRTIO_RING_F_INDIRECT_DESC) | (1ull << VIRTIO_RING_F_EVENT_IDX);
	static struct blk_model blk = { .fd = -1, .id = "rig-vhost-blk" };
	static struct net_model net;
	static struct dev_torture torture = { .after = 64 };
	struct vub_device dev;
	struct vub vub;
	static const char *const net_mode_name[] = {
		[NET_LOOPBACK] = "loopback", [NET_SINK] = "sink", [NET_SOURCE] = "source",
	};
	const struct rig_getopt common = { .prog = "vhost_dev", .usage = usage, .features = &features };
	const struct rig_number_opt numbers[] = {
		RIG_NUMBER_OPT(O_CONNS, conns, 1, 1000000),
		RIG_NUMBER_OPT(O_QSIZE, qsize, 4, 32768),
		RIG_NUMBER_OPT(O_HOLD, blk.hold_after, 1, 1ul << 40),
		RIG_NUMBER_OPT(O_FRAMES, frames, 1, 1ul << 40),
		RIG_NUMBER_OPT(O_WINDOW, window, 1, 32768),
		RIG_NUMBER_OPT(O_QUEUES, queues, 1, NET_MAX_PAIRS),
		RIG_NUMBER_OPT(O_AFTER, torture.after, 0, 1ul << 40),
	};
	unsigned long served = 0;
	int c, err, mode;

#ifdef vringh_init_packed_user
	features |= 1ull << VIRTIO_F_RING_PACKED;
#endif
#ifdef vringh_complete_batch_user
	features |= 1ull << VIRTIO_F_IN_ORDER;
#endif
	opterr = 0;	/* one line of our own instead */
	while ((c = rig_getopt(argc, argv, opts, &common)) != -1) {
		if (c > 0 && c < O_COUNT)
			seen[c] = true;
		switch (c) {
		case O_SOCKET: sock = optarg; break;
		case O_CONNECT: connect_mode = true; break;
		case O_TYPE: type = optarg; break;
		case O_PRINT: print = true; break;
		case O_DISK: disk = optarg; break;
		case O_SIZE:
			if (!rig_parse_ulong(optarg, 512, 1ul << 40, &size) || size % 512)
				rig_usage_error("--size=%s: not a multiple of 512 from 512 to 2^40", optarg);
			break;
		case O_ID:
			if (strlen(optarg) > 20)
				rig_usage_error("--id=%s: longer than 20 bytes", optarg);
			blk.id = optarg;
			break;
		case O_NET: netmode = optarg; break;
		case O_TORTURE:
			torture.c = dev_torture_find(optarg);
			if (!torture.c)
				rig_usage_error("--torture=%s: no such case (--list names them)", optarg);
			break;
		case O_LIST: dev_torture_list(stdout); return 0;
		default:
			if (rig_number_option(c, numbers, ARRAY_SIZE(numbers), opts))
				break;
			/* what getopt refused */
			rig_usage_error("unknown option, or one missing its value: %s",
					argv[optind - 1]);
		}
	}
	if (optind < argc)
		rig_usage_error("unexpected argument \"%s\"", argv[optind]);
	if (!type || (strcmp(type, "blk") && strcmp(type, "net")))
		rig_usage_error("--type=%s: blk or net", type ? type : "(missing)");
	if (seen[O_AFTER] && !torture.c)
		rig_usage_error("--torture-after needs --torture=CASE");
	if (torture.c && torture.c->ring == DT_CONFIG && strncmp(torture.c->name, type, 3))
		rig_usage_error("--torture=%s: a config case of the other device type", torture.c->name);
	if (torture.c && torture.c->ring == DT_CONFIG && seen[O_AFTER])
		rig_usage_error("--torture=%s: config lies from the start; --torture-after does not apply",
				torture.c->name);
	if (print) {
		printf("features 0x%llx\n", (unsigned long long)features);
		return 0;
	}
	if (!sock)
		rig_usage_error("--socket=PATH is required");
	if (!strcmp(type, "blk")) {
		if (netmode || seen[O_FRAMES] || seen[O_WINDOW])
			rig_usage_error("--net, --frames and --window are net options");
		if (!disk == !seen[O_SIZE])
			rig_usage_error("blk needs one of --disk=FILE and --size=BYTES");
		if (disk) {
			struct stat st;

			blk.fd = open(disk, O_RDWR);
			if (blk.fd < 0 || fstat(blk.fd, &st))
				rig_usage_error("--disk=%s: cannot open it", disk);
			if (st.st_size <= 0 || st.st_size % 512)
				rig_usage_error("--disk=%s: size is not a positive multiple of 512", disk);
			size = st.st_size;
		}
		blk.size = size;
		blk.disk = mmap(NULL, size, PROT_READ | PROT_WRITE,
				disk ? MAP_SHARED : MAP_PRIVATE | MAP_ANONYMOUS, blk.fd, 0);
		if (blk.disk == MAP_FAILED)
			rig_die("mapping the disk");
		blk.queue_size = qsize;
		blk.queues = queues;
		blk.torture = torture.c ? &torture : NULL;
		blk_model_init(&dev, &blk, features);
	} else {
		if (disk || seen[O_SIZE] || seen[O_ID] || seen[O_QSIZE] || seen[O_HOLD])
			rig_usage_error("--disk, --size, --id, --queue-size and --hold-after are blk options");
		net.mode = NET_LOOPBACK;
		if (netmode) {
			mode = rig_name_index(netmode, net_mode_name, ARRAY_SIZE(net_mode_name));
			if (mode < 0)
				rig_usage_error("--net=%s: loopback, sink or source", netmode);
			net.mode = mode;
		}
		if ((seen[O_FRAMES] || seen[O_WINDOW]) && net.mode != NET_SOURCE)
			rig_usage_error("--frames and --window need --net=source");
		net.frames = frames;
		net.window = window;
		net.pairs = queues;
		net.torture = torture.c ? &torture : NULL;
		if (torture.c && !strcmp(torture.c->name, "net-queue-pairs") && queues < 2)
			rig_usage_error("--torture=net-queue-pairs: the field is there only with MQ, not with --queues=1");
		net_model_init(&dev, &net, features);
		dev_torture_net_config(net.torture, &net.config);
	}

	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */

	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	err = connect_mode ? vub_connect(&vub, &dev, sock) : vub_listen(&vub, &dev, sock);
	if (err) {
		fprintf(stderr, "vhost_dev: %s: %s\n", sock, strerror(-err));
		return 1;
	}
	if (!connect_mode)
		printf("listening on %s\n", sock);
	fflush(stdout);
	while (!stopping) {
		err = vub_serve(&vub);
		/* A Ctrl-C with no frontend since the last: nothing to report. */
		if (err == -EINTR && !vub.messages)
			break;
		served++;
		printf("frontend: %lu messages, %lu errors, features 0x%llx, %u SET_STATUS, %u regions, %lu kicks, %lu calls\n",
		       vub.messages, vub.errors, (unsigned long long)vub.last_features,
		       vub.status_msgs, vub.max_regions, vub.kicks, vub.calls);
		fflush(stdout);
		vub.messages = vub.errors = 0;
		vub.last_features = 0;
		vub.status_msgs = 0;
		vub.max_regions = 0;
		vub.kicks = vub.calls = 0;
		if (err == -EINTR)
			break;
		if (err && err != -EPROTO) {
			fprintf(stderr, "vhost_dev: %s\n", strerror(-err));
			break;
		}
		if (connect_mode || (conns && served >= conns))
			break;
	}
	vub_close(&vub);
	if (!connect_mode)
		unlink(sock);
	if (!strcmp(type, "blk")) {
		printf("blk: reads=%lu writes=%lu flushes=%lu get_id=%lu bytes_read=%llu bytes_written=%llu bad=%lu\n",
		       blk.reads, blk.writes, blk.flushes, blk.ids,
		       (unsigned long long)blk.bytes_read,
		       (unsigned long long)blk.bytes_written, blk.bad);
		if (blk.fd >= 0 && msync(blk.disk, blk.size, MS_SYNC))
			rig_die("msync");
	} else {
		net_model_report(&net, stdout);
	}
	if (torture.c && torture.c->ring != DT_CONFIG && !torture.fired)
		printf("torture: %s: never done (%lu buffers used)\n", torture.c->name, torture.used);
	{
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		printf("cpu: user %.3f s, system %.3f s\n",
		       ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
		       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	}
	return err && err != -EPROTO && err != -EINTR ? 1 : 0;
}
