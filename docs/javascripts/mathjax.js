// MathJax for the docstrings' $...$ formulas (pymdownx.arithmatex, generic mode).
window.MathJax = {
  tex: { inlineMath: [["\\(", "\\)"]], displayMath: [["\\[", "\\]"]], processEscapes: true },
  options: { ignoreHtmlClass: ".*|", processHtmlClass: "arithmatex" },
};
document$.subscribe(() => { MathJax.typesetPromise(); });
