#!/usr/bin/env python3
"""Check that antic-sim's JSON is fio's: every key fio 3.33's own output
has (tests/fio-json/fio-3.33.json, fio's --output-format=json+ of a small
psync job) is in each of antic-sim's documents, with the same JSON type,
down to each direction's clat_ns, lat_ns, bw and iops statistics, the
latency buckets and disk_util; the percentiles are fio's default 17, in
order and non-decreasing; the counts agree (N = total_ios, io_kbytes =
io_bytes / 1024, json+ bins summing to N). It reads the documents as
fio's consumers do: a document with "jobs" at the top is one run, else
each under "schedulers" is.
Usage: fio-json-check.py REFERENCE DOC.json... ; prints one line a
document, exits 1 on the first wrong one."""
import json
import sys

FIO_PCTS = ["%f" % p for p in (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
                               99.9, 99.95, 99.99)]
# what depends on the job's options or the latencies seen, not on the format
FREE = ("job options", "global options", "percentile", "bins")


def kind(v):
    return {dict: "object", list: "array", str: "string", bool: "bool",
            int: "integer", float: "float"}[type(v)]


def shape(ref, doc, path, errs):
    if kind(ref) != kind(doc):
        errs.append("%s: %s in fio's, %s here" % (path, kind(ref), kind(doc)))
    elif isinstance(ref, dict):
        for k, v in ref.items():
            if k in FREE:
                continue
            if k not in doc:
                errs.append("%s: no %r" % (path, k))
            else:
                shape(v, doc[k], "%s.%s" % (path, k), errs)
    elif isinstance(ref, list) and ref:
        if not doc:
            errs.append("%s: empty" % path)
        for i, d in enumerate(doc):
            shape(ref[0], d, "%s[%d]" % (path, i), errs)


def counts(doc, plus, errs):
    for j in doc["jobs"]:
        for d in ("read", "write", "trim"):
            o = j[d]
            c = o["clat_ns"]
            where = "%s.%s" % (j["jobname"], d)
            if c["N"] != o["total_ios"] or o["lat_ns"]["N"] != o["total_ios"]:
                errs.append("%s: N %d, total_ios %d" % (where, c["N"], o["total_ios"]))
            if o["io_kbytes"] != o["io_bytes"] // 1024:
                errs.append("%s: io_kbytes %d of io_bytes %d" % (where, o["io_kbytes"], o["io_bytes"]))
            if not c["N"]:
                continue
            p = c.get("percentile", {})
            if list(p) != FIO_PCTS:
                errs.append("%s: percentiles %s, fio's are %s" % (where, list(p), FIO_PCTS))
            v = list(p.values())
            if v != sorted(v) or (v and not c["min"] <= v[0] <= v[-1] <= c["max"]):
                errs.append("%s: percentiles out of order or outside min..max: %s" % (where, v))
            if plus and sum(c.get("bins", {}).values()) != c["N"]:
                errs.append("%s: bins sum to %d, N is %d" % (where, sum(c.get("bins", {}).values()), c["N"]))


def main():
    ref = json.load(open(sys.argv[1]))
    for path in sys.argv[2:]:
        top = json.load(open(path))
        docs = {"": top} if "jobs" in top else top["schedulers"]
        for name, doc in docs.items():
            errs = []
            shape(ref, doc, name or "doc", errs)
            plus = any("bins" in j[d]["clat_ns"] for j in doc.get("jobs", [])
                       for d in ("read", "write"))
            if not errs:
                counts(doc, plus, errs)
            label = "%s%s" % (path, " " + name if name else "")
            if errs:
                print("FAIL %s: not fio's JSON:\n  %s" % (label, "\n  ".join(errs[:10])))
                sys.exit(1)
            ios = sum(j[d]["total_ios"] for j in doc["jobs"] for d in ("read", "write"))
            print("ok %s: fio's shape, %d jobs, %d I/Os%s" % (label, len(doc["jobs"]), ios,
                                                           ", json+ bins" if plus else ""))


main()
