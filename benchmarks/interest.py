"""Benchmark: the cost of interest (enrich/interest.py) at N papers, and scikit-learn's TF-IDF
against the project's own (enrich/related/terms.py) on the same texts ("one text model", issue 42).

The papers are a workload's (synth or seeded, as `run.py` makes them), read, merged and tagged as
a build does. Each round times, one after the other (so that ratios are taken seconds apart on
this shared machine): the project's TF-IDF of the related papers, scikit-learn's TfidfVectorizer
set up to make the same matrix (unigrams and bigrams, the same stop words, min_df 2, max_df 0.5,
sublinear tf), the interest model with `--signals` papers read, and the fallback without signals.
scikit-learn's import is timed apart, in a fresh process (a build pays it once, when a note
gives a signal). Prints one table of medians and the ratios.

    .venv/bin/python benchmarks/interest.py [--papers 10000] [--workload seeded] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import projects  # noqa: E402

from generator.enrich.interest import interest_scores  # noqa: E402
from generator.enrich.merge import merge  # noqa: E402
from generator.enrich.related import _text_matrix, paper_text  # noqa: E402
from generator.enrich.related.terms import STOP_SET  # noqa: E402
from generator.enrich.topics import load_taxonomy, paper_tag_lists  # noqa: E402
from generator.errors import Problems  # noqa: E402
from generator.sources import read_all  # noqa: E402

IMPORT = "import time; t = time.perf_counter(); from sklearn.linear_model import LogisticRegression; " \
         "print(time.perf_counter() - t)"


def sklearn_tfidf(texts: list[str]):  # type: ignore[no-untyped-def]
    """TfidfVectorizer made to match related/terms.py's matrix (token pattern, stop words removed
    before pairing, document frequencies, sublinear tf, unit rows)."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(ngram_range=(1, 2), stop_words=sorted(STOP_SET), min_df=2, max_df=0.5,
                                 sublinear_tf=True, dtype=np.float32, token_pattern=r"(?u)\b\w\w+\b")
    return vectorizer.fit_transform(texts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--papers", type=int, default=10000)
    ap.add_argument("--workload", default="seeded", choices=projects.WORKLOADS)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--signals", type=int, default=20, help="papers marked read (default 20)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="readinglist-interest-") as tmp:
        seeds = Path(tmp) / "seeds"
        seeds.mkdir()
        projects.write_seeds(args.workload, args.papers, seeds, args.seed)
        papers = merge(read_all(seeds, Path(tmp), Problems())).papers
    taxonomy = load_taxonomy(ROOT / "content" / "topics.yml", Problems())
    tag_lists = paper_tag_lists(papers, taxonomy)
    texts = [paper_text(p) for p in papers]
    # The curator read papers of one subject: the first ones whose title names the commonest topic.
    topic = max(taxonomy.names, key=lambda name: sum(name in tags for tags in tag_lists))
    chosen = [p.id for p, tags in zip(papers, tag_lists, strict=True) if topic in tags][:args.signals]
    signals = dict.fromkeys(chosen, 1)
    topics = taxonomy.names

    import sklearn.feature_extraction.text  # imported before the clock: the import is timed apart
    import sklearn.linear_model  # noqa: F401

    times: dict[str, list[float]] = {"own TF-IDF": [], "scikit-learn TF-IDF": [], "interest (signals)": [],
                                     "interest (fallback)": [], "scikit-learn import": []}
    shapes: dict[str, tuple[int, int]] = {}
    for _ in range(args.rounds):
        t = time.perf_counter()
        own, terms = _text_matrix(texts)
        times["own TF-IDF"].append(time.perf_counter() - t)
        shapes["own TF-IDF"] = own.shape
        t = time.perf_counter()
        theirs = sklearn_tfidf(texts)
        times["scikit-learn TF-IDF"].append(time.perf_counter() - t)
        shapes["scikit-learn TF-IDF"] = theirs.shape
        t = time.perf_counter()
        interest_scores(papers, tag_lists, own, terms, signals, {}, topics)
        times["interest (signals)"].append(time.perf_counter() - t)
        t = time.perf_counter()
        interest_scores(papers, tag_lists, own, terms, {}, {}, topics)
        times["interest (fallback)"].append(time.perf_counter() - t)
        out = subprocess.run([sys.executable, "-c", IMPORT], capture_output=True, text=True, check=True)
        times["scikit-learn import"].append(float(out.stdout))

    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"interest and TF-IDF, {len(papers)} papers ({args.workload}), {args.signals} signals on "
          f"'{topic}', medians of {args.rounds} interleaved rounds")
    print(f"{'step':28} {'median s':>9}  rounds")
    for name, values in times.items():
        print(f"{name:28} {med[name]:9.2f}  " + " ".join(f"{v:.2f}" for v in values))
    ratios = [b / a for a, b in zip(times["own TF-IDF"], times["scikit-learn TF-IDF"], strict=True)]
    print(f"scikit-learn / own TF-IDF: {statistics.median(ratios):.2f}x (per round: "
          + ", ".join(f"{r:.2f}" for r in ratios) + f"); columns {shapes['own TF-IDF'][1]} / "
          f"{shapes['scikit-learn TF-IDF'][1]}")
    print(f"interest with signals, import included: {med['interest (signals)'] + med['scikit-learn import']:.2f} s")


if __name__ == "__main__":
    main()
