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
ALTER TABLE "help_catalogs" ADD CONSTRAINT "help_catalogs_parent_id_help_catalogs_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."help_catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_doc_votes" ADD CONSTRAINT "help_doc_votes_doc_id_help_docs_id_fk" FOREIGN KEY ("doc_id") REFERENCES "public"."help_docs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_doc_votes" ADD CONSTRAINT "help_doc_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_catalog_id_help_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."help_catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "help_catalogs_parent_idx" ON "help_catalogs" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "help_catalogs_name_uq" ON "help_catalogs" USING btree (coalesce("parent_id", 0),"name");--> statement-breakpoint
CREATE INDEX "help_docs_catalog_idx" ON "help_docs" USING btree ("catalog_id","status");--> statement-breakpoint
CREATE INDEX "help_docs_page_idx" ON "help_docs" USING btree ("page_key") WHERE "help_docs"."page_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "help_docs_title_uq" ON "help_docs" USING btree ("catalog_id",coalesce("district_id", 0),"title");