-- DuckDB names for the Spark SQL functions the views and statistics use (Spark has them built
-- in; this file is run on DuckDB only, before every other file).
-- Spark's get_json_object gives null for a text that is not JSON; DuckDB's extract would raise.
CREATE OR REPLACE MACRO get_json_object(j, p) AS try(json_extract_string(j, p));
CREATE OR REPLACE MACRO size(l) AS len(l);
CREATE OR REPLACE MACRO array_join(l, sep) AS array_to_string(l, sep);
CREATE OR REPLACE MACRO element_at(l, i) AS list_extract(l, i);
