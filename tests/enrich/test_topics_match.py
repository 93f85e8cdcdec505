"""Topic matching, the taxonomy file, note tag changes, and the tags every seed paper gets."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import BuildResult
from generator.enrich import enrich
from generator.enrich.registry import Registry
from generator.enrich.topics import (
    Taxonomy,
    Topic,
    apply_changes,
    load_taxonomy,
    parse_taxonomy,
    resolve_note_tags,
    subject_tag,
)
from generator.errors import ParseError, Problems
from generator.sources import read_all

ROOT = Path(__file__).resolve().parents[2]


def tax(*topics: Topic) -> Taxonomy:
    return Taxonomy(list(topics), "content/topics.yml")


def test_acronyms_match_case_sensitively_as_whole_words() -> None:
    t = tax(Topic("Federated learning", phrases=("federated learning", "FL")))
    assert t.hits("Cross-silo FL with FLs of clients") == [2]
    assert t.hits("the fl of flow, FLOPs and FLUX") == [0]
    assert t.hits("Federated Learning (FL)") == [2]


def test_light_stemming_and_hyphens() -> None:
    t = tax(Topic("Routing", phrases=("router",)), Topic("OPD", phrases=("on-policy distillation",)))
    assert t.hits("two routers and a router") == [2, 0]
    assert t.hits("On policy distilled students; on-policy distillation") == [0, 2]


def test_acronym_plural_and_mixed_case_acronyms() -> None:
    t = tax(Topic("PEFT", phrases=("LoRA",)), Topic("LMs", phrases=("LLM",)))
    assert t.hits("LoRA branches; lora; LoRAs; MatryoshkaLoRA") == [2, 0]
    assert t.hits("LLMs and an LLM, llm") == [0, 2]


def test_min_hits_patterns_and_title_weight() -> None:
    t = tax(Topic("BO", phrases=("Bayesian optimization",), min_hits=2),
            Topic("Agents", patterns=(__import__("re").compile(r"\b[Aa]gentic\b"),)))
    assert t.match("", "tuned by Bayesian optimization") == []
    assert t.match("Bayesian Optimization at scale", "") == ["BO"]  # a title hit counts twice
    assert t.match("", "an agentic system; agents") == ["Agents"]


def test_strongest_topic_first() -> None:
    t = tax(Topic("A", phrases=("alpha ray",)), Topic("B", phrases=("beta ray",)))
    assert t.match("", "alpha ray, beta ray, beta ray") == ["B", "A"]
    assert t.match("", "alpha ray, beta ray") == ["A", "B"]  # ties keep the taxonomy's order


def test_taxonomy_file_warnings_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "topics.yml"
    path.write_text(
        "topics:\n"
        "  - name: Good\n"
        "    phrases: [good]\n"
        "  - description: no name here\n"
        "  - name: Good\n"
        "    phrases: [again]\n"
        "  - name: Bad pattern\n"
        "    patterns: ['(unclosed']\n"
        "    min_hits: 0\n", encoding="utf-8")
    problems = Problems()
    taxonomy = load_taxonomy(path, problems, "content/topics.yml")
    assert taxonomy.names == ["Good", "Bad pattern"]
    messages = [str(p) for p in problems]
    assert "content/topics.yml:4: warning: a topic needs a `name:`; entry skipped" in messages
    assert "content/topics.yml:5: warning: topic 'Good' is defined twice; the first one counts" in messages
    assert any(m.startswith("content/topics.yml:7: warning: topic 'Bad pattern': pattern '(unclosed' "
                            "is not a valid regular expression") for m in messages)
    assert "content/topics.yml:7: warning: topic 'Bad pattern': `min_hits` must be a whole number >= 1; using 1" \
        in messages
    assert "content/topics.yml:7: warning: topic 'Bad pattern' has no phrases or patterns, so no paper can " \
        "match it" in messages


def test_invalid_yaml_stops_with_the_line_not_a_traceback(tmp_path: Path) -> None:
    # Read whole or not at all (generator/curated.py): an empty taxonomy would untag the site.
    path = tmp_path / "topics.yml"
    path.write_text("topics:\n  - name: A\n    description: a: b\n", encoding="utf-8")
    with pytest.raises(ParseError) as caught:
        load_taxonomy(path, Problems(), "content/topics.yml")
    assert str(caught.value) == ("content/topics.yml:3: the topic taxonomy is not valid YAML: mapping values "
                                 "are not allowed in this context at column 19")


def test_shipped_taxonomy_is_broad_and_clean() -> None:
    problems = Problems()
    taxonomy = load_taxonomy(ROOT / "content" / "topics.yml", problems)
    assert not problems.items
    assert len(taxonomy.topics) >= 30
    for name in ("Language models", "Reasoning", "Knowledge distillation", "Federated learning",
                 "Decentralized optimization", "Reinforcement learning", "Bayesian optimization",
                 "Uncertainty and calibration", "Parameter-efficient fine-tuning", "Generative models",
                 "Graph neural networks", "Tabular foundation models", "Neural operators and scientific ML",
                 "Adversarial robustness", "Formal verification"):
        assert name in taxonomy.names


def test_note_tags_resolve_and_unknown_ones_warn() -> None:
    taxonomy = tax(Topic("Federated learning", phrases=("FL",)), Topic("Reasoning", phrases=("reasoning",)))
    problems = Problems()
    got = resolve_note_tags(["federated learning", "Reasonin", "cs.CL", "Reasoning"], taxonomy,
                            "content/notes/x.md", 3, problems)
    assert got == ("Federated learning", "Computation and Language (cs.CL)", "Reasoning")
    assert [str(p) for p in problems] == [
        "content/notes/x.md:3: warning: unknown topic 'Reasonin' in the note's tags (ignored); "
        "topics are defined in content/topics.yml"]


def test_other_names_a_note_adds_are_tags_of_the_curators_own_and_near_misses_warn() -> None:
    taxonomy = tax(Topic("Knowledge distillation", phrases=("distillation",)),
                   Topic("Reasoning", phrases=("reasoning",)))
    problems, own = Problems(), {}
    got = resolve_note_tags(["thin networks", "Knowlege distillation", "reasoning"], taxonomy,
                            "content/notes/a.md", 4, problems, own=own)
    assert got == ("thin networks", "Knowlege distillation", "Reasoning")
    assert [str(p) for p in problems] == [
        "content/notes/a.md:4: warning: new tag 'Knowlege distillation' is applied as a tag of your own; "
        "did you mean 'Knowledge distillation'?"]
    # Another note of the same build: an own tag keeps its first spelling; a near miss of it warns;
    # a name that cannot be a tag is left out.
    problems = Problems()
    got = resolve_note_tags(["Thin Networks", "thin network", "x --> <b>"], taxonomy, "content/notes/b.md", 2,
                            problems, own=own)
    assert got == ("thin networks", "thin network")
    assert [str(p) for p in problems] == [
        "content/notes/b.md:2: warning: new tag 'thin network' is applied as a tag of your own; "
        "did you mean 'thin networks'?",
        "content/notes/b.md:2: warning: 'x --> <b>' in the note's tags cannot be a tag name (ignored)"]
    assert list(own.values()) == ["thin networks", "Knowlege distillation", "thin network"]


def test_apply_changes_adds_first_and_removes() -> None:
    assert apply_changes(("A", "B", "C"), ("D", "B"), ("c",)) == ("D", "B", "A")
    assert apply_changes(("A",), ("x --> <script>", ""), ()) == ("A",)


def test_subject_tags_have_readable_names() -> None:
    assert subject_tag("cs.CL") == "Computation and Language (cs.CL)"
    assert subject_tag("q-bio.QM") == "Quantitative Methods (q-bio.QM)"
    assert subject_tag("xx.YY") == "xx.YY"


def test_enrich_applies_tag_changes(tmp_path: Path) -> None:
    problems = Problems()
    raws = read_all(ROOT / "seeds", ROOT, problems)
    taxonomy = load_taxonomy(ROOT / "content" / "topics.yml", problems)
    registry = Registry.load(tmp_path / "citekeys.yml", problems)
    plain = enrich(raws, registry, problems, taxonomy=taxonomy, taxonomy_problems=Problems())
    kl = next(p for p in plain.papers if p.title.startswith("KL for a KL"))
    changes = {kl.id: (("Bayesian optimization",), ("Reasoning",))}
    changed = enrich(raws, Registry.load(tmp_path / "citekeys.yml", problems), problems,
                     taxonomy=taxonomy, taxonomy_problems=Problems(), tag_changes=changes)
    tags = next(p for p in changed.papers if p.id == kl.id).tags
    assert tags[0] == "Bayesian optimization"
    assert "Reasoning" in kl.tags and "Reasoning" not in tags


# Exact tags (strongest topic first, then arXiv subjects) for a few seed papers.
EXPECTED = {
    "KL for a KL: On-Policy Distillation with Control Variate Baseline": (
        "On-policy distillation", "Reinforcement learning", "Knowledge distillation", "Language models",
        "Reasoning", "Machine Learning (cs.LG)"),
    "Flexible Routing via Uncertainty Decomposition": (
        "LLM routing", "Uncertainty and calibration", "Learning theory", "Machine Learning (cs.LG)"),
    "Neural Operators as Efficient Function Interpolators": (
        "Neural operators and scientific ML", "Machine Learning (cs.LG)"),
    "MatryoshkaLoRA: Learning Accurate Hierarchical Low-Rank Representations for LLM Fine-Tuning": (
        "Parameter-efficient fine-tuning", "Language models", "Computation and Language (cs.CL)",
        "Machine Learning (cs.LG)"),
    "NSPOD: Accelerating Krylov solvers via DeepONet-learned POD subspaces": (
        "Neural operators and scientific ML", "Numerical linear algebra", "Numerical Analysis (math.NA)",
        "Machine Learning (cs.LG)"),
    "SMT-Based Active Learning of Weighted Automata": (
        "Automata and formal languages", "Formal verification", "Active learning",
        "Formal Languages and Automata Theory (cs.FL)", "Machine Learning (cs.LG)"),
    "PersonalizedRouter: Personalized LLM Routing via Graph-based User Preference Modeling": (
        "Language models", "Personalization and recommendation", "LLM routing", "Graph neural networks"),
}


def test_exact_tags_of_some_seed_papers(seed_build: BuildResult) -> None:
    by_title = {p.title: p for p in seed_build.library.papers}
    for title, tags in EXPECTED.items():
        assert by_title[title].tags == tags, title


def test_every_seed_paper_has_a_topic_tag(seed_build: BuildResult) -> None:
    topics = {name for name, _ in seed_build.library.topics}
    assert len(seed_build.library.papers) == 41
    missing = [p.title for p in seed_build.library.papers if not topics & set(p.tags)]
    assert missing == []


def test_tags_reach_front_matter(seed_build: BuildResult) -> None:
    page = next(text for path, text in seed_build.files.items()
                if path.startswith("papers/flexible-routing") and path.endswith(".md"))
    front = yaml.safe_load(page.split("---\n")[1])
    assert front["tags"] == list(EXPECTED["Flexible Routing via Uncertainty Decomposition"])


@pytest.mark.parametrize("bad", ["a <b>", "x --> y", "[x]", "a|b"])
def test_tag_names_that_could_break_pages_are_refused(bad: str) -> None:
    problems = Problems()
    node = yaml.compose(yaml.safe_dump({"topics": [{"name": bad, "phrases": ["x"]}]}))
    assert parse_taxonomy(node, "t.yml", problems).names == []
    assert str(problems.items[0]) == (f"t.yml:2: warning: topic name {bad!r} has characters a tag cannot hold; "
                                      "entry skipped")


def test_fast_word_split_and_phrase_counts_match_the_plain_definition() -> None:
    import re

    from generator.enrich.topics.taxonomy import phrase_keys, text_keys

    taxonomy = Taxonomy([Topic("Dist", phrases=("policy distillation", "distillation", "OPD")),
                         Topic("RL", phrases=("reinforcement learning", "policy")),
                         Topic("Same", phrases=("policy", "policies", "policy gradient"))])
    texts = ["Policy distillation_and policies; OPDs, opd. policy-gradient policy", "a_b", "",
             "Politique d'apprentissage: policy distillation über alles", "policy"]
    word = re.compile(r"[^\W_]+")
    for text in texts:
        tokens = word.findall(text)
        # The definition: at each position, each topic once if any of its phrases starts there.
        want = [0, 0, 0]
        for i in range(len(tokens)):
            for n, topic in enumerate(taxonomy.topics):
                phrases = [phrase_keys(p) for p in topic.phrases]
                if any(i + len(ks) <= len(tokens) and all(k in text_keys(tokens[i + j]) for j, k in enumerate(ks))
                       for ks in phrases):
                    want[n] += 1
        assert taxonomy.hits(text) == want, text


# -- all texts at once (topicmatch.py) count what `hits` counts, text by text -----------------

_TAXONOMY = tax(
    Topic("FL", phrases=("federated learning", "FL", "cross silo")),
    Topic("OPD", phrases=("on policy distillation", "OPD", "distillation")),
    Topic("Agents", phrases=("LLM agent",), patterns=(__import__("re").compile(r"\b[Aa]gentic\b"),)),
    Topic("Optim", patterns=(__import__("re").compile(r"(?i)\boptimi[sz]ers?\b"),), min_hits=2),
    Topic("Routing", phrases=("router", "LLM routing", "routing via uncertainty")),
)
_WORDS = ["federated", "learning", "Learning", "FL", "FLs", "fl", "cross", "silo", "cross-silo", "on",
          "policy", "on-policy", "distillation", "distilled", "OPD", "LLM", "LLMs", "agent", "agents",
          "agentic", "Agentic", "optimizer", "OPTIMISERS", "routers", "routing", "via", "uncertainty",
          "Ünïcode", "naïve", "K", "the", "of", ",", ".", "(", ")", "-", "_", "x_y", "über"]


def test_batch_matching_counts_what_hits_counts_on_the_seed_papers() -> None:
    from generator.enrich.topics.match import count_hits, match_many

    problems = Problems()
    taxonomy = load_taxonomy(ROOT / "content" / "topics.yml", problems)
    raws = read_all(ROOT / "seeds", ROOT, problems)
    papers = [p for raw in raws for p in raw.papers]
    texts = [p.title for p in papers] + [p.abstract for p in papers]
    batch = count_hits(taxonomy, texts)
    assert batch.sum() > 500  # the seed papers do match: the comparison below is not of zeros
    assert [row.tolist() for row in batch] == [taxonomy.hits(t) for t in texts]
    assert match_many(taxonomy, [p.title for p in papers], [p.abstract for p in papers]) == \
        [taxonomy.match(p.title, p.abstract) for p in papers]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_WORDS), max_size=30).map(" ".join), min_size=1, max_size=8))
def test_batch_matching_counts_what_hits_counts_on_any_text(texts: list[str]) -> None:
    from generator.enrich.topics.match import count_hits

    got = count_hits(_TAXONOMY, texts)
    assert [row.tolist() for row in got] == [_TAXONOMY.hits(t) for t in texts]


def test_pattern_prefilter_never_skips_a_text_with_a_match() -> None:
    import re

    from generator.enrich.topics.match import required_literal

    assert required_literal(re.compile(r"\b[Aa]gentic\b"))("an agentic system")
    assert not required_literal(re.compile(r"\b[Aa]gentic\b"))("agents")
    check = required_literal(re.compile(r"(?i)\boptimi[sz]ers?\b"))
    assert check("OPTIMIZERS") and not check("optimal")
    assert check("Kelvin \u212a optimi")  # text that is not ASCII is always searched
    assert required_literal(re.compile(r"a|b")) is None  # no literal every match must hold
    assert required_literal(re.compile(r"(?i:ab)")) is None  # flags of a group: not looked into
    assert required_literal(re.compile(r"x(ab)+")) is not None


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_WORDS), max_size=30).map(" ".join), min_size=1, max_size=8),
       st.integers(min_value=1, max_value=4))
def test_matching_in_blocks_counts_what_hits_counts(texts: list[str], block: int) -> None:
    from generator.enrich.topics.match import count_hits

    got = count_hits(_TAXONOMY, texts, block)
    assert [row.tolist() for row in got] == [_TAXONOMY.hits(t) for t in texts]


# -- the evidence rule (evidence.py) ------------------------------------------------------------

REAL = ROOT / "tests" / "fixtures" / "real"


def test_one_common_word_alone_is_no_evidence() -> None:
    t = tax(Topic("Routing", phrases=("routing", "route", "router", "model routing")))
    assert t.match("", "We also present the routes by which the state can be reached.") == []
    assert t.match("", "routes, routing and more routing") == []  # one stem, however often: one phrase
    assert t.match("", "a router and its routes") == ["Routing"]  # two distinct phrases
    assert t.match("", "cheap model routing") == ["Routing"]  # one phrase of two words is specific
    assert t.match("Routing queries", "") == ["Routing"]  # what the title names the paper is about


def test_an_acronym_or_a_pattern_is_specific() -> None:
    import re

    t = tax(Topic("PEFT", phrases=("LoRA", "adapter")), Topic("Agents", patterns=(re.compile(r"\bagentic\b"),)))
    assert t.match("", "we train LoRA branches") == ["PEFT"]
    assert t.match("", "an adapter") == []
    assert t.match("", "an agentic system") == ["Agents"]


def test_a_topic_of_learning_needs_a_paper_about_learning() -> None:
    t = Taxonomy([Topic("Stat phys of learning", phrases=("Ising model", "phase transition"), learning=True),
                  Topic("Magnetism", phrases=("Ising model", "spin liquid"))],
                 "content/topics.yml", frozenset({"cs.LG"}), ("neural network", "train"))
    physics = "A phase transition of the Ising model on the pyrochlore lattice."
    assert t.match("", physics) == ["Magnetism"]
    assert t.match("", physics, ("cs.LG",)) == ["Stat phys of learning", "Magnetism"]
    assert t.match("", physics + " We train a neural network.") == ["Stat phys of learning", "Magnetism"]
    assert t.match("", physics + " Training the network, trained twice.") == ["Magnetism"]  # one stem: one phrase


def test_learning_section_and_flag_are_read_with_warnings(tmp_path: Path) -> None:
    path = tmp_path / "topics.yml"
    path.write_text("learning:\n  categories: [physics.data-an]\n  phrases: [neural, 3]\n"
                    "topics:\n  - name: A\n    learning: true\n    phrases: [a b]\n"
                    "  - name: B\n    learning: maybe\n    phrases: [c d]\n", encoding="utf-8")
    problems = Problems()
    taxonomy = load_taxonomy(path, problems)
    assert [(t.name, t.learning) for t in taxonomy.topics] == [("A", True), ("B", False)]
    assert taxonomy.learning_categories == frozenset({"physics.data-an"})
    assert "neural network" in taxonomy.learning_phrases  # a bad list keeps the defaults
    assert [str(m) for m in problems.items] == [
        f"{path}:3: warning: `learning: phrases` must be a list of words; using the defaults",
        f"{path}:8: warning: topic 'B': `learning` must be true or false; using false",
    ]


# Real papers outside machine learning (tests/fixtures/real/README.md says where each is from):
# no topic of the shipped machine-learning taxonomy, only their arXiv subjects. Each failed on the
# taxonomy before the evidence rule, as noted.
OUT_OF_DOMAIN = {
    # was "LLM routing" (its abstract says "routes")
    "Thermal melting of density waves on the square lattice": (),
    "Specific heat of thin $^4$He films on graphite": ("Statistical Mechanics (cond-mat.stat-mech)",),
    "Quantum Monte Carlo measurement of the chemical potential of helium-4": (
        "Statistical Mechanics (cond-mat.stat-mech)", "Other Condensed Matter (cond-mat.other)"),
    # was "Statistical physics of learning" ("Ising" twice) and "Optimizers" ("muon spin resonance")
    "The Spin Liquid State of the Tb2Ti2O7 Pyrochlore Antiferromagnet: A Puzzling State of Affairs": (
        "Statistical Mechanics (cond-mat.stat-mech)", "Materials Science (cond-mat.mtrl-sci)"),
    # was "Statistical physics of learning" ("phase transitions")
    "A striped supersolid phase and the search for deconfined quantum criticality in hard-core bosons "
    "on the triangular lattice": ("Strongly Correlated Electrons (cond-mat.str-el)",),
    "Local Superfluidity at the Nanoscale": (
        "Mesoscale and Nanoscale Physics (cond-mat.mes-hall)", "Statistical Mechanics (cond-mat.stat-mech)"),
    "Particle partition entanglement of bosonic Luttinger liquids": (
        "Quantum Gases (cond-mat.quant-gas)", "Quantum Physics (quant-ph)"),
    # was "Reasoning" ("non-monotonic reasoning")
    "The Seventh Answer Set Programming Competition: Design and Results": ("Artificial Intelligence (cs.AI)",),
    "Achievements in Answer Set Programming": ("Artificial Intelligence (cs.AI)",),
    # was "Neural operators and scientific ML" ("solvers") and "Reasoning"
    "Multiple Preprocessing for Systematic SAT Solvers": (),
    # was "Neural operators and scientific ML" ("solver"); "clause learning" is no machine learning
    "Encoding Redundancy for Satisfaction-Driven Clause Learning": (),
    # was "Time series and forecasting" ("Temporal" in its title: temporal planning, no time series)
    "HDDL 2.1: Towards Defining a Formalism and a Semantics for Temporal HTN Planning": (
        "Artificial Intelligence (cs.AI)",),
}


def test_a_title_that_echoes_a_matched_phrase_stands_for_the_missing_hits() -> None:
    t = Taxonomy([Topic("Uncertainty", phrases=("uncertainty", "calibration", "verbalized confidence"),
                        min_hits=2, learning=True),
                  Topic("Magnetism", phrases=("spin liquid", "Ising model"), min_hits=2)],
                 "content/topics.yml", frozenset({"cs.LG"}), ("neural network", "train"))
    confidence = "eliciting verbalized confidence from a model"
    assert t.match("Rethinking self-assessment", confidence, ("cs.LG",)) == []  # one hit, short of 2
    assert t.match("Beyond Confidence", confidence, ("cs.LG",)) == ["Uncertainty"]  # the title echoes it
    # A title's echo makes no paper about learning: a physics paper gets no topic of learning by it.
    assert t.match("Beyond Confidence", confidence) == []
    assert t.match("The Spin State of Tb2Ti2O7", "a spin liquid state") == ["Magnetism"]
    # General words do not echo: `model` of "Ising model" in a title says nothing.
    assert t.match("A model of magnets", "the Ising model") == []


def test_the_title_echo_brings_back_the_calibration_tag_of_a_paper_about_confidence() -> None:
    from generator.enrich.topics.match import match_many

    papers = [p for raw in read_all(ROOT / "seeds", ROOT, Problems()) for p in raw.papers]
    paper = next(p for p in papers if p.title.startswith("Beyond Confidence: Rethinking Self-Assessments"))
    taxonomy = load_taxonomy(ROOT / "content" / "topics.yml", Problems())
    assert taxonomy.match(paper.title, paper.abstract, paper.categories) == [
        "Evaluation and benchmarks", "Language models", "Uncertainty and calibration"]
    assert match_many(taxonomy, [paper.title], [paper.abstract], [paper.categories])[0][-1] == \
        "Uncertainty and calibration"


def _real_papers(tmp_path: Path, *names: str) -> list:  # type: ignore[type-arg]
    import shutil

    for name in names:
        shutil.copy(REAL / name, tmp_path / Path(name).name)
    problems = Problems()
    papers = [p for raw in read_all(tmp_path, ROOT, problems) for p in raw.papers]
    assert not problems.items
    return papers


def test_papers_outside_machine_learning_get_no_invented_topic(tmp_path: Path) -> None:
    from generator.enrich.topics import paper_tag_lists

    papers = _real_papers(tmp_path, "topics/arxiv-api-out-of-domain.xml", "arxiv-api-del-maestro.xml",
                          "topics/sat-solving.bib", "arxiv-email-cs-2023-06-13.txt")
    taxonomy = load_taxonomy(ROOT / "content" / "topics.yml", Problems())
    got = {p.title: tags for p, tags in zip(papers, paper_tag_lists(papers, taxonomy), strict=True)}
    assert {t: got[t] for t in OUT_OF_DOMAIN} == OUT_OF_DOMAIN
    # The starter taxonomy `init` ships is the same file.
    assert (ROOT / "generator" / "scaffold" / "files" / "topics.yml").read_text(encoding="utf-8") == \
        (ROOT / "content" / "topics.yml").read_text(encoding="utf-8")


def test_batch_matching_applies_the_evidence_rule_as_match_does(tmp_path: Path) -> None:
    from generator.enrich.topics.match import match_many

    papers = _real_papers(tmp_path, "topics/arxiv-api-out-of-domain.xml", "arxiv-api-del-maestro.xml",
                          "topics/sat-solving.bib")
    papers += [p for raw in read_all(ROOT / "seeds", ROOT, Problems()) for p in raw.papers]
    taxonomy = load_taxonomy(ROOT / "content" / "topics.yml", Problems())
    batch = match_many(taxonomy, [p.title for p in papers], [p.abstract for p in papers],
                       [p.categories for p in papers])
    assert batch == [taxonomy.match(p.title, p.abstract, p.categories) for p in papers]
    assert sum(map(len, batch)) > 100  # the seed papers do get topics: not a comparison of empties
