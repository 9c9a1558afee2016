-- CSV built in the database for the streamed exports (lib/exports/sql-csv.ts): each function
-- writes a value exactly as lib/exports/csv.ts's csvField writes the value Prisma would have
-- returned for it (RFC 4180 quoting, OWASP's CSV-injection guard, JavaScript's number and
-- JSON.stringify formats), so that a CSV line can be built in SQL without changing a byte.

-- JavaScript's String(x) of a double (ECMA-262 Number::toString: the shortest round-trip digits,
-- plain between 1e-7 and 1e21, else d.ddde+N / d.ddde-N); '' for NaN and the infinities (csvField).
CREATE OR REPLACE FUNCTION yardstick_js_number(x double precision) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET extra_float_digits = 1
AS $$
DECLARE
  t text;
  m text[];
  sign text;
  digits text;
  e int;
BEGIN
  IF x = 'NaN'::float8 OR x = 'Infinity'::float8 OR x = '-Infinity'::float8 THEN RETURN ''; END IF;
  IF x = 0 THEN RETURN '0'; END IF;
  t := x::text;
  IF position('e' IN t) = 0 THEN RETURN t; END IF; -- PostgreSQL writes 1e-4 <= |x| < 1e15 plainly, as JavaScript does
  m := regexp_match(t, '^(-?)([0-9])(?:\.([0-9]+))?e([+-][0-9]+)$');
  sign := m[1];
  digits := m[2] || coalesce(m[3], '');
  e := m[4]::int;
  IF e >= 21 OR e <= -7 THEN
    RETURN sign || m[2] || CASE WHEN m[3] IS NULL THEN '' ELSE '.' || m[3] END || 'e' || CASE WHEN e < 0 THEN '-' ELSE '+' END || abs(e)::text;
  END IF;
  IF e < 0 THEN RETURN sign || '0.' || repeat('0', -e - 1) || digits; END IF;
  IF length(digits) <= e + 1 THEN RETURN sign || digits || repeat('0', e + 1 - length(digits)); END IF;
  RETURN sign || substr(digits, 1, e + 1) || '.' || substr(digits, e + 2);
END $$;

-- JSON.stringify(JSON.parse(v::text)): compact, numbers as JavaScript writes doubles, and an
-- object's integer-like keys (array indices) first in ascending order, then the others in stored order.
CREATE OR REPLACE FUNCTION yardstick_json_js(v jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
  t text := v::text;
  out text;
BEGIN
  -- fast path: no number that JavaScript would write differently (17+ digits, 1e-6 and below,
  -- trailing zeros) and no integer-like key; then only the spaces after , and : go
  IF t !~ '[0-9]{16}|\.0{5}|\.[0-9]*0([^0-9]|$)|"(0|[1-9][0-9]*)": ' THEN
    IF position(' ' IN t) = 0 THEN RETURN t; END IF;
    RETURN regexp_replace(t, '("(?:[^"\\]|\\.)*")| ', '\1', 'g');
  END IF;
  CASE jsonb_typeof(v)
    WHEN 'object' THEN
      SELECT '{' || coalesce(string_agg(to_json(k.key)::text || ':' || yardstick_json_js(k.value), ',' ORDER BY k.idx IS NULL, k.idx, k.ord), '') || '}' INTO out
      FROM (
        SELECT e.key, e.value, e.ord,
          CASE WHEN e.key ~ '^(0|[1-9][0-9]{0,9})$' AND e.key::bigint < 4294967295 THEN e.key::bigint END AS idx
        FROM jsonb_each(v) WITH ORDINALITY AS e(key, value, ord)
      ) k;
      RETURN out;
    WHEN 'array' THEN
      SELECT '[' || coalesce(string_agg(yardstick_json_js(a.value), ',' ORDER BY a.ord), '') || ']' INTO out
      FROM jsonb_array_elements(v) WITH ORDINALITY AS a(value, ord);
      RETURN out;
    WHEN 'number' THEN
      RETURN yardstick_js_number((v #>> '{}')::float8);
    ELSE
      RETURN t;
  END CASE;
END $$;

-- csvField's quoting of a value that is not a text: quoted (quotes doubled) when it holds " , CR
-- or LF or starts or ends with white space (JavaScript's \s).
CREATE OR REPLACE FUNCTION yardstick_csv_quote(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN t IS NULL THEN ''
  WHEN t ~ '[",\r\n]' OR t ~ '^[ \t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[ \t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$'
    THEN '"' || replace(t, '"', '""') || '"'
  ELSE t END;

-- csvField of a text: OWASP's guard ("'" before a text starting with = + - @ tab or CR that is
-- not a plain number, always quoted), else yardstick_csv_quote.
CREATE OR REPLACE FUNCTION yardstick_csv_text(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN t IS NULL THEN ''
  WHEN t ~ '^[=+@\t\r-]' AND t !~ '^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$' THEN '"''' || replace(t, '"', '""') || '"'
  ELSE yardstick_csv_quote(t) END;

-- csvField of the value Prisma returns for a jsonb: a JSON string as a text, a number as a double,
-- true/false, null as empty, objects and arrays as JSON.stringify writes them.
CREATE OR REPLACE FUNCTION yardstick_csv_jsonb(v jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE jsonb_typeof(v)
  WHEN 'string' THEN yardstick_csv_text(v #>> '{}')
  WHEN 'number' THEN yardstick_js_number((v #>> '{}')::float8)
  WHEN 'boolean' THEN v::text
  WHEN 'object' THEN yardstick_csv_quote(yardstick_json_js(v))
  WHEN 'array' THEN yardstick_csv_quote(yardstick_json_js(v))
  ELSE '' END;

-- csvField of a timestamp(3) read as UTC (Date.toISOString).
CREATE OR REPLACE FUNCTION yardstick_csv_time(t timestamp) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN t IS NULL THEN '' ELSE to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END;
