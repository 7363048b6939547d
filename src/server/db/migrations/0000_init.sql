CREATE TABLE "agreements" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"code" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_config" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb
);
--> statement-breakpoint
CREATE TABLE "auth_items" (
	"id" text PRIMARY KEY NOT NULL,
	"parent_id" text,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"para" text NOT NULL,
	"type" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "districts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"lat" double precision,
	"lon" double precision,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "districts_name_unique" UNIQUE("name"),
	CONSTRAINT "districts_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "pay_info" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "pay_info_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "role_group_items" (
	"group_id" integer NOT NULL,
	"item_id" text NOT NULL,
	CONSTRAINT "role_group_items_group_id_item_id_pk" PRIMARY KEY("group_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "role_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "role_groups_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "server_secret" (
	"id" smallint PRIMARY KEY NOT NULL,
	"jwt_secret" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "sys_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"operator_id" integer,
	"operator_login" text,
	"operation_type" text NOT NULL,
	"target" text,
	"summary" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"ip" text,
	"result" smallint NOT NULL,
	"district_id" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"login" text NOT NULL,
	"first_name" text NOT NULL,
	"phone" text,
	"password_hash" text NOT NULL,
	"activated" boolean DEFAULT true NOT NULL,
	"authorities" text[] NOT NULL,
	"group_id" integer,
	"district_id" integer,
	"open_district" boolean DEFAULT false NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"failed_window_start" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"password_changed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "users_login_unique" UNIQUE("login")
);
--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_group_items" ADD CONSTRAINT "role_group_items_group_id_role_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."role_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_group_items" ADD CONSTRAINT "role_group_items_item_id_auth_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."auth_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_group_id_role_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."role_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agreements_district_code_uq" ON "agreements" USING btree ("district_id","code");--> statement-breakpoint
CREATE INDEX "sessions_live_idx" ON "sessions" USING btree ("user_id") WHERE "sessions"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "sys_log_created_idx" ON "sys_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sys_log_type_idx" ON "sys_log" USING btree ("operation_type","created_at");--> statement-breakpoint
CREATE INDEX "users_district_idx" ON "users" USING btree ("district_id");