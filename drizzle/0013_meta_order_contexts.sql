CREATE TABLE "meta_order_contexts" (
	"order_id" text PRIMARY KEY NOT NULL,
	"event_source_url" text NOT NULL,
	"client_ip_address" text,
	"client_user_agent" text,
	"fbp" text,
	"fbc" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meta_order_contexts" ADD CONSTRAINT "meta_order_contexts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meta_order_contexts_created_idx" ON "meta_order_contexts" USING btree ("created_at");