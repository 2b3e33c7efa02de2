"""results_lib.py - what bench/report.py and bench/sim-targets.py both read
antic-sim's JSON with. Python 3 standard library only."""


def by_scheduler(doc):
    """antic-sim's JSON as {"schedulers": {NAME: result}}: one scheduler's
    output is fio's document itself, several are under "schedulers"; the
    simulator's own figures (sim_time_ns, anticipation, ...) are under each
    document's "antic" and are lifted beside fio's keys here. Results kept
    from before that shape pass through."""
    docs = doc["schedulers"] if "schedulers" in doc else {doc["antic"]["scheduler"]: doc}
    out = {}
    for s, d in docs.items():
        r = dict(d)
        r.update(d.get("antic", {}))
        out[s] = r
    return {"schedulers": out}
