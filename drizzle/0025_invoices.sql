CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"reference_code" text NOT NULL,
	"provider" text,
	"number" text,
	"cufe" text,
	"qr_url" text,
	"pdf_url" text,
	"xml_url" text,
	"provider_reference" text,
	"lines" jsonb,
	"provider_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_at" timestamp with time zone,
	CONSTRAINT "invoices_referenceCode_unique" UNIQUE("reference_code"),
	CONSTRAINT "invoices_issued_has_number" CHECK ("invoices"."status" <> 'issued' or "invoices"."number" is not null)
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_kind_idx" ON "invoices" USING btree ("order_id","kind");--> statement-breakpoint
CREATE INDEX "invoices_status_idx" ON "invoices" USING btree ("status");