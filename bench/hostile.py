#!/usr/bin/env python3
"""Long hostile-input campaigns against the release build (issue #19).

    python3 bench/hostile.py [--bin target/release/copyhound] PART...

PART is one or more of (default: all):

  inputs  every seed and mutant from `copyhound-fuzz --write-inputs`, plus
          large files (one-line code, deep nesting, long text, PDF bombs),
          through `copyhound fingerprint`, one process each: exit code,
          panics (exit 101 or a signal), hangs (over --timeout), and peak
          memory (wait4's ru_maxrss, the extraction child included) against
          the documented bound (the memory budget plus the process).
  kills   `db add` and `db rotate` killed with SIGKILL at random moments,
          then `db check` and `db stats`: committed documents must never
          decrease, the database must always check clean.
  load    `copyhound serve`: concurrent searches and adds for --seconds,
          p50/p99 latency, status counts, the server's peak memory; then 20
          concurrent 15 MiB searches (the server must answer 429 rather
          than grow).
  slow    a client sending one byte a second, and 1,100 idle connections:
          both must be closed and a normal request must still be answered.

Every server is on 127.0.0.1; every loop is bounded in count and time.
Prints one line per result, for the README's reliability section.
"""

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1 << 20
# LoadOptions::memory_budget (2 GiB) plus the process itself.
BOUND_KIB = (2048 + 64) * 1024


def run_measured(argv, timeout, **kwargs):
    """Runs argv; returns (exit code or -signal, peak KiB, seconds, stderr, hung)."""
    started = time.monotonic()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)
    stderr_chunks = []
    reader = threading.Thread(target=lambda: stderr_chunks.append(process.stderr.read()))
    reader.start()
    hung = False
    deadline = started + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            hung = True
            process.kill()
        time.sleep(0.005)
    reader.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = b"".join(stderr_chunks).decode("utf-8", "replace")
    return process.returncode, usage.ru_maxrss, time.monotonic() - started, stderr, hung


