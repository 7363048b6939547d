-- The wallet ledger is append-only (second wave §9): a correction is a new row (人工调整, 退款),
-- never an edit. The trigger refuses UPDATE and DELETE for every role, the owner included, so no
-- code path, console or psql session can rewrite a wallet's history.
CREATE OR REPLACE FUNCTION wallet_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'wallet_ledger is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER wallet_ledger_no_update_delete BEFORE UPDATE OR DELETE ON wallet_ledger FOR EACH ROW EXECUTE FUNCTION wallet_ledger_append_only();
