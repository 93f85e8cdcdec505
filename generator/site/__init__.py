"""The MkDocs side: the `readinglist` plugin that runs the generator before a build (plugin.py),
and what it does to MkDocs' output without changing any page's content: the Pagefind search index
(search.py); the chrome around each paper page's article (paper_chrome.py, which tells the order
of everything done to a paper page), rendered once per build and reused (fragments.py) and shared
as files with less white space (shared_chrome.py); dirty rebuilds under `mkdocs serve` that
leave out unchanged paper pages (serve_rebuilds.py); and, under `readinglist serve`, MkDocs told by
the watcher what it wrote instead of polling the docs folder (serve_signal.py)."""
