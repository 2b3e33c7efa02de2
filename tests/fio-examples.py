#!/usr/bin/env python3
"""fio-examples.py - Debian's fio-examples against antic-sim: every job
file fio itself parses either runs in antic-sim (each for at most a few
seconds of simulated time) or is refused for a reason docs/simulator.md lists
under "What antic-sim refuses". A crash, a hang, an internal error or
a refusal for an unlisted reason fails.

Usage: tests/fio-examples.py [ANTIC_SIM [EXAMPLES_DIR]]
(EXAMPLES_DIR defaults to $ANTIC_FIO_EXAMPLES, then the package's place.)
Prints one line per file, the counts, and "N passed, N failed".
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

# antic-sim's refusals, by the option or value it names: the reasons
# docs/simulator.md gives for each (kept in step by hand; the test prints any
# refusal not matched here as a failure).
REASONS = [
    (r"fio's ioengine=(null|cpuio|cpp_null|exec|filecreate|filestat|"
     r"filedelete|ftruncate|falloc|e4defrag) is not supported",
     "an engine that issues no block or file reads and writes"),
    (r"fio's ioengine=(net|netsplice|rdma|http|nbd|rbd|rados|gfapi|"
     r"libhdfs|libiscsi|nfs|dfs|ime_\w+|mtd|dev-dax|libpmem|pmemblk|io_uring_cmd|sg|"
     r"mmap|splice|xnvme|spdk) is not supported",
     "an engine for a network, another storage stack, persistent memory, SCSI/NVMe "
     "passthrough or memory mapping"),
    (r"fio's (verify\w*|do_verify|buffer_pattern|experimental_verify|trim_\w+) "
     r"is not supported", "data verification and its patterns"),
    (r"fio's (cpus_allowed\w*|cpumask|numa_\w+|nice|prio\w*|ioprio\w*|"
     r"cgroup\w*|uid|gid) is not supported", "CPU, NUMA, cgroup and priority placement"),
    (r"fio's (zonemode)=zbd is not supported", "zonemode=zbd (zoned devices)"),
    (r"fio's (flow\w*) is not supported", "flow (pacing jobs against each other)"),
    (r"fio's rw=(\w*trim\w*) is not supported", "trim (discard) workloads"),
    (r"fio's (bssplit) per direction", "bssplit per direction (with ',')"),
    (r"fio's (random_distribution)(=zoned_abs| per direction)",
     "random_distribution zoned_abs or per direction (with ',')"),
    (r"fio's (latency_\w+) is not supported", "latency_target (fio searching for a depth)"),
    (r"fio's (ss\w*|steadystate\w*) is not supported", "steady-state detection (ss)"),
    (r"fio's (exit_what) is not supported", "exit_what"),
    (r"fio's (ratemin|rate_min|rate_cycle) is not supported", "a minimum rate (ratemin, rate_min)"),
    (r"fio's io_submit_mode=(offload) is not supported",
     "io_submit_mode=offload (submitting on a schedule, not after completions)"),
    (r"fio's random_generator=(lfsr) is not supported", "random_generator=lfsr"),
    (r"fio's (filename_format) is not supported", "filename_format other than fio's default"),
]


def classify(sim, path, tmp):
    p = subprocess.run(["fio", "--parse-only", path], cwd=tmp, capture_output=True,
                       text=True, timeout=60)
    if p.returncode:
        return "fio-refuses", (p.stderr or p.stdout).strip().splitlines()[:1]
    try:
        r = subprocess.run([sim, "--quiet", "--scheduler", "noop", "--set", "max_time=2s",
                            "--output", os.path.join(tmp, "out"), path],
                           cwd=tmp, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "other", ["antic-sim ran over 120 s of wall time"]
    # 3: stopped at the max_time of 2 s this test sets
    if r.returncode in (0, 3):
        return "runs", []
    msg = r.stderr.strip()
    if r.returncode != 1 or "internal error" in msg or not msg:
        return "other", [msg[-300:] or "exit %d" % r.returncode]
    for pat, reason in REASONS:
        m = re.search(pat, msg)
        if m:
            what = m.group(1) if m.groups() else ""
            return "refused", [reason + (": " + what if what else ""), msg]
    return "unlisted", [msg]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sim = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(root, "build", "antic-sim")
    # ANTIC_FIO_EXAMPLES: the package unpacked elsewhere (dpkg -x), without root
    d = sys.argv[2] if len(sys.argv) > 2 else \
        os.environ.get("ANTIC_FIO_EXAMPLES", "/usr/share/doc/fio/examples")
    if not shutil.which("fio") or not os.path.isdir(d):
        print("FAIL %s or fio missing (setup.sh installs fio and fio-examples)" % d)
        print("0 passed, 1 failed")
        return 1
    files = sorted(f for f in os.listdir(d) if f.endswith(".fio"))

    def one(name):
        with tempfile.TemporaryDirectory() as tmp:
            return classify(sim, os.path.join(d, name), tmp)

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(one, files))
    counts, reasons = {}, {}
    passed = failed = 0
    for name, (kind, why) in zip(files, results):
        counts[kind] = counts.get(kind, 0) + 1
        if kind in ("runs", "fio-refuses"):
            print("%s %s%s" % ("PASS" if kind == "runs" else "SKIP", name,
                               "" if kind == "runs" else " (fio refuses it: %s)" % " ".join(why)))
            passed += kind == "runs"
        elif kind == "refused":
            print("PASS %s: refused, %s (%s)" % (name, why[0], why[1]))
            reasons[why[0].split(":")[0]] = reasons.get(why[0].split(":")[0], 0) + 1
            passed += 1
        else:
            print("FAIL %s: %s: %s" % (name, kind, " ".join(why)))
            failed += 1
    print("fio-examples: %d files; fio parses %d; antic-sim runs %d, refuses %d with a "
          "listed reason, %d other" % (len(files), len(files) - counts.get("fio-refuses", 0),
                                       counts.get("runs", 0), counts.get("refused", 0),
                                       counts.get("other", 0) + counts.get("unlisted", 0)))
    for r, n in sorted(reasons.items(), key=lambda x: -x[1]):
        print("  refused %2d: %s" % (n, r))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
