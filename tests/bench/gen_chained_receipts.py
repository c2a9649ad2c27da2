# The fixture of the receipt archive's benchmark: fills a Capdesk SQLite directory (made by
# `capdeskctl init`) with N receipts of one writer, started 2 s apart from 2026-01-01, linked
# as ReceiptChain links them, and that chain's head signed with KEY.pem (the directory's
# --signing-key), so `log --verify` passes and `receipts archive` accepts it. The receipts'
# own signatures are placeholders: nothing on the archive's path checks them.
#   python3 gen_chained_receipts.py DIRECTORY.db N KEY.pem
import sqlite3, sys, json, hashlib, time, base64
from cryptography.hazmat.primitives.serialization import load_pem_private_key
path, n = sys.argv[1], int(sys.argv[2])
db = sqlite3.connect(path)
db.execute("PRAGMA synchronous=OFF")
writer = "w_bench00000000000"
prev = "0" * 64
start = 1767225600  # 2026-01-01
cur = db.cursor()
cur.execute("BEGIN")
for i in range(1, n + 1):
    t = start + i * 2
    at = "%s.000Z" % time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t))
    inv = "inv_%010d" % i
    receipt = {"actor": "owner:local", "cost_usd": 0, "duration_ms": 3, "fingerprints": {"contract": "c" * 64, "input": "a" * 64, "output": "b" * 64},
               "invocation_id": inv, "key": "RK_%04d" % (i % 150), "material": True, "parent": None, "runner": "fn",
               "signature": "s" * 88, "started_at": at, "status": "PROVEN_MATERIAL_RESULT", "trace": "t_%08d" % i}
    text = json.dumps(receipt, sort_keys=True, separators=(",", ":"))
    cur.execute("INSERT INTO receipts (invocation_id, trace, key, parent, actor, runner, started_at, duration_ms, material, status, contract_fingerprint, receipt_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (inv, receipt["trace"], receipt["key"], None, "owner:local", "fn", at, 3, 1, "PROVEN_MATERIAL_RESULT", "c" * 64, text))
    seq = cur.lastrowid
    rh = hashlib.sha256(text.encode()).hexdigest()
    link = json.dumps({"prev_hash": prev, "receipt_sha256": rh, "seq": i, "writer": writer}, sort_keys=True, separators=(",", ":"))
    h = hashlib.sha256(link.encode()).hexdigest()
    cur.execute("INSERT INTO receipt_chain_links (receipt_seq, writer, seq, prev_hash, hash) VALUES (?,?,?,?,?)", (seq, writer, i, prev, h))
    prev = h
    if i % 200000 == 0:
        cur.execute("COMMIT"); cur.execute("BEGIN")
key = load_pem_private_key(open(sys.argv[3], "rb").read(), None)
head = {"writer": writer, "seq": n, "hash": prev, "events_seq": 0, "events_hash": "0" * 64,
        "signed_at": "2026-01-01T00:00:00.000Z", "type": "capdesk.receipt_chain_head"}
sig = base64.b64encode(key.sign(json.dumps(head, sort_keys=True, separators=(",", ":")).encode())).decode()
cur.execute("INSERT INTO receipt_chain_heads (writer, seq, hash, events_seq, events_hash, signed_at, signature) VALUES (?,?,?,?,?,?,?)",
            (writer, n, prev, 0, "0" * 64, "2026-01-01T00:00:00.000Z", sig))
cur.execute("COMMIT")
print("last started_at", at)
