SELECT substr(name, 'a', 2) FROM spans
