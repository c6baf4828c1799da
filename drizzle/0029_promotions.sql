CREATE TABLE "order_discounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"promotion_id" integer NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"product_sku" text,
	"amount" integer NOT NULL,
	CONSTRAINT "order_discounts_amount_positive" CHECK ("order_discounts"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"benefit" text NOT NULL,
	"target" text NOT NULL,
	"percent" integer DEFAULT 0 NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	"buy_quantity" integer DEFAULT 0 NOT NULL,
	"pay_quantity" integer DEFAULT 0 NOT NULL,
	"product_skus" text[] DEFAULT '{}'::text[] NOT NULL,
	"category_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"min_subtotal" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"max_uses" integer,
	"max_uses_per_customer" integer,
	"combinable" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotions_percent_range" CHECK ("promotions"."percent" between 0 and 100),
	CONSTRAINT "promotions_amount_not_negative" CHECK ("promotions"."amount" >= 0 and "promotions"."min_subtotal" >= 0),
	CONSTRAINT "promotions_pay_below_buy" CHECK ("promotions"."pay_quantity" >= 0 and "promotions"."pay_quantity" <= "promotions"."buy_quantity")
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_total_matches";--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_discounts" ADD CONSTRAINT "order_discounts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_discounts_order_idx" ON "order_discounts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_discounts_promotion_idx" ON "order_discounts" USING btree ("promotion_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promotions_code_idx" ON "promotions" USING btree ("code");--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_discount_range" CHECK ("order_items"."discount" between 0 and "order_items"."unit_price" * "order_items"."quantity");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_matches" CHECK ("orders"."total" = "orders"."subtotal" + "orders"."shipping_cost" - "orders"."discount");--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "promotions_bump_storefront_version" AFTER INSERT OR UPDATE OR DELETE ON "promotions" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_storefront_version"();
