CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer,
	"name" text NOT NULL,
	"type" smallint NOT NULL,
	"rule" jsonb NOT NULL,
	"line_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"card_categories" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"pay_channels" text[] DEFAULT '{}'::text[] NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"enabled" boolean NOT NULL,
	"enabled_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"budget_fen" bigint NOT NULL,
	"used_fen" bigint DEFAULT 0 NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"stackable" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "activities_type_ck" CHECK ("activities"."type" between 1 and 4),
	CONSTRAINT "activities_name_ck" CHECK (char_length("activities"."name") between 1 and 30),
	CONSTRAINT "activities_window_ck" CHECK ("activities"."end_at" > "activities"."start_at"),
	CONSTRAINT "activities_budget_ck" CHECK ("activities"."budget_fen" > 0 and "activities"."used_fen" >= 0 and "activities"."used_fen" <= "activities"."budget_fen"),
	CONSTRAINT "activities_priority_ck" CHECK ("activities"."priority" between 0 and 999)
);
--> statement-breakpoint
CREATE TABLE "activity_counters" (
	"key" text NOT NULL,
	"subject" text NOT NULL,
	"period" text NOT NULL,
	"times" integer DEFAULT 0 NOT NULL,
	"fen" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "activity_counters_pk" PRIMARY KEY("key","subject","period"),
	CONSTRAINT "activity_counters_ck" CHECK ("activity_counters"."times" >= 0 and "activity_counters"."fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "activity_limits" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer,
	"activity_id" integer,
	"dimension" text NOT NULL,
	"period" text NOT NULL,
	"max_times" integer DEFAULT 0 NOT NULL,
	"max_fen" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "activity_limits_dimension_ck" CHECK ("activity_limits"."dimension" in ('rider', 'card')),
	CONSTRAINT "activity_limits_period_ck" CHECK ("activity_limits"."period" in ('day', 'month')),
	CONSTRAINT "activity_limits_caps_ck" CHECK ("activity_limits"."max_times" >= 0 and "activity_limits"."max_fen" >= 0 and ("activity_limits"."max_times" > 0 or "activity_limits"."max_fen" > 0))
);
--> statement-breakpoint
CREATE TABLE "activity_usages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"activity_id" integer NOT NULL,
	"ride_record_id" bigint,
	"ride_at" timestamp with time zone NOT NULL,
	"district_id" integer NOT NULL,
	"card_no" text NOT NULL,
	"rider_id" integer,
	"line_code" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"discount_fen" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "activity_usages_discount_ck" CHECK ("activity_usages"."discount_fen" > 0 and "activity_usages"."discount_fen" <= "activity_usages"."amount_fen")
);
--> statement-breakpoint
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
CREATE TABLE "handle_card_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"apply_no" text NOT NULL,
	"district_id" integer NOT NULL,
	"rider_id" integer NOT NULL,
	"card_category" smallint NOT NULL,
	"name_enc" text NOT NULL,
	"id_enc" text NOT NULL,
	"id_hash" text NOT NULL,
	"phone_enc" text NOT NULL,
	"phone_idx" text NOT NULL,
	"address_enc" text,
	"address_street" text,
	"birth_date" date NOT NULL,
	"guardian_consent" boolean DEFAULT false NOT NULL,
	"school" text,
	"delivery" smallint NOT NULL,
	"pickup_point" text,
	"fee" integer NOT NULL,
	"pay_status" smallint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"reason" text,
	"reviewer_id" integer,
	"claim_by" integer,
	"claim_until" timestamp with time zone,
	"decision_key" text,
	"card_no" text,
	"batch_no" text,
	"tracking_no" text,
	"precheck" jsonb NOT NULL,
	"precheck_green" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"shipped_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"images_purged_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "handle_card_applications_status_ck" CHECK ("handle_card_applications"."status" between 0 and 6),
	CONSTRAINT "handle_card_applications_pay_ck" CHECK ("handle_card_applications"."pay_status" between 0 and 2),
	CONSTRAINT "handle_card_applications_category_ck" CHECK ("handle_card_applications"."card_category" in (2, 4, 5, 6)),
	CONSTRAINT "handle_card_applications_delivery_ck" CHECK ("handle_card_applications"."delivery" in (1, 2)),
	CONSTRAINT "handle_card_applications_fee_ck" CHECK ("handle_card_applications"."fee" >= 0),
	CONSTRAINT "handle_card_applications_claim_ck" CHECK (("handle_card_applications"."claim_by" is null) = ("handle_card_applications"."claim_until" is null)),
	CONSTRAINT "handle_card_applications_card_ck" CHECK ("handle_card_applications"."status" not in (2, 4, 5) or "handle_card_applications"."card_no" is not null),
	CONSTRAINT "handle_card_applications_tracking_ck" CHECK ("handle_card_applications"."status" not in (4, 5) or "handle_card_applications"."delivery" = 1 or "handle_card_applications"."tracking_no" is not null)
);
--> statement-breakpoint
CREATE TABLE "handle_card_pool" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_no" text NOT NULL,
	"card_category" smallint NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"application_id" integer,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "handle_card_pool_state_ck" CHECK ("handle_card_pool"."state" in (0, 1, 2)),
	CONSTRAINT "handle_card_pool_app_ck" CHECK ("handle_card_pool"."state" = 0 or "handle_card_pool"."application_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "handle_card_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"card_category" smallint NOT NULL,
	"open" boolean DEFAULT false NOT NULL,
	"age_min" integer DEFAULT 0 NOT NULL,
	"age_max" integer DEFAULT 120 NOT NULL,
	"fee_fen" integer DEFAULT 0 NOT NULL,
	"delivery_modes" integer[] NOT NULL,
	"materials" text[] NOT NULL,
	"one_per_id" boolean DEFAULT true NOT NULL,
	"daily_quota" integer DEFAULT 0 NOT NULL,
	"rule_text" text DEFAULT '' NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "handle_card_settings_category_ck" CHECK ("handle_card_settings"."card_category" in (2, 4, 5, 6)),
	CONSTRAINT "handle_card_settings_age_ck" CHECK ("handle_card_settings"."age_min" >= 0 and "handle_card_settings"."age_min" <= "handle_card_settings"."age_max" and "handle_card_settings"."age_max" <= 120),
	CONSTRAINT "handle_card_settings_fee_ck" CHECK ("handle_card_settings"."fee_fen" >= 0 and "handle_card_settings"."daily_quota" >= 0),
	CONSTRAINT "handle_card_settings_rule_ck" CHECK (char_length("handle_card_settings"."rule_text") <= 5000)
);
--> statement-breakpoint
CREATE TABLE "feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"rider_id" integer NOT NULL,
	"contact_phone_enc" text,
	"category" smallint NOT NULL,
	"content" text NOT NULL,
	"image_count" smallint DEFAULT 0 NOT NULL,
	"line_code" text,
	"line_name" text,
	"bus_no" text,
	"occurred_at" timestamp with time zone,
	"status" smallint DEFAULT 0 NOT NULL,
	"handler_id" integer,
	"reply" text,
	"replied_at" timestamp with time zone,
	"close_reason" text,
	"due_at" timestamp with time zone NOT NULL,
	"linked_ride_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "feedback_status_ck" CHECK ("feedback"."status" between 0 and 3),
	CONSTRAINT "feedback_category_ck" CHECK ("feedback"."category" between 1 and 5),
	CONSTRAINT "feedback_content_ck" CHECK (char_length("feedback"."content") between 1 and 500),
	CONSTRAINT "feedback_reply_ck" CHECK ("feedback"."reply" is null or char_length("feedback"."reply") <= 500),
	CONSTRAINT "feedback_images_ck" CHECK ("feedback"."image_count" between 0 and 3),
	CONSTRAINT "feedback_replied_ck" CHECK ("feedback"."status" <> 1 or ("feedback"."reply" is not null and "feedback"."replied_at" is not null and "feedback"."handler_id" is not null)),
	CONSTRAINT "feedback_declined_ck" CHECK ("feedback"."status" <> 2 or ("feedback"."close_reason" is not null and "feedback"."handler_id" is not null)),
	CONSTRAINT "feedback_handling_ck" CHECK ("feedback"."status" <> 3 or "feedback"."handler_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "help_catalogs" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"audience" smallint NOT NULL,
	"level" smallint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "help_catalogs_audience_ck" CHECK ("help_catalogs"."audience" in (1, 2)),
	CONSTRAINT "help_catalogs_level_ck" CHECK ("help_catalogs"."level" between 1 and 3 and ("help_catalogs"."level" = 1) = ("help_catalogs"."parent_id" is null)),
	CONSTRAINT "help_catalogs_name_ck" CHECK (char_length("help_catalogs"."name") between 1 and 20)
);
--> statement-breakpoint
CREATE TABLE "help_doc_votes" (
	"doc_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"helpful" boolean NOT NULL,
	"voted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "help_doc_votes_doc_id_user_id_pk" PRIMARY KEY("doc_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "help_docs" (
	"id" serial PRIMARY KEY NOT NULL,
	"catalog_id" integer NOT NULL,
	"district_id" integer,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"content_text" text NOT NULL,
	"audience" smallint NOT NULL,
	"page_key" text,
	"status" smallint DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "help_docs_status_ck" CHECK ("help_docs"."status" between 0 and 2),
	CONSTRAINT "help_docs_audience_ck" CHECK ("help_docs"."audience" in (1, 2)),
	CONSTRAINT "help_docs_title_ck" CHECK (char_length("help_docs"."title") between 1 and 50),
	CONSTRAINT "help_docs_content_ck" CHECK (char_length("help_docs"."content") <= 50000),
	CONSTRAINT "help_docs_page_ck" CHECK ("help_docs"."page_key" is null or "help_docs"."audience" = 2)
);
--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "line_codes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_limits" ADD CONSTRAINT "activity_limits_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_limits" ADD CONSTRAINT "activity_limits_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_usages" ADD CONSTRAINT "activity_usages_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
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
ALTER TABLE "handle_card_applications" ADD CONSTRAINT "handle_card_applications_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handle_card_applications" ADD CONSTRAINT "handle_card_applications_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handle_card_applications" ADD CONSTRAINT "handle_card_applications_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handle_card_applications" ADD CONSTRAINT "handle_card_applications_claim_by_users_id_fk" FOREIGN KEY ("claim_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handle_card_pool" ADD CONSTRAINT "handle_card_pool_application_id_handle_card_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."handle_card_applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handle_card_settings" ADD CONSTRAINT "handle_card_settings_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handle_card_settings" ADD CONSTRAINT "handle_card_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_handler_id_users_id_fk" FOREIGN KEY ("handler_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_catalogs" ADD CONSTRAINT "help_catalogs_parent_id_help_catalogs_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."help_catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_doc_votes" ADD CONSTRAINT "help_doc_votes_doc_id_help_docs_id_fk" FOREIGN KEY ("doc_id") REFERENCES "public"."help_docs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_doc_votes" ADD CONSTRAINT "help_doc_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_catalog_id_help_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."help_catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_district_idx" ON "activities" USING btree ("district_id","start_at");--> statement-breakpoint
CREATE INDEX "activities_live_idx" ON "activities" USING btree ("end_at") WHERE "activities"."enabled" and "activities"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "activity_limits_district_idx" ON "activity_limits" USING btree ("district_id");--> statement-breakpoint
CREATE INDEX "activity_usages_activity_idx" ON "activity_usages" USING btree ("activity_id","ride_at");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_usages_ride_uq" ON "activity_usages" USING btree ("activity_id","ride_record_id") WHERE "activity_usages"."ride_record_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "card_verify_applications_no_uq" ON "card_verify_applications" USING btree ("apply_no");--> statement-breakpoint
CREATE UNIQUE INDEX "card_verify_applications_pending_uq" ON "card_verify_applications" USING btree ("card_id") WHERE "card_verify_applications"."status" = 0;--> statement-breakpoint
CREATE INDEX "card_verify_applications_district_idx" ON "card_verify_applications" USING btree ("district_id","created_at");--> statement-breakpoint
CREATE INDEX "card_verify_applications_card_idx" ON "card_verify_applications" USING btree ("card_no","created_at");--> statement-breakpoint
CREATE INDEX "card_verify_applications_id_idx" ON "card_verify_applications" USING btree ("id_idx");--> statement-breakpoint
CREATE INDEX "card_verify_applications_queue_idx" ON "card_verify_applications" USING btree ("created_at") WHERE "card_verify_applications"."status" = 0;--> statement-breakpoint
CREATE INDEX "card_verify_applications_due_idx" ON "card_verify_applications" USING btree ("valid_until") WHERE "card_verify_applications"."status" = 1;--> statement-breakpoint
CREATE UNIQUE INDEX "card_verify_batches_key_uq" ON "card_verify_batches" USING btree ("operator_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "card_verify_configs_uq" ON "card_verify_configs" USING btree ("district_id","category");--> statement-breakpoint
CREATE UNIQUE INDEX "card_verify_reminders_uq" ON "card_verify_reminders" USING btree ("card_no","valid_until");--> statement-breakpoint
CREATE UNIQUE INDEX "handle_card_applications_no_uq" ON "handle_card_applications" USING btree ("apply_no");--> statement-breakpoint
CREATE UNIQUE INDEX "handle_card_applications_live_uq" ON "handle_card_applications" USING btree ("id_hash","card_category") WHERE "handle_card_applications"."status" in (0, 1, 2, 4);--> statement-breakpoint
CREATE UNIQUE INDEX "handle_card_applications_card_uq" ON "handle_card_applications" USING btree ("card_no") WHERE "handle_card_applications"."card_no" is not null and "handle_card_applications"."status" in (2, 4, 5);--> statement-breakpoint
CREATE UNIQUE INDEX "handle_card_applications_decision_uq" ON "handle_card_applications" USING btree ("decision_key");--> statement-breakpoint
CREATE INDEX "handle_card_applications_district_idx" ON "handle_card_applications" USING btree ("district_id","created_at");--> statement-breakpoint
CREATE INDEX "handle_card_applications_status_idx" ON "handle_card_applications" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "handle_card_applications_phone_idx" ON "handle_card_applications" USING btree ("phone_idx");--> statement-breakpoint
CREATE INDEX "handle_card_applications_id_idx" ON "handle_card_applications" USING btree ("id_hash");--> statement-breakpoint
CREATE INDEX "handle_card_applications_batch_idx" ON "handle_card_applications" USING btree ("batch_no");--> statement-breakpoint
CREATE UNIQUE INDEX "handle_card_pool_no_uq" ON "handle_card_pool" USING btree ("card_no");--> statement-breakpoint
CREATE INDEX "handle_card_pool_free_idx" ON "handle_card_pool" USING btree ("card_category","id") WHERE "handle_card_pool"."state" = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "handle_card_settings_uq" ON "handle_card_settings" USING btree ("district_id","card_category");--> statement-breakpoint
CREATE INDEX "feedback_district_idx" ON "feedback" USING btree ("district_id","status","due_at");--> statement-breakpoint
CREATE INDEX "feedback_bus_idx" ON "feedback" USING btree ("bus_no","occurred_at");--> statement-breakpoint
CREATE INDEX "feedback_handler_idx" ON "feedback" USING btree ("handler_id","status");--> statement-breakpoint
CREATE INDEX "feedback_rider_idx" ON "feedback" USING btree ("rider_id");--> statement-breakpoint
CREATE INDEX "help_catalogs_parent_idx" ON "help_catalogs" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "help_catalogs_name_uq" ON "help_catalogs" USING btree (coalesce("parent_id", 0),"name");--> statement-breakpoint
CREATE INDEX "help_docs_catalog_idx" ON "help_docs" USING btree ("catalog_id","status");--> statement-breakpoint
CREATE INDEX "help_docs_page_idx" ON "help_docs" USING btree ("page_key") WHERE "help_docs"."page_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "help_docs_title_uq" ON "help_docs" USING btree ("catalog_id",coalesce("district_id", 0),"title");