#!/usr/bin/env python3
"""sim-targets.py - issue 15's targets from antic-sim's JSON: for each disk
and depth, every example's time under anticipatory / deadline / noop with
ratios, the writer's share, and anticipatory with each depth-32 rule off.

Reads the directory bench/sim-targets.sh filled (one JSON per run, named
DISK-qDEPTH-EXAMPLE-VARIANT.json). Python 3 standard library only.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from results_lib import by_scheduler

# A/B variants: the run's name -> what bench/sim-targets.sh passed to --set
VARIANTS = ["all", "no-inflight", "no-bound", "no-syncw", "no-share", "no-newcomer", "no-plug",
            "none"]
# and "base": another binary's anticipatory (BASE=), e.g. main's
ALL_RUNS = VARIANTS + ["base"]



def fail(msg):
    sys.stderr.write("sim-targets.py: %s\n" % msg)
    sys.exit(1)


def job_sections(path):
    """Each job section's options, in order ([global] folded in)."""
    glob, jobs, cur = {}, [], None
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        m = re.match(r"^\[(.+)\]$", line)
        if m:
            if m.group(1) == "global":
                cur = glob
            else:
                cur = dict(glob)
                cur["name"] = m.group(1)
                jobs.append(cur)
            continue
        if cur is None:
            fail("%s:%d: option outside a section" % (path, n))
        k, _, v = line.partition("=")
        cur[k.strip()] = v.strip()
    return jobs


def metric_spec(fio):
    """Which jobs an example is judged by, and by what: the jobs whose end
    ends the run (exitall), else all; their runtime, or their read p50
    latency when they run for a fixed time."""
    jobs = job_sections(fio)
    judged = [j for j in jobs if "exitall" in j] or jobs
    names = {j["name"] for j in judged}
    timed = all("time_based" in j for j in judged)
    writers = {j["name"] for j in jobs
               if j.get("rw") == "write" and "time_based" in j and j["name"] not in names}
    return names, timed, writers


def writer_alone_bytes(fio, disk, depth, stop_ms, writers):
    """The writers' bytes by @stop_ms when they run alone: the example
    with every other job section left out, cut off at max_time."""
    keep, out = True, []
    for line in open(fio, encoding="utf-8").read().splitlines():
        m = re.match(r"^\s*\[(.+)\]\s*$", line)
        if m:
            keep = m.group(1) == "global" or m.group(1) in writers
        if keep or line.lstrip().startswith("; antic-sim:"):
            out.append(line)
    sim = os.environ.get("SIM", "build/antic-sim")
    with tempfile.NamedTemporaryFile("w", suffix=".fio", delete=False) as f:
        f.write("\n".join(out) + "\n")
        name = f.name
    try:
        r = subprocess.run([sim, "--quiet", "--output-format", "json", "--scheduler",
                            "anticipatory", "--set", "disk=" + disk, "--set",
                            "queue_depth=%d" % depth, "--set", "max_time=%dms" % stop_ms,
                            name], capture_output=True, text=True, check=False)
    finally:
        os.unlink(name)
    # 3: stopped at max_time, which this run sets on purpose
    if r.returncode not in (0, 3):
        fail("%s alone: %s" % (fio, r.stderr.strip()))
    res = by_scheduler(json.loads(r.stdout))["schedulers"]["anticipatory"]
    return sum(j["write"]["io_bytes"] for j in res["jobs"]
               if j["jobname"].split(".")[0] in writers)


def writer_share(fio, disk, depth, res, spec):
    """The writers' bandwidth while the judged jobs ran, as a share of what
    they get alone over the same interval (None: no writer)."""
    names, _, writers = spec
    if not writers:
        return None
    jobs = job_sections(fio)
    start_ms = min(int(j.get("startdelay", "0").rstrip("s")) * 1000
                   for j in jobs if j["name"] in names)
    end_ms = res["sim_time_ns"] // 1000000
    wbytes = sum(j["write"]["io_bytes"] for j in res["jobs"]
                 if j["jobname"].split(".")[0] in writers)
    b0 = writer_alone_bytes(fio, disk, depth, start_ms, writers) if start_ms else 0
    b1 = writer_alone_bytes(fio, disk, depth, end_ms, writers)
    return (wbytes - b0) / (b1 - b0) if b1 > b0 else None


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return by_scheduler(json.load(f))
    except (OSError, ValueError, KeyError) as e:
        fail("%s: %s" % (path, e))


def measure(res, spec):
    """(figure, unit, writer MB/s, writer share) for one scheduler's result."""
    names, timed, writers = spec
    jobs = res["jobs"]
    # numjobs makes NAME.0, NAME.1, ...
    judged = [j for j in jobs if j["jobname"].split(".")[0] in names]
    if not judged:
        fail("no judged job in the result")
    if timed:
        p50 = [j["read"]["clat_ns"]["percentile"]["50.000000"] for j in judged]
        fig, unit = sum(p50) / len(p50) / 1e6, "p50 ms"
    else:
        fig, unit = max(j["job_runtime"] for j in judged) / 1e3, "s"
    wbytes = sum(j["write"]["io_bytes"] for j in jobs
                 if j["jobname"].split(".")[0] in writers)
    allbytes = sum(j["write"]["io_bytes"] + j["read"]["io_bytes"] for j in jobs)
    t = res["sim_time_ns"] / 1e9
    wmbps = wbytes / t / 1e6 if writers and t else None
    share = wbytes / allbytes if writers and allbytes else None
    return fig, unit, wmbps, share


