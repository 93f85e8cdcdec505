"""A workload whose text follows the seeds' own: N papers in the two digest formats, deterministic.

synth.py builds abstracts from templates over a fixed list of topic phrases; real abstracts have a
larger vocabulary and a different density of topic words, which is what tagging, related papers and
the search index spend their time on. Here each paper follows one seed paper: its title and abstract
are drawn from a word bigram model of that paper's own title and abstract sentences (so every word,
and every pair of adjacent words, occurs in a real abstract, and a paper's topics are those of one
real abstract: one model of all the seeds wandered through every topic in one sentence and gave
three times the seeds' tags per paper), abstract lengths from the seeds' lengths, and authors from
the seeds' author names (their first and last names recombined, so a pool of a few thousand repeats
across papers as real names do). The seeds are read with a regex on their text, not with the generator's readers:
the benchmark must not depend on the generator's internals.

    python benchmarks/seeded.py 1000 /tmp/seeds     # writes the digest files into /tmp/seeds
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import string
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from synth import SynthPaper, generate  # noqa: E402

SEEDS = HERE.parent / "seeds"
START, END = "<s>", "</s>"
# A listing record starts with its subject line ("Machine Learning · Cross-listed from cs.CL").
_SUBJECT = re.compile(r"^(?:Machine Learning|Artificial Intelligence|Computation and Language|"
                      r"Computer Vision and Pattern Recognition|Statistics Theory|Methodology)"
                      r"(?: · Cross-listed from \S+)?$")
_TOKEN = re.compile(r"\$[^$\n]+\$|\S+")  # inline math stays one token, so `$` always pairs
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
# How many seed papers one paper's text is drawn from: 1 gives the seeds' own tags per paper (4.5
# against their 4.6, at 1,000 papers), 2 gives 6.4.
THEMES = 1


@dataclass
class SeedRecord:
    title: str
    authors: list[str]
    abstract: str


def tmlr_records(text: str) -> list[SeedRecord]:
    """Records of a TMLR digest e-mail: `Title:`, `Authors:`, `Abstract:` (continued until `URL:`)."""
    out = []
    for block in re.split(r"^---$", text, flags=re.M):
        title = re.search(r"^Title: (.+)$", block, re.M)
        abstract = re.search(r"^Abstract: (.+?)(?=^URL:|\Z)", block, re.M | re.S)
        if not title or not abstract:
            continue
        authors = re.search(r"^Authors: (.+)$", block, re.M)
        names = [a.strip() for a in authors.group(1).split(",")] if authors else []
        out.append(SeedRecord(title.group(1).strip(), names, " ".join(abstract.group(1).split())))
    return out


def listing_records(text: str) -> list[SeedRecord]:
    """Records of a copied listing page: subject, title, authors, abstract lines, then
    `Read the full abstract ▾` and (for long author lists) `All authors ...`."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if _SUBJECT.match(line.strip())]
    out = []
    for k, i in enumerate(starts):
        body = [ln.strip() for ln in lines[i + 1:starts[k + 1] if k + 1 < len(starts) else len(lines)]]
        body = [ln for ln in body if ln]
        if len(body) < 3:
            continue
        title, author_line, rest = body[0], body[1], body[2:]
        full = [ln for ln in rest if ln.startswith("All authors ")]
        rest = [ln for ln in rest if not ln.startswith(("All authors ", "Read the full abstract"))]
        names_text = full[0][len("All authors "):] if full else re.sub(r" et al\..*$", "", author_line)
        names = [a.strip() for a in re.split(r",\s*|\s+and\s+", names_text) if a.strip()]
        out.append(SeedRecord(title, names, " ".join(" ".join(rest).split())))
    return out


