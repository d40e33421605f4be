import fc from "fast-check";
import { KEYS } from "../../support/keys.ts";

/** Headers: mostly the all-scopes key, sometimes no key, a wrong one, or an Idempotency-Key. */
export function authHeaders(method: string): fc.Arbitrary<Record<string, string>> {
  const auth = fc.oneof(
    { weight: 30, arbitrary: fc.constant<string | null>(`Bearer ${KEYS.all}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | null>(
        null,
        `Bearer ${KEYS.read}`,
        `Bearer ${KEYS.revoked}`,
        "Bearer sfk_nope",
        "Basic abc",
        "Bearer",
        `Bearer ${KEYS.all} extra`,
        `bearer ${KEYS.all}`,
      ),
    },
  );
  const idem =
    method === "POST"
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constant(null) },
          {
            weight: 1,
            arbitrary: fc.oneof(fc.constantFrom("k1", "k2", "", " ", "x".repeat(256)), fc.uuid()),
          },
        )
      : fc.constant(null);
  return fc.tuple(auth, idem).map(([a, k]) => {
    const h: Record<string, string> = {};
    if (a !== null) h.authorization = a;
    if (k !== null) h["idempotency-key"] = k;
    return h;
  });
}
