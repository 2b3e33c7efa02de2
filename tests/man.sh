#!/bin/sh
# The manual pages under man/: each renders through man -l and groff
# without a warning, and each still names everything its source has, so a
# page cannot fall behind the code: every option of antic-sim --help, job
# option, setting and trace format in antic-sim(1); every tunable (with
# its range, taken from antic-sim's own error message), counter and
# sysfs/debugfs file in anticipatory(4); every module parameter and sysfs
# file (with the fault knobs' ranges) of hddsim-blk.c in hddsim(4);
# antic-select's commands in antic-select(8).
# Needs build/antic-sim (make). Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sim=build/antic-sim
[ -x "$sim" ] || { echo "tests/man.sh: $sim is missing (make)"; echo "0 passed, 1 failed"; exit 1; }

# -- rendering: man's own check (groff -ww through man) and groff's
for page in man/*.[1-9]; do
	if ! command -v man >/dev/null || ! command -v groff >/dev/null; then
		ko "$page: man or groff missing (setup.sh installs man-db and groff-base)"
		continue
	fi
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	groff -man -Tutf8 -ww -z "$page" 2>>"$tmp/err"
	if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ -s "$tmp/out" ]; then
		ok "$page renders without warnings ($(wc -l <"$tmp/out") lines)"
	else
		cat "$tmp/err"
		ko "$page: man -l exit $rc, warnings above"
	fi
done

# The page's roff with its escapes undone, comments dropped: names are
# searched in this, where '\-' is '-' and an en dash is '-'.
plain() {
	sed -e '/^\.\\"/d' -e 's/\\-/-/g' -e 's/\\(en/-/g' -e 's/\\(em/-/g' \
		-e 's/\\f[BIRP]//g' -e 's/\\&//g' -e 's/\\e/\\/g' "$1"
}
for p in antic-sim.1 anticipatory.4 hddsim.4 antic-select.8; do
	plain "man/$p" >"$tmp/$p"
done

# has PAGE NAME...: each NAME as a whole word (words may hold - and _)
has() {
	page=$1 what=$2
	shift 2
	missing=
	for n in "$@"; do
		grep -qE "(^|[^A-Za-z0-9_-])$n(\$|[^A-Za-z0-9_-])" "$tmp/$page" || missing="$missing $n"
	done
	if [ $# -eq 0 ]; then
		ko "$page: found no $what in the sources (the extraction is broken)"
	elif [ -z "$missing" ]; then
		ok "$page names all $# $what"
	else
		ko "$page lacks $what:$missing"
	fi
}

# -- antic-sim(1)
# shellcheck disable=SC2046
has antic-sim.1 "options of antic-sim --help" $("$sim" --help | grep -oE -- '--[a-z][a-z_-]*' | sort -u)
has antic-sim.1 "subcommands" replay convert
# job options are job_option's strcmp(k, ...) names, their values strcmp(v, ...)
has antic-sim.1 "job-file options (sim/jobfile.c, sim/jobopts.c)" \
	$(grep -oE 'strcmp\(k, "[a-z_]+"\)' sim/jobfile.c sim/jobopts.c | sed 's/.*"\(.*\)".*/\1/' | sort -u)
# every word in quotes inside job_option: the option names and their values
has antic-sim.1 "job-file options and values (job_option)" \
	$(sed -n '/^int job_option/,/^}/p' sim/jobopts.c | grep -oE '"[a-z][a-z_0-9]*"' | tr -d '"' | sort -u)
has antic-sim.1 "time units (parse_time)" \
	$(sed -n '/^int parse_time/,/^}/p' sim/jobopts.c | grep -oE '\{ "[a-z]+"' | sed 's/{ "//;s/"//' | sort -u)
has antic-sim.1 "settings (sim/settings.c)" \
	$( { grep -oE 'P\([a-z_]{2,},' sim/settings.c | sed 's/P(\(.*\),/\1/'
	     grep -oE 'strcmp\([kv], "[a-z_]+"\)' sim/settings.c | sed 's/.*"\(.*\)".*/\1/'; } | sort -u)
