/** Exact decimal strings, never binary floats: amounts are normalized as text. */
export const AMOUNT_PATTERN = /^\d{1,12}(\.\d{1,2})?$/;

/** "10.5" → "10.50" at a fixed scale (input already validated as a plain decimal string). */
export function toScale(amount: string, scale: number): string {
  // Stored amounts are usually at the scale already ("10.50"): returned as they are.
  const dot = amount.indexOf(".");
  if (scale > 0 && dot > 0 && amount.length - dot - 1 === scale && (dot === 1 || amount[0] !== "0")) {
    if (amount[0] !== "-") return amount;
  }
  const negative = amount.startsWith("-");
  const digits = negative ? amount.slice(1) : amount;
  const [int = "0", frac = ""] = digits.split(".");
  const fixed =
    scale > 0 ? `${int.replace(/^0+(?=\d)/, "")}.${frac.padEnd(scale, "0").slice(0, scale)}` : int;
  return negative && /[1-9]/.test(fixed) ? `-${fixed}` : fixed;
}

export interface Money {
  amount: string;
  currency: string;
}

export const money = (
  amount: string | null | undefined,
  currency: string | null | undefined,
  scale = 2,
): Money | null =>
  amount === null || amount === undefined || !currency ? null : { amount: toScale(amount, scale), currency };

/**
 * Money of a NOT NULL amount and currency, which the contract shows as present: `money` answers null
 * only for an empty currency, and every writer stores a currency code.
 */
export const storedMoney = (amount: string, currency: string, scale = 2) =>
  money(amount, currency, scale) as Money;
