#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_serve_webcfg_files.py: the files of --web.config.file as docs/metrics.md has them
("Deploying the exporter"): the configuration and the files it names are regular files, no
symlink (exit 2, "is a symlink"); a key that is not the certificate's is named at load (exit 2)
rather than a bare "libmicrohttpd refused"; brackets nested 100,000 deep are refused at once
(exit 2) rather than spinning in libyaml. Each runs -b -n 1 --serve 0 and must exit within
30 s. Skips (77) without openssl."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import ttcheck  # noqa: E402
from ttcheck import finish  # noqa: E402

TUNETOP = os.environ["TUNETOP"]
if not shutil.which("openssl"):
    print("openssl not installed")
    sys.exit(77)
tmp = tempfile.mkdtemp()


def path(name):
    return os.path.join(tmp, name)


def write(name, text):
    with open(path(name), "w") as f:
        f.write(text)
    return path(name)


def run(cfg):
    """(exit status, stderr); 124 when it did not end within 30 s."""
    try:
        r = subprocess.run([TUNETOP, "-b", "-n", "1", "-o", "/dev/null", "--serve", "0",
                            "--web.config.file", cfg], capture_output=True, text=True,
                           timeout=30)
        return r.returncode, r.stderr.strip()
    except subprocess.TimeoutExpired:
        return 124, "still running after 30 s"


def check(what, got, rc, words):
    ttcheck.check(got[0] == rc and all(w in got[1] for w in words),
                  f"{what}: exit {rc} saying {words} (exit {got[0]}: {got[1][:200]})")


for name in ("a", "b"):
    r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                        path(f"{name}.key"), "-out", path(f"{name}.pem"), "-days", "2",
                        "-subj", "/CN=localhost"], capture_output=True)
    ttcheck.check(r.returncode == 0, f"openssl made certificate {name}")

good = write("good.yml", "tls_server_config:\n  cert_file: a.pem\n  key_file: a.key\n")
check("the certificate and its key", run(good), 0, [])
os.symlink("good.yml", path("link.yml"))
check("a symlinked configuration", run(path("link.yml")), 2, ["link.yml", "is a symlink"])
os.symlink("a.pem", path("clink.pem"))
cfg = write("c.yml", "tls_server_config:\n  cert_file: clink.pem\n  key_file: a.key\n")
check("a symlinked cert_file", run(cfg), 2, ["cert_file", "clink.pem", "is a symlink"])
cfg = write("m.yml", "tls_server_config:\n  cert_file: a.pem\n  key_file: b.key\n")
check("another certificate's key", run(cfg), 2, ["m.yml", "key_file",
                                                  "the key is not the certificate's"])
cfg = write("deep.yml", "basic_auth_users: " + "[" * 100000 + "]" * 100000 + "\n")
check("brackets 100,000 deep", run(cfg), 2, ["deep.yml", "nested deeper than 64"])
shutil.rmtree(tmp, ignore_errors=True)
finish()
