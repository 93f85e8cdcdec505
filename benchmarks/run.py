"""Scale benchmark: the whole build (`readinglist build` + `mkdocs build`) of N papers, variants side by
side, against stock MkDocs + Material building the same papers; prints one table (`make bench`).

    python benchmarks/run.py --quick                   # smoke test: 1,000 papers, 1 round, base only
    python benchmarks/run.py                           # N = 1,000 and 10,000, both workloads, 3 rounds
    python benchmarks/run.py --sizes 10000 --search --edit-loop    # what `make bench` runs
    python benchmarks/run.py --compare REV             # also the code of REV (e.g. before the redesign)
    python benchmarks/run.py --variant 'no-x:READINGLIST_X=off'    # a variant not in variants.py
    python benchmarks/run.py --json out.json           # also write every run's figures as JSON

Workloads: `synth` (synth.py: template abstracts over a list of research topics) and `seeded`
(seeded.py: a bigram model of the seed digests' own titles and abstracts, the seeds' authors).
Variants (variants.py) are (name, environment, code checkout); in each round every one is built
from a cold project, one after the other (stock, A, B, ... then again), so that ratios are taken
between builds minutes apart. Each step is a whole command in a child process; the generator is
measured by its output only. The medians of the rounds are in the table, every run under it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import browser  # noqa: E402
import oracle  # noqa: E402
import projects  # noqa: E402
import report  # noqa: E402
import steps  # noqa: E402
from variants import VARIANTS, Checkout, Variant, current_checkout, parse_variant, rev_checkout  # noqa: E402

QUERIES = {"synth": "diffusion", "seeded": "distillation"}  # words every workload's papers use


def papers_listed(build_dir: Path) -> int | None:
    """How many papers the generator wrote out (its papers.json), to check the workload's count."""
    try:
        return len(json.loads((build_dir / "papers.json").read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


Outputs = tuple[dict[str, str], dict[str, str]]  # (docs folder, site): path -> SHA-256 (oracle.py)


def run_variant(code: Checkout, config: Path, variant: Variant, outputs: list[Outputs] | None = None,
                next_digest: Path | None = None) -> dict[str, Any]:
    """One variant from a cold project: generator, generator again with no change, mkdocs build;
    then the generator with its caches kept; then (`next_digest`) the next day's deploy.
    `outputs`: gets the digests of the docs folder and the site that build made (untimed)."""
    proj = config.parent
    projects.cold_project(proj)
    gen = steps.generator(code, config, variant.env)
    nochange, rewritten = steps.no_change(code, config, variant.env)
    mk = steps.mkdocs_build(code, config, variant.env)
    if outputs is not None:
        outputs.append((oracle.digests(proj / "build"), oracle.digests(proj / "site", site=True)))
    site_bytes = projects.tree_bytes(proj / "site")
    download_bytes = projects.download_bytes(proj / "site")
    parts = projects.size_by_part(proj / "site")
    # The generator once more into an empty build folder, its caches kept: what a deploy with the
    # formatted-reference cache restored (the Pages workflow's actions/cache) costs. MkDocs' part
    # does not depend on it, so the whole build of that case is this plus the mkdocs build above.
    projects.fresh_build_folder_aside(proj)
    warm = steps.generator(code, config, variant.env)
    figures = {"gen": gen.wall, "gen_cpu": gen.cpu, "peak_mb": gen.peak_mb, "nochange": nochange.wall,
               "rewritten": rewritten, "mkdocs": mk.wall, "mkdocs_cpu": mk.cpu, "whole": gen.wall + mk.wall,
               "gen_warm": warm.wall, "whole_warm": warm.wall + mk.wall, "parts": parts, "mkdocs_peak_mb": mk.peak_mb,
               "site_bytes": site_bytes, "download_bytes": download_bytes, "papers": papers_listed(proj / "build")}
    if next_digest is not None:
        # The next day's deploy as the Pages workflow runs it: a digest of new papers, a fresh
        # checkout (no build/, no site/) and .readinglist-cache/ restored; generator + mkdocs build.
        projects.next_day(proj, next_digest)
        try:
            next_gen = steps.generator(code, config, variant.env)
            next_mk = steps.mkdocs_build(code, config, variant.env)
        finally:
            projects.next_day(proj, None)
        figures.update(next_gen=next_gen.wall, next_mkdocs=next_mk.wall, next_whole=next_gen.wall + next_mk.wall,
                       next_peak_mb=next_gen.peak_mb, next_cpu=next_gen.cpu + next_mk.cpu)
    return figures


def run_stock(config: Path, next_config: Path | None = None) -> dict[str, Any]:
    """Stock MkDocs + Material building the papers as plain pages; `next_config`: also the same
    papers with the next day's (what the next day's deploy is compared with)."""
    proj = config.parent
    for folder in (proj, *([next_config.parent] if next_config else [])):
        if (folder / "site").exists():  # moved aside, not deleted (see projects.cold_project)
            old = folder.parent / "old" / f"{folder.name}-site-{time.time_ns()}"
            old.parent.mkdir(parents=True, exist_ok=True)
            (folder / "site").rename(old)
    mk = steps.mkdocs_build(current_checkout(), config, {}, plugin=False)
    figures = {"gen": None, "mkdocs": mk.wall, "mkdocs_cpu": mk.cpu, "whole": mk.wall, "peak_mb": None,
               "site_bytes": projects.tree_bytes(proj / "site"),
               "download_bytes": projects.download_bytes(proj / "site")}
    if next_config is not None:
        nxt = steps.mkdocs_build(current_checkout(), next_config, {}, plugin=False)
        figures["next_whole"], figures["next_cpu"] = nxt.wall, nxt.cpu
    return figures


def warm_up(checkouts: dict[str | None, Checkout], workdir: Path) -> None:
    """A small untimed build with every checkout and of the stock site: the first build after a
    while reads the packages from disk and byte-compiles what is not yet; the first round's
    first build would pay for it (seen: the first stock build 1.7 times the next one)."""
    print("[warm-up] small builds, untimed ...", file=sys.stderr)
    home = workdir / "warm-up"
    papers = projects.write_seeds("synth", 50, home / "seeds", 0)
    run_stock(projects.stock_project(home / "stock", papers))
    for rev, code in checkouts.items():
        run_variant(code, projects.make_project(home / f"proj-{code.label}", code.root, home / "seeds"),
                    Variant(f"warm-up {rev}"))
    shutil.rmtree(home, ignore_errors=True)


def measure(args: argparse.Namespace, variants: list[Variant], workdir: Path) -> tuple[list[dict[str, Any]],
                                                                                       dict[str, Any]]:
    checkouts: dict[str | None, Checkout] = {None: current_checkout()}
    for v in variants:
        if v.rev is not None and v.rev not in checkouts:
            checkouts[v.rev] = rev_checkout(v.rev)
    warm_up(checkouts, workdir)
    runs: list[dict[str, Any]] = []
    extra: dict[str, Any] = {}
    browser_at = ("seeded" if "seeded" in args.workloads else args.workloads[0], max(args.sizes))
    for workload in args.workloads:
        for n in args.sizes:
            home = workdir / f"{workload}-{n}"
            print(f"[{workload} N={n}] writing digests and the stock reference ...", file=sys.stderr)
            papers = projects.write_seeds(workload, n, home / "seeds", args.seed)
            stock = projects.stock_project(home / "stock", papers)
            next_digest = home / "next-day" / projects.NEXT_DIGEST
            fresh = projects.write_next_day(workload, projects.NEXT_DAY, next_digest, args.seed)
            stock_next = projects.stock_project(home / "stock-next", papers + fresh)
            configs = {rev: projects.make_project(home / f"proj-{code.label}", code.root, home / "seeds")
                       for rev, code in checkouts.items()}
            for rnd in range(args.repeats):
                base_out: list[Outputs] = []
                for variant in [None, *(v for v in variants if not v.serve_only)]:
                    name = variant.name if variant else report.STOCK
                    print(f"[{workload} N={n}] round {rnd + 1} of {args.repeats}: {name} ...", file=sys.stderr)
                    if variant is None:
                        figures = run_stock(stock, stock_next)
                    else:
                        out: list[Outputs] = []
                        figures = run_variant(checkouts[variant.rev], configs[variant.rev], variant, out, next_digest)
                        if variant is variants[0]:
                            base_out = out
                        else:  # the base's output of this round: the same bytes, or the first path that differs
                            differs = oracle.compare(out[0], base_out[0])
                            figures["same_output"], figures["differs_at"] = differs is None, differs
                            figures["same_by_design"] = variant.same_bytes
                    runs.append({"workload": workload, "n": n, "variant": name, "round": rnd, **figures})
                    if (variant is variants[0] and args.search and rnd == args.repeats - 1
                            and (workload, n) == browser_at):
                        print(f"[{workload} N={n}] search in Chromium ...", file=sys.stderr)
                        site = configs[variant.rev].parent / "site"
                        extra["search"] = {"workload": workload, "n": n,
                                           **browser.search_latency(site, QUERIES[workload])}
                        print(f"[{workload} N={n}] All papers filter in Chromium ...", file=sys.stderr)
                        extra["filter"] = {"workload": workload, "n": n, **browser.filter_latency(site)}
            if args.edit_loop and (workload, n) == browser_at:
                print(f"[{workload} N={n}] edit loop under readinglist serve ...", file=sys.stderr)
                base = variants[0]
                extra["edit"] = {"workload": workload, "n": n,
                                 **browser.edit_loop(checkouts[base.rev], configs[base.rev])}
                for variant in (v for v in variants if v.serve_only):
                    print(f"[{workload} N={n}] edit loop, {variant.name} ...", file=sys.stderr)
                    extra[f"edit {variant.name}"] = {"workload": workload, "n": n, **browser.edit_loop(
                        checkouts[base.rev], configs[base.rev], env=variant.env)}
    return runs, extra


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000", help="comma-separated list sizes (default 1000,10000)")
    ap.add_argument("--workloads", default=",".join(projects.WORKLOADS), help="synth, seeded or both (default)")
    ap.add_argument("--repeats", type=int, default=3, help="rounds of every variant, medians reported (default 3)")
    ap.add_argument("--variants", help="names from variants.py to run (default: all); the first is the base")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME:VAR=VALUE[,VAR=VALUE]",
                    help="one more variant, from the command line")
    ap.add_argument("--compare", action="append", default=[], metavar="REV",
                    help="also build with the code of REV (its own checkout and virtualenv)")
    ap.add_argument("--quick", action="store_true", help="smoke test: 1,000 papers, 1 round, the base variant only")
    ap.add_argument("--search", action="store_true", help="time first search results in Chromium (base variant)")
    ap.add_argument("--edit-loop", action="store_true", help="time a note edit under `readinglist serve` (base)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workdir", type=Path, help="keep the generated projects here (default: a temp folder)")
    ap.add_argument("--json", type=Path, help="write every run's figures to this JSON file")
    args = ap.parse_args(argv)
    args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    args.workloads = [w.strip() for w in args.workloads.split(",") if w.strip()]
    if unknown := set(args.workloads) - set(projects.WORKLOADS):
        ap.error(f"unknown workload(s): {', '.join(sorted(unknown))}")
    variants = list(VARIANTS)
    if args.variants:
        wanted = args.variants.split(",")
        variants = [v for name in wanted for v in VARIANTS if v.name == name]
        if len(variants) != len(wanted):
            ap.error(f"--variants: known are {', '.join(v.name for v in VARIANTS)}")
    if args.quick:
        args.sizes, args.repeats, variants = [1000], 1, variants[:1]
    variants += [parse_variant(text) for text in args.variant]
    variants += [Variant(f"{variants[0].name}@{rev}", dict(variants[0].env), rev) for rev in args.compare]
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="readinglist-bench-"))
    cpu_before = steps.cpu_probe()
    try:
        runs, extra = measure(args, variants, workdir)
    finally:
        shutil.rmtree(workdir / "old", ignore_errors=True)  # earlier runs' output (projects.cold_project)
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    cpu_after = steps.cpu_probe()
    rows = report.summarise(runs, variants[0].name)
    print(report.table(rows))
    print()
    if parts := report.parts_table(rows, variants[0].name):
        print("Site size by part (the base variant, medians):\n")
        print(parts)
        print()
    for line in report.verdicts(rows, variants[0].name, runs):
        print("- " + line)
    if s := extra.get("search"):
        print(f"- search ({s['workload']} at {s['n']:,}, '{s['query']}'): first results {s['after_typing_s']:.2f} s "
              f"after typing (target <= 1.5 s), {s['open_to_result_s']:.2f} s from opening the page, "
              f"{s['fetched_kb']:.0f} KB fetched, {s['results_shown']} results, links open paper pages: "
              f"{s['links_ok']}")
    if f := extra.get("filter"):
        print(f"- All papers filter ({f['workload']} at {f['n']:,}, tag '{f['tag']}', {f['tagged']:,} papers): first "
              f"results {f['after_choice_s']:.2f} s after choosing it (target <= 1 s), {f['fetched_kb']:.0f} KB "
              f"fetched; a shared filtered address shows its first row {f['shared_link_s']:.2f} s after opening")
    for key, e in extra.items():
        if not key.startswith("edit"):
            continue
        every = ", ".join(f"{t:.2f}" for t in e.get("edit_all_s", [e["edit_s"]]))
        print(f"- {key.replace('edit', 'edit loop', 1)} ({e['workload']} at {e['n']:,}, {e['edited']}): shown "
              f"{e['edit_s']:.2f} s after saving, the median of {every} (target <= 2 s); serve start-up "
              f"{e['startup_s']:.0f} s")
    print("- variants: " + "; ".join(f"{v.name} = {v.env or 'as is'}" + (f" at {v.rev}" if v.rev else "")
                                     for v in variants))
    print(f"- the CPU before and after: a fixed Python loop took {cpu_before:.2f} s and {cpu_after:.2f} s "
          "(every figure moves with it on this shared machine)")
    print("\nEvery run (the table holds their medians):")
    for line in report.raw_lines(runs):
        print("- " + line)
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, **extra}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
