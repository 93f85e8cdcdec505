"""The readinglist MkDocs theme (`theme: name: readinglist`): Material plus this folder's templates.

Registered as the `mkdocs.themes` entry point `readinglist`; MkDocs and Zensical find the folder
through this module's file.
"""
