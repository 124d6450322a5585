# tests/tools/em-tsv-to-c.sh pipes its output through this (awk -f).
# A cluster's OPP list that another cluster already has (rb5 and rb5-dpc205
# differ only in a coefficient) is written once, as a macro both use.
function flush_block(   key, name) {
	key = body
	if (!(key in macro)) {
		name = sprintf("FS_OPPS_%s_%s", toupper(dev), toupper(cl))
		gsub(/[^A-Z0-9_]/, "_", name)
		macro[key] = name; first[key] = nblk
	}
	blk_key[nblk++] = key
}
/^\t\t.name = "/ { dev = $0; sub(/.*= "/, "", dev); sub(/".*/, "", dev) }
/^\t\t\t\{ .name = "/ { cl = $0; sub(/.*\.name = "/, "", cl); sub(/".*/, "", cl) }
inblk && /^\t\t\t\} \},$/ { flush_block(); inblk = 0; lines[nl++] = "\001" (nblk - 1); lines[nl++] = $0; next }
inblk { body = body $0 "\n"; next }
/\.opp = \{$/ { inblk = 1; body = ""; lines[nl++] = $0; next }
{ lines[nl++] = $0 }
END {
	for (k in blk_key) cnt[blk_key[k]]++
	for (i = 0; i < nl; i++) {
		l = lines[i]
		if (l ~ /^const struct fs_dt_device fs_dt_devices/) {
			for (b = 0; b < nblk; b++) {
				key = blk_key[b]
				if (cnt[key] > 1 && first[key] == b && !done[key]++) {
					if (!said++)
						print "/* OPP lists that more than one profile has, written once. */"
					t = key; gsub(/\n/, " \\\n", t); sub(/ \\\n$/, "", t)
					printf "#define %s \\\n%s\n\n", macro[key], t
				}
			}
		}
		if (substr(l, 1, 1) == "\001") {
			key = blk_key[substr(l, 2) + 0]
			if (cnt[key] > 1) printf "\t\t\t\t%s\n", macro[key]
			else printf "%s", key
			continue
		}
		print l
	}
}
