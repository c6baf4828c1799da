ALTER TABLE "products" ADD COLUMN "personal_use" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "personal_use" boolean DEFAULT false NOT NULL;