#!/usr/bin/env python3
"""fio-conformance.py - does antic-sim issue what fio issues for the same
job file? Each tests/conformance/*.fio goes through fio's null engine (the
oracle: offsets, lengths, directions and order without touching a disk)
and through antic-sim --write_iolog, and the two are compared per job:
the same sequence for sequential jobs, the same blocks a pass for random
ones, the same bytes always.

Usage: tests/fio-conformance.py [ANTIC_SIM [CORPUS_DIR]]
Prints one line per file, the match fraction, and "N passed, N failed".
"""
import concurrent.futures
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Files expected not to match, each with the reason. A listed file counts
# as a known mismatch, never as passed; a listed file that matches fails
# (the list is stale).
KNOWN = {
}

# The share of the corpus that must match for the test to pass.
TARGET = 0.95

FIO_LINE = re.compile(r"^io\s+(\d+)\s+queue: io_u (\S+): off=0x([0-9a-f]+),"
                      r"len=0x([0-9a-f]+),ddir=(\d),file=(\S+)")
GENERATED = re.compile(r"^(.+\.\d+)\.\d+$")


def job_key(name, per_file):
    """fio names a job's own files JOB.N.F: key them by JOB.N, so the
    order across a job's files is compared; a named file is its own key."""
    m = GENERATED.match(name)
    return m.group(1) if m and not per_file else name


