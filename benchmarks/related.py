"""Benchmark: topic tags and related papers for N synthetic papers (default 10,000).

Abstracts have 150-250 words drawn from a shared vocabulary: English function words, a Zipf-like
pool of common research words, a cluster-specific pool (papers of one cluster share a subject),
and phrases of two taxonomy topics per cluster. Prints wall and CPU time of each stage and the
peak resident memory. Target on the 2-core dev machine: <= 10 s and <= 1 GB for 10,000 papers.

    .venv/bin/python benchmarks/related.py [--papers 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.enrich.related import Settings, related_papers  # noqa: E402
from generator.enrich.topics import load_taxonomy, tag_papers  # noqa: E402
from generator.errors import Problems  # noqa: E402
from generator.model import Library, Paper, SourceRef  # noqa: E402
from generator.render.map import render_map  # noqa: E402

FUNCTION_WORDS = ("the of and to in a is that for we on with as by this are our from an be which "
                  "it can these at or has have not but than its their such both each").split()


def _word(rng: random.Random) -> str:
    return "".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(rng.randint(2, 4)))


def synthetic_papers(n: int, seed: int, topic_phrases: list[tuple[str, ...]]) -> list[Paper]:
    rng = random.Random(seed)
    vocab = list(dict.fromkeys(_word(rng) for _ in range(14000)))
    common, rest = vocab[:1000], vocab[1000:]
    clusters = max(20, n // 100)
    pools = [rng.sample(rest, 150) for _ in range(clusters)]
    cluster_topics = [rng.sample(range(len(topic_phrases)), 2) for _ in range(clusters)]
    papers = []
    for i in range(n):
        c = rng.randrange(clusters)
        words: list[str] = []
        length = rng.randint(150, 250)
        while len(words) < length:
            roll = rng.random()
            if roll < 0.35:
                words.append(rng.choice(FUNCTION_WORDS))
            elif roll < 0.60:
                words.append(common[min(int(rng.paretovariate(1.0)) - 1, len(common) - 1)])
            elif roll < 0.97:
                words.append(rng.choice(pools[c]))
            else:
                words.extend(rng.choice(topic_phrases[rng.choice(cluster_topics[c])]).split())
        title = " ".join(rng.choice(pools[c]) for _ in range(rng.randint(5, 10))).capitalize()
        papers.append(Paper(id=f"synthetic:{i}", title=title, authors=("Ada Lovelace",),
                            abstract=" ".join(words[:length]) + ".", origin=SourceRef("bench.txt", i + 1),
                            categories=("cs.LG",)))
    return papers


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    taxonomy = load_taxonomy(ROOT / "content" / "topics.yml", Problems())
    phrases = [t.phrases for t in taxonomy.topics if t.phrases]
    papers = synthetic_papers(args.papers, args.seed, phrases)
    words = sum(len(p.abstract.split()) for p in papers) / len(papers)
    base = peak_mb()
    print(f"{len(papers)} synthetic papers, {words:.0f} words per abstract on average, "
          f"{len(taxonomy.topics)} topics; peak memory before: {base:.0f} MB")

    wall, cpu = time.perf_counter(), time.process_time()
    tagged = tag_papers(papers, taxonomy)
    t_wall, t_cpu = time.perf_counter() - wall, time.process_time() - cpu

    wall, cpu = time.perf_counter(), time.process_time()
    links = related_papers(tagged, Settings(count=5, min_score=0.08))
    r_wall, r_cpu = time.perf_counter() - wall, time.process_time() - cpu

    with_links = sum(1 for v in links.values() if v)
    tags = sum(len(p.tags) for p in tagged) / len(tagged)
    print(f"topics:  {t_wall:6.2f} s wall, {t_cpu:6.2f} s CPU  ({tags:.1f} tags per paper)")
    print(f"related: {r_wall:6.2f} s wall, {r_cpu:6.2f} s CPU  ({with_links} papers with related links)")
    total = t_wall + r_wall
    peak = peak_mb()
    print(f"total:   {total:6.2f} s wall; peak memory {peak:.0f} MB ({peak - base:.0f} MB above the start)")
    ok = total <= 10 and peak <= 1024
    from dataclasses import replace

    linked = [replace(p, related=links[p.id], slug=f"p{n}") for n, p in enumerate(tagged)]
    wall = time.perf_counter()
    page = render_map(Library(papers=linked, topics=tuple((t.name, t.description) for t in taxonomy.topics)))
    print(f"map page (not part of the target): {time.perf_counter() - wall:.2f} s, "
          f"{page.count('rl-node--map')} of {len(linked)} papers drawn, {len(page) // 1024} KiB")
    print("target (<= 10 s, <= 1 GB): " + ("met" if ok else "NOT met")
          + " (wall time counts other load on the machine; compare the CPU figures)")


if __name__ == "__main__":
    main()
