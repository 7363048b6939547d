CREATE TABLE "stations" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"name" text NOT NULL,
	"lng" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"qr_code" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stations_qr_code_unique" UNIQUE("qr_code"),
	CONSTRAINT "stations_state_ck" CHECK ("stations"."state" in (0, 1))
);
--> statement-breakpoint
ALTER TABLE "stations" ADD CONSTRAINT "stations_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stations_district_name_idx" ON "stations" USING btree ("district_id","name");