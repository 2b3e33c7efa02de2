#!/usr/bin/env python3
"""Turns a vmbench log into PREFIX.txt (tables), PREFIX.json and, when
gnuplot is installed, PREFIX.png and PREFIX.svg, with antic-sim's
predictions for the same workloads, disks and loads beside the kernel's
figures; and writes the head-to-head section of docs/results.md from
such JSON files.

The log is the guest's console (bench/guest-bench.sh): DISK, RES, SREPLAY,
COST and SIZE lines, and fio's JSON documents, each on a line of its own
behind "FIO DEPTH WORKLOAD SCHED REP ROLE ". Both fio's and antic-sim's JSON
are read by key.

Each cell (kernel, disk, depth, workload, load, scheduler) gets the median,
minimum and maximum of its repetitions. A repetition stopped at its cap is
either projected ("~T", from what it had read) or only a bound (">T"); a
cell with any such repetition is "capped" and is never drawn as a plain
bar. anticipatory's ratio to mq-deadline and to bfq is called a win or a
loss only when the two cells' ranges do not overlap (a capped repetition's
range reaches up without end) and the ratio of their medians lies beyond
the instrument's margin, else "within noise"; a cell of one run has no
range, and no verdict ("one run"). The margin is the spread a null A/B
showed (--null: its report's JSON; the largest difference between one
module under two names in one repetition, same seed: that cell's where
the null A/B ran it, but at least 2 %, else the largest of all its
cells'; --null may be given again, for null A/Bs of other cells: a cell
takes the largest spread any of them shows for it), or one stated
(--margin PCT); without either it is 0 and the ranges alone decide.

--ab A:B tabulates scheduler B against A cell by cell and repetition by
repetition (a null A/B: one module under two names; a known A/B: one
tunable changed); the JSON's "ab" holds each cell's spread, the null
margin a later report reads. The fairness workloads (fair-aio,
fair-psync) get each process's IOPS, p50, p99 and share of the disk: its
rate beside the other over its rate alone (fair-solo-*), with antic-sim's
figures for the same job files beside them. The ionice workloads get each
job's own runtime (a reader alone and beside an idle-class and a
best-effort backup, a player at real time and at best effort), their
ratios judged against ionice's promises by the ranges, antic-sim beside.

Usage: bench/report.py [--null JSON | --margin PCT] [--ab A:B]... [--as NAME] [--drop NAME]...
                        LOG... PREFIX
       (several LOGs: one run made in parts, per disk or the start-ups
       apart, of one kernel and instrument; each part's wall time is shown)
       (--as NAME: NAME's cells are anticipatory's, NAME being a build of
       the revision reported under another name, bench/variant-ko.sh, run
       in a part of its own; anticipatory's own cells are left out where
       NAME ran the same cell; --drop NAME: every cell of NAME left out,
       as a module's twin once its null A/B is reported)
       (ANTIC_SIM: another antic-sim binary)
       bench/report.py --readme FILE JSON...  (rewrites the section
       between FILE's vmbench markers, as in docs/results.md, from the
       reports' JSON)
       bench/report.py --repeat A.json B.json  (two boots of one
       configuration, cell by cell and repetition by repetition)"""

import gzip
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEDS = ["none", "mq-deadline", "kyber", "bfq", "anticipatory"]
RIVALS = ["mq-deadline", "bfq"]  # the ratios the report judges
# the measured job of each Morton workload, by its name in bench/jobs/*.fio
MEASURED = {"write-vs-read": "cat", "write-vs-tree": "tree", "read-vs-tree": "tree",
            "six-trees": "tree", "ten-streams": "stream", "read-vs-fsync": "fsync",
            "compile-vs-write": "compile", "compile-alone": "compile", "random-vs-write": "rand"}
# where ext4 put the small-file workloads' files in the guest's fresh file
# system (bench/fs-layout.sh TREES, run as guest-bench.sh lays them out):
# antic-sim reads them there (its layout setting) instead of one after another
LAYOUT = {"write-vs-tree": "tree1.map", "read-vs-tree": "tree1.map"}
# A map describes a fresh file system holding only the workload's files,
# which guest-bench.sh's fresh() makes before each measured run when FRESH=1
# (vmbench.sh's default on the instruction clock, isolated boots included).
# Each boot says which in its first line, "vm: boot_id ID, date D, fresh=N
# ...". A log without that line is older than FRESH (the line and the
# setting came in together): its boot laid every workload's files out once
# and the runs shared them, written over by the runs before, so the map
# does not hold there.
BOOT_FRESH_RX = re.compile(r"vm: boot_id \S+,(?:.* fresh=(\d+)\b)?")


def boot_fresh(line):
    """None if LINE is no boot's first line, else whether that boot's runs
    each had a fresh file system (fresh=1; no fresh= field: no)."""
    m = BOOT_FRESH_RX.search(line)
    return None if not m else m.group(1) == "1"


def log_fresh(path):
    """Whether every boot of the guest log at PATH ran on fresh file
    systems (a log with no boot line: no), as read_log's Log.fresh."""
    fresh = None
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            b = boot_fresh(line)
            if b is not None:
                fresh = b if fresh is None else fresh and b
    return bool(fresh)


def sim_layout_args(workload, fresh):
    """antic-sim's --set for WORKLOAD's layout in bench/layouts, or none:
    only for a run on a fresh file system (FRESH), the one the map shows."""
    if not fresh or workload not in LAYOUT:
        return []
    return ["--set", "layout=" + os.path.join(TOP, "bench", "layouts", LAYOUT[workload])]


# the bench workloads whose example (and Morton row) is named otherwise
EXAMPLE = {"six-trees": "six-tree-readers"}
# the metric of this workload is its readers' median latency in ms, not a time
LATENCY_WORKLOAD = "random-vs-write"
# the fairness workloads' figure: the random reader's mean completion
# latency in ms (its IOPS is its depth over that, so lower is better, as
# for a time); each run is time-based, its length the cap
def is_fair(workload):
    return workload in ("fair-aio", "fair-psync")


def latency_ms(workload):
    return workload == LATENCY_WORKLOAD or is_fair(workload)
# the simulator's error targets (issue 17): the measured I/O straight to
# the raw device (the start-ups, the random readers), else through ext4
# and the page cache
RAW_DIRECT = ("random-vs-write",)
TARGET_PCT = {"raw-direct": 10, "ext4": 25}


def io_path(workload):
    return "raw-direct" if is_startup(workload) or workload in RAW_DIRECT else "ext4"


# a log from before DISK lines ran every workload on this disk
OLD_DISK = "ide2003"
START_MARK = "<!-- vmbench results: written by bench/report.py --readme; do not edit by hand -->"
END_MARK = "<!-- end of vmbench results -->"


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


def split_tag(tag):
    """RES's workload tag: "startup-git@5r5w-seq" -> ("startup-git", "5r5w-seq")."""
    w, _, load = tag.partition("@")
    return w, (load or None)


def is_startup(workload):
    return workload.startswith("startup-")


def read_startup_sets(path=os.path.join(TOP, "bench", "startup", "SETS")):
    """bench/startup/SETS: "tuning NAME..." and "validation NAME..." lines
    -> {name: set}. A start-up it does not name counts as validation: no
    rule was tuned on it."""
    sets = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            words = line.split("#")[0].split()
            if not words:
                continue
            if words[0] not in STARTUP_SET_NAMES or len(words) < 2:
                sys.exit("report: %s:%d: set: expected \"tuning NAME...\" or "
                         "\"validation NAME...\"" % (path, n))
            for name in words[1:]:
                if name in sets:
                    sys.exit("report: %s:%d: name: %s is in two sets" % (path, n, name))
                sets[name] = words[0]
    return sets


STARTUP_SET_NAMES = ("tuning", "validation")
STARTUP_SETS = read_startup_sets()


def startup_set(workload):
    """A start-up's set ("tuning" or "validation"); None for a Morton workload."""
    if not is_startup(workload):
        return None
    return STARTUP_SETS.get(workload[len("startup-"):], "validation")


# ---- the guest's log

class Log:
    def __init__(self):
        self.kver = ""
        self.header = ""
        self.cap = 20
        self.caps = {}  # disk -> its runs' cap (s): a part's own, parts of other disks may differ
        self.warm = 3.0
        self.time_scale = 1.0
        self.startup_offset = "0"  # where the guest placed the start-ups' sectors
        self.quick = False
        self.costrun = None
        self.costreps = None
        self.icount = None   # qemu's instruction clock: 2^icount ns a guest instruction
        self.read_ahead = {}  # disk -> its read_ahead_kb in the guest, as the log says (the kernel's per disk)
        self.as_set = []  # anticipatory's tunables as AS_SET wrote them ("name=value")
        self.cost_antic_expire = None  # anticipatory's antic_expire in the cost runs, ms
        self.disks = []   # (preset, depth) in order
        self.sizes = {}   # (preset, name) -> KiB
        self.res = []     # RES lines as dicts, in order
        self.sreplay = {}  # (disk, depth, tag, sched, rep) -> the replayer's figures
        self.fio = {}     # (disk, depth, tag, sched, rep, role) -> fio's document
        self.cost = []    # COST lines as dicts, in order
        self.boot_id = None  # the guest's first draw from its random pool
        self.settle = {}  # (disk, depth, tag, sched, rep) -> ms waited for writeback
        self.clock = {}   # (disk, depth, tag, sched, rep) -> guest uptime (s) at the run's start
        self.walls = []   # the host's ms since boot at each RES line, in order
        self.isolated = False  # every run a boot of its own (vmbench.sh's ISOLATE=1)
        self.fresh = None  # every boot's runs on a fresh file system (FRESH=1; boot_fresh)


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
    disk = OLD_DISK
    # a committed log is gzipped (a full run's fio JSON is ~5 MB of text)
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            m = re.search(r"vm: kernel ([^,]*),", line)
            if m and not log.kver:
                log.kver = m.group(1)
            m = re.search(r"vm: kernel .*cpus, quick=", line)
            if m:
                log.header = line[m.start():]
                for key, rx, conv in (("cap", r" cap=(\d+)s", int), ("warm", r" warm=([\d.]+)s", float),
                                      ("time_scale", r" time_scale=([\d.]+)", float),
                                      ("quick", r" quick=(\d)", lambda v: v == "1"),
                                      ("startup_offset", r" startup_offset=(\w+)", str),
                                      # the header's last field: AS_SET's words
                                      ("as_set", r" as_set=(.*)$", str.split)):
                    mm = re.search(rx, line)
                    if mm:
                        setattr(log, key, conv(mm.group(1)))
            m = re.search(r"^vm: disk ready, .*read_ahead_kb (\d+)", line)
            if m:
                log.read_ahead.setdefault(disk, int(m.group(1)))
            m = re.search(r"^vm: instruction clock: icount shift=(\d+)", line)
            if m:
                log.icount = int(m.group(1))
            m = re.search(r"vm: cost runs of (\d+) s, (\d+) times(?:, antic_expire (\d+) ms)?", line)
            if m and log.costrun is None:
                log.costrun, log.costreps = int(m.group(1)), int(m.group(2))
                log.cost_antic_expire = int(m.group(3)) if m.group(3) else None
            m = re.search(r"vm: boot_id (\S+),", line)
            if m and log.boot_id is None:
                log.boot_id = m.group(1)
            if line.startswith("VMBENCH END isolated"):
                log.isolated = True
            b = boot_fresh(line)
            if b is not None:
                log.fresh = b if log.fresh is None else log.fresh and b
            w = line.split()
            if not w:
                continue
            if w[0] == "WALL" and len(w) == 2 and w[1].isdigit():
                if log.res and "wall_ms" not in log.res[-1]:
                    log.res[-1]["wall_ms"] = int(w[1])
                log.walls.append(int(w[1]))
            elif w[0] in ("SETTLE", "CLOCK") and len(w) >= 6:
                try:
                    key = (disk, int(w[1]), w[2], w[3], int(w[4]))
                    if w[0] == "SETTLE":
                        log.settle[key] = int(w[5])
                    else:
                        log.clock[key] = float(w[5])
                except ValueError:
                    warn("%s: a malformed %s line: %s" % (path, w[0], line[:80]))
            elif w[0] == "DISK" and len(w) == 3 and w[2].isdigit():
                disk = w[1]
                if (w[1], int(w[2])) not in log.disks:  # an isolated run's boots each name theirs
                    log.disks.append((w[1], int(w[2])))
            elif w[0] == "FIO" and len(w) >= 6:
                parts = line.split(" ", 6)
                key = (disk, int(parts[1]), parts[2], parts[3], int(parts[4]), parts[5])
                fio_lines.setdefault(key, []).append(parts[6] if len(parts) > 6 else "")
            elif w[0] == "RES" and len(w) >= 13:
                v = [int(x) for x in w[5:13]]
                log.res.append({"disk": disk, "depth": int(w[1]), "tag": w[2], "sched": w[3],
                                "rep": int(w[4]), "elapsed_ms": v[0], "capped": v[1] != 0,
                                "idle_pct": v[2], "seeks": v[3], "sectors": v[4],
                                "fio_rc": v[7]})
            elif w[0] == "SREPLAY" and len(w) >= 6:
                figs = {}
                for kv in w[5:]:
                    k, _, val = kv.partition("=")
                    try:
                        figs[k] = float(val)
                    except ValueError:
                        pass
                if "time_ms" in figs:
                    log.sreplay[(disk, int(w[1]), w[2], w[3], int(w[4]))] = figs
                else:
                    warn("%s: an SREPLAY line without time_ms: %s" % (path, line[:80]))
            elif w[0] == "SIZE" and len(w) >= 3:
                log.sizes[(disk, w[1])] = int(w[2])
            elif w[0] == "COST" and len(w) >= 5:
                log.cost.append({"sched": w[1], "load": w[2], "busy": int(w[3]),
                                 "total": int(w[4])})
    log.fresh = bool(log.fresh)
    if not log.disks:
        log.disks = sorted({(OLD_DISK, r["depth"]) for r in log.res})
    log.caps = {d: log.cap for d, _ in log.disks}
    if log.costrun is None:  # a guest older than its "cost runs" line
        log.costrun, log.costreps = params_costrun(), 1
    for key, lines in fio_lines.items():
        doc = fio_document(lines)
        if doc is None or not isinstance(doc.get("jobs"), list):
            warn("no fio JSON for %s in %s; skipped" % (" ".join(map(str, key[1:])), path))
            continue
        log.fio[key] = doc
    return log