def job_figures(res):
    """Every job's own figure: its runtime, or its read p50 when time-based
    and cut short by another job, keyed by job name."""
    out = {}
    for j in res["jobs"]:
        io = j["read"] if j["read"]["total_ios"] else j["write"]
        out[j["jobname"]] = (j["job_runtime"] / 1e3,
                             io["clat_ns"]["percentile"]["50.000000"] / 1e6)
    return out


def main():
    if len(sys.argv) != 3:
        fail("usage: sim-targets.py RESULTS_DIR EXAMPLES_DIR")
    rdir, edir = sys.argv[1], sys.argv[2]
    runs = {}
    for name in sorted(os.listdir(rdir)):
        m = re.match(r"^(.+)-q(\d+)-(.+)-(%s)\.json$" % "|".join(ALL_RUNS), name)
        if m:
            runs[(m.group(1), int(m.group(2)), m.group(3), m.group(4))] = \
                load(os.path.join(rdir, name))
    if not runs:
        fail("%s: no results" % rdir)
    configs = sorted({(d, q) for d, q, _, _ in runs}, key=lambda c: (c[0], -c[1]))
    examples = sorted({e for _, _, e, _ in runs})
    specs = {e: metric_spec(os.path.join(edir, e + ".fio")) for e in examples}
    verdicts = []
    for disk, depth in configs:
        print("\n%s, queue depth %d" % (disk, depth))
        print("%-18s %-7s %9s %9s %9s %7s %7s %8s %7s | AS with a rule off: %s"
              % ("example", "unit", "AS", "deadline", "noop", "AS/dl", "AS/noop",
                 "wr MB/s", "wr kept", " ".join("%11s" % v for v in VARIANTS[1:])))
        for e in examples:
            r = runs.get((disk, depth, e, "all"))
            if not r:
                continue
            s = r["schedulers"]
            a = measure(s["anticipatory"], specs[e])
            d = measure(s["deadline"], specs[e])
            n = measure(s["noop"], specs[e])
            ab = []
            for v in VARIANTS[1:]:
                rv = runs.get((disk, depth, e, v))
                ab.append("%11.2f" % measure(rv["schedulers"]["anticipatory"], specs[e])[0]
                          if rv else "%11s" % "-")
            base = runs.get((disk, depth, e, "base"))
            btxt = ""
            if base:
                b = measure(base["schedulers"]["anticipatory"], specs[e])
                # the worst of the judged figure and every job's runtime and p50
                mine = job_figures(s["anticipatory"])
                theirs = job_figures(base["schedulers"]["anticipatory"])
                worst = a[0] / b[0] if b[0] else 1.0
                for name, (rt, p50) in mine.items():
                    ort, op50 = theirs.get(name, (rt, p50))
                    if ort:
                        worst = max(worst, rt / ort)
                    if op50:
                        worst = max(worst, p50 / op50)
                btxt = " | base %9.2f  AS/base %5.3f  worst job %5.3f" % (b[0], a[0] / b[0] if b[0] else 0, worst)
                if depth == 1:
                    verdicts.append(("%s q1 %s: no figure worse than base by > 5 %% (worst %.3f)"
                                     % (disk, e, worst), worst <= 1.05))
            share = writer_share(os.path.join(edir, e + ".fio"), disk, depth,
                                 s["anticipatory"], specs[e])
            a = (a[0], a[1], a[2], share)
            print("%-18s %-7s %9.2f %9.2f %9.2f %7.2f %7.2f %8s %7s | %s%s"
                  % (e, a[1], a[0], d[0], n[0], a[0] / d[0] if d[0] else 0,
                     a[0] / n[0] if n[0] else 0,
                     "%.1f" % a[2] if a[2] is not None else "-",
                     "%.0f" % (100 * a[3]) if a[3] is not None else "-",
                     " ".join(ab), btxt))
            if depth > 1:
                verdicts.append(("%s q%d %s: AS <= deadline" % (disk, depth, e),
                                 a[0] <= d[0] * 1.0001))
                if e == "write-vs-read":
                    verdicts.append(("%s q%d %s: deadline/AS >= 2 (%.2f)"
                                     % (disk, depth, e, d[0] / a[0]), d[0] >= 2 * a[0]))
                if a[3] is not None:
                    verdicts.append(("%s q%d %s: writer keeps >= 20 %% of its bandwidth alone (%.0f %%)"
                                     % (disk, depth, e, 100 * a[3]), a[3] >= 0.2))
        alone = runs.get((disk, depth, "compile-alone", "all"))
        cw = runs.get((disk, depth, "compile-vs-write", "all"))
        if alone and cw and depth > 1:
            i = measure(alone["schedulers"]["anticipatory"], specs["compile-alone"])[0]
            c = measure(cw["schedulers"]["anticipatory"], specs["compile-vs-write"])[0]
            verdicts.append(("%s q%d compile-vs-write <= 1.3 x alone (%.2f)"
                             % (disk, depth, c / i), c <= 1.3 * i))
    print("\ntargets:")
    for what, ok in verdicts:
        print("  %s  %s" % ("MET " if ok else "MISS", what))
    print("%d met, %d missed" % (sum(ok for _, ok in verdicts),
                                  sum(not ok for _, ok in verdicts)))


if __name__ == "__main__":
    main()
