#!/usr/bin/env python3
"""Turns a vmbench log into PREFIX.txt (tables), PREFIX.json and, when
gnuplot is installed, PREFIX.png and PREFIX.svg, with antic-sim's
predictions for the same workloads and disk beside the kernel's figures.

The log is the guest's console (bench/guest-bench.sh): RES, COST and SIZE
lines, and fio's JSON documents, each on a line of its own behind
"FIO DEPTH WORKLOAD SCHED REP ROLE ". Both fio's and antic-sim's JSON are
read by key. Usage: bench/report.py LOG PREFIX (ANTIC_SIM: another
antic-sim binary)."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEDS = ["none", "mq-deadline", "kyber", "bfq", "anticipatory"]
# the bench workloads whose example file is named otherwise
EXAMPLE = {"six-trees": "six-tree-readers"}
# the metric of this workload is its readers' median latency, not a time
LATENCY_WORKLOAD = "random-vs-write"
LATENCY_JOB = "rand"
# what bench/guest-bench.sh sets hddsim up as
DISK = {"capacity": "40g", "rpm": 7200, "outer_mbps": 40, "inner_mbps": 22,
        "cache_segments": 4, "segment_kb": 512, "avg_seek_us": 9000,
        "full_stroke_us": 17000, "max_sectors_kb": 128}
DISK_TEXT = ("hddsim 40 GB 7200 rpm, 40-22 MB/s, 2 MB cache, 128 KiB requests; "
             "page cache 256 MB (memcg)")
OUTER_BPS = DISK["outer_mbps"] * 1e6


def warn(msg):
    print("report: " + msg, file=sys.stderr)


def morton_figures():
    """bench/morton-2003.tsv: workload -> its row (as_s, deadline_s, timed_job, ...)."""
    rows = {}
    with open(os.path.join(TOP, "bench", "morton-2003.tsv"), encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    names = lines[0].split("\t")
    for l in lines[1:]:
        row = dict(zip(names, l.split("\t")))
        rows[row["workload"]] = row
    return rows


def example_of(workload):
    return EXAMPLE.get(workload, workload)


# ---- the guest's log

class Log:
    def __init__(self):
        self.kver = ""
        self.header = ""
        self.costrun = None
        self.costreps = None
        self.sizes = {}   # SIZE name -> KiB
        self.res = []     # RES lines as dicts, in order
        self.fio = {}     # (depth, tag, sched, rep, role) -> fio's document
        self.cost = []    # COST lines as dicts, in order


def fio_document(lines):
    """fio's JSON from the FIO lines of one run and role: one line, or
    (as fio prints it) many, after whatever fio printed before it."""
    text = "\n".join(lines)
    m = re.search(r"^\{", text, re.M)
    if not m:
        return None
    try:
        return json.JSONDecoder().raw_decode(text[m.start():])[0]
    except ValueError:
        return None


def read_log(path):
    log = Log()
    fio_lines = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            m = re.search(r"vm: kernel ([^,]*),", line)
            if m and not log.kver:
                log.kver = m.group(1)
            m = re.search(r"vm: kernel .*cpus, quick=", line)
            if m:
                log.header = line[m.start():]
            m = re.search(r"vm: cost runs of (\d+) s, (\d+) times", line)
            if m and log.costrun is None:
                log.costrun, log.costreps = int(m.group(1)), int(m.group(2))
            w = line.split()
            if not w:
                continue
            if w[0] == "FIO" and len(w) >= 6:
                parts = line.split(" ", 6)
                key = (int(parts[1]), parts[2], parts[3], int(parts[4]), parts[5])
                fio_lines.setdefault(key, []).append(parts[6] if len(parts) > 6 else "")
            elif w[0] == "RES" and len(w) >= 13:
                v = [int(x) for x in w[5:13]]
                log.res.append({"depth": int(w[1]), "workload": w[2], "sched": w[3],
                                "rep": int(w[4]), "elapsed_ms": v[0], "capped": v[1] != 0,
                                "idle_pct": v[2], "seeks": v[3], "sectors": v[4],
                                "fio_rc": v[7]})
            elif w[0] == "SIZE" and len(w) >= 3:
                log.sizes[w[1]] = int(w[2])
            elif w[0] == "COST" and len(w) >= 5:
                log.cost.append({"sched": w[1], "load": w[2], "busy": int(w[3]),
                                 "total": int(w[4])})
    if log.costrun is None:  # a guest older than its "cost runs" line
        log.costrun, log.costreps = params_costrun(), 1
    for key, lines in fio_lines.items():
        doc = fio_document(lines)
        if doc is None or not isinstance(doc.get("jobs"), list):
            warn("no fio JSON for %s in %s; skipped" % (" ".join(map(str, key)), path))
            continue
        log.fio[key] = doc
    return log


def percentile_ms(d, p):
    return d.get("clat_ns", {}).get("percentile", {}).get(p, 0) / 1e6


# ---- antic-sim: the same workloads on the same disk

def sim_predictions(depths, workloads, morton):
    """(depth, workload, sched) -> seconds, or for the latency workload
    the mean of its readers' median latency in ms."""
    sim = os.environ.get("ANTIC_SIM", os.path.join(TOP, "build", "antic-sim"))
    if not os.access(sim, os.X_OK):
        warn("%s not built: no predictions (run make)" % sim)
        return {}
    # each policy's column under the Linux scheduler that plays it: core's
    # table, as antic-sim --list-schedulers prints it (noop plays none)
    p = subprocess.run([sim, "--list-schedulers"], stdout=subprocess.PIPE, check=False)
    sim_sched = dict(l.split()[:2] for l in p.stdout.decode().splitlines() if len(l.split()) >= 2)
    timed = {w: morton[example_of(w)]["timed_job"] for w in workloads
             if example_of(w) in morton}
    if LATENCY_WORKLOAD in workloads:
        timed[LATENCY_WORKLOAD] = LATENCY_JOB
    out = {}
    for d in depths:
        for w in workloads:
            if w not in timed:
                continue
            job = timed[w]
            fio = os.path.join(TOP, "examples", example_of(w) + ".fio")
            p = subprocess.run([sim, "--quiet", "--output-format", "json",
                                "--set", "disk=ide2003", "--set", "queue_depth=%d" % d, fio],
                               stdout=subprocess.PIPE, check=False)
            try:
                doc = json.loads(p.stdout)
            except ValueError:
                warn("antic-sim gave no JSON for %s at depth %d" % (w, d))
                continue
            for s, r in doc.get("schedulers", {}).items():
                if s not in sim_sched:
                    continue
                jobs = [j for j in r["jobs"] if j["jobname"].startswith(job)
                        and (j["read"]["total_ios"] or j["write"]["total_ios"])]
                if not jobs:
                    continue
                if w == LATENCY_WORKLOAD:
                    v = sum(percentile_ms(j["read"], "50.000000") for j in jobs) / len(jobs)
                else:
                    v = max(j["job_runtime"] for j in jobs) / 1000  # the slowest such job
                out[(d, w, sim_sched[s])] = round(v, 3)
    return out