def merge_logs(logs, paths):
    """One Log of a run made in parts (per disk, or the start-ups apart):
    the parts must be boots of one kernel and one instrument (warm-up,
    time scale, clock, the start-ups' offset, AS_SET; per disk the cap and
    read-ahead), each its own boot, and no cell may be in two of them.
    Returns (log, None) or (None, why)."""
    base = logs[0]
    base.parts = [(paths[0], base.walls[-1] if base.walls else None)]
    keys = {(r["disk"], r["depth"], r["tag"], r["sched"], r["rep"]) for r in base.res}
    if any(lg.isolated != base.isolated for lg in logs):
        return None, "%s: a boot for every run (ISOLATE=1) in some parts, not in others: " \
            "their wall times do not add; report them apart" % paths[0]
    for other, path in zip(logs[1:], paths[1:]):
        # isolated boots of different cells may draw the same boot_id
        if not base.isolated and other.boot_id and other.boot_id == base.boot_id:
            return None, "%s: the same boot (boot_id %s) as %s: a part is its own boot" % (
                path, other.boot_id, paths[0])
        # the cap is a disk's: random-vs-write and the fairness jobs run for
        # it (half of it, all of it), so one disk's runs share one
        for d, c in other.caps.items():
            if base.caps.get(d, c) != c:
                return None, "%s: cap %d s at %s, but an earlier part has %d" % (
                    path, c, d, base.caps[d])
        for attr in ("kver", "warm", "time_scale", "icount", "quick", "startup_offset",
                     "as_set"):
            if getattr(other, attr) != getattr(base, attr):
                return None, "%s: %s %s, but %s has %s" % (
                    path, attr, getattr(other, attr), paths[0], getattr(base, attr))
        for d, kb in other.read_ahead.items():
            if base.read_ahead.get(d, kb) != kb:
                return None, "%s: read_ahead_kb %d at %s, but an earlier part has %d" % (
                    path, kb, d, base.read_ahead[d])
        for r in other.res:
            k = (r["disk"], r["depth"], r["tag"], r["sched"], r["rep"])
            if k in keys:
                return None, "%s: %s %d %s %s repetition %d is in an earlier part too" % (
                    path, k[0], k[1], k[2], k[3], k[4])
            keys.add(k)
        # an isolated part's runs each carry their own boot's wall time
        off = 0 if base.isolated else base.walls[-1] if base.walls else 0
        for r in other.res:
            if "wall_ms" in r:
                r["wall_ms"] += off
        base.walls += [w + off for w in other.walls]
        base.parts.append((path, other.walls[-1] if other.walls else None))
        if other.header not in base.header.split("\n"):
            base.header += "\n" + other.header
        base.disks += [d for d in other.disks if d not in base.disks]
        base.res += other.res
        base.cost += other.cost
        base.fresh = base.fresh and other.fresh  # the map only if every part's runs had one
        for attr in ("sizes", "sreplay", "fio", "settle", "clock"):
            getattr(base, attr).update(getattr(other, attr))
        for d, kb in other.read_ahead.items():
            base.read_ahead.setdefault(d, kb)
        for d, c in other.caps.items():
            base.caps.setdefault(d, c)
    return base, None


def take_variant(log, name, drop):
    """NAME's cells become anticipatory's (NAME is a variant build of the
    revision reported, bench/variant-ko.sh): anticipatory's own cells are
    left out where NAME ran the same cell (disk, depth, workload, load;
    a cost run's mix), and every cell of the schedulers in DROP. NAME
    None: DROP's alone (a twin once its null A/B is reported). Returns
    None, or why not."""
    if "anticipatory" in drop and name is None:
        return "--drop anticipatory: the module's cells are what the report compares; " \
            "--drop it only with --as, whose cells stand for it"
    if name is not None:
        if name == "anticipatory" or name in drop:
            return "--as %s: a variant's name, neither anticipatory nor one --drop leaves out" % name
        if log.as_set:
            return "--as %s: the logs' AS_SET (%s) was written to anticipatory's tunables alone" % (
                name, " ".join(log.as_set))
    for n, opt in [(name, "--as")] * (name is not None) + [(d, "--drop") for d in drop]:
        if not any(r["sched"] == n for r in log.res) and not any(c["sched"] == n for c in log.cost):
            return "%s %s: no cell of %s in the logs" % (opt, n, n)
    # the cells NAME ran: (disk, depth, workload) of a run, a cost run's mix
    ran = {(r["disk"], r["depth"], r["tag"]) for r in log.res if r["sched"] == name}
    ran |= {c["load"] for c in log.cost if c["sched"] == name}

    def gone(sched, cell):
        return sched in drop or (sched == "anticipatory" and cell in ran)

    def rename(s):
        return "anticipatory" if s == name else s
    log.res = [dict(r, sched=rename(r["sched"])) for r in log.res
               if not gone(r["sched"], (r["disk"], r["depth"], r["tag"]))]
    for attr in ("settle", "clock", "sreplay", "fio"):
        d = getattr(log, attr)
        setattr(log, attr, {k[:3] + (rename(k[3]),) + k[4:]: v for k, v in d.items()
                            if not gone(k[3], k[:3])})
    log.cost = [dict(c, sched=rename(c["sched"])) for c in log.cost
                if not gone(c["sched"], c["load"])]
    return None


def percentile_ms(d, p):
    return d.get("clat_ns", {}).get("percentile", {}).get(p, 0) / 1e6


# ---- antic-sim: the same workloads on the same disk

def sim_binary():
    sim = os.environ.get("ANTIC_SIM", os.path.join(TOP, "build", "antic-sim"))
    if not os.access(sim, os.X_OK):
        warn("%s not built: no predictions (run make)" % sim)
        return None
    return sim



from results_lib import by_scheduler  # noqa: E402 (bench/, the script's own folder)

def run_sim(sim, args, env):
    """antic-sim's JSON for ARGS (a job file, or "replay" first and a trace)."""
    sub = args[:1] if args[:1] == ["replay"] else []
    p = subprocess.run([sim] + sub + ["--quiet", "--output-format", "json"] + args[len(sub):],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, check=False)
    try:
        return by_scheduler(json.loads(p.stdout))
    except ValueError:
        warn("antic-sim gave no JSON for %s: %s" % (" ".join(args),
                                                    p.stderr.decode(errors="replace").strip()[:200]))
        return None


def sim_schedulers(sim):
    """antic-sim's policy -> the Linux scheduler that plays it (noop plays
    none), from its --list-schedulers."""
    p = subprocess.run([sim, "--list-schedulers"], stdout=subprocess.PIPE, check=False)
    return dict(l.split()[:2] for l in p.stdout.decode().splitlines() if len(l.split()) >= 2)


def job_sections(path):
    """A job file's [global] text and its jobs' sections, [(name, text)]:
    each section's lines up to the next header."""
    with open(path, encoding="utf-8") as f:
        parts = re.split(r"(?m)^(?=\[)", f.read())
    glob = "".join(x for x in parts if x.startswith("[global]"))
    jobs = []
    for x in parts:
        m = re.match(r"\[([^\]]+)\]", x)
        if m and m.group(1) != "global":
            jobs.append((m.group(1), x))
    return glob, jobs


def section_alone(path, name, tmp):
    """A job file in TMP of PATH's [global] and its section NAME alone: one
    job of a pair run by itself."""
    glob, jobs = job_sections(path)
    alone = os.path.join(tmp, "%s-%s.fio" % (os.path.basename(path)[:-4], name))
    with open(alone, "w", encoding="utf-8") as f:
        f.write(glob + "".join(x for n, x in jobs if n == name))
    return alone


def sim_disk_args(log, disk, depth):
    """antic-sim's settings for a cell of LOG at DISK and DEPTH: the preset,
    the raw disk's read-ahead as the guest's kernel set it (7.x: 1024 KiB
    where the drive's optimal I/O size allows, 6.x: 128), and anticipatory's
    tunables as its runs had them (antic-sim takes the sysfs names;
    deadline's are dl_*, so only anticipatory's prediction changes)."""
    dset = ["--set", "disk=%s" % disk, "--set", "queue_depth=%d" % depth]
    if log.read_ahead.get(disk):
        dset += ["--set", "read_ahead_kb=%d" % log.read_ahead[disk]]
    for kv in log.as_set:
        dset += ["--set", kv]
    return dset


def cap_of(log, disk):
    """The cap (s) of DISK's runs: random-vs-write's runtime is half of it,
    the fairness jobs' all of it, in the guest and in antic-sim alike."""
    return log.caps.get(disk, log.cap)


def load_sections(fio, workload):
    """The sections of job file FIO that are WORKLOAD's load (run first, in
    the background, in the guest): those not named for its measured job."""
    if workload not in MEASURED or not os.path.exists(fio):
        return []
    return [n for n, _ in job_sections(fio)[1] if not n.startswith(MEASURED[workload])]


def job_start_ms(doc):
    """When the jobs of fio's document DOC started, in its clock's ms: its
    timestamp_ms (taken as fio prints the document, once every job has
    ended) less its longest job_runtime. None without both, or when no job
    ran: a measured fio stopped at the cap while still laying out or
    stat'ing its files prints runtimes of 0, and its timestamp is the cap's
    end, not a start."""
    t = [j.get("job_runtime") for j in (doc or {}).get("jobs", [])]
    if not isinstance((doc or {}).get("timestamp_ms"), int) or not t or \
            not all(isinstance(x, int) for x in t) or max(t) <= 0:
        return None
    return doc["timestamp_ms"] - max(t)


def measured_lead(cell, loads, where=""):
    """The load's head start over the measured job in the kernel's runs of
    CELL, in s to 0.1 s: per repetition the measured job's start less the
    load's (job_start_ms; the load's role is one of LOADS, its job file's
    load sections), the median over the repetitions whose log has both
    documents, a capped run's too. None where none has. The load's
    job_runtime alone does not place its start: it runs on until the
    load's fio leaves after bg_stop's SIGINT, a writer held in writeback
    seconds after the measured job ended."""
    leads = []
    for rep in sorted(cell.runs):
        docs = cell.docs.get(rep, {})
        m = job_start_ms(docs.get("measured"))
        starts = [job_start_ms(docs[r]) for r in loads if r in docs]
        if m is None or not starts or None in starts:
            continue
        if m - min(starts) >= 0:
            leads.append(m - min(starts))
        else:
            warn("%s repetition %s: the measured job started %d ms before its load: "
                 "left out of the load's head start" % (where, rep, min(starts) - m))
    return round(statistics.median(leads) / 100) / 10 if leads else None


