#!/usr/bin/env python3
"""Hold each disk preset to its published figures: run the job files in
tests/presets/ through antic-sim with --set disk=NAME and compare what the
model gives with tests/presets/figures.tsv. A figure marked todo there (the
model does not claim it yet; none is today) is printed as "not modelled yet"
and not counted.

Usage: check.py [--markdown] [--sim PATH]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from figures_tsv import data_rows  # noqa: E402 (tests/, beside this folder)

MIB = 1 << 20

# metric -> (job file, extra --set settings, JSON key path, scale, unit)
METRICS = {
    "qd1_read_mean_ms": ("randread-qd1.fio", [], "read.clat_ns.mean", 1e-6, "ms"),
    "qd1_read_p50_ms": ("randread-qd1.fio", [], "read.clat_ns.percentile.50.000000", 1e-6, "ms"),
    "qd1_read_p99_ms": ("randread-qd1.fio", [], "read.clat_ns.percentile.99.000000", 1e-6, "ms"),
    "revolution_ms": ("rotation.fio", ["cache_segments=0"], "read.clat_ns.mean", 1e-6, "ms"),
    "seq_read_MBps": ("seqread-spread.fio", [], "read.bw_bytes", 1e-6, "MB/s"),
    "seq_read_outer_MBps": ("seqread-outer.fio", [], "read.bw_bytes", 1e-6, "MB/s"),
    "qd32_read_iops": ("randread-qd32.fio", ["queue_depth=32"], "read.iops", 1, "IOPS"),
    "seq_write_MBps": ("seqwrite-spread.fio", [], "write.bw_bytes", 1e-6, "MB/s"),
    "qd1_write_iops": ("randwrite-qd1.fio", [], "write.iops", 1, "IOPS"),
    "fsync8_ms": ("fsync-8.fio", [], "job_runtime", 1, "ms"),
    "fsync64_ms": ("fsync-64.fio", [], "job_runtime", 1, "ms"),
}


def read_figures():
    rows = []
    path = os.path.join(HERE, "figures.tsv")
    for n, cols in data_rows(path, "preset", 6):
        preset, metric, pub, tol, status, source = cols
        if status != "param" and metric not in METRICS:
            sys.exit("%s:%d: unknown metric %s" % (path, n, metric))
        rows.append(dict(preset=preset, metric=metric, published=float(pub),
                         tol=None if tol == "-" else float(tol),
                         status=status, source=source))
    return rows


def job_vars(capacity):
    """The ${...} the job files use, for a disk of @capacity bytes."""
    def gap(n, size, align):
        g = (capacity - MIB - n * size) // n
        return g // align * align
    return {"CAPACITY": str(capacity),
            "FILE_GAP": str(gap(16, 256 * MIB, MIB))}


def expand(text, env):
    def sub(m):
        if m.group(1) not in env:
            sys.exit("job file names an unknown ${%s}" % m.group(1))
        return env[m.group(1)]
    return re.sub(r"\$\{([A-Z0-9_]+)\}", sub, text)


def run(sim, tmp, preset, job, sets, env, cache):
    key = (preset, job, tuple(sets))
    if key in cache:
        return cache[key]
    with open(os.path.join(HERE, job)) as f:
        text = expand(f.read(), env)
    path = os.path.join(tmp, "%s-%s" % (preset, job))
    with open(path, "w") as f:
        f.write(text)
    cmd = [sim, "--scheduler", "noop", "--output-format", "json",
           "--set", "disk=" + preset]
    for s in sets:
        cmd += ["--set", s]
    out = subprocess.run(cmd + [path], capture_output=True, text=True)
    if out.returncode:
        sys.exit("%s: %s" % (" ".join(cmd + [job]), out.stderr.strip()))
    cache[key] = json.loads(out.stdout)["jobs"][0]  # one scheduler: fio's document
    return cache[key]


def lookup(job, path):
    """A key path like read.clat_ns.percentile.50.000000: the percentile
    keys have a dot of their own, so the rest after 'percentile' is one."""
    v = job
    parts = path.split(".")
    while parts:
        p = parts.pop(0)
        if p == "percentile":
            v = v[p][".".join(parts)]
            break
        v = v[p]
    return float(v)


def fmt(x):
    return "%.3g" % x if abs(x) < 100 else "%.0f" % x


def main():
    markdown = "--markdown" in sys.argv
    sim = "build/antic-sim"
    if "--sim" in sys.argv:
        sim = sys.argv[sys.argv.index("--sim") + 1]
    rows = read_figures()
    caps = {r["preset"]: int(r["published"]) for r in rows if r["status"] == "param"}
    passed = failed = 0
    cache = {}
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            if r["status"] == "param":
                continue
            if r["preset"] not in caps:
                sys.exit("figures.tsv: no capacity_bytes for " + r["preset"])
            job, sets, key, scale, unit = METRICS[r["metric"]]
            j = run(sim, tmp, r["preset"], job, sets, job_vars(caps[r["preset"]]), cache)
            model = lookup(j, key) * scale
            err = (model - r["published"]) / r["published"] * 100
            if r["status"] == "todo":
                verdict = "not modelled yet"
            elif abs(err) <= r["tol"]:
                verdict = "PASS"
                passed += 1
            else:
                verdict = "FAIL"
                failed += 1
            out.append((r["preset"], r["metric"], fmt(r["published"]), fmt(model),
                        "%+.1f %%" % err, "%g %%" % r["tol"], verdict, r["source"]))
    if markdown:
        print("| preset | metric | published | model | error | tolerance | result | source |")
        print("|---|---|---|---|---|---|---|---|")
        for o in out:
            print("| `%s` | %s | %s | %s | %s | %s | %s | %s |" % o)
    else:
        print("%-12s %-20s %10s %10s %9s %5s  %s" %
              ("preset", "metric", "published", "model", "error", "tol", "result"))
        for o in out:
            print("%-12s %-20s %10s %10s %9s %5s  %s" % (o[:5] + (o[5].replace(" %", "%"), o[6])))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
