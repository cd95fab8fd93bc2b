# sass-by-function.awk -- nvdisasm output to one line per instruction,
# "FUNCTION INDEX TEXT", with code addresses dropped and nvdisasm's
# cubin-wide branch labels (.L_x_N) renumbered per function, so that
# `sort` makes two cubins comparable whatever their function order.
/^[ \t]*\.section[ \t]+\.text\./ { fn = $2; sub(/,.*/, "", fn); n = 0; nl = 0; delete lab; next }
fn != "" && /^[ \t]+\/\*[0-9a-f]+\*\/[ \t]+[A-Z@]/ {
	line = $0
	sub(/\/\*[0-9a-f]+\*\//, "", line)
	gsub(/[ \t]+/, " ", line)
	out = ""
	while (match(line, /\.L_x_[0-9]+/)) {
		l = substr(line, RSTART, RLENGTH)
		if (!(l in lab))
			lab[l] = "L" nl++
		out = out substr(line, 1, RSTART - 1) lab[l]
		line = substr(line, RSTART + RLENGTH)
	}
	printf "%s %06d%s%s\n", fn, n++, out, line
}
