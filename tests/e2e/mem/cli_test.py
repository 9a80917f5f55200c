#!/usr/bin/env python3
"""cavemem as scripts and users run it: exit codes (0/1/2/65), two processes x 500 concurrent
`remember` calls on one store (nothing lost), hostile queries, a corrupt mem.db (clear error, file
untouched), an old database with a cyclic chain, export/import round trip, recover of a truncated
recall hit. Uses CAVEMAN_BIN_DIR; every case gets its own CAVEMAN_HOME."""
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading

BIN = os.path.join(os.environ.get("CAVEMAN_BIN_DIR", "../../build/release/bin"), "cavemem")
failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
        print("FAIL:", message, file=sys.stderr)


def run(home, *args, stdin=b""):
    env = dict(os.environ, CAVEMAN_HOME=home, HOME=home)
    p = subprocess.run([BIN, *args], input=stdin, capture_output=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def new_home():
    return tempfile.mkdtemp(prefix="cavemem-e2e-")


def test_exit_codes():
    home = new_home()
    check(run(home, "--help")[0] == 0, "--help exits 0")
    code, out, _ = run(home, "version", "--json")
    check(code == 0 and json.loads(out)["name"] == "cavemem", "version --json")
    check(run(home, "frobnicate")[0] == 2, "unknown verb exits 2")
    check(run(home, "recall", "q", "notanumber")[0] == 2, "bad limit exits 2")
    check(not os.path.exists(os.path.join(home, "mem")), "usage errors create no store")
    code, _, err = run(home, "remember", "--stdin", stdin=b"x" * (256 * 1024 + 1))
    check(code == 65 and "cave_memory_too_large" in err, f"256 KiB + 1 exits 65 ({code}, {err})")
    check(not os.path.exists(os.path.join(home, "mem")), "a refused memory creates no store")
    code, _, err = run(home, "remember", "--stdin", stdin=b"  \n")
    check(code == 1 and "cave_invalid_arguments" in err, "empty memory exits 1")
    code, out, _ = run(home, "remember", "--stdin", stdin=b"y" * (256 * 1024))
    check(code == 0 and json.loads(out)["id"].startswith("mem_"), "exactly 256 KiB is accepted")
    st = os.stat(os.path.join(home, "mem", "mem.db"))
    check(st.st_mode & 0o777 == 0o600, "mem.db is 0600")
    check(os.stat(os.path.join(home, "mem")).st_mode & 0o777 == 0o700, "mem/ is 0700")


def test_concurrent_writers():
    home = new_home()
    errors = []

    def writer(who):
        for i in range(500):
            code, _, err = run(home, "remember", f"writer {who} fact {i}: the cache TTL is {i} seconds")
            if code != 0:
                errors.append(f"writer {who} #{i}: {code} {err.strip()}")

    threads = [threading.Thread(target=writer, args=(w,)) for w in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check(not errors, f"{len(errors)} remembers failed: {errors[:3]}")
    code, out, _ = run(home, "export")
    lines = [json.loads(l) for l in out.decode().splitlines()]
    texts = {l["text"] for l in lines}
    expected = {f"writer {w} fact {i}: the cache TTL is {i} seconds" for w in (1, 2) for i in range(500)}
    check(code == 0 and len(lines) == 1000 and texts == expected, f"2 x 500 remembers: {len(lines)} rows stored")
    code, out, _ = run(home, "stats")
    check(json.loads(out)["memories"] == 1000, "stats counts 1000 current memories")
    code, out, _ = run(home, "recall", "writer 2 fact 417 cache TTL", "1")
    hits = json.loads(out)["hits"]
    check(code == 0 and hits and hits[0]["text"].startswith("writer 2 fact 417:"), f"recall after concurrent writes: {hits}")


def test_hostile_queries():
    home = new_home()
    run(home, "remember", "NOT a drill: the deploy key rotates monthly")
    for q in ["NOT", "*", '"', ":", "NEAR(", "NEAR(deploy key, 2)", "deploy NOT key", "text:*", "deploy*",
              '") OR 1=1 --', "'; DROP TABLE memories; --", "%_%", "\\", "AND OR NOT", "数据库\" OR \"*"]:
        code, out, err = run(home, "recall", q)
        check(code == 0 and "hits" in json.loads(out), f"hostile query {q!r}: {code} {err}")
    code, out, _ = run(home, "recall", "NOT drill")
    check(len(json.loads(out)["hits"]) == 1, "NOT is a literal word")
    check(json.loads(run(home, "stats")[1])["memories"] == 1, "store unchanged by hostile queries")


def test_corrupt_store():
    home = new_home()
    os.makedirs(os.path.join(home, "mem"), mode=0o700)
    db = os.path.join(home, "mem", "mem.db")
    garbage = bytes((i * 37 + 11) % 256 for i in range(20000))
    with open(db, "wb") as f:
        f.write(garbage)
    for args in (["remember", "x"], ["recall", "x"], ["stats"], ["export"]):
        code, _, err = run(home, *args)
        check(code == 1 and "cave_mem_store_corrupt" in err and db in err, f"{args[0]} on a corrupt store: {code} {err}")
    with open(db, "rb") as f:
        check(hashlib.sha256(f.read()).digest() == hashlib.sha256(garbage).digest(), "corrupt file left untouched")


def test_old_database_with_cycle():
    home = new_home()
    os.makedirs(os.path.join(home, "mem"), mode=0o700)
    db = os.path.join(home, "mem", "mem.db")

    def mid(text):
        return "mem_" + hashlib.sha256(text.encode()).hexdigest()[:16]

    a, b, c = "cycle version a", "cycle version b", "unrelated current fact about gradle"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE memories(id TEXT PRIMARY KEY, text TEXT NOT NULL, created_at TEXT, valid_from TEXT,"
                " valid_until TEXT, supersedes TEXT, superseded_by TEXT)")
    t = "2025-01-01T00:00:00Z"
    con.execute("INSERT INTO memories VALUES (?,?,?,?,?,?,?)", (mid(a), a, t, t, t, mid(b), mid(b)))
    con.execute("INSERT INTO memories VALUES (?,?,?,?,?,?,?)", (mid(b), b, t, t, t, mid(a), mid(a)))
    con.execute("INSERT INTO memories VALUES (?,?,?,?,?,?,?)", (mid(c), c, t, t, None, None, None))
    con.commit()
    con.close()
    code, _, err = run(home, "history", mid(a))
    check(code == 1 and "cave_mem_chain_corrupt" in err, f"cyclic history: {code} {err}")
    code, _, err = run(home, "supersede", mid(b), "new text")
    check(code == 1 and "cave_memory_not_current" in err, f"supersede in a cycle: {code} {err}")
    code, out, _ = run(home, "recall", "gradle")
    check(code == 0 and json.loads(out)["hits"][0]["id"] == mid(c), "recall works on the migrated store")
    code, out, _ = run(home, "forget", mid(a))
    check(code == 0 and json.loads(out)["forgotten"] is True, "forget inside a cycle terminates")


def test_export_import_and_recover():
    home = new_home()
    run(home, "remember", "fact one", "--project", "p", "--tag", "t1")
    _, out, _ = run(home, "remember", "fact two")
    run(home, "supersede", json.loads(out)["id"], "fact two, revised")
    long_text = "Postmortem of the billing outage. " + " ".join(f"step {i} of the timeline" for i in range(400))
    run(home, "remember", "--stdin", stdin=long_text.encode())
    code, out, _ = run(home, "recall", "billing outage postmortem", "1", "25")
    hit = json.loads(out)["hits"][0]
    check(code == 0 and hit["truncated"] is True and hit["tokens_added"] <= 25 and hit["recovery_handle"], f"truncated hit {hit}")
    code, raw, _ = run(home, "recover", hit["recovery_handle"])
    check(code == 0 and raw == long_text.encode(), "recover returns the exact original bytes")
    _, exported, _ = run(home, "export")
    other = new_home()
    code, out, err = run(other, "import", stdin=exported)
    check(code == 0 and json.loads(out)["imported"] == 4, f"import: {code} {out} {err}")
    check(run(other, "export")[1] == exported, "export → import → export is byte-identical")


for test in (test_exit_codes, test_hostile_queries, test_corrupt_store, test_old_database_with_cycle,
             test_export_import_and_recover, test_concurrent_writers):
    test()
if failures:
    print(f"cavemem CLI e2e: {len(failures)} failure(s)", file=sys.stderr)
    sys.exit(1)
print("ok: cavemem CLI e2e")
