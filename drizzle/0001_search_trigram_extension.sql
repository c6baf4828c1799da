-- Trigram index support for the accent- and case-insensitive substring search (products.search_name).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
