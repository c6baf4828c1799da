CREATE TABLE "admin_sign_ins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"email" text NOT NULL,
	"outcome" text NOT NULL,
	"user_agent" text,
	"ip_address" text
);
--> statement-breakpoint
CREATE TABLE "audit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_email" text NOT NULL,
	"actor_role" text NOT NULL,
	"section" text NOT NULL,
	"path" text NOT NULL,
	"intent" text,
	"fields" jsonb NOT NULL,
	"changes" jsonb NOT NULL,
	"status" integer NOT NULL,
	"ip_address" text
);
--> statement-breakpoint
CREATE INDEX "admin_sign_ins_at_idx" ON "admin_sign_ins" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_entries_at_idx" ON "audit_entries" USING btree ("at");