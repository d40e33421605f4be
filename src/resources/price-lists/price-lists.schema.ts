import { z } from "@hono/zod-openapi";
import { MoneySchema } from "../../conventions/money-schema.ts";
import { internalIdText, positiveId } from "../../conventions/write/field-rules.ts";
import { AMOUNT_PATTERN } from "../../lib/money.ts";
import { BrandSchema } from "../brands/brands.schema.ts";
import { CategorySchema } from "../categories/categories.schema.ts";

/** Price-list prices and `minimum_order_amount` are in the shop's canonical currency. */
const SHOP_CURRENCY = "EUR";

const PERCENTAGE_PATTERN = /^-?\d{1,3}(\.\d{1,2})?$/;

/** A percentage string: optional minus, up to 3 integer digits, up to 2 decimals, within -100..100. */
const percentage = (description: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? "is required"
          : 'must be a decimal string such as "12.50" (not a JSON number)',
    })
    .superRefine((value, ctx) => {
      if (!PERCENTAGE_PATTERN.test(value)) {
        ctx.addIssue({
          code: "custom",
          message:
            "must be a decimal string with up to 3 integer digits and 2 decimals (^-?\\d{1,3}(\\.\\d{1,2})?$)",
        });
      } else if (Math.abs(Number(value)) > 100) {
        ctx.addIssue({ code: "custom", message: "must lie within -100..100" });
      }
    })
    .openapi({ description, example: "10.5", pattern: PERCENTAGE_PATTERN.source });

/** Money in the shop currency; another currency is refused. */
const shopMoney = () =>
  z
    .object({
      amount: z
        .string({
          error: (issue) =>
            issue.input === undefined ? "is required" : 'must be a decimal string such as "150.00"',
        })
        .regex(AMOUNT_PATTERN, "must be a decimal string with up to 12 integer digits and 2 decimals")
        .openapi({ example: "150.00", pattern: AMOUNT_PATTERN.source }),
      currency: z
        .string()
        .refine((c) => c === SHOP_CURRENCY, `must be ${SHOP_CURRENCY}, the shop currency`)
        .openapi({ example: SHOP_CURRENCY, description: "Must be the shop currency (EUR)." }),
    })
    .strict();

/** An id list of one discount: non-empty, no repeats (each repeat is reported at its index). */
const idList = (what: string) =>
  z
    .array(positiveId())
    .min(1, "must not be empty")
    .max(1000, "must have at most 1000 ids")
    .superRefine((ids, ctx) => {
      ids.forEach((id, i) => {
        if (ids.indexOf(id) !== i)
          ctx.addIssue({ code: "custom", path: [i], message: `repeats ${what} ${id}` });
      });
    });

const categoryDiscountIn = z
  .object({
    categories: idList("category").openapi({ description: "Category ids.", example: [3, 7] }),
    discount: percentage("Percentage discount for products whose main category is listed."),
  })
  .strict();

const brandDiscountIn = z
  .object({
    brands: idList("brand").openapi({ description: "Brand ids.", example: [1] }),
    discount: percentage("Percentage discount for products of the listed brands."),
  })
  .strict();

const discountArray = <T extends z.ZodType>(item: T) =>
  z.array(item).max(500, "must have at most 500 entries");

const example = {
  id: 1,
  internal_id: "PL-WHOLESALE",
  is_active: true,
  minimum_order_amount: { amount: "150.00", currency: "EUR" },
  customers_count: 12,
  variant_prices_count: 240,
  global_discount: "5.00",
  category_discounts: [
    {
      categories: [
        {
          id: 3,
          internal_id: "CAT-3",
          translations: { "es-ES": { name: "Zapatillas", url: "https://www.example-shop.es/zapatillas" } },
        },
      ],
      discount: "10.50",
    },
  ],
  brand_discounts: [
    {
      brands: [
        {
          id: 1,
          name: "Acme",
          internal_id: "BR-1",
          translations: { "es-ES": { url: "https://www.example-shop.es/acme" } },
        },
      ],
      discount: "-2.00",
    },
  ],
};

