CREATE TABLE "card_verify_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"apply_no" text NOT NULL,
	"district_id" integer NOT NULL,
	"rider_id" integer,
	"card_id" integer NOT NULL,
	"card_no" text NOT NULL,
	"card_category" smallint NOT NULL,
	"name_enc" text NOT NULL,
	"id_enc" text NOT NULL,
	"id_idx" text NOT NULL,
	"phone_enc" text NOT NULL,
	"birth_date" date,
	"guardian_consent" boolean DEFAULT false NOT NULL,
	"school" text,
	"grade" text,
	"face_score" smallint,
	"face_result" smallint,
	"ocr_result" smallint,
	"checks" jsonb NOT NULL,
	"auto_pass" boolean NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"reason" text,
	"note" text,
	"reviewer_id" integer,
	"reviewed_at" timestamp with time zone,
	"revoked_by" integer,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text,
	"withdrawn_at" timestamp with time zone,
	"claim_by" integer,
	"claim_until" timestamp with time zone,
	"valid_until" date,
	"cycle_year" smallint NOT NULL,
	"purged_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "card_verify_applications_status_ck" CHECK ("card_verify_applications"."status" between 0 and 3),
	CONSTRAINT "card_verify_applications_category_ck" CHECK ("card_verify_applications"."card_category" in (4, 5)),
	CONSTRAINT "card_verify_applications_face_ck" CHECK ("card_verify_applications"."face_score" is null or "card_verify_applications"."face_score" between 0 and 100),
	CONSTRAINT "card_verify_applications_claim_ck" CHECK (("card_verify_applications"."claim_by" is null) = ("card_verify_applications"."claim_until" is null)),
	CONSTRAINT "card_verify_applications_approved_ck" CHECK ("card_verify_applications"."status" <> 1 or ("card_verify_applications"."valid_until" is not null and "card_verify_applications"."reviewed_at" is not null)),
	CONSTRAINT "card_verify_applications_rejected_ck" CHECK ("card_verify_applications"."status" <> 2 or "card_verify_applications"."reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "card_verify_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"operator_id" integer NOT NULL,
	"approved" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_verify_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"category" smallint NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"window_months_before" smallint DEFAULT 3 NOT NULL,
	"valid_months" smallint DEFAULT 12 NOT NULL,
	"require_face" boolean DEFAULT true NOT NULL,
	"face_threshold" smallint DEFAULT 80 NOT NULL,
	"require_ocr" boolean DEFAULT true NOT NULL,
	"yearly_proof" boolean DEFAULT false NOT NULL,
	"grace_days" smallint DEFAULT 30 NOT NULL,
	"suspend_on_miss" boolean DEFAULT true NOT NULL,
	"age_min" smallint NOT NULL,
	"age_max" smallint NOT NULL,
	"materials" jsonb NOT NULL,
	"notice_code" text,
	"updated_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "card_verify_configs_category_ck" CHECK ("card_verify_configs"."category" in (4, 5)),
	CONSTRAINT "card_verify_configs_window_ck" CHECK ("card_verify_configs"."window_months_before" between 1 and 6),
	CONSTRAINT "card_verify_configs_age_ck" CHECK ("card_verify_configs"."age_min" <= "card_verify_configs"."age_max"),
	CONSTRAINT "card_verify_configs_face_ck" CHECK ("card_verify_configs"."face_threshold" between 50 and 100)
);
--> statement-breakpoint
CREATE TABLE "card_verify_reminders" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_no" text NOT NULL,
	"district_id" integer NOT NULL,
	"valid_until" date NOT NULL,
	"sent_by" integer,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "card_verify_applications" ADD CONSTRAINT "card_verify_applications_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verify_applications" ADD CONSTRAINT "card_verify_applications_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verify_applications" ADD CONSTRAINT "card_verify_applications_card_id_bus_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."bus_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verify_applications" ADD CONSTRAINT "card_verify_applications_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verify_applications" ADD CONSTRAINT "card_verify_applications_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verify_applications" ADD CONSTRAINT "card_verify_applications_claim_by_users_id_fk" FOREIGN KEY ("claim_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verify_batches" ADD CONSTRAINT "card_verify_batches_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verify_configs" ADD CONSTRAINT "card_verify_configs_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verify_configs" ADD CONSTRAINT "card_verify_configs_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verify_reminders" ADD CONSTRAINT "card_verify_reminders_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verify_reminders" ADD CONSTRAINT "card_verify_reminders_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_verify_applications_no_uq" ON "card_verify_applications" USING btree ("apply_no");--> statement-breakpoint
CREATE UNIQUE INDEX "card_verify_applications_pending_uq" ON "card_verify_applications" USING btree ("card_id") WHERE "card_verify_applications"."status" = 0;--> statement-breakpoint
CREATE INDEX "card_verify_applications_district_idx" ON "card_verify_applications" USING btree ("district_id","created_at");--> statement-breakpoint
CREATE INDEX "card_verify_applications_card_idx" ON "card_verify_applications" USING btree ("card_no","created_at");--> statement-breakpoint
CREATE INDEX "card_verify_applications_id_idx" ON "card_verify_applications" USING btree ("id_idx");--> statement-breakpoint
CREATE INDEX "card_verify_applications_queue_idx" ON "card_verify_applications" USING btree ("created_at") WHERE "card_verify_applications"."status" = 0;--> statement-breakpoint
CREATE INDEX "card_verify_applications_due_idx" ON "card_verify_applications" USING btree ("valid_until") WHERE "card_verify_applications"."status" = 1;--> statement-breakpoint
CREATE UNIQUE INDEX "card_verify_batches_key_uq" ON "card_verify_batches" USING btree ("operator_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "card_verify_configs_uq" ON "card_verify_configs" USING btree ("district_id","category");--> statement-breakpoint
CREATE UNIQUE INDEX "card_verify_reminders_uq" ON "card_verify_reminders" USING btree ("card_no","valid_until");