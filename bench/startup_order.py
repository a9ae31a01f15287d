#!/usr/bin/env python3
"""Writes Sources/myworkout-main/startup.order: the functions a launch of the release binary runs,
for lld's --symbol-ordering-file (Package.swift).

Placed together, the code a launch needs is a few hundred KiB of the binary instead of pages
scattered over 14 MB, which the kernel maps 64 KiB at a time: fewer page faults before the first
frame and less resident memory (DECISIONS.md, "Start and memory"). The list comes from running
the binary under valgrind's callgrind in a pseudo-terminal through what a person does first:
Get started with typing and Tab presses, and a relaunch to Profile after logging in.

    swift build -c release --static-swift-stdlib --scratch-path .build-static --product myworkout
    python3 bench/startup_order.py [--binary PATH]

Run it again when the start path changes much; a stale list costs a little speed, never
correctness (symbols it names that no longer exist are ignored, new ones go after the list).
Needs valgrind (apt-get install valgrind).
"""
import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (the pseudo-terminal driver and the typed text)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Sources/myworkout-main/startup.order"
SLOW = 120.0  # seconds: everything is ~50 times slower under valgrind


def traced(binary, out, args, at_start=True):
    """argv that runs `binary args` under callgrind, writing its profile to `out` (from the
    start, or only while `callgrind_control -i on` has turned it on)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise bench.DriveError("valgrind is not installed (apt-get install valgrind)")
    return [valgrind, "--tool=callgrind", "--demangle=no", "--dump-instr=no",
            f"--instr-atstart={'yes' if at_start else 'no'}",
            f"--callgrind-out-file={out}", str(binary), *args]


def run_keys(binary, workdir):
    """Runs a traced launch that records only while keys are typed on Get started (after its
    first frame); returns its profile files (callgrind writes one for each dump)."""
    home = Path(workdir, "keys")  # its own data: the other launches leave a session behind
    home.mkdir()
    profile = Path(home, "keys.callgrind")
    with bench.Terminal(traced(binary, profile, (), at_start=False),
                        bench.program_env(home)) as term:
        term.wait_for("Myworkout GO", "Get started", timeout=SLOW)
        term.settle(timeout=SLOW, quiet=1.0)
        control = shutil.which("callgrind_control")
        if control is None:
            raise bench.DriveError("callgrind_control is not installed (it comes with valgrind)")

        def callgrind(*args):
            try:
                subprocess.run([control, *args, str(term.pid)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, check=True, timeout=SLOW)
            except (OSError, subprocess.SubprocessError) as error:
                raise bench.DriveError(f"callgrind_control {' '.join(args)}: {error}") from error

        callgrind("-i", "on")
        for ch in bench.TYPED_TEXT:
            term.key(ch.encode())
        for _ in bench.TYPED_TEXT:
            term.key(b"\x7f")
        for _ in range(bench.TAB_PRESSES):
            term.key(b"\t")
        callgrind("-i", "off")
        callgrind("-d")
        term.send(b"\x03")
        term.wait_exit("exit after Ctrl-C", timeout=SLOW)
    profiles = sorted(home.glob("keys.callgrind*"))
    if not profiles:
        raise bench.DriveError("callgrind wrote no profile of the keys")
    return profiles


def run_scenarios(binary, workdir):
    """Runs the two traced launches; returns their profile files."""
    env = bench.program_env(workdir)
    profiles = []

    def launch(name, args=()):
        profile = Path(workdir, f"{name}.callgrind")
        profiles.append(profile)
        return bench.Terminal(traced(binary, profile, args), env)

    with launch("get-started") as term:
        term.wait_for("Myworkout GO", "Get started", timeout=SLOW)
        term.settle(timeout=SLOW, quiet=1.0)
        # Each key waits for the screen to answer (as the benchmark types), however slow.
        for ch in bench.TYPED_TEXT:
            term.key(ch.encode())
        for _ in range(bench.TAB_PRESSES):
            term.key(b"\t")
        term.settle(timeout=SLOW, quiet=1.0)
        term.send(b"\x03")
        term.wait_exit("exit after Ctrl-C", timeout=SLOW)
    # Logging in hashes a password (slow under valgrind, and not start-up): done natively.
    with bench.Terminal([str(binary), "--latency", "0s"], env) as term:
        bench.log_in(term)
        term.send(b"q")
        term.wait_exit("exit after 'q' on Profile")
    with launch("relaunch") as term:
        term.wait_for("Profile", "Profile on relaunch", timeout=SLOW)
        term.settle(timeout=SLOW, quiet=1.0)
        term.send(b"\x03")
        term.wait_exit("exit after Ctrl-C", timeout=SLOW)
    return profiles


def symbol(name):
    """The linker's name for callgrind's name of a function: without the `'2` it appends to a
    recursive call's name; None for a bare address (a function without a symbol)."""
    if name is None or name.startswith("0x"):
        return None
    return re.sub(r"'\d+$", "", name)


def functions_run(profile, object_suffix):
    """The names of the functions of the object ending in `object_suffix` that ran."""
    names, objects, ran = {}, {}, set()
    current_object, current_function = None, None
    pattern = re.compile(r"^(ob|cob|fn|cfn)=\((\d+)\)(?: (.*))?$")
    for line in Path(profile).read_text(errors="replace").splitlines():
        match = pattern.match(line)
        if match:
            kind, number, name = match.groups()
            table = objects if kind in ("ob", "cob") else names
            if name:
                table[number] = name
            if kind == "ob":
                current_object = objects.get(number)
            elif kind == "fn":
                current_function = symbol(names.get(number))
            continue
        if (line[:1].isdigit() or line[:1] in "+-*") and current_function \
                and current_object and current_object.endswith(object_suffix):
            ran.add(current_function)
    return ran


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", type=Path, default=ROOT / ".build-static/release/myworkout")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="startup-order-") as workdir:
        # valgrind 3.19 cannot read the DWARF 5 of this toolchain: trace a copy without it.
        plain = Path(workdir, "myworkout-traced")
        subprocess.run(["strip", "--strip-debug", "-o", str(plain), str(args.binary.resolve())],
                       check=True)
        try:
            profiles = run_scenarios(plain, workdir)
            keys = set().union(*(functions_run(profile, plain.name)
                                 for profile in run_keys(plain, workdir)))
        except bench.DriveError as error:
            print(f"startup_order: could not drive the app: {error}", file=sys.stderr)
            return 2
        ran = set().union(*(functions_run(profile, plain.name) for profile in profiles))
    # The functions a key runs first, then the rest of the launch's: a key's code then spans a
    # few dozen pages rather than hundreds (after a pause between keys each page of code is a
    # TLB miss and its lines cache misses, which were most of a key's time; DECISIONS.md).
    # Each part sorted: which functions are hot is what matters (they end up together either
    # way), and a sorted list changes by the functions that changed when it is written again.
    rest = ran - keys
    OUT.write_text("\n".join(sorted(keys) + sorted(rest)) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {len(keys)} functions a key runs, then {len(rest)} more")
    return 0


if __name__ == "__main__":
    sys.exit(main())
