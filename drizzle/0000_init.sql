CREATE TABLE "categories" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image_media_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_sku" text,
	"kind" text NOT NULL,
	"path" text NOT NULL,
	"mime_type" text NOT NULL,
	"width" integer,
	"height" integer,
	"variants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"is_main" boolean DEFAULT false NOT NULL,
	"alt" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_categories" (
	"product_sku" text NOT NULL,
	"category_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_categories_product_sku_category_id_pk" PRIMARY KEY("product_sku","category_id")
);
--> statement-breakpoint
CREATE TABLE "product_locations" (
	"product_sku" text NOT NULL,
	"code" text NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_locations_product_sku_code_pk" PRIMARY KEY("product_sku","code")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"sku" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"search_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"cost" integer DEFAULT 0 NOT NULL,
	"price_level1" integer DEFAULT 0 NOT NULL,
	"price_level2" integer DEFAULT 0 NOT NULL,
	"price_level3" integer DEFAULT 0 NOT NULL,
	"price_level4" integer DEFAULT 0 NOT NULL,
	"price_level5" integer DEFAULT 0 NOT NULL,
	"discount_percent" integer DEFAULT 0 NOT NULL,
	"purchase_link" text,
	"supplier_info" text,
	"show_wholesale" boolean DEFAULT false NOT NULL,
	"show_retail" boolean DEFAULT true NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"reserved" integer DEFAULT 0 NOT NULL,
	"units_in" integer DEFAULT 0 NOT NULL,
	"units_out" integer DEFAULT 0 NOT NULL,
	"shuffle_key" integer DEFAULT floor(random() * 2147483647)::int NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_stock_not_negative" CHECK ("products"."stock" >= 0),
	CONSTRAINT "products_reserved_within_stock" CHECK ("products"."reserved" >= 0 and "products"."reserved" <= "products"."stock"),
	CONSTRAINT "products_discount_percent_range" CHECK ("products"."discount_percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_sku" text NOT NULL,
	"type" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" integer NOT NULL,
	"total" integer NOT NULL,
	"receipt" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"location" text NOT NULL,
	"order_id" text,
	"stock_after" integer NOT NULL,
	"average_cost_after" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"type" text NOT NULL,
	"message" text NOT NULL,
	"data" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"order_id" text NOT NULL,
	"product_sku" text NOT NULL,
	"title" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" integer NOT NULL,
	CONSTRAINT "order_items_order_id_product_sku_pk" PRIMARY KEY("order_id","product_sku"),
	CONSTRAINT "order_items_quantity_positive" CHECK ("order_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"number" integer GENERATED ALWAYS AS IDENTITY (sequence name "orders_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1001 CACHE 1),
	"status" text DEFAULT 'pendiente de pago' NOT NULL,
	"shipped_at" timestamp with time zone,
	"payment_method" text DEFAULT 'acordar' NOT NULL,
	"customer_name" text NOT NULL,
	"customer_last_name" text DEFAULT '' NOT NULL,
	"customer_identification_number" text DEFAULT '' NOT NULL,
	"customer_phone" text NOT NULL,
	"customer_email" text DEFAULT '' NOT NULL,
	"customer_address" text NOT NULL,
	"customer_city" text DEFAULT '' NOT NULL,
	"customer_department" text NOT NULL,
	"subtotal" integer NOT NULL,
	"shipping_cost" integer NOT NULL,
	"total" integer NOT NULL,
	"reservation_held" boolean DEFAULT true NOT NULL,
	"payment_preference_id" text,
	"payment_id" text,
	"payment_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_number_unique" UNIQUE("number"),
	CONSTRAINT "orders_total_matches" CHECK ("orders"."total" = "orders"."subtotal" + "orders"."shipping_cost")
);
--> statement-breakpoint
CREATE TABLE "admin_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"display_name" text,
	"picture_url" text,
	"profile" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "click_counts" (
	"month" text NOT NULL,
	"element_name" text NOT NULL,
	"click_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "click_counts_month_element_name_pk" PRIMARY KEY("month","element_name")
);
--> statement-breakpoint
CREATE TABLE "page_views" (
	"month" text NOT NULL,
	"page_name" text NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"total_time_seconds" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "page_views_month_page_name_pk" PRIMARY KEY("month","page_name")
);
--> statement-breakpoint
CREATE TABLE "banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"kind" text DEFAULT 'image' NOT NULL,
	"desktop_media_id" integer NOT NULL,
	"mobile_media_id" integer,
	"alt" text DEFAULT '' NOT NULL,
	"link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"topic" text NOT NULL,
	"resource_id" text NOT NULL,
	"payload" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "simulated_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"status" text NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_product_sku_products_sku_fk" FOREIGN KEY ("product_sku") REFERENCES "public"."products"("sku") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_product_sku_products_sku_fk" FOREIGN KEY ("product_sku") REFERENCES "public"."products"("sku") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_locations" ADD CONSTRAINT "product_locations_product_sku_products_sku_fk" FOREIGN KEY ("product_sku") REFERENCES "public"."products"("sku") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_product_sku_products_sku_fk" FOREIGN KEY ("product_sku") REFERENCES "public"."products"("sku") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_product_idx" ON "media" USING btree ("product_sku","position");--> statement-breakpoint
CREATE UNIQUE INDEX "media_one_main_per_product_idx" ON "media" USING btree ("product_sku") WHERE "media"."is_main";--> statement-breakpoint
CREATE INDEX "product_categories_category_idx" ON "product_categories" USING btree ("category_id","product_sku");--> statement-breakpoint
CREATE INDEX "products_retail_shuffle_idx" ON "products" USING btree ("shuffle_key") WHERE "products"."show_retail" and "products"."stock" > "products"."reserved";--> statement-breakpoint
CREATE INDEX "products_retail_best_sellers_idx" ON "products" USING btree ("units_out" DESC NULLS LAST,"sku") WHERE "products"."show_retail" and "products"."stock" > "products"."reserved";--> statement-breakpoint
CREATE INDEX "products_created_idx" ON "products" USING btree ("created_at" DESC NULLS LAST,"sku");--> statement-breakpoint
CREATE INDEX "stock_movements_product_idx" ON "stock_movements" USING btree ("product_sku","created_at");--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_status_created_idx" ON "orders" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "admin_sessions_expires_idx" ON "admin_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "payment_events_resource_idx" ON "payment_events" USING btree ("resource_id");