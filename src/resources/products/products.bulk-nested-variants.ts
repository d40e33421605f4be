import type { RowOps } from "../../async/bulk/row-ops.ts";
import { planVariantWrite } from "../variants/variants.bulk-fields.ts";
import type { PlanContext } from "./products.bulk-context.ts";
import type { ExistingVariant } from "./products.bulk-lookups.ts";

/** Nested variants merge by `id` or `internal_id` within the product; the others are created. Returns how many are created. */
export function planNestedVariants(
  ops: RowOps,
  productId: number,
  supplierId: number | null,
  ctx: PlanContext,
  own: ExistingVariant[],
): number {
  const { record, problems, now, allocator } = ctx;
  let created = 0;
  (record.variants ?? []).forEach((variant, i) => {
    const path = `variants.${i}`;
    const { id, ...write } = variant;
    let target: ExistingVariant | undefined;
    if (id !== undefined) {
      target = own.find((v) => v.id === id);
      if (!target) {
        problems.add("INVALID_FIELD_VALUE", `${path}.id`, `variant ${id} is not a variant of this product`);
        return;
      }
    } else if (write.internal_id) {
      target = own.find((v) => v.internal_id === write.internal_id);
      const elsewhere = ctx.variants
        .withInternalId(write.internal_id)
        .find((v) => v.product_id !== productId);
      if (!target && elsewhere) {
        problems.add(
          "INVALID_FIELD_VALUE",
          `${path}.internal_id`,
          "is the internal id of a variant of another product",
        );
        return;
      }
    }
    if (target) {
      for (const [market, price] of Object.entries(write.prices ?? {}))
        ctx.marketChanges.push([target.id, market, price !== null]);
      planVariantWrite(ops, {
        variantId: target.id,
        write,
        markets: ctx.markets.get(target.id) ?? new Set(),
        problems,
        path,
        now,
      });
      return;
    }
    if (!write.sku) problems.add("MISSING_REQUIRED_FIELD", `${path}.sku`, "a new variant needs a sku");
    const variantId = allocator.nextVariant();
    created++;
    planVariantWrite(ops, {
      variantId,
      write,
      markets: new Set(),
      problems,
      path,
      now,
      create: {
        product_id: productId,
        supplier_id: supplierId,
        internal_id: null,
        sku: null,
        ean: null,
        status: "published",
        min_quantity: 1,
        quantity_factor: 1,
        supplier_stock: 0,
        warehouse_stock: 0,
        cost_price_amount: null,
        cost_price_currency: null,
        position: (own.length + i) as number,
        created_at: now,
        updated_at: now,
      },
    });
  });
  return created;
}
