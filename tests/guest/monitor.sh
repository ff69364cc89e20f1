# SPDX-License-Identifier: GPL-2.0
# For the kernel-monitor cases 210-214 (docs/gbmon.md): $MON the file of
# every host device, mon_field and mon_unmatched over monread's lines.

MON=/sys/kernel/debug/greybus/monitor
need_tool monread
[ -d /sys/kernel/debug/greybus ] ||
	mount -t debugfs nodev /sys/kernel/debug 2>/dev/null

# mon_count FILE REGEX: the lines of monread's output FILE matching REGEX
mon_count() {
	grep -cE "$2" "$1"
}

# mon_unmatched FILE: every request with an operation id whose response
# (same host, host CPort, id, type | 0x80, other direction) is not in the
# capture, and every such response without its request; one line each
mon_unmatched() {
	awk '
	function v(name,   i) {
		for (i = 4; i <= NF; i++)
			if (index($i, name "=") == 1)
				return substr($i, length(name) + 2)
		return ""
	}
	function resp_type(t,   d) {
		d = index("01234567", substr(t, 3, 1))
		return "0x" substr("89abcdef", d, 1) substr(t, 4, 1)
	}
	$1 == "msg" && v("id") != "0x0000" {
		if ($3 == "req") {
			k = v("bus") "/" v("hd") "/" v("id") "/" resp_type(v("type")) "/" ($2 == "out" ? "in" : "out")
			want[k] = $0
		} else {
			k = v("bus") "/" v("hd") "/" v("id") "/" v("type") "/" $2
			if (k in want)
				delete want[k]
			else
				print "response without request: " $0
		}
	}
	END { for (k in want) print "request without response: " want[k] }
	' "$1"
}