# ---- one cell of the table: a workload under a scheduler at a depth

class Cell:
    def __init__(self, key):
        self.depth, self.workload, self.sched = key
        self.runs = {}       # rep -> its RES line
        self.jobs = {}       # (role, name) -> sums over reps and clones
        self.measured = {}   # rep -> [(KiB moved, seconds of I/O)] per measured job
        self.fio_error = False
        self.projected = False
        self.finished = False  # a run that read everything as the cap came

    @property
    def n(self):
        return len(self.runs)

    def mean(self, field):
        return sum(r[field] for r in self.runs.values()) / self.n

    def capped(self):
        # the latency workload is time-based: its cap is its length
        return self.workload != LATENCY_WORKLOAD and any(r["capped"] for r in self.runs.values())

    def bound(self):
        """Only a bound (>T): stopped at the cap and not projected."""
        return self.capped() and not self.projected and not self.finished

    def add_job(self, role, job, rep):
        r, w = job["read"], job["write"]
        s = self.jobs.setdefault((role, job["jobname"]), {
            "n": 0, "read_MBps": 0.0, "write_MBps": 0.0, "read_iops": 0.0,
            "read_p50_ms": 0.0, "read_p99_ms": 0.0})
        s["n"] += 1
        s["read_MBps"] += r["bw_bytes"] / 1e6
        s["write_MBps"] += w["bw_bytes"] / 1e6
        s["read_iops"] += r["iops"]
        s["read_p50_ms"] += percentile_ms(r, "50.000000")
        s["read_p99_ms"] += percentile_ms(r, "99.000000")
        if role == "measured":  # per job: KiB moved and seconds of I/O (after setup)
            self.measured.setdefault(rep, []).append(
                (r["io_kbytes"] + w["io_kbytes"], max(r["runtime"], w["runtime"]) / 1000))

    def job_mean(self, role_name, field):
        s = self.jobs[role_name]
        return s[field] / s["n"]

    def planned(self, sizes):
        """KiB each measured job reads when it runs to the end; 0 where a
        stopped run cannot be projected (the fsync comes at the end)."""
        w = self.workload
        if w in ("write-vs-read", "ten-streams"):
            return 100 * 1024
        if w in ("write-vs-tree", "read-vs-tree", "six-trees"):
            return sizes.get("tree0", 0)
        if w.startswith("compile-"):
            return sizes.get("src", 0)
        return 0

    def rep_time(self, rep, sizes):
        """The time of one run. A run stopped at the cap is projected, when
        it can be: the setup fio does before the first I/O (it stats every
        file of a tree) is the wall time less the longest I/O time of a job,
        and the aggregate rate of the jobs over that I/O time is taken to
        hold until all of them have read everything (as readers finish, the
        rest seek less, so this errs long)."""
        run = self.runs[rep]
        el = run["elapsed_ms"] / 1000
        p = self.planned(sizes)
        jobs = self.measured.get(rep, [])
        if not run["capped"] or self.workload == LATENCY_WORKLOAD or not p or not jobs:
            return el
        if any(kb == 0 for kb, _ in jobs):
            return el  # a job still in setup: only a bound
        kb = sum(k for k, _ in jobs)
        io_s = max(t for _, t in jobs)
        if kb >= p * len(jobs):
            self.finished = True  # done as the cap came
            return el
        self.projected = True
        return max(el - io_s, 0) + io_s * p * len(jobs) / kb

    def metric(self, sizes):
        """Seconds (mean of reps), or for the latency workload its
        measured jobs' mean read p50 in ms."""
        if self.workload != LATENCY_WORKLOAD:
            return sum(self.rep_time(r, sizes) for r in self.runs) / self.n
        p50 = [self.job_mean(j, "read_p50_ms") for j in self.jobs if j[0] == "measured"]
        return sum(p50) / len(p50) if p50 else 0


