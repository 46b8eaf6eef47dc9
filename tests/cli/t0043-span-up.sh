#!/bin/sh
# t0043-span-up: the store's span_up (store schema 3) says, for every
# runtime call and device activity with a parent, what joining the span
# table to itself twice on parent_id says, also on the tracks re-nested at
# commit because their events arrive out of order (unsorted_track). A real
# Kineto trace (tests/data/traces):
# trace_filter's rank 0 has 5 such tracks (the diag count) with the
# calls and activities on them (with span_up not rewritten after
# re-nesting it held no row here). The check is against the store's own
# span table: no count is hard-coded beyond "some" (the diag row quotes the
# first re-nested track only, so the guard below looks at that one).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

TRACE=$TRACES/hta/trace_filter/sampled_rank-0.json.gz
need_trace "$TRACE"

run "$P" ingest -q "$TRACE" -o st.db
expect_rc 0 "ingest of sampled_rank-0"
[ "$(query_value st.db "select sum(count) from diag where code = 'unsorted_track'")" = 5 ] ||
	fail "no re-nested tracks: the test would not test re-nesting"
# the calls and activities with a parent on the re-nested tracks
renested="select count(*) from span s join track t on t.id = s.track_id
	where s.parent_id is not null and s.kind in ('kernel', 'memcpy', 'memset', 'runtime')
	and exists (select 1 from diag d where d.code = 'unsorted_track'
	and d.message like '%pid ''' || t.pid || ''' tid ''' || t.tid || '''%')"
[ "$(query_value st.db "$renested")" -gt 0 ] ||
	fail "no call or activity with a parent on a re-nested track"
want=$(query_value st.db "select count(*) from span where parent_id is not null
	and kind in ('kernel', 'memcpy', 'memset', 'runtime')")
[ "$want" -gt 0 ] || fail "no call or activity with a parent"
[ "$(query_value st.db "select count(*) from span_up")" = "$want" ] ||
	fail "span_up has $(query_value st.db "select count(*) from span_up") rows, want $want"
bad=$(query_value st.db "select count(*) from span s join span p on p.id = s.parent_id
	left join span q on q.id = p.parent_id left join span_up u on u.span_id = s.id
	where s.kind in ('kernel', 'memcpy', 'memset', 'runtime') and (u.span_id is null
	or u.run_id is not s.run_id or u.p_kind is not p.kind or u.p_name_id is not p.name_id
	or u.p_ts is not p.ts or u.p_parent_id is not p.parent_id or u.q_kind is not q.kind
	or u.q_name_id is not q.name_id or u.q_parent_id is not q.parent_id)")
[ "$bad" = 0 ] || fail "$bad span_up rows differ from the span table's links"

finish
