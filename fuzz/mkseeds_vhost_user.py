#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus fuzz/corpus/fuzz_vhost_user/ (the files are in the
tree; run this only after changing the input format described at the top
of fuzz/fuzz_vhost_user.c).  Each seed is a frontend's session: a handshake
that sets up real rings in the shared memory, plus requests on them."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'corpus', 'fuzz_vhost_user')

GPA, UVA, MEM = 0x20000000, 0x10000000, 64 << 10
V1, IND, EVT, PROTO, PACKED, IN_ORDER = 1 << 32, 1 << 28, 1 << 29, 1 << 30, 1 << 34, 1 << 35
(GET_FEATURES, SET_FEATURES, SET_OWNER, RESET_OWNER, SET_MEM_TABLE) = (1, 2, 3, 4, 5)
(SET_VRING_NUM, SET_VRING_ADDR, SET_VRING_BASE, GET_VRING_BASE, SET_VRING_KICK,
 SET_VRING_CALL) = (8, 9, 10, 11, 12, 13)
GET_PROTOCOL_FEATURES, SET_PROTOCOL_FEATURES, SET_VRING_ENABLE = 15, 16, 18
GET_CONFIG, SET_STATUS, GET_STATUS = 24, 39, 40


def msg(req, payload=b'', nfds=0, flags=1):
    return struct.pack('<BIII', nfds, req, flags, len(payload)) + payload


def u64(v): return struct.pack('<Q', v)
def state(i, n): return struct.pack('<II', i, n)


def table(n=1, size=MEM):
    p = struct.pack('<II', n, 0)
    for i in range(n):
        p += struct.pack('<QQQQ', GPA, size, UVA, 0)
    return msg(SET_MEM_TABLE, p, nfds=n)


def ring(q, num, desc, avail, used, base=0):
    return (msg(SET_VRING_NUM, state(q, num)) + msg(SET_VRING_BASE, state(q, base)) +
            msg(SET_VRING_ADDR, struct.pack('<IIQQQQ', q, 0, UVA + desc, UVA + used,
                                            UVA + avail, 0)) +
            msg(SET_VRING_CALL, u64(q), nfds=1) + msg(SET_VRING_KICK, u64(q), nfds=1) +
            msg(SET_VRING_ENABLE, state(q, 1)))


def hello(features, proto):
    return (msg(SET_OWNER) + msg(GET_FEATURES) + msg(SET_FEATURES, u64(features | PROTO)) +
            msg(GET_PROTOCOL_FEATURES) + msg(SET_PROTOCOL_FEATURES, u64(proto)))


class Mem:
    def __init__(self):
        self.b = bytearray(0x8000)

    def put(self, off, data):
        self.b[off:off + len(data)] = data

    def split_desc(self, ring_off, i, addr, ln, flags, nxt):
        self.put(ring_off + 16 * i, struct.pack('<QIHH', GPA + addr, ln, flags, nxt))

    def packed_desc(self, ring_off, i, addr, ln, bid, flags):
        self.put(ring_off + 16 * i, struct.pack('<QIHH', GPA + addr, ln, bid, flags))

    def avail(self, off, heads):
        self.put(off, struct.pack('<HH', 0, len(heads)) +
                 b''.join(struct.pack('<H', h) for h in heads))


def seed(name, device, mem, msgs):
    data = struct.pack('<BH', device, len(mem)) + bytes(mem) + msgs
    with open(os.path.join(OUT, name), 'wb') as f:
        f.write(data)


NEXT, WRITE, INDIRECT = 1, 2, 4
AVAIL, USED = 1 << 7, 1 << 15


def blk_split(name, features, req_type=0):
    m = Mem()
    # desc at 0, avail at 0x100, used at 0x1000, buffers from 0x2000
    m.split_desc(0, 0, 0x2000, 16, NEXT, 1)
    m.split_desc(0, 1, 0x3000, 512, NEXT | WRITE, 2)
    m.split_desc(0, 2, 0x4000, 1, WRITE, 0)
    m.put(0x2000, struct.pack('<IIQ', req_type, 0, 1))
    m.avail(0x100, [0])
    s = (hello(features, (1 << 9) | (1 << 3)) + table() + ring(0, 8, 0, 0x100, 0x1000) +
         msg(GET_CONFIG, struct.pack('<III', 0, 24, 0) + bytes(24)) +
         msg(GET_VRING_BASE, state(0, 0)))
    seed(name, 0, m.b, s)


def blk_indirect():
    m = Mem()
    m.split_desc(0, 0, 0x5000, 48, INDIRECT, 0)
    m.split_desc(0x5000, 0, 0x2000, 16, NEXT, 1)
    m.split_desc(0x5000, 1, 0x3000, 512, NEXT, 2)
    m.split_desc(0x5000, 2, 0x4000, 1, WRITE, 0)
    m.put(0x2000, struct.pack('<IIQ', 1, 0, 3))
    m.avail(0x100, [0])
    s = hello(V1 | IND | EVT, 1 << 9) + table() + ring(0, 8, 0, 0x100, 0x1000)
    seed('blk-split-indirect-write', 0, m.b, s)