def build_cells(log):
    cells = {}
    for r in log.res:
        key = (r["depth"], r["workload"], r["sched"])
        c = cells.setdefault(key, Cell(key))
        c.runs[r["rep"]] = r
        if r["fio_rc"] != 0 and not r["capped"]:
            c.fio_error = True
    for (depth, tag, sched, rep, role), doc in log.fio.items():
        c = cells.get((depth, tag, sched))
        if c is None:
            continue  # a cost run, or fio output without its RES line
        for job in doc["jobs"]:
            c.add_job(role, job, rep)
    return cells


# ---- the null_blk cost runs

def cost_rows(log):
    rows = {}
    for c in log.cost:
        r = rows.setdefault((c["sched"], c["load"]), {"busy": 0, "iops": []})
        r["busy"] += c["busy"]
    for (depth, tag, sched, rep, role), doc in log.fio.items():
        if not tag.startswith("cost-") or (sched, tag[5:]) not in rows:
            continue
        for job in doc["jobs"]:
            if job["jobname"] == "rr":  # the readers (reported as one group)
                rows[(sched, tag[5:])]["iops"].append(job["read"]["iops"])
    for r in rows.values():
        n = len(r["iops"])
        r["runs"] = n
        r["mean"] = sum(r["iops"]) / n if n else 0
        # busy: clock ticks (1/100 s) summed over the runs
        r["cpu_us"] = r["busy"] * 10000 / (r["mean"] * log.costrun * n) if r["mean"] else 0
    return rows


def ratio(a, b):
    return a / b if b else 0


# ---- the outputs

def fmt_cell(c, v, simt):
    s = ("~" if c.projected else ">" if c.bound() else "") + "%.1f" % v
    key = (c.depth, c.workload, c.sched)
    if key in simt:
        s += " [%.1f]" % simt[key]
    return s


