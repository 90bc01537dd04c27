#!/usr/bin/env bash
# sanfab — tests of sanfab-netgen (docs/network.md "RTL network"): a malformed topology gets the routing tools'
# own message (sanfab-topo check's FILE:LINE: problem, exit 1), the generator's own refusals, command-line errors
# (exit 2), --help, and the same topology gives the same bytes, for each kind (xbar, vcsw, sbox). Usage: tb/net/netgen_test.sh NETGEN TOPO_TOOL DIR
set -uo pipefail
gen=$1 topo=$2 dir=$3
mkdir -p "$dir"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL netgen: $*"; fail=$((fail + 1)); }

hdr=$'sanfab-topology 1\n'
declare -A T
T[noheader]=$'switch 0 ports 4\n'
T[keyword]="${hdr}router 0"$'\n'
T[ports]="${hdr}switch 0 ports 65"$'\n'
T[twice]="${hdr}switch 0 ports 4"$'\n'"switch 0 ports 4"$'\n'
T[unknown]="${hdr}switch 0 ports 4"$'\n'"host 0 5:0"$'\n'
T[range]="${hdr}switch 0 ports 4"$'\n'"host 0 0:4"$'\n'
T[used]="${hdr}switch 0 ports 4"$'\n'"host 0 0:1"$'\n'"host 1 0:1"$'\n'
T[self]="${hdr}switch 0 ports 4"$'\n'"link 0:1 0:2"$'\n'
T[dense]="${hdr}switch 0 ports 4"$'\n'"switch 2 ports 4"$'\n'"link 0:1 2:1"$'\n'
T[disconnected]="${hdr}switch 0 ports 4"$'\n'"switch 1 ports 4"$'\n'"host 0 0:0"$'\n'
for k in "${!T[@]}"; do
    f="$dir/$k.topo"
    printf '%s' "${T[$k]}" > "$f"
    want=$("$topo" check "$f" 2>&1 >/dev/null | sed 's/^sanfab-topo: //')
    got=$("$gen" "$f" -o "$dir/$k.v" 2>&1 >/dev/null); rc=$?
    got=${got#sanfab-netgen: }
    if [ $rc -eq 1 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else bad "$k: exit $rc, \"$got\", sanfab-topo: \"$want\""; fi
done
# the generator's own refusals: a one-port switch (the crossbar needs 2), no host
printf '%s' "${hdr}switch 0 ports 1"$'\n'"switch 1 ports 4"$'\n'"host 0 1:0"$'\n'"link 0:0 1:1"$'\n' > "$dir/oneport.topo"
got=$("$gen" "$dir/oneport.topo" -o "$dir/x.v" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "oneport.topo:2: switch 0 has 1 port" <<< "$got"; then ok; else bad "one-port switch: exit $rc, $got"; fi
printf '%s' "${hdr}switch 0 ports 4"$'\n' > "$dir/nohost.topo"
got=$("$gen" "$dir/nohost.topo" -o "$dir/x.v" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "no host" <<< "$got"; then ok; else bad "no host: exit $rc, $got"; fi
# the VC network's own refusals: a switch of more than 16 ports (the crossbar takes 64), a one-port switch
printf '%s' "${hdr}switch 0 ports 20"$'\n'"switch 1 ports 4"$'\n'"host 0 0:0"$'\n'"host 1 1:0"$'\n'"link 0:1 1:1"$'\n' > "$dir/wide.topo"
got=$("$gen" "$dir/wide.topo" --kind vcsw -o "$dir/x.v" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "wide.topo:2: switch 0 has 20 ports; the VC switch (rtl/vcsw/vcsw.v) takes NPORTS 2..16" <<< "$got"; then ok; else bad "20-port VC switch: exit $rc, $got"; fi
if "$gen" "$dir/wide.topo" -o "$dir/x.v" 2>/dev/null; then ok; else bad "a 20-port crossbar network is written"; fi
got=$("$gen" "$dir/oneport.topo" --kind vcsw -o "$dir/x.v" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "oneport.topo:2: switch 0 has 1 port; the VC switch takes NPORTS 2..16" <<< "$got"; then ok; else bad "one-port VC switch: exit $rc, $got"; fi
# the Maestro network's own refusals (--kind sbox): a cycle of boxes (FILE:LINE of the link that closes it), parallel
# links, more than 16 hosts (the box's 16-bit MASK), a box of more than 8 ports, a one-port box
printf '%s' "${hdr}switch 0 ports 4"$'\n'"switch 1 ports 4"$'\n'"switch 2 ports 4"$'\n'"host 0 0:0"$'\n'"link 0:1 1:1"$'\n'"link 1:2 2:2"$'\n'"link 2:3 0:3"$'\n' > "$dir/cycle.topo"
got=$("$gen" "$dir/cycle.topo" --kind sbox -o "$dir/x.v" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "cycle.topo:8: link 0:3 2:3 closes a cycle of boxes 0-1-2-0; a Maestro network is a tree" <<< "$got"; then ok; else bad "cycle of boxes: exit $rc, $got"; fi
if "$gen" "$dir/cycle.topo" -o "$dir/x.v" 2>/dev/null; then ok; else bad "a ring of crossbars is written"; fi
printf '%s' "${hdr}parallel-links yes"$'\n'"switch 0 ports 4"$'\n'"switch 1 ports 4"$'\n'"host 0 0:0"$'\n'"link 0:1 1:1"$'\n'"link 0:2 1:2"$'\n' > "$dir/parallel.topo"
got=$("$gen" "$dir/parallel.topo" --kind sbox -o "$dir/x.v" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "parallel.topo:7: link 0:2 1:2 is a second link between boxes 0 and 1 (first at line 6)" <<< "$got"; then ok; else bad "parallel links between boxes: exit $rc, $got"; fi
{ printf '%s' "${hdr}switch 0 ports 8"$'\n'"switch 1 ports 8"$'\n'"switch 2 ports 8"$'\n'"link 0:0 1:0"$'\n'"link 0:1 2:0"$'\n'
  for h in $(seq 0 16); do echo "host $h $((h % 3)):$((h / 3 + 2))"; done; } > "$dir/many.topo"
got=$("$gen" "$dir/many.topo" --kind sbox -o "$dir/x.v" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "many.topo: 17 hosts; a Maestro network has at most 16 nodes (the switch box's destination MASK has 16 bits" <<< "$got"; then ok; else bad "17 hosts: exit $rc, $got"; fi
got=$("$gen" "$dir/wide.topo" --kind sbox -o "$dir/x.v" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "wide.topo:2: switch 0 has 20 ports; the switch box (rtl/sbox/sbox.v) takes PORTS 2..8" <<< "$got"; then ok; else bad "20-port box: exit $rc, $got"; fi
got=$("$gen" "$dir/oneport.topo" --kind sbox -o "$dir/x.v" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "oneport.topo:2: switch 0 has 1 port; the switch box takes PORTS 2..8" <<< "$got"; then ok; else bad "one-port box: exit $rc, $got"; fi
# the root: the level-0 switch (its up port none, MASTER_MASK 0), else switch 0; two level-0 switches are refused
printf '%s' "${hdr}switch 0 ports 4 level 1"$'\n'"switch 1 ports 4 level 0"$'\n'"host 0 0:0"$'\n'"host 1 1:0"$'\n'"link 0:2 1:1"$'\n' > "$dir/root1.topo"
"$gen" "$dir/root1.topo" --kind sbox -o "$dir/mroot1.v"
if grep -q "switch 1 the root" "$dir/mroot1.v" && grep -q "up ports: 2 -1\." "$dir/mroot1.v" && grep -q "MASTER_MASK (4)" "$dir/mroot1.v"; then ok; else bad "--kind sbox: the level-0 switch is the root, box 0's up port 2"; fi
printf '%s' "${hdr}switch 0 ports 4 level 0"$'\n'"switch 1 ports 4 level 0"$'\n'"host 0 0:0"$'\n'"link 0:2 1:1"$'\n' > "$dir/roots.topo"
got=$("$gen" "$dir/roots.topo" --kind sbox -o "$dir/x.v" 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "roots.topo:3: switch 1 is a second level-0 box" <<< "$got"; then ok; else bad "two level-0 boxes: exit $rc, $got"; fi
# command line
good="$dir/good.topo"
printf '%s' "${hdr}switch 0 ports 4"$'\n'"switch 1 ports 4"$'\n'"host 0 0:0"$'\n'"host 1 1:0"$'\n'"link 0:1 1:1"$'\n' > "$good"
for args in "" "--bogus $good" "$good $good" "$good --kind maestro" "$good --kind vcsw --kind xbar" "$good --module 1abc" \
            "$good -o" "$good -o $dir/a.v -o $dir/b.v" "$good -o $dir/nodir/x.v"; do
    # shellcheck disable=SC2086
    "$gen" $args > /dev/null 2>&1; rc=$?
    if [ $rc -eq 2 ]; then ok; else bad "command line \"$args\": exit $rc, expected 2"; fi
done
if "$gen" --help | grep -q "usage: sanfab-netgen"; then ok; else bad "--help"; fi
# determinism and naming: the module is named as the file; the same input gives the same bytes
"$gen" "$good" -o "$dir/net_two.v" && "$gen" "$good" --module net_two > "$dir/net_two.stdout.v"
if cmp -s "$dir/net_two.v" "$dir/net_two.stdout.v" && grep -q "^module net_two " "$dir/net_two.v"; then ok; else bad "same topology, same bytes, module named as the file"; fi
"$gen" "$good" --kind vcsw -o "$dir/vnet_two.v" && "$gen" "$good" --kind vcsw --module vnet_two > "$dir/vnet_two.stdout.v"
if cmp -s "$dir/vnet_two.v" "$dir/vnet_two.stdout.v" && grep -q "^module vnet_two " "$dir/vnet_two.v" && grep -q "vcsw #(" "$dir/vnet_two.v" \
   && grep -q "cfg_we" "$dir/vnet_two.v"; then ok; else bad "--kind vcsw: same topology, same bytes, VC switches with their table ports"; fi
"$gen" "$good" --kind sbox -o "$dir/mnet_two.v" && "$gen" "$good" --kind sbox --module mnet_two > "$dir/mnet_two.stdout.v"
if cmp -s "$dir/mnet_two.v" "$dir/mnet_two.stdout.v" && grep -q "^module mnet_two " "$dir/mnet_two.v" && grep -q "sbox #(" "$dir/mnet_two.v" \
   && grep -q "reg_wdata" "$dir/mnet_two.v" && grep -q "up ports: -1 1\." "$dir/mnet_two.v"; then ok; else bad "--kind sbox: same topology, same bytes, switch boxes with their register ports"; fi
echo "netgen: $pass passed, $fail failed"
[ $fail -eq 0 ]
