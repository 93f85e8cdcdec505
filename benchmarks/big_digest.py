"""Benchmark: reading one very large digest takes time linear in its size.

Builds synthetic digests of 5, 10, 25 and 50 MB in both formats from the real seeds
(records repeated with distinct titles and ids, so nothing folds as a duplicate),
reads each with `generator.sources.read_digest` (decode, detect, read, duplicate check)
and prints MB/s. Linear means MB/s stays about the same as the size grows.

    .venv/bin/python benchmarks/big_digest.py [--sizes 5,10,25,50] [--format tmlr,listing]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.errors import Problems  # noqa: E402
from generator.sources import read_digest  # noqa: E402

SEEDS = ROOT / "seeds"
TMLR_SEED = SEEDS / "000_1b8355006bbdabc6.txt"
LISTING_SEED = SEEDS / "001_68714a788c6fb328.txt"
MB = 1_000_000


def tmlr_copies(size: int) -> str:
    """A TMLR digest of about `size` bytes: the seed's records again and again, each copy distinct."""
    text = TMLR_SEED.read_text(encoding="utf-8")
    head, _, body = text.partition("===============\n")
    head += "===============\n"
    parts, total, n = [head], len(head), 0
    while total < size:
        n += 1
        copy = re.sub(r"^Title: (.*)$", rf"Title: \1 (copy {n})", body, flags=re.M)
        copy = re.sub(r"forum\?id=([A-Za-z0-9_-]+)", rf"forum?id=\g<1>c{n}", copy)
        parts.append(copy)
        total += len(copy.encode("utf-8"))
    return "".join(parts)


def listing_copies(size: int) -> str:
    """A listing digest of about `size` bytes, built the same way (title lines made distinct)."""
    lines = LISTING_SEED.read_text(encoding="utf-8").split("\n")
    problems = Problems()
    raw = read_digest(LISTING_SEED, "seed", problems)
    assert raw is not None
    title_lines = {p.origin.line for p in raw.papers if not p.title_missing}  # subject line; title follows
    parts: list[str] = []
    total, n = 0, 0
    while total < size:
        n += 1
        copy = [f"{ln} (copy {n})" if i in title_lines else ln for i, ln in enumerate(lines)]
        chunk = "\n".join(copy).rstrip("\n") + "\n"
        parts.append(chunk)
        total += len(chunk.encode("utf-8"))
    return "".join(parts)


MAKERS = {"tmlr": tmlr_copies, "listing": listing_copies}

# Shapes of broken input that once made a reader quadratic (a whole file glued into one
# abstract, a field name on every line); each is read at two sizes to show the time ratio.
HEADER = "Daily TMLR digest for Aug 08, 2025\n"
PATHOLOGICAL = {
    "every line a subject": ("listing", lambda n: "Machine Learning\n" * n),
    "one huge abstract": ("listing", lambda n: "Machine Learning\nA Title\nAnn Alpha and Bob Beta\n" + "word\n" * n),
    "Title: on every line": ("tmlr", lambda n: HEADER + "Title: a\nAbstract: b\n" + "Title: t\nmore\n" * n),
    "separators only": ("tmlr", lambda n: HEADER + "Title: a\nAbstract: b\n" + "---\n" * n),
    "junk between records": ("tmlr", lambda n: HEADER + "junk line\n" * n + "Title: a\nAbstract: b\n"),
}


def pathological(lines: int) -> None:
    from generator.sources import listing, tmlr

    readers = {"tmlr": tmlr.read, "listing": listing.read}
    print(f"\n{'pathological shape':22} {'lines':>8} {'seconds':>8} {'lines x4':>9} {'seconds':>8} {'ratio':>6}")
    for name, (fmt, make) in PATHOLOGICAL.items():
        times = []
        for n in (lines, lines * 4):
            text = make(n)
            start = time.process_time()
            readers[fmt]("p.txt", text, Problems())
            times.append(time.process_time() - start)
        print(f"{name:22} {lines:8d} {times[0]:8.3f} {lines * 4:9d} {times[1]:8.3f} {times[1] / times[0]:6.1f}"
              "  (4 = linear)")


def write_digest(folder: Path, fmt: str, size: int) -> Path:
    path = folder / f"big_{fmt}_{size // MB}mb.txt"
    path.write_text(MAKERS[fmt](size), encoding="utf-8")
    return path


def measure(path: Path) -> tuple[float, int, int]:
    problems = Problems()
    # CPU time, not wall time: the figure should not depend on what else the machine is doing.
    start = time.process_time()
    raw = read_digest(path, path.name, problems)
    seconds = time.process_time() - start
    return seconds, len(raw.papers) if raw else 0, len(problems)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="5,10,25,50", help="digest sizes in MB (comma-separated)")
    parser.add_argument("--format", default="tmlr,listing", help="tmlr, listing or both")
    parser.add_argument("--lines", type=int, default=50_000, help="lines of each pathological shape")
    args = parser.parse_args(argv)
    sizes = [int(float(s) * MB) for s in args.sizes.split(",")]
    print(f"{'format':8} {'size MB':>8} {'papers':>8} {'seconds':>8} {'MB/s':>7} {'s per MB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in args.format.split(","):
            rates = []
            for size in sizes:
                path = write_digest(Path(tmp), fmt, size)
                mb = path.stat().st_size / MB
                seconds, papers, _problems = measure(path)
                rates.append(mb / seconds)
                print(f"{fmt:8} {mb:8.1f} {papers:8d} {seconds:8.2f} {mb / seconds:7.2f} {seconds / mb:9.3f}")
                path.unlink()
            # Linear time: the rate at the largest size is close to the rate at the smallest.
            print(f"{fmt:8} rate at {sizes[-1] // MB} MB / rate at {sizes[0] // MB} MB = {rates[-1] / rates[0]:.2f}"
                  " (1.0 = perfectly linear)")
    pathological(args.lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
