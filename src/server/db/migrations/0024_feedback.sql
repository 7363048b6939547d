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
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_handler_id_users_id_fk" FOREIGN KEY ("handler_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feedback_district_idx" ON "feedback" USING btree ("district_id","status","due_at");--> statement-breakpoint
CREATE INDEX "feedback_bus_idx" ON "feedback" USING btree ("bus_no","occurred_at");--> statement-breakpoint
CREATE INDEX "feedback_handler_idx" ON "feedback" USING btree ("handler_id","status");--> statement-breakpoint
CREATE INDEX "feedback_rider_idx" ON "feedback" USING btree ("rider_id");