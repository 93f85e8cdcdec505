"""The MkDocs side: the `readinglist` plugin that runs the generator before a build (plugin.py),
and what it does to MkDocs' output without changing any page's content: the Pagefind search index
(search.py), theme fragments rendered once per build (fragments.py), chrome shared as files
(shared_chrome.py), less white space (whitespace.py) and dirty rebuilds under `mkdocs serve` that
leave out unchanged paper pages (serve_rebuilds.py)."""
