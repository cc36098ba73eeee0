"""Speed mechanisms of the scanner: shortcuts, memos, prefilters, dense search, word
leaps. Each can be switched off (:class:`urimine.Speed`) and must then change nothing."""
