# shellcheck shell=bash
# shellcheck disable=SC2154 # tap is the caller's
# Sourced by tests/run-tests.sh and tests/vm/check-debug.sh: the end of a
# run, once every result is in the array tap ("ok ..." / "not ok ...").

# tap_report NAME OUT [NOTE]: number the results into OUT/results.tap,
# repeat the failures, say on stderr where the TAP and the console log are
# (after NOTE), and print "N passed, N failed[, N skipped]" last.  False
# when a test failed.
tap_report() {
	local name=$1 out=$2 note=${3:-} t pass=0 fail=0 skip=0 i=0 summary
	{
		for t in "${tap[@]}"; do
			i=$((i + 1))
			if [[ $t == not\ ok* ]]; then
				fail=$((fail + 1))
				echo "not ok $i${t#not ok}"
			else
				if [[ $t =~ \#\ *[Ss][Kk][Ii][Pp] ]]; then skip=$((skip + 1)); else pass=$((pass + 1)); fi
				echo "ok $i${t#ok}"
			fi
		done
		echo "1..$i"
	} >"$out/results.tap"
	# The failures (the host-side ones too) just above the summary.
	if [ $fail -gt 0 ]; then
		echo "$name: failures:"
		grep '^not ok' "$out/results.tap" | sed 's/^/  /'
	fi
	echo "$name: ${note}TAP in $out/results.tap, console log in $out/console.log" >&2
	summary="$pass passed, $fail failed"
	[ $skip -gt 0 ] && summary+=", $skip skipped"
	echo "$summary"
	[ $fail = 0 ]
}
