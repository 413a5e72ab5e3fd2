#!/usr/bin/env bash
# Benchmark (not a test): `openagent serve env` replicas behind nginx (Debian's package) on
# loopback, loaded by `openagent serve bench` over the OpenEnv WebSocket. For each round it runs
# every replica count in turn (alternating, so a change in the machine's load hits each alike):
# starts the replicas, nginx in front of them (openagent-env.conf.template), the load bench against
# nginx, and stops them again. Prints one JSON line per measurement and the medians at the end.
#
#   deploy/nginx/bench-replicas.sh [REPLICA_COUNT...]     (default: 1 3)
#   SESSIONS=64 STEPS=1000 WARMUP=300 ROUNDS=3 deploy/nginx/bench-replicas.sh 1 3
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
counts=("$@")
[ "${#counts[@]}" -gt 0 ] || counts=(1 3)
sessions=${SESSIONS:-64} steps=${STEPS:-1000} warmup=${WARMUP:-300} rounds=${ROUNDS:-3}
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx_bin" ] || { echo "nginx is not installed (Debian: apt-get install nginx)" >&2; exit 2; }

work=$(mktemp -d)
chmod 755 "$work"
pids=()
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
trap 'stop_all; rm -rf "$work"' EXIT

# Build the CLI once, before anything is timed, and run a copy of it, so that editing the sources
# meanwhile cannot make ./openagent rebuild in the middle of a measurement.
"$root/openagent" --version >/dev/null
source "$root/bin/jdk.sh"
java_bin="$(find_jdk21)/bin/java"
mkdir -p "$work/cli"
cp -r "$root/cli/target/openagent.jar" "$root/cli/target/lib" "$work/cli/"
openagent=("$java_bin" -XX:+UseSerialGC -jar "$work/cli/openagent.jar")

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# CPU time of a process in clock ticks (1/100 s): user + system, from /proc.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

measure() {
  local n=$1 round=$2 dir="$work/r$2-n$1" servers="" replica_pids=() i log port
  mkdir -p "$dir/temp"
  chmod -R 777 "$dir/temp"
  for i in $(seq 1 "$n"); do
    log="$dir/replica-$i.log"
    "${openagent[@]}" serve env --port 0 --max-sessions 256 >"$log" 2>&1 &
    pids+=($!)
    replica_pids+=($!)
  done
  for i in $(seq 1 "$n"); do
    log="$dir/replica-$i.log"
    for _ in $(seq 1 120); do grep -q "listening on" "$log" && break; sleep 0.5; done
    port=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$log" | head -1)
    [ -n "$port" ] || { cat "$log" >&2; echo "replica $i did not start" >&2; exit 1; }
    servers+="        server 127.0.0.1:$port;"$'\n'
  done
  local listen
  listen=$(free_port)
  sed -e "s|@PREFIX@|$dir|g" -e "s|@LISTEN@|127.0.0.1:$listen|" "$here/openagent-env.conf.template" \
    | awk -v servers="${servers%$'\n'}" '{ if ($0 == "@SERVERS@") print servers; else print }' >"$dir/nginx.conf"
  "$nginx_bin" -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' &
  pids+=($!)
  for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$listen") 2>/dev/null && break; sleep 0.2; done
  local before=() after=() p
  for p in "${replica_pids[@]}"; do before+=("$(cpu_ticks "$p")"); done
  "${openagent[@]}" serve bench --url "http://127.0.0.1:$listen" --protocol ws --sessions "$sessions" --steps "$steps" \
    --warmup-steps "$warmup" --json >"$dir/bench.json"
  local rss=""
  for p in "${replica_pids[@]}"; do
    after+=("$(cpu_ticks "$p")")
    rss+="$(awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$p/status" 2>/dev/null || echo 0),"
  done
  local replica_cpu="" k
  for k in "${!replica_pids[@]}"; do replica_cpu+="$(( (${after[$k]} - ${before[$k]}) * 10 )),"; done
  python3 - "$dir/bench.json" "$n" "$round" "[${replica_cpu%,}]" "[${rss%,}]" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))[0]
print(json.dumps({"replicas": int(sys.argv[2]), "round": int(sys.argv[3]), "steps_per_s": round(r["steps_per_second"]),
                  "errors": r["errors"], "step_p50_ms": round(r["step_p50_us"] / 1e3, 3), "step_p99_ms": round(r["step_p99_us"] / 1e3, 2),
                  "load_avg": [r["load_average_before"], r["load_average_after"]],
                  "replica_cpu_ms": json.loads(sys.argv[4]), "replica_rss_mb": json.loads(sys.argv[5])}))
PY
  stop_all
}

results="$work/results.jsonl"
for round in $(seq 1 "$rounds"); do
  for n in "${counts[@]}"; do measure "$n" "$round" | tee -a "$results"; done
done
python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
for n in sorted({r["replicas"] for r in rows}):
    mine = [r for r in rows if r["replicas"] == n]
    print(f"{n} replica(s) behind nginx: median {statistics.median(r['steps_per_s'] for r in mine):,.0f} steps/s "
          f"(rounds: {', '.join(format(r['steps_per_s'], ',') for r in mine)}), errors {sum(r['errors'] for r in mine)}, "
          f"step p50 {statistics.median(r['step_p50_ms'] for r in mine)} ms, p99 {statistics.median(r['step_p99_ms'] for r in mine)} ms")
PY
