import { z } from "@hono/zod-openapi";

export const MoneySchema = z
  .object({
    amount: z.string().openapi({ description: "Decimal string at a fixed scale.", example: "19.90" }),
    currency: z.string().openapi({ example: "EUR" }),
  })
  .openapi("Money");
