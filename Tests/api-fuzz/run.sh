#!/usr/bin/env bash
# Fuzzes myworkout-server against its own OpenAPI document with Schemathesis (issue 28).
#
#   python3 -m pip install schemathesis      # 4.x
#   Tests/api-fuzz/run.sh .build/debug/myworkout-server
#   Tests/api-fuzz/run.sh .build/debug/myworkout-server --database postgres://u:p@host:5432/db
#
# Starts the server on a free port with a fresh data directory (every argument after the binary
# is passed to it, e.g. --database), logs in as the seeded account, then lets Schemathesis send
# generated requests, valid and invalid, to every operation of GET /openapi.json, with the
# Bearer token. Fails when any check fails or when the server is no longer running afterwards.
# The last line says how many requests were sent.
#
# Environment:
#   OPENAPI_FILE   read the document from this file instead of GET /openapi.json (for a server
#                  built before the route existed)
#   FUZZ_SEED      Schemathesis's seed (default 28): the same seed replays the same requests
#   FUZZ_EXAMPLES  test cases per operation and phase (default 40: about a minute on 2 cores)
#   FUZZ_WORKERS   concurrent workers (default 2)
#   SCHEMATHESIS   the command to run (default: schemathesis, else python3 -m schemathesis)
#   FUZZ_REPORT_DIR  keep the reports (NDJSON events, JUnit) there instead of a temporary one
set -euo pipefail

if [ "$#" -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 SERVER_BINARY [SERVER OPTIONS, e.g. --database postgres://...]" >&2
  exit 2
fi
binary=$1
shift

if [ -n "${SCHEMATHESIS:-}" ]; then
  read -r -a schemathesis <<<"$SCHEMATHESIS"
elif command -v schemathesis >/dev/null 2>&1; then
  schemathesis=(schemathesis)
elif python3 -c 'import schemathesis' >/dev/null 2>&1; then
  schemathesis=(python3 -m schemathesis.cli)
else
  echo "api fuzz: schemathesis is not installed (python3 -m pip install schemathesis)" >&2
  exit 2
fi

seed=${FUZZ_SEED:-28}
examples=${FUZZ_EXAMPLES:-40}
workers=${FUZZ_WORKERS:-2}

work=$(mktemp -d "${TMPDIR:-/tmp}/myworkout-api-fuzz.XXXXXX")
reports=${FUZZ_REPORT_DIR:-$work/reports}
mkdir -p "$reports"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The server prints its base URL as its first line.
"$binary" --port 0 --data-dir "$work/data" "$@" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
base=""
for _ in $(seq 1 300); do
  base=$(head -n 1 "$work/server.out" 2>/dev/null || true)
  case "$base" in http://*) break ;; esac
  if ! kill -0 "$server_pid" 2>/dev/null; then
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
echo "api fuzz: server at $base (pid $server_pid)"

# A token for the personal routes: the seeded account, through POST /authenticate.
token=$(
  python3 - "$base" <<'EOF'
import json, sys, urllib.request
body = json.dumps({"email": "registered@email.com", "password": "password"}).encode()
request = urllib.request.Request(
    sys.argv[1] + "/authenticate", data=body, headers={"Content-Type": "application/json"})
with urllib.request.urlopen(request, timeout=30) as response:
    print(json.load(response)["access_token"])
EOF
)

if [ -n "${OPENAPI_FILE:-}" ]; then
  # A server that may predate the route: its GET /openapi.json is not fuzzed.
  location=(--url "$base" --exclude-path /openapi.json "$OPENAPI_FILE")
else
  location=("$base/openapi.json")
fi

# Every check, less those that cannot hold for this API by design:
#  - positive_data_acceptance: valid-looking requests are refused on purpose for what a schema
#    cannot say: rate limits (429 after --login-limit a minute), wrong passwords (401/403), an
#    email already registered, unknown class or image ids (404), start < end in `played`,
#    started <= completed, times within 20 years of the server's clock, an Idempotency-Key
#    reused with another request (422).
#  - unsupported_method, allow_header_conformance: the router (Hummingbird 2) answers 404, not
#    405 with Allow, for a method a path does not have.
#  - object_level_authorization: there is one account, and each personal route reads only the
#    token's own account (there is no id in any path to swap).
set +e
"${schemathesis[@]}" run "${location[@]}" \
  --header "Authorization: Bearer $token" \
  --checks all \
  --exclude-checks positive_data_acceptance,unsupported_method,allow_header_conformance,object_level_authorization \
  --max-examples "$examples" \
  --seed "$seed" \
  --workers "$workers" \
  --request-timeout 30 \
  --suppress-health-check too_slow,filter_too_much \
  --report ndjson,junit \
  --report-dir "$reports" \
  --no-color
status=$?
set -e

# Every request Schemathesis sent is one interaction in its NDJSON event stream.
requests=$(
  python3 - "$reports" <<'EOF'
import json, pathlib, sys
total = 0
for path in pathlib.Path(sys.argv[1]).glob("*.ndjson"):
    for line in path.read_text().splitlines():
        event = json.loads(line)
        for name, value in event.items():
            if name == "ScenarioFinished":
                for record in (value.get("recorder") or {}).get("interactions", {}).values():
                    total += 1 if record.get("response") is not None or True else 0
print(total)
EOF
)

if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "api fuzz: the server is no longer running after $requests requests; its stderr:" >&2
  tail -n 50 "$work/server.err" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "api fuzz: $requests requests, schemathesis failed (exit $status)" >&2
  exit 1
fi
echo "api fuzz: $requests requests, server alive"
