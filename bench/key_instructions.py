#!/usr/bin/env python3
"""Instructions a key costs, counted by callgrind: the app and the C reference program typing an
email on their first screen (characters, Backspace, Tab), beside each other.

This machine gives `perf` no hardware counters, and a key's time is spread too thin for its
samples to rank the work; callgrind counts every instruction of the user-space code a key runs.
Needs valgrind (Debian's `valgrind`); about a minute for each program.

    python3 bench/key_instructions.py .build-static/release/myworkout [more binaries...]

Swift's DWARF 5 is more than valgrind 3.19 reads: each binary is run from a copy without its
debug information (symbols kept)."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

TYPED = "someone.else@mail.co"
bench.WAIT_TIMEOUT = 120.0  # callgrind runs a program some fifty times slower
ROUNDS = 2


def instructions_per_key(binary, heading):
    with tempfile.TemporaryDirectory(prefix="keys-") as tmp:
        stripped = Path(tmp, "program")
        subprocess.run(["strip", "--strip-debug", "-o", str(stripped), str(binary)], check=True)
        out = Path(tmp, "callgrind.out")
        argv = [shutil.which("valgrind"), "--tool=callgrind", f"--callgrind-out-file={out}",
                "--instr-atstart=no", str(stripped)]
        # `--assets`: the copy is not beside the binary's Assets.
        if heading == "Myworkout GO":
            argv += ["--assets", str(bench.ROOT / "Assets")]
        with bench.Terminal(argv, bench.program_env(tmp)) as term:
            term.wait_for(heading, "the first frame", timeout=120)
            term.settle(quiet=1.0)
            subprocess.run(["callgrind_control", "-i", "on", str(term.pid)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            keys = 0
            for _ in range(ROUNDS):
                for key in [ch.encode() for ch in TYPED] + [b"\x7f"] * len(TYPED) + [b"\t"] * 3:
                    term.key(key)
                    keys += 1
            subprocess.run(["callgrind_control", "-i", "off", str(term.pid)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            subprocess.run(["callgrind_control", "-d", str(term.pid)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            term.send(b"\x03")
            term.wait_exit("exit after Ctrl-C", timeout=120)
        total = 0
        for dump in glob.glob(f"{out}*"):
            for line in Path(dump).read_text(errors="replace").splitlines():
                if line.startswith("summary:") or line.startswith("totals:"):
                    total = max(total, int(line.split()[1]))
        return total / keys


def main():
    if not shutil.which("valgrind"):
        sys.exit("needs valgrind (apt-get install valgrind)")
    programs = [(bench.compile_reference(), "Reference GO")] + [(Path(b).resolve(), "Myworkout GO")
                                                     for b in sys.argv[1:]]
    for binary, heading in programs:
        print(f"{binary}: {instructions_per_key(binary, heading) / 1000:.0f}k instructions a key")


if __name__ == "__main__":
    main()
