-- Receivers' answers are kept as a short excerpt only: rows written before that keep at most
-- 200 characters too, line breaks and tabs as spaces, other control characters and bidirectional
-- overrides removed (as src/webhooks/responseExcerpt.ts does for new rows).
UPDATE "webhook_delivery_attempts"
   SET "response_snippet" = NULLIF(
         left(
           btrim(regexp_replace(regexp_replace("response_snippet", E'[\\t\\n\\v\\f\\r]+', ' ', 'g'),
                                E'[\\x01-\\x1f\\x7f-\\x9f\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]', '', 'g')),
           200),
         '')
 WHERE "response_snippet" IS NOT NULL;
