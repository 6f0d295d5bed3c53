#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpora fuzz/corpus/TARGET/ (the files are in the tree;
run this only after changing an input format).  Each seed is a readable
program for its target: see the layouts in fuzz/fuzz_vringh.c (setup() and
the op_* functions) and fuzz/fuzz_virtqueue.c."""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def u8(v): return struct.pack('<B', v & 0xff)
def u16(v): return struct.pack('<H', v & 0xffff)
def u32(v): return struct.pack('<I', v & 0xffffffff)
def u64(v): return struct.pack('<Q', v & 0xffffffffffffffff)


# ---- fuzz_vringh ----
(GETDESC, PULL, PUSH, COMPLETE, COMPLETE_MULTI, ABANDON, NOTIFY_ENABLE,
 NOTIFY_DISABLE, NEED_NOTIFY, MODEL_ADD, MODEL_FLAGS, POKE16, POKE_DESC,
 POKE_G, IOV_RESET, ADVANCE, CLEANUP, FAIL_ALLOC, COMPLETE_BATCH) = range(19)

INDIRECT, EVENT_IDX, VERSION_1, KERN, SLOW = 1, 2, 4, 8, 0x10
IOTLB = KERN | 0xe0     # the IOTLB accessors: maps cut where the ranges start and end
GBASE = 0x10000


def h_setup(cfg, numlog, rcap=2, wcap=2, ranges=((0, 0x4000),), gdata=b'',
            goff=0, ring=b'', nulls=0, in_order=False):
    b = u8(cfg) + u8(numlog) + u8(rcap | wcap << 3 | nulls << 6)
    b += u8(len(ranges) | (0x80 if in_order else 0))
    for a, l in ranges:
        b += u16(a) + u16(l - 1)
    b += u16(len(ring)) + ring
    b += u16(goff) + u16(len(gdata)) + gdata
    return b


def h_add(segs, nread, indirect=False, toff=0x3000, tsel=0, rot=0):
    """segs: (range selector, offset, len) each."""
    b = u8((len(segs) - 1) | (0x80 if indirect else 0))
    b += u16(toff) + u16(tsel) + u8(nread)
    for sel, off, ln in segs:
        b += u16(sel) + u16(off) + u8(ln)
    if indirect:
        b += u8(rot)
    b += u16(0)
    return u8(MODEL_ADD) + b


def h_roundtrip(cfg, numlog=3, **kw):
    data = bytes((i * 13 + 5) & 0xff for i in range(512))
    ops = h_add([(0, 0x100, 40), (0, 0x140, 24), (0, 0x800, 64)], 2)
    ops += h_add([(0, 0x200, 16), (0, 0x220, 100), (0, 0x300, 8), (0, 0x900, 30)],
                 1, indirect=True, rot=1)
    ops += h_add([(0, 0x400, 1)], 1)
    ops += u8(MODEL_FLAGS) + u8(0) + u16(2)      # used_event = 2
    for _ in range(3):
        ops += u8(GETDESC) + u8(PULL) + u16(13) + u8(PULL) + u16(200)
        ops += u8(PUSH) + u16(50) + u8(7) + u8(PUSH) + u16(300) + u8(9)
        ops += u8(IOV_RESET) + u8(0) + u8(PULL) + u16(4000)
        ops += u8(COMPLETE) + u8(0) + u32(50) + u8(NEED_NOTIFY)
    ops += u8(GETDESC) + u8(NOTIFY_ENABLE) + u8(NOTIFY_DISABLE)
    ops += h_add([(0, 0x10, 10), (0, 0x20, 10)], 1)
    ops += u8(NOTIFY_ENABLE) + u8(GETDESC) + u8(ABANDON) + u8(1) + u8(GETDESC)
    ops += u8(COMPLETE_MULTI) + u8(1) + u8(0) + u16(3) + u8(NEED_NOTIFY)
    return h_setup(cfg, numlog, gdata=data, goff=0x100, **kw) + ops


def vringh_seeds():
    seeds = {}
    seeds['user-roundtrip'] = h_roundtrip(INDIRECT | EVENT_IDX | VERSION_1)
    seeds['user-legacy-roundtrip'] = h_roundtrip(INDIRECT, numlog=1)
    seeds['kern-roundtrip'] = h_roundtrip(KERN | EVENT_IDX | VERSION_1, numlog=4)
    seeds['user-slow-ranges'] = h_roundtrip(
        SLOW | EVENT_IDX, numlog=5, rcap=0, wcap=1,
        ranges=((0, 0x180), (0x180, 0x100), (0x200, 0x3e00)))
    seeds['user-fail-alloc'] = (h_roundtrip(VERSION_1, rcap=0, wcap=0)
                                + u8(FAIL_ALLOC) + u8(0) + u8(GETDESC))
    seeds['kern-advance'] = (h_roundtrip(KERN, rcap=1, wcap=1)
                             + h_add([(0, 0x40, 20), (0, 0x80, 20)], 1)
                             + u8(GETDESC) + u8(ADVANCE) + u8(0) + u16(5)
                             + u8(PULL) + u16(30) + u8(ADVANCE) + u8(1) + u16(3)
                             + u8(PUSH) + u16(40) + u8(1) + u8(CLEANUP) + u8(0x09))
    # Hostile guests: hand-made descriptors, as tests/hostile does.
    def desc(i, addr, ln, flags, nxt):
        return u8(POKE_DESC) + u8(i) + u64(addr) + u32(ln) + u16(flags) + u16(nxt)

    def offer(head, idx):
        # avail ring starts at 16 * num; ring[0] at +4, idx at +2 (num 8)
        return u8(POKE16) + u16(16 * 8 + 4 + 2 * (idx % 8)) + u16(head) + \
            u8(POKE16) + u16(16 * 8 + 2) + u16(idx + 1)
    base = h_setup(INDIRECT | VERSION_1, 3, ring=b'\0' * 2)
    seeds['hostile-loop'] = (base + desc(0, 0x120, 8, 1, 1) + desc(1, 0x220, 8, 1, 0)
                             + offer(0, 0) + u8(GETDESC) + u8(GETDESC))
    seeds['hostile-next-range'] = base + desc(0, 0x100, 8, 1, 9) + offer(0, 0) + u8(GETDESC)
    seeds['hostile-nested'] = (base + desc(0, 0x1000 + 32, 32, 4, 0)
                               + u8(POKE_G) + u16(0x1000) + u8(16)
                               + u64(GBASE + 0x1100) + u32(16) + u16(4) + u16(0)
                               + offer(0, 0) + u8(GETDESC))
    seeds['hostile-write-then-read'] = (base + desc(0, 0x100, 8, 3, 1) + desc(1, 0x200, 8, 0, 0)
                                        + offer(0, 0) + u8(GETDESC))
    seeds['hostile-head-range'] = base + offer(12, 0) + u8(GETDESC)
    seeds['hostile-avail-jump'] = base + u8(POKE16) + u16(16 * 8 + 2) + u16(30) + u8(GETDESC)
    seeds['hostile-outside-window'] = h_setup(0xe0 | VERSION_1, 3) + \
        u8(GETDESC) + u8(COMPLETE) + u8(0xff) + u16(1) + u32(0) + \
        u8(NEED_NOTIFY) + u8(NOTIFY_ENABLE) + u8(NOTIFY_DISABLE)
    seeds['hostile-no-iovs'] = h_setup(0x20, 3, nulls=3) + \
        h_add([(0, 0x100, 4)], 1) + u8(GETDESC)
    # Each bound at its edge (num 8): the largest value accepted, and the
    # first refused.
    seeds['edge-next-at-num'] = base + desc(0, 0x100, 8, 1, 8) + offer(0, 0) + u8(GETDESC)
    seeds['edge-next-last'] = (base + desc(0, 0x100, 8, 1, 7) + desc(7, 0x200, 8, 0, 0)
                               + offer(0, 0) + u8(GETDESC))
    seeds['edge-head-at-num'] = base + offer(8, 0) + u8(GETDESC)
    seeds['edge-head-last'] = base + desc(7, 0x200, 8, 0, 0) + offer(7, 0) + u8(GETDESC)
    seeds['edge-avail-one-past'] = (base + u8(POKE16) + u16(16 * 8 + 2) + u16(9)
                                    + u8(GETDESC))
    full = base + b''.join(desc(i, 0x100 + 16 * i, 8, 0, 0) + offer(i, i) for i in range(8))
    seeds['edge-avail-full'] = full + u8(GETDESC) * 9
    chain = base + b''.join(desc(i, 0x100 + 16 * i, 8, 1, i + 1) for i in range(7))
    seeds['edge-chain-whole-ring'] = chain + desc(7, 0x200, 8, 0, 0) + offer(0, 0) + u8(GETDESC)
    seeds['edge-chain-one-more'] = chain + desc(7, 0x200, 8, 1, 0) + offer(0, 0) + u8(GETDESC)
    # Packed rings (numsel bit 7): flag 0x40 in POKE_DESC means "available
    # in the driver's current lap" (the target sets AVAIL/USED from it).
    def pdesc(i, addr, ln, idn, flags):
        return u8(POKE_DESC) + u8(i) + u64(addr) + u32(ln) + u16(flags | 0x40) + u16(idn)
    pbase = h_setup(VERSION_1 | EVENT_IDX, 0x80 | 7, ring=b'\0' * 2)
    seeds['packed-roundtrip'] = (
        pbase + pdesc(0, 0x120, 8, 3, 0) + u8(GETDESC) + u8(PULL) + u16(8)
        + pdesc(1, 0x220, 8, 0, 1) + pdesc(2, 0x320, 16, 5, 2) + u8(GETDESC)
        + u8(PUSH) + u16(10) + u8(1) + u8(COMPLETE) + u8(1) + u32(10)
        + u8(COMPLETE) + u8(0) + u32(0) + u8(NEED_NOTIFY) + u8(NOTIFY_ENABLE)
        + u8(MODEL_FLAGS) + u8(1) + u16(2) + u8(NEED_NOTIFY) + u8(NOTIFY_DISABLE))
    seeds['packed-indirect'] = (
        pbase + u8(POKE_G) + u16(0x1000) + u8(32)
        + u64(GBASE + 0x100) + u32(8) + u16(0) + u16(0)
        + u64(GBASE + 0x200) + u32(8) + u16(0) + u16(2)
        + pdesc(0, 0x1000 + 32, 32, 4, 4) + u8(GETDESC) + u8(ABANDON) + u8(1)
        + u8(GETDESC) + u8(COMPLETE_MULTI) + u8(1) + u8(0) + u16(3))
    seeds['packed-model-user'] = h_roundtrip(EVENT_IDX | VERSION_1, numlog=0x80 | 9)
    seeds['packed-model-kern'] = h_roundtrip(KERN | VERSION_1, numlog=0x80 | 5, rcap=0)
    seeds['packed-model-slow'] = h_roundtrip(SLOW, numlog=0x80 | 12, rcap=1, wcap=0,
                                             ranges=((0, 0x300), (0x300, 0x3d00)))
    # VIRTIO_F_IN_ORDER (rsel bit 7): chains in ring order, batched completions.
    def in_order(cfg, numlog):
        b = h_setup(cfg, numlog, in_order=True)
        for i in range(3):
            b += h_add([(0, 0x100 * (i + 1), 20), (0, 0x100 * (i + 1) + 40, 20)], 1)
        b += u8(GETDESC) + u8(GETDESC) + u8(COMPLETE_BATCH) + u8(2) + u8(1) + u32(20)
        b += u8(NEED_NOTIFY) + u8(GETDESC) + u8(ABANDON) + u8(1) + u8(GETDESC)
        b += u8(COMPLETE) + u8(0) + u32(0) + u8(COMPLETE_BATCH) + u8(1) + u8(0) + u32(5)
        return b
    seeds['in-order-split'] = in_order(EVENT_IDX | VERSION_1, 3)
    seeds['in-order-packed'] = in_order(VERSION_1, 0x80 | 9)
    # IOTLB accessors: the ring and guest memory as maps cut at odd bytes,
    # through descriptors, buffers, ring words and used elements.
    cuts = ((0x101, 0x33), (0x80b, 0x777), (0x139, 0x2c7))
    seeds['iotlb-roundtrip'] = h_roundtrip(IOTLB | INDIRECT | EVENT_IDX | VERSION_1,
                                           ranges=cuts)
    seeds['iotlb-packed'] = h_roundtrip(IOTLB | EVENT_IDX | VERSION_1, numlog=0x80 | 5,
                                        ranges=cuts)
    seeds['packed-kern'] = (h_setup(KERN, 0x80 | 4, ring=b'\0' * 2)
                            + pdesc(0, 0x120, 8, 1, 0) + u8(GETDESC) + u8(COMPLETE) + u8(0) + u32(0))
    return seeds


# ---- fuzz_virtqueue ----
V_IND, V_EVT, V_V1, V_CTX, V_CB, V_CREATE, V_REDUCE, V_ORDER = (
    1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80)
ADD, KICK, GET, CB, USE, EVENT, LIE, MISC, CHECKB = 0, 2, 3, 5, 6, 8, 9, 10, 11


def v_add(nout, nin, api=0, lens=None, ctx=0):
    b = u8(ADD) + u8(nout | nin << 4) + u8(api)
    n = nout + nin
    for i in range(n):
        b += u16(64 * i + 8) + u8((lens or [16] * n)[i])
    if api == 3:
        b += u8(ctx)
    return b


def v_roundtrip(cfg, sel=3, cfg2=0):
    b = u8(cfg) + u8(sel) + u8(cfg2)
    b += v_add(1, 1) + v_add(2, 0, api=1) + v_add(0, 3, api=2)
    b += v_add(0, 1, api=3, ctx=5) + v_add(3, 2)
    b += u8(KICK) + u8(0) + u8(EVENT) + u8(1) + u16(4)
    for i in range(5):
        b += u8(USE) + u8(i) + u32(7 * i)
    b += u8(CB) + u8(4) + u8(CB) + u8(1)
    for i in range(3):
        b += u8(GET) + u8(1)
    b += u8(CB) + u8(0) + u8(CB) + u8(2) + u8(CB) + u8(3)
    b += u8(GET) + u8(0) + u8(GET) + u8(1) + u8(GET) + u8(0)
    b += v_add(1, 0) + u8(KICK) + u8(3)
    return b


def virtqueue_seeds():
    seeds = {}
    seeds['roundtrip'] = v_roundtrip(V_IND | V_EVT | V_V1 | V_CB)
    seeds['roundtrip-legacy'] = v_roundtrip(V_CB, sel=2)
    seeds['roundtrip-ctx'] = v_roundtrip(V_CTX | V_EVT | V_V1, sel=4)
    seeds['created-reset-resize'] = (
        v_roundtrip(V_CREATE | V_REDUCE | V_IND | V_EVT | V_CB, sel=0x35)
        + u8(MISC) + u8(0x20) + u8(0x00)             # reset
        + v_add(1, 1) + u8(MISC) + u8(0x20) + u8(0x03)  # resize to 2
        + v_add(2, 2) + u8(MISC) + u8(0x48)          # fail the 1st allocation
        + v_add(2, 2) + u8(MISC) + u8(0x20) + u8(0x09)  # resize to 16
        + u8(MISC) + u8(0x20) + u8(0x40))            # reset refused
    # Packed rings (sel bit 7): the same programs.
    seeds['packed-roundtrip'] = v_roundtrip(V_IND | V_EVT | V_CB, sel=0x80 | 7)
    seeds['packed-roundtrip-direct'] = v_roundtrip(V_CB, sel=0x80 | 3)
    seeds['packed-created-reset'] = (
        v_roundtrip(V_CREATE | V_IND | V_EVT | V_CB, sel=0x80 | 0x23)
        + u8(MISC) + u8(0x20) + u8(0x00) + v_add(1, 1) + u8(USE) + u8(0) + u32(3)
        + u8(GET) + u8(0) + u8(MISC) + u8(0x20) + u8(0x05))
    seeds['packed-lie'] = (u8(V_IND) + u8(0x80 | 4) + u8(0) + v_add(0, 2) + v_add(1, 0)
                           + u8(LIE) + u8(0) + u8(0) + u16(0) + u32(900) + u8(1)
                           + u8(GET) + u8(0) + u8(CHECKB))
    # VIRTIO_F_IN_ORDER (third byte, bit 0): USE picks with bit 7 set are
    # batches of the oldest buffers, answered by one used entry.
    def v_inorder(cfg, sel):
        b = u8(cfg) + u8(sel) + u8(1)
        for i in range(6):
            b += v_add(1 + i % 2, i % 3)
        b += u8(KICK) + u8(0)
        b += u8(USE) + u8(0) + u32(5) + u8(USE) + u8(0x82) + u32(9)
        for i in range(4):
            b += u8(GET) + u8(1)
        b += u8(CB) + u8(4) + u8(USE) + u8(0x81) + u32(2)
        b += u8(GET) + u8(0) + u8(GET) + u8(0) + u8(CB) + u8(1)
        b += v_add(2, 1) + u8(USE) + u8(0) + u32(1) + u8(GET) + u8(0)
        return b
    seeds['in-order-batches'] = v_inorder(V_IND | V_EVT | V_V1 | V_CB, 3)
    seeds['in-order-batches-direct'] = v_inorder(V_CB, 4)
    seeds['in-order-packed'] = v_inorder(V_IND | V_EVT | V_CB, 0x80 | 9)
    seeds['in-order-packed-direct'] = v_inorder(V_CB, 0x80 | 12)
    # Lying devices, as tests/hostile's guest cases.
    lie = u8(V_IND | V_V1) + u8(3) + u8(0) + v_add(0, 1) + v_add(1, 0)
    seeds['lie-id-range'] = lie + u8(LIE) + u8(0) + u8(0xd0) + u32(70) + u32(0) + u8(GET) + u8(0) + u8(CHECKB)
    seeds['lie-len'] = lie + u8(LIE) + u8(0) + u8(0) + u32(0) + u32(500) + u8(GET) + u8(0) + u8(CHECKB)
    seeds['lie-jump'] = lie + u8(LIE) + u8(1) + u16(100) + u8(GET) + u8(0) + u8(CHECKB)
    # Each bound at its edge (num 8, an in buffer of 16 bytes): id 8, a
    # used length of 16 and 17, the used index 8 and 9 ahead.
    seeds['edge-id-at-num'] = lie + u8(LIE) + u8(0) + u8(0xd0) + u32(8) + u32(0) + u8(GET) + u8(0) + u8(CHECKB)
    seeds['edge-len-whole'] = lie + u8(LIE) + u8(0) + u8(0) + u32(0) + u32(16) + u8(GET) + u8(0) + u8(CHECKB)
    seeds['edge-len-one-more'] = lie + u8(LIE) + u8(0) + u8(0) + u32(0) + u32(17) + u8(GET) + u8(0) + u8(CHECKB)
    seeds['edge-jump-full'] = lie + u8(LIE) + u8(1) + u16(8) + u8(GET) + u8(0) + u8(CHECKB)
    seeds['edge-jump-one-past'] = lie + u8(LIE) + u8(1) + u16(9) + u8(GET) + u8(0) + u8(CHECKB)
    # Packed (sel 0x84: 1 << (0x84 % 7), a ring of 64): id 64.
    seeds['edge-packed-id-at-num'] = (u8(V_IND) + u8(0x84) + u8(0) + v_add(0, 2) + v_add(1, 0)
                                      + u8(LIE) + u8(0) + u8(0xd0) + u16(64) + u32(0) + u8(1)
                                      + u8(GET) + u8(0) + u8(CHECKB))
    seeds['lie-scribble'] = (lie + u8(LIE) + u8(3) + u16(0) + u8(15) + bytes(range(1, 16))
                             + u8(USE) + u8(0) + u32(0) + u8(GET) + u8(0) + u8(MISC) + u8(0))
    seeds['notify-fails'] = (u8(V_EVT) + u8(2) + u8(0) + u8(MISC) + u8(0x30) + v_add(1, 0)
                             + u8(KICK) + u8(0) + u8(CHECKB) + u8(MISC) + u8(0))
    return seeds


def main():
    for target, seeds in (('fuzz_vringh', vringh_seeds()),
                          ('fuzz_virtqueue', virtqueue_seeds())):
        d = os.path.join(HERE, 'corpus', target)
        os.makedirs(d, exist_ok=True)
        for name, blob in seeds.items():
            with open(os.path.join(d, name), 'wb') as f:
                f.write(blob)
        print(f'{target}: {len(seeds)} seeds, {sum(map(len, seeds.values()))} bytes',
              file=sys.stderr)


main()
