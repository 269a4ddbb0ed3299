#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tt-sanitize: the exporter's HTTP and TLS threads
"""test_serve_webcfg.py: the exporter as deployed (docs/metrics.md, "Deploying the exporter"):
gzip only when Accept-Encoding asks (the body inflates and holds the families), TLS from
--web.config.file (https answers, plain HTTP gets no metrics), basic auth (401 with
WWW-Authenticate without or with a wrong password, 200 with the right one), client certificates
(RequireAndVerifyClientCert: 200 with one from the CA, 403 without or with another), unknown keys exit 2
naming the key, and -b --serve samples at scrape time: with no scrape for some seconds the
samples counter does not grow by one a second. An independent client (http.client, ssl) and an
openssl self-signed certificate in a temporary folder. Skips (77) without openssl or a bcrypt
hasher (python3 crypt, mkpasswd, htpasswd)."""
import base64
import gzip
import http.client
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import ttcheck  # noqa: E402
from promlib import free_port  # noqa: E402
from ttcheck import finish  # noqa: E402

TUNETOP = os.environ["TUNETOP"]
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
if not shutil.which("openssl"):
    print("openssl not installed")
    sys.exit(77)


def check(what, cond):
    return ttcheck.check(cond, what)


def bcrypt(password):
    """A $2b$ hash of password (cost 10), or None without a hasher."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import crypt
        h = crypt.crypt(password, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024))
        if h and h.startswith("$2"):
            return h
    except (ImportError, AttributeError, OSError):
        pass
    if shutil.which("mkpasswd"):
        r = subprocess.run(["mkpasswd", "-m", "bcrypt", "-R", "10", password],
                           capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.startswith("$2"):
            return r.stdout.strip()
    if shutil.which("htpasswd"):
        r = subprocess.run(["htpasswd", "-nbBC", "10", "u", password], capture_output=True,
                           text=True)
        if r.returncode == 0:
            return r.stdout.strip().split(":", 1)[1]
    return None


def get(port, headers=None, tls=None, timeout=5):
    """(status, headers dict lower-cased, body bytes), or (0, {}, b"") when no HTTP answer."""
    try:
        if tls:
            c = http.client.HTTPSConnection("127.0.0.1", port, timeout=timeout, context=tls)
        else:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        c.request("GET", "/metrics", headers=headers or {})
        r = c.getresponse()
        body = r.read()
        hdrs = {k.lower(): v for k, v in r.getheaders()}
        c.close()
        return r.status, hdrs, body
    except (OSError, http.client.HTTPException):
        return 0, {}, b""


def start(args, port):
    p = subprocess.Popen([TUNETOP, "-b", "-o", "/dev/null", "--serve", str(port)] + args,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    procs.append(p)
    return p


def wait_up(port, deadline_s=20, **kw):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        st, h, b = get(port, **kw)
        if st in (200, 401):
            return st, h, b
        time.sleep(0.1)
    return 0, {}, b""


def samples(body):
    m = re.search(rb"^tunetop_samples_total (\d+)", body, re.M)
    return int(m.group(1)) if m else -1


def timed_samples(port):
    """(start, samples, end) of one scrape, on the monotonic clock."""
    t = time.monotonic()
    s = samples(get(port)[2])
    return t, s, time.monotonic()


procs = []
tmp = tempfile.mkdtemp(prefix="tt-webcfg-")
try:
    # gzip: only when asked, q-values respected; Vary always.
    port = free_port()
    start([], port)
    st, h, plain = wait_up(port)
    check("plain scrape answers 200", st == 200)
    check("no Accept-Encoding: not compressed", "content-encoding" not in h)
    check("Vary: Accept-Encoding", "accept-encoding" in h.get("vary", "").lower())
    st, h, body = get(port, {"Accept-Encoding": "gzip"})
    check("Accept-Encoding gzip: Content-Encoding gzip", h.get("content-encoding") == "gzip")
    try:
        text = gzip.decompress(body)
    except OSError:
        text = b""
    check("the gzip body inflates to the metrics text", samples(text) >= 1
          and b"# TYPE tunetop_info gauge" in text)
    st, h, body = get(port, {"Accept-Encoding": "gzip;q=0, identity"})
    check("gzip;q=0: not compressed", "content-encoding" not in h and samples(body) >= 1)
    st, h, body = get(port, {"Accept-Encoding": "br, *;q=0.5"})
    check("* with q>0: gzip", h.get("content-encoding") == "gzip")

    # Scrape-time sampling: 4 s without a scrape take one sample (the next scrape's), not 4.
    # A scrape's answer is at most -d (1 s) old, and a scrape that asks for a sample waits
    # for it at most SERVE_FRESH_WAIT_MS (2 s, tui/metrics/serve.h): the exact counts below
    # are owed when the scrapes' own times keep within those, and bounds hold at any speed.
    t1, s1, e1 = timed_samples(port)
    time.sleep(4)  # the premise: 4 s with no scrape (nothing is awaited)
    t2, s2, e2 = timed_samples(port)
    quick = e1 - t1 < 2.0 and e2 - t2 < 2.0
    check(f"4 s without scrapes: samples {s1} -> {s2} (one more; {e1 - t1:.2f} s and "
          f"{e2 - t2:.2f} s to answer)",
          s1 >= 1 and (s2 - s1 == 1 if quick else 0 <= s2 - s1 <= 2))
    t3, s3, e3 = timed_samples(port)
    # s2's sample was published after t2 (it was asked for), so s3 reuses it if it was
    # answered within 1 s of t2.
    check(f"a scrape right after reuses the fresh sample ({s2} -> {s3}, {e3 - t2:.2f} s "
          f"after the fresh one was asked for)",
          s3 == s2 if e3 - t2 < 1.0 and s2 > s1 else 0 <= s3 - s2 <= 1)
    procs[-1].terminate()
    procs[-1].wait(timeout=10)

    # A scrape before the first sample waits for it, and that sample answers it: with -d 30
    # every scrape for 30 s gets sample 1 (a demand left standing took a second one at once).
    port = free_port()
    start(["-d", "30"], port)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 20 and samples(get(port)[2]) < 1:
        time.sleep(0.005)  # poll from the start: the first scrape comes before the sample
    seen = [samples(get(port)[2]) for _ in range(5)]
    check(f"-d 30: the scrapes after the first sample all get it ({seen})",
          seen == [1] * 5 or time.monotonic() - t0 >= 30)
    procs[-1].terminate()
    procs[-1].wait(timeout=10)

    # Unknown keys: exit 2 and the key named, before anything listens.
    for name, text, key in (("top", "tls_server_confg:\n  cert_file: x\n", "tls_server_confg"),
                            ("tls", "tls_server_config:\n  cert_file: c\n  key_file: k\n"
                             "  cipher_suits: []\n", "cipher_suits"),
                            ("auth", "basic_auth_users:\n  bob: notbcrypt\n", "bcrypt")):
        path = os.path.join(tmp, f"bad-{name}.yml")
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run([TUNETOP, "-b", "-n", "1", "--serve", "0", "--web.config.file",
                            path], capture_output=True, text=True, timeout=30)
        check(f"bad config ({name}): exit 2 naming '{key}' ({r.returncode}: "
              f"{r.stderr.strip()[:120]})", r.returncode == 2 and key in r.stderr)
    r = subprocess.run([TUNETOP, "-b", "-n", "1", "--web.config.file", path],
                       capture_output=True, text=True, timeout=30)
    check("--web.config.file without --serve: exit 2", r.returncode == 2)

    # TLS and basic auth.
    cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
    r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                        key, "-out", cert, "-days", "2", "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=DNS:localhost,IP:127.0.0.1"], capture_output=True)
    check("openssl made a certificate", r.returncode == 0)
    hashed = bcrypt("s3cret")
    if not hashed:
        print("no bcrypt hasher (python3 crypt, mkpasswd, htpasswd)")
        sys.exit(77)
    cfg = os.path.join(tmp, "web.yml")
    with open(cfg, "w") as f:
        # Relative names are the configuration file's folder's.
        f.write("tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n"
                "  min_version: TLS12\n"
                f"basic_auth_users:\n  alice: '{hashed}'\n")
    ctx = ssl.create_default_context(cafile=cert)
    port = free_port()
    start(["--web.config.file", cfg], port)
    st, h, body = wait_up(port, tls=ctx)
    check("https without credentials: 401", st == 401)
    check("401 says WWW-Authenticate: Basic",
          h.get("www-authenticate", "").lower().startswith("basic"))

    def auth(u, p):
        return {"Authorization": "Basic " + base64.b64encode(f"{u}:{p}".encode()).decode()}

    st, h, body = get(port, auth("alice", "wrong"), tls=ctx)
    check("wrong password: 401", st == 401 and "www-authenticate" in h)
    st, h, body = get(port, auth("mallory", "s3cret"), tls=ctx)
    check("unknown user: 401", st == 401)
    st, h, body = get(port, auth("alice", "s3cret"), tls=ctx)
    check("right password over TLS: 200 and the text", st == 200 and samples(body) >= 1)
    st, h, body = get(port, dict(auth("alice", "s3cret"), **{"Accept-Encoding": "gzip"}),
                      tls=ctx)
    check("gzip over TLS", st == 200 and h.get("content-encoding") == "gzip"
          and samples(gzip.decompress(body)) >= 1)
    st, h, body = get(port, auth("alice", "s3cret"))
    check(f"plain HTTP to the TLS port: no metrics (status {st})", st != 200
          and b"tunetop_samples_total" not in body)
    procs[-1].terminate()
    procs[-1].wait(timeout=10)

    # Client certificates: RequireAndVerifyClientCert with a CA of the test's own.
    def ossl(*args):
        return subprocess.run(["openssl"] + list(args), capture_output=True).returncode == 0

    ca, cakey = os.path.join(tmp, "ca.pem"), os.path.join(tmp, "ca.key")
    cli, clikey, csr = (os.path.join(tmp, n) for n in ("cli.pem", "cli.key", "cli.csr"))
    made = (ossl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", cakey, "-out", ca,
                 "-days", "2", "-subj", "/CN=tt-test-ca")
            and ossl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", clikey, "-out", csr,
                     "-subj", "/CN=scraper")
            and ossl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", cakey, "-CAcreateserial",
                     "-out", cli, "-days", "2"))
    check("openssl made a CA and a client certificate", made)
    with open(cfg, "w") as f:
        f.write(f"tls_server_config:\n  cert_file: {cert}\n  key_file: {key}\n"
                "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.pem\n")
    port = free_port()
    start(["--web.config.file", cfg], port)
    with_cert = ssl.create_default_context(cafile=cert)
    with_cert.load_cert_chain(cli, clikey)
    st, h, body = wait_up(port, tls=with_cert)
    check(f"a client certificate from the CA: 200 (status {st})", st == 200)
    st, h, body = get(port, tls=ctx)
    check(f"no client certificate: no metrics (status {st})", st != 200
          and b"tunetop_samples_total" not in body)
    other = ssl.create_default_context(cafile=cert)
    other.load_cert_chain(cert, key)  # the server's own: not from the CA
    st, h, body = get(port, tls=other)
    check(f"a certificate not from the CA: no metrics (status {st})", st != 200)
finally:
    for p in procs:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
    shutil.rmtree(tmp, ignore_errors=True)
finish()
