"""The notes stage: the curator's notes, one Markdown file per paper under content/notes/ with YAML
front matter, parsed (never rendered: render/notebody.py and render/notes.py make their HTML).

load.py reads and validates the files, model.py holds what a note says as frozen values,
markdown.py parses note bodies and their `[[wiki-links]]` into tokens, and apply.py matches each
note to its paper, hands its overrides to enrich and indexes the links between papers.

The package imports none of its modules: `generator.model` names `NoteIndex` (model.py here), and
importing it must not run the notes stage, which reads the model (tests/test_import_graph.py).
"""
