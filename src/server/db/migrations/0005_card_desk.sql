CREATE TABLE "bus_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_no" text NOT NULL,
	"district_id" integer NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"category" smallint NOT NULL,
	"rider_id" integer,
	"balance" integer DEFAULT 0 NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bus_cards_card_no_unique" UNIQUE("card_no"),
	CONSTRAINT "bus_cards_state_ck" CHECK ("bus_cards"."state" between 0 and 11),
	CONSTRAINT "bus_cards_category_ck" CHECK ("bus_cards"."category" between 1 and 6)
);
--> statement-breakpoint
CREATE TABLE "discount_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"product_id" integer NOT NULL,
	"card_id" integer NOT NULL,
	"rider_id" integer,
	"district_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"pay_status" smallint DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "discount_orders_order_no_unique" UNIQUE("order_no"),
	CONSTRAINT "discount_orders_pay_ck" CHECK ("discount_orders"."pay_status" in (0, 1, 2))
);
--> statement-breakpoint
CREATE TABLE "discount_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"name" text NOT NULL,
	"ticket_type" smallint NOT NULL,
	"price" integer NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"valid_days" integer NOT NULL,
	"description" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "discount_products_ticket_ck" CHECK ("discount_products"."ticket_type" in (1, 2, 3))
);
--> statement-breakpoint
CREATE TABLE "family_bindings" (
	"id" serial PRIMARY KEY NOT NULL,
	"holder_id" integer NOT NULL,
	"card_id" integer NOT NULL,
	"district_id" integer NOT NULL,
	"relation" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"bound_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"unbound_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "family_renewals" (
	"id" serial PRIMARY KEY NOT NULL,
	"binding_id" integer NOT NULL,
	"district_id" integer NOT NULL,
	"months" integer NOT NULL,
	"amount" integer NOT NULL,
	"renewed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"reason" text NOT NULL,
	"operator_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "refunds_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "refunds_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "riders" (
	"id" serial PRIMARY KEY NOT NULL,
	"district_id" integer NOT NULL,
	"phone_enc" text NOT NULL,
	"phone_idx" text NOT NULL,
	"citizen_enc" text,
	"citizen_idx" text,
	"name_enc" text,
	"real_name" smallint DEFAULT 0 NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"abnormal_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bus_cards" ADD CONSTRAINT "bus_cards_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bus_cards" ADD CONSTRAINT "bus_cards_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_orders" ADD CONSTRAINT "discount_orders_product_id_discount_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."discount_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_orders" ADD CONSTRAINT "discount_orders_card_id_bus_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."bus_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_orders" ADD CONSTRAINT "discount_orders_rider_id_riders_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_orders" ADD CONSTRAINT "discount_orders_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_products" ADD CONSTRAINT "discount_products_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_bindings" ADD CONSTRAINT "family_bindings_holder_id_riders_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."riders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_bindings" ADD CONSTRAINT "family_bindings_card_id_bus_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."bus_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_bindings" ADD CONSTRAINT "family_bindings_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_renewals" ADD CONSTRAINT "family_renewals_binding_id_family_bindings_id_fk" FOREIGN KEY ("binding_id") REFERENCES "public"."family_bindings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_renewals" ADD CONSTRAINT "family_renewals_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_discount_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."discount_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "riders" ADD CONSTRAINT "riders_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bus_cards_rider_idx" ON "bus_cards" USING btree ("rider_id");--> statement-breakpoint
CREATE INDEX "bus_cards_district_idx" ON "bus_cards" USING btree ("district_id","id");--> statement-breakpoint
CREATE INDEX "discount_orders_card_idx" ON "discount_orders" USING btree ("card_id");--> statement-breakpoint
CREATE INDEX "discount_orders_district_idx" ON "discount_orders" USING btree ("district_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "family_bindings_live_card_uq" ON "family_bindings" USING btree ("card_id") WHERE "family_bindings"."status" = 1;--> statement-breakpoint
CREATE INDEX "family_bindings_holder_idx" ON "family_bindings" USING btree ("holder_id");--> statement-breakpoint
CREATE INDEX "family_bindings_district_idx" ON "family_bindings" USING btree ("district_id","id");--> statement-breakpoint
CREATE INDEX "family_renewals_binding_idx" ON "family_renewals" USING btree ("binding_id");--> statement-breakpoint
CREATE INDEX "family_renewals_district_idx" ON "family_renewals" USING btree ("district_id","renewed_at");--> statement-breakpoint
CREATE INDEX "riders_phone_idx" ON "riders" USING btree ("phone_idx");--> statement-breakpoint
CREATE INDEX "riders_citizen_idx" ON "riders" USING btree ("citizen_idx");--> statement-breakpoint
CREATE INDEX "riders_district_idx" ON "riders" USING btree ("district_id","id");