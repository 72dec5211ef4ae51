#!/usr/bin/env python3
"""CPU per line of `warden assess` against the seed-004 peer assessor, side by side.

Builds N distinct actions from testdata/actions.jsonl (each Bash command gets a
distinct trailing comment, every other action a distinct session-less copy), then
runs each program on empty input (start-up) and on the N lines, several rounds,
alternating, and reports the median CPU time (user+sys of the child) of each.
Per line = (CPU on N lines - CPU on empty input) / N.
Usage: bench/perline.py WARDEN_BINARY [N] [ROUNDS]
"""
import json, os, resource, statistics, subprocess, sys, tempfile

def cpu(argv, data):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(argv, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"{argv[0]} failed: {p.stderr.decode()[:500]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

def main():
    warden = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    base = []
    with open(os.path.join(root, "testdata", "actions.jsonl")) as f:
        for line in f:
            if line.strip():
                a = json.loads(line)
                base.append({"tool": a["tool"], "arguments": a["arguments"]})
    lines = []
    for i in range(n):
        a = json.loads(json.dumps(base[i % len(base)]))
        cmd = a["arguments"].get("command")
        if isinstance(cmd, str):
            a["arguments"]["command"] = f"{cmd} # {i}"
        lines.append(json.dumps(a))
    data = ("\n".join(lines) + "\n").encode()
    script = os.environ.get("SEED004") or os.path.join(root, "..", "shared", "peers", "seed004_assessor.py")
    if not os.path.exists(script):
        sys.exit(f"no peer assessor at {script}: set SEED004 to the path of seed004_assessor.py")
    peer = [sys.executable, script]
    if os.path.exists("/usr/bin/python3"):
        peer[0] = "/usr/bin/python3"
    progs = {"warden": [warden, "assess", "--home", "/home/user", "--cwd", "/home/user/project"], "seed004": peer}
    res = {k: {"empty": [], "full": []} for k in progs}
    for _ in range(rounds):
        for k, argv in progs.items():
            res[k]["empty"].append(cpu(argv, b""))
            res[k]["full"].append(cpu(argv, data))
    print(f"{n} distinct actions, {len(data)/1e6:.1f} MB, {rounds} rounds, median CPU (user+sys)")
    per = {}
    for k in progs:
        e, f = statistics.median(res[k]["empty"]), statistics.median(res[k]["full"])
        per[k] = (f - e) / n
        print(f"  {k:8s} start-up {e*1e3:7.1f} ms   {n} lines {f:6.2f} s   per line {per[k]*1e6:6.1f} µs")
    print(f"  warden/seed004 per line: {per['warden']/per['seed004']:.2f} (budget ≤ 0.80)")

main()
