CREATE TABLE "checkout_drafts" (
	"id" text PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"lines" jsonb NOT NULL,
	"token" text NOT NULL,
	"link_opened_at" timestamp with time zone,
	"order_id" text,
	"recovered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkout_drafts_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_drafts_open_phone" ON "checkout_drafts" USING btree ("phone") WHERE "checkout_drafts"."order_id" is null;--> statement-breakpoint
CREATE INDEX "checkout_drafts_updated_at" ON "checkout_drafts" USING btree ("updated_at");