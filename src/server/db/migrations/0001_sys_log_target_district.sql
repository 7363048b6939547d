ALTER TABLE "sys_log" ADD COLUMN "target_district_id" integer;--> statement-breakpoint
CREATE INDEX "sys_log_target_district_idx" ON "sys_log" USING btree ("target_district_id","created_at");--> statement-breakpoint
-- Backfill: which district each existing row is about. Account rows name the account's login in
-- "target" (logins are stored lower-case); the account's current district is taken, which after a
-- move is the new one, as new rows do.
UPDATE "sys_log" AS l SET "target_district_id" = u."district_id"
FROM "users" AS u
WHERE l."operation_type" IN ('USER_ADD', 'USER_UPDATE', 'USER_STATUS', 'USER_PASSWORD_RESET')
  AND u."login" = lower(l."target");--> statement-breakpoint
-- Login-type rows are about the account itself, which is also their operator; an unknown name's
-- failure has no operator and stays about no district even if that login exists now.
UPDATE "sys_log" AS l SET "target_district_id" = u."district_id"
FROM "users" AS u
WHERE l."operation_type" IN ('LOGIN', 'LOGIN_FAIL', 'LOCK', 'LOGOUT', 'PASSWORD_CHANGE')
  AND u."login" = lower(l."target")
  AND u."id" = l."operator_id";--> statement-breakpoint
-- Agreements never change district; "target" is "<districtId>/<code>". Compared as text, so a
-- malformed target matches nothing instead of failing a cast.
UPDATE "sys_log" AS l SET "target_district_id" = d."id"
FROM "districts" AS d
WHERE l."operation_type" = 'AGREEMENT_SAVE'
  AND d."id"::text = split_part(l."target", '/', 1);--> statement-breakpoint
-- Refusals, and login-type rows whose account is gone: the operator's district as logged, which for
-- these rows was the account's own district (for a logout, the district it worked in).
UPDATE "sys_log" AS l SET "target_district_id" = l."district_id"
WHERE l."operator_id" IS NOT NULL
  AND (l."operation_type" = 'DENIED'
    OR (l."operation_type" IN ('LOGIN', 'LOGIN_FAIL', 'LOCK', 'LOGOUT', 'PASSWORD_CHANGE')
      AND NOT EXISTS (SELECT 1 FROM "users" AS u WHERE u."id" = l."operator_id" AND u."login" = lower(l."target"))));--> statement-breakpoint
-- Phones in before/after (top-level "phone" of account rows) masked as maskPhone does:
-- 11 digits starting with 1 → 138****8001, 8+ characters → first 3 and last 2, 5–7 → first and
-- last, shorter → all stars. Already masked values (138****8001) are left alone.
UPDATE "sys_log" SET "before" = jsonb_set("before", '{phone}', to_jsonb(
  CASE
    WHEN btrim("before"->>'phone') ~ '^1[0-9]{10}$' THEN left(btrim("before"->>'phone'), 3) || '****' || right(btrim("before"->>'phone'), 4)
    WHEN char_length(btrim("before"->>'phone')) >= 8 THEN left(btrim("before"->>'phone'), 3) || repeat('*', char_length(btrim("before"->>'phone')) - 5) || right(btrim("before"->>'phone'), 2)
    WHEN char_length(btrim("before"->>'phone')) >= 5 THEN left(btrim("before"->>'phone'), 1) || repeat('*', char_length(btrim("before"->>'phone')) - 2) || right(btrim("before"->>'phone'), 1)
    ELSE repeat('*', char_length(btrim("before"->>'phone')))
  END))
WHERE jsonb_typeof("before") = 'object'
  AND jsonb_typeof("before"->'phone') = 'string'
  AND btrim("before"->>'phone') !~ '^[0-9]{3}\*{4}[0-9]{4}$';--> statement-breakpoint
UPDATE "sys_log" SET "after" = jsonb_set("after", '{phone}', to_jsonb(
  CASE
    WHEN btrim("after"->>'phone') ~ '^1[0-9]{10}$' THEN left(btrim("after"->>'phone'), 3) || '****' || right(btrim("after"->>'phone'), 4)
    WHEN char_length(btrim("after"->>'phone')) >= 8 THEN left(btrim("after"->>'phone'), 3) || repeat('*', char_length(btrim("after"->>'phone')) - 5) || right(btrim("after"->>'phone'), 2)
    WHEN char_length(btrim("after"->>'phone')) >= 5 THEN left(btrim("after"->>'phone'), 1) || repeat('*', char_length(btrim("after"->>'phone')) - 2) || right(btrim("after"->>'phone'), 1)
    ELSE repeat('*', char_length(btrim("after"->>'phone')))
  END))
WHERE jsonb_typeof("after") = 'object'
  AND jsonb_typeof("after"->'phone') = 'string'
  AND btrim("after"->>'phone') !~ '^[0-9]{3}\*{4}[0-9]{4}$';
