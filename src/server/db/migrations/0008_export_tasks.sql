CREATE TABLE "export_file_chunks" (
	"task_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "export_file_chunks_pk" PRIMARY KEY("task_id","seq")
);
--> statement-breakpoint
CREATE TABLE "export_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"file_name" text NOT NULL,
	"params" jsonb NOT NULL,
	"user_id" integer NOT NULL,
	"district_scope" integer,
	"phase" text NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"rows_total" integer,
	"file_size" bigint,
	"error" text,
	"claimed_by" text,
	"heartbeat_at" timestamp with time zone,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "export_file_chunks" ADD CONSTRAINT "export_file_chunks_task_id_export_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."export_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_tasks_user_idx" ON "export_tasks" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "export_tasks_open_idx" ON "export_tasks" USING btree ("phase","id") WHERE phase in ('queued', 'running');