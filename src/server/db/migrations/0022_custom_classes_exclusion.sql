-- 排班 (second wave §12): one car, and one driver, never on two live classes at overlapping times,
-- whoever writes. btree_gist lets the gist index compare the id with =; where the extension cannot
-- be created the constraints are skipped and the service's car/driver row locks (for update) hold
-- the rule alone.
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS btree_gist;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'btree_gist unavailable: custom_classes car/driver exclusion constraints not created';
  END;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'btree_gist') THEN
    ALTER TABLE "custom_classes" ADD CONSTRAINT "custom_classes_car_overlap_ex"
      EXCLUDE USING gist ("car_id" WITH =, tstzrange("depart_at", "arrive_at") WITH &&) WHERE ("car_id" IS NOT NULL AND "status" <> 4);
    ALTER TABLE "custom_classes" ADD CONSTRAINT "custom_classes_driver_overlap_ex"
      EXCLUDE USING gist ("driver_id" WITH =, tstzrange("depart_at", "arrive_at") WITH &&) WHERE ("driver_id" IS NOT NULL AND "status" <> 4);
  END IF;
END $$;
