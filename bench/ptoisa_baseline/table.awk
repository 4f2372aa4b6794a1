# The table of bench/ptoisa_baseline.sh from the lines of its drivers ("DRIVER OP US" and
# "compare ..."): the best (smallest) figure of each (driver, op) over all lines given, so
# several runs' times.txt can be pooled:  awk -f table.awk run1/times.txt run2/times.txt
# Speedup = pto-isa us / ptosim us; target 20x: OK when every ptosim target's speedup over
# pto-isa as shipped (threaded) is at least 20.
$1 == "compare" { if (!seen[$0]++) cmp[++ncmp] = $0; next }
{ k = $1 " " $2; if (!(k in t) || $3 < t[k]) t[k] = $3 }
function cell(k) { return (k in t) ? sprintf("%9.1f", t[k]) : sprintf("%9s", "-") }
function ratio(a, b) { return (a in t && b in t) ? sprintf("%7.1fx", t[a] / t[b]) : sprintf("%8s", "-") }
function verdict(op,   ok, tg, any) {
  ok = 1; any = 0
  for (tg in tgs) if (("ptosim-" tg " " op) in t) { any = 1; if (t["ptoisa " op] / t["ptosim-" tg " " op] < 20) ok = 0 }
  return any ? (ok ? "OK" : "BELOW") : "-"
}
END {
  tgs["a5"]; tgs["a2a3"]
  printf "%-14s %9s %9s %9s %9s | %8s %8s | %8s %8s | %s\n", "op (64x512)", "pto-isa", "isa-1thr",
         "ptosim", "ptosim", "speedup", "speedup", "vs 1thr", "vs 1thr", "target 20x"
  printf "%-14s %9s %9s %9s %9s | %8s %8s | %8s %8s |\n", "", "us/op", "us/op", "a5 us", "a2a3 us",
         "a5", "a2a3", "a5", "a2a3"
  n = split("texp tcvt trowsum trowexpandmul", ops, " ")
  for (i = 1; i <= n; i++) {
    op = ops[i]
    printf "%-14s %s %s %s %s | %s %s | %s %s | %s\n", op, cell("ptoisa " op), cell("ptoisa-1t " op),
           cell("ptosim-a5 " op), cell("ptosim-a2a3 " op), ratio("ptoisa " op, "ptosim-a5 " op),
           ratio("ptoisa " op, "ptosim-a2a3 " op), ratio("ptoisa-1t " op, "ptosim-a5 " op),
           ratio("ptoisa-1t " op, "ptosim-a2a3 " op), verdict(op)
  }
  print ""
  for (i = 1; i <= ncmp; i++) print cmp[i]
}
