#!/usr/bin/env bash
# Fuzzes myworkout-server against its own OpenAPI document with Schemathesis (issue 28).
#
#   python3 -m pip install 'schemathesis>=4,<5'
#   Tests/api-fuzz/run.sh .build/debug/myworkout-server
#   Tests/api-fuzz/run.sh .build/debug/myworkout-server --database postgres://USER@HOST:PORT/DB
#   Tests/api-fuzz/run.sh http://127.0.0.1:PORT      # a server already running (scripts/cluster)
#
# Starts the server on a free port with a fresh data directory (every argument after the binary
# goes to the server, e.g. --database), logs in as the seeded account, then lets Schemathesis
# send generated requests, valid and invalid, to every operation of GET /openapi.json, with the
# Bearer token. Fails when any check fails, or when the server has died or stopped answering
# afterwards. The last line says how many requests were sent:
#
#   api fuzz: 3380 requests, server alive
#
# Environment:
#   OPENAPI_FILE     the document from this file instead of GET /openapi.json (for a server
#                    built before the route existed; its /openapi.json is then not fuzzed)
#   FUZZ_SEED        Schemathesis's seed (default 28): the same seed, with FUZZ_WORKERS=1,
#                    replays the same requests
#   FUZZ_EXAMPLES    test cases per operation and phase (default 150: about 70 s on 2 cores)
#   FUZZ_WORKERS     concurrent workers (default 2)
#   FUZZ_REPORT_DIR  keep Schemathesis's reports (NDJSON events, JUnit) there
#   SCHEMATHESIS     the command to run (default: schemathesis, else python3 -m schemathesis.cli)
set -euo pipefail

