CREATE TABLE "import_records" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_records_kind_key_pk" PRIMARY KEY("kind","key")
);
