CREATE TABLE "missing_media" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_sku" text NOT NULL,
	"kind" text NOT NULL,
	"url" text NOT NULL,
	"reason" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "missing_media" ADD CONSTRAINT "missing_media_product_sku_products_sku_fk" FOREIGN KEY ("product_sku") REFERENCES "public"."products"("sku") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "missing_media_product_idx" ON "missing_media" USING btree ("product_sku","position");--> statement-breakpoint
-- Imports before this one kept a file they could not download as a media row whose path is the
-- address (http…). The shop cannot show it (its pages take media from this shop only) and its
-- pages would publish the address, password included: it moves here, without the password.
INSERT INTO "missing_media" ("product_sku", "kind", "url", "position", "created_at")
SELECT "product_sku", "kind", regexp_replace("path", '^([a-z][a-z0-9+.-]*://)[^/?#]*@', '\1', 'i'), "position", "created_at"
FROM "media"
WHERE "product_sku" IS NOT NULL AND "path" ~* '^https?://'
ORDER BY "id";
--> statement-breakpoint
DELETE FROM "media" WHERE "product_sku" IS NOT NULL AND "path" ~* '^https?://';
--> statement-breakpoint
-- A product whose main file was one of them takes its first stored image as main, so its card
-- still has a picture.
UPDATE "media" SET "is_main" = true
WHERE "id" IN (
	SELECT DISTINCT ON (m."product_sku") m."id"
	FROM "media" m
	WHERE m."product_sku" IS NOT NULL
		AND m."kind" = 'image'
		AND NOT EXISTS (SELECT 1 FROM "media" x WHERE x."product_sku" = m."product_sku" AND x."is_main")
	ORDER BY m."product_sku", m."position", m."id"
);
