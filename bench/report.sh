#!/bin/sh
# Turns a vmbench log into PREFIX.txt (tables), PREFIX.json and, when
# gnuplot is installed, PREFIX.png and PREFIX.svg; antic-sim's predictions
# for the same workloads and disk go beside the kernel's figures.
# Usage: bench/report.sh LOG PREFIX
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
log=$1 prefix=$2
sim=$top/build/antic-sim
simout=$(mktemp)
trap 'rm -f "$simout" "$simout.dat"' EXIT
kver=$(sed -n "s/.*vm: kernel \([^,]*\),.*/\1/p" "$log" | head -n 1)

# simulator: the same workload on the same disk, each policy's column
# under the Linux scheduler that plays it (antic-sim --list-schedulers)
schedmap=$("$sim" --list-schedulers | awk '{ printf "%s=%s ", $1, $2 }')
for depth in $(awk '$1 == "RES" { print $2 }' "$log" | sort -un); do
	for pair in write-vs-read:reader write-vs-tree:tree read-vs-tree:tree \
		six-trees:tree ten-streams:stream read-vs-fsync:writer \
		compile-vs-write:compile compile-alone:compile random-vs-write:rand; do
		w=${pair%%:*} job=${pair#*:}
		ex=$w
		[ $w = six-trees ] && ex=six-tree-readers
		"$sim" --quiet --output-format=csv --set disk=ide2003 --set queue_depth="$depth" \
			"$top/examples/$ex.fio" |
		awk -F, -v d="$depth" -v w="$w" -v job="$job" -v schedmap="$schedmap" '
			# time: the slowest such job; random-vs-write: the mean of their read p50 (ms)
			NR > 1 && index($2, job) == 1 && w == "random-vs-write" { m[$1] += $8 / 1e6; c[$1]++; next }
			NR > 1 && index($2, job) == 1 { t = $7 / 1000; if (t > m[$1]) m[$1] = t }
			END {
				n = split(schedmap, pairs, " ")
				for (i = 1; i <= n; i++) { split(pairs[i], kv, "="); map[kv[1]] = kv[2] }
				for (s in m) printf "SIM %s %s %s %.3f\n", d, w, map[s], c[s] ? m[s] / c[s] : m[s]
			}'
	done
done > "$simout"

# the cost runs' length and count, as the guest printed them
costrun=$(sed -n 's/.*vm: cost runs of \([0-9]*\) s.*/\1/p' "$log" | head -n 1)
[ -n "$costrun" ] || costrun=$(sed -n 's/^COSTRUN=//p' "$top/build/vmbench/params" 2>/dev/null)
creps=$(sed -n 's/.*vm: cost runs of [0-9]* s, \([0-9]*\) times.*/\1/p' "$log" | head -n 1)
awk -v costrun="${costrun:-10}" -v creps="${creps:-1}" -v kver="$kver" -v txt="$prefix.txt" -v json="$prefix.json" -v dat="$simout.dat" '
function num(s) { sub(/.*=/, "", s); return s + 0 }
BEGIN {
	# Morton 2003 (2.5.61 deadline, AS), seconds
	hd["write-vs-read"] = 48; ha["write-vs-read"] = 3.8
	hd["write-vs-tree"] = 447; ha["write-vs-tree"] = 17
	hd["read-vs-tree"] = 219; ha["read-vs-tree"] = 17
	hd["six-trees"] = 230; ha["six-trees"] = 50
	hd["ten-streams"] = 132; ha["ten-streams"] = 31
	hd["read-vs-fsync"] = 7.7; ha["read-vs-fsync"] = 11.9
	hd["compile-vs-write"] = 400; ha["compile-vs-write"] = 70
	hd["compile-alone"] = 48; ha["compile-alone"] = 48
	nsched = split("none mq-deadline kyber bfq anticipatory", S, " ")
}
FILENAME != ARGV[1] && $1 == "SIM" { simt[$2 SUBSEP $3 SUBSEP $4] = $5; next }
$1 == "SIZE" { size[$2] = $3; next }
$1 == "RES" {
	k = $2 SUBSEP $3 SUBSEP $4
	if (!(k in n)) { keys[++nk] = k }
	n[k]++; t[k] += $6 / 1000; if (!(k in tmin) || $6 / 1000 < tmin[k]) tmin[k] = $6 / 1000
	if ($6 / 1000 > tmax[k]) tmax[k] = $6 / 1000
	rk = k SUBSEP $5; reps[k] = reps[k] " " $5; el[rk] = $6 / 1000; rcens[rk] = $7
	if ($7 && $3 != "random-vs-write") cens[k] = 1	# its metric is latency, not time
	idle[k] += $8; seeks[k] += $9; frac[k] += $10 * 512 / ($6 / 1000) / 40e6
	if ($13 != 0 && !$7) fioerr[k] = 1
	depths[$2] = 1; wl[$3] = 1
	if (!($3 in worder)) { worder[$3] = ++nw; wname[nw] = $3 }
	next
}
$1 == "FIO" && $3 !~ /^cost/ {
	split($0, f, " "); line = $0
	sub(/^FIO [^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ /, "", line)
	nf = split(line, x, ";")
	if (nf < 50) next	# not a terse line (fio printed something else)
	k = $2 SUBSEP $3 SUBSEP $4; j = k SUBSEP $6 SUBSEP x[3]
	if (!(j in jn)) { jobs[k] = jobs[k] " " $6 SUBSEP x[3] }
	jn[j]++
	if ($6 == "measured") {	# per job: KiB moved and seconds of I/O (after setup)
		jk = k SUBSEP $5 SUBSEP (++nj[k SUBSEP $5])
		jkb[jk] = x[6] + x[47]; jrt[jk] = (x[9] > x[50] ? x[9] : x[50]) / 1000
	}
	rbw[j] += x[7] * 1024 / 1e6; wbw[j] += x[48] * 1024 / 1e6
	rp50[j] += num(x[24]) / 1000; rp99[j] += num(x[30]) / 1000
	riops[j] += x[8]
	next
}
# cost runs may be repeated (COSTREPS): sums here, means at the end
$1 == "FIO" {
	ck = $4 SUBSEP substr($3, 6); split($0, y, ";")
	if (y[3] == "rr") {
		cost_iops[ck] += y[8]; cost_n[ck]++
		if (!(ck in cost_min) || y[8] < cost_min[ck]) cost_min[ck] = y[8]
		if (y[8] > cost_max[ck]) cost_max[ck] = y[8]
	}
	next
}
$1 == "COST" {
	ck = $2 SUBSEP $3
	if (!(ck in cost_busy)) costs[++nc] = ck
	cost_busy[ck] += $4; cost_tot[ck] += $5; next
}
/vm: kernel .*cpus, quick=/ { header = $0; sub(/.*vm: /, "vm: ", header) }
function mean(a, k) { return a[k] / n[k] }
# KiB each measured job of workload w reads when it runs to the end; 0
# where a stopped run cannot be projected (the fsync comes at the end)
function planned(w) {
	if (w == "write-vs-read" || w == "ten-streams") return 100 * 1024
	if (w == "write-vs-tree" || w == "read-vs-tree" || w == "six-trees") return size["tree0"]
	if (w ~ /^compile-/) return size["src"]
	return 0
}
# The time of one run. A run stopped at the cap is projected, when it can
# be: the setup fio does before the first I/O (it stats every file of a
# tree) is the wall time less the longest I/O time of a job, and the
# aggregate rate of the jobs over that I/O time is taken to hold until
# all of them have read everything (as readers finish, the rest seek
# less, so this errs long). proj[k] records a projected figure.
# (No apostrophes here: this program is quoted for the shell.)
function rep_time(k, r, w,   rk, p, i, jk, maxrt, kb) {
	rk = k SUBSEP r; p = planned(w)
	if (!rcens[rk] || w == "random-vs-write" || !p || !nj[rk]) return el[rk]
	maxrt = 0; kb = 0
	for (i = 1; i <= nj[rk]; i++) {
		jk = rk SUBSEP i
		if (!jkb[jk]) return el[rk]	# a job still in setup: only a bound
		if (jrt[jk] > maxrt) maxrt = jrt[jk]
		kb += jkb[jk]
	}
	if (kb >= p * nj[rk]) { finished[k] = 1; return el[rk] }	# done as the cap came
	proj[k] = 1
	return (el[rk] > maxrt ? el[rk] - maxrt : 0) + maxrt * p * nj[rk] / kb
}
function bound(k) { return (k in cens) && !(k in proj) && !(k in finished) }
function metric(k,   d, w, s, jj, m, c, i, rr, sum) {
	# the row metric: seconds, except random-vs-write (time-based): mean read p50 ms
	split(k, c, SUBSEP)
	if (c[2] != "random-vs-write") {
		split(reps[k], rr, " "); sum = 0
		for (i = 1; i in rr; i++) sum += rep_time(k, rr[i], c[2])
		return sum / n[k]
	}
	m = 0; c[0] = 0
	split(jobs[k], jj, " ")
	for (i in jj) if (index(jj[i], "measured" SUBSEP) == 1) { m += rp50[k SUBSEP jj[i]] / jn[k SUBSEP jj[i]]; c[0]++ }
	return c[0] ? m / c[0] : 0
}
END {
	printf "antic vmbench on %s: hddsim 40 GB 7200 rpm, 40-22 MB/s, 2 MB cache, 128 KiB requests; page cache 256 MB (memcg)\n", kver > txt
	print header > txt
	printf "{\"kernel\": \"%s\", \"disk\": {\"capacity\": \"40g\", \"rpm\": 7200, \"outer_mbps\": 40, \"inner_mbps\": 22, \"cache_segments\": 4, \"segment_kb\": 512, \"avg_seek_us\": 9000, \"full_stroke_us\": 17000, \"max_sectors_kb\": 128}, \"memcg\": \"256M\",\n \"results\": [", kver > json
	first = 1
	for (d = 0; d <= 64; d++) {
		if (!(d in depths)) continue
		printf "\n== queue depth %d: time in seconds (random-vs-write: read p50 ms); mean of reps, [sim] antic-sim\n", d > txt
		printf "   (>T: stopped at the cap T; ~T: stopped at the cap, time projected from the fraction read)\n" > txt
		printf "%-17s", "workload" > txt
		for (i = 1; i <= nsched; i++) printf " %17s", S[i] > txt
		printf " %7s %7s %7s\n", "AS/dl", "AS/bfq", "Morton" > txt
		for (wi = 1; wi <= nw; wi++) {
			w = wname[wi]
			for (i = 1; i <= nsched; i++) if ((d SUBSEP w SUBSEP S[i]) in n) break
			if (i > nsched) continue	# not run at this depth
			printf "%-17s", w > txt
			for (i = 1; i <= nsched; i++) {
				k = d SUBSEP w SUBSEP S[i]
				if (!(k in n)) { printf " %17s", "-" > txt; continue }
				v = metric(k); sk = d SUBSEP w SUBSEP S[i]
				cell = sprintf("%s%.1f", (k in proj) ? "~" : bound(k) ? ">" : "", v)
				if (sk in simt) cell = cell sprintf(" [%.1f]", simt[sk])
				printf " %17s", cell > txt
				val[d SUBSEP w SUBSEP S[i]] = v
			}
			a = val[d SUBSEP w SUBSEP "anticipatory"]; dl = val[d SUBSEP w SUBSEP "mq-deadline"]; bq = val[d SUBSEP w SUBSEP "bfq"]
			# a ratio with a bare bound (>T) in it says nothing
			ka = d SUBSEP w SUBSEP "anticipatory"; kd = d SUBSEP w SUBSEP "mq-deadline"; kb = d SUBSEP w SUBSEP "bfq"
			if (bound(ka) || bound(kd)) dl = 0
			if (bound(ka) || bound(kb)) bq = 0
			printf " %7s %7s %7s\n", dl ? sprintf("%.2f", a / dl) : "-", bq ? sprintf("%.2f", a / bq) : "-",
				(w in hd) ? sprintf("%.2f", ha[w] / hd[w]) : "-" > txt
			for (i = 1; i <= nsched; i++) if ((d SUBSEP w SUBSEP S[i]) in val)
				printf "%s%s %s %.3f\n", w, (d == 1 ? "" : "@qd" d), S[i], val[d SUBSEP w SUBSEP S[i]] > dat
		}
		printf "\n%-17s %-13s %-10s %9s %9s %9s %9s\n", "workload", "scheduler", "job", "read MB/s", "write MB/s", "p50 ms", "p99 ms" > txt
		for (ki = 1; ki <= nk; ki++) {
			k = keys[ki]; split(k, c, SUBSEP)
			if (c[1] != d) continue
			split(jobs[k], jj, " ")
			for (q = 1; q in jj; q++) {
				j = k SUBSEP jj[q]; split(jj[q], nm, SUBSEP)
				printf "%-17s %-13s %-10s %9.2f %9.2f %9.2f %9.2f\n", c[2], c[3], substr(nm[2], 1, 10),
					rbw[j] / jn[j], wbw[j] / jn[j], rp50[j] / jn[j], rp99[j] / jn[j] > txt
			}
		}
		printf "\n%-17s %-13s %6s %8s %8s %8s %s\n", "workload", "scheduler", "reps", "seeks", "disk%seq", "idle%", "sim err%" > txt
		for (ki = 1; ki <= nk; ki++) {
			k = keys[ki]; split(k, c, SUBSEP)
			if (c[1] != d) continue
			se = (k in simt) ? sprintf("%+.0f", (simt[k] - metric(k)) * 100 / metric(k)) : "-"
			if ((k in simt) && bound(k)) se = "capped"	# the kernel time is only a bound
			else if ((k in simt) && (k in proj)) se = se " (projected)"
			printf "%-17s %-13s %6d %8d %8.2f %8.1f %s\n", c[2], c[3], n[k], seeks[k] / n[k],
				frac[k] / n[k], idle[k] / n[k], se > txt
			printf "%s\n  {\"depth\": %d, \"workload\": \"%s\", \"scheduler\": \"%s\", \"reps\": %d, \"time_s\": %.3f, \"time_min_s\": %.3f, \"time_max_s\": %.3f, \"censored\": %s, \"projected\": %s, \"metric\": %.3f, \"fio_error\": %s, \"idle_pct\": %.1f, \"seeks\": %.0f, \"throughput_fraction\": %.4f, \"sim_time_s\": %s, \"jobs\": [",
				first ? "" : ",", c[1], c[2], c[3], n[k], t[k] / n[k], tmin[k], tmax[k],
				bound(k) ? "true" : "false", (k in proj) ? "true" : "false", metric(k), (k in fioerr) ? "true" : "false",
				idle[k] / n[k], seeks[k] / n[k], frac[k] / n[k],
				(k in simt) ? simt[k] : "null" > json
			first = 0
			split(jobs[k], jj, " ")
			for (q = 1; q in jj; q++) {
				j = k SUBSEP jj[q]; split(jj[q], nm, SUBSEP)
				printf "%s{\"role\": \"%s\", \"name\": \"%s\", \"read_MBps\": %.3f, \"write_MBps\": %.3f, \"read_iops\": %.1f, \"read_p50_ms\": %.3f, \"read_p99_ms\": %.3f}",
					(q > 1) ? ", " : "", nm[1], nm[2], rbw[j] / jn[j], wbw[j] / jn[j], riops[j] / jn[j],
					rp50[j] / jn[j], rp99[j] / jn[j] > json
			}
			printf "]}" > json
		}
	}
	printf "\n ],\n \"cost\": [" > json
	printf "\n== scheduler cost on null_blk (4 KiB random reads, 4 jobs x iodepth 32; mean of %d runs of %d s, IOPS range in brackets)\n%-13s %-13s %10s %17s %8s %12s %8s\n", creps, costrun, "scheduler", "load", "IOPS", "(min-max)", "vs none", "CPU us/IO", "vs none" > txt
	for (ci = 1; ci <= nc; ci++) {
		k = costs[ci]
		io = cost_n[k] ? cost_iops[k] / cost_n[k] : 0
		iops[k] = io
		# busy: clock ticks (1/100 s) summed over the runs
		cpuv[k] = io ? cost_busy[k] * 10000 / (io * costrun * cost_n[k]) : 0
	}
	for (ci = 1; ci <= nc; ci++) {
		k = costs[ci]; split(k, c, SUBSEP); base = "none" SUBSEP c[2]
		printf "%-13s %-13s %10.0f %17s %8.2f %12.2f %8.2f\n", c[1], c[2], iops[k],
			sprintf("(%d-%d)", cost_min[k], cost_max[k]),
			iops[base] ? iops[k] / iops[base] : 0, cpuv[k],
			cpuv[base] ? cpuv[k] / cpuv[base] : 0 > txt
		printf "%s\n  {\"scheduler\": \"%s\", \"load\": \"%s\", \"runs\": %d, \"iops\": %.0f, \"iops_min\": %d, \"iops_max\": %d, \"cpu_us_per_io\": %.3f, \"iops_vs_none\": %.3f, \"cpu_vs_none\": %.3f}",
			(ci > 1) ? "," : "", c[1], c[2], cost_n[k], iops[k], cost_min[k], cost_max[k], cpuv[k],
			iops[base] ? iops[k] / iops[base] : 0, cpuv[base] ? cpuv[k] / cpuv[base] : 0 > json
	}
	for (ci = 1; ci <= nc; ci++) {
		k = costs[ci]; split(k, c, SUBSEP)
		if (c[1] != "anticipatory") continue
		kd = "mq-deadline" SUBSEP c[2]; kb = "bfq" SUBSEP c[2]
		if (iops[kd] && iops[kb])
			printf "anticipatory, %s: IOPS %.2f of mq-deadline, %.2f of bfq; CPU per I/O %.2f of mq-deadline, %.2f of bfq\n",
				c[2], iops[k] / iops[kd], iops[k] / iops[kb], cpuv[kd] ? cpuv[k] / cpuv[kd] : 0,
				cpuv[kb] ? cpuv[k] / cpuv[kb] : 0 > txt
	}
	printf "\n ]\n}\n" > json
}' "$log" "$simout"
cat "$prefix.txt"

if command -v gnuplot >/dev/null 2>&1 && [ -s "$simout.dat" ]; then
	for term in png svg; do
		gnuplot <<G
set terminal $( [ $term = png ] && echo "pngcairo size 1400,650" || echo "svg size 1400,650" )
set output "$prefix.$term"
set title "antic vmbench, $kver: time per workload (s, log scale; lower is better)\nruns stopped at the cap show their projected time or, where none, the cap (see the .txt)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel "seconds (random-vs-write: read p50 ms)"
set xtics rotate by -30 noenhanced
set key outside right top
set datafile separator " "
plot for [s in "none mq-deadline kyber bfq anticipatory"] \
	"< awk -v s=" . s . " '\$2 == s' $simout.dat" using 3:xtic(1) title s
G
	done
	echo "report: $prefix.txt $prefix.json $prefix.png $prefix.svg"
elif [ -s "$simout.dat" ]; then
	echo "report: $prefix.txt $prefix.json (no plot: install gnuplot-nox)"
else
	echo "report: $prefix.txt $prefix.json (no plot: no measured runs)"
fi
