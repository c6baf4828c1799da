-- The storefront's change counter (see app/modules/page-cache/schema.ts and docs/decisions/0012).
-- Bumps it once per transaction, at its commit: the triggers below are deferred, so the counter row
-- is locked last (after the product rows a checkout locks: no deadlock) and only for the commit
-- itself. The flag is transaction-local (set_config's third argument). The row is created by the
-- first bump (an upsert), so a freshly migrated database is empty and a restore can copy it as is.
CREATE FUNCTION "bump_storefront_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('vitrina.storefront_bumped', true) IS DISTINCT FROM 'yes' THEN
    PERFORM set_config('vitrina.storefront_bumped', 'yes', true);
    INSERT INTO "storefront_version" AS v ("id", "version") VALUES (1, 1)
      ON CONFLICT ("id") DO UPDATE SET "version" = v."version" + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "products_bump_storefront_version" AFTER INSERT OR UPDATE OR DELETE ON "products" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_storefront_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "categories_bump_storefront_version" AFTER INSERT OR UPDATE OR DELETE ON "categories" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_storefront_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "product_categories_bump_storefront_version" AFTER INSERT OR UPDATE OR DELETE ON "product_categories" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_storefront_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "media_bump_storefront_version" AFTER INSERT OR UPDATE OR DELETE ON "media" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_storefront_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "banners_bump_storefront_version" AFTER INSERT OR UPDATE OR DELETE ON "banners" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_storefront_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "settings_bump_storefront_version" AFTER INSERT OR UPDATE OR DELETE ON "settings" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_storefront_version"();
