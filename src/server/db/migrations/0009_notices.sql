CREATE TABLE "notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer,
	"title" text NOT NULL,
	"type" smallint NOT NULL,
	"content" text NOT NULL,
	"top" smallint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"publish_at" timestamp with time zone,
	"expire_at" timestamp with time zone,
	"view_count" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"published_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notices_status_ck" CHECK ("notices"."status" between 0 and 3),
	CONSTRAINT "notices_type_ck" CHECK ("notices"."type" between 1 and 3),
	CONSTRAINT "notices_top_ck" CHECK ("notices"."top" in (0, 1)),
	CONSTRAINT "notices_title_ck" CHECK (char_length("notices"."title") between 1 and 50),
	CONSTRAINT "notices_content_ck" CHECK (char_length("notices"."content") <= 50000),
	CONSTRAINT "notices_scheduled_ck" CHECK ("notices"."status" = 0 or "notices"."publish_at" is not null),
	CONSTRAINT "notices_expire_ck" CHECK ("notices"."expire_at" is null or "notices"."publish_at" is null or "notices"."expire_at" > "notices"."publish_at")
);
--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notices_district_idx" ON "notices" USING btree ("district_id","status");--> statement-breakpoint
CREATE INDEX "notices_due_idx" ON "notices" USING btree ("publish_at") WHERE "notices"."status" = 1;