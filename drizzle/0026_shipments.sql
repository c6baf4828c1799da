CREATE TABLE "shipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"status" text NOT NULL,
	"provider" text,
	"carrier" text,
	"service" text,
	"service_name" text,
	"tracking_number" text,
	"tracking_url" text,
	"label_url" text,
	"label_pdf" "bytea",
	"provider_shipment_id" text,
	"price" integer,
	"cash_on_delivery_amount" integer DEFAULT 0 NOT NULL,
	"status_text" text,
	"events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"provider_message" text,
	"requested_by" text,
	"last_tracked_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipments_bought_has_tracking" CHECK ("shipments"."status" in ('requested', 'retrying', 'failed', 'skipped') or "shipments"."tracking_number" is not null)
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "weight_grams" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "length_cm" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "width_cm" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "height_cm" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tracking_url" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_order_idx" ON "shipments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "shipments_status_idx" ON "shipments" USING btree ("status");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_package_positive" CHECK (coalesce("products"."weight_grams", 1) > 0 and coalesce("products"."length_cm", 1) > 0 and coalesce("products"."width_cm", 1) > 0 and coalesce("products"."height_cm", 1) > 0);