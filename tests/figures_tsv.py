"""The tables of figures the model tests hold antic-sim to
(tests/presets/figures.tsv, tests/sim-vs-kernel/figures.tsv): one row a
line, tab-separated, '#' comments and blank lines skipped, a header row
named by its first column."""
import sys


def data_rows(path, header, ncols):
    """(line number, columns) of each data row of PATH; a row without
    NCOLS columns stops the test with the file and line named."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if cols[0] == header:
                continue
            if len(cols) != ncols:
                sys.exit("%s:%d: want %d tab-separated columns" % (path, n, ncols))
            out.append((n, cols))
    return out