def write_reports(log, cells, simt, morton, prefix):
    sizes = log.sizes
    metric = {k: c.metric(sizes) for k, c in cells.items()}  # sets projected, finished
    depths = sorted({k[0] for k in cells})
    workloads = []
    for r in log.res:
        if r["workload"] not in workloads:
            workloads.append(r["workload"])
    txt = []
    txt.append("antic vmbench on %s: %s" % (log.kver, DISK_TEXT))
    txt.append(log.header)
    results = []
    plot = []  # (label, sched, value, kind), kind: done, projected or bound
    for d in depths:
        txt.append("")
        txt.append("== queue depth %d: time in seconds (random-vs-write: read p50 ms); "
                   "mean of reps, [sim] antic-sim" % d)
        txt.append("   (>T: stopped at the cap T; ~T: stopped at the cap, "
                   "time projected from the fraction read)")
        txt.append("%-17s" % "workload" + "".join(" %17s" % s for s in SCHEDS) +
                   " %7s %7s %7s" % ("AS/dl", "AS/bfq", "Morton"))
        for w in workloads:
            row = [cells.get((d, w, s)) for s in SCHEDS]
            if not any(row):
                continue  # not run at this depth
            line = "%-17s" % w
            for c in row:
                line += " %17s" % (fmt_cell(c, metric[(d, w, c.sched)], simt) if c else "-")
            val = {c.sched: metric[(d, w, c.sched)] for c in row if c}
            bounded = {c.sched for c in row if c and c.bound()}
            a = val.get("anticipatory", 0)

            def vs(other):
                # a ratio with a bare bound (>T) in it says nothing
                if {"anticipatory", other} & bounded or not val.get(other):
                    return "-"
                return "%.2f" % (a / val[other])
            m = morton.get(example_of(w))
            line += " %7s %7s %7s" % (vs("mq-deadline"), vs("bfq"),
                                      "%.2f" % (float(m["as_s"]) / float(m["deadline_s"]))
                                      if m else "-")
            txt.append(line)
            label = w if d == 1 else "%s@qd%d" % (w, d)
            for c in row:
                if c:
                    kind = "projected" if c.projected else "bound" if c.bound() else "done"
                    plot.append((label, c.sched, metric[(d, w, c.sched)], kind))
        at_depth = [c for k, c in cells.items() if k[0] == d]
        txt.append("")
        txt.append("%-17s %-13s %-10s %9s %9s %9s %9s" % (
            "workload", "scheduler", "job", "read MB/s", "write MB/s", "p50 ms", "p99 ms"))
        for c in at_depth:
            for j in c.jobs:
                txt.append("%-17s %-13s %-10s %9.2f %9.2f %9.2f %9.2f" % (
                    c.workload, c.sched, j[1][:10], c.job_mean(j, "read_MBps"),
                    c.job_mean(j, "write_MBps"), c.job_mean(j, "read_p50_ms"),
                    c.job_mean(j, "read_p99_ms")))
        txt.append("")
        txt.append("%-17s %-13s %6s %8s %8s %8s %s" % (
            "workload", "scheduler", "reps", "seeks", "disk%seq", "idle%", "sim err%"))
        for c in at_depth:
            key = (c.depth, c.workload, c.sched)
            v = metric[key]
            frac = sum(r["sectors"] * 512 / (r["elapsed_ms"] / 1000) / OUTER_BPS
                       for r in c.runs.values()) / c.n
            se = "-"
            if key in simt and c.bound():
                se = "capped"  # the kernel's time is only a bound
            elif key in simt and v:
                se = "%+.0f" % ((simt[key] - v) * 100 / v)
                if c.projected:
                    se += " (projected)"
            txt.append("%-17s %-13s %6d %8d %8.2f %8.1f %s" % (
                c.workload, c.sched, c.n, int(c.mean("seeks")), frac, c.mean("idle_pct"), se))
            times = [r["elapsed_ms"] / 1000 for r in c.runs.values()]
            results.append({
                "depth": c.depth, "workload": c.workload, "scheduler": c.sched,
                "reps": c.n, "time_s": round(sum(times) / c.n, 3),
                "time_min_s": round(min(times), 3), "time_max_s": round(max(times), 3),
                "censored": c.bound(), "projected": c.projected, "metric": round(v, 3),
                "fio_error": c.fio_error, "idle_pct": round(c.mean("idle_pct"), 1),
                "seeks": round(c.mean("seeks")), "throughput_fraction": round(frac, 4),
                "sim_time_s": simt.get(key),
                "jobs": [{"role": j[0], "name": j[1],
                          "read_MBps": round(c.job_mean(j, "read_MBps"), 3),
                          "write_MBps": round(c.job_mean(j, "write_MBps"), 3),
                          "read_iops": round(c.job_mean(j, "read_iops"), 1),
                          "read_p50_ms": round(c.job_mean(j, "read_p50_ms"), 3),
                          "read_p99_ms": round(c.job_mean(j, "read_p99_ms"), 3)}
                         for j in c.jobs]})

    costs = cost_rows(log)
    txt.append("")
    txt.append("== scheduler cost on null_blk (4 KiB random reads, 4 jobs x iodepth 32; "
               "mean of %d runs of %d s, IOPS range in brackets)" % (log.costreps, log.costrun))
    txt.append("%-13s %-13s %10s %17s %8s %12s %8s" % (
        "scheduler", "load", "IOPS", "(min-max)", "vs none", "CPU us/IO", "vs none"))
    cost_json = []
    for (s, load), r in costs.items():
        base = costs.get(("none", load), {"mean": 0, "cpu_us": 0})
        lo, hi = (round(min(r["iops"])), round(max(r["iops"]))) if r["iops"] else (0, 0)
        txt.append("%-13s %-13s %10.0f %17s %8.2f %12.2f %8.2f" % (
            s, load, r["mean"], "(%d-%d)" % (lo, hi), ratio(r["mean"], base["mean"]),
            r["cpu_us"], ratio(r["cpu_us"], base["cpu_us"])))
        cost_json.append({"scheduler": s, "load": load, "runs": r["runs"],
                          "iops": round(r["mean"]), "iops_min": lo, "iops_max": hi,
                          "cpu_us_per_io": round(r["cpu_us"], 3),
                          "iops_vs_none": round(ratio(r["mean"], base["mean"]), 3),
                          "cpu_vs_none": round(ratio(r["cpu_us"], base["cpu_us"]), 3)})
    for (s, load), r in costs.items():
        dl, bq = costs.get(("mq-deadline", load)), costs.get(("bfq", load))
        if s == "anticipatory" and dl and bq and dl["mean"] and bq["mean"]:
            txt.append("anticipatory, %s: IOPS %.2f of mq-deadline, %.2f of bfq; "
                       "CPU per I/O %.2f of mq-deadline, %.2f of bfq" % (
                           load, r["mean"] / dl["mean"], r["mean"] / bq["mean"],
                           ratio(r["cpu_us"], dl["cpu_us"]), ratio(r["cpu_us"], bq["cpu_us"])))

    with open(prefix + ".txt", "w", encoding="utf-8") as f:
        f.write("\n".join(txt) + "\n")
    # one result per line, so that two reports compare line by line
    head = json.dumps({"kernel": log.kver, "disk": DISK, "memcg": "256M"})[:-1]
    with open(prefix + ".json", "w", encoding="utf-8") as f:
        f.write(head + ",\n \"results\": [")
        f.write(",".join("\n  " + json.dumps(r) for r in results))
        f.write("\n ],\n \"cost\": [")
        f.write(",".join("\n  " + json.dumps(r) for r in cost_json))
        f.write("\n ]\n}\n")
    return plot


