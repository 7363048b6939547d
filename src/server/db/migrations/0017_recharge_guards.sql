-- NFC充值's ledgers are append-only: the card centre's record of a load (what 核实 and 退款 trust)
-- and an order's write attempts are written once and never changed or removed by the application.
CREATE FUNCTION recharge_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'P0001';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER card_centre_loads_append_only BEFORE UPDATE OR DELETE ON card_centre_loads FOR EACH ROW EXECUTE FUNCTION recharge_append_only();
--> statement-breakpoint
CREATE TRIGGER recharge_attempts_append_only BEFORE UPDATE OR DELETE ON recharge_attempts FOR EACH ROW EXECUTE FUNCTION recharge_append_only();
