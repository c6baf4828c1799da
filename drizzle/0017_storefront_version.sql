CREATE TABLE "storefront_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "storefront_version_one_row" CHECK ("storefront_version"."id" = 1)
);