def seed_records(seeds: Path = SEEDS) -> list[SeedRecord]:
    records: list[SeedRecord] = []
    for path in sorted(seeds.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        records += tmlr_records(text) if re.search(r"^Title: ", text, re.M) else listing_records(text)
    return records


class Bigrams:
    """Word bigram model: each word followed by a word seen after it in the corpus."""

    def __init__(self, texts: list[str]) -> None:
        self.next: dict[str, list[str]] = defaultdict(list)
        for text in texts:
            words = [START, *_TOKEN.findall(text), END]
            for a, b in itertools.pairwise(words):
                self.next[a].append(b)

    def sentence(self, rng: random.Random, longest: int = 60) -> list[str]:
        words: list[str] = []
        word = START
        while len(words) < longest:
            word = rng.choice(self.next[word])
            if word == END:
                break
            words.append(word)
        return words


class SeedText:
    """Makes papers (synth.SynthPaper) from the seeds' bigrams; `synth.generate` lays them out."""

    def __init__(self, seed: int = 0, seeds: Path = SEEDS) -> None:
        self.rng = random.Random(seed)
        records = seed_records(seeds)
        if not records:
            raise SystemExit(f"no papers found in the seed digests under {seeds}")
        # Each seed abstract's sentences apart: a paper's text follows a couple of real abstracts, as a
        # real abstract stays on a few topics (one bigram model of every abstract wanders through all
        # the seeds' topics in one sentence, and gave three times the seeds' tags per paper).
        self.themes = [(r.title, [x for x in _SENTENCE_END.split(r.abstract) if x]) for r in records if r.abstract]
        self.models: dict[tuple[int, ...], tuple[Bigrams, Bigrams]] = {}
        self.titles = Bigrams([r.title for r in records])
        self.lengths = sorted(len(r.abstract.split()) for r in records)
        self.names = self._author_pool(records, 3000)
        self.seen_titles: set[str] = set()
        self.serial = 0
        self.used_ids: set[str] = set()

    def _author_pool(self, records: list[SeedRecord], size: int) -> list[str]:
        full = sorted({a for r in records for a in r.authors if " " in a and len(a) < 60})
        firsts = sorted({a.split()[0] for a in full})
        lasts = sorted({a.split(maxsplit=1)[1] for a in full})
        pool = set(full)
        while len(pool) < min(size, len(firsts) * len(lasts)):
            pool.add(f"{self.rng.choice(firsts)} {self.rng.choice(lasts)}")
        return sorted(pool)

    def _title(self, themed: Bigrams) -> str:
        """A title from the paper's own title bigrams, unique (equal titles would merge into one
        paper): after 20 tries, the last one with a made-up name in front."""
        for _ in range(20):
            words = themed.sentence(self.rng, longest=18)
            title = " ".join(words).strip(" :,")
            key = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
            if len(words) >= 3 and title.count("$") % 2 == 0 and key not in self.seen_titles:
                self.seen_titles.add(key)
                return title
        self.serial += 1
        return self._title_with_name(title)

    def _title_with_name(self, title: str) -> str:
        n, letters = self.serial * 7919 % 26**5, []
        for _ in range(5):
            n, r = divmod(n, 26)
            letters.append(string.ascii_uppercase[r])
        title = f"{''.join(letters)}{self.serial // 26**5 or ''}: {title}"
        self.seen_titles.add(re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-"))
        return title

    def _openreview_id(self) -> str:
        alphabet = string.ascii_letters + string.digits
        while True:
            oid = "".join(self.rng.choice(alphabet) for _ in range(10))
            if oid not in self.used_ids:
                self.used_ids.add(oid)
                return oid

    def _themed_models(self) -> tuple[Bigrams, Bigrams]:
        """(title, abstract) bigrams of THEMES seed papers chosen for one paper (made once per set)."""
        chosen = tuple(sorted(self.rng.sample(range(len(self.themes)), min(THEMES, len(self.themes)))))
        models = self.models.get(chosen)
        if models is None:
            models = self.models[chosen] = (Bigrams([self.themes[i][0] for i in chosen]),
                                            Bigrams([s for i in chosen for s in self.themes[i][1]]))
        return models

    def paper(self) -> SynthPaper:
        rng = self.rng
        target = rng.choice(self.lengths)
        title_model, model = self._themed_models()
        sentences, count = [], 0
        while count < target:
            words = model.sentence(rng)
            if len(words) < 4:
                continue
            sentence = " ".join(words)
            sentences.append(sentence if sentence[-1] in ".!?" else sentence + ".")
            count += len(words)
        cut = len(sentences) // 2 if rng.random() < 0.25 and len(sentences) > 1 else len(sentences)
        paragraphs = [p for p in (" ".join(sentences[:cut]), " ".join(sentences[cut:])) if p]
        k = min(12, max(1, int(rng.expovariate(1 / 4.0)) + 1))
        authors = rng.sample(self.names, min(k, len(self.names)))
        content = [w.strip(".,;:()") for w in " ".join(paragraphs).split() if len(w) > 7]
        return SynthPaper(self._title(title_model), authors, paragraphs, content[:8], self._openreview_id())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int, help="number of distinct papers")
    ap.add_argument("dest", type=Path, help="folder to write the digests into")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    written = generate(args.n, args.dest, args.seed, maker=SeedText(args.seed))
    print(f"wrote {len(written.papers)} papers in {written.files} digests to {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