def directives(path):
    """'# conformance: prefix=N' and the like, from the job file."""
    d = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^[#;]\s*conformance:\s*(.*)$", line.strip())
            if m:
                for tok in m.group(1).split():
                    k, _, v = tok.partition("=")
                    d[k] = v
    return d


def rw_kind(path):
    """seq, rand, mixed-seq or mixed-rand from the file's rw= lines."""
    kinds = set()
    with open(path) as f:
        for line in f:
            m = re.match(r"^\s*(?:rw|readwrite)\s*=\s*([a-z]+)", line)
            if m:
                kinds.add(m.group(1))
    rand = any(k.startswith("rand") for k in kinds)
    mixed = any(k in ("rw", "readwrite", "randrw") for k in kinds)
    return ("mixed-" if mixed else "") + ("rand" if rand else "seq")


def run_fio(path, tmp, per_file):
    """fio's I/O per key: lists of (dir, offset, length) in issue order.
    The engine is forced to null in a copy, so nothing touches a disk."""
    copy = os.path.join(tmp, "fio-" + os.path.basename(path))
    with open(path) as f, open(copy, "w") as g:
        for line in f:
            if re.match(r"^\s*ioengine\s*=", line):
                continue
            g.write(line)
            if line.strip().startswith("[") and line.strip() != "[antic-sim]":
                g.write("ioengine=null\n")
    r = subprocess.run(["fio", "--debug=io", copy],
                       cwd=tmp, capture_output=True, text=True, timeout=60)
    if r.returncode:
        raise RuntimeError("fio failed: " + (r.stderr or r.stdout)[-300:])
    per_pid, last = {}, {}
    for line in r.stdout.splitlines():
        m = FIO_LINE.match(line)
        if m:
            pid, iou, off, ln, d, name = m.groups()
            if d not in ("0", "1"):
                continue    # fsync and trim: antic-sim's iolog has no sync lines
            per_pid.setdefault(pid, []).append(
                (job_key(name, per_file), (int(d), int(off, 16), int(ln, 16), name)))
            last[(pid, iou)] = len(per_pid[pid]) - 1
            continue
        m = re.match(r"^io\s+(\d+)\s+requeue (\S+)", line)
        if m and (m.group(1), m.group(2)) in last:
            # the engine was busy: fio queues this one again later
            pid, iou = m.groups()
            per_pid[pid][last.pop((pid, iou))] = None
    out, pids = {}, {}
    for pid, ios in per_pid.items():
        for x in ios:
            if x:
                out.setdefault(x[0], []).append(x[1])
                pids.setdefault(x[0], set()).add(pid)
    # jobs sharing a file interleave by timing: only their union can agree
    shared = {k for k, v in pids.items() if len(v) > 1}
    return out, shared


def run_sim(sim, path, tmp, per_file):
    log = os.path.join(tmp, "sim.iolog")
    r = subprocess.run([sim, "--quiet", "--scheduler", "noop", "--write_iolog", log,
                        "--output", os.path.join(tmp, "sim.out"), path],
                       capture_output=True, text=True, timeout=60)
    if r.returncode:
        raise RuntimeError("antic-sim failed: " + r.stderr[-300:])
    out, first, last = {}, {}, {}
    with open(log) as f:
        if f.readline().strip() != "fio version 3 iolog":
            raise RuntimeError("antic-sim's iolog has no v3 header")
        for line in f:
            t = line.split()
            if len(t) == 5 and t[2] in ("read", "write"):
                k = job_key(t[1], per_file)
                out.setdefault(k, []).append((int(t[2] == "write"), int(t[3]), int(t[4]), t[1]))
                first.setdefault(k, int(t[0]))
                last[k] = int(t[0])
    return out, first, last


# antic-sim's --write_iolog fed back to fio: one sequential, one mixed,
# one raw-device random file
ROUND_TRIP = ["07-rw.fio", "16-nrfiles-roundrobin.fio", "12-raw-randread-offset.fio"]


def round_trip(sim, path):
    """None when fio, replaying antic-sim's iolog, issues what it logged."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            logged = []
            log = os.path.join(tmp, "sim.iolog")
            subprocess.run([sim, "--quiet", "--scheduler", "noop", "--write_iolog", log,
                            "--output", os.path.join(tmp, "out"), path],
                           check=True, capture_output=True, timeout=60)
            with open(log) as f:
                for line in f:
                    t = line.split()
                    if len(t) == 5 and t[2] in ("read", "write"):
                        logged.append((int(t[2] == "write"), int(t[3]), int(t[4]), t[1]))
            job = os.path.join(tmp, "replay.fio")
            with open(job, "w") as f:
                f.write("[replay]\nioengine=null\nread_iolog=%s\n" % log)
            r = subprocess.run(["fio", "--debug=io", job], cwd=tmp, capture_output=True,
                               text=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as e:
            return str(e)
        if r.returncode:
            return "fio refuses the iolog: " + (r.stderr or r.stdout)[-200:]
        replayed = []
        for line in r.stdout.splitlines():
            m = FIO_LINE.match(line)
            if m and m.group(5) in ("0", "1"):
                replayed.append((int(m.group(5)), int(m.group(3), 16), int(m.group(4), 16),
                                 m.group(6)))
        if replayed != logged:
            return "fio replayed %d I/Os, %d logged; first difference at %d" % (
                len(replayed), len(logged),
                next((i for i, (a, b) in enumerate(zip(replayed, logged)) if a != b),
                     min(len(replayed), len(logged))))
    return None


def passes(ios, n):
    """The I/O in consecutive passes of n."""
    return [sorted(ios[i:i + n]) for i in range(0, len(ios), n)]


def compare(kind, d, fio_shared, sim_times):
    """None when they match, else why not."""
    fio, shared = fio_shared
    sim, first, last = sim_times
    if "after" in d:
        # stonewall: antic-sim must start the second job after the first ends
        a, _, b = d["after"].partition(":")
        if a not in last or b not in first or first[b] < last[a]:
            return "%s does not start after %s has ended" % (b, a)
    if sorted(fio) != sorted(sim):
        return "jobs/files differ: fio %s, antic-sim %s" % (sorted(fio), sorted(sim))
    for key in sorted(fio):
        f, s = fio[key], sim[key]
        if "prefix" in d:
            # time_based: both run on; the first N must agree
            n = int(d["prefix"])
            if len(f) < n or len(s) < n:
                return "%s: fewer than %d I/Os (fio %d, antic-sim %d)" % (key, n, len(f), len(s))
            f, s = f[:n], s[:n]
        fb, sb = sum(x[2] for x in f), sum(x[2] for x in s)
        if fb != sb:
            return "%s: %d bytes under fio, %d under antic-sim" % (key, fb, sb)
        if len(f) != len(s) and "shape" not in d:
            return "%s: %d I/Os under fio, %d under antic-sim" % (key, len(f), len(s))
        if "shape" in d:
            # bs ranges, bssplit: the sizes are random draws on each side;
            # the same blocks must be covered, sequential jobs without gaps
            g = 0
            for x in f + s:
                g = math.gcd(g, x[2])
            def expand(ios):
                return sorted((x[3], o) for x in ios for o in range(x[1], x[1] + x[2], g))
            if expand(f) != expand(s):
                return "%s: the blocks covered differ" % key
            if kind == "seq" and any(s[i + 1][1] not in (s[i][1] + s[i][2], s[0][1])
                                     for i in range(len(s) - 1)):
                return "%s: antic-sim's sequential I/O has gaps" % key
            continue
        if key in shared and kind.endswith("seq"):
            if sorted(f) != sorted(s):
                return "%s: the jobs sharing it issue different I/O" % key
        elif kind == "seq":
            if f != s:
                i = next(i for i in range(len(f)) if f[i] != s[i])
                return "%s: I/O %d is %s under fio, %s under antic-sim" % (key, i, f[i], s[i])
        elif kind == "mixed-seq":
            # reads and writes each go in order from their own position;
            # which comes when is a random draw on each side
            for dr in (0, 1):
                a = [x for x in f if x[0] == dr]
                b = [x for x in s if x[0] == dr]
                m = min(len(a), len(b))
                if a[:m] != b[:m]:
                    return "%s: %s sequence differs" % (key, "write" if dr else "read")
        else:
            blocks = sorted({(x[1], x[2], x[3]) for x in f})
            if "sample" in d:
                # drawn with replacement: both sides inside the region the
                # file names (sample=LO-HI), in whole blocks
                lo, _, hi = d["sample"].partition("-")
                lo, hi = int(lo), int(hi)
                for side, ios in (("fio", f), ("antic-sim", s)):
                    if any(x[1] < lo or x[1] + x[2] > hi or x[1] % int(d.get("align", x[2]))
                           for x in ios):
                        return "%s: %s issued outside [%d, %d)" % (key, side, lo, hi)
                continue
            # each block once a pass: compare pass by pass, direction aside
            n = len(blocks)
            pf = passes([(x[1], x[2], x[3]) for x in f], n)
            ps = passes([(x[1], x[2], x[3]) for x in s], n)
            for i, (a, b) in enumerate(zip(pf, ps)):
                if a != b:
                    return "%s: pass %d covers different blocks" % (key, i)
    return None


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sim = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "antic-sim")
    corpus = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "tests", "conformance")
    if not shutil.which("fio"):
        print("FAIL fio is not installed (setup.sh installs it); nothing to compare with")
        print("0 passed, 1 failed")
        return 1
    os.environ["ANTIC_CONF_BS"] = "8k"   # for the ${VAR} case
    files = sorted(f for f in os.listdir(corpus) if f.endswith(".fio"))
    def check(name):
        path = os.path.join(corpus, name)
        # file_service_type=random: the file is a random draw on each side,
        # so only each file's own sequence can agree
        per_file = "perfile" in directives(path)
        with tempfile.TemporaryDirectory() as tmp:
            try:
                return compare(rw_kind(path), directives(path),
                               run_fio(path, tmp, per_file), run_sim(sim, path, tmp, per_file))
            except (RuntimeError, OSError, ValueError, subprocess.TimeoutExpired) as e:
                return str(e).strip().replace("\n", " ")

    # fio spends most of its half second waiting, so run a few at once
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as ex:
        results = list(ex.map(check, files))
    passed = failed = known = rt_passed = 0
    for name, why in zip(files, results):
        if name in KNOWN:
            if why is None:
                print("FAIL %s: listed as a known mismatch but matches (drop it from KNOWN)" % name)
                failed += 1
            else:
                print("KNOWN %s: %s (reason: %s)" % (name, why, KNOWN[name]))
                known += 1
        elif why is None:
            print("PASS %s" % name)
            passed += 1
        else:
            print("FAIL %s: %s" % (name, why))
            failed += 1
    # fio replays antic-sim's iolog (read_iolog=) and issues the same I/O
    for name in ROUND_TRIP:
        why = round_trip(sim, os.path.join(corpus, name))
        print("%s round trip %s%s" % ("PASS" if why is None else "FAIL", name,
                                       "" if why is None else ": " + why))
        if why is None:
            rt_passed += 1
        else:
            failed += 1
    total = len(files)
    frac = passed / total if total else 0.0
    print("conformance: %d of %d job files issue what fio issues (%.1f%%), "
          "%d known mismatches, %d unexpected" % (passed, total, 100 * frac, known, failed))
    if total < 40:
        print("FAIL corpus: %d job files, want at least 40" % total)
        failed += 1
    if frac < TARGET:
        print("FAIL target: %.1f%% matched, want %.0f%%" % (100 * frac, 100 * TARGET))
        failed += 1
    print("%d passed, %d failed" % (passed + rt_passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
