"""Related papers over the seeds: the quality bar, the reasons, the limits, the exports."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from generator.build import BuildResult
from generator.enrich.related import Settings, related_papers, shared_terms
from generator.model import Paper, SourceRef

# Pairs that must be in each other's top 5 (the quality bar).
REQUIRED = [
    ("KL for a KL: On-Policy Distillation with Control Variate Baseline",
     "Prune-OPD: Efficient and Reliable On-Policy Distillation for Long-Horizon Reasoning"),
    ("PersonalizedRouter: Personalized LLM Routing via Graph-based User Preference Modeling",
     "Flexible Routing via Uncertainty Decomposition"),
    ("Toward Privileged Foundation Models:LUPI for Accelerated and Improved Learning",
     "Pre-trained Tabular Foundation Models as Versatile Summary Networks for Neural Posterior Estimation"),
    ("Neural Operators as Efficient Function Interpolators",
     "NSPOD: Accelerating Krylov solvers via DeepONet-learned POD subspaces"),
]

# Pairs judged from the abstracts (same method, problem or setting), by title prefix.
JUDGED = [
    ("Compressed Decentralized Momentum", "\\mathsf{VISTA}"),           # decentralized SGD
    ("Compressed Decentralized Momentum", "ADKO"),                      # decentralized, compression
    ("\\mathsf{VISTA}", "Defending Against Unforeseen"),                # adversaries, robustness
    ("Generative Feature Training", "Distributional simplicity bias"),  # generative models, landscapes
    ("Distributional simplicity bias", "Training-Induced Escape"),      # training dynamics theory
    ("One-Shot Federated Distillation", "On the Tradeoffs of On-Device"),  # federated learning
    ("The Minimax Rate of Perturbed", "Flexible Routing via Uncertainty"),  # higher-order predictors
    ("DeepSeek-R1 Thoughtology", "Untitled paper by Nils"),             # LM reasoning traces
    ("POETS", "ADKO"),                                                  # Thompson sampling / GP-UCB
    ("MatryoshkaLoRA", "POETS"),                                        # LoRA
    ("Interactive Trajectory Planning", "Efficient Verification of Neural Control"),  # control
    ("GRASP", "On the Tradeoffs of On-Device"),                         # anomaly detection
    ("Actor-Critic Algorithm", "KL for a KL"),                          # policy gradient, value baseline
    ("Efficient Knowledge Injection", "KL for a KL"),                   # distillation of LLMs
    ("RelAgent", "Pre-trained Tabular Foundation Models"),              # tabular learning
    ("Program Semantic Inequivalence", "Text-to-CAD"),                  # code generation and tests
    ("L2G: Repurposing Language Models", "PPI-Net"),                    # computational biology
    ("Beyond Confidence", "Untitled paper by Nils"),                    # LLM self-assessment, uncertainty
]


def _top5(build: BuildResult) -> tuple[dict[str, Paper], dict[str, set[str]]]:
    by_title = {p.title: p for p in build.library.papers}
    top = {p.id: {r.id for r in p.related[:5]} for p in build.library.papers}
    return by_title, top


def _find(by_title: dict[str, Paper], prefix: str) -> Paper:
    hits = [p for t, p in by_title.items() if t.startswith(prefix)]
    assert len(hits) == 1, prefix
    return hits[0]


def test_required_pairs_are_in_each_others_top5(seed_build: BuildResult) -> None:
    by_title, top = _top5(seed_build)
    for a, b in REQUIRED:
        pa, pb = by_title[a], by_title[b]
        assert pb.id in top[pa.id], f"{b!r} not in top 5 of {a!r}"
        assert pa.id in top[pb.id], f"{a!r} not in top 5 of {b!r}"


def test_recall_of_judged_pairs(seed_build: BuildResult, capsys: pytest.CaptureFixture[str]) -> None:
    by_title, top = _top5(seed_build)
    found, missed = 0, []
    directions = 0
    for a, b in REQUIRED + JUDGED:
        pa, pb = _find(by_title, a), _find(by_title, b)
        for x, y in ((pa, pb), (pb, pa)):
            directions += 1
            if y.id in top[x.id]:
                found += 1
            else:
                missed.append(f"{y.title[:40]!r} not in top 5 of {x.title[:40]!r}")
    recall = found / directions
    with capsys.disabled():
        print(f"\nrelated papers: recall@5 of {len(REQUIRED) + len(JUDGED)} judged pairs (both directions) = "
              f"{found}/{directions} = {recall:.2f}" + "".join(f"\n  missed: {m}" for m in missed))
    assert recall >= 0.85


def test_reasons_name_shared_topics_and_terms(seed_build: BuildResult) -> None:
    by_title, _ = _top5(seed_build)
    kl, prune = by_title[REQUIRED[0][0]], by_title[REQUIRED[0][1]]
    link = next(r for r in kl.related if r.id == prune.id)
    assert link.why.startswith("shared topics: On-policy distillation, ")
    assert "shared terms: opd" in link.why
    assert kl.related[0].id == prune.id  # the closest paper comes first


def test_related_are_sorted_unique_and_never_self(seed_build: BuildResult) -> None:
    for p in seed_build.library.papers:
        scores = [r.score for r in p.related]
        assert scores == sorted(scores, reverse=True)
        assert len({r.id for r in p.related}) == len(p.related)
        assert p.id not in {r.id for r in p.related}
        assert 1 <= len(p.related) <= 5
        assert all(r.score >= 0.08 for r in p.related)


def test_papers_json_carries_related_keys(seed_build: BuildResult) -> None:
    records = json.loads(seed_build.files["papers.json"])
    kl = next(r for r in records if r["title"].startswith("KL for a KL"))
    keys = {r["key"] for r in records}
    assert kl["related"][0]["key"] == "yang2026pruneopd"
    assert all(r["key"] in keys and 0 < r["score"] <= 1 and r["why"] for r in kl["related"])


def _paper(n: int, text: str, tags: tuple[str, ...] = ()) -> Paper:
    return Paper(id=f"p{n}", title=f"Paper {n}", authors=("A B",), abstract=text,
                 origin=SourceRef("x.txt", n), tags=tags)


def test_count_min_score_and_chunking_agree() -> None:
    texts = ["graph neural networks for molecules", "graph neural networks for proteins",
             "bandits with regret bounds", "regret bounds for contextual bandits", "unrelated poetry words"]
    papers = [_paper(i, t) for i, t in enumerate(texts * 3)]
    papers = [replace(p, id=f"p{i}") for i, p in enumerate(papers)]
    small = related_papers(papers, Settings(count=2, min_score=0.0, chunk=4))
    big = related_papers(papers, Settings(count=2, min_score=0.0, chunk=1000))
    assert small == big
    assert all(len(v) == 2 for v in small.values())
    strict = related_papers(papers, Settings(count=5, min_score=0.99))
    assert all(r.score >= 0.99 for v in strict.values() for r in v)
    assert related_papers(papers[:1]) == {"p0": ()}


def test_shared_topics_boost_and_explain() -> None:
    a = _paper(1, "alpha beta gamma", ("Federated learning",))
    b = _paper(2, "delta epsilon zeta", ("Federated learning",))
    c = _paper(3, "eta theta iota", ())
    d = _paper(4, "kappa lambda mu", ())
    got = related_papers([a, b, c, d], Settings(count=1, min_score=0.01))
    assert [r.id for r in got["p1"]] == ["p2"]
    assert got["p1"][0].why == "shared topics: Federated learning"
    assert got["p3"] == ()


def test_shared_terms_prefer_phrases_without_repeating_words() -> None:
    import numpy as np
    import scipy.sparse as sp

    terms = np.array(["distillation", "policy distillation", "student"], dtype=object)
    text = sp.csr_matrix(np.array([[0.5, 0.6, 0.2], [0.5, 0.7, 0.3]], dtype=np.float32))
    assert shared_terms(text, terms, 0, 1) == ["policy distillation", "student"]


def test_count_and_min_score_come_from_mkdocs_yml(project) -> None:  # type: ignore[no-untyped-def]
    from generator.build import build
    from generator.config import load_config

    config = project()
    path = config.root / "mkdocs.yml"
    text = path.read_text("utf-8").replace("count: 5", "count: 2").replace("min_score: 0.08", "min_score: 0.3")
    path.write_text(text, "utf-8")
    result = build(load_config(path), write=False)
    lengths = [len(p.related) for p in result.library.papers]
    assert max(lengths) == 2 and min(lengths) == 0
    assert all(r.score >= 0.3 for p in result.library.papers for r in p.related)
    kl = next(p for p in result.library.papers if p.title.startswith("KL for a KL"))
    assert [result.library.by_id()[r.id].key for r in kl.related] == ["yang2026pruneopd"]