def params_costrun():
    """The cost runs' length as vmbench.sh passed it, for a log without it."""
    try:
        with open(os.path.join(TOP, "build", "vmbench", "params"), encoding="utf-8") as f:
            for l in f:
                if l.startswith("COSTRUN="):
                    return int(l.split("=", 1)[1])
    except (OSError, ValueError):
        pass
    return 10


# ---- the plot: bars per workload, one per scheduler

def gnuplot_script(plot, kver, dat):
    labels = []
    for label, _, _, _ in plot:
        if label not in labels:
            labels.append(label)
    scheds = [s for s in SCHEDS if any(p[1] == s for p in plot)]
    width = 0.8 / len(scheds)
    kinds = ("done", "projected", "bound")
    with open(dat, "w", encoding="utf-8") as f:
        f.write("# x value kind scheduler (indexes into kinds and scheds)\n")
        for label, sched, v, kind in plot:
            if v > 0:  # the axis is logarithmic
                i = scheds.index(sched)
                x = labels.index(label) + (i - (len(scheds) - 1) / 2) * width
                f.write("%.4f %.3f %d %d\n" % (x, v, kinds.index(kind), i))
    lines = [
        'set title "antic vmbench, %s: time per workload (s, log scale; lower is better)" '
        'noenhanced' % kver,
        "set logscale y",
        'set ylabel "seconds (random-vs-write: read p50 ms)"',
        "set xtics rotate by -30 noenhanced",
        "set xtics (%s)" % ", ".join('"%s" %d' % (l, i) for i, l in enumerate(labels)),
        "set xrange [-0.6:%.1f]" % (len(labels) - 0.4),
        "set boxwidth %.4f absolute" % (width * 0.9),
        "set key outside right top",
        "set style fill solid 0.8 border -1",
    ]
    # the key: one entry per scheduler, whichever kinds of run it had
    parts = ['keyentry with boxes lc %d fill solid 0.8 border -1 title "%s"' % (SCHEDS.index(s) + 1, s)
             for s in scheds]
    parts.append('keyentry with boxes lc black fill pattern 4 border '
                 'title "stopped at the cap: projected"')
    parts.append('keyentry with vectors head filled lw 2 lc black '
                 'title "stopped at the cap: at least"')
    for i, s in enumerate(scheds):
        def only(kind):
            return "(($3 == %d && $4 == %d) ? $2 : NaN)" % (kinds.index(kind), i)
        # finished: a solid bar; projected: a hatched one; a bare bound:
        # no bar, an arrow up from the cap
        lc = SCHEDS.index(s) + 1  # a scheduler's colour is the same in every plot
        parts.append('"%s" using 1:%s with boxes lc %d fill solid 0.8 border -1 notitle'
                     % (dat, only("done"), lc))
        parts.append('"%s" using 1:%s with boxes lc %d fill pattern 4 border notitle'
                     % (dat, only("projected"), lc))
        parts.append('"%s" using 1:%s:(0):2 with vectors head filled lw 2 lc %d notitle'
                     % (dat, only("bound"), lc))
    lines.append("plot " + ", \\\n\t".join(parts))
    return "\n".join(lines) + "\n"


