import { seedTime } from "./clock.ts";
import { rngFor, syntheticWord } from "./rng.ts";
import { insertRows, type Row, type SeedStatement } from "./sql.ts";

const DEMO_SUPPLIERS: { name: string; description: string | null }[] = [
  { name: "Distribuciones Levante S.L.", description: "Textile wholesaler in Valencia; weekly deliveries." },
  { name: "Nordic Sourcing AB", description: "Home textiles and décor from Scandinavian makers." },
  { name: "Atlas Logistik GmbH", description: "Drop-shipping partner for Germany and Austria." },
  { name: "Iberia Calzados S.A.", description: "Footwear manufacturer, Elche. Orders close on Thursdays." },
  { name: "Lusitânia Têxteis Lda.", description: null },
  { name: "Alpine Gear Supply Ltd", description: "Mountain and camping equipment; ships from Bristol." },
  { name: "Cucina Forniture S.r.l.", description: "Cookware importer, Milan." },
  { name: "Ciclos del Norte S.L.", description: null },
];
const KINDS = ["Trading", "Supply", "Logistics", "Wholesale", "Distribution", "Sourcing"];
const FORMS = ["S.L.", "S.A.", "GmbH", "Ltd", "SAS", "S.r.l.", "AB", "B.V."];

/** 8 suppliers per unit of scale; ids 1..n, internal ids SUP-0001…. */
export const supplierCount = (scale: number) => Math.max(1, Math.round(DEMO_SUPPLIERS.length * scale));

export function supplierStatements(scale: number): SeedStatement[] {
  const rng = rngFor("suppliers");
  const rows: Row[] = [];
  const count = supplierCount(scale);
  for (let i = 0; i < count; i++) {
    const demo = DEMO_SUPPLIERS[i];
    const created = seedTime(20 + i * 11);
    rows.push({
      id: i + 1,
      name: demo?.name ?? `${syntheticWord(rng)} ${rng.pick(KINDS)} ${rng.pick(FORMS)}`,
      internal_id: `SUP-${String(i + 1).padStart(4, "0")}`,
      description: demo
        ? demo.description
        : rng.chance(0.6)
          ? `Supplier for ${syntheticWord(rng)} lines.`
          : null,
      created_at: created,
      updated_at: created,
    });
  }
  return insertRows("suppliers", rows);
}
