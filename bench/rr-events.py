#!/usr/bin/env python3
"""Reads qemu 7.2's record/replay log (-icount ...,rr=record,rrfile=F) and
counts its events by kind; with two logs, also finds the first event where
the two executions part (the guest's instruction count there and the events
around it). Every non-deterministic input qemu gave the guest is an event
here: interrupts and exceptions at an instruction count, clock reads
(host, virtual_rt), asynchronous events (bottom halves, input, char reads,
block and network completions), char writes, random bytes, shutdowns.
Usage: rr-events.py LOG [LOG2]"""
import itertools
import struct
import sys

VERSION = 0xE0200C          # qemu 7.2's REPLAY_VERSION
SHUTDOWN_CAUSES = 11        # SHUTDOWN_CAUSE__MAX in qemu 7.2
ASYNC = ["bh", "bh_oneshot", "input", "input_sync", "char_read", "block", "net"]
CHECKPOINTS = ["clock_warp_start", "clock_warp_account", "reset_requested",
               "suspend_requested", "clock_virtual", "clock_host",
               "clock_virtual_rt", "init", "reset"]
CLOCKS = ["host", "virtual_rt"]
E_INSN, E_INT, E_EXC, E_ASYNC = 0, 1, 2, 3
E_SHUT = E_ASYNC + len(ASYNC)
E_CHARW = E_SHUT + SHUTDOWN_CAUSES + 1
E_CHARR, E_CHARR_ERR, E_AOUT, E_AIN, E_RANDOM = range(E_CHARW + 1, E_CHARW + 6)
E_CLOCK = E_RANDOM + 1
E_CKPT = E_CLOCK + len(CLOCKS)
E_END = E_CKPT + len(CHECKPOINTS)


class Bad(Exception):
    pass


class Log:
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.b = f.read()
        self.o = 0
        if len(self.b) < 12:
            raise Bad("%s: shorter than the 12-byte header" % path)
        v = self.u32()
        if v != VERSION:
            raise Bad("%s: offset 0: version %#x, not qemu 7.2's %#x" % (path, v, VERSION))
        self.u64()  # the snapshot's offset (0: none)

    def need(self, n, what):
        if self.o + n > len(self.b):
            raise Bad("%s: offset %d: log ends inside %s" % (self.path, self.o, what))

    def u8(self, what="a byte"):
        self.need(1, what)
        self.o += 1
        return self.b[self.o - 1]

    def u32(self, what="a dword"):
        self.need(4, what)
        self.o += 4
        return struct.unpack(">I", self.b[self.o - 4:self.o])[0]

    def u64(self, what="a qword"):
        self.need(8, what)
        self.o += 8
        return struct.unpack(">Q", self.b[self.o - 8:self.o])[0]

    def array(self, what):
        n = self.u32(what)
        self.need(n, what)
        self.o += n
        return self.b[self.o - n:self.o]

    def events(self):
        """(icount, kind, value) for each event; icount is the guest's
        instruction count where it was logged; value is what the guest
        could see (None for clock values and the like, which a second
        boot may differ in without the guest's execution differing)."""
        icount = 0
        while self.o < len(self.b):
            at = self.o
            e = self.u8()
            if e == E_INSN:
                icount += self.u32("an instruction count")
                continue
            if e == E_INT:
                yield at, icount, "interrupt", None
            elif e == E_EXC:
                yield at, icount, "exception", None
            elif E_ASYNC <= e < E_SHUT:
                k = ASYNC[e - E_ASYNC]
                if k in ("bh", "bh_oneshot", "block"):
                    val = self.u64(k + "'s id")
                elif k == "char_read":
                    val = (self.u8("char_read's device"), self.array("char_read's bytes"))
                elif k == "input_sync":
                    val = None
                else:
                    raise Bad("%s: offset %d: async event %s is not parsed here" % (self.path, at, k))
                yield at, icount, "async_" + k, val
            elif E_SHUT <= e <= E_SHUT + SHUTDOWN_CAUSES:
                yield at, icount, "shutdown_%d" % (e - E_SHUT), None
            elif e == E_CHARW:
                yield at, icount, "char_write", (self.u32(), self.u32())
            elif e == E_CHARR:
                yield at, icount, "char_read_all", self.array("char_read_all")
            elif e == E_CHARR_ERR:
                yield at, icount, "char_read_all_error", self.u32()
            elif e == E_RANDOM:
                yield at, icount, "random", (self.u32(), self.array("random bytes"))
            elif E_CLOCK <= e < E_CKPT:
                self.u64("a clock value")
                yield at, icount, "clock_" + CLOCKS[e - E_CLOCK], None
            elif E_CKPT <= e < E_END:
                yield at, icount, "checkpoint_" + CHECKPOINTS[e - E_CKPT], None
            elif e == E_END:
                yield at, icount, "end", None
            else:
                raise Bad("%s: offset %d: unknown event %d" % (self.path, at, e))


def count(path):
    n, last = {}, 0
    for _, ic, k, _ in Log(path).events():
        n[k] = n.get(k, 0) + 1
        last = ic
    print("%s: %d guest instructions" % (path, last))
    for k in sorted(n):
        print("  %-32s %10d" % (k, n[k]))


def compare(p1, p2):
    a, b = Log(p1).events(), Log(p2).events()
    hist = []
    i = 0
    for ea, eb in itertools.zip_longest(a, b):
        if ea is None or eb is None:
            longer, e = (p2, eb) if ea is None else (p1, ea)
            print("the same %d events, then only %s goes on: icount %d %s" % (i, longer, e[1], e[2]))
            return 1
        if ea[1:] != eb[1:]:
            print("first difference at event %d:" % i)
            for h in hist[-8:]:
                print("  same   icount %d %s" % (h[1], h[2]))
            print("  %s: icount %d %s %r" % (p1, ea[1], ea[2], ea[3]))
            print("  %s: icount %d %s %r" % (p2, eb[1], eb[2], eb[3]))
            return 1
        hist.append(ea)
        i += 1
    print("the same %d events" % i)
    return 0


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write(__doc__.split("\n")[-1] + "\n")
        return 2
    try:
        for p in sys.argv[1:]:
            count(p)
        if len(sys.argv) == 3:
            return compare(sys.argv[1], sys.argv[2])
    except (Bad, OSError) as e:
        sys.stderr.write("rr-events: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
