#!/usr/bin/env python3
"""Hold antic-sim to the kernel: run each workload of figures.tsv (the
head-to-head's job files in bench/jobs/) through antic-sim's model of the
kernel's scheduler on the kernel's disk, as bench/report.py does for its
prediction (the load started the row's lead_s before the measured job,
as in the kernel's runs), and compare the figure with the kernel's
measured one. A row marked check counts as PASS or FAIL; a row marked
todo (the model misses it today) prints its error as "not modelled yet"
and does not count.

Usage: check.py [--sim PATH]
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
# antic-sim's model of each kernel scheduler (antic-sim --list-schedulers)
MODEL = {"none": "noop", "mq-deadline": "deadline", "anticipatory": "anticipatory"}
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "bench"))
from figures_tsv import data_rows  # noqa: E402 (tests/, beside this folder)
# the measured job of each workload, by name prefix, as the report reads it
from report import MEASURED, cap_of, log_fresh, read_log, sim_layout_args  # noqa: E402
# the job files' variables as vmbench sets them for a 20 s cap:
# random-vs-write's readers for half the cap; the measured job's start
# delay (WARM) is each row's lead_s
ENV = {"RANDRT": "10", "FAIRRT": "20"}
# the fairness workloads: their random reader, whose figure is read_iops
# (its IOPS); they run for the whole cap of their log's disk, in the guest
# and here
FAIR = {"fair-aio": "reader", "fair-psync": "reader"}
FIGURES = ("io_s", "p50_ms", "read_iops")


def read_figures():
    rows = []
    path = os.path.join(HERE, "figures.tsv")
    for n, cols in data_rows(path, "kernel", 11):
        kernel, disk, depth, w, sched, lead, fig, val, tol, status, source = cols
        if w not in MEASURED and w not in FAIR or sched not in MODEL or fig not in FIGURES \
                or (fig == "read_iops") != (w in FAIR) or status not in ("check", "todo"):
            sys.exit("%s:%d: unknown workload, scheduler, figure or status" % (path, n))
        try:
            lead_ms = round(float(lead) * 1000)
        except (ValueError, OverflowError):
            lead_ms = -1
        if not 0 <= lead_ms <= 3600000:
            sys.exit("%s:%d: lead_s: the load's head start in s, 0 to 3600" % (path, n))
        # the log the figure came from: whether its runs had a fresh file
        # system, the one the report's layout maps describe
        m = re.search(r"\((bench/results/[^\s()]+\.log(?:\.gz)?)\)", source)
        if not m or not os.path.exists(os.path.join(TOP, m.group(1))):
            sys.exit("%s:%d: the source names no log in bench/results, so whether its runs "
                     "had a fresh file system (the layout map's) is unknown" % (path, n))
        rows.append(dict(kernel=kernel, disk=disk, depth=int(depth), workload=w,
                         sched=sched, lead_ms=lead_ms, figure=fig, value=float(val),
                         tol=float(tol), status=status, log=os.path.join(TOP, m.group(1))))
    return rows


FRESH = {}  # a log's path -> log_fresh's answer, each log read once


def fresh_of(log):
    if log not in FRESH:
        FRESH[log] = log_fresh(log)
    return FRESH[log]


CAPS = {}  # (a log's path, disk) -> its runs' cap in s


def fair_env(row):
    key = (row["log"], row["disk"])
    if key not in CAPS:
        CAPS[key] = cap_of(read_log(row["log"]), row["disk"])
    return {"FAIRRT": str(CAPS[key])}


def predict(sim, row):
    """antic-sim's figure for @row: io_s the measured jobs' longest
    job_runtime (s), p50_ms the mean of their read p50 (ms), read_iops
    the fairness reader's IOPS."""
    cmd = [sim, "--quiet", "--output-format", "json", "--scheduler", MODEL[row["sched"]],
           "--set", "disk=" + row["disk"], "--set", "queue_depth=%d" % row["depth"]]
    # the small-file workloads' files where ext4 put them, as the report has
    # them: only where the figure's runs had a fresh file system
    cmd += sim_layout_args(row["workload"], fresh_of(row["log"]))
    cmd += [os.path.join(TOP, "bench", "jobs", row["workload"] + ".fio")]
    env = dict(os.environ, WARM="%dms" % row["lead_ms"], **ENV)
    if row["workload"] in FAIR:
        env.update(fair_env(row))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                       universal_newlines=True)
    if p.returncode not in (0, 3):
        sys.exit("antic-sim failed on %s: %s" % (row["workload"], p.stderr.strip()[:300]))
    measured = FAIR.get(row["workload"]) or MEASURED[row["workload"]]
    jobs = [j for j in json.loads(p.stdout)["jobs"]
            if j["jobname"].startswith(measured)
            and (j["read"]["total_ios"] or j["write"]["total_ios"])]
    if not jobs:
        sys.exit("antic-sim's %s ran no measured job" % row["workload"])
    if row["figure"] == "read_iops":
        return sum(j["read"]["iops"] for j in jobs)
    if row["figure"] == "p50_ms":
        return sum(j["read"]["clat_ns"]["percentile"]["50.000000"] for j in jobs) / len(jobs) / 1e6
    return max(j["job_runtime"] for j in jobs) / 1000


def main():
    sim = os.path.join(TOP, "build", "antic-sim")
    args = sys.argv[1:]
    if args[:1] == ["--sim"] and len(args) == 2:
        sim = args[1]
    elif args:
        sys.exit(__doc__.strip().splitlines()[-1])
    passed = failed = todo = 0
    for r in read_figures():
        v = predict(sim, r)
        err = (v - r["value"]) * 100 / r["value"]
        what = "%s %s:%d %s %s %s (lead %.1f s): kernel %.3f, antic-sim %.3f, error %+.0f%% " \
            "(within %g%%)" % (r["kernel"], r["disk"], r["depth"], r["workload"], r["sched"],
                               r["figure"], r["lead_ms"] / 1000, r["value"], v, err, r["tol"])
        if r["status"] == "todo":
            print("not modelled yet: " + what)
            todo += 1
        elif abs(err) <= r["tol"]:
            print("PASS " + what)
            passed += 1
        else:
            print("FAIL " + what)
            failed += 1
    print("%d not modelled yet" % todo)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
