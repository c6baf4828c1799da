CREATE TABLE "admin_members" (
	"email" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"invited_by" text NOT NULL,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"invitation_expires_at" timestamp with time zone NOT NULL,
	"joined_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_members_role_check" CHECK ("admin_members"."role" in ('owner', 'sales', 'warehouse'))
);
--> statement-breakpoint
ALTER TABLE "admin_sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "admin_sessions" ADD COLUMN "ip_address" text;