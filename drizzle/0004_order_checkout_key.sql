ALTER TABLE "orders" ADD COLUMN "checkout_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_checkoutKey_unique" UNIQUE("checkout_key");