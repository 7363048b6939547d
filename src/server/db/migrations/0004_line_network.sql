CREATE TABLE "bus_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"version_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"direction" smallint DEFAULT -1 NOT NULL,
	"is_loop" boolean DEFAULT false NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"first_bus" text,
	"last_bus" text,
	"fare" integer DEFAULT 200 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bus_lines_direction_ck" CHECK ("bus_lines"."direction" in (-1, 0, 1))
);
--> statement-breakpoint
CREATE TABLE "line_detail_stations" (
	"id" serial PRIMARY KEY NOT NULL,
	"detail_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"station_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_details" (
	"id" serial PRIMARY KEY NOT NULL,
	"line_id" integer NOT NULL,
	"name" text NOT NULL,
	"direction" smallint DEFAULT 0 NOT NULL,
	"all_stations_on" boolean DEFAULT false NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"line_id" integer NOT NULL,
	"direction" smallint NOT NULL,
	"points" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_stations" (
	"id" serial PRIMARY KEY NOT NULL,
	"line_id" integer NOT NULL,
	"direction" smallint NOT NULL,
	"seq" integer NOT NULL,
	"station_id" integer NOT NULL,
	CONSTRAINT "line_stations_direction_ck" CHECK ("line_stations"."direction" in (0, 1))
);
--> statement-breakpoint
CREATE TABLE "line_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"online_at" timestamp with time zone,
	"went_online_at" timestamp with time zone,
	"remark" text,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "line_versions_status_ck" CHECK ("line_versions"."status" between 0 and 5)
);
--> statement-breakpoint
ALTER TABLE "bus_lines" ADD CONSTRAINT "bus_lines_version_id_line_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."line_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_detail_stations" ADD CONSTRAINT "line_detail_stations_detail_id_line_details_id_fk" FOREIGN KEY ("detail_id") REFERENCES "public"."line_details"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_detail_stations" ADD CONSTRAINT "line_detail_stations_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_details" ADD CONSTRAINT "line_details_line_id_bus_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."bus_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_routes" ADD CONSTRAINT "line_routes_line_id_bus_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."bus_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_stations" ADD CONSTRAINT "line_stations_line_id_bus_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."bus_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_stations" ADD CONSTRAINT "line_stations_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_versions" ADD CONSTRAINT "line_versions_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_versions" ADD CONSTRAINT "line_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bus_lines_version_code_uq" ON "bus_lines" USING btree ("version_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "line_detail_stations_seq_uq" ON "line_detail_stations" USING btree ("detail_id","seq");--> statement-breakpoint
CREATE INDEX "line_detail_stations_station_idx" ON "line_detail_stations" USING btree ("station_id");--> statement-breakpoint
CREATE UNIQUE INDEX "line_routes_line_dir_uq" ON "line_routes" USING btree ("line_id","direction");--> statement-breakpoint
CREATE UNIQUE INDEX "line_stations_line_dir_seq_uq" ON "line_stations" USING btree ("line_id","direction","seq");--> statement-breakpoint
CREATE INDEX "line_stations_station_idx" ON "line_stations" USING btree ("station_id");--> statement-breakpoint
CREATE UNIQUE INDEX "line_versions_one_open_uq" ON "line_versions" USING btree ("district_id") WHERE "line_versions"."status" = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "line_versions_one_online_uq" ON "line_versions" USING btree ("district_id") WHERE "line_versions"."status" = 3;--> statement-breakpoint
CREATE INDEX "line_versions_due_idx" ON "line_versions" USING btree ("online_at") WHERE "line_versions"."status" = 2;