#!/usr/bin/env bash
# The four steps of the main flow (spec §1) against a running Docket: submit, PUT the file to storage,
# confirm, poll the job until it is terminal. Prints the finished job; exits 0 on `success`, 1 otherwise.
#   AUTH=dk_live_…:sk_… docs/quickstart.sh invoice.pdf        (DOCKET_API defaults to the local gateway)
# Needs bash, curl, and jq — or Node, which Docket needs anyway (used when jq is missing, or with NO_JQ=1).
set -euo pipefail
FILE=${1:?usage: AUTH=key:secret $0 FILE}
API=${DOCKET_API:-http://127.0.0.1:3000/api/v1}
: "${AUTH:?set AUTH=<api key>:<secret> (npm start prints them)}"
POLL_SECONDS=${POLL_SECONDS:-1}
MAX_POLLS=${MAX_POLLS:-600}

# json '.a.b' < body: one value (objects as JSON, null when absent).
json() {
  if [ -z "${NO_JQ:-}" ] && command -v jq >/dev/null 2>&1; then jq -rc "$1"; else
    node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{let v=JSON.parse(s);
      for (const k of process.argv[1].split(".").filter(Boolean)) v = v == null ? v : v[k];
      console.log(v == null ? "null" : typeof v === "object" ? JSON.stringify(v) : String(v))})' "$1"
  fi
}

# api METHOD PATH [JSON]: the response body; a 4xx/5xx prints the error envelope and stops the script.
api() {
  local out status
  out=$(curl -sS -u "$AUTH" -X "$1" "$API$2" ${3:+-H 'content-type: application/json' -d "$3"} -w '\n%{http_code}')
  status=${out##*$'\n'}
  out=${out%$'\n'*}
  if [ "$status" -ge 400 ]; then echo "$1 $2 → HTTP $status: $out" >&2; exit 1; fi
  printf '%s\n' "$out"
}

case "${FILE##*.}" in
  pdf|PDF) TYPE=application/pdf ;;
  png|PNG) TYPE=image/png ;;
  jpg|jpeg|JPG|JPEG) TYPE=image/jpeg ;;
  tif|tiff|TIF|TIFF) TYPE=image/tiff ;;
  csv) TYPE=text/csv ;;
  html|htm) TYPE=text/html ;;
  xml|XML) TYPE=application/xml ;;
  *) TYPE=text/plain ;;
esac
SIZE=$(wc -c < "$FILE" | tr -d ' ')
NAME=$(basename "$FILE" | tr -cd 'A-Za-z0-9._-')

# 1. Submit. No template_id / extraction_schema: the account's default template applies (the built-in
#    `auto`, which classifies the document; add "template_id" or "extraction_schema" to choose the fields).
SUBMIT=$(api POST /extract "{\"filename\": \"$NAME\", \"artifact_type\": \"$TYPE\", \"artifact_size\": $SIZE}")
JOB_ID=$(json .job_id <<<"$SUBMIT")
ARTIFACT_ID=$(json .artifact_id <<<"$SUBMIT")
UPLOAD_URL=$(json .upload_url <<<"$SUBMIT")
echo "job $JOB_ID, artifact $ARTIFACT_ID" >&2

# 2. PUT the bytes straight to object storage. The URL is bound to artifact_type and artifact_size:
#    another Content-Type or size is refused with 403.
STATUS=$(curl -sS -o /dev/null -w '%{http_code}' -X PUT -H "content-type: $TYPE" --data-binary @"$FILE" "$UPLOAD_URL")
if [ "$STATUS" != 200 ]; then echo "upload refused by storage: HTTP $STATUS" >&2; exit 1; fi

# 3. Confirm: the artifact becomes `uploaded` and the job `queued_for_processing`.
api POST "/artifacts/$ARTIFACT_ID/confirm-upload" >/dev/null

# 4. Poll until the job is terminal: success, failed, cancelled or expired.
for _ in $(seq "$MAX_POLLS"); do
  JOB=$(api GET "/job/$JOB_ID")
  case $(json .status <<<"$JOB") in
    success) printf '%s\n' "$JOB"; exit 0 ;;
    failed|cancelled|expired) printf '%s\n' "$JOB"; exit 1 ;;
  esac
  sleep "$POLL_SECONDS"
done
echo "job $JOB_ID still not terminal after $MAX_POLLS polls" >&2
exit 1