def draw(plot, kver, prefix):
    if not plot:
        return "(no plot: no measured runs)"
    if not shutil.which("gnuplot"):
        return "(no plot: install gnuplot-nox)"
    with tempfile.TemporaryDirectory() as tmp:
        dat = os.path.join(tmp, "plot.dat")
        script = gnuplot_script(plot, kver, dat)
        for term, spec in (("png", "pngcairo size 1400,650"), ("svg", "svg size 1400,650")):
            g = 'set terminal %s\nset output "%s.%s"\n' % (spec, prefix, term) + script
            # quiet unless it fails: it warns of every empty kind of run
            p = subprocess.run(["gnuplot"], input=g.encode(), stderr=subprocess.PIPE, check=False)
            if p.returncode:
                sys.stderr.write(p.stderr.decode(errors="replace"))
                return "(gnuplot failed for %s)" % term
    return None


def main(argv):
    if len(argv) != 3:
        print("usage: bench/report.py LOG PREFIX", file=sys.stderr)
        return 2
    path, prefix = argv[1], argv[2]
    log = read_log(path)
    morton = morton_figures()
    cells = build_cells(log)
    depths = sorted({k[0] for k in cells})
    workloads = sorted({k[1] for k in cells})
    simt = sim_predictions(depths, workloads, morton)
    plot = write_reports(log, cells, simt, morton, prefix)
    with open(prefix + ".txt", encoding="utf-8") as f:
        sys.stdout.write(f.read())
    why = draw(plot, log.kver, prefix)
    if why:
        print("report: %s.txt %s.json %s" % (prefix, prefix, why))
    else:
        print("report: %s.txt %s.json %s.png %s.svg" % (prefix, prefix, prefix, prefix))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