if [ "$#" -lt 1 ] || { [ ! -x "$1" ] && [[ "$1" != http://* ]]; }; then
  echo "usage: $0 SERVER_BINARY [SERVER OPTIONS, e.g. --database postgres://...] | URL" >&2
  exit 2
fi
binary=$1
shift

if [ -n "${SCHEMATHESIS:-}" ]; then
  read -r -a schemathesis <<<"$SCHEMATHESIS"
elif command -v schemathesis >/dev/null 2>&1; then
  schemathesis=(schemathesis)
elif python3 -c 'import schemathesis.cli' >/dev/null 2>&1; then
  schemathesis=(python3 -m schemathesis.cli)
else
  echo "api fuzz: schemathesis is not installed (python3 -m pip install schemathesis)" >&2
  exit 2
fi

seed=${FUZZ_SEED:-28}
examples=${FUZZ_EXAMPLES:-150}
workers=${FUZZ_WORKERS:-2}

work=$(mktemp -d "${TMPDIR:-/tmp}/myworkout-api-fuzz.XXXXXX")
reports=$(realpath -m "${FUZZ_REPORT_DIR:-$work/reports}")
mkdir -p "$reports"
events="$reports/events-$seed.ndjson"
rm -f "$events"
server_pid=""
# Whether process $1 is still this shell's child: one that ended was reaped by bash, and its pid
# may name another program by now (pids wrap; scripts/cluster has the same check).
is_child() {
  local stat parent
  { read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
  read -r _ parent _ <<<"${stat##*) }"
  [ "$parent" = "$$" ]
}
cleanup() {
  if [ -n "$server_pid" ] && is_child "$server_pid"; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The server prints its base URL as its first line (a URL instead: that server, running).
if [[ "$binary" == http://* ]]; then
  echo "$binary" >"$work/server.out"
  : >"$work/server.err"
else
  "$binary" --port 0 --data-dir "$work/data" "$@" >"$work/server.out" 2>"$work/server.err" &
  server_pid=$!
fi
base=""
for _ in $(seq 1 300); do
  base=$(head -n 1 "$work/server.out" 2>/dev/null || true)
  case "$base" in http://*) break ;; esac
  if [ -n "$server_pid" ] && ! kill -0 "$server_pid" 2>/dev/null; then
    echo "api fuzz: the server did not start:" >&2
    cat "$work/server.err" >&2
    exit 1
  fi
  sleep 0.1
done
case "$base" in
  http://*) ;;
  *)
    echo "api fuzz: the server printed no URL in 30 s" >&2
    exit 1
    ;;
esac
echo "api fuzz: server at $base${server_pid:+ (pid $server_pid)}"

# A token for the personal routes: the seeded account, through POST /authenticate. A shared
# database (--database) may still count an earlier run's logins: a 429 waits for the minute.
token=$(
  python3 - "$base" <<'EOF'
import json, sys, time, urllib.error, urllib.request
body = json.dumps({"email": "registered@email.com", "password": "password"}).encode()
for attempt in range(15):
    request = urllib.request.Request(
        sys.argv[1] + "/authenticate", data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            print(json.load(response)["access_token"])
            break
    except urllib.error.HTTPError as error:
        if error.code != 429 or attempt == 14:
            raise
        time.sleep(5)
EOF
)

if [ -n "${OPENAPI_FILE:-}" ]; then
  location=(--url "$base" --exclude-path /openapi.json "$(realpath "$OPENAPI_FILE")")
else
  location=("$base/openapi.json")
fi

# A body over 1 MiB is refused with 413 before it is read: as much a rejection of invalid data
# (e.g. an array over its `maxItems`) as a 400.
cat >"$work/schemathesis.toml" <<'TOML'
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428",
  "429", "5XX"]
TOML

# Every check, less those that cannot hold for this API by design:
#  - positive_data_acceptance: requests that fit the schemas are refused on purpose for what a
#    schema cannot say: the login limits (429 after --login-limit a minute), wrong passwords
#    (401/403), an email already registered, unknown class or image ids (404), start < end in
#    `played`, started <= completed, times within 20 years of the server's clock, an
#    Idempotency-Key reused with another request (422).
#  - unsupported_method, allow_header_conformance: the router (Hummingbird 2) answers 404, not
#    405 with Allow, to a method a path does not have.
#  - object_level_authorization: each personal route reads only the token's own account; no
#    path names an account, so there is nothing to swap.
# Run from the work directory: Schemathesis and Hypothesis keep state in the current one.
excluded=positive_data_acceptance,unsupported_method,allow_header_conformance
excluded+=,object_level_authorization
set +e
(
  cd "$work"
  "${schemathesis[@]}" --config-file "$work/schemathesis.toml" run "${location[@]}" \
    --header "Authorization: Bearer $token" \
    --checks all \
    --exclude-checks "$excluded" \
    --max-examples "$examples" \
    --seed "$seed" \
    --generation-database none \
    --workers "$workers" \
    --request-timeout 30 \
    --suppress-health-check too_slow,filter_too_much \
    --report ndjson,junit \
    --report-dir "$reports" \
    --report-ndjson-path "$events" \
    --no-color
)
status=$?
set -e

# Every request Schemathesis sent is one recorded interaction in its event stream.
requests=$(
  python3 - "$events" <<'EOF'
import json, sys
total = 0
try:
    with open(sys.argv[1]) as events:
        for line in events:
            finished = json.loads(line).get("ScenarioFinished")
            if finished:
                total += len((finished.get("recorder") or {}).get("interactions") or {})
except FileNotFoundError:
    pass
print(total)
EOF
)

# Alive: still running, and still answering.
alive=no
if { [ -z "$server_pid" ] || is_child "$server_pid"; } \
  && python3 - "$base" <<'EOF'; then
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1] + "/.well-known/jwks.json", timeout=10) as response:
    sys.exit(0 if response.status == 200 else 1)
EOF
  alive=yes
fi
if [ "$alive" != yes ]; then
  echo "api fuzz: after $requests requests the server is dead or not answering; its stderr:" >&2
  tail -n 50 "$work/server.err" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "api fuzz: $requests requests, server alive, but schemathesis failed (exit $status)" >&2
  exit 1
fi
echo "api fuzz: $requests requests, server alive"
