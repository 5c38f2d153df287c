-- A fact's display name (history, pickers, search results, backlinks, confirmations) reads as
-- plain text: its light Markdown (docs/intelbooks.md) loses its markers, as the reader shows it.
-- A link keeps its label; ** and * mark bold and italic; _ marks italic only at a word's edge
-- (snake_case stays); a backslash escape keeps the character it escapes.
ALTER TABLE facts DROP COLUMN display_name;
ALTER TABLE facts ADD COLUMN display_name text GENERATED ALWAYS AS (
  left(
    regexp_replace(
      regexp_replace(
        regexp_replace(
          regexp_replace(text, '\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)', '\1', 'g'),
          '(?<!\\)\*+', '', 'g'),
        '(?<![[:alnum:]_\\])_+|_+(?![[:alnum:]_])', '', 'g'),
      '\\([][\\`*_{}()#+.!<>-])', '\1', 'g'),
    200)
) STORED;
