CREATE TABLE "channel_credentials" (
	"channel" text PRIMARY KEY NOT NULL,
	"access_token" text NOT NULL,
	"refresh_token" text NOT NULL,
	"expires_at" timestamp with time zone,
	"origin" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_syncs" (
	"channel" text NOT NULL,
	"sku" text NOT NULL,
	"status" text NOT NULL,
	"quantity" integer,
	"message" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_syncs_channel_sku_pk" PRIMARY KEY("channel","sku")
);
--> statement-breakpoint
CREATE INDEX "channel_syncs_status_idx" ON "channel_syncs" USING btree ("channel","status","at");