presets=$(grep -oE '\.name = "[a-z0-9]+"' core/disk.c | sed 's/.*"\(.*\)"/\1/')
# shellcheck disable=SC2086
has antic-sim.1 "disk presets (core/disk.c)" $presets
# trace formats: the code's own list (trace_format_list, in --format's
# refusal), which --help must list one a line under --format, and the page
# in --format's paragraph and as a heading of its own under TRACES
formats=$("$sim" replay --format '?' x 2>&1 | sed -n 's/.*--format: want \(.*\), got .*/\1/p' |
	sed 's/ or /, /' | tr -d ',')
helpfmt=$("$sim" --help | sed -n '/--format FMT/,/--device/p' | sed '1d;$d' | awk '{print $1}' | tr '\n' ' ')
if [ "$(echo $formats)" = "$(echo $helpfmt)" ] && [ "$(echo $formats | wc -w)" -ge 2 ]; then
	ok "antic-sim --help lists the $(echo $formats | wc -w) trace formats the code reads"
else
	ko "antic-sim --help lists formats '$(echo $helpfmt)', the code reads '$(echo $formats)'"
fi
# shellcheck disable=SC2086
has antic-sim.1 "trace formats (trace_format_list)" $formats
awk 'on && /^\.(TP|SH|SS|PP)/ { exit } prev == ".TP" && $0 == ".BI --format \" fmt\"" { on = 1 }
	on { print } { prev = $0 }' "$tmp/antic-sim.1" >"$tmp/antic-sim.1.fmt"
sed -n '/^\.SH TRACES/,/^\.SH /p' "$tmp/antic-sim.1" | awk 'prev == ".TP" { print } { prev = $0 }' \
	>"$tmp/antic-sim.1.traces"
# shellcheck disable=SC2086
has antic-sim.1.fmt "trace formats in --format's paragraph" $formats
# shellcheck disable=SC2086
has antic-sim.1.traces "trace formats with an entry under TRACES" $formats

# awk: does the ".TP" entry headed "head" hold the text r before the
# next paragraph starts?
paragraph_has='
	on && /^\.(TP|SH|SS|PP)/ { exit }
	prev == ".TP" && $0 == head { on = 1 }
	on && index($0, r) { found = 1 }
	{ prev = $0 }
	END { exit !found }'

# -- anticipatory(4)
tunables=$(grep -oE '\{ "[a-z_]+", offsetof\(struct as_tunables' core/anticipatory.c | sed 's/{ "\([a-z_]*\)".*/\1/')
# shellcheck disable=SC2086
has anticipatory.4 "tunables (core/anticipatory.c)" $tunables
# shellcheck disable=SC2086
has antic-sim.1 "anticipatory tunables" $tunables
has anticipatory.4 "counters (as_counter_descs)" \
	$(grep -oE 'AS_CNT\("[a-z_]+"' core/anticipatory.c | sed 's/.*"\(.*\)"/\1/')
has anticipatory.4 "debugfs state lines and files (kernel/anticipatory-iosched.c)" \
	$( { grep -oE 'seq_printf\(m, "[a-z_]+ %' kernel/anticipatory-iosched.c | sed 's/.*"\([a-z_]*\) %/\1/'
	     grep -oE '\{ "[a-z_]+", 0[0-7]+,' kernel/anticipatory-iosched.c | sed 's/{ "\([a-z_]*\)".*/\1/'; } | sort -u)
has anticipatory.4 "sysfs files (elv_fs_entry)" \
	$(grep -oE '(ASMQ_ATTR_RW|__ATTR)\([a-z_]+' kernel/anticipatory-iosched.c | sed 's/.*(//' | sort -u)
