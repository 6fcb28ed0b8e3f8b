"""Schemathesis hooks for fuzzing a Conclave server (tests/fuzz/schemathesis.ts loads them).

Environment:
  CONCLAVE_FUZZ_MODE        'refused': every other request carries no admin key, a wrong one or garbage, and every
                            cloud API request a bad TC3 signature (of a real SecretId); 'authorized': the admin key
                            CONCLAVE_FUZZ_ADMIN_KEY, and cloud API requests signed with CONCLAVE_FUZZ_SECRET_ID / _SECRET_KEY.
  CONCLAVE_FUZZ_STATS       a file to write counts to at the end (requests, cloud API requests signed and let
                            through the signature check).
Every request also gets a random X-Forwarded-For (the server runs with trustProxy) so that per-address
limits (failed admin keys, uploads) refuse a flood from one address, not the whole fuzz run.
"""
import atexit
import hashlib
import hmac
import json
import os
import random
import time

import schemathesis

MODE = os.environ.get("CONCLAVE_FUZZ_MODE", "authorized")
SECRET_ID = os.environ.get("CONCLAVE_FUZZ_SECRET_ID", "")
SECRET_KEY = os.environ.get("CONCLAVE_FUZZ_SECRET_KEY", "")
ADMIN_KEY = os.environ.get("CONCLAVE_FUZZ_ADMIN_KEY", "")
SDKAPPID = int(os.environ.get("CONCLAVE_FUZZ_SDKAPPID", "0"))
# Where the fuzzed server has a user sitting (tests/fuzz/http-fuzz.ts sittingUser).
ROOM_KEY = os.environ.get("CONCLAVE_FUZZ_ROOM_KEY", "")
USER_ID = os.environ.get("CONCLAVE_FUZZ_USER_ID", "")
# Actions the server implements: a signed request names one of them half the time, so the fuzz reaches them.
ACTIONS = ["StartPublishCdnStream", "StopPublishCdnStream", "StartMCUMixTranscode", "StartMCUMixTranscodeByStrRoomId",
           "StopMCUMixTranscode", "StopMCUMixTranscodeByStrRoomId", "CreateCloudRecording", "DescribeCloudRecording",
           "DeleteCloudRecording", "ModifyCloudRecording", "DismissRoom", "DismissRoomByStrRoomId", "RemoveUser",
           "RemoveUserByStrRoomId", "UpdatePublishCdnStream", "DescribeRoomInfo", "DescribeUserInfo", "DescribeCallDetailInfo"]
# Hypothesis reseeds the global `random` for every example: the hooks draw from their own generator.
RNG = random.Random(int(os.environ.get("CONCLAVE_FUZZ_SEED", "0")) or None)
STATS = {"requests": 0, "cloudApi": 0, "cloudApiSigned": 0, "cloudApiPastSignature": 0}
# Refusals made before (or by) the signature check: anything else was answered by the API behind it.
BEFORE_SIGNATURE = ("AuthFailure", )
BEFORE_SIGNATURE_CODES = {"MissingParameter", "RequestLimitExceeded"}


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def _sign(payload: bytes, timestamp: int, secret_key: str) -> str:
    date = time.strftime("%Y-%m-%d", time.gmtime(timestamp))
    canonical = "\n".join(["POST", "/", "", f"x-tc-timestamp:{timestamp}\n", "x-tc-timestamp", hashlib.sha256(payload).hexdigest()])
    to_sign = "\n".join(["TC3-HMAC-SHA256", str(timestamp), f"{date}/trtc/tc3_request", hashlib.sha256(canonical.encode()).hexdigest()])
    key = _hmac(_hmac(_hmac(("TC3" + secret_key).encode(), date), "trtc"), "tc3_request")
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    return f"TC3-HMAC-SHA256 Credential={SECRET_ID}/{date}/trtc/tc3_request, SignedHeaders=x-tc-timestamp, Signature={signature}"


def _payload(body) -> bytes:
    # What requests sends for `json=body` (schemathesis's JSON serializer).
    if body is None or type(body).__name__ == "NotSet":
        return b""
    return json.dumps(body, allow_nan=False).encode("utf-8")


def _aim(values, names, target):
    """Most of the time, points a generated app id / room / user at the fuzzed app's (keeping the value's type)."""
    if not isinstance(values, dict) or not target:
        return
    for key in list(values):
        if key.lower() in names and RNG.random() < 0.8:
            values[key] = int(target) if isinstance(values[key], int) and str(target).isdigit() else str(target)


@schemathesis.hook
def before_call(context, case, kwargs):
    STATS["requests"] += 1
    # Random app ids would only ever meet "no such app" (and lock the address out of the admin API).
    for where in (case.path_parameters, case.query, case.body):
        _aim(where, {"sdkappid"}, SDKAPPID)
        _aim(where, {"roomkey"}, ROOM_KEY)
        _aim(where, {"userid"}, USER_ID)
    headers = dict(case.headers or {})
    n = STATS["requests"]
    headers["X-Forwarded-For"] = f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"  # a fresh address per request
    if case.operation.path == "/" and case.method.upper() == "POST":
        STATS["cloudApi"] += 1
        timestamp = int(time.time())
        if RNG.random() < 0.5:
            headers["X-TC-Action"] = RNG.choice(ACTIONS)
            headers["X-TC-Version"] = "2019-07-22"
        headers["X-TC-Timestamp"] = str(timestamp)
        try:
            payload = _payload(case.body)
        except (TypeError, ValueError):
            payload = b""
        if MODE == "authorized":
            STATS["cloudApiSigned"] += 1
            headers["Authorization"] = _sign(payload, timestamp, SECRET_KEY)
        else:
            headers["Authorization"] = _sign(payload, timestamp, SECRET_KEY + "-wrong")
    elif MODE == "authorized":
        headers["Authorization"] = f"Bearer {ADMIN_KEY}"
    else:
        wrong = RNG.choice([None, f"Bearer {ADMIN_KEY}-wrong", f"Bearer {ADMIN_KEY[:-1]}", "Basic YWRtaW46YWRtaW4=", "Bearer "])
        if wrong is None:
            headers.pop("Authorization", None)
        else:
            headers["Authorization"] = wrong
    case.headers = headers


@schemathesis.hook
def after_call(context, case, response):
    if case.operation.path != "/" or case.method.upper() != "POST":
        return
    try:
        error = response.json().get("Response", {}).get("Error", {}).get("Code", "")
    except Exception:  # noqa: BLE001 - any non-JSON answer is the check's business, not this count's
        return
    error = str(error)
    if not error.startswith(BEFORE_SIGNATURE) and error not in BEFORE_SIGNATURE_CODES:
        STATS["cloudApiPastSignature"] += 1


def _write_stats():
    path = os.environ.get("CONCLAVE_FUZZ_STATS")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(STATS, f)


atexit.register(_write_stats)