export const PriceListSchema = z
  .object({
    id: z.number().int(),
    internal_id: z.string().optional(),
    is_active: z.boolean().optional(),
    minimum_order_amount: MoneySchema.nullable().optional(),
    customers_count: z.number().int().optional().openapi({ description: "Customers assigned to the list." }),
    variant_prices_count: z.number().int().optional().openapi({ description: "Fixed variant prices." }),
    global_discount: z.string().optional().openapi({ description: "Percentage, 2 decimals." }),
    category_discounts: z
      .array(z.object({ categories: z.array(CategorySchema), discount: z.string() }))
      .optional()
      .openapi({
        description:
          "Categories in their default representation (`id`, `internal_id`, `translations` with `name` and `url` per requested locale).",
      }),
    brand_discounts: z
      .array(z.object({ brands: z.array(BrandSchema), discount: z.string() }))
      .optional()
      .openapi({
        description:
          "Brands in their default representation (`id`, `name`, `internal_id`, `translations` with `url` per requested locale).",
      }),
  })
  .openapi("PriceList", {
    description:
      "Customer-specific conditions. Percentages and amounts are decimal strings with 2 decimals. Fixed variant prices are listed separately.",
    example,
  });

export const PriceListCreateSchema = z
  .object({
    internal_id: internalIdText().openapi({ description: "Unique across price lists." }),
    is_active: z.boolean(),
    global_discount: percentage("Percentage applied to every product (negative: a surcharge)."),
    category_discounts: discountArray(categoryDiscountIn),
    brand_discounts: discountArray(brandDiscountIn),
    minimum_order_amount: shopMoney().optional(),
  })
  .strict()
  .openapi("PriceListCreate", {
    example: {
      internal_id: "PL-WHOLESALE",
      is_active: true,
      global_discount: "5",
      category_discounts: [{ categories: [3, 7], discount: "10.5" }],
      brand_discounts: [{ brands: [1], discount: "-2" }],
      minimum_order_amount: { amount: "150.00", currency: "EUR" },
    },
  });

export const PriceListUpdateSchema = z
  .object({
    internal_id: internalIdText().optional(),
    is_active: z.boolean().optional(),
    global_discount: percentage("Percentage applied to every product.").optional(),
    category_discounts: discountArray(categoryDiscountIn)
      .optional()
      .openapi({ description: "Replaces every category discount; `[]` removes them all." }),
    brand_discounts: discountArray(brandDiscountIn)
      .optional()
      .openapi({ description: "Replaces every brand discount; `[]` removes them all." }),
    minimum_order_amount: shopMoney().nullable().optional().openapi({ description: "`null` removes it." }),
  })
  .strict()
  .openapi("PriceListUpdate", {
    description: "Only the fields sent change. Fixed variant prices are never touched.",
    example: { is_active: false, brand_discounts: [] },
  });

export type PriceListCreate = z.output<typeof PriceListCreateSchema>;
export type PriceListUpdate = z.output<typeof PriceListUpdateSchema>;

export const PriceListVariantPriceSchema = z
  .object({
    variant_id: z.number().int(),
    variant_internal_id: z.string().nullable().optional(),
    product_id: z.number().int().optional(),
    product_internal_id: z.string().nullable().optional(),
    ean: z.string().nullable().optional(),
    sku: z.string().nullable().optional(),
    supplier_id: z.number().int().nullable().optional(),
    supplier_internal_id: z.string().nullable().optional(),
    display_name: z.string().nullable().optional().openapi({
      description:
        "The variant's name in the store's primary locale, else the product's name in that locale, else null.",
    }),
    price: MoneySchema.optional().openapi({ description: "In the shop currency (EUR), 2 decimals." }),
    min_quantity: z.number().int().optional(),
    quantity_factor: z.number().int().optional().openapi({ description: "The quantity multiple." }),
  })
  .openapi("PriceListVariantPrice", {
    description: "A fixed customer-specific price of one variant in one price list.",
    example: {
      variant_id: 10,
      variant_internal_id: "V-10",
      product_id: 3,
      product_internal_id: "P-3",
      ean: "8412345678905",
      sku: "TSHIRT-RED-M",
      supplier_id: 2,
      supplier_internal_id: "SUP-0002",
      display_name: "Camiseta roja M",
      price: { amount: "12.40", currency: "EUR" },
      min_quantity: 1,
      quantity_factor: 1,
    },
  });

export const VariantPricesDeletedSchema = z
  .object({ deleted: z.number().int().openapi({ description: "Fixed prices removed." }) })
  .openapi("PriceListVariantPricesDeleted", { example: { deleted: 240 } });
