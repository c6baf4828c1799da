CREATE TABLE "order_claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pendiente' NOT NULL,
	"cause" text,
	"learned_on" date,
	"description" text DEFAULT '' NOT NULL,
	"deadline" date NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"decision_note" text
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_claims" ADD CONSTRAINT "order_claims_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_claims_order_idx" ON "order_claims" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_claims_one_open_idx" ON "order_claims" USING btree ("order_id") WHERE "order_claims"."status" = 'pendiente';--> statement-breakpoint
-- Orders completed before: delivered when they were completed (their "completed" event).
UPDATE "orders" SET "delivered_at" = COALESCE(
  (SELECT max("created_at") FROM "order_events" WHERE "order_events"."order_id" = "orders"."id" AND "order_events"."type" = 'completed'),
  "updated_at"
) WHERE "status" = 'Completado' AND "delivered_at" IS NULL;