def blk_packed(name, features):
    m = Mem()
    m.packed_desc(0, 0, 0x2000, 16, 0, NEXT | AVAIL)
    m.packed_desc(0, 1, 0x3000, 512, 0, NEXT | WRITE | AVAIL)
    m.packed_desc(0, 2, 0x4000, 1, 0, WRITE | AVAIL)
    m.put(0x2000, struct.pack('<IIQ', 0, 0, 2))
    s = (hello(features, 1 << 9) + table() + ring(0, 8, 0, 0x1000, 0x1004, 0x80008000) +
         msg(GET_VRING_BASE, state(0, 0)))
    seed(name, 0, m.b, s)


def net_split(name, features):
    m = Mem()
    # rx: desc 0, avail 0x100, used 0x1000; tx: desc 0x2000, avail 0x2100, used 0x3000
    m.split_desc(0, 0, 0x4000, 2048, WRITE, 0)
    m.avail(0x100, [0])
    m.split_desc(0x2000, 0, 0x5000, 12 + 60, 0, 0)
    m.avail(0x2100, [0])
    m.put(0x5000 + 12, bytes(range(60)))
    s = (hello(features, 1 << 3) + table() + ring(0, 8, 0, 0x100, 0x1000) +
         ring(1, 8, 0x2000, 0x2100, 0x3000) + msg(GET_VRING_BASE, state(1, 0)))
    seed(name, 1, m.b, s)


def hostile():
    nine = struct.pack('<II', 9, 0) + struct.pack('<QQQQ', GPA, MEM, UVA, 0) * 8
    seed('hostile-9-regions', 0, b'', hello(V1, 0) + msg(SET_MEM_TABLE, nine, nfds=8))
    wrap = struct.pack('<II', 1, 0) + struct.pack('<QQQQ', GPA, MEM, UVA, 2**64 - 4096)
    seed('hostile-wrap', 0, b'', hello(V1, 0) + msg(SET_MEM_TABLE, wrap, nfds=1))
    seed('hostile-ring-outside', 0, b'', hello(V1, 0) + table() +
         msg(SET_VRING_ADDR, struct.pack('<IIQQQQ', 0, 0, UVA + MEM, UVA, UVA, 0)))
    seed('reset-and-again', 0, b'', hello(V1, 0) + table() + msg(RESET_OWNER) +
         hello(V1, 0) + table())


def edges():
    """Each bound at its edge: the largest value accepted, and one past it."""
    eighth = MEM // 8
    eight = struct.pack('<II', 8, 0) + b''.join(
        struct.pack('<QQQQ', GPA + i * eighth, eighth, UVA + i * eighth, i * eighth)
        for i in range(8))
    seed('edge-8-regions', 0, b'', hello(V1, 0) + msg(SET_MEM_TABLE, eight, nfds=8))
    past = struct.pack('<II', 1, 0) + struct.pack('<QQQQ', GPA, MEM + 1, UVA, 0)
    seed('edge-region-past-fd', 0, b'', hello(V1, 0) + msg(SET_MEM_TABLE, past, nfds=1))
    for num in (32768, 32769):
        seed('edge-ring-size-%d' % num, 0, b'', hello(V1, 0) + table() +
             msg(SET_VRING_NUM, state(0, num)))
    seed('edge-ring-at-last-byte', 0, b'', hello(V1, 0) + table() +
         msg(SET_VRING_ADDR, struct.pack('<IIQQQQ', 0, 0, UVA + MEM - 1, UVA, UVA, 0)))
    # A blk request whose status descriptor ends at the last byte of
    # memory, and one a byte longer.
    for name, ln in (('edge-status-at-memory-end', 1), ('edge-status-past-memory-end', 2)):
        m = Mem()
        m.split_desc(0, 0, 0x2000, 16, NEXT, 1)
        m.split_desc(0, 1, MEM - 1, ln, WRITE, 0)
        m.put(0x2000, struct.pack('<IIQ', 8, 0, 0))
        m.avail(0x100, [0])
        seed(name, 0, m.b, hello(V1, 0) + table() + ring(0, 8, 0, 0x100, 0x1000) +
             msg(GET_VRING_BASE, state(0, 0)))


os.makedirs(OUT, exist_ok=True)
blk_split('blk-split-read', V1 | IND | EVT)
blk_split('blk-split-getid', V1, req_type=8)
blk_split('blk-split-flush-inorder', V1 | IN_ORDER, req_type=4)
blk_indirect()
blk_packed('blk-packed-read', V1 | PACKED | EVT)
net_split('net-split-loopback', V1 | EVT)
hostile()
edges()
