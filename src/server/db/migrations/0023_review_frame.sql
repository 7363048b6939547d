CREATE TABLE "sealed_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ref_id" integer NOT NULL,
	"label" text NOT NULL,
	"mime" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer,
	"height" integer,
	"sha256" text NOT NULL,
	"data" "bytea",
	"created_at" timestamp with time zone NOT NULL,
	"purged_at" timestamp with time zone,
	CONSTRAINT "sealed_files_kind_ck" CHECK ("sealed_files"."kind" in ('verify', 'handle', 'feedback'))
);
--> statement-breakpoint
CREATE INDEX "sealed_files_ref_idx" ON "sealed_files" USING btree ("kind","ref_id");