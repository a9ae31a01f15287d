#!/usr/bin/env python3
"""Drives myworkout-server with Auth0's own Python client (auth0-python), unchanged.

Starts the server on a free port (its first line is the base URL), then: signs up with
`Database.signup`, logs in with `GetToken.login` (password-realm and password grants), reads
`Users.userinfo`, checks the error shapes Auth0 clients parse, and verifies the id_token with
Auth0's own `TokenVerifier` against the server's JWKS and again with PyJWT.

    pip install auth0-python pyjwt cryptography
    python3 Tests/auth0-client/check.py [--server-binary .build/debug/myworkout-server]
    python3 Tests/auth0-client/check.py --cluster   # through scripts/cluster's nginx instead

Exit 0 when every check passed; prints one line per check.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

from auth0.authentication import Database, GetToken, Users
from auth0.authentication.token_verifier import AsymmetricSignatureVerifier, TokenVerifier
from auth0.authentication.exceptions import Auth0Error
import jwt

CLIENT_ID = "auth0-python-check"
CONNECTION = "Username-Password-Authentication"


def start_server(binary, data_dir, cluster):
    # With --cluster: two instances on one PostgreSQL behind nginx; the front URL comes first.
    command = ([str(Path(__file__).resolve().parents[2] / "scripts/cluster"), "--server", binary]
               if cluster else [binary, "--port", "0", "--data-dir", data_dir])
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()  # blocks until the first line
    if not line.startswith("http://"):
        process.kill()
        raise SystemExit(f"server did not print its URL first: {line!r} {process.stderr.read()}")
    return process, line


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server-binary", default=".build/debug/myworkout-server")
    parser.add_argument("--cluster", action="store_true",
                        help="run against scripts/cluster's load balancer (PostgreSQL, nginx)")
    args = parser.parse_args()
    data_dir = tempfile.mkdtemp(prefix="myworkout-auth0-check-")
    process, base = start_server(args.server_binary, data_dir, args.cluster)
    failures = 0
    tokens = {}

    def check(name, condition, detail=""):
        nonlocal failures
        print(("ok   " if condition else "FAIL ") + name + (f" ({detail})" if detail else ""))
        if not condition:
            failures += 1

    try:
        domain = base.removeprefix("http://")
        print(f"server: {base}")
        email = f"py-{uuid.uuid4().hex[:8]}@example.com"

        database = Database(domain, CLIENT_ID, protocol="http")
        created = database.signup(
            email=email, password="Secret-123", connection=CONNECTION, given_name="Py",
            family_name="Client", user_metadata={"gender": "female", "mobile": "0123456780"})
        check("Database.signup", created.get("email") == email, str(created))
        try:
            database.signup(email=email, password="Secret-123", connection=CONNECTION)
            check("signup twice is refused", False)
        except Auth0Error as error:
            check("signup twice → 400 user_exists", error.status_code == 400
                  and error.error_code == "user_exists", f"{error.status_code} {error.error_code}: {error.message}")

        token = GetToken(domain, CLIENT_ID, protocol="http")
        tokens = token.login(username=email, password="Secret-123", realm=CONNECTION,
                             scope="openid profile email")
        check("GetToken.login (password-realm)", tokens.get("token_type") == "Bearer",
              f"expires_in={tokens.get('expires_in')}")
        plain = token.login(username="registered@email.com", password="password",
                            grant_type="password", scope="openid profile email")
        check("GetToken.login (password grant, seeded account)", "id_token" in plain)
        try:
            token.login(username=email, password="Not-the-password-1", realm=CONNECTION)
            check("wrong password is refused", False)
        except Auth0Error as error:
            check("wrong password → 403 invalid_grant", error.status_code == 403
                  and error.error_code == "invalid_grant", f"{error.status_code} {error.error_code}: {error.message}")

        info = Users(domain, protocol="http").userinfo(tokens["access_token"])
        check("Users.userinfo", info.get("email") == email and info.get("phone_number") == "+60123456780",
              str(info))
        try:
            Users(domain, protocol="http").userinfo(tokens["id_token"])
            check("an id_token is not an access token", False)
        except Auth0Error as error:
            check("an id_token as the Bearer token → 401 invalid_token", error.status_code == 401
                  and error.error_code == "invalid_token", f"{error.status_code} {error.error_code}")

        issuer = base + "/"
        verifier = TokenVerifier(
            signature_verifier=AsymmetricSignatureVerifier(base + "/.well-known/jwks.json"),
            issuer=issuer, audience=CLIENT_ID)
        claims = verifier.verify(tokens["id_token"])
        check("TokenVerifier (Auth0's RS256 + JWKS + iss/aud/exp)",
              claims["email"] == email and claims["given_name"] == "Py", f"sub={claims['sub']}")

        keys = jwt.PyJWKClient(base + "/.well-known/jwks.json")
        key = keys.get_signing_key_from_jwt(tokens["id_token"])
        decoded = jwt.decode(tokens["id_token"], key.key, algorithms=["RS256"], audience=CLIENT_ID,
                             issuer=issuer)
        check("PyJWT RS256 verification", decoded["phone_number"] == "+60123456780")
        tampered = tokens["id_token"][:-4] + ("AAAA" if not tokens["id_token"].endswith("AAAA") else "BBBB")
        try:
            jwt.decode(tampered, key.key, algorithms=["RS256"], audience=CLIENT_ID, issuer=issuer)
            check("a tampered token is refused", False)
        except jwt.InvalidTokenError:
            check("a tampered token is refused", True)

        # A class's video as FFmpeg asks for it (SPEC §19): a byte range with the session's
        # token, answered 206 with the headers a player needs (through nginx too, whose own
        # file answers put Accept-Ranges on whole files only).
        page = json.load(urllib.request.urlopen(base + "/api/classes?limit=1"))
        video = urllib.parse.urlparse(page["classes"][0]["video_url"]).path
        ranged = urllib.request.Request(base + video, headers={
            "Authorization": "Bearer " + tokens["access_token"], "Range": "bytes=0-9"})
        with urllib.request.urlopen(ranged) as answer:
            headers = answer.headers
            check("a video's byte range → 206 with its headers", answer.status == 206
                  and len(answer.read()) == 10 and headers.get("Accept-Ranges") == "bytes"
                  and headers.get("Content-Range", "").startswith("bytes 0-9/")
                  and all(headers.get(name) for name in ("ETag", "Last-Modified", "Content-Type")),
                  f"{answer.status} {dict(headers)}")
        try:
            urllib.request.urlopen(base + "/_videos" + video.removeprefix("/videos"))
            check("nginx's internal video location is not reachable", False)
        except urllib.error.HTTPError as error:
            check("an internal path → 404 in JSON", error.code == 404
                  and error.headers.get("Content-Type", "").startswith("application/json"),
                  f"{error.code} {error.headers.get('Content-Type')}")
    finally:
        process.terminate()
        try:
            output, errors = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            output, errors = process.communicate()
        shutil.rmtree(data_dir, ignore_errors=True)
    logs = output + errors
    secrets = ["Secret-123", "Not-the-password-1", tokens.get("access_token"),
               tokens.get("id_token")]
    check("no password or token in the server's output",
          not any(secret and secret in logs for secret in secrets), f"{len(logs)} bytes of logs")
    print("all checks passed" if failures == 0 else f"{failures} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
