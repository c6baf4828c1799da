CREATE TABLE "consent_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"consent_id" text NOT NULL,
	"policy_version" text NOT NULL,
	"analytics" boolean NOT NULL,
	"advertising" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "consent_log_consent_id_idx" ON "consent_log" USING btree ("consent_id");