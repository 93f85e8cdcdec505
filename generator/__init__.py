"""readinglist: turn paper digests into a searchable MkDocs reading-list site.

Importing the package changes nothing outside it: no environment variable, no library setting
(it is also imported as an MkDocs plugin, inside the user's own `mkdocs` process).
"""

from __future__ import annotations

__version__ = "0.1.0"
# The distribution's name on PyPI (pip install readinglist-site); the command is `readinglist` and
# the package `generator`. The name `readinglist` on PyPI is another project (a 2015 server).
DISTRIBUTION = "readinglist-site"
