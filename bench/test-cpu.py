#!/usr/bin/env python3
"""CPU-seconds of test files, each run alone, all processes counted (docs/BENCHMARKS.md "Where CI stands").

    python3 bench/test-cpu.py [--runs N] e2e/bulk.test.ts server/src/main.test.ts ...

Each file runs as `TEST_WORKERS=1 node scripts/test.mjs <file>` on one embedded PostgreSQL
server started here for all of them (its template built before the first file). Wall time on a
shared 2-core machine says little, so this counts CPU: the run's own processes — the test
worker, and Chromium, whose processes outlive the worker that launched them — through
getrusage of reaped children, this process being their subreaper (prctl PR_SET_CHILD_SUBREAPER:
orphans are re-parented here and reaped, so nothing escapes the count); and PostgreSQL's share
from the server's postmaster, whose cutime holds the backends it reaped. Python, not Node,
because Node cannot become a subreaper. Prints one line per run and a summary per file.
"""
import argparse
import ctypes
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICKS = os.sysconf('SC_CLK_TCK')
PR_SET_CHILD_SUBREAPER = 36


def proc_cpu(pid):
    """utime + stime + cutime + cstime of a process, in seconds."""
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / TICKS


def children(keep=()):
    """This process's children (the orphans re-parented here included), except `keep`."""
    found = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit() or int(entry) in keep:
            continue
        try:
            with open(f'/proc/{entry}/stat') as f:
                ppid = int(f.read().rsplit(')', 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if ppid == os.getpid():
            found.append(int(entry))
    return found


def run_reaping(command, env, keep, timeout=60):
    """Runs `command`, reaping every child as it exits (orphans re-parented here included: a
    test's zombie would still answer kill(pid, 0)), until the command has exited and nothing but
    `keep` (the database server) is left, or `timeout` s after the command exited."""
    with tempfile.TemporaryFile('w+') as out:
        child = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
        code = None
        deadline = None
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid, status = 0, 0
            if pid == child.pid:
                code = os.waitstatus_to_exitcode(status)
                child.returncode = code
                deadline = time.monotonic() + timeout
            if pid == 0:
                if code is not None and (not children(keep) or time.monotonic() > deadline):
                    break
                time.sleep(0.05)
        out.seek(0)
        return code, out.read()


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--runs', type=int, default=1)
    parser.add_argument('files', nargs='+')
    args = parser.parse_args()
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

    work = tempfile.mkdtemp(prefix='intelnotes-test-cpu-')
    started = subprocess.run(
        ['node', '--import', 'tsx', 'scripts/test-database.ts', 'start', os.path.join(work, 'postgres')],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    server = json.loads(started.stdout.strip().splitlines()[-1])
    env = {**os.environ, 'TEST_WORKERS': '1', 'TEST_DATABASE_URL': server['url']}
    env.pop('TEST_SCREENSHOTS', None)
    try:
        # The template database is built by the first test file on a server: not any file's cost.
        keep = (server['pid'],)
        run_reaping(['node', 'scripts/test.mjs', 'server/src/config.test.ts'], env, keep)
        results = {}
        for run in range(args.runs):
            for file in args.files:
                own_before = children_cpu()
                pg_before = proc_cpu(server['pid'])
                start = time.monotonic()
                # Chromium's processes, orphaned when the worker exits, are waited for too.
                code, output = run_reaping(['node', 'scripts/test.mjs', file], env, keep)
                wall = time.monotonic() - start
                time.sleep(0.5)  # the file's backends are gone; the postmaster has reaped them
                own = children_cpu() - own_before
                pg = proc_cpu(server['pid']) - pg_before
                summary = re.search(r'test run (\w+) in [\d.]+ min — (\d+) tests: (\d+) passed, (\d+) failed, (\d+) skipped', output)
                tests = summary.group(2) if summary else '?'
                status = summary.group(1) if summary else f'exit {code}'
                results.setdefault(file, []).append((own + pg, own, pg, wall))
                print(f'{file}: {own + pg:6.1f} CPU-s (test+chromium {own:5.1f}, postgres {pg:4.1f}), wall {wall:5.1f} s, {tests} tests, {status}', flush=True)
                if not summary or status != 'passed':
                    print(output[-4000:], flush=True)
        print('\nfile\truns\tCPU-s min\tmedian\tmax')
        total = 0.0
        for file, rows in results.items():
            cpu = sorted(row[0] for row in rows)
            median = cpu[len(cpu) // 2]
            total += median
            print(f'{file}\t{len(cpu)}\t{cpu[0]:.1f}\t{median:.1f}\t{cpu[-1]:.1f}')
        print(f'total of medians\t\t\t{total:.1f}')
    finally:
        try:
            os.kill(server['pid'], 2)
        except ProcessLookupError:
            pass
        deadline = time.monotonic() + 30
        while children() and time.monotonic() < deadline:
            try:
                os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            time.sleep(0.1)
        subprocess.run(['rm', '-rf', work])


if __name__ == '__main__':
    main()
