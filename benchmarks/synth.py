"""Synthetic digests for the benchmark: N papers in both seed formats, deterministic for a seed.

Realistic on the axes that cost time: 150-250-word abstracts, 2-12 authors drawn from a shared
pool (so names repeat across papers), titles and abstracts built from a shared vocabulary of
research topics (so TF-IDF related papers and topics have real work to do), a little `$...$`
math, truncated author lists with an `All authors` line, cross-lists, anonymous submissions and
papers that appear twice (a submission later accepted), which exercises merging.

    python benchmarks/synth.py 1000 /tmp/seeds     # writes the digest files into /tmp/seeds
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import string
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

# Research topics: each a list of words and phrases papers on it share.
TOPICS: dict[str, list[str]] = {
    "diffusion": ["diffusion models", "denoising", "score matching", "sampling steps", "noise schedule",
                  "image synthesis", "guidance", "latent diffusion", "reverse process", "generative quality"],
    "llm-reasoning": ["large language models", "chain-of-thought", "reasoning traces", "mathematical reasoning",
                      "test-time compute", "verifiers", "self-consistency", "reward models", "benchmarks",
                      "prompting"],
    "rlhf": ["reinforcement learning from human feedback", "preference optimization", "reward hacking",
             "policy gradient", "KL regularization", "alignment", "human preferences", "DPO", "PPO",
             "on-policy distillation"],
    "federated": ["federated learning", "clients", "communication rounds", "data heterogeneity",
                  "differential privacy", "aggregation", "personalization", "secure aggregation",
                  "client drift", "non-IID data"],
    "graph": ["graph neural networks", "message passing", "node classification", "oversmoothing",
              "graph transformers", "link prediction", "molecular graphs", "spectral filters",
              "expressivity", "Weisfeiler-Leman test"],
    "optimization": ["stochastic gradient descent", "convergence rate", "nonconvex optimization", "momentum",
                     "adaptive methods", "learning rate schedules", "Hessian", "saddle points",
                     "variance reduction", "sharpness"],
    "robustness": ["adversarial examples", "certified robustness", "distribution shift", "adversarial training",
                   "out-of-distribution detection", "perturbations", "attack success rate", "backdoors",
                   "red-teaming", "robust accuracy"],
    "causal": ["causal inference", "structural causal models", "interventions", "counterfactuals",
               "treatment effects", "confounding", "causal discovery", "identifiability",
               "instrumental variables", "do-calculus"],
    "rl": ["reinforcement learning", "value functions", "exploration", "offline reinforcement learning",
           "model-based planning", "sample efficiency", "Markov decision processes", "Q-learning",
           "policy evaluation", "regret bounds"],
    "vision": ["vision transformers", "image classification", "object detection", "segmentation",
               "self-supervised pretraining", "contrastive learning", "data augmentation", "ImageNet",
               "visual representations", "masked autoencoders"],
    "speech": ["speech recognition", "audio tokens", "speaker verification", "text-to-speech",
               "acoustic models", "spectrograms", "streaming inference", "word error rate",
               "multilingual speech", "voice conversion"],
    "bayes": ["Bayesian inference", "variational inference", "posterior approximation", "Gaussian processes",
              "uncertainty quantification", "Markov chain Monte Carlo", "priors", "evidence lower bound",
              "calibration", "Laplace approximation"],
    "efficiency": ["quantization", "pruning", "low-rank adaptation", "knowledge distillation", "sparsity",
                   "memory footprint", "inference latency", "mixture of experts", "parameter-efficient "
                   "fine-tuning", "throughput"],
    "theory": ["generalization bounds", "sample complexity", "PAC learning", "kernel regime", "overparameterization",
               "implicit bias", "double descent", "Rademacher complexity", "minimax rates", "scaling laws"],
    "fairness": ["algorithmic fairness", "demographic parity", "group robustness", "bias mitigation",
                 "protected attributes", "equalized odds", "disparate impact", "fair representations",
                 "auditing", "subgroup performance"],
    "timeseries": ["time series forecasting", "temporal dependencies", "anomaly detection", "seasonality",
                   "long-horizon prediction", "state space models", "sensor data", "irregular sampling",
                   "probabilistic forecasts", "spatiotemporal models"],
    "science": ["molecular property prediction", "protein structure", "physics-informed neural networks",
                "partial differential equations", "materials discovery", "climate modeling",
                "neural operators", "drug discovery", "simulation", "equivariance"],
    "privacy": ["membership inference", "differential privacy", "machine unlearning", "data extraction",
                "privacy budget", "synthetic data", "gradient leakage", "private training",
                "anonymization", "model inversion"],
    "agents": ["language agents", "tool use", "multi-agent systems", "planning", "web navigation",
               "agentic workflows", "memory modules", "environment feedback", "task decomposition",
               "autonomous agents"],
    "interpretability": ["mechanistic interpretability", "sparse autoencoders", "attribution methods",
                         "probing classifiers", "circuits", "feature visualization", "saliency maps",
                         "concept bottlenecks", "superposition", "explanations"],
    "recsys": ["recommender systems", "collaborative filtering", "user embeddings", "click-through rate",
               "sequential recommendation", "cold start", "ranking losses", "implicit feedback",
               "retrieval", "two-tower models"],
    "continual": ["continual learning", "catastrophic forgetting", "replay buffers", "task incremental learning",
                  "plasticity", "stability", "parameter isolation", "lifelong learning", "domain incremental "
                  "learning", "rehearsal"],
    "multimodal": ["vision-language models", "image captioning", "visual question answering", "cross-modal "
                   "alignment", "CLIP", "grounding", "hallucination", "multimodal instruction tuning",
                   "video understanding", "text-to-image retrieval"],
    "tabular": ["tabular data", "gradient boosting", "feature engineering", "missing values", "AutoML",
                "hyperparameter optimization", "categorical features", "tree ensembles", "benchmark suites",
                "neural tabular models"],
}

GENERIC_OPENERS = [
    "We study {a} in the setting of {b}.",
    "Recent work on {a} has shown strong results, but {b} remains poorly understood.",
    "This paper revisits {a} through the lens of {b}.",
    "Despite rapid progress in {a}, existing methods struggle with {b}.",
    "We introduce {name}, a framework that connects {a} and {b}.",
    "Understanding {a} is central to modern machine learning, especially for {b}.",
]
GENERIC_MIDDLE = [
    "Our method combines {a} with {b} and requires no additional supervision.",
    "We show that {a} admits a simple characterization in terms of {b}.",
    "The key idea is to treat {a} as a form of {b}, which yields a tractable objective.",
    "We provide a theoretical analysis showing that {a} improves {b} under mild assumptions.",
    "In contrast to prior approaches, {name} scales gracefully with {a} and handles {b}.",
    "We further propose a lightweight variant that reduces the cost of {a} while preserving {b}.",
    "Empirically, {a} interacts with {b} in ways that standard evaluations miss.",
    "Our analysis reveals a trade-off between {a} and {b} that explains several reported failures.",
    "A careful ablation isolates the contribution of {a} from that of {b}.",
    "The resulting estimator is unbiased for {a} and has lower variance than baselines based on {b}.",
    "We release code and a benchmark suite covering {a}, {b} and related tasks.",
]
GENERIC_CLOSERS = [
    "Experiments on {a} and {b} demonstrate consistent improvements over strong baselines.",
    "Across several benchmarks, {name} outperforms prior methods on {a} while remaining competitive on {b}.",
    "These results suggest that {a} is a promising direction for {b}.",
    "Our findings offer practical guidance for practitioners working on {a} and {b}.",
]
FILLER = ("in practice", "at scale", "for real-world data", "with limited compute", "under noisy labels",
          "in the low-data regime", "across model sizes", "without retraining")

FIRST = ("Wei Lucas Maria Anna Hiroshi Aisha Jonas Sofia Mateo Chen Priya Olga Tomás Fatima Noah Emma Yuki "
         "Ravi Elena Omar Laura Kenji Ines Pablo Sara Daniel Mei Ahmed Clara Luca Hannah Ivan Zoe Arjun Lena "
         "Diego Nadia Felix Amara Jakub Marta Sven Leila Hugo Isabel Jun Anders Chloé Mohammed Julia Kwame Ana "
         "Björn Eun-ji Rafael Tanvi Matteo Irina Samuel Aurélien Beatriz Minjae Zlatan").split()
LAST = ("Wang Li Zhang Liu Chen Müller Schmidt García Martínez Rossi Kim Park Tanaka Suzuki Singh Patel Kumar "
        "Ivanova Novak Kowalski Silva Santos Dubois Lefèvre Jensen Nielsen Johansson Andersson Okafor Mensah "
        "Haddad Nasser Cohen Levi Smith Johnson Brown Taylor Wilson Anderson Thomas Moore Jackson Martin Lee "
        "Thompson White Harris Clark Lewis Robinson Walker Young Allen King Wright Scott Green Baker Adams Nelson "
        "Hill Campbell Mitchell Roberts Carter Phillips Evans Turner Torres Parker Collins Edwards Stewart Flores "
        "Morris Nguyen Murphy Rivera Cook Rogers Morgan Peterson Cooper Reed Bailey Bell Gómez Kelly Howard Ward "
        "Cox Díaz Richardson Wood Watson Brooks Bennett Gray James Reyes Cruz Hughes Price Myers Long Foster "
        "Sanders Ross Morales Powell Sullivan Russell Ortiz Jenkins Gutiérrez Perry Butler Barnes Fisher Henderson "
        "Coleman Simmons Patterson Jordan Reynolds Hamilton Graham Kujanpää Ajanović Decelle Hertrich").split()
PARTICLE_LAST = ("van der Berg", "de Souza", "von Stein", "da Silva", "de la Cruz")

# Subject lines of the listing pages and how often each appears.
SUBJECTS = (["Machine Learning"] * 8 + ["Machine Learning · Cross-listed from cs.CL",
            "Machine Learning · Cross-listed from stat.ML", "Artificial Intelligence",
            "Computation and Language"])


@dataclass
class SynthPaper:
    title: str
    authors: list[str]
    abstract: list[str]        # paragraphs
    words: list[str]           # topic phrases used, for keyword lines in listings
    openreview: str


class Synth:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.topics = list(TOPICS)
        self.names = self._author_pool(3000)
        self.serial = 0
        self.used_ids: set[str] = set()

    def _author_pool(self, n: int) -> list[str]:
        pool: set[str] = set()
        while len(pool) < n:
            last = self.rng.choice(LAST) if self.rng.random() > 0.03 else self.rng.choice(PARTICLE_LAST)
            middle = f" {self.rng.choice(string.ascii_uppercase)}." if self.rng.random() < 0.15 else ""
            pool.add(f"{self.rng.choice(FIRST)}{middle} {last}")
        return sorted(pool)

    def _acronym(self) -> str:
        """A unique method name per paper, so titles never collide by accident."""
        self.serial += 1
        n, letters = self.serial * 7919 % 26**5, []
        for _ in range(5):
            n, r = divmod(n, 26)
            letters.append(string.ascii_uppercase[r])
        return "".join(letters) + (str(self.serial // 26**5) if self.serial >= 26**5 else "")

    def _openreview_id(self) -> str:
        alphabet = string.ascii_letters + string.digits
        while True:
            oid = "".join(self.rng.choice(alphabet) for _ in range(10))
            if oid not in self.used_ids:
                self.used_ids.add(oid)
                return oid

    def paper(self) -> SynthPaper:
        rng = self.rng
        main = rng.choice(self.topics)
        second = rng.choice(self.topics) if rng.random() < 0.6 else main
        vocab = TOPICS[main] * 2 + TOPICS[second]
        name = self._acronym()
        a, b = rng.sample(TOPICS[main], 2)
        patterns = [f"{name}: {a.capitalize()} for {b}",
                    f"{name}: On the Role of {a.title()} in {rng.choice(TOPICS[second]).title()}",
                    f"{a.capitalize()} Meets {rng.choice(TOPICS[second])}: The {name} Approach",
                    f"Towards {rng.choice(['Robust', 'Scalable', 'Efficient', 'Provable'])} {a.title()} "
                    f"with {name}"]
        title = rng.choice(patterns)
        target = rng.randint(150, 250)
        sentences: list[str] = []
        count = 0
        templates = [rng.choice(GENERIC_OPENERS), *rng.sample(GENERIC_MIDDLE, 8), rng.choice(GENERIC_CLOSERS)]
        used: list[str] = []
        for i, tmpl in enumerate(templates):
            if count >= target and i >= 3:
                break
            x, y = rng.choice(vocab), rng.choice(vocab)
            used += [x, y]
            s = tmpl.format(a=x, b=y, name=name)
            if rng.random() < 0.5:
                s = s[:-1] + f" {rng.choice(FILLER)}."
            sentences.append(s)
            count += len(s.split())
        while count < target:
            x, y = rng.choice(vocab), rng.choice(vocab)
            s = rng.choice(GENERIC_MIDDLE).format(a=x, b=y, name=name)
            sentences.insert(-1, s)
            count += len(s.split())
        if rng.random() < 0.04:
            sentences.insert(2, f"We derive a bound of order $O(\\sqrt{{T}})$ for {rng.choice(vocab)}.")
        if rng.random() < 0.04:
            sentences.insert(1, "We model the loss as $\\mathcal{L}(\\theta) = \\mathbb{E}[\\ell(x; \\theta)]$ "
                                "and bound its gradient.")
        cut = len(sentences) // 2 if rng.random() < 0.25 else len(sentences)
        paragraphs = [" ".join(sentences[:cut]), " ".join(sentences[cut:])]
        k = min(12, max(2, int(rng.expovariate(1 / 4.0)) + 2))
        authors = rng.sample(self.names, k)
        return SynthPaper(title, authors, [p for p in paragraphs if p], used, self._openreview_id())


def tmlr_digest(day: dt.date, accepted: list[SynthPaper], submitted: list[SynthPaper],
                certified: list[SynthPaper], anonymous: set[int]) -> str:
    out = [f"Daily TMLR digest for {day.strftime('%b %d, %Y')}", "TMLR", ""]

    def section(name: str, papers: list[SynthPaper]) -> None:
        if not papers:
            return
        out.extend([name, "=" * len(name), ""])
        for p in papers:
            out.append(f"Title: {p.title}")
            if id(p) not in anonymous:
                out.append(f"Authors: {', '.join(p.authors)}")
            out.append("Abstract: " + p.abstract[0])
            out.extend(p.abstract[1:])
            out.append(f"URL: https://openreview.net/forum?id={p.openreview}")
            out.extend(["", "---", ""])

    section("Accepted papers", accepted)
    section("Featured Certification", certified)
    section("New submissions", submitted)
    return "\n".join(out) + "\n"


def _broken_lines(rng: random.Random, paragraph: str, keywords: list[str]) -> list[str]:
    """Break a paragraph the way copied listing pages do: short lines, keywords on lines of their own."""
    words = paragraph.split()
    lines, cur = [], []
    kw = {w.split()[0] for w in keywords if w and w.split()[0] not in ("Machine", "Artificial", "Computation")}
    for w in words:
        if w.strip(".,") in kw and cur and rng.random() < 0.08:
            lines.append(" ".join(cur))
            lines.append(w)
            cur = []
            continue
        cur.append(w)
        if len(cur) >= rng.randint(6, 30):
            lines.append(" ".join(cur))
            cur = []
    if cur:
        lines.append(" ".join(cur))
    return lines


def listing_digest(rng: random.Random, papers: list[SynthPaper]) -> str:
    out: list[str] = []
    for p in papers:
        out.append(rng.choice(SUBJECTS))
        out.append(p.title)
        if len(p.authors) > 3:
            out.append(f"{', '.join(p.authors[:3])} et al. (+{len(p.authors) - 3} more)")
        elif len(p.authors) == 3:
            out.append(f"{p.authors[0]}, {p.authors[1]} and {p.authors[2]}")
        else:
            out.append(" and ".join(p.authors))
        for para in p.abstract:
            out.extend(_broken_lines(rng, para, p.words))
        out.append("Read the full abstract ▾")
        if len(p.authors) > 3 and rng.random() < 0.85:
            out.append("All authors " + ", ".join(p.authors))
    return "\n".join(out) + "\n"


class Maker(Protocol):
    """What makes the papers: `Synth` here, `seeded.SeedText` for text that follows the seeds."""

    rng: random.Random

    def paper(self) -> SynthPaper: ...


@dataclass
class Written:
    papers: list[SynthPaper]   # the distinct papers, each once
    files: int
    days: int


def generate(n: int, dest: Path, seed: int = 0, start: dt.date = dt.date(2025, 1, 6),
             maker: Maker | None = None) -> Written:
    """Write digests holding `n` distinct papers into `dest` (made by `maker`, default `Synth(seed)`)."""
    s = maker or Synth(seed)
    rng = s.rng
    made_papers: list[SynthPaper] = []
    dest.mkdir(parents=True, exist_ok=True)
    made = files = 0
    day = start
    pending: list[SynthPaper] = []   # submissions that a later TMLR digest accepts (same paper twice)
    while made < n:
        room = n - made
        # One TMLR digest and one listing page per day, sizes as real ones vary.
        n_acc = min(room, rng.randint(4, 14))
        n_sub = min(room - n_acc, rng.randint(4, 16))
        accepted = [s.paper() for _ in range(n_acc)]
        made_papers += accepted
        if pending and rng.random() < 0.5:
            accepted.append(pending.pop(0))   # seen before under review; not a new paper
        submitted = [s.paper() for _ in range(n_sub)]
        made_papers += submitted
        certified = [accepted.pop()] if len(accepted) > 2 and rng.random() < 0.2 else []
        anonymous = {id(p) for p in submitted if rng.random() < 0.5}
        for p in submitted:
            if id(p) not in anonymous and rng.random() < 0.1:
                pending.append(p)
        made += n_acc + n_sub
        (dest / f"{day.isoformat()}-tmlr.txt").write_text(
            tmlr_digest(day, accepted, submitted, certified, anonymous), encoding="utf-8")
        files += 1
        n_list = min(n - made, rng.randint(40, 90))
        if n_list > 0:
            listed = [s.paper() for _ in range(n_list)]
            made_papers += listed
            made += n_list
            (dest / f"{day.isoformat()}-cs-lg.txt").write_text(listing_digest(rng, listed), encoding="utf-8")
            files += 1
        day += dt.timedelta(days=1)
    return Written(made_papers, files, (day - start).days)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int, help="number of distinct papers")
    ap.add_argument("dest", type=Path, help="folder to write the digests into")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    info = generate(args.n, args.dest, args.seed)
    print(f"wrote {len(info.papers)} papers in {info.files} digests ({info.days} days) to {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