# each tunable's paragraph gives the range the simulator (and so core's
# table) enforces: ".B name" up to the next ".TP" holds "Range LO-HI"
for t in $tunables; do
	msg=$("$sim" --quiet --set "$t=99999999999" examples/write-vs-read.fio 2>&1)
	range=$(echo "$msg" | sed -n 's/.*want milliseconds \([0-9]*\)\.\.\([0-9]*\).*/\1-\2/p')
	want="Range $range ms"
	if [ -z "$range" ]; then
		# a count: the paragraph says so, and gives the range without a unit
		range=$(echo "$msg" | sed -n 's/.*want a count \([0-9]*\)\.\.\([0-9]*\).*/\1-\2/p')
		want="A count, range $range;"
	fi
	if [ -z "$range" ]; then
		ko "anticipatory.4: antic-sim did not say $t's range"
		continue
	fi
	awk -v head=".B $t" -v r="$want" "$paragraph_has" "$tmp/anticipatory.4" &&
		ok "anticipatory.4: $t's range $range" ||
		ko "anticipatory.4: $t's paragraph does not say '$want'"
done

# -- hddsim(4)
has hddsim.4 "module parameters (kernel/hddsim-blk.c)" \
	$(grep -oE '(HDDSIM_PARAM|module_param|module_param_array)\([a-z_]+,' kernel/hddsim-blk.c |
		sed 's/.*(\(.*\),/\1/' | sort -u)
has hddsim.4 "sysfs files (kernel/hddsim-blk.c)" \
	$(grep -oE '(HDDSIM_STAT|HDDSIM_KNOB|DEVICE_ATTR_R[OW])\([a-z_]+' kernel/hddsim-blk.c |
		sed 's/.*(//' | grep -vx name | sort -u)
# shellcheck disable=SC2086
has hddsim.4 "profiles (core/disk.c)" $presets
grep -oE 'HDDSIM_KNOB\([a-z_]+, [0-9]+\)' kernel/hddsim-blk.c | sed 's/HDDSIM_KNOB(\(.*\), \(.*\))/\1 \2/' >"$tmp/knobs"
if [ ! -s "$tmp/knobs" ]; then
	ko "hddsim.4: found no fault-injection knobs in kernel/hddsim-blk.c"
fi
while read -r k max; do
	awk -v head=".B $k" -v r="0-$max)" "$paragraph_has" "$tmp/hddsim.4" &&
		ok "hddsim.4: $k's range 0-$max" ||
		ko "hddsim.4: $k's paragraph does not say its range 0-$max"
done <"$tmp/knobs"

# -- antic-select(8): the commands and options of its usage line, and
# the environment it reads
has antic-select.8 "commands and options of dist/antic-select's usage" \
	$(sed -n 's/.*usage: antic-select \(.*\)" >&2/\1/p' dist/antic-select | grep -oE -- '-*[a-z]+' | grep -vx dir)
has antic-select.8 "environment variables (dist/antic-select)" \
	$(grep -oE '\$\{[A-Z_]+' dist/antic-select | tr -d '${' | sort -u)

# -- the version each page states (its header, /usr/src/antic-VERSION) is
# the package's
version=$(sed -n '1s/^antic (\([^)-]*\).*/\1/p' debian/changelog)
stale=
for page in man/*.[1-9]; do
	grep -q "^\.TH .*\"antic $version\"" "$page" || stale="$stale $page(.TH)"
	plain "$page" | grep -oE '/usr/src/antic-[0-9][0-9.]*' | grep -vqx "/usr/src/antic-$version" &&
		stale="$stale $page(/usr/src)"
done
[ -n "$version" ] && [ -z "$stale" ] && ok "every page states antic $version, debian/changelog's version" ||
	ko "pages not at debian/changelog's version '$version':$stale"

# -- every page is packaged, and every packaged page exists
listed=$(cat debian/*.manpages 2>/dev/null | sort)
actual=$(ls man/*.[1-9] | sort)
if [ -n "$listed" ] && [ "$listed" = "$actual" ]; then
	ok "debian/*.manpages lists exactly man/*"
else
	ko "debian/*.manpages ($(echo $listed)) is not man/* ($(echo $actual))"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
