"""Games and reports for people to read: the terminal (:mod:`.terminal`), cards as SVG
(:mod:`.svg`), and self-contained pages to send (:mod:`.pages`: a dispute report, an HTML
replay)."""
