SELECT regexp_replace(name, '[^a ORDINALITY ') FROM spans