def write_large_inputs(folder):
    rng = random.Random(19)
    words = "alpha beta gamma delta river stone copy detect winnow finger print hash".split()
    sizes = [1 * MIB, 8 * MIB, 48 * MIB]
    for size in sizes:
        tag = f"{size // MIB}m"
        text = " ".join(rng.choice(words) for _ in range(size // 6))[:size]
        with open(os.path.join(folder, f"text-{tag}.txt"), "w") as f:
            f.write(text)
        for ext in ["py", "js", "java", "c", "lua"]:
            with open(os.path.join(folder, f"one-line-{tag}.{ext}"), "w") as f:
                f.write("x=1;" * (size // 4))
        with open(os.path.join(folder, f"deep-{tag}.py"), "w") as f:
            f.write("(" * size)
        with open(os.path.join(folder, f"page-{tag}.html"), "w") as f:
            f.write("<html><body>" + "<p>" + text.replace(" ", "</p> <p>", 200000) + "</p></body></html>")


def part_inputs(args, report):
    fuzz = os.path.join(os.path.dirname(args.bin), "copyhound-fuzz")
    folder = tempfile.mkdtemp(prefix="copyhound-hostile-")
    try:
        subprocess.run([fuzz, "--write-inputs", folder, str(args.mutants), "--seed", "19"], check=True)
        write_large_inputs(folder)
        files = sorted(os.listdir(folder))
        panics = hangs = over = 0
        worst = (0, "")
        codes = {}
        for name in files:
            path = os.path.join(folder, name)
            code, peak, seconds, stderr, hung = run_measured(
                [args.bin, "fingerprint", path], args.timeout
            )
            codes[code] = codes.get(code, 0) + 1
            if hung:
                hangs += 1
                print(f"  hang: {name} ({seconds:.0f} s)")
            elif code == 101 or code < 0 or "panicked" in stderr:
                panics += 1
                print(f"  panic/crash: {name}: exit {code}: {stderr.strip()[-300:]}")
            if peak > BOUND_KIB:
                over += 1
                print(f"  over the bound: {name}: {peak // 1024} MiB")
            if peak > worst[0]:
                worst = (peak, name)
        report(
            f"bad inputs: {len(files)} tried through `copyhound fingerprint`: "
            f"{panics} panics, {hangs} hangs (limit {args.timeout} s), {over} over the "
            f"{BOUND_KIB // 1024} MiB bound; largest peak {worst[0] // 1024} MiB ({worst[1]}); "
            f"exit codes {dict(sorted(codes.items()))}"
        )
        code, peak, seconds, stderr, hung = run_measured(
            [args.bin, "compare", "-q", folder], args.timeout * 4
        )
        report(
            f"the same {len(files)} files in one `copyhound compare`: exit {code}, "
            f"{'hung' if hung else f'{seconds:.1f} s'}, peak {peak // 1024} MiB"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def stats(args, db):
    out = subprocess.run([args.bin, "db", "stats", "--json", db], capture_output=True, text=True)
    return json.loads(out.stdout)["documents"] if out.returncode == 0 else None


def check(args, db):
    return subprocess.run([args.bin, "db", "check", db], capture_output=True, text=True)


def kill_at_random(argv, rng, args):
    """Runs argv and SIGKILLs it at a random moment; 1 if it was killed, 0 if it ended first."""
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0.02, args.kill_window))
    killed = process.poll() is None
    if killed:
        process.send_signal(signal.SIGKILL)
    process.wait()
    return int(killed)


def part_kills(args, report):
    rng = random.Random(7)
    folder = tempfile.mkdtemp(prefix="copyhound-kills-")
    try:
        files = os.path.join(folder, "files")
        os.mkdir(files)
        words = [f"w{i}" for i in range(5000)]
        for i in range(args.kill_files):
            with open(os.path.join(files, f"doc{i:05}.txt"), "w") as f:
                f.write(" ".join(rng.choice(words) for _ in range(400)))
        db = os.path.join(folder, "db")
        subprocess.run([args.bin, "db", "init", db], check=True, capture_output=True)
        kills = lost = unclean = 0
        committed = 0
        for round_ in range(args.kills):
            kills += kill_at_random([args.bin, "db", "add", "--batch", "64", db, files], rng, args)
            now = stats(args, db)
            if check(args, db).returncode != 0:
                unclean += 1
            if now is None or now < committed:
                lost += 1
                print(f"  add round {round_}: {committed} documents before, {now} after")
            committed = max(committed, now or 0)
        report(
            f"db add: {kills} SIGKILLs at random moments over {args.kills} runs of "
            f"{args.kill_files} files: {lost} times committed documents decreased, "
            f"{unclean} unclean `db check`; {committed} documents at the end (each run adds "
            f"the folder again from its start: `db add` does not skip registered files)"
        )
        rotate_kills = rotate_lost = rotate_unclean = 0
        for _ in range(args.kills):
            rotate_kills += kill_at_random([args.bin, "db", "rotate", "--batch", "64", db], rng, args)
            if check(args, db).returncode != 0:
                rotate_unclean += 1
            if stats(args, db) != committed:
                rotate_lost += 1
        final = subprocess.run([args.bin, "db", "rotate", db], capture_output=True, text=True)
        report(
            f"db rotate: {rotate_kills} SIGKILLs over {args.kills} runs: {rotate_lost} times the "
            f"document count changed, {rotate_unclean} unclean `db check`; the last rotation "
            f"finished with exit {final.returncode}"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Server:
    """`copyhound serve` on a free loopback port, with a token."""

    def __init__(self, args, extra=()):
        self.folder = tempfile.mkdtemp(prefix="copyhound-serve-")
        self.db = os.path.join(self.folder, "db")
        subprocess.run([args.bin, "db", "init", self.db], check=True, capture_output=True)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = dict(os.environ, COPYHOUND_TOKEN="bench-token")
        self.process = subprocess.Popen(
            [args.bin, "serve", self.db, "--listen", f"127.0.0.1:{self.port}", *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        )
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        self.peak_kib = 0
        self.sampling = True
        self.sampler = threading.Thread(target=self._sample)
        self.sampler.start()

    def _sample(self):
        while self.sampling:
            try:
                with open(f"/proc/{self.process.pid}/status") as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            self.peak_kib = max(self.peak_kib, int(line.split()[1]))
            except OSError:
                return
            time.sleep(0.05)

    def request(self, method, path, body=None, token=False, timeout=300):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer bench-token"
        started = time.monotonic()
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            return response.status, time.monotonic() - started
        except OSError as error:
            return type(error).__name__, time.monotonic() - started
        finally:
            connection.close()

    def post_expecting_continue(self, path, body):
        """POSTs body with `Expect: 100-continue`, as a client sending a large
        body should: a refusal arrives before the body is sent. Returns the
        final status and the seconds taken."""
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", self.port), timeout=300) as connection:
            connection.sendall(
                f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nExpect: 100-continue\r\n\r\n".encode()
            )
            reader = connection.makefile("rb")
            status = int(reader.readline().split()[1])
            while reader.readline() not in (b"\r\n", b""):
                pass
            if status == 100:
                connection.sendall(body)
                status = int(reader.readline().split()[1])
            return status, time.monotonic() - started

    def stop(self):
        self.sampling = False
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.sampler.join()
        shutil.rmtree(self.folder, ignore_errors=True)


def essay(rng, words):
    vocabulary = [f"v{i}x" for i in range(20000)]
    return " ".join(rng.choice(vocabulary) for _ in range(words))


def part_load(args, report):
    server = Server(args, ["--max-concurrent", "16", "--max-inflight-mib", "32"])
    try:
        rng = random.Random(3)
        texts = [essay(rng, 600) for _ in range(200)]
        for text in texts[:100]:
            server.request("POST", "/api/documents", json.dumps({"text": text}), token=True)
        results = []
        lock = threading.Lock()
        stop_at = time.monotonic() + args.seconds

        def client(number):
            local = random.Random(number)
            while time.monotonic() < stop_at:
                if local.random() < 0.2:
                    text = essay(local, 600)
                    outcome = server.request("POST", "/api/documents", json.dumps({"text": text}), token=True)
                    kind = "add"
                else:
                    text = local.choice(texts)
                    outcome = server.request("POST", "/api/search", json.dumps({"text": text}))
                    kind = "search"
                with lock:
                    results.append((kind, *outcome))
                if outcome[0] == 429:
                    # A client that honours Retry-After would wait a second;
                    # this one comes back sooner to keep the pressure on.
                    time.sleep(0.05)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for kind in ["search", "add"]:
            mine = [r for r in results if r[0] == kind]
            latencies = sorted(r[2] for r in mine if r[1] in (200, 201))
            statuses = {}
            for r in mine:
                statuses[r[1]] = statuses.get(r[1], 0) + 1
            if latencies:
                p50 = statistics.median(latencies) * 1000
                p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
                report(
                    f"load: {args.clients} clients for {args.seconds} s, {kind} requests: {len(mine)}, "
                    f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, statuses {statuses}"
                )
        report(f"load: server peak memory {server.peak_kib // 1024} MiB")

        big = json.dumps({"text": essay(rng, 15 * MIB // 6)[: 15 * MIB]}).encode()
        statuses = {}
        outcomes = []

        def big_search():
            outcomes.append(server.post_expecting_continue("/api/search", big))

        before = server.peak_kib
        threads = [threading.Thread(target=big_search) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(0.2)
        for status, _ in outcomes:
            statuses[status] = statuses.get(status, 0) + 1
        report(
            f"20 concurrent 15 MiB searches: statuses {statuses}, server peak memory "
            f"{server.peak_kib // 1024} MiB (before them {before // 1024} MiB)"
        )
    finally:
        server.stop()


def part_slow(args, report):
    server = Server(args)
    try:
        slow = socket.create_connection(("127.0.0.1", server.port))
        started = time.monotonic()
        closed_after = None
        for byte in b"GET /api/stats HTTP/1.1\r\nHost: bench\r\nX-Slow: " + b"a" * 120:
            try:
                slow.sendall(bytes([byte]))
                slow.settimeout(1.0)
                if slow.recv(1024) == b"":
                    closed_after = time.monotonic() - started
                    break
            except socket.timeout:
                continue
            except OSError:
                closed_after = time.monotonic() - started
                break
        slow.close()
        report(
            "slow client (one header byte a second): "
            + (f"closed after {closed_after:.1f} s" if closed_after else "still open after 120 s")
        )
        idle = []
        refused = 0
        for _ in range(1100):
            try:
                idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
            except OSError:
                refused += 1
        status, seconds = server.request("GET", "/api/stats", timeout=10)
        time.sleep(12)
        still_open = 0
        for connection in idle:
            connection.settimeout(0.01)
            try:
                if connection.recv(1024) != b"":
                    pass
                else:
                    continue
            except socket.timeout:
                still_open += 1
            except OSError:
                continue
        later_status, later_seconds = server.request("GET", "/api/stats", timeout=10)
        for connection in idle:
            connection.close()
        report(
            f"1,100 idle connections ({refused} refused at connect): a request meanwhile got "
            f"{status} in {seconds * 1000:.0f} ms; {still_open} still open after 12 s, when a "
            f"request got {later_status} in {later_seconds * 1000:.0f} ms"
        )
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("parts", nargs="*", default=["inputs", "kills", "load", "slow"])
    parser.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "copyhound"))
    parser.add_argument("--mutants", type=int, default=300)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--kill-files", type=int, default=2000)
    parser.add_argument("--kill-window", type=float, default=1.5)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=int, default=30)
    args = parser.parse_args()

    def report(line):
        print(line, flush=True)

    print(f"# {' '.join(sys.argv)} on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}", flush=True)
    for part in args.parts:
        {"inputs": part_inputs, "kills": part_kills, "load": part_load, "slow": part_slow}[part](args, report)


if __name__ == "__main__":
    main()
