ALTER TABLE "products" ADD COLUMN "vat" text;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_vat_rate" CHECK ("products"."vat" in ('excluded', 'exempt', '5', '19'));