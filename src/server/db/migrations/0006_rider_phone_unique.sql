DROP INDEX "riders_phone_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "riders_phone_uq" ON "riders" USING btree ("phone_idx");