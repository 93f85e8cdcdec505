"""The benchmark's one table (medians over the repeats) and every run's raw figures under it.

Ratios are taken inside a round (each variant against the stock build and the base variant of the
same round, built minutes apart), then their median over the rounds: this shared machine's speed
moves by a third within a minute, and pairs built close together see the same machine."""

from __future__ import annotations

import statistics
from typing import Any

STOCK = "stock"
TARGET_VS_STOCK = 1.25
# Issue 46: a year of arXiv on GitHub Pages.
TARGET_KB_PER_PAPER = 10
TARGET_COLD_VS_STOCK = 2.5
TARGET_NEXT_DAY_VS_STOCK = 1.0


def fmt(value: float | None, spec: str = ".2f") -> str:
    return "—" if value is None else format(value, spec)


def _median(values: list[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return statistics.median(got) if got else None


def _in_round(runs: list[dict[str, Any]], workload: str, n: int, top: str, key: str, bottom: str,
              bottom_key: str = "whole") -> float | None:
    """The median over rounds of run `top`'s `key` over run `bottom`'s `bottom_key` (its whole
    build; stock MkDocs has no other), in one round."""
    by_round = {(r["variant"], r["round"]): r for r in runs if r["workload"] == workload and r["n"] == n}
    ratios = [r[key] / by_round[(bottom, rnd)][bottom_key] for (v, rnd), r in by_round.items()
              if v == top and r.get(key) is not None and by_round.get((bottom, rnd), {}).get(bottom_key)]
    return _median(ratios)


def summarise(runs: list[dict[str, Any]], base: str) -> list[dict[str, Any]]:
    """One row per (workload, N, variant), in the order first measured."""
    rows: dict[tuple[str, int, str], dict[str, Any]] = {}
    for r in runs:
        key = (r["workload"], r["n"], r["variant"])
        rows.setdefault(key, {"workload": r["workload"], "n": r["n"], "variant": r["variant"], "runs": []})
        rows[key]["runs"].append(r)
    out = []
    for (workload, n, variant), row in rows.items():
        rs = row["runs"]
        for name in ("gen", "mkdocs", "whole", "peak_mb", "nochange", "rewritten", "site_bytes", "papers",
                     "gen_warm", "whole_warm", "download_bytes", "next_gen", "next_mkdocs", "next_whole",
                     "mkdocs_peak_mb"):
            row[name] = _median([x.get(name) for x in rs])
        row["next_vs_stock"] = _in_round(runs, workload, n, variant, "next_whole", STOCK, "next_whole")
        row["parts"] = {part: _median([x.get("parts", {}).get(part) for x in rs])
                        for part in {p for x in rs for p in x.get("parts", {})}}
        row["vs_stock"] = _in_round(runs, workload, n, variant, "whole", STOCK)
        row["warm_vs_stock"] = _in_round(runs, workload, n, variant, "whole_warm", STOCK)
        vs_base = None if variant == STOCK else _in_round(runs, workload, n, variant, "whole", base)
        row["vs_base"] = None if vs_base is None else vs_base - 1
        row["share"] = _median([x["gen"] / x["whole"] for x in rs if x.get("gen") is not None])
        row["same_output"] = same_output(rs)
        out.append(row)
    return out


def same_output(runs: list[dict[str, Any]]) -> str:
    """`yes` when every round's docs folder and site were the base's of that round (oracle.py);
    `no: PATH (round K)` with the first differing path (`no, by design: ...` for a variant that
    changes the pages on purpose, variants.py `same_bytes`); `—` for the base and the stock site."""
    for r in runs:
        if r.get("same_output") is False:
            why = "no" if r.get("same_by_design", True) else "no, by design"
            return f"{why}: {r['differs_at']} (round {r['round'] + 1})"
    return "yes" if any(r.get("same_output") for r in runs) else "—"


HEAD = ["workload", "N", "variant", "same output", "generator s", "mkdocs build s", "whole build s", "vs stock",
        "vs base", "generator share", "generator peak MB", "no-change s (files)", "site KB/paper",
        "whole, caches kept s (vs stock)", "of which downloads KB/paper", "next-day deploy s (vs stock)"]


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    for r in rows:
        stock = r["variant"] == STOCK
        cells = [
            r["workload"], f"{r['n']:,}", r["variant"], r["same_output"], fmt(r["gen"]), fmt(r["mkdocs"], ".1f"),
            fmt(r["whole"], ".1f"),
            fmt(r["vs_stock"]), "—" if stock or r["vs_base"] is None else f"{100 * r['vs_base']:+.1f} %",
            "—" if r["share"] is None else f"{100 * r['share']:.1f} %", fmt(r["peak_mb"], ".0f"),
            "—" if stock else f"{fmt(r['nochange'])} ({fmt(r['rewritten'], '.0f')})",
            fmt(r["site_bytes"] / r["n"] / 1024 if r["site_bytes"] is not None else None, ".1f"),
            "—" if stock or r.get("whole_warm") is None
            else f"{fmt(r['whole_warm'], '.1f')} ({fmt(r['warm_vs_stock'])})",
            fmt(r["download_bytes"] / r["n"] / 1024 if r.get("download_bytes") is not None else None, ".1f"),
            f"{fmt(r.get('next_whole'), '.1f')}" + ("" if stock or r.get("next_vs_stock") is None
                                                     else f" ({fmt(r['next_vs_stock'])})"),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parts_table(rows: list[dict[str, Any]], base: str) -> str:
    """The base variant's site by part (generator/site/size.py's parts), KB a paper, one column
    per workload and size; the stock site's total for comparison."""
    cols = [r for r in rows if r["variant"] == base and r.get("parts")]
    if not cols:
        return ""
    names = sorted({p for r in cols for p in r["parts"]}, key=lambda p: -max(r["parts"].get(p) or 0 for r in cols))
    lines = ["| part | " + " | ".join(f"{r['workload']} {r['n']:,} KB/paper" for r in cols) + " |",
             "|---|" + "---|" * len(cols)]
    for name in names:
        lines.append(f"| {name} | " + " | ".join(fmt((r["parts"].get(name) or 0) / r["n"] / 1024) for r in cols) + " |")
    lines.append("| **all** | " + " | ".join(fmt(sum(v or 0 for v in r["parts"].values()) / r["n"] / 1024)
                                            for r in cols) + " |")
    stock = {(r["workload"], r["n"]): r for r in rows if r["variant"] == STOCK}
    lines.append("| stock MkDocs site, all | " + " | ".join(
        fmt(stock[(r["workload"], r["n"])]["site_bytes"] / r["n"] / 1024) if (r["workload"], r["n"]) in stock else "—"
        for r in cols) + " |")
    return "\n".join(lines)


def raw_lines(runs: list[dict[str, Any]]) -> list[str]:
    out = []
    for r in runs:
        head = f"{r['workload']} N={r['n']:,} round {r['round'] + 1} {r['variant']}:"
        if r["variant"] == STOCK:
            nxt = (f", with the next day's papers {r['next_whole']:.2f} s ({r.get('next_cpu') or 0:.2f} s CPU)"
                   if r.get("next_whole") else "")
            out.append(f"{head} mkdocs build {r['mkdocs']:.2f} s ({r['mkdocs_cpu']:.2f} s CPU){nxt}, "
                       f"site {r['site_bytes'] / 1e6:.1f} MB")
            continue
        same = ("" if "same_output" not in r else ", same output as the base" if r["same_output"]
                else f", output differs from the base's at {r['differs_at']}"
                + ("" if r.get("same_by_design", True) else " (by design)"))
        papers = ("" if r["papers"] == r["n"] else ", no build/papers.json" if r["papers"] is None
                  else f", papers.json lists {r['papers']} papers, not {r['n']}!")
        out.append(f"{head} generator {r['gen']:.2f} s ({r['gen_cpu']:.2f} s CPU, {r['peak_mb']:.0f} MB), "
                   f"no change {r['nochange']:.2f} s ({r['rewritten']} files), mkdocs build {r['mkdocs']:.2f} s "
                   f"({r['mkdocs_cpu']:.2f} s CPU), whole {r['whole']:.2f} s, generator with caches kept "
                   f"{r.get('gen_warm') or 0:.2f} s{papers}{same}"
                   + (f", next-day deploy {r['next_gen']:.2f} + {r['next_mkdocs']:.2f} s "
                      f"({r.get('next_cpu') or 0:.2f} s CPU)" if r.get("next_whole") else ""))
    return out


def verdicts(rows: list[dict[str, Any]], base: str, runs: list[dict[str, Any]]) -> list[str]:
    """The redesign's bounds (issue #21) for the base variant: whole build <= 1.25 x stock and
    <= 1.25 x each `--compare` revision's, cold and with the caches kept; site <= 25 KB a paper."""
    out = []
    for r in rows:
        if r["variant"] != base:
            continue
        for other in sorted({x["variant"] for x in runs if x["variant"].startswith(f"{base}@")}):
            for label, key in (("cold", "whole"), ("caches kept", "whole_warm")):
                # Like with like: the other revision's build cold, or with its caches kept.
                ratio = _in_round(runs, r["workload"], r["n"], base, key, other, key)
                ok = "met" if ratio is not None and ratio <= TARGET_VS_STOCK else "NOT met"
                out.append(f"{r['workload']} at {r['n']:,}: whole build, {label}, {fmt(ratio)} x {other} "
                           f"(target <= {TARGET_VS_STOCK}: {ok})")
        if r["site_bytes"] is not None and r.get("download_bytes") is not None:
            site, dl = r["site_bytes"] / r["n"] / 1024, r["download_bytes"] / r["n"] / 1024
            out.append(f"{r['workload']} at {r['n']:,}: site {site:.1f} KB/paper (target <= {TARGET_KB_PER_PAPER}: "
                       f"{'met' if site <= TARGET_KB_PER_PAPER else 'NOT met'}), of which .bib/.json/.ris "
                       f"downloads {dl:.1f}, the rest {site - dl:.1f}")
        if r["vs_stock"] is not None:
            ok = "met" if r["vs_stock"] <= TARGET_COLD_VS_STOCK else "NOT met"
            out.append(f"{r['workload']} at {r['n']:,}: cold first build {r['vs_stock']:.2f} x stock MkDocs "
                       f"(target <= {TARGET_COLD_VS_STOCK}: {ok})")
        if r.get("peak_mb") is not None and r.get("mkdocs_peak_mb") is not None:
            both = r["peak_mb"] + r["mkdocs_peak_mb"]
            out.append(f"{r['workload']} at {r['n']:,}: peak memory, generator {r['peak_mb']:.0f} MB and mkdocs build "
                       f"(MkDocs and Pagefind) {r['mkdocs_peak_mb']:.0f} MB, {both / 1024:.1f} GB together "
                       f"(target < 8 GB: {'met' if both < 8 * 1024 else 'NOT met'})")
        if r.get("next_vs_stock") is not None:
            ok = "met" if r["next_vs_stock"] <= TARGET_NEXT_DAY_VS_STOCK else "NOT met"
            out.append(f"{r['workload']} at {r['n']:,}: next day's deploy ({r['next_whole']:.1f} s: a digest of new "
                       f"papers, fresh build/ and site/, .readinglist-cache/ restored) {r['next_vs_stock']:.2f} x "
                       f"stock MkDocs on the same papers (target <= {TARGET_NEXT_DAY_VS_STOCK}: {ok})")
    for r in rows:
        if r["variant"] == base and r["vs_stock"] is not None:
            ok = "met" if r["vs_stock"] <= TARGET_VS_STOCK else "NOT met"
            out.append(f"{r['workload']} at {r['n']:,}: whole build {r['vs_stock']:.2f} x stock MkDocs "
                       f"(target <= {TARGET_VS_STOCK}: {ok}); no-change rebuild {fmt(r['nochange'])} s, "
                       f"{fmt(r['rewritten'], '.0f')} files rewritten (target <= 1.5 s, 0 files); with the "
                       f"caches kept (references formatted before) {fmt(r.get('warm_vs_stock'))} x stock")
    return out
