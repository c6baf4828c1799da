ALTER TABLE "orders" ADD COLUMN "customer_identification_type" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_department_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_municipality_code" text;--> statement-breakpoint
-- Orders placed before: each department's DANE code from the name the checkout offered, and the
-- capital's one municipality.
UPDATE "orders" SET "customer_department_code" = CASE "customer_department"
  WHEN 'Amazonas' THEN '91'
  WHEN 'Antioquia' THEN '05'
  WHEN 'Arauca' THEN '81'
  WHEN 'Atlántico' THEN '08'
  WHEN 'Bogotá D.C.' THEN '11'
  WHEN 'Bolívar' THEN '13'
  WHEN 'Boyacá' THEN '15'
  WHEN 'Caldas' THEN '17'
  WHEN 'Caquetá' THEN '18'
  WHEN 'Casanare' THEN '85'
  WHEN 'Cauca' THEN '19'
  WHEN 'Cesar' THEN '20'
  WHEN 'Chocó' THEN '27'
  WHEN 'Córdoba' THEN '23'
  WHEN 'Cundinamarca' THEN '25'
  WHEN 'Guainía' THEN '94'
  WHEN 'Guaviare' THEN '95'
  WHEN 'Huila' THEN '41'
  WHEN 'La Guajira' THEN '44'
  WHEN 'Magdalena' THEN '47'
  WHEN 'Meta' THEN '50'
  WHEN 'Nariño' THEN '52'
  WHEN 'Norte de Santander' THEN '54'
  WHEN 'Putumayo' THEN '86'
  WHEN 'Quindío' THEN '63'
  WHEN 'Risaralda' THEN '66'
  WHEN 'San Andrés y Providencia' THEN '88'
  WHEN 'Santander' THEN '68'
  WHEN 'Sucre' THEN '70'
  WHEN 'Tolima' THEN '73'
  WHEN 'Valle del Cauca' THEN '76'
  WHEN 'Vaupés' THEN '97'
  WHEN 'Vichada' THEN '99'
END WHERE "customer_department_code" IS NULL;--> statement-breakpoint
UPDATE "orders" SET "customer_municipality_code" = '11001' WHERE "customer_department_code" = '11' AND "customer_municipality_code" IS NULL;
