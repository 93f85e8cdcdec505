// readinglist: "Download <key>.bib" on a paper page saves the entry shown in its BibTeX block.
// The entry is on the page already, so the site needs no .bib file per paper (10,000 files fewer
// for MkDocs to copy and check on every rebuild). One listener on the document, so it keeps
// working across Material's instant navigation.
document.addEventListener("click", function (event) {
  var link = event.target.closest ? event.target.closest("a.rl-bib-download") : null;
  if (!link) return;
  var code = document.querySelector("h2#bibtex ~ .highlight code");
  if (!code) return;
  event.preventDefault();
  var blob = new Blob([code.textContent.replace(/\n*$/, "\n")], { type: "application/x-bibtex" });
  var save = document.createElement("a");
  save.href = URL.createObjectURL(blob);
  save.download = link.getAttribute("data-file") || "entry.bib";
  document.body.appendChild(save);
  save.click();
  save.remove();
  setTimeout(function () { URL.revokeObjectURL(save.href); }, 10000);
});