def sim_predictions(log, cells):
    """(disk, depth, workload, load, sched) -> {"value": metric, "background":
    {read_MBps, write_MBps} for the start-up rows, "lead": the load's head
    start (s) and "lead_from": "log" or "header" for a workload with a
    load}. Each workload's job file is the one the guest ran (bench/jobs),
    the measured job's start delay (${WARM}) the guest's warm-up, but where
    the job file has a load: there the load's head start in the kernel's
    runs of the same cell and scheduler (measured_lead; the guest's
    sleep, its wait for writeback and fio's setup of the measured job),
    or where the log does not give it, the header's warm-up (lead_from
    "header", marked in the tables); each scheduler's figure from a run
    of antic-sim with its own head start, schedulers of one head start in
    one run. A start-up is its fixture replayed beside the same load's
    job file, the warm-up the guest's."""
    sim = sim_binary()
    if not sim:
        return {}
    # each policy's column under the Linux scheduler that plays it (noop plays none)
    sim_sched = sim_schedulers(sim)
    policy = {lx: s for s, lx in sim_sched.items()}
    out = {}
    for disk, depth, w, load in sorted({k[:4] for k in cells}, key=str):
        env = dict(os.environ, WARM=str(int(log.warm)), RANDRT=str(cap_of(log, disk) // 2))
        dset = sim_disk_args(log, disk, depth)
        # (WARM, lead, lead_from, policies): one antic-sim run each
        runs = [(env["WARM"], None, None, None)]
        if is_startup(w):
            trace = os.path.join(TOP, "bench", "startup", w[len("startup-"):] + ".blkparse")
            args = ["replay"] + dset + ["--time-scale", repr(log.time_scale),
                                        "--start", "%dms" % round(log.warm * 1000),
                                        "--offset", log.startup_offset]
            if load and load != "none":
                args += ["--jobs", os.path.join(TOP, "bench", "jobs", "startup-%s.fio" % load)]
            args += [trace]
        else:
            fio = os.path.join(TOP, "bench", "jobs", w + ".fio")
            if not os.path.exists(fio):  # a log from before bench/jobs
                fio = os.path.join(TOP, "examples", example_of(w) + ".fio")
            if w not in MEASURED or not os.path.exists(fio):
                continue
            args = dset + sim_layout_args(w, log.fresh) + [fio]
            loads = load_sections(fio, w)
            if loads:
                groups = {}
                for lx in sorted({k[4] for k in cells if k[:4] == (disk, depth, w, load)}):
                    if lx not in policy:
                        continue
                    lead = measured_lead(cells[(disk, depth, w, load, lx)], loads,
                                         "%s:%s %s %s" % (disk, depth, w, lx))
                    g = (round(lead * 1000), "log") if lead is not None else \
                        (round(log.warm * 1000), "header")
                    groups.setdefault(g, []).append(policy[lx])
                runs = [("%dms" % ms, ms / 1000, src, ps)
                        for (ms, src), ps in sorted(groups.items())]
        for warm, lead, src, ps in runs:
            more = ["--scheduler", ",".join(sorted(ps))] if ps else []
            doc = run_sim(sim, more + args, dict(env, WARM=warm))
            if doc:
                collect(out, doc, log, sim_sched, (disk, depth, w, load), lead, src, ps)
    return out


def collect(out, doc, log, sim_sched, cell, lead, src, policies):
    """OUT's predictions for CELL (disk, depth, workload, load) from
    antic-sim's document DOC: the schedulers of POLICIES (all if None),
    given a load's head start LEAD (s) from SRC."""
    disk, depth, w, load = cell
    for s, r in doc.get("schedulers", {}).items():
        if s not in sim_sched or (policies is not None and s not in policies):
            continue
        key = (disk, depth, w, load, sim_sched[s])
        if is_startup(w):
            if not r.get("sim_time_ns"):
                continue
            t = r["sim_time_ns"] / 1e9
            bgj = [j for j in r["jobs"] if j["jobname"].startswith(("reader", "writer"))]
            out[key] = {"value": round(t - log.warm, 3), "background": {
                "read_MBps": round(sum(j["read"]["io_bytes"] for j in bgj) / t / 1e6, 2),
                "write_MBps": round(sum(j["write"]["io_bytes"] for j in bgj) / t / 1e6, 2)}}
            continue
        jobs = [j for j in r["jobs"] if j["jobname"].startswith(MEASURED[w])
                and (j["read"]["total_ios"] or j["write"]["total_ios"])]
        if not jobs:
            continue
        if w == LATENCY_WORKLOAD:
            v = sum(percentile_ms(j["read"], "50.000000") for j in jobs) / len(jobs)
        else:
            v = max(j["job_runtime"] for j in jobs) / 1000  # the slowest such job
        out[key] = {"value": round(v, 3)}
        if src:
            out[key].update(lead=lead, lead_from=src)


# ---- one cell of the table: a workload under a scheduler on a disk

class Cell:
    def __init__(self, key):
        self.disk, self.depth, self.workload, self.load, self.sched = key
        self.runs = {}       # rep -> its RES line
        self.docs = {}       # rep -> {role: fio's document}
        self.sreplay = {}    # rep -> the replayer's figures
        self.fio_error = False

    @property
    def key(self):
        return (self.disk, self.depth, self.workload, self.load, self.sched)

    @property
    def n(self):
        return len(self.runs)

    def mean(self, field):
        return sum(r[field] for r in self.runs.values()) / self.n

    def planned(self, sizes):
        """KiB each measured job reads when it runs to the end; 0 where a
        stopped run cannot be projected (the fsync comes at the end)."""
        w = self.workload
        if w in ("write-vs-read", "ten-streams"):
            return 100 * 1024
        if w in ("write-vs-tree", "read-vs-tree", "six-trees"):
            return sizes.get((self.disk, "tree0"), 0)
        if w.startswith("compile-"):
            return sizes.get((self.disk, "src"), 0)
        return 0

    def io_time(self, rep):
        """A finished Morton run's I/O time in s: its measured jobs' longest
        job_runtime in fio's document, the figure antic-sim gives for it
        (the wall time adds fio's start, and its setup before the first
        I/O: it stats every file of a tree, reading the directory and the
        inodes, which antic-sim does not model). None where there is none:
        a run stopped or failed, a latency or fairness figure, a start-up."""
        w = self.workload
        run = self.runs[rep]
        if is_startup(w) or is_fair(w) or w == LATENCY_WORKLOAD or run["capped"] \
                or run["fio_rc"] != 0:
            return None
        measured = self.docs.get(rep, {}).get("measured") or {}
        t = [j["job_runtime"] for j in measured.get("jobs", [])
             if "job_runtime" in j and (j["read"]["total_ios"] or j["write"]["total_ios"])]
        return max(t) / 1000 if t else None

    def io_median(self):
        """The median of io_time over the repetitions, when every one has it."""
        t = [self.io_time(r) for r in sorted(self.runs)]
        return statistics.median(t) if t and None not in t else None

    def rep(self, rep, sizes):
        """One repetition: (value, kind), kind "done", "projected" or
        "bound"; value None for a run that failed.

        A start-up's value is the replayer's time (s). A Morton run's is its
        wall time (s), or for the latency workload its readers' mean p50
        (ms). A Morton run stopped at the cap is projected, when it can be:
        the setup fio does before the first I/O (it stats every file of a
        tree) is the wall time less the longest I/O time of a job, and the
        aggregate rate of the jobs over that I/O time is taken to hold until
        all of them have read everything (as readers finish, the rest seek
        less, so this errs long)."""
        run = self.runs[rep]
        el = run["elapsed_ms"] / 1000
        if run["fio_rc"] != 0 and not run["capped"] and not (
                is_startup(self.workload) and rep in self.sreplay):
            # killed before its cap (the memory cgroup's OOM killer, in
            # compile-vs-write at ide2003): its time is no finished run's
            return None, "error"
        if is_startup(self.workload):
            if rep in self.sreplay:
                return self.sreplay[rep]["time_ms"] / 1000, "done"
            return (el, "bound") if run["capped"] else (None, "error")
        measured = self.docs.get(rep, {}).get("measured")
        if is_fair(self.workload):
            if not measured:
                return None, "error"
            r = [j["read"] for j in measured["jobs"] if j["jobname"] == "reader"]
            mean = r[0].get("clat_ns", {}).get("mean") if r and r[0]["total_ios"] else None
            return (mean / 1e6, "done") if mean is not None else (None, "error")
        if self.workload == LATENCY_WORKLOAD:  # time-based: its cap is its length
            if not measured:
                return None, "error"
            p50 = [percentile_ms(j["read"], "50.000000") for j in measured["jobs"]]
            return (sum(p50) / len(p50), "done") if p50 else (None, "error")
        if not run["capped"]:
            return el, "done"
        p = self.planned(sizes)
        jobs = [(j["read"]["io_kbytes"] + j["write"]["io_kbytes"],
                 max(j["read"]["runtime"], j["write"]["runtime"]) / 1000)
                for j in (measured or {}).get("jobs", [])]
        if not p or not jobs or any(kb == 0 for kb, _ in jobs):
            return el, "bound"  # nothing to project from, or a job still in setup
        kb = sum(k for k, _ in jobs)
        io_s = max(t for _, t in jobs)
        if kb >= p * len(jobs):
            return el, "done"  # done as the cap came
        return max(el - io_s, 0) + io_s * p * len(jobs) / kb, "projected"

    def summary(self, sizes):
        """The cell's repetitions and their median, min and max. lo/hi:
        the range the cell's true value lies in (a projected or bound
        repetition is known only to be at least its wall time)."""
        reps = []
        for r in sorted(self.runs):
            v, kind = self.rep(r, sizes)
            el = self.runs[r]["elapsed_ms"] / 1000
            reps.append({"rep": r, "value": None if v is None else round(v, 3), "kind": kind,
                         "lo": v if kind == "done" else el if v is not None else None})
        vals = [x["value"] for x in reps if x["value"] is not None]
        s = {"repetitions": [{k: x[k] for k in ("rep", "value", "kind")} for x in reps]}
        if not vals:
            s.update(median=None, min=None, max=None, lo=None, hi=None, capped=False, kind="error")
            return s
        kinds = [x["kind"] for x in reps if x["value"] is not None]
        stopped = [k for k in kinds if k != "done"]
        bounds = kinds.count("bound")
        s["failed"] = sum(1 for x in reps if x["value"] is None)
        s.update(median=round(statistics.median(vals), 3), min=round(min(vals), 3),
                 max=round(max(vals), 3), capped=bool(stopped),
                 lo=min(x["lo"] for x in reps if x["lo"] is not None),
                 hi=math.inf if stopped else max(vals))
        # how the median is drawn and printed: a plain bar only if every
        # run finished; a bare bound (an arrow) when half or more of the
        # runs are bounds; else "partial", a hatched bar: some run stopped
        # at the cap and counts at its projection or its cap
        s["kind"] = "bound" if bounds * 2 >= len(kinds) else "partial" if stopped else "done"
        return s

    def background(self):
        """The start-up's load: its aggregate read and write MB/s per
        repetition (fio's figures over the load's whole run) and its
        longest read in ms (the price of a rule that holds its reads
        back shows there first)."""
        out = []
        for r in sorted(self.docs):
            d = self.docs[r].get("load")
            if d:
                out.append((sum(j["read"]["bw_bytes"] for j in d["jobs"]) / 1e6,
                            sum(j["write"]["bw_bytes"] for j in d["jobs"]) / 1e6,
                            max((j["read"].get("clat_ns", {}).get("max", 0)
                                 for j in d["jobs"]), default=0) / 1e6))
        return out

    def longest_reads(self):
        """The load's longest read in ms, [median, min, max] over the
        repetitions whose fio logged one (None if none did)."""
        v = [b[2] for b in self.background() if b[2] > 0]
        if not v:
            return None
        return [round(statistics.median(v), 1), round(min(v), 1), round(max(v), 1)]

    def job_means(self):
        """(role, job) -> mean over repetitions of its figures."""
        acc = {}
        for r in self.docs.values():
            for role, doc in r.items():
                for j in doc["jobs"]:
                    a = acc.setdefault((role, j["jobname"]), [])
                    a.append((j["read"]["bw_bytes"] / 1e6, j["write"]["bw_bytes"] / 1e6,
                              j["read"]["iops"], percentile_ms(j["read"], "50.000000"),
                              percentile_ms(j["read"], "99.000000")))
        return {k: [sum(x[i] for x in v) / len(v) for i in range(5)] for k, v in acc.items()}


def build_cells(log):
    cells = {}
    for r in log.res:
        w, load = split_tag(r["tag"])
        key = (r["disk"], r["depth"], w, load, r["sched"])
        c = cells.setdefault(key, Cell(key))
        c.runs[r["rep"]] = r
        if r["fio_rc"] != 0 and not r["capped"]:
            c.fio_error = True
    for (disk, depth, tag, sched, rep), figs in log.sreplay.items():
        w, load = split_tag(tag)
        c = cells.get((disk, depth, w, load, sched))
        if c is not None:
            c.sreplay[rep] = figs
    for (disk, depth, tag, sched, rep, role), doc in log.fio.items():
        w, load = split_tag(tag)
        c = cells.get((disk, depth, w, load, sched))
        if c is None:
            continue  # a cost run, or fio output without its RES line
        c.docs.setdefault(rep, {})[role] = doc
    return cells


# the instrument's margin (a fraction): the spread a null A/B showed, or
# one stated; main() sets it from --null or --margin. CELL_MARGINS: a null
# A/B's spread per cell it ran, (disk, depth, workload, load) -> fraction;
# a cell it did not run takes MARGIN, the largest of them
MARGIN = 0.0
CELL_MARGINS = {}


# a null A/B's spread taken as a cell's margin is never below the
# tolerance two boots of one configuration are held to (repeat_table's):
# a cell that repeats to 0.1 % in one boot still moves that much between
# boots, and a difference within it is no verdict
MIN_CELL_MARGIN = 0.02


def cell_margin(key, margin):
    """The margin of cell KEY (disk, depth, workload, load): the null A/B's
    spread there where it ran the cell, else its largest (MARGIN, or the
    one given); a null A/B's margin is at least MIN_CELL_MARGIN."""
    if tuple(key) in CELL_MARGINS:
        return max(CELL_MARGINS[tuple(key)], MIN_CELL_MARGIN)
    return max(margin, MIN_CELL_MARGIN) if CELL_MARGINS else margin


def beyond(hi, lo, margin):
    """hi is below lo by more than the margin: hi * (1 + margin) < lo."""
    return hi * (1 + margin) < lo


def verdict(a, b, margin=None):
    """anticipatory's cell summary against a rival's: (ratio of medians or
    None, "win", "loss", "within noise" or "one run"); lower is better. A
    single run has no range to judge by: no verdict. A win or a loss needs
    the ranges apart and the medians further apart than the margin (the
    null A/B's spread: a smaller difference the instrument makes alone)."""
    margin = MARGIN if margin is None else margin
    if a["median"] is None or b["median"] is None:
        return None, None
    ratio = a["median"] / b["median"] if b["median"] and a["kind"] != "bound" and b["kind"] != "bound" \
        else None
    if min(sum(r["value"] is not None for r in x["repetitions"]) for x in (a, b)) < 2:
        return ratio, "one run"
    if a["hi"] < b["lo"] and beyond(a["median"], b["median"], margin):
        return ratio, "win"
    if a["lo"] > b["hi"] and beyond(b["median"], a["median"], margin):
        return ratio, "loss"
    return ratio, "within noise"


def null_margin(path):
    """The margin a null A/B's report gives: the largest spread_pct of its
    "ab" cells, as a fraction. A clear error for a file without them."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit("report: --null %s: %s" % (path, e))
    cells = [c for c in doc.get("ab", []) if isinstance(c, dict)]
    spreads = [c.get("spread_pct") for c in cells]
    if not spreads or any(not isinstance(x, (int, float)) for x in spreads):
        raise SystemExit("report: --null %s: no \"ab\" cells with a spread_pct "
                         "(a report of a run with --ab A:B)" % path)
    for c in cells:
        key = (c.get("disk"), c.get("depth"), c.get("workload"), c.get("load"))
        CELL_MARGINS[key] = max(CELL_MARGINS.get(key, 0), c["spread_pct"] / 100)
    return max(spreads) / 100


# ---- A/B: one scheduler against another, cell by cell and repetition by repetition

def ab_table(log, cells, a, b, margin):
    """Each cell (disk, depth, workload, load) both A and B ran: their
    figures per repetition (the same seed), B/A per repetition, the
    spread (largest |B/A - 1| of the repetitions, %), and the verdict:
    "same" unless the ranges are apart and the medians beyond the margin
    ("B lower" / "B higher"), "capped" where a run stopped at its cap;
    "reps apart": how many repetitions' B/A lie beyond the margin on the
    medians' side."""
    out = []
    sizes = log.sizes
    for key in sorted({k[:4] for k in cells}, key=str):
        ca, cb = cells.get(key + (a,)), cells.get(key + (b,))
        if not ca or not cb:
            continue
        sa, sb = ca.summary(sizes), cb.summary(sizes)
        va = {r["rep"]: r["value"] for r in sa["repetitions"] if r["value"] is not None}
        vb = {r["rep"]: r["value"] for r in sb["repetitions"] if r["value"] is not None}
        pairs = [(r, va[r], vb[r]) for r in sorted(va) if r in vb and va[r]]
        if not pairs:
            continue
        ratios = [y / x for _, x, y in pairs]
        margin_k = cell_margin(key, margin)
        _, v = verdict(sb, sa, margin_k)
        word = {"win": "B lower", "loss": "B higher", "within noise": "same"}.get(v, v)
        if sa["capped"] or sb["capped"]:
            # a stopped run's range reaches up without end: no verdict, the
            # ratios are of projections or bounds
            word = "capped"
        lower = statistics.median(ratios) < 1
        apart = sum(1 for q in ratios if (beyond(q, 1, margin_k) if lower else beyond(1, q, margin_k)))
        out.append({"disk": key[0], "depth": key[1], "workload": key[2], "load": key[3],
                    "a": a, "b": b, "reps": [{"rep": r, "a": x, "b": y} for r, x, y in pairs],
                    "ratios": [round(q, 4) for q in ratios],
                    "spread_pct": round(max(abs(q - 1) for q in ratios) * 100, 2),
                    "verdict": word, "reps_apart": apart, "capped": sa["capped"] or sb["capped"]})
    return out


def ab_lines(rows, margin):
    txt = []
    if not rows:
        return txt
    a, b = rows[0]["a"], rows[0]["b"]
    txt.append("")
    txt.append("== A/B: %s (B) against %s (A), the same seed in each repetition; B/A per "
               "repetition; margin %.1f %%" % (b, a, margin * 100))
    txt.append("%-14s %5s %-26s %-28s %-28s %-24s %7s %-9s %s" % (
        "disk", "depth", "workload", "A", "B", "B/A", "spread", "verdict", "reps apart"))
    for r in rows:
        name = r["workload"] + (" " + r["load"] if r["load"] else "")
        txt.append("%-14s %5d %-26s %-28s %-28s %-24s %6.1f%% %-9s %d of %d%s" % (
            r["disk"], r["depth"], name, " ".join("%.3g" % x["a"] for x in r["reps"]),
            " ".join("%.3g" % x["b"] for x in r["reps"]), " ".join("%.3f" % q for q in r["ratios"]),
            r["spread_pct"], r["verdict"], r["reps_apart"], len(r["ratios"]),
            " (capped)" if r["capped"] else ""))
    return txt


# ---- fairness: two processes side by side on the raw disk

FAIR = ("fair-aio", "fair-psync")
# the solo run that gives each job's rate alone
FAIR_SOLO = {("fair-aio", "writer"): "fair-solo-writer", ("fair-psync", "writer"): "fair-solo-writer",
             ("fair-aio", "reader"): "fair-solo-aio", ("fair-psync", "reader"): "fair-solo-psync"}


def job_figures(j):
    """(IOPS, p50 ms, p99 ms) of a fio (or antic-sim) job, in its direction."""
    d = j["read"] if j["read"]["total_ios"] else j["write"]
    return d["iops"], percentile_ms(d, "50.000000"), percentile_ms(d, "99.000000")


def fair_guest(cells):
    """(disk, depth, workload, sched, job) -> [IOPS, p50, p99, share or
    None], medians over the repetitions; share: IOPS beside the other over
    IOPS alone (the solo run's median under the same scheduler)."""
    def jobs_of(c):
        acc = {}
        for r in sorted(c.docs):
            d = c.docs[r].get("measured")
            for j in (d or {}).get("jobs", []):
                acc.setdefault(j["jobname"], []).append(job_figures(j))
        return {n: [statistics.median(x[i] for x in v) for i in range(3)] for n, v in acc.items()}
    out = {}
    for (disk, depth, w, load, sched), c in cells.items():
        if w not in FAIR:
            continue
        for name, f in jobs_of(c).items():
            solo = cells.get((disk, depth, FAIR_SOLO.get((w, name), ""), None, sched))
            alone = jobs_of(solo).get(name) if solo else None
            out[(disk, depth, w, sched, name)] = f + [f[0] / alone[0] if alone and alone[0] else None]
    return out


def fair_sim(log, cells):
    """The same figures from antic-sim: each fairness job file whole and
    each of its two jobs alone, on the same disk and with the runs'
    tunables, under each of its schedulers (by the Linux scheduler that
    plays it)."""
    sim = sim_binary()
    keys = sorted({(k[0], k[1], k[2]) for k in cells if k[2] in FAIR}, key=str)
    if not sim or not keys:
        return {}
    sim_sched = sim_schedulers(sim)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for disk, depth, w in keys:
            env = dict(os.environ, FAIRRT=str(cap_of(log, disk)))
            path = os.path.join(TOP, "bench", "jobs", w + ".fio")
            dset = sim_disk_args(log, disk, depth)
            docs = {None: run_sim(sim, dset + [path], env)}
            for name, _ in job_sections(path)[1]:
                docs[name] = run_sim(sim, dset + [section_alone(path, name, tmp)], env)
            for s, r in (docs[None] or {}).get("schedulers", {}).items():
                for j in r["jobs"]:
                    f = list(job_figures(j))
                    solo = (docs.get(j["jobname"]) or {}).get("schedulers", {}).get(s, {})
                    sj = [x for x in solo.get("jobs", []) if x["jobname"] == j["jobname"]]
                    a = job_figures(sj[0])[0] if sj else 0
                    out[(disk, depth, w, sim_sched.get(s, s), j["jobname"])] = f + [f[0] / a if a else None]
    return out


def fair_lines(guest, sim):
    txt = []
    if not guest:
        return txt
    txt.append("")
    txt.append("== fairness on the raw disk: each process's IOPS, p50 and p99 (ms) and its share "
               "of the disk (its IOPS beside the other over its IOPS alone), median of the "
               "repetitions; {antic-sim}")
    txt.append("%-14s %5s %-11s %-13s %-7s %17s %21s %21s %15s" % (
        "disk", "depth", "workload", "scheduler", "job", "IOPS", "p50 ms", "p99 ms", "share"))
    fmt = lambda v, f: "-" if v is None else f % v
    for k in sorted(guest, key=str):
        g, m = guest[k], sim.get(k)
        cols = []
        for i, f in enumerate(("%.1f", "%.1f", "%.1f", "%.2f")):
            c = fmt(g[i], f)
            if m:
                c += " {%s}" % fmt(m[i], f)
            cols.append(c)
        txt.append("%-14s %5d %-11s %-13s %-7s %17s %21s %21s %15s" % (k[:4] + (k[4][:7],) + tuple(cols)))
    return txt


# ---- ionice: the I/O priority classes on the raw disk

# the workloads (bench/guest-bench.sh) -> (job file, the class variable and
# its value); the reader alone is the backup's job file's reader section
IONICE = {"ionice-reader-alone": ("ionice-backup", None, None),
          "ionice-backup": ("ionice-backup", "BACKUPCLASS", 3),
          "ionice-backup-be": ("ionice-backup", "BACKUPCLASS", 2),
          "ionice-player": ("ionice-player", "PLAYERCLASS", 1),
          "ionice-player-be": ("ionice-player", "PLAYERCLASS", 2)}
# the targets: the reader beside the idle-class backup within 10 % of its
# time alone; the real-time player at least twice as fast as at best effort
IONICE_READER_MAX = 1.10
IONICE_SPEEDUP_MIN = 2.0


def is_ionice(workload):
    return workload in IONICE


def fio_size_kb(text):
    """fio's size option ("100m", "64M", "1g", "4096") in KiB (kb_base 1024);
    None where it is not one."""
    m = re.fullmatch(r"\s*(\d+)\s*([kmgt]?)i?b?\s*", str(text), re.I)
    if not m:
        return None
    return int(m.group(1)) * 1024 ** " kmgt".index(m.group(2).lower() or " ") // 1024


def ionice_job_time(doc, name, capped):
    """(seconds, done) of job NAME in a fio (or antic-sim) document: its
    runtime, done if it moved all of its size (or, where its size is not in
    the document, if the run was not stopped at its cap); None if absent."""
    for j in (doc or {}).get("jobs", []):
        if j["jobname"] != name:
            continue
        kb = j["read"]["io_kbytes"] + j["write"]["io_kbytes"]
        size = fio_size_kb(j.get("job options", {}).get("size", ""))
        done = kb >= size if size else not capped
        return j["job_runtime"] / 1000, done
    return None


def ionice_summary(times):
    """[(s, done)] of the repetitions -> {median, min, max, lo, hi, n,
    done}: lo and hi bound the true figure (a job stopped at the cap took
    at least its time: no upper bound)."""
    if not times:
        return None
    v = [t for t, _ in times]
    done = all(d for _, d in times)
    return {"median": round(statistics.median(v), 3), "min": round(min(v), 3), "max": round(max(v), 3),
            "lo": min(v), "hi": max(v) if done else math.inf, "n": len(v), "done": done}


def ionice_judge(num, den, bound, at_most):
    """The ratio num / den of medians and its verdict against BOUND: "met"
    when every value the ranges allow meets it, "missed" when none does,
    else "unsettled"; "one run" with a single repetition on either side."""
    if not num or not den or not den["median"]:
        return None, None
    r = num["median"] / den["median"]
    if num["n"] < 2 or den["n"] < 2:
        return r, "one run"
    if at_most:  # num <= bound * den
        met, missed = num["hi"] <= bound * den["lo"], num["lo"] > bound * den["hi"]
    else:        # num >= bound * den
        met, missed = num["lo"] >= bound * den["hi"], num["hi"] < bound * den["lo"]
    return r, "met" if met else "missed" if missed else "unsettled"


def ionice_guest(cells):
    """(disk, depth, sched) -> {figure: summary} from the guest's runs:
    reader_alone, reader_idle and backup_idle (ionice-backup), reader_be
    and backup_be (ionice-backup-be), player_rt, player_be."""
    figs = {"ionice-reader-alone": (("reader", "reader_alone"),),
            "ionice-backup": (("reader", "reader_idle"), ("backup", "backup_idle")),
            "ionice-backup-be": (("reader", "reader_be"), ("backup", "backup_be")),
            "ionice-player": (("player", "player_rt"),),
            "ionice-player-be": (("player", "player_be"),)}
    acc = {}
    for (disk, depth, w, load, sched), c in cells.items():
        if w not in figs:
            continue
        row = acc.setdefault((disk, depth, sched), {})
        for job, key in figs[w]:
            times = []
            for rep in sorted(c.runs):
                t = ionice_job_time(c.docs.get(rep, {}).get("measured"), job, c.runs[rep]["capped"])
                if t is not None:
                    times.append(t)
            s = ionice_summary(times)
            if s:
                row[key] = s
        for rep in sorted(c.docs):
            for j in (c.docs[rep].get("measured") or {}).get("jobs", []):
                if j["jobname"] == "player" and "size" in j.get("job options", {}):
                    row["player_size"] = j["job options"]["size"]  # PLAYERSIZE, expanded
        if w == "ionice-backup":
            # the idle backup "finishes once the reader stops": in each
            # repetition it moved all of its size and ended after the reader
            after = []
            for rep in sorted(c.runs):
                doc, capped = c.docs.get(rep, {}).get("measured"), c.runs[rep]["capped"]
                b, r = ionice_job_time(doc, "backup", capped), ionice_job_time(doc, "reader", capped)
                if b is not None and r is not None:
                    after.append(b[1] and b[0] >= r[0])
            row["backup_after"] = after
    return acc


def ionice_sim(log, guest):
    """The same figures from antic-sim: (disk, depth, sched) -> {figure:
    seconds}, each job file with the class its workload gives, and the
    reader's section alone, under each of antic-sim's schedulers (by the
    Linux scheduler that plays it)."""
    sim = sim_binary()
    if not sim or not guest:
        return {}
    sim_sched = sim_schedulers(sim)
    runs = {"reader_alone": ("ionice-reader-alone", "reader"),
            "reader_idle": ("ionice-backup", "reader"), "backup_idle": ("ionice-backup", "backup"),
            "reader_be": ("ionice-backup-be", "reader"), "backup_be": ("ionice-backup-be", "backup"),
            "player_rt": ("ionice-player", "player"), "player_be": ("ionice-player-be", "player")}
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        alone = section_alone(os.path.join(TOP, "bench", "jobs", "ionice-backup.fio"), "reader", tmp)
        for disk, depth in sorted({k[:2] for k in guest}, key=str):
            dset = sim_disk_args(log, disk, depth)
            # the player's size as the guest's fio had it
            size = next((g["player_size"] for k, g in guest.items()
                         if k[:2] == (disk, depth) and "player_size" in g), "32m")
            docs = {}
            ran = {r["tag"] for r in log.res if (r["disk"], r["depth"]) == (disk, depth)}
            for w, (jobfile, var, cls) in IONICE.items():
                if w not in ran:  # only what the guest ran beside it
                    continue
                env = dict(os.environ, BACKUPCLASS="2", PLAYERCLASS="2", PLAYERSIZE=size)
                if var:
                    env[var] = str(cls)
                fio = alone if w == "ionice-reader-alone" else \
                    os.path.join(TOP, "bench", "jobs", jobfile + ".fio")
                docs[w] = run_sim(sim, dset + [fio], env) or {}
            for key, (w, job) in runs.items():
                for s, r in docs.get(w, {}).get("schedulers", {}).items():
                    t = ionice_job_time(r, job, False)
                    if t is not None:
                        out.setdefault((disk, depth, sim_sched.get(s, s)), {})[key] = t[0]
    return out


def ionice_rows(guest, sim):
    """One row per (disk, depth, sched): the figures, ratios and verdicts."""
    rows = []
    for k in sorted(guest, key=lambda k: (k[0], k[1], SCHEDS.index(k[2]) if k[2] in SCHEDS else 99, k[2])):
        g, m = guest[k], sim.get(k, {})
        ratio_, rv = ionice_judge(g.get("reader_idle"), g.get("reader_alone"), IONICE_READER_MAX, True)
        speed, pv = ionice_judge(g.get("player_be"), g.get("player_rt"), IONICE_SPEEDUP_MIN, False)
        b = g.get("backup_idle")
        after = g.get("backup_after", [])
        bv = None if not after else "one run" if len(after) < 2 else "met" if all(after) else "missed"
        row = {"disk": k[0], "depth": k[1], "scheduler": k[2]}
        for f in ("reader_alone", "reader_idle", "reader_be", "backup_idle", "backup_be",
                  "player_rt", "player_be"):
            s = g.get(f)
            row[f + "_s"] = None if not s else {x: s[x] for x in ("median", "min", "max", "n", "done")}
        row["reader_ratio"] = None if ratio_ is None else round(ratio_, 3)
        row["reader_verdict"] = rv
        row["backup_verdict"] = bv
        row["player_speedup"] = None if speed is None else round(speed, 3)
        row["player_verdict"] = pv
        sr = lambda a, b: round(m[a] / m[b], 3) if m.get(a) is not None and m.get(b) else None
        row["sim"] = None if not m else dict({f + "_s": round(v, 3) for f, v in m.items()},
                                             reader_ratio=sr("reader_idle", "reader_alone"),
                                             player_speedup=sr("player_be", "player_rt"))
        rows.append(row)
    return rows


def ionice_lines(rows):
    if not rows:
        return []
    def fig(row, f):
        s = row[f + "_s"]
        if not s:
            return "-"
        t = ("%.2f" if s["done"] else "~%.2f") % s["median"]
        if s["min"] != s["max"]:
            t += " [%.2f-%.2f]" % (s["min"], s["max"])
        sim = (row["sim"] or {}).get(f + "_s")
        return t + (" {%.2f}" % sim if sim is not None else "")
    def judged(row, r, v):
        if row[r] is None:
            return "-"
        t = "%.2f" % row[r]
        sim = (row["sim"] or {}).get(r)
        return t + (" {%.2f}" % sim if sim is not None else "") + " " + (row[v] or "")
    txt = ["", "== ionice on the raw disk: a buffered sequential reader alone and beside a 1 MiB "
           "O_DIRECT backup under ionice -c3 (idle) and -c2 (best effort), s; target: the reader "
           "beside the idle backup within %.2fx its time alone, the idle backup finishing after "
           "the reader (every repetition); median [min-max] of the repetitions, {antic-sim}, ~T: some repetition stopped at the cap (counted at its time then); "
           "met / missed only where the ranges decide" % IONICE_READER_MAX]
    txt.append("%-14s %5s %-13s %26s %26s %22s %26s %8s %26s" % (
        "disk", "depth", "scheduler", "reader alone", "beside -c3", "ratio, target",
        "-c3 backup ends", "finished", "beside -c2"))
    for r in rows:
        txt.append("%-14s %5d %-13s %26s %26s %22s %26s %8s %26s" % (
            r["disk"], r["depth"], r["scheduler"], fig(r, "reader_alone"), fig(r, "reader_idle"),
            judged(r, "reader_ratio", "reader_verdict"), fig(r, "backup_idle"), r["backup_verdict"] or "-",
            fig(r, "reader_be")))
    txt.append("")
    txt.append("== ionice on the raw disk: a 128 KiB sequential player beside ten streaming readers "
               "under ionice -c1 (real time) and -c2 (best effort), s; target: a speed-up of at "
               "least %.1fx; median [min-max], {antic-sim}" % IONICE_SPEEDUP_MIN)
    txt.append("%-14s %5s %-13s %26s %26s %22s" % ("disk", "depth", "scheduler", "player -c1",
                                                  "player -c2", "speed-up, target"))
    for r in rows:
        txt.append("%-14s %5d %-13s %26s %26s %22s" % (
            r["disk"], r["depth"], r["scheduler"], fig(r, "player_rt"), fig(r, "player_be"),
            judged(r, "player_speedup", "player_verdict")))
    return txt


def instrument_lines(log, cells):
    """The guest's idle CPU per cell and the host's wall time per run
    (from the WALL stamps: a run's is the time since the previous RES,
    its fresh disk and its load's start included)."""
    txt = ["", "== the instrument: %s; guest boot_id %s" % (
        "qemu's instruction clock, %d ns a guest instruction" % (1 << log.icount)
        if log.icount is not None else "the host's clock", log.boot_id or "-")]
    walls = [r["wall_ms"] for r in log.res if "wall_ms" in r]
    if log.isolated and walls:
        per = [w / 1000 for w in walls]  # each run's stamp is its own boot's
        parts = [w for _, w in getattr(log, "parts", ()) if w]  # each part's own total
        total = sum(parts) if len(parts) > 1 else log.walls[-1]
        txt.append("wall time per run, each a boot of its own (host s): median %.1f [%.1f-%.1f] over "
                   "%d runs; %.1f min in all" % (statistics.median(per), min(per), max(per), len(per),
                                                 total / 60000))
    elif len(walls) >= 2:
        per = [(b - a) / 1000 for a, b in zip(walls, walls[1:])]
        txt.append("wall time per run (host s): median %.1f [%.1f-%.1f] over %d runs; boot to the "
                   "first result %.1f s; %.1f min in all" % (
                       statistics.median(per), min(per), max(per), len(per), walls[0] / 1000,
                       (log.walls[-1] if log.walls else walls[-1]) / 60000))
    if len(getattr(log, "parts", ())) > 1:
        txt.append("in %d parts: %s" % (len(log.parts), "; ".join(
            "%s %s" % (os.path.basename(p), "%.1f min" % (w / 60000) if w else "no wall stamps")
            for p, w in log.parts)))
    scheds = [s for s in SCHEDS if any(k[4] == s for k in cells)] + \
        sorted({k[4] for k in cells} - set(SCHEDS))
    txt.append("guest CPU idle % during the measured run, mean [min-max] of the repetitions")
    txt.append("%-14s %5s %-26s" % ("disk", "depth", "workload") + "".join(" %13s" % s for s in scheds))
    for key in sorted({k[:4] for k in cells}, key=str):
        line = "%-14s %5d %-26s" % (key[0], key[1], key[2] + (" " + key[3] if key[3] else ""))
        for s in scheds:
            c = cells.get(key + (s,))
            v = [r["idle_pct"] for r in c.runs.values()] if c else []
            line += " %13s" % ("%.0f [%d-%d]" % (sum(v) / len(v), min(v), max(v)) if v else "-")
        txt.append(line)
    return txt


# ---- two boots of one configuration

def repeat_table(path_a, path_b, tol_pct=2.0):
    """Boot A against boot B: every (cell, repetition) both have, the %
    difference (B - A) / A, and how many lie within tol_pct. Returns the
    lines and (within, total)."""
    def load(path):
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            raise SystemExit("report: --repeat %s: %s" % (path, e))
        out = {}
        for r in doc.get("results", []):
            for x in r.get("repetitions", []):
                if x.get("value") is not None:
                    out[(r["disk"], r["depth"], r["workload"], r["load"] or "", r["scheduler"],
                         x["rep"])] = (x["value"], x["kind"])
        return out
    a, b = load(path_a), load(path_b)
    keys = sorted(set(a) & set(b), key=str)
    txt = ["== repeatability: %s (A) against %s (B), each cell's repetition in both boots "
           "(the same seed); within %.0f %%?" % (os.path.basename(path_a), os.path.basename(path_b),
                                                 tol_pct),
           "%-14s %5s %-26s %-13s %4s %10s %10s %8s %s" % (
               "disk", "depth", "workload", "scheduler", "rep", "A", "B", "diff", "within")]
    within = 0
    for k in keys:
        (x, kx), (y, ky) = a[k], b[k]
        d = (y - x) * 100 / x if x else (0.0 if y == x else math.inf)
        ok = abs(d) <= tol_pct
        within += ok
        txt.append("%-14s %5d %-26s %-13s %4d %10s %10s %+7.1f%% %s" % (
            k[0], k[1], (k[2] + " " + k[3]).strip(), k[4], k[5], fmt_val(x, kx), fmt_val(y, ky), d,
            "yes" if ok else "NO"))
    only = len(set(a) ^ set(b))
    txt.append("%d of %d within %.0f %% (%.0f %%)%s" % (
        within, len(keys), tol_pct, within * 100 / len(keys) if keys else 0,
        "; %d in one boot only" % only if only else ""))
    return txt, (within, len(keys))


# ---- the null_blk cost runs

def cost_rows(log):
    rows = {}
    for c in log.cost:
        r = rows.setdefault((c["sched"], c["load"]), {"busy": 0, "iops": [], "by_rep": {}})
        r["busy"] += c["busy"]
    for (disk, depth, tag, sched, rep, role), doc in log.fio.items():
        if not tag.startswith("cost-") or (sched, tag[5:]) not in rows:
            continue
        for job in doc["jobs"]:
            if job["jobname"] == "rr":  # the readers (reported as one group)
                rows[(sched, tag[5:])]["iops"].append(job["read"]["iops"])
                rows[(sched, tag[5:])]["by_rep"][rep] = job["read"]["iops"]
    for r in rows.values():
        n = len(r["iops"])
        r["runs"] = n
        r["median"] = statistics.median(r["iops"]) if n else 0
        # busy: clock ticks (1/100 s) summed over the runs; per I/O from
        # the runs' total I/O (their mean), as the ticks are a total too
        mean = sum(r["iops"]) / n if n else 0
        r["cpu_us"] = r["busy"] * 10000 / (mean * log.costrun * n) if mean else 0
    return rows


# the targets for anticipatory's IOPS on null_blk, in every kernel: at least
# 0.95 of mq-deadline's and at least bfq's
COST_TARGETS = {"mq-deadline": 0.95, "bfq": 1.0}


def cost_ratios(costs):
    """anticipatory's IOPS over each other scheduler's, round by round: the
    schedulers take turns within a round, so a round's ratio is free of
    the host's drift between rounds. One dict per (load, rival)."""
    out = []
    loads = []
    for _, load in costs:
        if load not in loads:
            loads.append(load)
    for load in loads:
        a = costs.get(("anticipatory", load))
        if not a:
            continue
        for (s, l), b in costs.items():
            if l != load or s in ("none", "anticipatory"):
                continue
            reps = sorted(set(a["by_rep"]) & set(b["by_rep"]))
            vals = [a["by_rep"][k] / b["by_rep"][k] for k in reps if b["by_rep"][k]]
            if not vals:
                continue
            r = {"load": load, "vs": s, "rounds": len(vals),
                 "median": round(statistics.median(vals), 3),
                 "min": round(min(vals), 3), "max": round(max(vals), 3)}
            t = COST_TARGETS.get(s)
            if t is not None:  # judged unrounded: 0.89996 is not 0.9
                r["target"] = t
                r["verdict"] = ("met in every round" if min(vals) >= t else
                                "met by the median, not in every round"
                                if statistics.median(vals) >= t else "missed")
            out.append(r)
    return out


def ratio(a, b):
    return a / b if b else 0


# ---- the outputs

def fmt_val(v, kind):
    if v is None:
        return "err"
    return {"bound": ">", "partial": "~"}.get(kind, "") + ("%.1f" % v if v >= 10 else "%.2f" % v)


def fmt_summary(s, sim=None, mark=""):
    """median [min-max] {sim}; MARK after sim (LEAD_MARK: antic-sim's load
    had the header's warm-up, not its head start in the log)"""
    if s["median"] is None:
        return "err"
    t = fmt_val(s["median"], s["kind"]) + ("!" if s.get("failed") else "")
    if s["min"] != s["max"]:
        t += " [%s-%s]" % (fmt_val(s["min"], ""), fmt_val(s["max"], ""))
    if sim is not None:
        t += " {%s%s}" % (fmt_val(sim, ""), mark)
    return t


# after antic-sim's figure: its load started the log header's warm-up
# before the measured job, the log giving no head start for the cell
LEAD_MARK = "*"


def lead_mark(pred):
    """LEAD_MARK for a prediction whose load had the header's warm-up."""
    return LEAD_MARK if (pred or {}).get("lead_from") == "header" else ""


def lead_legend(warm):
    return ("{T%s}: antic-sim's load started only the header's warm-up, %g s, before the "
            "measured job, as the log gives no usable head start for the cell (in no repetition "
            "fio documents of both the load and the measured job that place their starts: "
            "timestamp_ms, and a job that ran)" % (LEAD_MARK, warm))


def fmt_verdict(r, v):
    if v is None:
        return "-"
    return ("%.2f " % r if r is not None else "") + v


def sim_error(s, pred, io=None):
    """The simulator's error against the kernel's median in %, where the
    median is a finished figure; None otherwise. io: the kernel's median
    I/O time (Cell.io_median), like for like with antic-sim's figure where
    the kernel has it."""
    if pred is None or s["median"] is None or s["capped"] or not s["median"]:
        return None
    k = io if io else s["median"]
    return round((pred - k) * 100 / k, 1)


def write_reports(log, cells, simt, morton, prefix, ab=(), margin=None):
    """ab: (A, B) pairs to tabulate; margin: the verdicts' (MARGIN if None)."""
    margin = MARGIN if margin is None else margin
    sizes = log.sizes
    summ = {k: c.summary(sizes) for k, c in cells.items()}
    # a variant built by bench/variant-ko.sh (say asbase) gets a column after the known ones
    scheds = [s for s in SCHEDS if any(k[4] == s for k in cells)] + \
        sorted({k[4] for k in cells} - set(SCHEDS))
    workloads = []
    for r in log.res:
        w, load = split_tag(r["tag"])
        if is_ionice(w):
            continue  # each job's own time, in the ionice tables
        if (w, load) not in workloads:
            workloads.append((w, load))
    txt = ["antic vmbench on %s: hddsim, ext4 on its first 20 GiB, page cache 256 MB (memcg)%s"
           % (log.kver, "; QUICK run" if log.quick else ""), log.header]
    records, plot = [], []
    width = 27
    for disk, depth in log.disks:
        rows = [(w, l) for w, l in workloads if any((disk, depth, w, l, s) in cells for s in scheds)]
        if not rows:
            continue
        for part, title in ((None, "time in s (random-vs-write: read p50 ms; fair-*: the reader's mean latency, ms)"),
                            ("tuning", "start-up time in s under each background load, "
                             "tuning set (the rules were chosen on these)"),
                            ("validation", "start-up time in s under each background load, "
                             "validation set (no rule cites these)")):
            part_rows = [(w, l) for w, l in rows if startup_set(w) == part]
            if not part_rows:
                continue
            txt.append("")
            txt.append("== %s at queue depth %d: %s; median [min-max] of the repetitions, "
                       "{antic-sim}" % (disk, depth, title))
            txt.append("   (>T: stopped at the cap T; ~T: some run stopped at the cap, its time "
                       "projected from the fraction read or counted at the cap; AS/x: ratio of "
                       "medians, a win or loss only where the ranges do not overlap and the "
                       "medians differ by more than the margin, %s; T!: a run "
                       "killed before its cap is left out)" % (
                           "%.1f %%" % (margin * 100) if not CELL_MARGINS else
                           "the null A/B's spread of the cell, else its largest, %.1f %%"
                           % (margin * 100)))
            if any(lead_mark(simt.get((disk, depth, w, l, s)))
                   for w, l in part_rows for s in scheds):
                txt.append("   (%s)" % lead_legend(log.warm))
            head = "%-26s" % ("start-up / load" if part else "workload")
            head += "".join(" %*s" % (width, s) for s in scheds)
            head += " %19s %19s" % ("AS/mq-deadline", "AS/bfq")
            if not part:
                head += " %7s" % "Morton"
            txt.append(head)
            for w, l in part_rows:
                name = "%s %s" % (w, l) if l else w
                line = "%-26s" % name
                for s in scheds:
                    k = (disk, depth, w, l, s)
                    line += " %*s" % (width, fmt_summary(summ[k], simt.get(k, {}).get("value"),
                                                         lead_mark(simt.get(k)))
                                      if k in summ else "-")
                a = summ.get((disk, depth, w, l, "anticipatory"))
                verdicts = {}
                for rv in RIVALS:
                    b = summ.get((disk, depth, w, l, rv))
                    verdicts[rv] = verdict(a, b, cell_margin((disk, depth, w, l), margin)) \
                        if a and b else (None, None)
                    line += " %19s" % fmt_verdict(*verdicts[rv])
                if not part:
                    m = morton.get(example_of(w))
                    line += " %7s" % ("%.2f" % (float(m["as_s"]) / float(m["deadline_s"])) if m else "-")
                txt.append(line)
                label = ("%s/%s" % (w[len("startup-"):], l) if part else w) + "@%s" % disk
                for s in scheds:
                    k = (disk, depth, w, l, s)
                    if k not in summ or summ[k]["median"] is None:
                        continue
                    c, sm = cells[k], summ[k]
                    plot.append((label, s, sm["median"], sm["min"], sm["max"], sm["kind"]))
                    pred = simt.get(k, {})
                    rec = {"workload": w, "load": l, "disk": disk, "depth": depth,
                           "scheduler": s, "kernel": log.kver,
                           "unit": "ms" if latency_ms(w) else "s",
                           "repetitions": sm["repetitions"], "median": sm["median"],
                           "min": sm["min"], "max": sm["max"], "capped": sm["capped"],
                           "median_kind": sm["kind"],
                           "sim_prediction": pred.get("value"),
                           **({"sim_layout": LAYOUT[w] if log.fresh else None}
                              if w in LAYOUT and "value" in pred else {}),
                           **({"sim_lead_s": pred["lead"], "sim_lead_from": pred["lead_from"]}
                              if "lead" in pred else {}),
                           "kernel_io_time": c.io_median(),
                           "sim_error": sim_error(sm, pred.get("value"), c.io_median()),
                           "io_path": io_path(w),
                           "fio_error": c.fio_error, "idle_pct": round(c.mean("idle_pct"), 1),
                           "seeks": round(c.mean("seeks"))}
                    if s == "anticipatory":
                        rec["vs"] = {rv: {"ratio": None if verdicts[rv][0] is None
                                          else round(verdicts[rv][0], 3),
                                          "verdict": verdicts[rv][1]} for rv in RIVALS}
                    if part:
                        rec["set"] = part
                        bgs = c.background()
                        if bgs:
                            rec["background"] = {
                                "read_MBps": round(statistics.median(b[0] for b in bgs), 2),
                                "write_MBps": round(statistics.median(b[1] for b in bgs), 2)}
                            lr = c.longest_reads()
                            if lr:
                                # [median, min, max] over the repetitions
                                rec["background"]["read_max_ms"] = lr
                        if "background" in pred:
                            rec["sim_background"] = pred["background"]
                        figs = [c.sreplay[r] for r in sorted(c.sreplay)]
                        if figs:
                            rec["replay_lat_p50_ms"] = round(statistics.median(
                                f.get("lat_p50_ms", 0) for f in figs), 3)
                    else:
                        rec["jobs"] = [{"role": j[0], "name": j[1], "read_MBps": round(v[0], 3),
                                        "write_MBps": round(v[1], 3), "read_iops": round(v[2], 1),
                                        "read_p50_ms": round(v[3], 3), "read_p99_ms": round(v[4], 3)}
                                       for j, v in c.job_means().items()]
                    records.append(rec)
            if part:
                # what the load got meanwhile: a fast start-up bought by
                # starving the load must show
                def throughput(rec):
                    b = rec["background"]
                    t = "%.1f+%.1f" % (b["read_MBps"], b["write_MBps"])
                    if "sim_background" in rec:
                        sb = rec["sim_background"]
                        t += " {%.1f+%.1f}" % (sb["read_MBps"], sb["write_MBps"])
                    return t

                def longest(rec):
                    if "read_max_ms" not in rec["background"]:
                        return "-"
                    m, lo, hi = rec["background"]["read_max_ms"]
                    return "%.0f" % m + (" [%.0f-%.0f]" % (lo, hi) if lo != hi else "")

                for title, cell in (("background load's throughput meanwhile, read+write MB/s "
                                     "(median of the repetitions), {antic-sim}", throughput),
                                    ("background load's longest read, ms (fio's clat max; "
                                     "median [min-max] of the repetitions)", longest)):
                    txt.append("")
                    txt.append("   " + title)
                    for w, l in part_rows:
                        if l == "none":
                            continue
                        line = "   %-23s" % ("%s %s" % (w, l))
                        for s in scheds:
                            rec = next((x for x in records if (x["disk"], x["depth"], x["workload"],
                                                               x["load"], x["scheduler"])
                                        == (disk, depth, w, l, s)), None)
                            line += " %*s" % (width, cell(rec) if rec and "background" in rec else "-")
                        txt.append(line)

    # the simulator's error, per cell with a prediction
    txt.append("")
    txt.append("== antic-sim's error against the kernel's median, (sim - kernel) / kernel "
               "(capped: the kernel's figure is not a finished time; a time in s is the "
               "measured jobs' I/O time, fio's job_runtime, where fio gave it: the wall "
               "time above adds fio's setup); target: within %d %% "
               "for I/O straight to the raw device, %d %% through ext4 and the page cache; "
               "lead: the head start in s antic-sim gave the load over the measured job, the "
               "load's in the kernel's runs of the cell (its fio's start to the measured job's, "
               "median of the repetitions; %s: the header's warm-up, the log giving none)"
               % (TARGET_PCT["raw-direct"], TARGET_PCT["ext4"], LEAD_MARK))
    if any(r["workload"] in LAYOUT and r["sim_prediction"] is not None for r in records):
        txt.append("   (the small-file cells' files in antic-sim: %s)" % (
            "where ext4 put them on a fresh file system, bench/layouts/%s"
            % "/".join(sorted(set(LAYOUT.values()))) if log.fresh else
            "one after another, as some boot of this log shared one file system between its "
            "runs (no fresh=1 in its boot line), where the map does not hold"))
    txt.append("%-14s %5s %-26s %-13s %10s %10s %6s %8s %-10s %s" % (
        "disk", "depth", "workload", "scheduler", "kernel", "antic-sim", "lead", "error", "path",
        "target"))
    for rec in records:
        if rec["sim_prediction"] is None:
            continue
        name = rec["workload"] + (" " + rec["load"] if rec["load"] else "")
        err = "capped" if rec["sim_error"] is None else "%+.0f%%" % rec["sim_error"]
        met = "-" if rec["sim_error"] is None else \
            "met" if abs(rec["sim_error"]) <= TARGET_PCT[rec["io_path"]] else "missed"
        lead = "-" if "sim_lead_s" not in rec else "%.1f%s" % (
            rec["sim_lead_s"], lead_mark({"lead_from": rec["sim_lead_from"]}))
        txt.append("%-14s %5d %-26s %-13s %10s %10s %6s %8s %-10s %s" % (
            rec["disk"], rec["depth"], name, rec["scheduler"],
            fmt_val(rec["kernel_io_time"], "") if rec.get("kernel_io_time") and
            rec["sim_error"] is not None else fmt_val(rec["median"], rec["median_kind"]),
            fmt_val(rec["sim_prediction"], ""), lead, err,
            rec["io_path"], met))

    # per job, Morton rows
    txt.append("")
    txt.append("%-14s %-17s %-13s %-10s %9s %9s %9s %9s" % (
        "disk", "workload", "scheduler", "job", "read MB/s", "write MB/s", "p50 ms", "p99 ms"))
    for rec in records:
        for j in rec.get("jobs", []):
            txt.append("%-14s %-17s %-13s %-10s %9.2f %9.2f %9.2f %9.2f" % (
                rec["disk"], rec["workload"], rec["scheduler"], j["name"][:10], j["read_MBps"],
                j["write_MBps"], j["read_p50_ms"], j["read_p99_ms"]))

    # the instrument (where the host stamped the runs), the A/B tables, fairness
    if log.walls:
        txt.extend(instrument_lines(log, cells))
    ab_rows = []
    for a, b in ab:
        rows = ab_table(log, cells, a, b, margin)
        if not rows:
            warn("--ab %s:%s: no cell both ran" % (a, b))
        ab_rows += rows
        txt.extend(ab_lines(rows, margin))
    fg = fair_guest(cells)
    fs = fair_sim(log, cells) if fg else {}
    txt.extend(fair_lines(fg, fs))
    ig = ionice_guest(cells)
    ionice_json = ionice_rows(ig, ionice_sim(log, ig) if ig else {})
    txt.extend(ionice_lines(ionice_json))
    fair_json = [{"disk": k[0], "depth": k[1], "workload": k[2], "scheduler": k[3], "job": k[4],
                  "iops": round(v[0], 1), "p50_ms": round(v[1], 3), "p99_ms": round(v[2], 3),
                  "share": None if v[3] is None else round(v[3], 3),
                  "sim": None if k not in fs else {"iops": round(fs[k][0], 1), "p50_ms": round(fs[k][1], 3),
                                                   "p99_ms": round(fs[k][2], 3),
                                                   "share": None if fs[k][3] is None else round(fs[k][3], 3)}}
                 for k, v in sorted(fg.items(), key=str)]

    costs = cost_rows(log)
    cost_json = []
    if costs:
        txt.append("")
        txt.append("== scheduler cost on null_blk (4 KiB random reads, 4 jobs x iodepth 32; "
                   "median of %d runs of %d s, IOPS range in brackets)" % (log.costreps, log.costrun))
        if log.cost_antic_expire is not None:
            txt.append("(anticipatory's antic_expire in these runs: %d ms)" % log.cost_antic_expire)
        if log.icount is not None:
            txt.append("(seconds of the guest's instruction clock, %d ns an instruction: "
                       "IOPS measure instructions per I/O, not the host's time)" % (1 << log.icount))
        txt.append("%-13s %-13s %10s %17s %8s %12s %8s" % (
            "scheduler", "load", "IOPS", "(min-max)", "vs none", "CPU us/IO", "vs none"))
    for (s, load), r in costs.items():
        base = costs.get(("none", load), {"median": 0, "cpu_us": 0})
        lo, hi = (round(min(r["iops"])), round(max(r["iops"]))) if r["iops"] else (0, 0)
        # without none in the run there is nothing to compare with: "-"
        vs = lambda a, b: "%8.2f" % ratio(a, b) if b else "%8s" % "-"
        txt.append("%-13s %-13s %10.0f %17s %s %12.2f %s" % (
            s, load, r["median"], "(%d-%d)" % (lo, hi), vs(r["median"], base["median"]),
            r["cpu_us"], vs(r["cpu_us"], base["cpu_us"])))
        cost_json.append({"scheduler": s, "load": load, "runs": r["runs"],
                          "iops": round(r["median"]), "iops_min": lo, "iops_max": hi,
                          "cpu_us_per_io": round(r["cpu_us"], 3),
                          "iops_vs_none": round(ratio(r["median"], base["median"]), 3),
                          "cpu_vs_none": round(ratio(r["cpu_us"], base["cpu_us"]), 3)})
    ratios = cost_ratios(costs)
    if ratios:
        txt.append("anticipatory's IOPS over each scheduler's, round by round "
                   "(median [min-max] of the rounds' ratios):")
    for r in ratios:
        txt.append("  %-13s vs %-13s %5.2f [%.2f-%.2f] of %d rounds%s" % (
            r["load"], r["vs"], r["median"], r["min"], r["max"], r["rounds"],
            "; target >= %.2f: %s" % (r["target"], r["verdict"]) if "target" in r else ""))

    with open(prefix + ".txt", "w", encoding="utf-8") as f:
        f.write("\n".join(txt) + "\n")
    # one result per line, so that two reports compare line by line
    head = json.dumps({"kernel": log.kver, "quick": log.quick, "icount_shift": log.icount,
                       "disks": [{"disk": d, "depth": q} for d, q in log.disks],
                       # one cap, or each disk's where they differ
                       "cap_s": (log.cap if not log.caps else next(iter(log.caps.values()))
                                 if len(set(log.caps.values())) == 1 else None),
                       **({"cap_s_by_disk": log.caps} if len(set(log.caps.values())) > 1 else {}),
                       "warm_s": log.warm, "time_scale": log.time_scale,
                       "memcg": "256M", **({"boot_id": log.boot_id} if log.boot_id else {})})[:-1]
    with open(prefix + ".json", "w", encoding="utf-8") as f:
        f.write(head + ",\n \"results\": [")
        f.write(",".join("\n  " + json.dumps(r) for r in records))
        f.write("\n ],\n \"cost\": [")
        f.write(",".join("\n  " + json.dumps(r) for r in cost_json))
        f.write("\n ],\n \"cost_ratios\": [")
        f.write(",".join("\n  " + json.dumps(r) for r in ratios))
        f.write("\n ],\n \"margin_pct\": %s,\n \"ab\": [" % round(margin * 100, 2))
        f.write(",".join("\n  " + json.dumps(r) for r in ab_rows))
        f.write("\n ],\n \"fairness\": [")
        f.write(",".join("\n  " + json.dumps(r) for r in fair_json))
        f.write("\n ],\n \"ionice\": [")
        f.write(",".join("\n  " + json.dumps(r) for r in ionice_json))
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

KINDS = ("done", "partial", "bound")


def plot_data(plot):
    """The plot's rows: (x, median, min, max, kind index, scheduler
    index), and the labels and schedulers they index. A bar only for a
    cell whose every repetition finished."""
    labels, scheds = [], [s for s in SCHEDS if any(p[1] == s for p in plot)]
    for p in plot:
        if p[0] not in labels:
            labels.append(p[0])
    width = 0.8 / max(len(scheds), 1)
    rows = []
    for label, sched, med, lo, hi, kind in plot:
        # a variant of ours (asbase) is tabulated, not drawn: colours are per known scheduler
        if med > 0 and sched in scheds:  # the axis is logarithmic
            i = scheds.index(sched)
            x = labels.index(label) + (i - (len(scheds) - 1) / 2) * width
            rows.append((x, med, lo if lo > 0 else med, hi, KINDS.index(kind), i))
    return labels, scheds, width, rows


def gnuplot_script(plot, kver, dat):
    labels, scheds, width, rows = plot_data(plot)
    with open(dat, "w", encoding="utf-8") as f:
        f.write("# x median min max kind scheduler (indexes into kinds and scheds)\n")
        for r in rows:
            f.write("%.4f %.3f %.3f %.3f %d %d\n" % r)
    lines = [
        'set title "antic vmbench, %s: median, min-max bars (log scale; lower is better)" '
        'noenhanced' % kver,
        "set logscale y",
        'set ylabel "seconds (random-vs-write: read p50 ms)"',
        "set xtics rotate by -30 noenhanced",
        "set xtics (%s)" % ", ".join('"%s" %d' % (l, i) for i, l in enumerate(labels)),
        "set xrange [-0.6:%.1f]" % (len(labels) - 0.4),
        "set boxwidth %.4f absolute" % (width * 0.9),
        "set key below",
        "set style fill solid 0.8 border -1",
    ]
    # the key: one entry per scheduler, whichever kinds of run it had
    parts = ['keyentry with boxes lc %d fill solid 0.8 border -1 title "%s"' % (SCHEDS.index(s) + 1, s)
             for s in scheds]
    parts.append('keyentry with boxes lc black fill pattern 4 border '
                 'title "a run stopped at the cap (projected, or counted at the cap)"')
    parts.append('keyentry with vectors head filled lw 2 lc black '
                 'title "stopped at the cap: at least"')
    for i, s in enumerate(scheds):
        def only(kind, col=2):
            return "(($5 == %d && $6 == %d) ? $%d : NaN)" % (KINDS.index(kind), i, col)
        # finished: a solid bar; a cell with a projected run: a hatched
        # one; a bare bound: no bar, an arrow up from the cap
        lc = SCHEDS.index(s) + 1  # a scheduler's colour is the same in every plot
        parts.append('"%s" using 1:%s with boxes lc %d fill solid 0.8 border -1 notitle'
                     % (dat, only("done"), lc))
        parts.append('"%s" using 1:%s:3:4 with yerrorbars lc black pt 0 notitle'
                     % (dat, only("done")))
        parts.append('"%s" using 1:%s with boxes lc %d fill pattern 4 border notitle'
                     % (dat, only("partial"), lc))
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
        n = len({p[0] for p in plot})
        size = "%d,650" % max(1400, 70 * n + 400)
        for term, spec in (("png", "pngcairo size " + size), ("svg", "svg size " + size)):
            g = 'set terminal %s\nset output "%s.%s"\n' % (spec, prefix, term) + script
            # quiet unless it fails: it warns of every empty kind of run
            p = subprocess.run(["gnuplot"], input=g.encode(), stderr=subprocess.PIPE, check=False)
            if p.returncode:
                sys.stderr.write(p.stderr.decode(errors="replace"))
                return "(gnuplot failed for %s)" % term
    return None


# ---- the head-to-head section (docs/results.md), from the reports' JSON

def readme_section(docs):
    """The markdown between the vmbench markers: per kernel the
    tables of medians and ranges, the start-up table, the simulator's
    error, and what a user with a desktop hard disk should take from it,
    every figure from @docs (the reports' JSON)."""
    out = []
    quick = any(d.get("quick") for d in docs)
    if quick:
        out.append("**QUICK run** (`QUICK=1`: a subset, two repetitions; not the full "
                   "head-to-head): kernel%s %s." % ("s" if len(docs) > 1 else "",
                                                  ", ".join(d["kernel"] for d in docs)))
        out.append("")
    for d in docs:
        res = d["results"]
        scheds = [s for s in SCHEDS if any(r["scheduler"] == s for r in res)]
        out.append("%s%s (median [min-max] of %s repetitions; `>T` stopped at the cap, "
                   "`~T` some run stopped at it; {antic-sim}%s):" % (
                       d["kernel"], " (QUICK)" if d.get("quick") else "",
                       "/".join(sorted({str(len(r["repetitions"])) for r in res})),
                       "; `{T%s}` antic-sim's load given the warm-up, not its head start in the "
                       "log" % LEAD_MARK if any(r.get("sim_lead_from") == "header" for r in res)
                       else ""))
        out.append("```")
        for disk in d["disks"]:
            for part in (None, "tuning", "validation"):
                rows = []
                for r in res:
                    if (r["disk"], r["depth"]) == (disk["disk"], disk["depth"]) and \
                            startup_set(r["workload"]) == part and (r["workload"], r["load"]) not in rows:
                        rows.append((r["workload"], r["load"]))
                if not rows:
                    continue
                idle = [r["idle_pct"] for r in res if (r["disk"], r["depth"]) == (disk["disk"], disk["depth"])
                        and startup_set(r["workload"]) == part and r.get("idle_pct") is not None]
                # a guest whose CPU was never idle measured the emulator, not the disk
                out.append("%s, depth %d%s%s:" % (
                    disk["disk"], disk["depth"],
                    ", start-up time (s) under load, %s set" % part if part else "",
                    " (guest CPU idle %.0f %% of the time, median over the cells; %.0f-%.0f)"
                    % (statistics.median(idle), min(idle), max(idle)) if idle else ""))
                out.append("%-26s" % "" + "".join(" %27s" % s for s in scheds) +
                           " %19s %19s" % ("AS/mq-deadline", "AS/bfq"))
                for w, l in rows:
                    line = "%-26s" % (w + (" " + l if l else ""))
                    cell = {r["scheduler"]: r for r in res if (r["disk"], r["depth"], r["workload"],
                                                               r["load"]) == (disk["disk"], disk["depth"], w, l)}
                    for s in scheds:
                        r = cell.get(s)
                        if not r:
                            line += " %27s" % "-"
                            continue
                        sm = {"median": r["median"], "min": r["min"], "max": r["max"],
                              "kind": r["median_kind"]}
                        mark = lead_mark({"lead_from": r.get("sim_lead_from")})
                        line += " %27s" % fmt_summary(sm, r["sim_prediction"], mark)
                    vs = cell.get("anticipatory", {}).get("vs", {})
                    for rv in RIVALS:
                        v = vs.get(rv, {})
                        line += " %19s" % fmt_verdict(v.get("ratio"), v.get("verdict"))
                    out.append(line)
                out.append("")
        errs = [r for r in res if r["sim_error"] is not None]
        if errs:
            out.append("antic-sim's error against the kernel's median (finished cells; the measured jobs' I/O time where fio gave it), and how "
                       "many meet the target (%d %% raw device, %d %% ext4):"
                       % (TARGET_PCT["raw-direct"], TARGET_PCT["ext4"]))
            for s in ("none", "mq-deadline", "anticipatory"):
                for path in ("raw-direct", "ext4"):
                    e = sorted(r["sim_error"] for r in errs if r["scheduler"] == s
                               and r.get("io_path", io_path(r["workload"])) == path)
                    if e:
                        out.append("  %-13s %-10s %d cells, %+.0f%% to %+.0f%%, median %+.0f%%, "
                                   "%d within target" % (
                                       s, path, len(e), e[0], e[-1], statistics.median(e),
                                       sum(abs(x) <= TARGET_PCT[path] for x in e)))
        out.append("```")
        out.append("")
    # the paragraph: what the start-up rows on today's disk say, counted
    su = [r for d in docs for r in d["results"] if is_startup(r["workload"])
          and r["scheduler"] == "anticipatory" and "vs" in r]
    if su:
        disk = su[0]["disk"]
        counts = {rv: {"win": 0, "loss": 0, "within noise": 0} for rv in RIVALS}
        for r in su:
            for rv in RIVALS:
                v = r["vs"].get(rv, {}).get("verdict")
                if v:
                    counts[rv][v] += 1
        bg = []
        for r in su:
            if r.get("background") and r["load"] != "none":
                for d in docs:
                    for o in d["results"]:
                        if (o["workload"], o["load"], o["disk"], o["scheduler"], o["kernel"]) == \
                                (r["workload"], r["load"], r["disk"], "mq-deadline", r["kernel"]) \
                                and o.get("background"):
                            a = r["background"]["read_MBps"] + r["background"]["write_MBps"]
                            b = o["background"]["read_MBps"] + o["background"]["write_MBps"]
                            if b:
                                bg.append(a / b)
        text = ("What a user with a desktop hard disk (%s, NCQ on) should take from it%s: "
                "of %d start-up cells, anticipatory started the program faster than "
                "mq-deadline beyond the noise in %d, slower in %d, and within noise in %d; "
                "against bfq %d faster, %d slower, %d within noise."
                % (disk, " (a QUICK run: too few repetitions to settle anything)" if quick else "",
                   len(su), counts["mq-deadline"]["win"], counts["mq-deadline"]["loss"],
                   counts["mq-deadline"]["within noise"], counts["bfq"]["win"],
                   counts["bfq"]["loss"], counts["bfq"]["within noise"]))
        if bg:
            med = statistics.median(bg)
            text += (" Meanwhile the background load moved %.2f-%.2f times what it moved under "
                     "mq-deadline (median %.2f)" % (min(bg), max(bg), med))
            # a judgement only where anticipatory started something faster
            if counts["mq-deadline"]["win"]:
                text += (": the load paid for part of anticipatory's faster start-ups" if med < 1
                         else ": anticipatory's faster start-ups were not paid for by the load")
            text += "."
        out.append(text)
        out.append("")
    return "\n".join(out)


def update_readme(readme, paths):
    docs = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            docs.append(json.load(f))
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    a, b = text.find(START_MARK), text.find(END_MARK)
    if a < 0 or b < a:
        print("report: %s has no vmbench markers (%s ... %s)" % (readme, START_MARK, END_MARK),
              file=sys.stderr)
        return 1
    new = text[:a + len(START_MARK)] + "\n" + readme_section(docs) + text[b:]
    tmp = readme + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(new)
    os.replace(tmp, readme)  # whole or not at all
    return 0


USAGE = ("usage: bench/report.py [--null JSON | --margin PCT] [--ab A:B]... [--as NAME] [--drop NAME]...\n"
         "                        LOG... PREFIX\n"
         "       bench/report.py --readme FILE JSON...\n"
         "       bench/report.py --repeat A.json B.json")


def main(argv):
    global MARGIN
    if len(argv) >= 3 and argv[1] == "--readme":
        return update_readme(argv[2], argv[3:]) if len(argv) > 3 else 2
    if len(argv) == 4 and argv[1] == "--repeat":
        txt, (within, n) = repeat_table(argv[2], argv[3])
        print("\n".join(txt))
        return 0 if n and within * 10 >= n * 9 else 1
    args, ab, variant, drop = argv[1:], [], None, []
    while len(args) > 2 and args[0] in ("--null", "--margin", "--ab", "--as", "--drop"):
        opt, val = args[0], args[1]
        args = args[2:]
        if opt == "--as":
            variant = val
        elif opt == "--drop":
            drop.append(val)
        elif opt == "--null":
            MARGIN = max(MARGIN, null_margin(val))
        elif opt == "--margin":
            try:
                MARGIN = float(val) / 100
            except ValueError:
                MARGIN = -1
            if not 0 <= MARGIN < 10:
                print("report: --margin %s: a percentage from 0 to 1000" % val, file=sys.stderr)
                return 2
        else:
            a, _, b = val.partition(":")
            if not a or not b:
                print("report: --ab %s: A:B, two schedulers' names" % val, file=sys.stderr)
                return 2
            ab.append((a, b))
    if len(args) < 2:
        print(USAGE, file=sys.stderr)
        return 2
    paths, prefix = args[:-1], args[-1]
    for p in paths:
        if not os.path.isfile(p):
            print("report: %s: no such log" % p, file=sys.stderr)
            return 2
    log, why = merge_logs([read_log(p) for p in paths], paths)
    if log is None:
        print("report: %s" % why, file=sys.stderr)
        return 2
    why = take_variant(log, variant, drop) if variant or drop else None
    scheds = {r["sched"] for r in log.res}
    for pair in ab:
        for name in pair:
            if not why and name not in scheds:
                why = "--ab %s:%s: no cell of %s in the logs%s" % (
                    pair[0], pair[1], name, " (after --drop)" if name in drop else
                    " (after --as)" if variant else "")
    if why:
        print("report: %s" % why, file=sys.stderr)
        return 2
    morton = morton_figures()
    cells = build_cells(log)
    simt = sim_predictions(log, cells)
    plot = write_reports(log, cells, simt, morton, prefix, ab)
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
