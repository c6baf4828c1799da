DROP INDEX "stock_movements_product_idx";--> statement-breakpoint
ALTER TABLE "stock_movements" ALTER COLUMN "total" SET DATA TYPE bigint;--> statement-breakpoint
CREATE INDEX "stock_movements_product_id_idx" ON "stock_movements" USING btree ("product_sku","id");