DROP INDEX "orders_client_address_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "client_network" text;--> statement-breakpoint
CREATE INDEX "orders_client_network_idx" ON "orders" USING btree ("client_network");